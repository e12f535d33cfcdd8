/* clgather-bag-ceiling: what this machine's cores can do, natively, on the EmbeddingBag cases.
 *
 * embedding-bag-sum (1,000,000 f32 rows of 128 values, 4096 bags of 32 random rows), embedding-bag-8bit
 * (the same bags over FBGEMM 8-bit rowwise rows: 128 u8, an f32 scale and bias), embedding-bag-tbe (26
 * tables of 100,000 f32 rows of 64 values, 2048 bags of 20 rows a table) and embedding-bag-tbe-8bit (those
 * tables as 8-bit rows) read every row of a bag from a
 * random place and write one row per bag: they are bound by how many misses the cores keep in flight, and
 * the 8-bit case also by the dequantizing arithmetic. This program answers "how close to copy can these
 * cases come here?" without OpenCL: hand-written C on the same number of threads, with the same index
 * values as clgather-bench, each bag's sums in vector registers, against a plain copy measured the same
 * way. Variants: no prefetch, rows
 * prefetched a number of rows ahead in the thread's walk, or a whole bag prefetched a number of bags ahead
 * (what clgather's runs kernels do); the median of each, and its ratio to the copy. The bytes counted are
 * clgather-bench's: indices and offsets read, gathered rows read, output written.
 *
 *   clgather-bag-ceiling [--case embedding-bag-sum|embedding-bag-8bit|embedding-bag-tbe|embedding-bag-tbe-8bit] [--threads N] [--repeat N]
 */
#define _POSIX_C_SOURCE 200809L
#include "native_pool.h"
#include "splitmix.h"

#include <stdint.h>
#if defined(__AVX2__) || defined(__AVX512F__)
#include <immintrin.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One case: T tables of N rows of D values (row_bytes each, f32 or FBGEMM 8-bit rowwise), B bags a table
 * of K rows each, indices from clgather-bench's stream for the case. */
typedef struct shape {
    const char *name;
    size_t tables, rows, width, bags, per_bag;
    int fbgemm_8bit;
    uint64_t seed;
} shape;

static const shape shapes[] = {
    {"embedding-bag-sum", 1, 1000000, 128, 4096, 32, 0, 2400},
    {"embedding-bag-8bit", 1, 1000000, 128, 4096, 32, 1, 2500},
    {"embedding-bag-tbe", 26, 100000, 64, 2048, 20, 0, 2600},
    {"embedding-bag-tbe-8bit", 26, 100000, 64, 2048, 20, 1, 2700},
};
#define COPY_BYTES  ((size_t)256 << 20)
#define EVICT_BYTES ((size_t)128 << 20)

typedef struct variant {
    const char *name;
    unsigned rows_ahead; /* prefetch the row this many indices on in the thread's walk, 0 for none */
    unsigned bags_ahead; /* prefetch every row of the bag this many bags on, 0 for none */
    int copy;            /* the copy ceiling instead of the bags */
    int wide;            /* 8-bit rows: every value of a row in one pass of 16-lane vectors (AVX-512) */
} variant;

static const variant variants[] = {
    {"copy 256 MiB (ordinary stores)", 0, 0, 1, 0},
    {"bags, no prefetch", 0, 0, 0, 0},
    {"bags, prefetch 8 rows ahead", 8, 0, 0, 0},
    {"bags, prefetch 16 rows ahead", 16, 0, 0, 0},
    {"bags, prefetch 32 rows ahead", 32, 0, 0, 0},
    {"bags, prefetch 64 rows ahead", 64, 0, 0, 0},
    {"bags, prefetch 128 rows ahead", 128, 0, 0, 0},
    {"bags, prefetch 1 bag ahead", 0, 1, 0, 0},
    {"bags, prefetch 2 bags ahead", 0, 2, 0, 0},
    {"bags, prefetch 4 bags ahead", 0, 4, 0, 0},
#if defined(__AVX512F__)
    /* 32 vector registers hold a 128-value row's 8 accumulators with room to spare, as FBGEMM's generated
     * AVX-512 kernels use them (8-bit cases only; the others run as "prefetch 16 rows ahead") */
    {"8-bit: one pass, 16 lanes, 16 rows ahead", 16, 0, 0, 1},
#endif
};
#define VARIANTS (sizeof variants / sizeof variants[0])

