/* Timing for the native ceiling tools (clgather-row-ceiling, clgather-dequant-ceiling): a monotonic
 * clock, the cache eviction clgather-bench does before each run, and the order for medians. */
#ifndef CLGATHER_BENCH_NATIVE_TIMING_H
#define CLGATHER_BENCH_NATIVE_TIMING_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

static inline double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Evict the caches as clgather-bench's copy kernel does: an ordinary store to every line of a buffer
 * larger than the cache, which leaves the cache full of unrelated dirty lines. Not memset: glibc
 * writes a buffer this large with non-temporal stores, which bypass the cache and evict nothing. */
static inline void evict_caches(unsigned char *evict, size_t bytes)
{
    const uint64_t stamp = (uint64_t)(seconds() * 1e6);
    for (size_t b = 0; b < bytes; b += 64) *(volatile uint64_t *)(evict + b) = stamp + b;
}

/* qsort's order for doubles, ascending. */
static inline int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#endif /* CLGATHER_BENCH_NATIVE_TIMING_H */
