/* Hand-computed examples of every layout of the dequantizing gather (docs/semantics.md, "Dequantizing
 * gather"), each run on the CPU reference, the synchronous OpenCL call and the enqueue call (both
 * kernel mappings), and compared bit for bit with values worked out by hand in the comments. */
#include "quantized_support.h"
#include "testing/testing.h"

#include <math.h>
#include <stdlib.h>

/* Run a case everywhere and compare every output element's bits with want (output-type bits). */
static void expect_bits(const quant_case *c, const uint32_t *want, size_t count)
{
    int32_t rank;
    int64_t shape[CLG_MAX_OUTPUT_RANK];
    clg_dtype out_type;
    ck_assert_int_eq(clg_gather_quantized_output_shape(&c->desc, &rank, shape, &out_type), CLG_SUCCESS);
    const size_t elem = clg_dtype_size(out_type);
    ck_assert_uint_eq(c->out_bytes, count * elem);
    clg_context *ctx = support_cl_context();
    for (int way = 0; way < 4; ++way) {
        unsigned char *out = support_poisoned(c->out_bytes);
        clg_status st;
        if (way == 0) {
            st = quant_reference(c, out);
        } else if (way == 1) {
            st = quant_sync(ctx, c, out);
        } else {
            support_use_mapping(ctx, support_mappings[way - 2]);
            const size_t guard = quant_out_guard(c, 8);
            unsigned char *region = support_poisoned(guard + c->out_bytes + guard);
            st = quant_enqueue(ctx, c, 8, region);
            ck_assert(support_guards_intact(region, guard, c->out_bytes));
            memcpy(out, region + guard, c->out_bytes);
            free(region);
            support_use_mapping(ctx, NULL);
        }
        ck_assert_msg(st == CLG_SUCCESS, "way %d: %s: %s", way, clg_status_string(st), clg_last_error_message());
        for (size_t k = 0; k < count; ++k) {
            uint32_t got = 0;
            memcpy(&got, out + k * elem, elem);
            ck_assert_msg(got == want[k], "way %d, element %zu: 0x%08x, want 0x%08x", way, k, got, want[k]);
        }
        free(out);
    }
}

static uint32_t f32_bits(float v)
{
    uint32_t b;
    memcpy(&b, &v, 4);
    return b;
}

/* The f16 bits of a value f16 holds exactly (every expected f16 value below does). */
static uint32_t f16_bits_of(float v)
{
    if (v == 0) return signbit(v) ? 0x8000u : 0;
    const uint32_t b = f32_bits(v);
    const uint32_t exponent = ((b >> 23) & 0xFF) - 112, mantissa = (b & 0x7FFFFF) >> 13;
    ck_assert_msg((b & 0x1FFF) == 0 && exponent >= 1 && exponent < 31, "%g is not a normal f16", v);
    return ((b >> 16) & 0x8000u) | (exponent << 10) | mantissa;
}

static void set_qshape(clg_quant_tensor_desc *t, clg_quant_type type, int32_t rank, const int64_t *shape)
{
    memset(t, 0, sizeof *t);
    t->type = type;
    t->rank = rank;
    if (rank > 0) memcpy(t->shape, shape, (size_t)rank * sizeof shape[0]); /* a scalar passes no shape */
}

/* ONNX Runtime, u4 [2, 16], one f32 scale a row (block 16), no zero points (u4's default is 0):
 * row 0 holds 0..15, row 1 15..0; scales 0.5 and -2. indices [1, 0, -1]: -1 wraps to row 1. */
START_TEST(ort_u4_rows_default_zero_point)
{
    quant_case c = {0};
    const int64_t ds[] = {2, 16}, ss[] = {2, 1}, is[] = {3};
    c.desc.layout = CLG_QUANT_ORT_BLOCK;
    set_qshape(&c.desc.data, CLG_QUANT_U4, 2, ds);
    support_shape(&c.desc.indices, CLG_I64, 1, is);
    support_shape(&c.desc.scales, CLG_F32, 2, ss);
    c.desc.block_size = 16;
    c.desc.quantize_axis = 1;
    quant_case_alloc(&c);
    for (int k = 0; k < 16; ++k) {
        quant_put_nibble(c.data, (uint64_t)k, k);
        quant_put_nibble(c.data, 16 + (uint64_t)k, 15 - k);
    }
    ck_assert_int_eq(c.data[0], 0x10); /* values 0 (low nibble) and 1 (high nibble) */
    quant_put_scale(&c, 0, 0.5f);
    quant_put_scale(&c, 1, -2.0f);
    const int64_t idx[] = {1, 0, -1};
    memcpy(c.indices, idx, sizeof idx);
    uint32_t want[48];
    for (int k = 0; k < 16; ++k) {
        want[k] = want[32 + k] = f32_bits((float)(15 - k) * -2.0f); /* -30, -28, ..., -2, -0 */
        want[16 + k] = f32_bits((float)k * 0.5f);                   /* 0, 0.5, ..., 7.5 */
    }
    ck_assert_uint_eq(want[15], 0x80000000u); /* 0 * -2 is -0, as in ONNX Runtime's float code */
    expect_bits(&c, want, 48);
    quant_case_free(&c);
}
END_TEST

/* ONNX Runtime, i4 [3, 3] quantized along axis 0 (one block of 16 covers the 3 rows: scales and zero
 * points [1, 3]) and gathered along axis 1, so the quantize axis comes before the gather axis:
 *   values (flat) -8 7 -1 / 3 0 5 / -4 2 1, scales 0.25 1 -0.5, zero points 1 -2 3
 *   indices [2, 0]: out[r, 0] = (data[r, 2] - 3) * -0.5, out[r, 1] = (data[r, 0] - 1) * 0.25
 *   = [[2, -2.25], [-1, 0.5], [1, -1.25]] */
START_TEST(ort_i4_quantize_axis_before_gather_axis_with_zero_points)
{
    quant_case c = {0};
    const int64_t ds[] = {3, 3}, ss[] = {1, 3}, is[] = {2};
    c.desc.layout = CLG_QUANT_ORT_BLOCK;
    set_qshape(&c.desc.data, CLG_QUANT_I4, 2, ds);
    set_qshape(&c.desc.zero_points, CLG_QUANT_I4, 2, ss);
    support_shape(&c.desc.indices, CLG_I32, 1, is);
    support_shape(&c.desc.scales, CLG_F32, 2, ss);
    c.desc.block_size = 16;
    c.desc.gather_axis = 1;
    c.desc.quantize_axis = 0;
    quant_case_alloc(&c);
    ck_assert_uint_eq(c.data_bytes, 5); /* 9 values, two a byte */
    ck_assert_uint_eq(c.zp_bytes, 2);
    const unsigned char data[5] = {0x78, 0x3F, 0x50, 0x2C, 0x01}, zp[2] = {0xE1, 0x03};
    memcpy(c.data, data, 5);
    memcpy(c.zero_points, zp, 2);
    quant_put_scale(&c, 0, 0.25f);
    quant_put_scale(&c, 1, 1.0f);
    quant_put_scale(&c, 2, -0.5f);
    const int32_t idx[] = {2, 0};
    memcpy(c.indices, idx, sizeof idx);
    const uint32_t want[] = {f32_bits(2),    f32_bits(-2.25f), f32_bits(-1),
                             f32_bits(0.5f), f32_bits(1),      f32_bits(-1.25f)};
    expect_bits(&c, want, 6);
    quant_case_free(&c);
}
END_TEST

