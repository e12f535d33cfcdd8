/* The table-batched EmbeddingBag over quantized and mixed tables (FBGEMM's inference TBE): a hand-checked
 * call mixing f32, f16, fbgemm-8bit-rowwise and fbgemm-4bit-rowwise tables in every mode and output type,
 * one quantized table matching clg_embedding_bag_quantized bit for bit, the refused descriptors, hostile
 * values named by table and bag with every output untouched, and random mixed cases against the CPU
 * reference bit for bit (CLGATHER_TEST_SEED replays, CLGATHER_TEST_SCALE scales). Every case runs through
 * every entry point on both mappings and a deferring context (bag_support.h). Kernel builds: the block
 * families' programs of clg_embedding_bag_quantized (FBGEMM's, the 32-value ggml blocks', the
 * super-blocks'), which PoCL's cache shares with test_embedding_bag_quantized. */
#include "bag_support.h"
#include "op_support.h"
#include "quantized_support.h"

#include <stdio.h>
#include <stdlib.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- a hand-checked FBGEMM mix ------------------------------------------------------------------ */

/* Four tables, B = 2, values small multiples of 1/2 (every sum, product and output exact):
 *   t0 f32 [3, 2] at byte 0:        row r = [r + 1, -(r + 1)]
 *   t1 fbgemm-8bit [4, 3] at 24:    q = 10r + c, scale 0.5, bias -1: value 0.5q - 1 (rows of 11 bytes)
 *   t2 f16 [2, 4] at 68:            row r = [r, r + 0.5, -r, 2]
 *   t3 fbgemm-4bit [3, 4] at 84:    q = (r + c) & 15, scale 2, bias 0.5: value 2q + 0.5 (rows of 6 bytes) */
static unsigned char mix_tables[102];
static const clg_embedding_bag_table mix_layout[] = {
    {.type = CLG_F32, .rows = 3, .width = 2, .byte_offset = 0},
    {.quant_layout = CLG_QUANT_FBGEMM_8BIT_ROWWISE, .rows = 4, .width = 3, .byte_offset = 24},
    {.type = CLG_F16, .rows = 2, .width = 4, .byte_offset = 68},
    {.quant_layout = CLG_QUANT_FBGEMM_4BIT_ROWWISE, .rows = 3, .width = 4, .byte_offset = 84},
};
/* t0: {0, 2}, {1}; t1: {3, 0, 3}, {}; t2: {1}, {0, 1}; t3: {2}, {0, 1, 2, 2} */
static const int64_t mix_indices[] = {0, 2, 1, 3, 0, 3, 1, 0, 1, 2, 0, 1, 2, 2};
static const int32_t mix_offsets[] = {0, 2, 3, 6, 6, 7, 9, 10, 14};
static const float mix_weights[] = {1, 2, 0.5f, -1, 2, 0.5f, 3, 1, -2, 0.5f, 1, 1, 2, -0.5f};

static double mix_value(int t, int r, int c)
{
    switch (t) {
    case 0: return c == 0 ? r + 1 : -(r + 1);
    case 1: return 0.5 * (10 * r + c) - 1;
    case 2: return c == 0 ? r : c == 1 ? r + 0.5 : c == 2 ? (r == 0 ? 0.0 : -(double)r) : 2; /* +0 in row 0 */
    default: return 2.0 * ((r + c) & 15) + 0.5;
    }
}

static void put_u16(unsigned char *at, uint16_t v) { memcpy(at, &v, 2); }

static void fill_mix_tables(void)
{
    memset(mix_tables, 0xEE, sizeof mix_tables); /* gaps: never read */
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 2; ++c) {
            const float v = (float)mix_value(0, r, c);
            memcpy(mix_tables + 4 * (2 * r + c), &v, 4);
        }
    for (int r = 0; r < 4; ++r) {
        unsigned char *row = mix_tables + 24 + 11 * r;
        for (int c = 0; c < 3; ++c) row[c] = (unsigned char)(10 * r + c);
        const float scale = 0.5f, bias = -1.f;
        memcpy(row + 3, &scale, 4);
        memcpy(row + 7, &bias, 4);
    }
    /* f16 bits of 0, 0.5, 1, 1.5, 2 and their negatives: exact small values */
    for (int r = 0; r < 2; ++r)
        for (int c = 0; c < 4; ++c) {
            const double v = mix_value(2, r, c);
            const uint16_t bits = v == 0     ? 0x0000
                                  : v == 0.5 ? 0x3800
                                  : v == 1   ? 0x3C00
                                  : v == 1.5 ? 0x3E00
                                  : v == 2   ? 0x4000
                                  : v == -1  ? 0xBC00
                                             : 0x8000; /* -0 */
            put_u16(mix_tables + 68 + 2 * (4 * r + c), bits);
        }
    for (int r = 0; r < 3; ++r) {
        unsigned char *row = mix_tables + 84 + 6 * r;
        for (int c = 0; c < 4; c += 2) row[c / 2] = (unsigned char)(((r + c) & 15) | (((r + c + 1) & 15) << 4));
        put_u16(row + 2, 0x4000); /* scale 2 */
        put_u16(row + 4, 0x3800); /* bias 0.5 */
    }
}

