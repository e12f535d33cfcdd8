/* clgather-row-ceiling: what this machine's cores can do, natively, on the row-gather cases.
 *
 * rows-u8 (1,000,000 rows of 64 bytes, 262,144 random int32 indices) reads one random cache line
 * per row, and middle-axis (256 groups of 1024 rows of 128 bytes, 512 random rows from each) two;
 * both are bound by how many misses the cores keep in flight, not by streaming bandwidth. The
 * embeddings (3 and 8 KiB rows) are streams of a few dozen lines each, where the prefetch of a
 * row's head and the cost of store fences show. This
 * program answers "is 0.85 of copy reachable at all here?" without OpenCL: hand-written C on the
 * same number of threads, with the same index values as clgather-bench, against a plain copy
 * measured the same way. Variants: prefetch distance (rows ahead, within a group), whole rows or
 * their heads, ordinary or streaming (non-temporal) stores, and an sfence after every row or every
 * 4 rows (what a kernel that fences per work-item pays); the median of each, and its ratio to the
 * copy.
 *
 *   clgather-row-ceiling [--case rows-u8|middle-axis|embedding-f32|embedding-f16-i64] [--threads N] [--repeat N]
 */
#define _POSIX_C_SOURCE 200809L
#include "native_timing.h"
#include "splitmix.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __SSE2__
#include <immintrin.h>
#endif

/* Streaming stores as wide as this build's CPU allows (CMake builds this tool with -march=native):
 * on Zen 5, 16-byte streaming stores ran 3 KiB rows at half the speed of 64-byte ones, so a ceiling
 * measured with narrower stores than the kernels' would be no ceiling. */
#if defined(__AVX512F__)
#define STREAM_BYTES 64
#elif defined(__AVX__)
#define STREAM_BYTES 32
#else
#define STREAM_BYTES 16
#endif

/* The gathered shape: output row r = g * indices + n copies data row g * rows + idx[n]. */
typedef struct shape {
    const char *name;
    size_t groups, rows, row_bytes, indices;
    uint64_t index_seed; /* clgather-bench's stream for the case */
} shape;

static const shape shapes[] = {
    {"rows-u8", 1, 1000000, 64, 262144, 1200},
    {"middle-axis", 256, 1024, 128, 512, 1400},
    {"embedding-f32", 1, 100000, 3072, 32768, 1000},
    {"embedding-f16-i64", 1, 32000, 8192, 8192, 1100},
};
#define COPY_BYTES  ((size_t)256 << 20)
#define EVICT_BYTES ((size_t)128 << 20)
#define MAX_THREADS 256

typedef struct variant {
    const char *name;
    unsigned ahead; /* rows prefetched ahead, 0 for none; the copy ignores it */
    unsigned head;  /* bytes of each row prefetched, 0 for the whole row */
    int stream;     /* non-temporal stores */
    int copy;       /* the copy ceiling instead of the gather */
    unsigned fence; /* an sfence after every this many rows, 0 for one at the end */
} variant;

static const variant variants[] = {
    {"copy 256 MiB (ordinary stores)", 0, 0, 0, 1, 0},
    {"gather, no prefetch", 0, 0, 0, 0, 0},
    {"gather, prefetch 8 rows", 8, 0, 0, 0, 0},
    {"gather, prefetch 16 rows", 16, 0, 0, 0, 0},
    {"gather, prefetch 32 rows", 32, 0, 0, 0, 0},
    {"gather, prefetch 8 rows, streaming", 8, 0, 1, 0, 0},
    {"gather, prefetch 16 rows, streaming", 16, 0, 1, 0, 0},
    {"gather, prefetch 32 rows, streaming", 32, 0, 1, 0, 0},
    {"gather, prefetch 64 rows, streaming", 64, 0, 1, 0, 0},
    {"gather, prefetch 128 rows, streaming", 128, 0, 1, 0, 0},
    {"gather, no prefetch, streaming", 0, 0, 1, 0, 0},
    {"gather, prefetch 1 row's 256-byte head, streaming", 1, 256, 1, 0, 0},
    {"gather, prefetch 1 row, streaming", 1, 0, 1, 0, 0},
    {"gather, prefetch 2 rows' heads, streaming", 2, 256, 1, 0, 0},
    {"gather, 1 row's head, streaming, sfence per row", 1, 256, 1, 0, 1},
    {"gather, 1 row's head, streaming, sfence per 4 rows", 1, 256, 1, 0, 4},
};
#define VARIANTS (sizeof variants / sizeof variants[0])

static struct {
    const shape *shape;
    unsigned char *data, *out, *copy_src, *copy_dst;
    int32_t *indices;
    unsigned threads;
    const variant *current;
    pthread_barrier_t start, done;
} job;