/* ONNX Runtime, u8 with bits 8, f16 scales (so f16 output) and u8 zero points, two blocks of 16:
 * row 1 holds 100..131, scales 0.5 and 2, zero points 100 and 128:
 *   out[k] = k * 0.5 for k < 16, (k - 28) * 2 after: -24 .. 6 */
START_TEST(ort_u8_bits8_f16_scales_zero_points)
{
    quant_case c = {0};
    const int64_t ds[] = {2, 32}, ss[] = {2, 2}, is[] = {1};
    c.desc.layout = CLG_QUANT_ORT_BLOCK;
    set_qshape(&c.desc.data, CLG_QUANT_U8, 2, ds);
    set_qshape(&c.desc.zero_points, CLG_QUANT_U8, 2, ss);
    support_shape(&c.desc.indices, CLG_I64, 1, is);
    support_shape(&c.desc.scales, CLG_F16, 2, ss);
    c.desc.bits = 8;
    c.desc.block_size = 16;
    c.desc.quantize_axis = 1;
    quant_case_alloc(&c);
    for (int k = 0; k < 32; ++k) c.data[32 + k] = (unsigned char)(100 + k);
    quant_put_scale(&c, 2, 0.5f);
    quant_put_scale(&c, 3, 2.0f);
    c.zero_points[2] = 100;
    c.zero_points[3] = 128;
    c.indices[0] = 1;
    uint32_t want[32];
    for (int k = 0; k < 32; ++k) want[k] = f16_bits_of(k < 16 ? (float)k * 0.5f : (float)(k - 28) * 2.0f);
    want[0] = 0; /* 0 * 0.5 = +0 */
    expect_bits(&c, want, 32);
    quant_case_free(&c);
}
END_TEST

/* ONNX Runtime, u8 with bits 4: [1, 24] bytes hold 48 values (value k is k mod 16), blocks of 16, so
 * scales [1, 3] = 1, -1, 0.125; zero points packed two a byte along the row: [1, 2] bytes holding
 * 9, 4, 15 (0x49, 0x0F). out[k] = (k%16 - zp[k/16]) * scale[k/16]. Without zero points the default is 8. */
START_TEST(ort_u8_bits4_packed_zero_point_rows_and_default)
{
    for (int with_zp = 0; with_zp < 2; ++with_zp) {
        quant_case c = {0};
        const int64_t ds[] = {1, 24}, ss[] = {1, 3}, zs[] = {1, 2}, is[] = {1};
        c.desc.layout = CLG_QUANT_ORT_BLOCK;
        set_qshape(&c.desc.data, CLG_QUANT_U8, 2, ds);
        if (with_zp) set_qshape(&c.desc.zero_points, CLG_QUANT_U8, 2, zs);
        support_shape(&c.desc.indices, CLG_I32, 1, is);
        support_shape(&c.desc.scales, CLG_F32, 2, ss);
        c.desc.block_size = 16;
        c.desc.quantize_axis = -1;
        quant_case_alloc(&c);
        for (int k = 0; k < 48; ++k) quant_put_nibble(c.data, (uint64_t)k, k % 16);
        const float scales[3] = {1.0f, -1.0f, 0.125f};
        for (int b = 0; b < 3; ++b) quant_put_scale(&c, (uint64_t)b, scales[b]);
        if (with_zp) {
            c.zero_points[0] = 0x49;
            c.zero_points[1] = 0x0F;
        }
        const int zps[3] = {9, 4, 15};
        uint32_t want[48];
        for (int k = 0; k < 48; ++k) want[k] = f32_bits((float)(k % 16 - (with_zp ? zps[k / 16] : 8)) * scales[k / 16]);
        int32_t rank;
        int64_t shape[CLG_MAX_OUTPUT_RANK];
        ck_assert_int_eq(clg_gather_quantized_output_shape(&c.desc, &rank, shape, NULL), CLG_SUCCESS);
        ck_assert_int_eq(rank, 2);
        ck_assert_int_eq(shape[1], 48); /* the last axis counts values, twice the bytes */
        expect_bits(&c, want, 48);
        quant_case_free(&c);
    }
}
END_TEST

/* ONNX Runtime, u8 with bits 2: [2, 5] bytes hold 20 values a row, four a byte, value 0 in the low two
 * bits. Row 0's bytes are 0xE4 (values 0, 1, 2, 3, 0, ...: k % 4), row 1's 0x1B (3 - k % 4). Blocks of
 * 16: two a row, the second of 4 values; scales [2, 2] = {1, -0.5}, {0.25, 2}. Zero points [2, 1], four
 * a byte along the row: 0xFD holds 1, 3 (and padding 3, 3, never read), 0x58 holds 0, 2. Indices
 * {1, 0}: out[n][k] = (value - zp[k/16]) * scale[k/16] of row 1 - n. Without zero points the default is 2. */