static tables_case mix_case(clg_bag_mode mode, clg_dtype output_type, int weighted)
{
    fill_mix_tables();
    tables_case c = {.desc = {.mode = mode, .num_tables = 4, .tables = mix_layout, .output_type = output_type}};
    c.desc.indices = bag_tensor(CLG_I64, 1, 14, 0);
    c.desc.offsets = bag_tensor(CLG_I32, 1, 9, 0);
    c.desc.include_last_offset = 1;
    c.tables = mix_tables, c.tables_bytes = sizeof mix_tables;
    c.indices = mix_indices, c.index_bytes = sizeof mix_indices;
    c.offsets = mix_offsets, c.offsets_bytes = sizeof mix_offsets;
    if (weighted) {
        c.desc.per_sample_weights = bag_tensor(CLG_F32, 1, 14, 0);
        c.weights = mix_weights, c.weights_bytes = sizeof mix_weights;
    }
    const size_t size = output_type == CLG_DTYPE_INVALID ? 4 : clg_dtype_size(output_type);
    c.out_bytes = 2 * 13 * size;
    return c;
}

/* The bits of an exactly representable value v in type t (f32, f16 or bf16). */
static uint32_t exact_bits(clg_dtype t, double v)
{
    const float f = (float)v;
    ck_assert(f == v);
    uint32_t b;
    memcpy(&b, &f, 4);
    if (t == CLG_F32) return b;
    if (t == CLG_BF16) {
        ck_assert((b & 0xFFFF) == 0);
        return b >> 16;
    }
    if (f == 0) return b >> 16; /* +-0 */
    const int e = (int)((b >> 23) & 0xFF) - 127;
    ck_assert(e >= -14 && e <= 15 && (b & 0x1FFF) == 0);
    return ((b >> 16) & 0x8000) | (uint32_t)(e + 15) << 10 | ((b >> 13) & 0x3FF);
}

/* The expected output of the mix, from mix_value in double (exact here) and one rounding of a mean. */
static void mix_expected(clg_bag_mode mode, clg_dtype out_type, int weighted, unsigned char *out)
{
    static const int widths[] = {2, 3, 4, 4};
    const size_t size = clg_dtype_size(out_type);
    int column = 0;
    for (int t = 0; t < 4; ++t) {
        for (int b = 0; b < 2; ++b) {
            const int k = 2 * t + b, start = mix_offsets[k], end = mix_offsets[k + 1];
            for (int c = 0; c < widths[t]; ++c) {
                double acc = mode == CLG_BAG_MAX ? -INFINITY : 0;
                for (int i = start; i < end; ++i) {
                    const double x = mix_value(t, (int)mix_indices[i], c);
                    if (mode == CLG_BAG_MAX)
                        acc = x > acc ? x : acc;
                    else
                        acc += weighted ? mix_weights[i] * x : x;
                }
                if (end == start) acc = 0;
                if (mode == CLG_BAG_MEAN && end > start) acc = (float)(acc / (end - start)); /* one f32 rounding */
                const uint32_t bits = exact_bits(out_type, acc);
                memcpy(out + (size_t)(13 * b + column + c) * size, &bits, size);
            }
        }
        column += widths[t];
    }
}

