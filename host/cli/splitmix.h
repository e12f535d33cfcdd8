/* The benchmark's input generator: counter-based splitmix64, so any value of any stream can be
 * computed on its own (and bench/peers.py regenerates the same inputs in numpy). */
#ifndef CLGATHER_BENCH_SPLITMIX_H
#define CLGATHER_BENCH_SPLITMIX_H

#include <stdint.h>

#define SPLITMIX_GOLDEN 0x9E3779B97F4A7C15ull

static inline uint64_t splitmix_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Value i of stream seed. */
static inline uint64_t splitmix_value(uint64_t seed, uint64_t i)
{
    return splitmix_mix(seed + (i + 1) * SPLITMIX_GOLDEN);
}

#endif