START_TEST(ort_u8_bits2_packed_zero_point_rows_and_default)
{
    for (int with_zp = 0; with_zp < 2; ++with_zp) {
        quant_case c = {0};
        const int64_t ds[] = {2, 5}, ss[] = {2, 2}, zs[] = {2, 1}, is[] = {2};
        c.desc.layout = CLG_QUANT_ORT_BLOCK;
        set_qshape(&c.desc.data, CLG_QUANT_U8, 2, ds);
        if (with_zp) set_qshape(&c.desc.zero_points, CLG_QUANT_U8, 2, zs);
        support_shape(&c.desc.indices, CLG_I32, 1, is);
        support_shape(&c.desc.scales, CLG_F32, 2, ss);
        c.desc.bits = 2;
        c.desc.block_size = 16;
        c.desc.quantize_axis = 1;
        quant_case_alloc(&c);
        for (int j = 0; j < 5; ++j) {
            c.data[j] = 0xE4;
            c.data[5 + j] = 0x1B;
        }
        const int32_t rows[2] = {1, 0};
        memcpy(c.indices, rows, sizeof rows);
        const float scales[2][2] = {{1.0f, -0.5f}, {0.25f, 2.0f}};
        for (int b = 0; b < 4; ++b) quant_put_scale(&c, (uint64_t)b, scales[b / 2][b % 2]);
        if (with_zp) {
            c.zero_points[0] = 0xFD;
            c.zero_points[1] = 0x58;
        }
        const int zps[2][2] = {{1, 3}, {0, 2}};
        uint32_t want[40];
        for (int n = 0; n < 2; ++n)
            for (int k = 0; k < 20; ++k) {
                const int row = 1 - n, value = row == 0 ? k % 4 : 3 - k % 4;
                const int zp = with_zp ? zps[row][k / 16] : 2;
                want[n * 20 + k] = f32_bits((float)(value - zp) * scales[row][k / 16]);
            }
        int32_t rank;
        int64_t shape[CLG_MAX_OUTPUT_RANK];
        ck_assert_int_eq(clg_gather_quantized_output_shape(&c.desc, &rank, shape, NULL), CLG_SUCCESS);
        ck_assert_int_eq(rank, 2);
        ck_assert_int_eq(shape[1], 20); /* the last axis counts values, four times the bytes */
        expect_bits(&c, want, 40);
        quant_case_free(&c);
    }
}
END_TEST

/* ggml q4_0, two rows of two blocks (36 bytes). Row 1, block 0: d = 0.5 (f16 0x3800), byte j holds j
 * in its low nibble and 15 - j in its high one: values 0..15 are (j - 8) * 0.5, values 16..31 are
 * (7 - j) * 0.5. Block 1: d = -2 (0xC000), every nibble 8: (8 - 8) * -2 = -0. Output f32. */
START_TEST(ggml_q4_0_row)
{
    quant_case c = {0};
    const int64_t ds[] = {2, 36}, is[] = {1};
    c.desc.layout = CLG_QUANT_GGML_Q4_0;
    set_qshape(&c.desc.data, CLG_QUANT_U8, 2, ds);
    support_shape(&c.desc.indices, CLG_I32, 1, is);
    quant_case_alloc(&c);
    unsigned char *row = c.data + 36;
    row[0] = 0x00, row[1] = 0x38;
    for (int j = 0; j < 16; ++j) row[2 + j] = (unsigned char)(j | (15 - j) << 4);
    row[18] = 0x00, row[19] = 0xC0;
    memset(row + 20, 0x88, 16);
    c.indices[0] = 1;
    uint32_t want[64];
    for (int j = 0; j < 16; ++j) {
        want[j] = f32_bits((float)(j - 8) * 0.5f);
        want[16 + j] = f32_bits((float)(7 - j) * 0.5f);
        want[32 + j] = want[48 + j] = 0x80000000u;
    }
    expect_bits(&c, want, 64);
    quant_case_free(&c);
}
END_TEST

/* ggml q8_0, one row of one block: d = 0.25 (0x3400), int8 values -128 -1 0 1 127 then 27 zeros:
 * -32 -0.25 0 0.25 31.75 0 ...; as bf16 output (exact). */
START_TEST(ggml_q8_0_row_bf16_output)
{
    quant_case c = {0};
    const int64_t ds[] = {1, 34}, is[] = {1};
    c.desc.layout = CLG_QUANT_GGML_Q8_0;
    set_qshape(&c.desc.data, CLG_QUANT_U8, 2, ds);
    support_shape(&c.desc.indices, CLG_I64, 1, is);
    c.desc.output_type = CLG_BF16;
    quant_case_alloc(&c);
    c.data[0] = 0x00, c.data[1] = 0x34;
    const signed char q[5] = {-128, -1, 0, 1, 127};
    memcpy(c.data + 2, q, 5);
    uint32_t want[32] = {0xC200u /* -32 */, 0xBE80u /* -0.25 */, 0, 0x3E80u /* 0.25 */, 0x41FEu /* 31.75 */};
    expect_bits(&c, want, 32);
    quant_case_free(&c);
}
END_TEST

/* A one-row ggml case of `bytes` bytes, index 0, the given output type. */
static void ggml_case(quant_case *c, clg_quant_layout layout, int64_t bytes, clg_dtype out)
{
    const int64_t ds[] = {1, bytes}, is[] = {1};
    c->desc.layout = layout;
    set_qshape(&c->desc.data, CLG_QUANT_U8, 2, ds);
    support_shape(&c->desc.indices, CLG_I64, 1, is);
    c->desc.output_type = out;
    quant_case_alloc(c);
}

/* ggml q4_1, one row of three blocks, f16 output. Block 0: d = 0.5 (0x3800), m = -4 (0xC400), byte j
 * holds j low and 15 - j high: j * 0.5 - 4, then (15 - j) * 0.5 - 4. Block 1: d = +inf, m = 1, every
 * byte 0x10: nibble 0 gives inf * 0 = NaN (the default 0x7FC00000, f16 0x7E00), nibble 1 inf + 1 = inf.
 * Block 2: d = 1, m = -inf, bytes 0x21: -inf. */
START_TEST(ggml_q4_1_row_f16_output_and_special_fields)
{
    quant_case c = {0};
    ggml_case(&c, CLG_QUANT_GGML_Q4_1, 60, CLG_F16);
    unsigned char *b = c.data;
    b[0] = 0x00, b[1] = 0x38, b[2] = 0x00, b[3] = 0xC4;
    for (int j = 0; j < 16; ++j) b[4 + j] = (unsigned char)(j | (15 - j) << 4);
    b[20] = 0x00, b[21] = 0x7C, b[22] = 0x00, b[23] = 0x3C;
    memset(b + 24, 0x10, 16);
    b[40] = 0x00, b[41] = 0x3C, b[42] = 0x00, b[43] = 0xFC;
    memset(b + 44, 0x21, 16);
    uint32_t want[96];
    for (int j = 0; j < 16; ++j) {
        want[j] = f16_bits_of((float)j * 0.5f - 4.0f);
        want[16 + j] = f16_bits_of((float)(15 - j) * 0.5f - 4.0f);
        want[32 + j] = 0x7E00u, want[48 + j] = 0x7C00u;
        want[64 + j] = want[80 + j] = 0xFC00u;
    }
    expect_bits(&c, want, 96);
    quant_case_free(&c);
}
END_TEST

/* ggml q5_0, one block, bf16 output: d = -0.5 (0xB800), fifth bits 0x0000FFFF (elements 0..15), byte j
 * holds j in both nibbles: element j < 16 is (j + 16 - 16) * -0.5 (-0 for j = 0), element 16 + j is
 * (j - 16) * -0.5. */