/* One row (row bytes are a multiple of 64 and rows are 64-byte aligned). */
static void copy_row(unsigned char *dst, const unsigned char *src, size_t bytes, int stream)
{
#if defined(__AVX512F__)
    if (stream) {
        for (size_t b = 0; b < bytes; b += 64)
            _mm512_stream_si512((__m512i *)(dst + b), _mm512_load_si512((const void *)(src + b)));
        return;
    }
#elif defined(__AVX__)
    if (stream) {
        for (size_t b = 0; b < bytes; b += 32)
            _mm256_stream_si256((__m256i *)(dst + b), _mm256_load_si256((const __m256i *)(src + b)));
        return;
    }
#elif defined(__SSE2__)
    if (stream) {
        for (size_t b = 0; b < bytes; b += 16)
            _mm_stream_si128((__m128i *)(dst + b), _mm_load_si128((const __m128i *)(src + b)));
        return;
    }
#else
    (void)stream;
#endif
    memcpy(dst, src, bytes);
}

static void prefetch_row(const unsigned char *row, size_t bytes)
{
    for (size_t b = 0; b < bytes; b += 64) __builtin_prefetch(row + b);
}

static void gather_part(unsigned part, const variant *v)
{
    const shape *s = job.shape;
    const size_t total = s->groups * s->indices;
    const size_t begin = total * part / job.threads, end = total * (part + 1) / job.threads;
    for (size_t r = begin; r < end; ++r) {
        const size_t g = r / s->indices, n = r % s->indices;
        const unsigned char *group = job.data + g * s->rows * s->row_bytes;
        if (v->ahead && n + v->ahead < s->indices && r + v->ahead < end)
            prefetch_row(group + (size_t)job.indices[n + v->ahead] * s->row_bytes,
                         v->head && v->head < s->row_bytes ? v->head : s->row_bytes);
        copy_row(job.out + r * s->row_bytes, group + (size_t)job.indices[n] * s->row_bytes, s->row_bytes, v->stream);
#ifdef __SSE2__
        if (v->fence && (r - begin + 1) % v->fence == 0) _mm_sfence();
#endif
    }
#ifdef __SSE2__
    if (v->stream) _mm_sfence();
#endif
}

static void copy_part(unsigned part)
{
    const size_t lines = COPY_BYTES / 64;
    const size_t begin = lines * part / job.threads, end = lines * (part + 1) / job.threads;
    for (size_t k = begin; k < end; ++k) copy_row(job.copy_dst + k * 64, job.copy_src + k * 64, 64, 0);
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

/* One timed run on all threads (part 0 on this one), after evicting the caches. */
static double timed_run(const variant *v, unsigned char *evict)
{
    evict_caches(evict, EVICT_BYTES);
    job.current = v;
    const double t0 = seconds();
    pthread_barrier_wait(&job.start);
    run_part(0);
    pthread_barrier_wait(&job.done);
    return seconds() - t0;
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
    job.shape = &shapes[0];
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--case") && i + 1 < argc) {
            const char *name = argv[++i];
            job.shape = NULL;
            for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; ++k)
                if (!strcmp(name, shapes[k].name)) job.shape = &shapes[k];
            if (!job.shape) {
                fprintf(stderr,
                        "clgather-row-ceiling: unknown case '%s' (rows-u8, middle-axis, embedding-f32, "
                        "embedding-f16-i64)\n",
                        name);
                return 2;
            }
        } else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
            repeat = (unsigned)strtoul(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: clgather-row-ceiling [--case rows-u8|middle-axis|embedding-f32|embedding-f16-i64] "
                            "[--threads N] [--repeat N]\n");
            return 2;
        }
    }
    if (threads < 1 || threads > MAX_THREADS || repeat < 1 || repeat > 1000) {
        fprintf(stderr, "clgather-row-ceiling: --threads wants 1..%d and --repeat 1..1000\n", MAX_THREADS);
        return 2;
    }
    job.threads = threads;
    const shape *sh = job.shape;
    const size_t out_bytes = sh->groups * sh->indices * sh->row_bytes;
    job.data = allocate(sh->groups * sh->rows * sh->row_bytes);
    job.out = allocate(out_bytes);
    job.copy_src = allocate(COPY_BYTES);
    job.copy_dst = allocate(COPY_BYTES);
    job.indices = allocate(sh->indices * sizeof(int32_t));
    unsigned char *evict = allocate(EVICT_BYTES);
    for (size_t i = 0; i < sh->indices; ++i) job.indices[i] = (int32_t)(splitmix_value(sh->index_seed, i) % sh->rows);

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

    const double case_bytes = (double)sh->indices * 4.0 + 2.0 * (double)out_bytes;
    printf("clgather-row-ceiling: %s, %u threads, median of %u runs (caches evicted before each), %d-byte "
           "streaming stores\n",
           sh->name, threads, repeat, STREAM_BYTES);
    printf("bytes: indices + rows read + output written = %.2f MB\n", case_bytes / 1e6);
    printf("%-40s %10s %8s %8s\n", "variant", "median", "GB/s", "/copy");
    double copy_gbps = 0;
    for (unsigned v = 0; v < VARIANTS; ++v) {
        double *t = times + (size_t)v * repeat;
        qsort(t, repeat, sizeof *t, by_value);
        const double median = t[repeat / 2];
        const double bytes = variants[v].copy ? 2.0 * COPY_BYTES : case_bytes;
        const double gbps = bytes / median / 1e9;
        if (variants[v].copy) copy_gbps = gbps;
        printf("%-40s %8.3fms %8.2f %8.3f\n", variants[v].name, median * 1e3, gbps, gbps / copy_gbps);
    }
    free(times);
    return 0;
}
