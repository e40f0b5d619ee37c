#ifndef ONCUE_CPREFETCH_H
#define ONCUE_CPREFETCH_H

/// Asks the CPU to start loading the cache line holding `address`, without waiting for it.
///
/// A search that knows which records it will read next (a k-d tree's next leaf, the texts of the regions
/// it has chosen) overlaps their memory misses instead of paying them one after another. Swift has no
/// public prefetch, hence this one-line C module. A hint only: it never faults, whatever the address.
static inline void oncue_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif
