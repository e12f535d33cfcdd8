/* One test per validation rule of the dequantizing gather (docs/semantics.md, "Dequantizing gather",
 * validation order): each asserts the exact status on every entry point (output shape, sizes,
 * reference, synchronous and enqueue OpenCL calls), that the message names the offending value, and
 * that the output is untouched. Then the entry checks: buffers, offsets, contexts. */
#include "quantized_support.h"
#include "testing/testing.h"

#include <stdlib.h>

#define BIG 4096

static unsigned char inputs[4][BIG]; /* zeros: valid indices and values */

static void expect_rejected_everywhere(const clg_gather_quantized_desc *d, clg_status want, const char *fragment)
{
    int32_t rank;
    int64_t shape[CLG_MAX_OUTPUT_RANK];
    clg_status st = clg_gather_quantized_output_shape(d, &rank, shape, NULL);
    ck_assert_msg(st == want, "output_shape: %s, want %s (%s)", clg_status_string(st), clg_status_string(want),
                  clg_last_error_message());
    ck_assert_msg(strstr(clg_last_error_message(), fragment), "message \"%s\" lacks \"%s\"", clg_last_error_message(),
                  fragment);
    uint64_t bytes = 7;
    ck_assert_int_eq(clg_gather_quantized_sizes(d, &bytes, NULL, NULL, NULL, NULL), want);
    ck_assert_uint_eq(bytes, 7);

    unsigned char *out = support_poisoned(BIG);
    st = clg_gather_quantized_reference(d, inputs[0], BIG, inputs[1], BIG, inputs[2], BIG, inputs[3], BIG, out, BIG);
    ck_assert_msg(st == want, "reference: %s (%s)", clg_status_string(st), clg_last_error_message());
    st = clg_gather_quantized(support_cl_context(), d, inputs[0], BIG, inputs[1], BIG, inputs[2], BIG, inputs[3], BIG,
                              out, BIG);
    ck_assert_msg(st == want, "sync: %s (%s)", clg_status_string(st), clg_last_error_message());
    ck_assert(support_all_poison(out, BIG));

    clg_context *ctx = support_cl_context();
    cl_context cl = clg_context_cl_context(ctx);
    cl_int err;
    cl_mem m[4], o = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, BIG, out, &err);
    for (int k = 0; k < 4; ++k)
        m[k] = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, BIG, inputs[k], &err);
    cl_event done = NULL;
    st = clg_gather_quantized_enqueue(ctx, d, clg_context_cl_queue(ctx), m[0], 0, m[1], 0, m[2], 0, m[3], 0, o, 0, 0,
                                      NULL, &done);
    ck_assert_msg(st == want, "enqueue: %s (%s)", clg_status_string(st), clg_last_error_message());
    ck_assert_ptr_null(done);
    ck_assert_int_eq(clEnqueueReadBuffer(clg_context_cl_queue(ctx), o, CL_TRUE, 0, BIG, out, 0, NULL, NULL),
                     CL_SUCCESS);
    ck_assert(support_all_poison(out, BIG));
    for (int k = 0; k < 4; ++k) clReleaseMemObject(m[k]);
    clReleaseMemObject(o);
    free(out);
}

static void set_qshape(clg_quant_tensor_desc *t, clg_quant_type type, int32_t rank, const int64_t *shape)
{
    memset(t, 0, sizeof *t);
    t->type = type;
    t->rank = rank;
    memcpy(t->shape, shape, (size_t)rank * sizeof shape[0]);
}

static const int64_t two_indices[] = {2};

/* ONNX Runtime u4 [4, 32], blocks of 16 along axis 1: f32 scales [4, 2]. */
static clg_gather_quantized_desc valid_ort(void)
{
    clg_gather_quantized_desc d;
    memset(&d, 0, sizeof d);
    const int64_t ds[] = {4, 32}, ss[] = {4, 2};
    d.layout = CLG_QUANT_ORT_BLOCK;
    set_qshape(&d.data, CLG_QUANT_U4, 2, ds);
    support_shape(&d.indices, CLG_I64, 1, two_indices);
    support_shape(&d.scales, CLG_F32, 2, ss);
    d.block_size = 16;
    d.quantize_axis = 1;
    return d;
}

static clg_gather_quantized_desc valid_ggml(void)
{
    clg_gather_quantized_desc d;
    memset(&d, 0, sizeof d);
    const int64_t ds[] = {3, 36};
    d.layout = CLG_QUANT_GGML_Q4_0;
    set_qshape(&d.data, CLG_QUANT_U8, 2, ds);
    support_shape(&d.indices, CLG_I32, 1, two_indices);
    return d;
}

/* OpenVINO u8 [3, 8] in groups of 4: scales [3, 2]. */
static clg_gather_quantized_desc valid_ov(void)
{
    clg_gather_quantized_desc d;
    memset(&d, 0, sizeof d);
    const int64_t ds[] = {3, 8}, ss[] = {3, 2};
    d.layout = CLG_QUANT_OV_COMPRESSED;
    set_qshape(&d.data, CLG_QUANT_U8, 2, ds);
    support_shape(&d.indices, CLG_U8, 1, two_indices);
    support_shape(&d.scales, CLG_F16, 2, ss);
    return d;
}

START_TEST(valid_descriptors_are_accepted)
{
    const clg_gather_quantized_desc ds[3] = {valid_ort(), valid_ggml(), valid_ov()};
    const int64_t last[3] = {32, 64, 8};
    const clg_dtype type[3] = {CLG_F32, CLG_F32, CLG_F16};
    for (int k = 0; k < 3; ++k) {
        int32_t rank;
        int64_t shape[CLG_MAX_OUTPUT_RANK];
        clg_dtype out_type;
        ck_assert_int_eq(clg_gather_quantized_output_shape(&ds[k], &rank, shape, &out_type), CLG_SUCCESS);
        ck_assert_int_eq(rank, 2);
        ck_assert_int_eq(shape[0], 2);
        ck_assert_int_eq(shape[1], last[k]);
        ck_assert_int_eq(out_type, type[k]);
    }
    uint64_t d, i, s, z, o;
    ck_assert_int_eq(clg_gather_quantized_sizes(&ds[0], &d, &i, &s, &z, &o), CLG_SUCCESS);
    ck_assert_uint_eq(d, 64); /* 128 u4 values */
    ck_assert_uint_eq(i, 16);
    ck_assert_uint_eq(s, 32);
    ck_assert_uint_eq(z, 0);
    ck_assert_uint_eq(o, 2 * 32 * 4);
}
END_TEST

START_TEST(null_descriptor_and_outputs)
{
    int32_t rank;
    int64_t shape[CLG_MAX_OUTPUT_RANK];
    ck_assert_int_eq(clg_gather_quantized_output_shape(NULL, &rank, shape, NULL), CLG_ERR_NULL_ARGUMENT);
    clg_gather_quantized_desc d = valid_ort();
    ck_assert_int_eq(clg_gather_quantized_output_shape(&d, NULL, shape, NULL), CLG_ERR_NULL_ARGUMENT);
    ck_assert_int_eq(clg_gather_quantized_sizes(NULL, NULL, NULL, NULL, NULL, NULL), CLG_ERR_NULL_ARGUMENT);
    ck_assert_int_eq(
        clg_gather_quantized(NULL, &d, inputs[0], BIG, inputs[1], BIG, inputs[2], BIG, NULL, 0, inputs[3], BIG),
        CLG_ERR_NULL_ARGUMENT);
}
END_TEST

START_TEST(invalid_layout)
{
    clg_gather_quantized_desc d = valid_ort();
    d.layout = (clg_quant_layout)17; /* one past fbgemm-4bit-rowwise, the last */
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_LAYOUT, "layout = 17");
    d.layout = CLG_QUANT_LAYOUT_INVALID;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_LAYOUT, "layout = 0");
}
END_TEST

START_TEST(data_type_per_layout)
{
    clg_gather_quantized_desc d = valid_ort();
    d.data.type = (clg_quant_type)17;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_DTYPE, "data type = 17");
    d.data.type = CLG_QUANT_I8;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_DTYPE, "takes u4, i4 and u8");
    d = valid_ggml();
    d.data.type = CLG_QUANT_U4;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_DTYPE, "u8 rows of blocks");
}
END_TEST

START_TEST(bits_per_data_type)
{
    clg_gather_quantized_desc d = valid_ort();
    d.bits = 8;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_BITS, "bits = 8: u4 data has 4 bits");
    d.bits = 2; /* ONNX Runtime takes bits 2 with u8 data only */
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_BITS, "bits = 2: u4 data has 4 bits");
    d.data.type = CLG_QUANT_U8;
    const int32_t bad_u8_bits[] = {1, 3, 16, -4};
    for (size_t k = 0; k < sizeof bad_u8_bits / sizeof bad_u8_bits[0]; ++k) {
        d.bits = bad_u8_bits[k];
        expect_rejected_everywhere(&d, CLG_ERR_INVALID_BITS, "u8 data takes bits 2, 4 or 8");
    }
    d = valid_ggml();
    d.bits = 8;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_BITS, "ggml-q4_0 values have 4 bits");
}
END_TEST

START_TEST(ggml_takes_no_scales_or_zero_points)
{
    clg_gather_quantized_desc d = valid_ggml();
    support_shape(&d.scales, CLG_F16, 2, (const int64_t[]){3, 2});
    expect_rejected_everywhere(&d, CLG_ERR_INPUT_NOT_ALLOWED, "rows hold their own scales");
    d = valid_ggml();
    d.zero_points.type = CLG_QUANT_U8;
    expect_rejected_everywhere(&d, CLG_ERR_INPUT_NOT_ALLOWED, "has no zero points");
}
END_TEST

START_TEST(scale_and_zero_point_types)
{
    clg_gather_quantized_desc d = valid_ort();
    d.scales.type = CLG_F64;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_DTYPE, "scales type f64");
    d = valid_ov();
    d.scales.type = CLG_DTYPE_INVALID;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_DTYPE, "scales type invalid");
    d = valid_ort();
    set_qshape(&d.zero_points, CLG_QUANT_I4, 2, (const int64_t[]){4, 2});
    expect_rejected_everywhere(&d, CLG_ERR_TYPE_MISMATCH, "zero_points type i4 differs from data type u4");
    d.zero_points.type = (clg_quant_type)-3;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_DTYPE, "zero_points type = -3");
}
END_TEST

START_TEST(output_type_must_be_float)
{
    clg_gather_quantized_desc d = valid_ov();
    d.output_type = CLG_F64;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_DTYPE, "output_type f64");
    d.output_type = CLG_I32;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_DTYPE, "output_type i32");
}
END_TEST

START_TEST(index_types_per_layout)
{
    clg_gather_quantized_desc d = valid_ort();
    d.indices.type = CLG_F32;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_INDEX_TYPE, "indices type f32 is not an integer type");
    d.indices.type = CLG_U32;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_INDEX_TYPE, "accepts i32 and i64 only");
    d = valid_ggml();
    d.indices.type = CLG_I16;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_INDEX_TYPE, "accepts i32 and i64 only");
}
END_TEST

START_TEST(invalid_policy)
{
    clg_gather_quantized_desc d = valid_ov();
    d.oob_policy = (clg_oob_policy)7;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_POLICY, "oob_policy = 7");
}
END_TEST

START_TEST(ranks_and_dimensions)
{
    clg_gather_quantized_desc d = valid_ort();
    d.data.rank = 0;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_RANK, "data rank 0");
    d = valid_ggml();
    d.data.rank = 1;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_RANK, "data rank 1 is outside [2, 8]");
    d = valid_ort();
    d.indices.rank = 9;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_RANK, "indices rank 9");
    d = valid_ort();
    d.data.shape[1] = -4;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_DIMENSION, "data.shape[1] = -4");
    d = valid_ort();
    d.scales.shape[0] = -1;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_DIMENSION, "scales.shape[0] = -1");
    d = valid_ov();
    set_qshape(&d.zero_points, CLG_QUANT_U8, 2, (const int64_t[]){3, -2});
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_DIMENSION, "zero_points.shape[1] = -2");
}
END_TEST

/* FBGEMM's rows: D from the row's bytes (8-bit: bytes - 8; 4-bit: 2 * (bytes - 4)), at least one value
 * a row; u8 data, no scales or zero points, bits 0 or the width, block_size 0 or D, not the last axis. */
START_TEST(fbgemm_rows)
{
    clg_gather_quantized_desc d = valid_ggml();
    d.layout = CLG_QUANT_FBGEMM_8BIT_ROWWISE;
    d.data.shape[1] = 13; /* D = 5 */
    int32_t rank;
    int64_t shape[CLG_MAX_OUTPUT_RANK];
    clg_dtype out_type;
    ck_assert_int_eq(clg_gather_quantized_output_shape(&d, &rank, shape, &out_type), CLG_SUCCESS);
    ck_assert_int_eq(rank, 2);
    ck_assert_int_eq(shape[1], 5);
    ck_assert_int_eq(out_type, CLG_F32);
    uint64_t data_bytes, out_bytes;
    ck_assert_int_eq(clg_gather_quantized_sizes(&d, &data_bytes, NULL, NULL, NULL, &out_bytes), CLG_SUCCESS);
    ck_assert_uint_eq(data_bytes, 3 * 13);
    ck_assert_uint_eq(out_bytes, 2 * 5 * 4);
    d.data.shape[1] = 8;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_BLOCK_SIZE,
                               "data.shape[1] = 8 bytes cannot be a fbgemm-8bit-rowwise row: it needs at least 9 "
                               "(the f32 scale and bias, then one value)");
    d.data.shape[1] = 0;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_BLOCK_SIZE, "0 bytes cannot be a fbgemm-8bit-rowwise row");
    d.layout = CLG_QUANT_FBGEMM_4BIT_ROWWISE;
    d.data.shape[1] = 4;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_BLOCK_SIZE,
                               "4 bytes cannot be a fbgemm-4bit-rowwise row: it needs at least 5 (the f16 scale");
    d.data.shape[1] = 7; /* D = 6 */
    ck_assert_int_eq(clg_gather_quantized_output_shape(&d, &rank, shape, NULL), CLG_SUCCESS);
    ck_assert_int_eq(shape[1], 6);
    d.block_size = 6;
    ck_assert_int_eq(clg_gather_quantized_output_shape(&d, &rank, shape, NULL), CLG_SUCCESS);
    d.block_size = 7;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_BLOCK_SIZE, "fbgemm-4bit-rowwise blocks hold 6 values (0: 6)");
    d.block_size = 0;
    d.bits = 8;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_BITS, "bits = 8: fbgemm-4bit-rowwise values have 4 bits");
    d.bits = 4;
    ck_assert_int_eq(clg_gather_quantized_output_shape(&d, &rank, shape, NULL), CLG_SUCCESS);
    d.bits = 0;
    d.gather_axis = 1;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_AXIS, "the last axis, the bytes of a fbgemm-4bit-rowwise row");
    d.gather_axis = 0;
    d.data.type = CLG_QUANT_I8;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_DTYPE, "data type i8: layout fbgemm-4bit-rowwise takes u8 rows");
    d.data.type = CLG_QUANT_U8;
    support_shape(&d.scales, CLG_F32, 2, (const int64_t[]){3, 1});
    expect_rejected_everywhere(&d, CLG_ERR_INPUT_NOT_ALLOWED, "fbgemm-4bit-rowwise rows hold their own scales");
    memset(&d.scales, 0, sizeof d.scales);
    d.zero_points.type = CLG_QUANT_U8;
    expect_rejected_everywhere(&d, CLG_ERR_INPUT_NOT_ALLOWED, "fbgemm-4bit-rowwise has no zero points");
    d.zero_points.type = CLG_QUANT_TYPE_INVALID;
    d.data.rank = 1;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_RANK, "data rank 1 is outside [2, 8]");
}
END_TEST

START_TEST(ggml_rows_are_whole_blocks)
{
    clg_gather_quantized_desc d = valid_ggml();
    d.data.shape[1] = 35;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_BLOCK_SIZE, "35 bytes is not a whole number of 18-byte");
    d.layout = CLG_QUANT_GGML_Q8_0;
    d.data.shape[1] = 36;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_BLOCK_SIZE, "34-byte ggml-q8_0 blocks");
    d = valid_ggml();
    d.block_size = 64;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_BLOCK_SIZE, "blocks hold 32 values");
    /* the super-blocks: rows of whole 256-value blocks, block_size 0 or 256 */
    d = valid_ggml();
    d.layout = CLG_QUANT_GGML_Q4_K;
    d.data.shape[1] = 144 + 18;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_BLOCK_SIZE,
                               "162 bytes is not a whole number of 144-byte ggml-q4_K blocks (256 values each)");
    d.layout = CLG_QUANT_GGML_IQ4_XS;
    d.data.shape[1] = 136;
    d.block_size = 32;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_BLOCK_SIZE, "ggml-iq4_xs blocks hold 256 values (0: 256)");
    d.block_size = 256;
    int32_t rank;
    int64_t shape[CLG_MAX_OUTPUT_RANK];
    ck_assert_int_eq(clg_gather_quantized_output_shape(&d, &rank, shape, NULL), CLG_SUCCESS);
    ck_assert_int_eq(shape[rank - 1], 256);
    d.layout = CLG_QUANT_GGML_Q6_K;
    d.data.shape[1] = 210 * 2 + 1;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_BLOCK_SIZE, "210-byte ggml-q6_K blocks");
    d.data.shape[1] = 210 * 2;
    d.block_size = 0;
    d.bits = 4;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_BITS, "ggml-q6_K values have 6 bits");
}
END_TEST

START_TEST(gather_axis_range)
{
    clg_gather_quantized_desc d = valid_ort();
    d.gather_axis = 2;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_AXIS, "gather_axis = 2 is outside [-2, 1]");
    d.gather_axis = -3;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_AXIS, "gather_axis = -3");
    d = valid_ggml();
    d.gather_axis = -1;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_AXIS, "is the last axis, the bytes of a ggml-q4_0 row");
}
END_TEST

START_TEST(ort_quantize_axis_and_uint8_axes)
{
    clg_gather_quantized_desc d = valid_ort();
    d.quantize_axis = 5;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_AXIS, "quantize_axis = 5 is outside [-2, 1]");
    d = valid_ort();
    d.data.type = CLG_QUANT_U8; /* bits 4: [4, 32] bytes hold 64 values a row, scales [4, 4] */
    d.scales.shape[1] = 4;
    d.gather_axis = 1;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_AXIS, "u8 data needs gather_axis 0 and quantize_axis the last");
    d.gather_axis = 0;
    d.quantize_axis = 0;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_AXIS, "quantize_axis = 0");
}
END_TEST

START_TEST(ort_block_size_power_of_two_at_least_16)
{
    const int64_t bad[] = {8, 24, 1, -16};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
        clg_gather_quantized_desc d = valid_ort();
        d.block_size = bad[k];
        expect_rejected_everywhere(&d, CLG_ERR_INVALID_BLOCK_SIZE, "is not a power of two >= 16");
    }
    clg_gather_quantized_desc d = valid_ort();
    d.block_size = 0; /* ONNX Runtime's default, 128: one block a row, scales [4, 1] */
    expect_rejected_everywhere(&d, CLG_ERR_SHAPE_MISMATCH, "scales.shape[1] = 2 but 1 expected");
}
END_TEST