START_TEST(fbgemm_mix_hand_checked)
{
    static const clg_dtype out_types[] = {CLG_DTYPE_INVALID, CLG_F16, CLG_BF16};
    unsigned char want[2 * 13 * 4];
    for (size_t o = 0; o < COUNT(out_types); ++o)
        for (int m = 0; m < 3; ++m) {
            const clg_dtype out_type = out_types[o] ? out_types[o] : CLG_F32;
            if (m == CLG_BAG_MEAN && out_type != CLG_F32) continue; /* thirds: not exact in 16 bits */
            tables_case c = mix_case((clg_bag_mode)m, out_types[o], 0);
            int32_t rank = 0;
            int64_t shape[CLG_MAX_OUTPUT_RANK];
            ck_assert_int_eq(clg_embedding_bag_tables_output_shape(&c.desc, &rank, shape), CLG_SUCCESS);
            ck_assert(rank == 2 && shape[0] == 2 && shape[1] == 13);
            uint64_t tables_bytes = 0, out_bytes = 0;
            ck_assert_int_eq(clg_embedding_bag_tables_sizes(&c.desc, &tables_bytes, NULL, NULL, NULL, &out_bytes),
                             CLG_SUCCESS);
            ck_assert_uint_eq(tables_bytes, sizeof mix_tables);
            ck_assert_uint_eq(out_bytes, c.out_bytes);
            clg_dtype type = CLG_DTYPE_INVALID;
            ck_assert_int_eq(clg_embedding_bag_tables_output_type(&c.desc, &type), CLG_SUCCESS);
            ck_assert_int_eq(type, out_type);
            mix_expected((clg_bag_mode)m, out_type, 0, want);
            char name[64];
            snprintf(name, sizeof name, "FBGEMM mix, %s, %s out", clg_bag_mode_name((clg_bag_mode)m),
                     clg_dtype_name(out_type));
            tables_check_all_paths(&c, want, CLG_SUCCESS, NULL, name);
        }
    tables_case c = mix_case(CLG_BAG_SUM, CLG_F32, 1);
    mix_expected(CLG_BAG_SUM, CLG_F32, 1, want);
    tables_check_all_paths(&c, want, CLG_SUCCESS, NULL, "FBGEMM mix, weighted sum");
}
END_TEST

/* A bad index of a quantized table, or a bad offset: named by table and bag, every output untouched. */
START_TEST(hostile_values)
{
    static const struct {
        int64_t indices[14];
        int32_t offsets[9];
        const char *fragment;
        clg_status want;
    } cases[] = {
        {{0, 2, 1, 4, 0, 3, 1, 0, 1, 2, 0, 1, 2, 2},
         {0, 2, 3, 6, 6, 7, 9, 10, 14},
         "indices[3] = 4 is outside [0, 4) (tables[1].rows; bag 0 of table 1)",
         CLG_ERR_INDEX_OUT_OF_RANGE},
        {{0, 2, 1, 3, 0, 3, 1, 0, 1, 2, 0, 1, 2, -3},
         {0, 2, 3, 6, 6, 7, 9, 10, 14},
         "indices[13] = -3 is outside [0, 3) (tables[3].rows; bag 1 of table 3)",
         CLG_ERR_INDEX_OUT_OF_RANGE},
        {{0, 2, 1, 3, 0, 3, 1, 0, 1, 2, 0, 1, 2, 2},
         {0, 2, 3, 6, 5, 7, 9, 10, 14},
         "offsets[4] = 5 (table 2, bag 0) is less than offsets[3] = 6",
         CLG_ERR_INVALID_OFFSETS},
        {{0, 2, 1, 3, 0, 3, 1, 0, 1, 2, 0, 1, 2, 2},
         {0, 2, 3, 6, 6, 7, 9, 10, 13},
         "offsets[8] = 13: with include_last_offset the last offset must be 14",
         CLG_ERR_INVALID_OFFSETS},
    };
    for (size_t k = 0; k < COUNT(cases); ++k) {
        tables_case c = mix_case(CLG_BAG_SUM, CLG_F16, 0);
        c.indices = cases[k].indices;
        c.offsets = cases[k].offsets;
        char name[32];
        snprintf(name, sizeof name, "hostile case %zu", k);
        tables_check_all_paths(&c, NULL, cases[k].want, cases[k].fragment, name);
    }
}
END_TEST

/* ---- refused descriptors -------------------------------------------------------------------------- */