static struct {
    const shape *shape;
    size_t row_bytes;
    unsigned char *tables, *copy_src, *copy_dst;
    float *out;
    int64_t *indices;
} job;

/* The row of index i (bag k = i / per_bag belongs to table k / bags). One table takes no division: a
 * 64-bit division for each row made the single-table cases slower than the kernels they bound. */
static const unsigned char *row_of(size_t i)
{
    const shape *s = job.shape;
    const size_t t = s->tables == 1 ? 0 : i / (s->per_bag * s->bags);
    return job.tables + (t * s->rows + (size_t)job.indices[i]) * job.row_bytes;
}

/* Where bag k's sums go: bag k % bags of table k / bags, in the output's [bags, tables * width] layout. */
static float *bag_output(size_t k)
{
    const shape *s = job.shape;
    return job.out + (k % s->bags) * s->tables * s->width + k / s->bags * s->width;
}

static void prefetch_row(size_t i)
{
    const unsigned char *row = row_of(i);
    for (size_t b = 0; b < job.row_bytes; b += 64) __builtin_prefetch(row + b);
}

/* Eight f32 lanes (GCC's vector extension): a bag's accumulators are at most PASS_GROUPS_F32 of them,
 * addressed only by constants once the loops unroll, so that they stay in vector registers as clgather's
 * kernels keep theirs. */
typedef float lanes8 __attribute__((vector_size(32)));
typedef unsigned char bytes8 __attribute__((vector_size(8)));

/* The row's values a bag's pass reduces: 16 groups of f32 (16 accumulators in AVX2's 16 registers), 8
 * of the 8-bit rows (whose pass also holds the row's scale and bias; clgather's quantized kernel reads
 * 64 values a piece for the same reason). */
#define PASS_GROUPS_F32  16
#define PASS_GROUPS_8BIT 8

/* Eight u8 values as f32 lanes: AVX2's widening load and conversion where the compiler targets it (GCC
 * 12 converts a u8 vector to f32 one lane at a time), else the vector extension. Written through a
 * pointer: a 32-byte vector returned by value is an ABI GCC warns about (-Wpsabi) where AVX is off. */
static inline __attribute__((always_inline)) void bytes_to_lanes(const unsigned char *at, lanes8 *lanes)
{
#if defined(__AVX2__)
    *lanes = (lanes8)_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)at)));
#else
    bytes8 q;
    memcpy(&q, at, 8);
    *lanes = __builtin_convertvector(q, lanes8);
#endif
}

/* Groups g0 .. g0 + groups - 1 of the row of index i added to acc[0 .. groups): f32 values, or FBGEMM's
 * q * scale + bias. */
static inline __attribute__((always_inline)) void add_row(lanes8 *acc, size_t i, const size_t g0, const size_t groups)
{
    const unsigned char *row = row_of(i);
    if (job.shape->fbgemm_8bit) {
        float scale, bias;
        memcpy(&scale, row + job.shape->width, 4);
        memcpy(&bias, row + job.shape->width + 4, 4);
        const lanes8 s = {scale, scale, scale, scale, scale, scale, scale, scale};
        const lanes8 o = {bias, bias, bias, bias, bias, bias, bias, bias};
#pragma GCC unroll 16
        for (size_t g = 0; g < PASS_GROUPS_8BIT; ++g)
            if (g < groups) {
                lanes8 q;
                bytes_to_lanes(row + 8 * (g0 + g), &q);
                acc[g] += q * s + o;
            }
        return;
    }
#pragma GCC unroll 16
    for (size_t g = 0; g < PASS_GROUPS_F32; ++g)
        if (g < groups) {
            lanes8 x;
            memcpy(&x, row + 32 * (g0 + g), 32);
            acc[g] += x;
        }
}