START_TEST(ggml_q5_0_row_bf16_output)
{
    quant_case c = {0};
    ggml_case(&c, CLG_QUANT_GGML_Q5_0, 22, CLG_BF16);
    c.data[0] = 0x00, c.data[1] = 0xB8, c.data[2] = 0xFF, c.data[3] = 0xFF;
    for (int j = 0; j < 16; ++j) c.data[6 + j] = (unsigned char)(j | j << 4);
    uint32_t want[32];
    for (int j = 0; j < 16; ++j) {
        want[j] = f32_bits((float)j * -0.5f) >> 16;
        want[16 + j] = f32_bits((float)(j - 16) * -0.5f) >> 16;
    }
    expect_bits(&c, want, 32);
    quant_case_free(&c);
}
END_TEST

/* ggml q5_1, one block, f32 output: d = 0.25 (0x3400), m = -1 (0xBC00), fifth bits 0xF0F0F0F0 (element j
 * when j mod 8 >= 4), byte j = j (high nibbles 0): element j < 16 is (j + 16 * bit) * 0.25 - 1, element
 * 16 + j is 16 * bit * 0.25 - 1. */
START_TEST(ggml_q5_1_row)
{
    quant_case c = {0};
    ggml_case(&c, CLG_QUANT_GGML_Q5_1, 24, CLG_F32);
    c.data[0] = 0x00, c.data[1] = 0x34, c.data[2] = 0x00, c.data[3] = 0xBC;
    memset(c.data + 4, 0xF0, 4);
    for (int j = 0; j < 16; ++j) c.data[8 + j] = (unsigned char)j;
    uint32_t want[32];
    for (int j = 0; j < 32; ++j) {
        const int fifth = j % 8 >= 4;
        want[j] = f32_bits((float)((j < 16 ? j : 0) + 16 * fifth) * 0.25f - 1.0f);
    }
    expect_bits(&c, want, 32);
    quant_case_free(&c);
}
END_TEST

/* ggml iq4_nl, one block, f16 output: d = 0.25 (0x3400), byte j holds j low and 15 - j high; element j
 * is kvalues_iq4nl[j] * 0.25, element 16 + j kvalues_iq4nl[15 - j] * 0.25 (all exact in f16). */
START_TEST(ggml_iq4_nl_row_f16_output)
{
    static const int kvalues[16] = {-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113};
    quant_case c = {0};
    ggml_case(&c, CLG_QUANT_GGML_IQ4_NL, 18, CLG_F16);
    c.data[0] = 0x00, c.data[1] = 0x34;
    for (int j = 0; j < 16; ++j) c.data[2 + j] = (unsigned char)(j | (15 - j) << 4);
    uint32_t want[32];
    for (int j = 0; j < 16; ++j) {
        want[j] = f16_bits_of((float)kvalues[j] * 0.25f);
        want[16 + j] = f16_bits_of((float)kvalues[15 - j] * 0.25f);
    }
    expect_bits(&c, want, 32);
    quant_case_free(&c);
}
END_TEST

/* ggml's 256-value super-blocks: value v lies in sub-block j = v / 32 (q4_K, q5_K, iq4_xs) or v / 16
 * (q2_K, q3_K, q6_K); each block below is built so that its values have a closed form. */

/* q4_K, two blocks, f32 output. Block 0: d = 0.5 (0x3800), dmin = 0.25 (0x3400), scales 1..8 and mins
 * 0..7 (sub-block j: scale j + 1, min j; all below 16, so the packed bytes are 1 2 3 4, 0 1 2 3, then
 * scale and min nibbles 0x45 0x56 0x67 0x78), quant byte c*32 + l holding l % 16 low and 15 - l % 16
 * high: value v = 64c + 32k + l is (0.5 * (j + 1)) * q - 0.25 * j with q = l % 16 (k = 0) or
 * 15 - l % 16 (k = 1); e.g. v = 33: 1 * 14 - 0.25 = 13.75. Block 1: d = -inf, dmin = 1, every scale
 * and min byte 0x01 (scales 1, mins 1 for j < 4 and 0 after), quant bytes 0x10: low nibbles 0 give
 * (-inf * 1) * 0, the NaN 0x7FC00000, less anything: 0x7FC00000; high nibbles 1 give -inf less a
 * finite min: -inf. */
START_TEST(ggml_q4_K_rows_and_infinite_d)
{
    quant_case c = {0};
    ggml_case(&c, CLG_QUANT_GGML_Q4_K, 288, CLG_F32);
    unsigned char *b = c.data;
    static const unsigned char packed[12] = {1, 2, 3, 4, 0, 1, 2, 3, 0x45, 0x56, 0x67, 0x78};
    b[0] = 0x00, b[1] = 0x38, b[2] = 0x00, b[3] = 0x34;
    memcpy(b + 4, packed, 12);
    for (int i = 0; i < 128; ++i) b[16 + i] = (unsigned char)(i % 16 | (15 - i % 16) << 4);
    unsigned char *b1 = b + 144;
    b1[0] = 0x00, b1[1] = 0xFC, b1[2] = 0x00, b1[3] = 0x3C;
    memset(b1 + 4, 0x01, 12);
    memset(b1 + 16, 0x10, 128);
    uint32_t want[512];
    for (int v = 0; v < 256; ++v) {
        const int j = v / 32, k = (v / 32) % 2, l = v % 32;
        const int q = k == 0 ? l % 16 : 15 - l % 16;
        want[v] = f32_bits((0.5f * (float)(j + 1)) * (float)q - 0.25f * (float)j);
        want[256 + v] = k == 0 ? 0x7FC00000u : 0xFF800000u;
    }
    ck_assert_uint_eq(want[33], f32_bits(13.75f));
    ck_assert_uint_eq(want[255], f32_bits(4.0f * 0.0f - 1.75f)); /* j 7, k 1, l 31: q 0 */
    expect_bits(&c, want, 512);
    quant_case_free(&c);
}
END_TEST

/* q5_K, one block, f32 output: q4_K's block 0 with dmin = 1 (0x3C00) and fifth-bit bytes 0xAA (the
 * fifth bit set in sub-blocks 1, 3, 5, 7): value v is (0.5 * (j + 1)) * (q + 16 * (j odd)) - j; e.g.
 * v = 32 (j 1, high nibble 15, fifth bit set): 1 * 31 - 1 = 30. */
