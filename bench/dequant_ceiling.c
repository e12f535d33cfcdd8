/* clgather-dequant-ceiling: what this machine's cores can do, natively, on clgather-bench's
 * embedding-q4 case (ONNX Runtime u4 table [151936, 2048], f16 scales per 32 values, zero point 8,
 * 8192 random indices, f16 output): hand-written AVX2 + F16C on the same number of threads, with the
 * same index values, against a plain copy measured the same way. It answers "how close to copy can
 * the case come on these cores?" and splits the case into its parts:
 *   whole case      gather + dequantize + streaming stores, the next row prefetched (or the row 4
 *                   ahead); with the arithmetic of every value (widen, convert, multiply, narrow) or a
 *                   16-entry table per block looked up with pshufb (the kernel's lookup with AVX2) or,
 *                   where the CPU has AVX-512BW, with one vpermw of a table of words (the kernel's there)
 *   reads only      the gathered rows' packed bytes and scales, nothing written (next row, or 4 ahead)
 *   writes only     the output's streaming stores, nothing read or computed: the floor of the case's
 *                   largest part
 *   one row         every index the same row (cached): the dequantization and the writes only
 * Before timing, the two whole-case variants must write the same bits from random packed values and
 * finite scales of either sign (the tool exits 1 if not).
 *
 *   clgather-dequant-ceiling [--threads N] [--repeat N]
 */
#define _POSIX_C_SOURCE 200809L
#include "native_pool.h"
#include "splitmix.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__AVX2__) && defined(__F16C__)
#include <immintrin.h>

#define ROWS        151936u
#define VALUES      2048u
#define BLOCK       32u
#define INDICES     8192u
#define INDEX_SEED  1900u /* clgather-bench's stream for embedding-q4 */
#define COPY_BYTES  ((size_t)64 << 20)
#define EVICT_BYTES ((size_t)128 << 20)

typedef enum { WORK_COPY, WORK_ARITHMETIC, WORK_TABLE, WORK_WORD_TABLE, WORK_READS, WORK_WRITES } work_kind;

typedef struct variant {
    const char *name;
    work_kind work;
    int one_row;    /* every index row 7 */
    unsigned ahead; /* the row prefetched: this many indices ahead */
} variant;

static const variant variants[] = {
    {"copy 64 MiB (ordinary stores)", WORK_COPY, 0, 1},
    {"whole case, arithmetic", WORK_ARITHMETIC, 0, 1},
    {"whole case, table (pshufb)", WORK_TABLE, 0, 1},
    {"whole case, table, 4 rows ahead", WORK_TABLE, 0, 4},
#ifdef __AVX512BW__
    {"whole case, word table (vpermw)", WORK_WORD_TABLE, 0, 1},
    {"whole case, word table, 4 rows ahead", WORK_WORD_TABLE, 0, 4},
    {"one row, word table (vpermw)", WORK_WORD_TABLE, 1, 1},
#endif
    {"reads only (rows + scales)", WORK_READS, 0, 1},
    {"reads only, 4 rows ahead", WORK_READS, 0, 4},
    {"one row, arithmetic", WORK_ARITHMETIC, 1, 1},
    {"one row, table (pshufb)", WORK_TABLE, 1, 1},
    {"writes only (streaming stores)", WORK_WRITES, 1, 1},
};
#define VARIANTS (sizeof variants / sizeof variants[0])

static struct {
    uint8_t *packed, *copy_src, *copy_dst;
    uint16_t *scales, *out;
    uint32_t *indices;
} job;

static volatile uint32_t reads_sink;

/* Always inlined: GCC 12 otherwise finds this function free of side effects and drops its calls, and
 * with them every prefetch (seen in a variant of this tool: twice as slow, no prefetch in its code). */