/* Bags [begin, end) of a case whose rows hold groups * 8 values, in passes of `pass` groups (both
 * constants once inlined); the first pass over a bag prefetches ahead. */
static inline __attribute__((always_inline)) void reduce_bags(size_t begin, size_t end, const variant *v,
                                                              const size_t groups, const size_t pass)
{
    const shape *s = job.shape;
    const size_t K = s->per_bag;
    for (size_t k = begin; k < end; ++k) {
        if (v->bags_ahead && k + v->bags_ahead < end)
            for (size_t i = (k + v->bags_ahead) * K; i < (k + v->bags_ahead + 1) * K; ++i) prefetch_row(i);
        for (size_t g0 = 0; g0 < groups; g0 += pass) {
            lanes8 acc[PASS_GROUPS_F32];
#pragma GCC unroll 16
            for (size_t g = 0; g < PASS_GROUPS_F32; ++g) acc[g] = (lanes8){0};
            for (size_t i = k * K; i < (k + 1) * K; ++i) {
                if (g0 == 0 && v->rows_ahead && i + v->rows_ahead < end * K) prefetch_row(i + v->rows_ahead);
                add_row(acc, i, g0, pass);
            }
            memcpy(bag_output(k) + 8 * g0, acc, 8 * pass * sizeof(float));
        }
    }
}

#if defined(__AVX512F__)
/* Bags [begin, end) of an 8-bit case, each row's values (a multiple of 16, at most 128) in one pass of
 * 16-lane vectors, prefetching as reduce_bags' first pass does. */
static void reduce_bags_wide(size_t begin, size_t end, const variant *v)
{
    const shape *s = job.shape;
    const size_t K = s->per_bag, D = s->width, vectors = D / 16;
    for (size_t k = begin; k < end; ++k) {
        __m512 acc[8];
#pragma GCC unroll 8
        for (size_t g = 0; g < 8; ++g) acc[g] = _mm512_setzero_ps();
        for (size_t i = k * K; i < (k + 1) * K; ++i) {
            if (v->rows_ahead && i + v->rows_ahead < end * K) prefetch_row(i + v->rows_ahead);
            const unsigned char *row = row_of(i);
            float scale, bias;
            memcpy(&scale, row + D, 4);
            memcpy(&bias, row + D + 4, 4);
            const __m512 sv = _mm512_set1_ps(scale), bv = _mm512_set1_ps(bias);
#pragma GCC unroll 8
            for (size_t g = 0; g < 8; ++g)
                if (g < vectors) {
                    const __m512 q =
                        _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(row + 16 * g))));
                    acc[g] = _mm512_add_ps(acc[g], _mm512_add_ps(_mm512_mul_ps(q, sv), bv));
                }
        }
        for (size_t g = 0; g < vectors; ++g) _mm512_storeu_ps(bag_output(k) + 16 * g, acc[g]);
    }
}
#endif

static void bags_part(unsigned part, unsigned parts, const variant *v)
{
    const size_t all = job.shape->tables * job.shape->bags;
    const size_t begin = all * part / parts, end = all * (part + 1) / parts;
#if defined(__AVX512F__)
    if (v->wide && job.shape->fbgemm_8bit && job.shape->width % 16 == 0 && job.shape->width <= 128) {
        reduce_bags_wide(begin, end, v);
        return;
    }
#endif
    if (job.shape->fbgemm_8bit && job.shape->width == 128)
        reduce_bags(begin, end, v, 16, PASS_GROUPS_8BIT);
    else if (job.shape->fbgemm_8bit)
        reduce_bags(begin, end, v, 8, PASS_GROUPS_8BIT);
    else if (job.shape->width == 128)
        reduce_bags(begin, end, v, 16, PASS_GROUPS_F32);
    else
        reduce_bags(begin, end, v, 8, 8);
}

static void run_part(unsigned part, unsigned parts, const void *variant_ptr)
{
    const variant *v = variant_ptr;
    if (v->copy)
        native_copy_lines(job.copy_dst, job.copy_src, COPY_BYTES, part, parts);
    else
        bags_part(part, parts, v);
}