START_TEST(ort_scale_and_zero_point_shapes)
{
    clg_gather_quantized_desc d = valid_ort();
    d.scales.rank = 1;
    expect_rejected_everywhere(&d, CLG_ERR_SHAPE_MISMATCH, "scales rank 1 differs from data rank 2");
    d = valid_ort();
    d.scales.shape[0] = 3;
    expect_rejected_everywhere(&d, CLG_ERR_SHAPE_MISMATCH, "scales.shape[0] = 3 but 4 expected (data's extent)");
    d = valid_ort();
    set_qshape(&d.zero_points, CLG_QUANT_U4, 2, (const int64_t[]){4, 1});
    expect_rejected_everywhere(&d, CLG_ERR_SHAPE_MISMATCH, "zero_points.shape[1] = 1 but 2 expected");
    d = valid_ort();
    d.data.type = CLG_QUANT_U8; /* bits 4: zero points two a byte along the row: [4, ceil(4 / 2)] */
    d.scales.shape[1] = 4;
    set_qshape(&d.zero_points, CLG_QUANT_U8, 2, (const int64_t[]){4, 4});
    expect_rejected_everywhere(&d, CLG_ERR_SHAPE_MISMATCH, "two 4-bit zero points a byte");
    d.bits = 2; /* [4, 32] bytes hold 128 values a row: scales [4, 8], zero points four a byte [4, 2] */
    d.scales.shape[1] = 8;
    expect_rejected_everywhere(&d, CLG_ERR_SHAPE_MISMATCH, "zero_points.shape[1] = 4 but 2 expected (four 2-bit");
    d.scales.shape[1] = 4; /* scales counted in bytes, not values */
    set_qshape(&d.zero_points, CLG_QUANT_U8, 2, (const int64_t[]){4, 1});
    expect_rejected_everywhere(&d, CLG_ERR_SHAPE_MISMATCH, "scales.shape[1] = 4 but 8 expected");
}
END_TEST

START_TEST(ov_groups_and_zero_point_shapes)
{
    clg_gather_quantized_desc d = valid_ov();
    d.scales.shape[1] = 3;
    expect_rejected_everywhere(&d, CLG_ERR_SHAPE_MISMATCH, "scales.shape[1] = 3 does not divide data.shape[1] = 8");
    d = valid_ov();
    d.scales.shape[0] = 1;
    expect_rejected_everywhere(&d, CLG_ERR_SHAPE_MISMATCH, "scales.shape[0] = 1 but 3 expected");
    d = valid_ov();
    d.block_size = 8;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_BLOCK_SIZE, "block_size = 8 but scales give 4 values a scale");
    d = valid_ov();
    set_qshape(&d.zero_points, CLG_QUANT_U8, 2, (const int64_t[]){3, 1});
    expect_rejected_everywhere(&d, CLG_ERR_SHAPE_MISMATCH, "must have the scales' shape or hold one value");
}
END_TEST

START_TEST(size_overflow)
{
    clg_gather_quantized_desc d = valid_ov();
    d.data.shape[0] = INT64_MAX;
    d.scales.shape[0] = INT64_MAX;
    expect_rejected_everywhere(&d, CLG_ERR_SIZE_OVERFLOW, "data size");
    d = valid_ort();
    d.data.type = CLG_QUANT_U8;
    d.data.shape[1] = INT64_MAX; /* bits 4: twice as many values as bytes */
    expect_rejected_everywhere(&d, CLG_ERR_SIZE_OVERFLOW, "hold more than INT64_MAX values");
    d.bits = 2;
    d.data.shape[1] = INT64_MAX / 4 + 1; /* four values a byte */
    expect_rejected_everywhere(&d, CLG_ERR_SIZE_OVERFLOW, "hold more than INT64_MAX values");
    d = valid_ov();
    d.indices.shape[0] = INT64_MAX / 4;
    expect_rejected_everywhere(&d, CLG_ERR_SIZE_OVERFLOW, "output size");
}
END_TEST