static inline __attribute__((always_inline)) void prefetch_row(uint32_t row)
{
    const char *p = (const char *)(job.packed + (size_t)row * (VALUES / 2));
    for (unsigned b = 0; b < VALUES / 2; b += 64) _mm_prefetch(p + b, _MM_HINT_T0);
    const char *s = (const char *)(job.scales + (size_t)row * (VALUES / BLOCK));
    for (unsigned b = 0; b < VALUES / BLOCK * 2; b += 64) _mm_prefetch(s + b, _MM_HINT_T0);
}

/* One block of 32 values: (q - 8) * scale, rounded to f16, value by value in 8 lanes. */
static void block_arithmetic(const uint8_t *q, uint16_t scale, uint16_t *out)
{
    const __m128i bytes = _mm_loadu_si128((const __m128i *)q), low_mask = _mm_set1_epi8(15);
    const __m128i low = _mm_and_si128(bytes, low_mask), high = _mm_and_si128(_mm_srli_epi16(bytes, 4), low_mask);
    const __m128i first = _mm_unpacklo_epi8(low, high), second = _mm_unpackhi_epi8(low, high);
    const __m128i eighths[4] = {first, _mm_srli_si128(first, 8), second, _mm_srli_si128(second, 8)};
    const __m256 s = _mm256_set1_ps(_cvtsh_ss(scale));
    __m128i halves[4];
    for (int k = 0; k < 4; ++k) {
        const __m256i v = _mm256_sub_epi32(_mm256_cvtepu8_epi32(eighths[k]), _mm256_set1_epi32(8));
        halves[k] = _mm256_cvtps_ph(_mm256_mul_ps(_mm256_cvtepi32_ps(v), s), _MM_FROUND_TO_NEAREST_INT);
    }
    _mm256_stream_si256((__m256i *)out, _mm256_set_m128i(halves[1], halves[0]));
    _mm256_stream_si256((__m256i *)(out + 16), _mm256_set_m128i(halves[3], halves[2]));
}

/* A block's 32 nibbles as bytes in value order (value 2i in byte i's low nibble). */
static __m256i block_nibbles(const uint8_t *q)
{
    const __m128i bytes = _mm_loadu_si128((const __m128i *)q), low_mask = _mm_set1_epi8(15);
    const __m128i low = _mm_and_si128(bytes, low_mask), high = _mm_and_si128(_mm_srli_epi16(bytes, 4), low_mask);
    return _mm256_set_m128i(_mm_unpackhi_epi8(low, high), _mm_unpacklo_epi8(low, high));
}

/* One block by table: the 16 outputs a nibble can take, split into low and high bytes, looked up. */
static void block_table(const uint8_t *q, uint16_t scale, uint16_t *out)
{
    const __m256 s = _mm256_set1_ps(_cvtsh_ss(scale));
    const __m128i t0 = _mm256_cvtps_ph(_mm256_mul_ps(_mm256_setr_ps(-8, -7, -6, -5, -4, -3, -2, -1), s), 0);
    const __m128i t1 = _mm256_cvtps_ph(_mm256_mul_ps(_mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7), s), 0);
    const __m128i split = _mm_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15);
    const __m128i a = _mm_shuffle_epi8(t0, split), b = _mm_shuffle_epi8(t1, split);
    const __m256i table_low = _mm256_broadcastsi128_si256(_mm_unpacklo_epi64(a, b));
    const __m256i table_high = _mm256_broadcastsi128_si256(_mm_unpackhi_epi64(a, b));
    const __m256i nibbles = block_nibbles(q);
    const __m256i out_low = _mm256_shuffle_epi8(table_low, nibbles),
                  out_high = _mm256_shuffle_epi8(table_high, nibbles);
    const __m256i x = _mm256_unpacklo_epi8(out_low, out_high), y = _mm256_unpackhi_epi8(out_low, out_high);
    _mm256_stream_si256((__m256i *)out, _mm256_permute2x128_si256(x, y, 0x20));
    _mm256_stream_si256((__m256i *)(out + 16), _mm256_permute2x128_si256(x, y, 0x31));
}

