/* clgather-row-ceiling: what this machine's cores can do, natively, on the rows-u8 case.
 *
 * rows-u8 (1,000,000 rows of 64 bytes, 262,144 random int32 indices) reads one random cache line
 * per row, so it is bound by how many misses the cores keep in flight, not by streaming bandwidth.
 * This program answers "is 0.85 of copy reachable at all here?" without OpenCL: hand-written C on
 * the same number of threads, with the same index values as clgather-bench, against a plain copy
 * measured the same way. Variants: prefetch distance (rows ahead) and ordinary or streaming
 * (non-temporal) stores; the median of each, and its ratio to the copy.
 *
 *   clgather-row-ceiling [--threads N] [--repeat N]
 */
#define _POSIX_C_SOURCE 200809L
#include "splitmix.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define ROW_BYTES 64u
#define ROWS 1000000u
#define INDICES 262144u
#define INDEX_SEED 1200u /* clgather-bench's rows-u8 stream */
#define COPY_BYTES ((size_t)256 << 20)
#define EVICT_BYTES ((size_t)128 << 20)
#define MAX_THREADS 256

typedef struct variant {
    const char *name;
    unsigned ahead; /* rows prefetched ahead, 0 for none; the copy ignores it */
    int stream;     /* non-temporal stores */
    int copy;       /* the copy ceiling instead of the gather */
} variant;

static const variant variants[] = {
    {"copy 256 MiB (ordinary stores)", 0, 0, 1},
    {"gather, no prefetch", 0, 0, 0},
    {"gather, prefetch 16 rows", 16, 0, 0},
    {"gather, prefetch 32 rows", 32, 0, 0},
    {"gather, prefetch 16 rows, streaming", 16, 1, 0},
    {"gather, prefetch 32 rows, streaming", 32, 1, 0},
    {"gather, prefetch 64 rows, streaming", 64, 1, 0},
    {"gather, prefetch 128 rows, streaming", 128, 1, 0},
};
#define VARIANTS (sizeof variants / sizeof variants[0])

static struct {
    unsigned char *data, *out, *copy_src, *copy_dst;
    int32_t *indices;
    unsigned threads;
    const variant *current;
    pthread_barrier_t start, done;
} job;

static void copy_row(unsigned char *dst, const unsigned char *src, int stream)
{
#ifdef __SSE2__
    if (stream) {
        for (unsigned b = 0; b < ROW_BYTES; b += 16)
            _mm_stream_si128((__m128i *)(dst + b), _mm_load_si128((const __m128i *)(src + b)));
        return;
    }
#else
    (void)stream;
#endif
    memcpy(dst, src, ROW_BYTES);
}

static void gather_part(unsigned part, const variant *v)
{
    const size_t begin = (size_t)INDICES * part / job.threads, end = (size_t)INDICES * (part + 1) / job.threads;
    for (size_t k = begin; k < end; ++k) {
        if (v->ahead && k + v->ahead < end) __builtin_prefetch(job.data + (size_t)job.indices[k + v->ahead] * ROW_BYTES);
        copy_row(job.out + k * ROW_BYTES, job.data + (size_t)job.indices[k] * ROW_BYTES, v->stream);
    }
#ifdef __SSE2__
    if (v->stream) _mm_sfence();
#endif
}

static void copy_part(unsigned part)
{
    const size_t lines = COPY_BYTES / ROW_BYTES;
    const size_t begin = lines * part / job.threads, end = lines * (part + 1) / job.threads;
    for (size_t k = begin; k < end; ++k) copy_row(job.copy_dst + k * ROW_BYTES, job.copy_src + k * ROW_BYTES, 0);
}

static void run_part(unsigned part)
{
    if (job.current->copy)
        copy_part(part);
    else
        gather_part(part, job.current);
}