START_TEST(status_strings)
{
    ck_assert_str_eq(clg_status_string(CLG_ERR_INVALID_LAYOUT), "CLG_ERR_INVALID_LAYOUT");
    ck_assert_str_eq(clg_status_string(CLG_ERR_INVALID_BLOCK_SIZE), "CLG_ERR_INVALID_BLOCK_SIZE");
    ck_assert_str_eq(clg_status_string(CLG_ERR_INVALID_BITS), "CLG_ERR_INVALID_BITS");
    ck_assert_str_eq(clg_status_string(CLG_ERR_INPUT_NOT_ALLOWED), "CLG_ERR_INPUT_NOT_ALLOWED");
    ck_assert_str_eq(clg_quant_layout_name(CLG_QUANT_GGML_Q8_0), "ggml-q8_0");
    ck_assert_int_eq(clg_quant_layout_from_name("ov-compressed"), CLG_QUANT_OV_COMPRESSED);
    ck_assert_int_eq(clg_quant_layout_from_name("ggml"), CLG_QUANT_LAYOUT_INVALID);
    ck_assert_str_eq(clg_quant_type_name(CLG_QUANT_I4), "i4");
    ck_assert_str_eq(clg_quant_type_name((clg_quant_type)99), "invalid");
    ck_assert_int_eq(clg_quant_type_from_name("u8"), CLG_QUANT_U8);
    ck_assert_int_eq(clg_quant_type_from_name(NULL), CLG_QUANT_TYPE_INVALID);
}
END_TEST

/* ---- entry checks after the descriptor ------------------------------------------------------- */

START_TEST(host_buffers_in_argument_order)
{
    clg_gather_quantized_desc d = valid_ort(); /* data 64, indices 16, scales 32, output 256 bytes */
    unsigned char *out = support_poisoned(256);
    ck_assert_int_eq(clg_gather_quantized_reference(&d, inputs[0], 63, inputs[1], 16, inputs[2], 32, NULL, 0, out, 256),
                     CLG_ERR_BUFFER_TOO_SMALL);
    ck_assert(strstr(clg_last_error_message(), "data_bytes = 63"));
    ck_assert_int_eq(clg_gather_quantized_reference(&d, inputs[0], 64, inputs[1], 16, NULL, 32, NULL, 0, out, 256),
                     CLG_ERR_NULL_ARGUMENT);
    ck_assert(strstr(clg_last_error_message(), "scales is NULL"));
    ck_assert_int_eq(
        clg_gather_quantized(support_cl_context(), &d, inputs[0], 64, inputs[1], 16, inputs[2], 32, NULL, 0, out, 255),
        CLG_ERR_BUFFER_TOO_SMALL);
    ck_assert(strstr(clg_last_error_message(), "output_bytes = 255"));
    ck_assert(support_all_poison(out, 256));
    free(out);
}
END_TEST

