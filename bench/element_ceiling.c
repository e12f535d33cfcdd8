/* clgather-element-ceiling: gather-elements-axis0 in hand-written C on this machine's cores (no OpenCL).
 *
 * out[i][j] = data[idx[i][j]][j], data f32 [4096, 4096], indices i64 [4096, 1024] uniform in [0, 4096)
 * (clgather-bench's values). Read row by row, every element is a cache line of its own from a random
 * data row 16 KiB from its neighbours', and the 16 MiB of data the case touches do not stay in cache
 * between the 16 reads of each line. Column blocks read each data line once: a thread copies a block of
 * columns from all 4096 rows into a buffer of its own, contiguous, then serves every output row of those
 * columns from there (what gather_elements_column_blocks does). This program answers "how fast can this
 * machine's cores do the case?" for both forms, against a plain copy measured the same way; the median of
 * each, caches evicted before every run, variants interleaved.
 *
 *   clgather-element-ceiling [--threads N] [--repeat N]
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

#define ROWS        4096u /* data rows, the axis */
#define COLUMNS     4096u /* data columns */
#define OUT_ROWS    4096u
#define OUT_COLUMNS 1024u
#define INDEX_SEED  2000u /* clgather-bench's stream for the case */
#define COPY_BYTES  ((size_t)256 << 20)
#define EVICT_BYTES ((size_t)128 << 20)
#define MAX_BLOCK   64u

typedef struct variant {
    const char *name;
    unsigned block; /* columns a block (0: row by row) */
    unsigned ahead; /* row by row: elements prefetched ahead; blocks: index rows (data rows twice as many) */
    int stream;     /* blocks: 64-byte streaming stores (AVX-512 only) */
    int copy;       /* the copy ceiling instead of the case */
} variant;

static const variant variants[] = {
    {"copy 256 MiB (ordinary stores)", 0, 0, 0, 1},
    {"row by row, no prefetch", 0, 0, 0, 0},
    {"row by row, prefetch 32 ahead", 0, 32, 0, 0},
    {"row by row, prefetch 64 ahead", 0, 64, 0, 0},
    {"blocks of 32, no prefetch", 32, 0, 0, 0},
    {"blocks of 32, prefetch 8 rows", 32, 8, 0, 0},
    {"blocks of 64, prefetch 8 rows", 64, 8, 0, 0},
#ifdef __AVX512F__
    {"blocks of 64, prefetch 8 rows, streaming", 64, 8, 1, 0},
#endif
};
#define VARIANTS (sizeof variants / sizeof variants[0])

static struct {
    float *data, *out, *block[NATIVE_MAX_THREADS];
    int64_t *indices;
    unsigned char *copy_src, *copy_dst;
} job;

static void rows_part(unsigned part, unsigned parts, const variant *v)
{
    const size_t total = (size_t)OUT_ROWS * OUT_COLUMNS;
    const size_t begin = total * part / parts, end = total * (part + 1) / parts;
    for (size_t e = begin; e < end; ++e) {
        const size_t j = e % OUT_COLUMNS;
        if (v->ahead && e + v->ahead < end)
            __builtin_prefetch(job.data + (size_t)job.indices[e + v->ahead] * COLUMNS + (e + v->ahead) % OUT_COLUMNS);
        job.out[e] = job.data[(size_t)job.indices[e] * COLUMNS + j];
    }
}

/* One output row's piece of a block from the staged copy s (w columns from c0). */
static void serve_row(float *o, const int64_t *ix, const float *s, unsigned w, int stream)
{
#ifdef __AVX512F__
    if (stream && w % 16 == 0) {
        const __m512i lane_lo = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
        for (unsigned k = 0; k < w; k += 16) {
            const __m512i width = _mm512_set1_epi64(w), at = _mm512_set1_epi64(k);
            const __m512i lo =
                _mm512_add_epi64(_mm512_mullo_epi64(_mm512_loadu_si512(ix + k), width), _mm512_add_epi64(lane_lo, at));
            const __m512i hi = _mm512_add_epi64(_mm512_mullo_epi64(_mm512_loadu_si512(ix + k + 8), width),
                                                _mm512_add_epi64(lane_lo, _mm512_add_epi64(at, _mm512_set1_epi64(8))));
            const __m512 both = _mm512_insertf32x8(_mm512_castps256_ps512(_mm512_i64gather_ps(lo, s, 4)),
                                                   _mm512_i64gather_ps(hi, s, 4), 1);
            _mm512_stream_ps(o + k, both);
        }
        return;
    }
#else
    (void)stream;
#endif
    for (unsigned k = 0; k < w; ++k) o[k] = s[(size_t)ix[k] * w + k];
}

