#ifndef CFUZZERDRIVER_H
#define CFUZZERDRIVER_H
#include <stddef.h>
#include <stdint.h>

// libFuzzer's entry for programs that keep their own main (compiler-rt's FuzzerInterface.h; linked in by
// -sanitize=fuzzer). Declared here because Swift cannot import compiler-rt's C++ header.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