/* --case NAME: 2 arguments consumed, -1 for an unknown case. */
static int case_option(int argc, char **argv, int i)
{
    const void *chosen = job.shape;
    const int used = native_case_option(argc, argv, i, shapes, sizeof shapes[0], sizeof shapes / sizeof shapes[0],
                                        &chosen, "clgather-bag-ceiling");
    job.shape = chosen;
    return used;
}

/* The tables' bytes: any values do for the timing (no value is compared), but every page is touched, and
 * every float is normal, as in clgather-bench's tables: a subnormal operand or product costs a microcode
 * assist that would time the assist, not the memory. The 8-bit rows' scale and bias are clgather-bench's
 * (cases.txt: 2^-(7 + (v & 3)) and (int8)(v >> 8) / 64). */
static void fill_tables(size_t bytes)
{
    for (size_t b = 0; b < bytes; b += 8) {
        const uint64_t v = splitmix_value(job.shape->seed + 1, b / 8) & 0x3F3F3F3F3F3F3F3FULL; /* finite floats */
        memcpy(job.tables + b, &v, bytes - b < 8 ? bytes - b : 8);
    }
    if (!job.shape->fbgemm_8bit) return;
    for (size_t r = 0; r < bytes / job.row_bytes; ++r) {
        const uint64_t v = splitmix_value(job.shape->seed + 2, r);
        const float scale = 1.0f / (float)(1u << (7 + (v & 3))), bias = (float)(int8_t)(uint8_t)(v >> 8) / 64.0f;
        unsigned char *fields = job.tables + r * job.row_bytes + job.shape->width;
        memcpy(fields, &scale, 4);
        memcpy(fields + 4, &bias, 4);
    }
}

int main(int argc, char **argv)
{
    unsigned threads, repeat = 21;
    job.shape = &shapes[0];
    if (!native_options(argc, argv,
                        "clgather-bag-ceiling [--case "
                        "embedding-bag-sum|embedding-bag-8bit|embedding-bag-tbe|embedding-bag-tbe-8bit] "
                        "[--threads N] [--repeat N]",
                        &threads, &repeat, case_option))
        return 2;
    const shape *sh = job.shape;
    job.row_bytes = sh->fbgemm_8bit ? sh->width + 8 : sh->width * 4;
    const size_t table_bytes = sh->tables * sh->rows * job.row_bytes, bags = sh->tables * sh->bags;
    const size_t L = bags * sh->per_bag, out_bytes = bags * sh->width * 4;
    job.tables = native_allocate(table_bytes, 1);
    job.out = native_allocate(out_bytes, 1);
    job.copy_src = native_allocate(COPY_BYTES, 1);
    job.copy_dst = native_allocate(COPY_BYTES, 1);
    job.indices = native_allocate(L * sizeof(int64_t), 1);
    unsigned char *evict = native_allocate(EVICT_BYTES, 1);
    fill_tables(table_bytes);
    for (size_t i = 0; i < L; ++i) job.indices[i] = (int64_t)(splitmix_value(sh->seed, i) % sh->rows);

    double *times = malloc(sizeof(double) * VARIANTS * repeat);
    if (!times) return 1;
    native_pool pool;
    native_pool_start(&pool, threads, run_part);
    native_pool_time_rounds(&pool, variants, sizeof variants[0], VARIANTS, repeat, evict, EVICT_BYTES, times);
    native_pool_stop(&pool);

    const double case_bytes = (double)L * (8.0 + (double)job.row_bytes) + (double)bags * 8.0 + (double)out_bytes;
    printf("clgather-bag-ceiling: %s, %u threads, median of %u runs (caches evicted before each)\n", sh->name, threads,
           repeat);
    native_report_header("indices + offsets + rows read + output written", case_bytes);
    double copy_gbps = 0;
    for (unsigned v = 0; v < VARIANTS; ++v)
        native_report(variants[v].name, times + (size_t)v * repeat, repeat,
                      variants[v].copy ? 2.0 * COPY_BYTES : case_bytes, variants[v].copy, &copy_gbps);
    free(times);
    return 0;
}
