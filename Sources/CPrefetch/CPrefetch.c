// The module is header-only (`oncue_prefetch` is inline); SwiftPM needs one source file to build a C target.
#include "CPrefetch.h"
