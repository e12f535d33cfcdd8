/* The native ceiling tools' common frame (clgather-row-ceiling, clgather-dequant-ceiling,
 * clgather-element-ceiling): their --threads and --repeat options, page-faulted allocations, and a pool of
 * threads that run each variant's parts together, timed after the caches are evicted, with the variants
 * interleaved round by round so that a slow minute of a shared machine hits them all alike. */
#ifndef CLGATHER_BENCH_NATIVE_POOL_H
#define CLGATHER_BENCH_NATIVE_POOL_H

#include "native_timing.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NATIVE_MAX_THREADS 256

/* Part `part` of `parts` of one variant's work. */
typedef void (*native_part_fn)(unsigned part, unsigned parts, const void *variant);

typedef struct native_pool {
    unsigned threads;
    native_part_fn run_part;
    const void *current; /* the variant being run; NULL tells the workers to stop */
    pthread_barrier_t start, done;
    pthread_t workers[NATIVE_MAX_THREADS];
    struct native_worker_arg {
        struct native_pool *pool;
        unsigned part;
    } args[NATIVE_MAX_THREADS];
} native_pool;

/* Threads and repeat default to the machine's cores and `repeat`; --threads N and --repeat N change them. Any
 * other argument, or a value out of range, prints usage (which names the tool and its own options) and
 * returns 0. `own_option`, if not NULL, is offered each argument first and returns how many it consumed. */
static inline int native_options(int argc, char **argv, const char *usage, unsigned *threads, unsigned *repeat,
                                 int (*own_option)(int argc, char **argv, int i))
{
    const long cores = sysconf(_SC_NPROCESSORS_ONLN);
    *threads = cores > 0 ? (unsigned)cores : 1;
    for (int i = 1; i < argc; ++i) {
        const int own = own_option ? own_option(argc, argv, i) : 0;
        if (own < 0) return 0;
        if (own > 0)
            i += own - 1;
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            *threads = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
            *repeat = (unsigned)strtoul(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: %s\n", usage);
            return 0;
        }
    }
    if (*threads < 1 || *threads > NATIVE_MAX_THREADS || *repeat < 1 || *repeat > 1000) {
        fprintf(stderr, "usage: %s (--threads 1..%d, --repeat 1..1000)\n", usage, NATIVE_MAX_THREADS);
        return 0;
    }
    return 1;
}

/* A 4 KiB-aligned buffer, every page written (so faulted in before any timing), or exit. */
static inline void *native_allocate(size_t bytes, int fill)
{
    void *p = aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
    if (!p) {
        fprintf(stderr, "cannot allocate %zu bytes\n", bytes);
        exit(1);
    }
    memset(p, fill, bytes);
    return p;
}

static inline void *native_pool_worker(void *arg)
{
    const struct native_worker_arg *a = arg;
    native_pool *pool = a->pool;
    for (;;) {
        pthread_barrier_wait(&pool->start);
        if (!pool->current) return NULL;
        pool->run_part(a->part, pool->threads, pool->current);
        pthread_barrier_wait(&pool->done);
    }
}

/* --case NAME for a tool whose `count` cases lie `size` bytes apart from `first`, each a struct whose first
 * member is its name: 2 arguments consumed and *chosen set to the case, 0 for any other argument, -1
 * (after naming the cases) for an unknown one. */
static inline int native_case_option(int argc, char **argv, int i, const void *first, size_t size, size_t count,
                                     const void **chosen, const char *tool)
{
    if (strcmp(argv[i], "--case") || i + 1 >= argc) return 0;
    const char *cases = first;
    for (size_t k = 0; k < count; ++k)
        if (!strcmp(argv[i + 1], *(const char *const *)(cases + k * size))) {
            *chosen = cases + k * size;
            return 2;
        }
    fprintf(stderr, "%s: unknown case '%s' (", tool, argv[i + 1]);
    for (size_t k = 0; k < count; ++k) fprintf(stderr, "%s%s", k ? ", " : "", *(const char *const *)(cases + k * size));
    fprintf(stderr, ")\n");
    return -1;
}