START_TEST(ggml_q5_K_row)
{
    quant_case c = {0};
    ggml_case(&c, CLG_QUANT_GGML_Q5_K, 176, CLG_F32);
    unsigned char *b = c.data;
    static const unsigned char packed[12] = {1, 2, 3, 4, 0, 1, 2, 3, 0x45, 0x56, 0x67, 0x78};
    b[0] = 0x00, b[1] = 0x38, b[2] = 0x00, b[3] = 0x3C;
    memcpy(b + 4, packed, 12);
    memset(b + 16, 0xAA, 32);
    for (int i = 0; i < 128; ++i) b[48 + i] = (unsigned char)(i % 16 | (15 - i % 16) << 4);
    uint32_t want[256];
    for (int v = 0; v < 256; ++v) {
        const int j = v / 32, k = j % 2, l = v % 32;
        const int q = (k == 0 ? l % 16 : 15 - l % 16) + 16 * (j % 2);
        want[v] = f32_bits((0.5f * (float)(j + 1)) * (float)q - (float)j);
    }
    ck_assert_uint_eq(want[32], f32_bits(30.0f));
    expect_bits(&c, want, 256);
    quant_case_free(&c);
}
END_TEST

/* q6_K, one block, f16 output: low-nibble bytes i hold i % 16 low and 15 - i % 16 high, high-pair bytes
 * 0xE4 (pairs 0 1 2 3 at shifts 0 2 4 6), int8 scales j - 8 for the 16 sub-blocks of 16, d = 0.25
 * (0x3400): value v = 128h + 64k + t (t < 64) has nibble t % 16 (k = 0) or 15 - t % 16 (k = 1), high
 * pair s = (v % 128) / 32, q = nibble + 16 s - 32, and is (0.25 * (v / 16 - 8)) * q; e.g. v = 0: -2 *
 * -32 = 64, v = 255: 1.75 * (0 + 48 - 32) = 28. */
START_TEST(ggml_q6_K_row_f16_output)
{
    quant_case c = {0};
    ggml_case(&c, CLG_QUANT_GGML_Q6_K, 210, CLG_F16);
    unsigned char *b = c.data;
    for (int i = 0; i < 128; ++i) b[i] = (unsigned char)(i % 16 | (15 - i % 16) << 4);
    memset(b + 128, 0xE4, 64);
    for (int j = 0; j < 16; ++j) b[192 + j] = (unsigned char)(signed char)(j - 8);
    b[208] = 0x00, b[209] = 0x34;
    uint32_t want[256];
    for (int v = 0; v < 256; ++v) {
        const int k = (v % 128) / 64, t = v % 64, s = (v % 128) / 32;
        const int q = (k == 0 ? t % 16 : 15 - t % 16) + 16 * s - 32;
        want[v] = f16_bits_of((0.25f * (float)(v / 16 - 8)) * (float)q);
    }
    ck_assert_uint_eq(want[0], f16_bits_of(64.0f));
    ck_assert_uint_eq(want[255], f16_bits_of(28.0f));
    expect_bits(&c, want, 256);
    quant_case_free(&c);
}
END_TEST

/* iq4_xs, one block, bf16 output: d = 1 (0x3C00), 6-bit scales 28 + j (so j - 4 once less 32: low
 * nibbles 12 13 14 15 0 1 2 3 in scales_l 0xDC 0xFE 0x10 0x32, high pairs 1 1 1 1 2 2 2 2 in scales_h
 * 0xAA55), quant byte 16j + t holding t low and 15 - t high: value v = 32j + 16k + t is
 * (1 * (j - 4)) * kvalues_iq4nl[t or 15 - t], rounded to bf16 (3 * 113 = 339 rounds to 340). */
START_TEST(ggml_iq4_xs_row_bf16_output)
{
    static const int kvalues[16] = {-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113};
    quant_case c = {0};
    ggml_case(&c, CLG_QUANT_GGML_IQ4_XS, 136, CLG_BF16);
    unsigned char *b = c.data;
    b[0] = 0x00, b[1] = 0x3C, b[2] = 0x55, b[3] = 0xAA;
    b[4] = 0xDC, b[5] = 0xFE, b[6] = 0x10, b[7] = 0x32;
    for (int i = 0; i < 128; ++i) b[8 + i] = (unsigned char)(i % 16 | (15 - i % 16) << 4);
    uint32_t want[256];
    for (int v = 0; v < 256; ++v) {
        const int j = v / 32, k = (v % 32) / 16, t = v % 16;
        const uint32_t x = f32_bits((float)(j - 4) * (float)kvalues[k == 0 ? t : 15 - t]);
        want[v] = (x + 0x7FFFu + ((x >> 16) & 1u)) >> 16;
    }
    ck_assert_uint_eq(want[7 * 32 + 15], f32_bits(340.0f) >> 16); /* j 7, t 15: 3 * 113 */
    expect_bits(&c, want, 256);
    quant_case_free(&c);
}
END_TEST

/* q2_K, one block, f32 output: scale bytes j hold scale j low and min 15 - j high, quant bytes 0xE4
 * (pairs 0 1 2 3 at shifts 0 2 4 6), d = 0.5 (0x3800), dmin = 0.125 (0x3000): value v has q =
 * (v / 32) % 4 and is (0.5 * j) * q - 0.125 * (15 - j) for j = v / 16; e.g. v = 255: 7.5 * 3 - 0 =
 * 22.5. */
START_TEST(ggml_q2_K_row)
{
    quant_case c = {0};
    ggml_case(&c, CLG_QUANT_GGML_Q2_K, 84, CLG_F32);
    unsigned char *b = c.data;
    for (int j = 0; j < 16; ++j) b[j] = (unsigned char)(j | (15 - j) << 4);
    memset(b + 16, 0xE4, 64);
    b[80] = 0x00, b[81] = 0x38, b[82] = 0x00, b[83] = 0x30;
    uint32_t want[256];
    for (int v = 0; v < 256; ++v) {
        const int j = v / 16, q = (v / 32) % 4;
        want[v] = f32_bits((0.5f * (float)j) * (float)q - 0.125f * (float)(15 - j));
    }
    ck_assert_uint_eq(want[255], f32_bits(22.5f));
    expect_bits(&c, want, 256);
    quant_case_free(&c);
}
END_TEST

/* q3_K, one block, f16 output: high-bit bytes 0x0F (set for values below 128, so q = the low pair
 * there and the low pair - 4 after), low-pair bytes 0xE4 (pair (v / 32) % 4), 6-bit scales 16 + j
 * (j - 16 once less 32: low nibbles j in bytes 96.. as j | (j + 8) << 4, high pairs 1 in 0x55),
 * d = 0.25 (0x3400): value v is (0.25 * (j - 16)) * q for j = v / 16; e.g. v = 255: -0.25 * -1 = 0.25. */