static void blocks_part(unsigned part, unsigned parts, const variant *v)
{
    float *s = job.block[part];
    const unsigned w = v->block;
    for (unsigned c0 = part * w; c0 < OUT_COLUMNS; c0 += parts * w) {
        for (unsigned r = 0; r < ROWS; ++r) {
            if (v->ahead && r + 2 * v->ahead < ROWS)
                for (unsigned b = 0; b < w * 4; b += 64)
                    __builtin_prefetch((const char *)(job.data + (size_t)(r + 2 * v->ahead) * COLUMNS + c0) + b);
            memcpy(s + (size_t)r * w, job.data + (size_t)r * COLUMNS + c0, w * sizeof(float));
        }
        for (unsigned i = 0; i < OUT_ROWS; ++i) {
            const int64_t *ix = job.indices + (size_t)i * OUT_COLUMNS + c0;
            if (v->ahead && i + v->ahead < OUT_ROWS)
                for (unsigned b = 0; b < w * 8; b += 64)
                    __builtin_prefetch((const char *)(ix + (size_t)v->ahead * OUT_COLUMNS) + b);
            serve_row(job.out + (size_t)i * OUT_COLUMNS + c0, ix, s, w, v->stream);
        }
    }
#ifdef __SSE2__
    if (v->stream) _mm_sfence();
#endif
}

static void copy_part(unsigned part, unsigned parts)
{
    const size_t begin = COPY_BYTES * part / parts / 64 * 64, end = COPY_BYTES * (part + 1) / parts / 64 * 64;
    memcpy(job.copy_dst + begin, job.copy_src + begin, end - begin);
}

static void run_part(unsigned part, unsigned parts, const void *variant_ptr)
{
    const variant *v = variant_ptr;
    if (v->copy)
        copy_part(part, parts);
    else if (v->block)
        blocks_part(part, parts, v);
    else
        rows_part(part, parts, v);
}

/* Every variant must write what the operation defines: a variant that skipped work would time nothing. */
static int check_output(const char *name)
{
    for (size_t e = 0; e < (size_t)OUT_ROWS * OUT_COLUMNS; ++e) {
        const float want = job.data[(size_t)job.indices[e] * COLUMNS + e % OUT_COLUMNS];
        if (memcmp(&job.out[e], &want, sizeof want) != 0) {
            fprintf(stderr, "clgather-element-ceiling: %s wrote a wrong element %zu\n", name, e);
            return 0;
        }
    }
    return 1;
}

int main(int argc, char **argv)
{
    unsigned threads, repeat = 15;
    if (!native_options(argc, argv, "clgather-element-ceiling [--threads N] [--repeat N]", &threads, &repeat, NULL))
        return 2;
    const size_t out_bytes = (size_t)OUT_ROWS * OUT_COLUMNS * sizeof(float);
    const size_t index_bytes = (size_t)OUT_ROWS * OUT_COLUMNS * sizeof(int64_t);
    job.data = native_allocate((size_t)ROWS * COLUMNS * sizeof(float), 1);
    job.out = native_allocate(out_bytes, 1);
    job.indices = native_allocate(index_bytes, 1);
    job.copy_src = native_allocate(COPY_BYTES, 1);
    job.copy_dst = native_allocate(COPY_BYTES, 2);
    for (unsigned t = 0; t < threads; ++t) job.block[t] = native_allocate((size_t)ROWS * MAX_BLOCK * sizeof(float), 1);
    unsigned char *evict = native_allocate(EVICT_BYTES, 3);
    for (size_t k = 0; k < (size_t)ROWS * COLUMNS; ++k) job.data[k] = (float)k;
    for (size_t i = 0; i < (size_t)OUT_ROWS * OUT_COLUMNS; ++i)
        job.indices[i] = (int64_t)(splitmix_value(INDEX_SEED, i) % ROWS);

    native_pool pool;
    native_pool_start(&pool, threads, run_part);
    int ok = 1;
    for (unsigned v = 0; v < VARIANTS && ok; ++v) { /* each variant's output checked once before timing */
        memset(job.out, 0, out_bytes);
        native_pool_timed_run(&pool, &variants[v], evict, EVICT_BYTES);
        if (!variants[v].copy) ok = check_output(variants[v].name);
    }
    double *times = malloc(sizeof(double) * VARIANTS * repeat);
    if (!times || !ok) return 1;
    native_pool_time_rounds(&pool, variants, sizeof variants[0], VARIANTS, repeat, evict, EVICT_BYTES, times);
    native_pool_stop(&pool);

    /* what clgather-bench credits the case with: indices read + gathered elements read + output written */
    const double case_bytes = (double)index_bytes + 2.0 * (double)out_bytes;
    printf("clgather-element-ceiling: gather-elements-axis0, %u threads, median of %u runs (caches evicted before "
           "each)\n",
           threads, repeat);
    native_report_header("indices + elements read + output written", case_bytes);
    double copy_gbps = 0;
    for (unsigned v = 0; v < VARIANTS; ++v)
        native_report(variants[v].name, times + (size_t)v * repeat, repeat,
                      variants[v].copy ? 2.0 * COPY_BYTES : case_bytes, variants[v].copy, &copy_gbps);
    free(times);
    return 0;
}