START_TEST(refused_descriptors)
{
    tables_case base = mix_case(CLG_BAG_SUM, CLG_DTYPE_INVALID, 0);
    clg_embedding_bag_tables_desc d = base.desc;
    clg_embedding_bag_table t[4];
    memcpy(t, mix_layout, sizeof t);
    d.tables = t;
    t[1].quant_layout = CLG_QUANT_ORT_BLOCK;
    tables_expect_refused(&d, CLG_ERR_INVALID_LAYOUT,
                          "tables[1].quant_layout = ort-block: its scales are a tensor of their own");
    t[1].quant_layout = CLG_QUANT_OV_COMPRESSED;
    tables_expect_refused(&d, CLG_ERR_INVALID_LAYOUT, "clg_embedding_bag_quantized takes it");
    t[1].quant_layout = 99;
    tables_expect_refused(&d, CLG_ERR_INVALID_LAYOUT, "tables[1].quant_layout = 99 is neither 0");
    t[1] = mix_layout[1], t[1].type = CLG_U8;
    tables_expect_refused(&d, CLG_ERR_INVALID_DTYPE, "tables[1].type u8 with quant_layout fbgemm-8bit-rowwise");
    t[1] = mix_layout[1], t[1].rows = -2;
    tables_expect_refused(&d, CLG_ERR_INVALID_DIMENSION, "tables[1] has rows = -2");
    t[1] = mix_layout[1], t[3].width = 5;
    tables_expect_refused(&d, CLG_ERR_INVALID_DIMENSION, "tables[3].width = 5 is odd");
    t[3] = mix_layout[3], t[3].quant_layout = CLG_QUANT_GGML_Q4_0;
    tables_expect_refused(&d, CLG_ERR_INVALID_DIMENSION, "tables[3].width = 4 is not a multiple of 32");
    t[3].width = 32;
    tables_expect_refused(&d, CLG_ERR_INVALID_LAYOUT,
                          "tables[1] (fbgemm-8bit-rowwise) and tables[3] (ggml-q4_0) are of different block families");
    t[3].quant_layout = CLG_QUANT_GGML_Q4_K, t[3].width = 256;
    t[1].quant_layout = CLG_QUANT_GGML_Q8_0, t[1].width = 32;
    tables_expect_refused(&d, CLG_ERR_INVALID_LAYOUT, "(ggml's 32-value blocks, ggml's 256-value super-blocks)");
    memcpy(t, mix_layout, sizeof t);
    t[2].type = CLG_F64, t[2].byte_offset = 72;
    tables_expect_refused(&d, CLG_ERR_INVALID_DTYPE, "tables[2].type f64 in a call that converts to f32");
    t[2] = mix_layout[2], t[2].byte_offset = 69;
    tables_expect_refused(&d, CLG_ERR_MISALIGNED_OFFSET, "tables[2].byte_offset = 69");
    t[2] = mix_layout[2], t[1].byte_offset = 25; /* a quantized table's rows may start at any byte */
    uint64_t bytes = 0;
    ck_assert_int_eq(clg_embedding_bag_tables_sizes(&d, &bytes, NULL, NULL, NULL, NULL), CLG_SUCCESS);
    t[1] = mix_layout[1];
    d.output_type = CLG_F64;
    tables_expect_refused(&d, CLG_ERR_INVALID_DTYPE, "output_type f64 is not f32, f16 or bf16");
    d.output_type = CLG_F32;
    d.per_sample_weights = bag_tensor(CLG_F16, 1, 14, 0);
    tables_expect_refused(&d, CLG_ERR_TYPE_MISMATCH, "per_sample_weights type f16 differs from the f32");

    /* plain tables of several types convert (f32 out), an f64 among them is refused */
    static const clg_embedding_bag_table plain[] = {{.type = CLG_F32, .rows = 2, .width = 2},
                                                    {.type = CLG_F64, .rows = 2, .width = 2, .byte_offset = 16}};
    clg_embedding_bag_tables_desc p = base.desc;
    p.tables = plain, p.num_tables = 2, p.offsets = bag_tensor(CLG_I32, 1, 5, 0);
    tables_expect_refused(&p, CLG_ERR_INVALID_DTYPE,
                          "tables[1].type f64 in a call that converts to f32 (its tables' types differ)");
    p.num_tables = 1, p.offsets = bag_tensor(CLG_I32, 1, 3, 0), p.output_type = CLG_BF16;
    ck_assert_int_eq(clg_embedding_bag_tables_sizes(&p, NULL, NULL, NULL, NULL, &bytes), CLG_SUCCESS);
    ck_assert_uint_eq(bytes, 2 * 2 * 2); /* one f32 table, bf16 out: it converts */
    clg_dtype type = CLG_DTYPE_INVALID;
    ck_assert_int_eq(clg_embedding_bag_tables_output_type(&p, &type), CLG_SUCCESS);
    ck_assert_int_eq(type, CLG_BF16);
    p.output_type = CLG_DTYPE_INVALID, p.tables = plain + 1, p.offsets.shape[0] = 3; /* one f64 table: f64 out */
    ck_assert_int_eq(clg_embedding_bag_tables_output_type(&p, &type), CLG_SUCCESS);
    ck_assert_int_eq(type, CLG_F64);
    ck_assert_int_eq(clg_embedding_bag_tables_output_type(&p, NULL), CLG_ERR_NULL_ARGUMENT);
    p.output_type = CLG_F16; /* f64 into f16: it would convert, and f64 does not */
    ck_assert_int_eq(clg_embedding_bag_tables_output_type(&p, &type), CLG_ERR_INVALID_DTYPE);
}
END_TEST

/* ---- random cases ------------------------------------------------------------------------------- */

/* A table of a random case: plain (type) or quantized (layout). */
typedef struct table_kind {
    clg_dtype type;
    clg_quant_layout layout;
} table_kind;

static const clg_dtype integer_types[] = {CLG_I8, CLG_U8, CLG_I16, CLG_U16, CLG_I32, CLG_U32, CLG_I64, CLG_U64};

