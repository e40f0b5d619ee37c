// Only the header matters: SwiftPM needs a source file to make a C target of it.
#include "CFuzzerDriver.h"