#ifdef __AVX512BW__
/* The kernel's lookup where the CPU has AVX-512BW: the block's 16 possible outputs as f16 words, one
 * vpermw for its 32 nibbles, two 32-byte streaming stores (as the kernel stores). */
static void block_word_table(const uint8_t *q, uint16_t scale, uint16_t *out)
{
    const __m512 steps = _mm512_setr_ps(-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i halves = _mm512_cvtps_ph(_mm512_mul_ps(steps, _mm512_set1_ps(_cvtsh_ss(scale))), 0);
    const __m512i table = _mm512_zextsi256_si512(halves);
    const __m256i nibbles = block_nibbles(q);
    const __m512i found = _mm512_permutexvar_epi16(_mm512_cvtepu8_epi16(nibbles), table);
    _mm256_stream_si256((__m256i *)out, _mm512_castsi512_si256(found));
    _mm256_stream_si256((__m256i *)(out + 16), _mm512_extracti64x4_epi64(found, 1));
}
#endif

static void gather_part(unsigned part, unsigned parts, const variant *v)
{
    const size_t begin = (size_t)INDICES * part / parts, end = (size_t)INDICES * (part + 1) / parts;
    __m256i reads = _mm256_setzero_si256();
    for (size_t n = begin; n < end; ++n) {
        const uint32_t row = v->one_row ? 7u : job.indices[n];
        if (!v->one_row && n + v->ahead < end) prefetch_row(job.indices[n + v->ahead]);
        const uint8_t *q = job.packed + (size_t)row * (VALUES / 2);
        const uint16_t *s = job.scales + (size_t)row * (VALUES / BLOCK);
        uint16_t *out = job.out + n * VALUES;
        if (v->work == WORK_WRITES) {
            for (unsigned b = 0; b < VALUES; b += 16) _mm256_stream_si256((__m256i *)(out + b), reads);
            continue;
        }
        if (v->work == WORK_READS) {
            for (unsigned b = 0; b < VALUES / 2; b += 32)
                reads = _mm256_or_si256(reads, _mm256_loadu_si256((const __m256i *)(q + b)));
            for (unsigned b = 0; b < VALUES / BLOCK; b += 16)
                reads = _mm256_or_si256(reads, _mm256_loadu_si256((const __m256i *)(s + b)));
            continue;
        }
        for (unsigned k = 0; k < VALUES / BLOCK; ++k) {
#ifdef __AVX512BW__
            if (v->work == WORK_WORD_TABLE) {
                block_word_table(q + k * (BLOCK / 2), s[k], out + k * BLOCK);
                continue;
            }
#endif
            if (v->work == WORK_TABLE)
                block_table(q + k * (BLOCK / 2), s[k], out + k * BLOCK);
            else
                block_arithmetic(q + k * (BLOCK / 2), s[k], out + k * BLOCK);
        }
    }
    _mm_sfence();
    reads_sink += (uint32_t)_mm256_extract_epi32(reads, 0);
}

/* The copy the ratios are against: ordinary 32-byte loads and stores (glibc's memcpy would stream
 * a copy this large). */
static void copy_part(unsigned part, unsigned parts)
{
    const size_t begin = COPY_BYTES * part / parts / 64 * 64;
    const size_t end = COPY_BYTES * (part + 1) / parts / 64 * 64;
    for (size_t b = begin; b < end; b += 32)
        _mm256_store_si256((__m256i *)(job.copy_dst + b), _mm256_load_si256((const __m256i *)(job.copy_src + b)));
}

static void run_part(unsigned part, unsigned parts, const void *variant_ptr)
{
    const variant *v = variant_ptr;
    if (v->work == WORK_COPY)
        copy_part(part, parts);
    else
        gather_part(part, parts, v);
}

static const variant *whole_case(work_kind work)
{
    for (unsigned v = 0; v < VARIANTS; ++v)
        if (variants[v].work == work && !variants[v].one_row) return &variants[v];
    return NULL;
}

/* The whole-case variants must write the same bits, or the faster one proves nothing. */
static int tables_match_arithmetic(native_pool *pool, unsigned char *evict)
{
    const size_t out_bytes = (size_t)INDICES * VALUES * 2;
    uint16_t *arithmetic = malloc(out_bytes);
    if (!arithmetic) return 0;
    native_pool_timed_run(pool, whole_case(WORK_ARITHMETIC), evict, EVICT_BYTES);
    memcpy(arithmetic, job.out, out_bytes);
    int same = 1;
    for (unsigned v = 0; v < VARIANTS; ++v) {
        if (variants[v].work != WORK_TABLE && variants[v].work != WORK_WORD_TABLE) continue;
        if (variants[v].one_row) continue;
        memset(job.out, 0xFF, out_bytes); /* poison: an unwritten value cannot match */
        native_pool_timed_run(pool, &variants[v], evict, EVICT_BYTES);
        same = same && memcmp(arithmetic, job.out, out_bytes) == 0;
    }
    free(arithmetic);
    return same;
}

int main(int argc, char **argv)
{
    unsigned threads, repeat = 21;
    if (!native_options(argc, argv, "clgather-dequant-ceiling [--threads N] [--repeat N]", &threads, &repeat, NULL))
        return 2;
    job.packed = native_allocate((size_t)ROWS * VALUES / 2, 0);
    job.scales = native_allocate((size_t)ROWS * VALUES / BLOCK * 2, 0);
    job.out = native_allocate((size_t)INDICES * VALUES * 2, 0);
    job.copy_src = native_allocate(COPY_BYTES, 1);
    job.copy_dst = native_allocate(COPY_BYTES, 2);
    job.indices = native_allocate(INDICES * sizeof(uint32_t), 0);
    unsigned char *evict = native_allocate(EVICT_BYTES, 3);
    for (uint32_t i = 0; i < INDICES; ++i) job.indices[i] = (uint32_t)(splitmix_value(INDEX_SEED, i) % ROWS);
    for (size_t i = 0; i < (size_t)ROWS * VALUES / 2; ++i) job.packed[i] = (uint8_t)splitmix_value(INDEX_SEED + 1, i);
    for (size_t i = 0; i < (size_t)ROWS * VALUES / BLOCK; ++i) /* finite f16 scales of either sign */
        job.scales[i] = (uint16_t)(0x2000u | (splitmix_value(INDEX_SEED + 2, i) & 0x8FFFu));
    native_pool pool;
    native_pool_start(&pool, threads, run_part);
    if (!tables_match_arithmetic(&pool, evict)) {
        fprintf(stderr, "clgather-dequant-ceiling: a table variant's output differs from the arithmetic's\n");
        return 1;
    }

    double *times = malloc(sizeof(double) * VARIANTS * repeat);
    if (!times) return 1;
    native_pool_time_rounds(&pool, variants, sizeof variants[0], VARIANTS, repeat, evict, EVICT_BYTES, times);
    native_pool_stop(&pool);

    /* clgather-bench's bytes: indices read + the gathered rows' packed bytes and scales + output */
    const double case_bytes = INDICES * 8.0 + INDICES * (VALUES / 2.0 + VALUES / BLOCK * 2.0) + INDICES * VALUES * 2.0;
    printf("clgather-dequant-ceiling: embedding-q4, %u threads, median of %u runs (caches evicted before each)\n",
           threads, repeat);
    native_report_header("indices + rows and scales read + output written", case_bytes);
    double copy_gbps = 0;
    for (unsigned v = 0; v < VARIANTS; ++v)
        native_report(variants[v].name, times + (size_t)v * repeat, repeat,
                      variants[v].work == WORK_COPY ? 2.0 * COPY_BYTES : case_bytes, variants[v].work == WORK_COPY,
                      &copy_gbps);
    free(times);
    return 0;
}

#else /* no AVX2 + F16C: the kernels' x86 paths are what this measures */
int main(void)
{
    fprintf(stderr, "clgather-dequant-ceiling: needs a CPU with AVX2 and F16C (built with -march=native)\n");
    return 2;
}
#endif