/* Bytes of a row of e, as the library counts them (one table of one row). */
static uint64_t row_bytes_of(clg_embedding_bag_table e)
{
    e.rows = 1;
    e.byte_offset = 0;
    clg_embedding_bag_tables_desc d = {.num_tables = 1, .tables = &e, .output_type = CLG_F32};
    d.indices = bag_tensor(CLG_I32, 1, 0, 0);
    d.offsets = bag_tensor(CLG_I32, 1, 0, 0);
    uint64_t bytes = 0;
    ck_assert_msg(clg_embedding_bag_tables_sizes(&d, &bytes, NULL, NULL, NULL, NULL) == CLG_SUCCESS, "%s",
                  clg_last_error_message());
    return bytes;
}

/* A moderate f16 (exponents 2^-5 .. 2^5, either sign), now and then zero, subnormal, infinite or NaN. */
static uint16_t pick_f16(support_rng *rng)
{
    const uint64_t r = support_below(rng, 100);
    const uint16_t sign = support_below(rng, 2) ? 0x8000 : 0;
    if (r < 90) return (uint16_t)(sign | (10 + support_below(rng, 11)) << 10 | support_below(rng, 1024));
    if (r < 93) return sign;
    if (r < 96) return (uint16_t)(sign | (1 + support_below(rng, 1023)));
    return (uint16_t)(sign | 0x7C00 | (r < 98 ? 0 : 0x200));
}

/* N rows of table e at base: plain values (bag_support's), or random bytes with their scale fields mostly
 * ordinary. */
static void fill_table(support_rng *rng, const clg_embedding_bag_table *e, unsigned char *base, uint64_t row_bytes)
{
    const uint64_t bytes = (uint64_t)e->rows * row_bytes;
    if (e->quant_layout == 0) {
        bag_fill_values(rng, e->type, base, bytes / clg_dtype_size(e->type), support_below(rng, 4) == 0);
        return;
    }
    for (uint64_t k = 0; k < bytes; ++k) base[k] = (unsigned char)support_next(rng);
    for (uint64_t r = 0; r < (uint64_t)e->rows; ++r) {
        unsigned char *row = base + r * row_bytes;
        if (e->quant_layout == CLG_QUANT_FBGEMM_8BIT_ROWWISE) {
            for (int f = 0; f < 2; ++f) { /* an f32 scale and bias of moderate exponent */
                const uint32_t bits = (uint32_t)(support_below(rng, 2) << 31 | (118 + support_below(rng, 14)) << 23 |
                                                 support_below(rng, 1u << 23));
                memcpy(row + row_bytes - 8 + 4 * f, &bits, 4);
            }
        } else if (e->quant_layout == CLG_QUANT_FBGEMM_4BIT_ROWWISE) {
            for (int f = 0; f < 2; ++f) put_u16(row + row_bytes - 4 + 2 * f, pick_f16(rng));
        } else {
            const uint64_t block_values =
                e->quant_layout >= CLG_QUANT_GGML_Q2_K && e->quant_layout <= CLG_QUANT_GGML_IQ4_XS ? 256 : 32;
            const uint64_t blocks = (uint64_t)e->width / block_values, block_bytes = row_bytes / blocks;
            size_t at[2];
            const int fields = quant_ggml_f16_fields(e->quant_layout, at);
            for (uint64_t b = 0; b < blocks; ++b)
                for (int f = 0; f < fields; ++f) put_u16(row + b * block_bytes + at[f], pick_f16(rng));
        }
    }
}

typedef struct random_tables {
    tables_case c;
    clg_embedding_bag_table layout[6];
    unsigned char *tables, *indices, *offsets, *weights;
    char name[512];
} random_tables;

/* T tables of the given kinds (width 0 now and then for a plain or FBGEMM table), placed with gaps, B bags
 * a table, random mode, output type, index and offset types; now and then a hostile index or offset. */