START_TEST(enqueue_offsets_alignment_and_context)
{
    clg_context *ctx = support_cl_context();
    cl_command_queue q = clg_context_cl_queue(ctx);
    cl_int err;
    cl_mem m = clCreateBuffer(clg_context_cl_context(ctx), CL_MEM_READ_WRITE, BIG, NULL, &err);
    clg_gather_quantized_desc d = valid_ort();
    ck_assert_int_eq(clg_gather_quantized_enqueue(ctx, &d, q, m, 0, m, 4, m, 0, NULL, 0, m, 0, 0, NULL, NULL),
                     CLG_ERR_MISALIGNED_OFFSET);
    ck_assert(strstr(clg_last_error_message(), "indices_offset = 4"));
    ck_assert_int_eq(clg_gather_quantized_enqueue(ctx, &d, q, m, 0, m, 8, m, 2, NULL, 0, m, 0, 0, NULL, NULL),
                     CLG_ERR_MISALIGNED_OFFSET);
    ck_assert(strstr(clg_last_error_message(), "scales_offset = 2"));
    ck_assert_int_eq(clg_gather_quantized_enqueue(ctx, &d, q, m, 0, m, 8, m, 4, NULL, 0, m, 6, 0, NULL, NULL),
                     CLG_ERR_MISALIGNED_OFFSET);
    ck_assert(strstr(clg_last_error_message(), "output_offset = 6"));
    /* data at any byte offset (the buffer holds garbage: out-of-range indices give zeros) */
    d.oob_policy = CLG_OOB_ZERO;
    ck_assert_int_eq(clg_gather_quantized_enqueue(ctx, &d, q, m, 3, m, 8, m, 4, NULL, 0, m, 1024, 0, NULL, NULL),
                     CLG_SUCCESS);
    ck_assert_int_eq(clg_gather_quantized_enqueue(ctx, &d, q, m, 0, m, 8, m, 4, NULL, 0, NULL, 0, 0, NULL, NULL),
                     CLG_ERR_NULL_ARGUMENT);
    ck_assert(strstr(clg_last_error_message(), "output is NULL"));
    ck_assert_int_eq(clg_gather_quantized_enqueue(ctx, &d, q, m, BIG - 10, m, 8, m, 4, NULL, 0, m, 0, 0, NULL, NULL),
                     CLG_ERR_BUFFER_TOO_SMALL);
    ck_assert_int_eq(clg_gather_quantized_enqueue(ctx, &d, NULL, m, 0, m, 8, m, 4, NULL, 0, m, 0, 0, NULL, NULL),
                     CLG_ERR_NULL_ARGUMENT);
    ck_assert_int_eq(clg_gather_quantized_enqueue(support_reference_context(), &d, q, m, 0, m, 8, m, 4, NULL, 0, m, 0,
                                                  0, NULL, NULL),
                     CLG_ERR_NO_OPENCL);
    clFinish(q);
    clReleaseMemObject(m);
}
END_TEST

START_TEST(reference_context_runs_the_reference)
{
    clg_gather_quantized_desc d = valid_ov();
    unsigned char *a = support_poisoned(256), *b = support_poisoned(256);
    inputs[1][0] = 2; /* u8 indices 2, 0 */
    ck_assert_int_eq(clg_gather_quantized(support_reference_context(), &d, inputs[0], 24, inputs[1], 2, inputs[2], 12,
                                          NULL, 0, a, 256),
                     CLG_SUCCESS);
    ck_assert_int_eq(clg_gather_quantized_reference(&d, inputs[0], 24, inputs[1], 2, inputs[2], 12, NULL, 0, b, 256),
                     CLG_SUCCESS);
    inputs[1][0] = 0;
    ck_assert_mem_eq(a, b, 32);
    free(a);
    free(b);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gather_quantized_validation");
    TCase *tc = tcase_create("rules");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, valid_descriptors_are_accepted);
    tcase_add_test(tc, null_descriptor_and_outputs);
    tcase_add_test(tc, invalid_layout);
    tcase_add_test(tc, data_type_per_layout);
    tcase_add_test(tc, bits_per_data_type);
    tcase_add_test(tc, ggml_takes_no_scales_or_zero_points);
    tcase_add_test(tc, scale_and_zero_point_types);
    tcase_add_test(tc, output_type_must_be_float);
    tcase_add_test(tc, index_types_per_layout);
    tcase_add_test(tc, invalid_policy);
    tcase_add_test(tc, ranks_and_dimensions);
    tcase_add_test(tc, ggml_rows_are_whole_blocks);
    tcase_add_test(tc, gather_axis_range);
    tcase_add_test(tc, ort_quantize_axis_and_uint8_axes);
    tcase_add_test(tc, ort_block_size_power_of_two_at_least_16);
    tcase_add_test(tc, ort_scale_and_zero_point_shapes);
    tcase_add_test(tc, ov_groups_and_zero_point_shapes);
    tcase_add_test(tc, size_overflow);
    tcase_add_test(tc, status_strings);
    tcase_add_test(tc, host_buffers_in_argument_order);
    tcase_add_test(tc, enqueue_offsets_alignment_and_context);
    tcase_add_test(tc, reference_context_runs_the_reference);
    tcase_add_test(tc, fbgemm_rows);
    suite_add_tcase(s, tc);
    return support_run_suite(s);
}