/* Part `part` of `parts` of the copy ceiling: `bytes` (a multiple of 64) from src to dst, 64-byte line by
 * line with ordinary stores (memcpy of one line; of a whole part glibc would stream past the cache). */
static inline void native_copy_lines(unsigned char *dst, const unsigned char *src, size_t bytes, unsigned part,
                                     unsigned parts)
{
    const size_t lines = bytes / 64;
    const size_t begin = lines * part / parts, end = lines * (part + 1) / parts;
    for (size_t k = begin; k < end; ++k) memcpy(dst + k * 64, src + k * 64, 64);
}

/* Start threads - 1 workers; the caller's thread runs part 0. */
static inline void native_pool_start(native_pool *pool, unsigned threads, native_part_fn run_part)
{
    pool->threads = threads;
    pool->run_part = run_part;
    pool->current = NULL;
    pthread_barrier_init(&pool->start, NULL, threads);
    pthread_barrier_init(&pool->done, NULL, threads);
    for (unsigned t = 1; t < threads; ++t) {
        pool->args[t] = (struct native_worker_arg){pool, t};
        pthread_create(&pool->workers[t], NULL, native_pool_worker, &pool->args[t]);
    }
}

/* One run of `variant` on every thread after evicting the caches: its seconds. */
static inline double native_pool_timed_run(native_pool *pool, const void *variant, unsigned char *evict,
                                           size_t evict_bytes)
{
    evict_caches(evict, evict_bytes);
    pool->current = variant;
    const double t0 = seconds();
    pthread_barrier_wait(&pool->start);
    pool->run_part(0, pool->threads, variant);
    pthread_barrier_wait(&pool->done);
    return seconds() - t0;
}

/* `repeat` rounds over `count` variants (each `size` bytes apart from `first`), one warm-up round first:
 * times[v * repeat + r], each variant's run sorted ascending (so [repeat / 2] is its median). */
static inline void native_pool_time_rounds(native_pool *pool, const void *first, size_t size, unsigned count,
                                           unsigned repeat, unsigned char *evict, size_t evict_bytes, double *times)
{
    const char *variants = first;
    for (unsigned v = 0; v < count; ++v) native_pool_timed_run(pool, variants + v * size, evict, evict_bytes);
    for (unsigned r = 0; r < repeat; ++r)
        for (unsigned v = 0; v < count; ++v)
            times[v * repeat + r] = native_pool_timed_run(pool, variants + v * size, evict, evict_bytes);
    for (unsigned v = 0; v < count; ++v) qsort(times + (size_t)v * repeat, repeat, sizeof *times, by_value);
}

/* The results table: a title line (the tool's own, already printed), what the case's bytes count, then a line
 * per variant from its sorted times (median, minimum, GB/s of `bytes`, and the ratio to the copy's GB/s; the
 * copy, is_copy, must come first and sets *copy_gbps). */
static inline void native_report_header(const char *bytes_counted, double case_bytes)
{
    printf("bytes: %s = %.2f MB\n", bytes_counted, case_bytes / 1e6);
    printf("%-44s %10s %10s %8s %8s\n", "variant", "median", "min", "GB/s", "/copy");
}

static inline void native_report(const char *name, const double *sorted, unsigned repeat, double bytes, int is_copy,
                                 double *copy_gbps)
{
    const double median = sorted[repeat / 2], gbps = bytes / median / 1e9;
    if (is_copy) *copy_gbps = gbps;
    printf("%-44s %8.3fms %8.3fms %8.2f %8.3f\n", name, median * 1e3, sorted[0] * 1e3, gbps, gbps / *copy_gbps);
}

static inline void native_pool_stop(native_pool *pool)
{
    pool->current = NULL;
    pthread_barrier_wait(&pool->start);
    for (unsigned t = 1; t < pool->threads; ++t) pthread_join(pool->workers[t], NULL);
    pthread_barrier_destroy(&pool->start);
    pthread_barrier_destroy(&pool->done);
}

#endif /* CLGATHER_BENCH_NATIVE_POOL_H */