static void make_random(support_rng *rng, random_tables *r, const table_kind *kinds, uint64_t T, int64_t max_rows,
                        int64_t max_width, int64_t max_blocks, uint64_t max_batch)
{
    static const clg_dtype out_types[] = {CLG_DTYPE_INVALID, CLG_F32, CLG_F16, CLG_BF16};
    memset(r, 0, sizeof *r);
    clg_embedding_bag_tables_desc *d = &r->c.desc;
    const uint64_t B = support_below(rng, max_batch + 1);
    uint64_t at = 0, row_bytes[6];
    int n = snprintf(r->name, sizeof r->name, "tables");
    for (uint64_t t = 0; t < T; ++t) {
        clg_embedding_bag_table *e = &r->layout[t];
        e->type = kinds[t].type;
        e->quant_layout = (int32_t)kinds[t].layout;
        e->rows = 1 + (int64_t)support_below(rng, (uint64_t)max_rows);
        const int ggml = e->quant_layout && kinds[t].layout < CLG_QUANT_FBGEMM_8BIT_ROWWISE;
        const int64_t block = !ggml ? 1 : kinds[t].layout >= CLG_QUANT_GGML_Q2_K ? 256 : 32;
        if (ggml)
            e->width = block * (1 + (int64_t)support_below(rng, (uint64_t)max_blocks));
        else
            e->width = support_below(rng, 8) == 0 ? 0 : 1 + (int64_t)support_below(rng, (uint64_t)max_width);
        if (kinds[t].layout == CLG_QUANT_FBGEMM_4BIT_ROWWISE) e->width += e->width % 2;
        row_bytes[t] = row_bytes_of(*e);
        const uint64_t align = e->quant_layout ? 1 : clg_dtype_size(e->type);
        at = (at + align - 1) / align * align + align * support_below(rng, 3);
        e->byte_offset = at;
        at += (uint64_t)e->rows * row_bytes[t];
        n += snprintf(r->name + n, sizeof r->name - (size_t)n, " %s[%lld x %lld]",
                      e->quant_layout ? clg_quant_layout_name(kinds[t].layout) : clg_dtype_name(e->type),
                      (long long)e->rows, (long long)e->width);
    }
    r->tables = malloc(at + 1);
    ck_assert_ptr_nonnull(r->tables);
    for (uint64_t t = 0; t < T; ++t) fill_table(rng, &r->layout[t], r->tables + r->layout[t].byte_offset, row_bytes[t]);
    d->mode = (clg_bag_mode)support_below(rng, 3);
    d->num_tables = (int32_t)T;
    d->tables = r->layout;
    d->include_last_offset = (int32_t)support_below(rng, 2);
    d->output_type = out_types[support_below(rng, COUNT(out_types))];
    const clg_dtype index_type = integer_types[support_below(rng, 8)],
                    offset_type = integer_types[support_below(rng, 8)];
    const uint64_t count = T * B + (uint64_t)d->include_last_offset;
    const uint64_t L = support_below(rng, (clg_dtype_size(offset_type) == 1 ? 100 : 4 * (T * B + 1)) + 1);
    r->offsets = malloc(count * 8 + 1);
    r->indices = malloc(L * 8 + 1);
    ck_assert(r->offsets && r->indices);
    bag_random_offsets(rng, offset_type, r->offsets, count, L, d->include_last_offset);
    uint64_t bag = 0;
    for (uint64_t i = 0; i < L; ++i) {
        while (bag + 1 < T * B && (uint64_t)bag_load_offset(r->offsets, offset_type, bag + 1) <= i) ++bag;
        const uint64_t rows = B > 0 ? (uint64_t)r->layout[bag / B].rows : 100;
        support_store_int(r->indices, index_type, i, (int64_t)support_below(rng, rows < 100 ? rows : 100));
    }
    if (support_below(rng, 8) == 0 && L > 0)
        support_store_int(r->indices, index_type, support_below(rng, L), support_below(rng, 2) ? -1 : 1000);
    else if (support_below(rng, 12) == 0 && count > 1)
        support_store_int(r->offsets, offset_type, 1 + support_below(rng, count - 1), (int64_t)L + 1);
    d->indices = bag_tensor(index_type, 1, (int64_t)L, 0);
    d->offsets = bag_tensor(offset_type, 1, (int64_t)count, 0);
    if (d->mode == CLG_BAG_SUM && support_below(rng, 2)) {
        d->per_sample_weights = bag_tensor(CLG_F32, 1, (int64_t)L, 0);
        r->weights = malloc(L * 4 + 1);
        ck_assert_ptr_nonnull(r->weights);
        bag_fill_values(rng, CLG_F32, r->weights, L, 0);
        r->c.weights = r->weights, r->c.weights_bytes = L * 4;
    }
    r->c.tables = r->tables, r->c.tables_bytes = at;
    r->c.indices = r->indices, r->c.index_bytes = L * clg_dtype_size(index_type);
    r->c.offsets = r->offsets, r->c.offsets_bytes = count * clg_dtype_size(offset_type);
    uint64_t out = 0;
    ck_assert_msg(clg_embedding_bag_tables_sizes(d, NULL, NULL, NULL, NULL, &out) == CLG_SUCCESS, "%s: %s", r->name,
                  clg_last_error_message());
    r->c.out_bytes = out;
    snprintf(r->name + n, sizeof r->name - (size_t)n, "; %s, B %llu, L %llu, out %s, last %d, weights %d",
             clg_bag_mode_name(d->mode), (unsigned long long)B, (unsigned long long)L, clg_dtype_name(d->output_type),
             d->include_last_offset, r->weights != NULL);
}

static void free_random(random_tables *r)
{
    free(r->tables);
    free(r->indices);
    free(r->offsets);
    free(r->weights);
}

