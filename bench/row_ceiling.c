/* clgather-row-ceiling: what this machine's cores can do, natively, on the row-gather cases.
 *
 * rows-u8 (1,000,000 rows of 64 bytes, 262,144 random int32 indices) reads one random cache line
 * per row, and middle-axis (256 groups of 1024 rows of 128 bytes, 512 random rows from each) two;
 * both are bound by how many misses the cores keep in flight, not by streaming bandwidth. The
 * embeddings (3 and 8 KiB rows) are streams of a few dozen lines each, where the prefetch of a
 * row's head and the cost of store fences show. This
 * program answers "how close to copy can these cases come here?" without OpenCL: hand-written C on the
 * same number of threads, with the same index values as clgather-bench, against a plain copy
 * measured the same way. Variants: prefetch distance (rows ahead, within a group), whole rows or
 * their heads, ordinary or streaming (non-temporal) stores, and an sfence after every row or every
 * 4 rows (what a kernel that fences per work-item pays); the median of each, and its ratio to the
 * copy.
 *
 *   clgather-row-ceiling [--case rows-u8|middle-axis|embedding-f32|embedding-f16-i64] [--threads N] [--repeat N]
 */
#define _POSIX_C_SOURCE 200809L
#include "native_pool.h"
#include "splitmix.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static void gather_part(unsigned part, unsigned parts, const variant *v)
{
    const shape *s = job.shape;
    const size_t total = s->groups * s->indices;
    const size_t begin = total * part / parts, end = total * (part + 1) / parts;
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

static void run_part(unsigned part, unsigned parts, const void *variant_ptr)
{
    const variant *v = variant_ptr;
    if (v->copy)
        native_copy_lines(job.copy_dst, job.copy_src, COPY_BYTES, part, parts);
    else
        gather_part(part, parts, v);
}

/* --case NAME: 2 arguments consumed, -1 for an unknown case. */
static int case_option(int argc, char **argv, int i)
{
    const void *chosen = job.shape;
    const int used = native_case_option(argc, argv, i, shapes, sizeof shapes[0], sizeof shapes / sizeof shapes[0],
                                        &chosen, "clgather-row-ceiling");
    job.shape = chosen;
    return used;
}

int main(int argc, char **argv)
{
    unsigned threads, repeat = 21;
    job.shape = &shapes[0];
    if (!native_options(argc, argv,
                        "clgather-row-ceiling [--case rows-u8|middle-axis|embedding-f32|embedding-f16-i64] "
                        "[--threads N] [--repeat N]",
                        &threads, &repeat, case_option))
        return 2;
    const shape *sh = job.shape;
    const size_t out_bytes = sh->groups * sh->indices * sh->row_bytes;
    job.data = native_allocate(sh->groups * sh->rows * sh->row_bytes, 1);
    job.out = native_allocate(out_bytes, 1);
    job.copy_src = native_allocate(COPY_BYTES, 1);
    job.copy_dst = native_allocate(COPY_BYTES, 1);
    job.indices = native_allocate(sh->indices * sizeof(int32_t), 1);
    unsigned char *evict = native_allocate(EVICT_BYTES, 1);
    for (size_t i = 0; i < sh->indices; ++i) job.indices[i] = (int32_t)(splitmix_value(sh->index_seed, i) % sh->rows);

    double *times = malloc(sizeof(double) * VARIANTS * repeat);
    if (!times) return 1;
    native_pool pool;
    native_pool_start(&pool, threads, run_part);
    native_pool_time_rounds(&pool, variants, sizeof variants[0], VARIANTS, repeat, evict, EVICT_BYTES, times);
    native_pool_stop(&pool);

    const double case_bytes = (double)sh->indices * 4.0 + 2.0 * (double)out_bytes;
    printf("clgather-row-ceiling: %s, %u threads, median of %u runs (caches evicted before each), %d-byte "
           "streaming stores\n",
           sh->name, threads, repeat, STREAM_BYTES);
    native_report_header("indices + rows read + output written", case_bytes);
    double copy_gbps = 0;
    for (unsigned v = 0; v < VARIANTS; ++v)
        native_report(variants[v].name, times + (size_t)v * repeat, repeat,
                      variants[v].copy ? 2.0 * COPY_BYTES : case_bytes, variants[v].copy, &copy_gbps);
    free(times);
    return 0;
}
