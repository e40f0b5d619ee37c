#ifndef ONCUE_CPREFETCH_H
#define ONCUE_CPREFETCH_H

/// Asks the CPU to start loading the cache line holding `address`, without waiting for it.
///
/// A search that knows which records it will read next (a k-d tree's next leaf, the texts of the regions
/// it has chosen) overlaps their memory misses instead of paying them one after another. Swift has no
/// public prefetch, hence this small C module. A hint only: it never faults, whatever the address.
static inline __attribute__((always_inline)) void oncue_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

/// `oncue_prefetch` for `count` consecutive cache lines from `address`: one call where the Swift compiler does not
/// inline the C function (it keeps some calls to it out of line).
static inline __attribute__((always_inline)) void oncue_prefetch_lines(const void *address, int count) {
    const char *line = (const char *)address;
    for (int i = 0; i < count; i++) {
        __builtin_prefetch(line + 64 * i, 0, 3);
    }
}

#endif