/* The case through every path against the reference, bit for bit, status and message too. */
static int check_random(random_tables *r, int k)
{
    unsigned char *out = support_poisoned(r->c.out_bytes + 1);
    const clg_status want = clg_embedding_bag_tables_reference(&r->c.desc, r->c.tables, r->c.tables_bytes, r->c.indices,
                                                               r->c.index_bytes, r->c.offsets, r->c.offsets_bytes,
                                                               r->c.weights, r->c.weights_bytes, out, r->c.out_bytes);
    char message[1024], name[600];
    snprintf(message, sizeof message, "%s", clg_last_error_message());
    snprintf(name, sizeof name, "case %d: %s", k, r->name);
    tables_check_all_paths(&r->c, want == CLG_SUCCESS ? out : NULL, want, want == CLG_SUCCESS ? NULL : message, name);
    free(out);
    return want != CLG_SUCCESS;
}

/* FBGEMM's inference mix: f32, f16, bf16, 8-bit and 4-bit rowwise tables, 1 to 6 of them a call; a few
 * calls mixing plain tables with the 32-value ggml blocks instead. */
START_TEST(random_mixed)
{
    static const table_kind fbgemm_mix[] = {{CLG_F32, 0},
                                            {CLG_F16, 0},
                                            {CLG_BF16, 0},
                                            {0, CLG_QUANT_FBGEMM_8BIT_ROWWISE},
                                            {0, CLG_QUANT_FBGEMM_4BIT_ROWWISE}};
    static const table_kind ggml_mix[] = {
        {CLG_F16, 0}, {0, CLG_QUANT_GGML_Q4_0}, {0, CLG_QUANT_GGML_Q8_0}, {0, CLG_QUANT_GGML_Q5_1}};
    const support_random_setup setup = support_random_from_environment("embedding_bag_tables_quantized", 0x7BE0101ull);
    support_rng rng = {setup.seed};
    const int count = support_setup_scaled(&setup, 40, 4);
    int refused = 0;
    for (int k = 0; k < count; ++k) {
        const int ggml = k % 8 == 7;
        const table_kind *pool = ggml ? ggml_mix : fbgemm_mix;
        const uint64_t pool_size = ggml ? COUNT(ggml_mix) : COUNT(fbgemm_mix);
        table_kind kinds[6];
        const uint64_t T = 1 + support_below(&rng, 6);
        for (uint64_t t = 0; t < T; ++t) kinds[t] = pool[support_below(&rng, pool_size)];
        random_tables r;
        make_random(&rng, &r, kinds, T, 12, 40, 2, 5);
        refused += check_random(&r, k);
        free_random(&r);
    }
    /* a wide one: rows of up to 600 values (more pieces than a work-group), many bags */
    table_kind wide[] = {{0, CLG_QUANT_FBGEMM_8BIT_ROWWISE}, {CLG_F32, 0}, {0, CLG_QUANT_FBGEMM_4BIT_ROWWISE}};
    random_tables r;
    make_random(&rng, &r, wide, 3, 50, 600, 1, setup.scale < 0.1 ? 40 : 300);
    refused += check_random(&r, count);
    free_random(&r);
    printf("embedding_bag_tables_quantized: %d cases, %d refused by a value check\n", count + 1, refused);
}
END_TEST

/* The runs kernel with each (table, bag) pair's rows prefetched as it starts (bag_quantized_prefetch_current)
 * beside the pair ahead, in two-item groups, so that a work-item's walk crosses tables and empty bags:
 * FBGEMM's mix, and a wide call. A tuning changes speed, never results. */
START_TEST(prefetch_current_pairs)
{
    static const table_kind fbgemm_mix[] = {
        {CLG_F32, 0}, {CLG_F16, 0}, {0, CLG_QUANT_FBGEMM_8BIT_ROWWISE}, {0, CLG_QUANT_FBGEMM_4BIT_ROWWISE}};
    support_use_tuning("mapping = runs\nruns_local_size = 2\nruns_groups_per_cu = 1\n"
                       "bag_quantized_prefetch_current = 1\n");
    const support_random_setup setup = support_random_from_environment("embedding_bag_tables_quantized", 0xC0BE7ull);
    support_rng rng = {setup.seed};
    for (int k = 0; k < 6; ++k) {
        table_kind kinds[6];
        const uint64_t T = 2 + support_below(&rng, 5);
        for (uint64_t t = 0; t < T; ++t) kinds[t] = fbgemm_mix[support_below(&rng, COUNT(fbgemm_mix))];
        random_tables r;
        make_random(&rng, &r, kinds, T, 12, 40, 2, 5);
        check_random(&r, k);
        free_random(&r);
    }
    table_kind wide[] = {{0, CLG_QUANT_FBGEMM_8BIT_ROWWISE}, {CLG_F32, 0}, {0, CLG_QUANT_FBGEMM_4BIT_ROWWISE}};
    random_tables r;
    make_random(&rng, &r, wide, 3, 50, 600, 1, 40);
    check_random(&r, 6);
    free_random(&r);
    support_use_tuning(NULL);
}
END_TEST