START_TEST(ggml_q3_K_row_f16_output)
{
    quant_case c = {0};
    ggml_case(&c, CLG_QUANT_GGML_Q3_K, 110, CLG_F16);
    unsigned char *b = c.data;
    memset(b, 0x0F, 32);
    memset(b + 32, 0xE4, 64);
    for (int i = 0; i < 8; ++i) b[96 + i] = (unsigned char)(i | (i + 8) << 4);
    memset(b + 104, 0x55, 4);
    b[108] = 0x00, b[109] = 0x34;
    uint32_t want[256];
    for (int v = 0; v < 256; ++v) {
        const int q = (v / 32) % 4 - (v < 128 ? 0 : 4);
        want[v] = f16_bits_of((0.25f * (float)(v / 16 - 16)) * (float)q);
    }
    ck_assert_uint_eq(want[255], f16_bits_of(0.25f));
    expect_bits(&c, want, 256);
    quant_case_free(&c);
}
END_TEST

/* OpenVINO, u8 [3, 4] with a scale and a zero point per row (f16 scales: f16 output). Row 2 holds
 * 10 20 30 40, scale 0.5, zero point 20: -5 0 5 10. Index 5 is out of range: zeros (OpenVINO's rule). */
START_TEST(ov_u8_per_row_zero_points_out_of_range_zeros)
{
    quant_case c = {0};
    const int64_t ds[] = {3, 4}, ss[] = {3, 1}, is[] = {2};
    c.desc.layout = CLG_QUANT_OV_COMPRESSED;
    set_qshape(&c.desc.data, CLG_QUANT_U8, 2, ds);
    set_qshape(&c.desc.zero_points, CLG_QUANT_U8, 2, ss);
    support_shape(&c.desc.indices, CLG_I32, 1, is);
    support_shape(&c.desc.scales, CLG_F16, 2, ss);
    quant_case_alloc(&c);
    const unsigned char row2[4] = {10, 20, 30, 40};
    memcpy(c.data + 8, row2, 4);
    quant_put_scale(&c, 2, 0.5f);
    c.zero_points[2] = 20;
    const int32_t idx[] = {2, 5};
    memcpy(c.indices, idx, sizeof idx);
    const uint32_t want[8] = {f16_bits_of(-5), 0, f16_bits_of(5), f16_bits_of(10), 0, 0, 0, 0};
    expect_bits(&c, want, 8);
    quant_case_free(&c);
}
END_TEST

/* OpenVINO, u4 [2, 8] in groups of 4 (scales [2, 2]) with one zero point for the whole table (a u4
 * scalar, 8): row 1 holds 0..7, scales 1 and 0.5: -8 -7 -6 -5 -2 -1.5 -1 -0.5, as bf16. */
START_TEST(ov_u4_grouped_scalar_zero_point)
{
    quant_case c = {0};
    const int64_t ds[] = {2, 8}, ss[] = {2, 2}, is[] = {1};
    c.desc.layout = CLG_QUANT_OV_COMPRESSED;
    set_qshape(&c.desc.data, CLG_QUANT_U4, 2, ds);
    set_qshape(&c.desc.zero_points, CLG_QUANT_U4, 0, NULL);
    support_shape(&c.desc.indices, CLG_U16, 1, is);
    support_shape(&c.desc.scales, CLG_F32, 2, ss);
    c.desc.output_type = CLG_BF16;
    quant_case_alloc(&c);
    ck_assert_uint_eq(c.zp_bytes, 1);
    for (int k = 0; k < 8; ++k) quant_put_nibble(c.data, 8 + (uint64_t)k, k);
    quant_put_scale(&c, 2, 1.0f);
    quant_put_scale(&c, 3, 0.5f);
    c.zero_points[0] = 8;
    c.indices[0] = 1;
    const float values[8] = {-8, -7, -6, -5, -2, -1.5f, -1, -0.5f};
    uint32_t want[8];
    for (int k = 0; k < 8; ++k) want[k] = f32_bits(values[k]) >> 16;
    expect_bits(&c, want, 8);
    quant_case_free(&c);
}
END_TEST

/* Narrowing to f16 and bf16, round to nearest even, through (q - zp) = d with ONNX Runtime's u8
 * (bits 8, default zero point 128), one f32 scale a row (block 16 = the row):
 *   f16: 1 * (1 + 2^-11) ties to even: 1.0 (0x3C00); 3 * (1 + 2^-11) = 3 + 0.75 ulp: 0x4201;
 *        3 * 2^-20 is the f16 subnormal 48 * 2^-24 (0x0030); 255 * 1000 overflows to infinity
 *   bf16: 1 * (1 + 2^-8) ties to even: 0x3F80; 3 * (1 + 2^-8) = 3 + 0.75 ulp: 0x4041 */
static void rounding_case(clg_dtype out_type, const float *scales, const int *d, const uint32_t *want, int rows)
{
    quant_case c = {0};
    const int64_t ds[] = {rows, 16}, ss[] = {rows, 1}, is[] = {rows};
    c.desc.layout = CLG_QUANT_ORT_BLOCK;
    set_qshape(&c.desc.data, CLG_QUANT_U8, 2, ds);
    support_shape(&c.desc.indices, CLG_I32, 1, is);
    support_shape(&c.desc.scales, CLG_F32, 2, ss);
    c.desc.bits = 8;
    c.desc.block_size = 16;
    c.desc.quantize_axis = 1;
    c.desc.output_type = out_type;
    quant_case_alloc(&c);
    uint32_t expected[16 * 8];
    for (int r = 0; r < rows; ++r) {
        memset(c.data + 16 * r, 128 + d[r], 16);
        quant_put_scale(&c, (uint64_t)r, scales[r]);
        ((int32_t *)(void *)c.indices)[r] = r;
        for (int k = 0; k < 16; ++k) expected[16 * r + k] = want[r];
    }
    expect_bits(&c, expected, (size_t)rows * 16);
    quant_case_free(&c);
}

START_TEST(round_to_nearest_even_f16_and_bf16)
{
    const float f16_scales[4] = {1.0f + 0x1p-11f, 1.0f + 0x1p-11f, 0x1p-20f, 1000.0f};
    const int f16_d[4] = {1, 3, 3, 127};
    const uint32_t f16_want[4] = {0x3C00u, 0x4201u, 0x0030u, 0x7C00u};
    rounding_case(CLG_F16, f16_scales, f16_d, f16_want, 4);
    const float bf16_scales[3] = {1.0f + 0x1p-8f, 1.0f + 0x1p-8f, -1.0f - 0x1p-8f};
    const int bf16_d[3] = {1, 3, 3};
    const uint32_t bf16_want[3] = {0x3F80u, 0x4041u, 0xC041u};
    rounding_case(CLG_BF16, bf16_scales, bf16_d, bf16_want, 3);
}
END_TEST