static void *worker(void *arg)
{
    const unsigned part = (unsigned)(uintptr_t)arg;
    for (;;) {
        pthread_barrier_wait(&job.start);
        if (!job.current) return NULL;
        run_part(part);
        pthread_barrier_wait(&job.done);
    }
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One timed run on all threads (part 0 on this one), after evicting the caches. */
static double timed_run(const variant *v, unsigned char *evict)
{
    memset(evict, (int)(seconds() * 1000) & 0xFF, EVICT_BYTES);
    job.current = v;
    const double t0 = seconds();
    pthread_barrier_wait(&job.start);
    run_part(0);
    pthread_barrier_wait(&job.done);
    return seconds() - t0;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void *allocate(size_t bytes)
{
    void *p = aligned_alloc(4096, bytes);
    if (!p) {
        fprintf(stderr, "clgather-row-ceiling: cannot allocate %zu bytes\n", bytes);
        exit(1);
    }
    memset(p, 1, bytes); /* fault the pages in before timing */
    return p;
}

int main(int argc, char **argv)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned threads = cores > 0 ? (unsigned)cores : 1, repeat = 21;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
            repeat = (unsigned)strtoul(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: clgather-row-ceiling [--threads N] [--repeat N]\n");
            return 2;
        }
    }
    if (threads < 1 || threads > MAX_THREADS || repeat < 1 || repeat > 1000) {
        fprintf(stderr, "clgather-row-ceiling: --threads wants 1..%d and --repeat 1..1000\n", MAX_THREADS);
        return 2;
    }
    job.threads = threads;
    job.data = allocate((size_t)ROWS * ROW_BYTES);
    job.out = allocate((size_t)INDICES * ROW_BYTES);
    job.copy_src = allocate(COPY_BYTES);
    job.copy_dst = allocate(COPY_BYTES);
    job.indices = allocate(INDICES * sizeof(int32_t));
    unsigned char *evict = allocate(EVICT_BYTES);
    for (size_t i = 0; i < INDICES; ++i) job.indices[i] = (int32_t)(splitmix_value(INDEX_SEED, i) % ROWS);

    pthread_barrier_init(&job.start, NULL, threads);
    pthread_barrier_init(&job.done, NULL, threads);
    pthread_t pool[MAX_THREADS];
    for (unsigned t = 1; t < threads; ++t) pthread_create(&pool[t], NULL, worker, (void *)(uintptr_t)t);

    /* rounds interleave the variants, so a slow minute of a shared machine hits them all alike */
    double *times = malloc(sizeof(double) * VARIANTS * repeat);
    if (!times) return 1;
    for (unsigned v = 0; v < VARIANTS; ++v) timed_run(&variants[v], evict); /* warm-up */
    for (unsigned r = 0; r < repeat; ++r)
        for (unsigned v = 0; v < VARIANTS; ++v) times[v * repeat + r] = timed_run(&variants[v], evict);
    job.current = NULL;
    pthread_barrier_wait(&job.start);
    for (unsigned t = 1; t < threads; ++t) pthread_join(pool[t], NULL);

    printf("clgather-row-ceiling: %u threads, median of %u runs (caches evicted before each)\n", threads, repeat);
    printf("rows-u8 bytes: indices + rows read + output written = %.2f MB\n",
           (INDICES * 4.0 + 2.0 * INDICES * ROW_BYTES) / 1e6);
    printf("%-40s %10s %8s %8s\n", "variant", "median", "GB/s", "/copy");
    double copy_gbps = 0;
    for (unsigned v = 0; v < VARIANTS; ++v) {
        double *t = times + (size_t)v * repeat;
        qsort(t, repeat, sizeof *t, by_value);
        const double median = t[repeat / 2];
        const double bytes = variants[v].copy ? 2.0 * COPY_BYTES : INDICES * 4.0 + 2.0 * INDICES * ROW_BYTES;
        const double gbps = bytes / median / 1e9;
        if (variants[v].copy) copy_gbps = gbps;
        printf("%-40s %8.3fms %8.2f %8.3f\n", variants[v].name, median * 1e3, gbps, gbps / copy_gbps);
    }
    free(times);
    return 0;
}