/* ---- one quantized table: clg_embedding_bag_quantized's bytes -------------------------------------- */

static const clg_quant_layout row_layouts[] = {
    CLG_QUANT_FBGEMM_8BIT_ROWWISE, CLG_QUANT_FBGEMM_4BIT_ROWWISE, CLG_QUANT_GGML_Q4_0,
    CLG_QUANT_GGML_Q5_1,           CLG_QUANT_GGML_Q4_K, /* those above on the device too; the rest through the references */
    CLG_QUANT_GGML_Q8_0,           CLG_QUANT_GGML_Q4_1,           CLG_QUANT_GGML_Q5_0,
    CLG_QUANT_GGML_IQ4_NL,         CLG_QUANT_GGML_Q2_K,           CLG_QUANT_GGML_Q3_K,
    CLG_QUANT_GGML_Q5_K,           CLG_QUANT_GGML_Q6_K,           CLG_QUANT_GGML_IQ4_XS};
enum { DEVICE_LAYOUTS = 5 };

/* The single-table call on r's one table (torch-embedding-bag, offsets form). */
static clg_status single_reference(const random_tables *r, void *out)
{
    const clg_embedding_bag_table *e = &r->layout[0];
    clg_embedding_bag_quantized_desc q = {.layout = (clg_quant_layout)e->quant_layout,
                                          .output_type = r->c.desc.output_type};
    q.bag.preset = CLG_TORCH_EMBEDDING_BAG;
    q.bag.bag_form = CLG_BAG_OFFSETS;
    q.bag.mode = r->c.desc.mode;
    q.bag.indices = r->c.desc.indices;
    q.bag.offsets = r->c.desc.offsets;
    q.bag.per_sample_weights = r->c.desc.per_sample_weights;
    q.bag.include_last_offset = r->c.desc.include_last_offset;
    q.data.type = CLG_QUANT_U8;
    q.data.rank = 2;
    q.data.shape[0] = e->rows;
    q.data.shape[1] = (int64_t)row_bytes_of(*e);
    const size_t data_bytes = (size_t)(q.data.shape[0] * q.data.shape[1]);
    return clg_embedding_bag_quantized_reference(&q, r->tables + e->byte_offset, data_bytes, NULL, 0, NULL, 0,
                                                 r->c.indices, r->c.index_bytes, r->c.offsets, r->c.offsets_bytes,
                                                 r->c.weights, r->c.weights_bytes, out, r->c.out_bytes);
}

START_TEST(one_table_matches_quantized_call)
{
    support_rng rng = {0x7BE0102ull};
    for (size_t l = 0; l < COUNT(row_layouts); ++l) {
        int on_device = l < DEVICE_LAYOUTS; /* the first case the values let run, on every path */
        for (int k = 0; k < 3; ++k) {
            const table_kind kind = {0, row_layouts[l]};
            random_tables r;
            make_random(&rng, &r, &kind, 1, 9, 40, 2, 5);
            unsigned char *single = support_poisoned(r.c.out_bytes + 1), *batched = support_poisoned(r.c.out_bytes + 1);
            const clg_status st = single_reference(&r, single);
            const clg_status tb = clg_embedding_bag_tables_reference(
                &r.c.desc, r.c.tables, r.c.tables_bytes, r.c.indices, r.c.index_bytes, r.c.offsets, r.c.offsets_bytes,
                r.c.weights, r.c.weights_bytes, batched, r.c.out_bytes);
            ck_assert_msg(st == tb, "%s: single %s, batched %s", r.name, clg_status_string(st), clg_status_string(tb));
            if (st == CLG_SUCCESS) {
                ck_assert_msg(memcmp(single, batched, r.c.out_bytes) == 0, "%s: the outputs differ", r.name);
                if (on_device && r.c.out_bytes > 0) {
                    tables_check_all_paths(&r.c, single, CLG_SUCCESS, NULL, r.name);
                    on_device = 0;
                }
            }
            free(single);
            free(batched);
            free_random(&r);
        }
        ck_assert_msg(!on_device, "%s: no case ran on the device", clg_quant_layout_name(row_layouts[l]));
    }
}
END_TEST

int main(void)
{
    return support_run_tests("embedding_bag_tables_quantized", 900,
                             SUPPORT_TESTS(fbgemm_mix_hand_checked, hostile_values, refused_descriptors,
                                           one_table_matches_quantized_call, random_mixed, prefetch_current_pairs));
}