/* Scales the kernels multiply in integers (and which a flush-to-zero device would get wrong):
 *   2^-149 (the smallest subnormal) * 3 = 0x00000003; * -127 = 0x8000007F;
 *   2^-127 (0x00400000) * 127 = 1.984375 * 2^-121 = 0x037E0000, a normal product of a subnormal;
 *   +inf * 0 = the canonical NaN 0x7FC00000; +inf * -2 = -inf; the signalling NaN 0x7F800001 * 5 is
 *   quieted: 0x7FC00001; -0 * 3 = -0. */
START_TEST(special_scales_exact)
{
    const uint32_t scale_bits[7] = {0x00000001u, 0x00000001u, 0x00400000u, 0x7F800000u,
                                    0x7F800000u, 0x7F800001u, 0x80000000u};
    const int d[7] = {3, -127, 127, 0, -2, 5, 3};
    const uint32_t want[7] = {0x00000003u, 0x8000007Fu, 0x037E0000u, 0x7FC00000u,
                              0xFF800000u, 0x7FC00001u, 0x80000000u};
    float scales[7];
    memcpy(scales, scale_bits, sizeof scales);
    rounding_case(CLG_F32, scales, d, want, 7);
}
END_TEST

/* The default policy per layout: ONNX Runtime and ggml fail naming the index, OpenVINO writes zeros;
 * each may be overridden (clamp: 7 and -9 on 2 rows select rows 1 and 0). */
START_TEST(policy_defaults_and_overrides)
{
    quant_case c = {0};
    const int64_t ds[] = {2, 34}, is[] = {2};
    c.desc.layout = CLG_QUANT_GGML_Q8_0;
    set_qshape(&c.desc.data, CLG_QUANT_U8, 2, ds);
    support_shape(&c.desc.indices, CLG_I32, 1, is);
    quant_case_alloc(&c);
    c.data[1] = 0x3C; /* row 0: d = 1, values 0 */
    c.data[34 + 1] = 0x3C;
    for (int k = 0; k < 32; ++k) c.data[34 + 2 + k] = (unsigned char)k; /* row 1: values 0..31 */
    const int32_t idx[] = {7, -9};
    memcpy(c.indices, idx, sizeof idx);
    unsigned char *out = support_poisoned(c.out_bytes);
    ck_assert_int_eq(quant_reference(&c, out), CLG_ERR_INDEX_OUT_OF_RANGE);
    ck_assert_str_eq(clg_last_error_message(),
                     "indices[0] (flat position 0) = 7 is outside [-2, 1] for axis 0 of size 2");
    ck_assert_int_eq(quant_sync(support_cl_context(), &c, out), CLG_ERR_INDEX_OUT_OF_RANGE);
    ck_assert(support_all_poison(out, c.out_bytes));
    free(out);
    c.desc.oob_policy = CLG_OOB_CLAMP;
    uint32_t want[64];
    for (int k = 0; k < 32; ++k) {
        want[k] = f32_bits((float)k);
        want[32 + k] = 0;
    }
    expect_bits(&c, want, 64);
    c.desc.oob_policy = CLG_OOB_ZERO;
    memset(want, 0, sizeof want);
    expect_bits(&c, want, 64);
    quant_case_free(&c);
}
END_TEST

/* An empty output succeeds without reading anything, whatever the indices hold; a table with no rows
 * (A = 0) and some indices has every index out of range. */
START_TEST(empty_output_and_empty_axis)
{
    quant_case c = {0};
    const int64_t ds[] = {0, 32}, ss[] = {0, 1}, no_indices[] = {0}, two[] = {2};
    c.desc.layout = CLG_QUANT_ORT_BLOCK;
    set_qshape(&c.desc.data, CLG_QUANT_U4, 2, ds);
    support_shape(&c.desc.scales, CLG_F16, 2, ss);
    support_shape(&c.desc.indices, CLG_I64, 1, no_indices);
    c.desc.block_size = 32;
    c.desc.quantize_axis = 1;
    quant_case_alloc(&c);
    ck_assert_uint_eq(c.out_bytes, 0);
    ck_assert_int_eq(quant_reference(&c, NULL), CLG_SUCCESS);
    ck_assert_int_eq(quant_sync(support_cl_context(), &c, NULL), CLG_SUCCESS);
    cl_event done = NULL;
    ck_assert_int_eq(clg_gather_quantized_enqueue(support_cl_context(), &c.desc,
                                                  clg_context_cl_queue(support_cl_context()), NULL, 0, NULL, 0, NULL, 0,
                                                  NULL, 0, NULL, 0, 0, NULL, &done),
                     CLG_SUCCESS);
    ck_assert_ptr_nonnull(done); /* a marker */
    clWaitForEvents(1, &done);
    clReleaseEvent(done);
    quant_case_free(&c);

    support_shape(&c.desc.indices, CLG_I64, 1, two);
    quant_case_alloc(&c);
    unsigned char *out = support_poisoned(c.out_bytes);
    ck_assert_int_eq(quant_reference(&c, out), CLG_ERR_INDEX_OUT_OF_RANGE);
    ck_assert(strstr(clg_last_error_message(), "outside [-0, -1]"));
    free(out);
    c.desc.oob_policy = CLG_OOB_CLAMP; /* no row to clamp to: zeros */
    uint32_t want[64] = {0};
    expect_bits(&c, want, 64);
    quant_case_free(&c);
}
END_TEST

/* FBGEMM 8-bit rows, D = 11 (19 bytes a row: the f32 scale and bias at bytes 11 and 15, unaligned),
 * i64 indices [3, 0, 1, 2], f32 output; value = q * scale + bias not fused: the product rounded to
 * f32, then the sum rounded (FBGEMM and PyTorch fuse; these fields show where the two differ).
 * Row 0: q 0..9 then 255, scale 1 + 2^-23 (0x3F800001), bias -255: q * scale - 255 is q - 255 for q
 * <= 9 (q * 2^-23 is below half an ulp of |q - 255|, whatever the product's rounding). For q = 255 the
 * product 255 + 255 * 2^-23 is 1.99 ulps (2^-16) above 255 and rounds to 255 + 2^-15, so the value is
 * 2^-15: the unfused one (a fused multiply-add would give the exact 255 * 2^-23).
 * Row 1: scale +inf, bias 1, q alternating 0, 1: 0 * inf is the default NaN 0x7FC00000, 1 * inf + 1 = inf.
 * Row 2: q 255, scale FLT_MAX (0x7F7FFFFF), bias -inf: the rounded product overflows to +inf, and
 * inf - inf is the default NaN 0x7FC00000 (a fused multiply-add, exact product, would give -inf).
 * Row 3: scale 0.5, bias a signalling NaN 0x7FA00001: the bias quieted, 0x7FE00001. */
START_TEST(fbgemm_8bit_rows_unfused_and_special_fields)
{
    quant_case c = {0};
    const int64_t ds[] = {4, 19}, is[] = {4};
    c.desc.layout = CLG_QUANT_FBGEMM_8BIT_ROWWISE;
    set_qshape(&c.desc.data, CLG_QUANT_U8, 2, ds);
    support_shape(&c.desc.indices, CLG_I64, 1, is);
    quant_case_alloc(&c);
    const uint32_t fields[4][2] = {{0x3F800001u, f32_bits(-255.0f)},
                                   {0x7F800000u, f32_bits(1.0f)},
                                   {0x7F7FFFFFu, 0xFF800000u},
                                   {f32_bits(0.5f), 0x7FA00001u}};
    for (int r = 0; r < 4; ++r) {
        unsigned char *row = c.data + 19 * r;
        for (int j = 0; j < 11; ++j)
            row[j] = r == 0 ? (unsigned char)(j < 10 ? j : 255) : r == 1 ? (unsigned char)(j % 2) : 255;
        memcpy(row + 11, &fields[r][0], 4);
        memcpy(row + 15, &fields[r][1], 4);
    }
    const int64_t idx[] = {3, 0, 1, 2};
    memcpy(c.indices, idx, sizeof idx);
    uint32_t want[44];
    for (int j = 0; j < 11; ++j) {
        want[j] = 0x7FE00001u;
        want[11 + j] = j < 10 ? f32_bits((float)(j - 255)) : 0x38000000u; /* 2^-15 */
        want[22 + j] = j % 2 ? 0x7F800000u : 0x7FC00000u;
        want[33 + j] = 0x7FC00000u;
    }
    ck_assert_uint_eq(want[21], f32_bits(ldexpf(1.0f, -15)));
    ck_assert_uint_ne(want[21], f32_bits(ldexpf(255.0f, -23))); /* not the fused value */
    expect_bits(&c, want, 44);
    quant_case_free(&c);
}
END_TEST

/* FBGEMM 4-bit rows of data [2, 3, 7] gathered along axis 1 (indices [2, 0]), f16 output: 7 bytes a row
 * are 3 bytes of nibbles (D = 6, value 2k the low nibble of byte k) and the f16 scale and bias at bytes
 * 3 and 5. Row (m, a) holds bytes 0x10 + 0x22 * a, 0x32 + 0x22 * a, 0x54 + 0x22 * a: nibbles
 * 2a, 2a + 1, ..., 2a + 5; scale by a 0.5, 2, -1 (f16 0x3800, 0x4000, 0xBC00), bias by m 0, -3 (0x0000,
 * 0xC200): value q * scale + bias, e.g. (m 1, a 2): q 4..9 times -1 less 3 is -7..-12. */
START_TEST(fbgemm_4bit_rows_middle_axis_f16_output)
{
    quant_case c = {0};
    const int64_t ds[] = {2, 3, 7}, is[] = {2};
    c.desc.layout = CLG_QUANT_FBGEMM_4BIT_ROWWISE;
    set_qshape(&c.desc.data, CLG_QUANT_U8, 3, ds);
    support_shape(&c.desc.indices, CLG_I64, 1, is);
    c.desc.gather_axis = 1;
    c.desc.output_type = CLG_F16;
    quant_case_alloc(&c);
    const uint16_t scales[3] = {0x3800, 0x4000, 0xBC00}, biases[2] = {0x0000, 0xC200};
    const float scale_values[3] = {0.5f, 2.0f, -1.0f}, bias_values[2] = {0.0f, -3.0f};
    for (int m = 0; m < 2; ++m)
        for (int a = 0; a < 3; ++a) {
            unsigned char *row = c.data + 7 * (3 * m + a);
            row[0] = (unsigned char)(0x10 + 0x22 * a), row[1] = (unsigned char)(0x32 + 0x22 * a);
            row[2] = (unsigned char)(0x54 + 0x22 * a);
            memcpy(row + 3, &scales[a], 2);
            memcpy(row + 5, &biases[m], 2);
        }
    const int64_t idx[] = {2, 0};
    memcpy(c.indices, idx, sizeof idx);
    uint32_t want[24];
    for (int m = 0; m < 2; ++m)
        for (int n = 0; n < 2; ++n)
            for (int j = 0; j < 6; ++j) {
                const int a = (int)idx[n];
                want[(2 * m + n) * 6 + j] = f16_bits_of((float)(2 * a + j) * scale_values[a] + bias_values[m]);
            }
    ck_assert_uint_eq(want[12], f16_bits_of(-7.0f)); /* (m 1, a 2), q 4 */
    ck_assert_uint_eq(want[17], f16_bits_of(-12.0f));
    expect_bits(&c, want, 24);
    quant_case_free(&c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gather_quantized_examples");
    TCase *tc = tcase_create("examples");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, ort_u4_rows_default_zero_point);
    tcase_add_test(tc, ort_i4_quantize_axis_before_gather_axis_with_zero_points);
    tcase_add_test(tc, ort_u8_bits8_f16_scales_zero_points);
    tcase_add_test(tc, ort_u8_bits4_packed_zero_point_rows_and_default);
    tcase_add_test(tc, ort_u8_bits2_packed_zero_point_rows_and_default);
    tcase_add_test(tc, ggml_q4_0_row);
    tcase_add_test(tc, ggml_q8_0_row_bf16_output);
    tcase_add_test(tc, ggml_q4_1_row_f16_output_and_special_fields);
    tcase_add_test(tc, ggml_q5_0_row_bf16_output);
    tcase_add_test(tc, ggml_q5_1_row);
    tcase_add_test(tc, ggml_iq4_nl_row_f16_output);
    tcase_add_test(tc, ggml_q4_K_rows_and_infinite_d);
    tcase_add_test(tc, ggml_q5_K_row);
    tcase_add_test(tc, ggml_q6_K_row_f16_output);
    tcase_add_test(tc, ggml_iq4_xs_row_bf16_output);
    tcase_add_test(tc, ggml_q2_K_row);
    tcase_add_test(tc, ggml_q3_K_row_f16_output);
    tcase_add_test(tc, fbgemm_8bit_rows_unfused_and_special_fields);
    tcase_add_test(tc, fbgemm_4bit_rows_middle_axis_f16_output);
    tcase_add_test(tc, ov_u8_per_row_zero_points_out_of_range_zeros);
    tcase_add_test(tc, ov_u4_grouped_scalar_zero_point);
    tcase_add_test(tc, round_to_nearest_even_f16_and_bf16);
    tcase_add_test(tc, special_scales_exact);
    tcase_add_test(tc, policy_defaults_and_overrides);
    tcase_add_test(tc, empty_output_and_empty_axis);
    suite_add_tcase(s, tc);
    return support_run_suite(s);
}
