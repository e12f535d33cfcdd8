/* One test per GatherND validation rule of docs/semantics.md: each asserts the exact status on every
 * entry point (shape inference, reference, synchronous and enqueue OpenCL paths), that the message
 * names the offending value, and that the output buffer is unchanged. Then the error policy: the first
 * bad tuple component named (tuple, component, position, value, data axis) on every path and in both
 * kernel mappings, hostile values, a zero extent, empty outputs, rank-0 outputs. */
#include "op_support.h"
#include "testing/testing.h"

#include <stdint.h>
#include <stdlib.h>

#define SMALL 256

/* Host buffers large enough for every small descriptor below, holding valid indices (zeros). */
static unsigned char data_buf[SMALL], index_buf[SMALL];

/* Every entry point refuses d with this status and a message holding the fragment (op_support.h). */
#define expect_rejected_everywhere(d, want, fragment) support_expect_rejected(&support_gather_nd, d, want, fragment)

static const int64_t s234[] = {2, 3, 4}, s22[] = {2, 2}, s21[] = {2, 1};

/* data [2, 3, 4] i32, indices [2, 2] i64: two tuples of two components, slices of 4 */
static clg_gather_nd_desc valid_onnx13(void)
{
    return support_nd_desc(CLG_ONNX_GATHER_ND_13, CLG_I32, 3, s234, CLG_I64, 2, s22, 0);
}

static void expect_accepted(const clg_gather_nd_desc *d)
{
    ck_assert_msg(clg_gather_nd_sizes(d, NULL, NULL, NULL) == CLG_SUCCESS, "%s", clg_last_error_message());
}

START_TEST(null_descriptor)
{
    clg_gather_nd_desc d = valid_onnx13();
    support_expect_null_arguments(&support_gather_nd, &d);
}
END_TEST

START_TEST(invalid_preset)
{
    clg_gather_nd_desc d = valid_onnx13();
    d.preset = (clg_gather_nd_preset)77;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_PRESET, "preset = 77 is not a clg_gather_nd_preset");
}
END_TEST

START_TEST(preset_names_round_trip)
{
    const char *names[] = {"onnx-11", "onnx-12", "onnx-13", "ov-gather-nd-5", "ov-gather-nd-8"};
    for (int p = 1; p < (int)CLG_GATHER_ND_PRESET_COUNT; ++p) {
        ck_assert_str_eq(clg_gather_nd_preset_name((clg_gather_nd_preset)p), names[p - 1]);
        ck_assert_int_eq(clg_gather_nd_preset_from_name(names[p - 1]), p);
    }
    ck_assert_str_eq(clg_gather_nd_preset_name(CLG_GATHER_ND_PRESET_COUNT), "invalid");
    ck_assert_int_eq(clg_gather_nd_preset_from_name("ov-gather-8"), CLG_GATHER_ND_PRESET_INVALID);
}
END_TEST

START_TEST(invalid_data_type)
{
    clg_gather_nd_desc d = valid_onnx13();
    d.data.type = (clg_dtype)99;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_DTYPE, "data type = 99");
}
END_TEST

START_TEST(bf16_needs_onnx13)
{
    clg_gather_nd_desc d = valid_onnx13();
    d.data.type = CLG_BF16;
    d.preset = CLG_ONNX_GATHER_ND_11;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_DTYPE, "bf16 needs onnx-13 (preset is onnx-11)");
    d.preset = CLG_ONNX_GATHER_ND_12;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_DTYPE, "bf16 needs onnx-13 (preset is onnx-12)");
    const clg_gather_nd_preset accepting[] = {CLG_ONNX_GATHER_ND_13, CLG_OV_GATHER_ND_5, CLG_OV_GATHER_ND_8};
    for (int k = 0; k < 3; ++k) {
        d.preset = accepting[k];
        expect_accepted(&d);
    }
}
END_TEST

START_TEST(index_type_must_be_integer)
{
    clg_gather_nd_desc d = valid_onnx13();
    d.preset = CLG_OV_GATHER_ND_8;
    d.indices.type = CLG_F64;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_INDEX_TYPE, "indices type f64 is not an integer type");
}
END_TEST

START_TEST(onnx_accepts_i64_indices_only)
{
    const clg_dtype types[] = {CLG_I8, CLG_U8, CLG_I16, CLG_U16, CLG_I32, CLG_U32, CLG_U64};
    const clg_gather_nd_preset onnx[] = {CLG_ONNX_GATHER_ND_11, CLG_ONNX_GATHER_ND_12, CLG_ONNX_GATHER_ND_13};
    for (size_t k = 0; k < sizeof types / sizeof types[0]; ++k) {
        clg_gather_nd_desc d = valid_onnx13();
        d.indices.type = types[k];
        for (int p = 0; p < 3; ++p) {
            d.preset = onnx[p];
            expect_rejected_everywhere(&d, CLG_ERR_INVALID_INDEX_TYPE, "accepts i64 only");
        }
        d.preset = CLG_OV_GATHER_ND_5; /* OpenVINO: any integer type */
        expect_accepted(&d);
        d.preset = CLG_OV_GATHER_ND_8;
        expect_accepted(&d);
    }
}
END_TEST

START_TEST(invalid_policy)
{
    clg_gather_nd_desc d = valid_onnx13();
    d.oob_policy = (clg_oob_policy)-1;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_POLICY, "oob_policy = -1");
}
END_TEST

START_TEST(data_rank_at_least_one)
{
    clg_gather_nd_desc d = valid_onnx13();
    d.data.rank = 0;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_RANK, "data rank 0 is outside [1, 8]");
}
END_TEST

START_TEST(indices_rank_at_least_one)
{
    clg_gather_nd_desc d = valid_onnx13();
    d.indices.rank = 0;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_RANK, "indices rank 0 is outside [1, 8]");
    d.indices.rank = CLG_MAX_RANK + 1;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_RANK, "indices rank 9");
}
END_TEST

START_TEST(negative_dimension)
{
    clg_gather_nd_desc d = valid_onnx13();
    d.indices.shape[0] = -2;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_DIMENSION, "indices.shape[0] = -2 is negative");
}
END_TEST

START_TEST(batch_dims_only_from_onnx12)
{
    clg_gather_nd_desc d = support_nd_desc(CLG_ONNX_GATHER_ND_11, CLG_I32, 3, s234, CLG_I64, 2, s21, 1);
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_BATCH_DIMS, "batch_dims = 1: preset onnx-11 has no batch_dims");
    d.preset = CLG_ONNX_GATHER_ND_12;
    expect_accepted(&d);
}
END_TEST

START_TEST(batch_dims_outside_range)
{
    /* data rank 3, indices rank 2: batch_dims in [0, 1] */
    clg_gather_nd_desc d = support_nd_desc(CLG_OV_GATHER_ND_8, CLG_I32, 3, s234, CLG_I64, 2, s21, 2);
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_BATCH_DIMS,
                               "batch_dims = 2 is outside [0, 1] (data rank 3, indices rank 2)");
    d.batch_dims = -1; /* no negative form, unlike Gather-7/8 */
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_BATCH_DIMS, "batch_dims = -1 is outside [0, 1]");
    /* data rank 1: only 0 */
    const int64_t ds[] = {5}, is[] = {5, 1};
    d = support_nd_desc(CLG_ONNX_GATHER_ND_13, CLG_I32, 1, ds, CLG_I64, 2, is, 1);
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_BATCH_DIMS, "batch_dims = 1 is outside [0, 0]");
}
END_TEST

START_TEST(batch_shapes_must_match)
{
    const int64_t is[] = {3, 1};
    clg_gather_nd_desc d = support_nd_desc(CLG_ONNX_GATHER_ND_13, CLG_I32, 3, s234, CLG_I64, 2, is, 1);
    expect_rejected_everywhere(&d, CLG_ERR_BATCH_SHAPE_MISMATCH,
                               "data.shape[0] = 2 differs from indices.shape[0] = 3 within batch_dims = 1");
    /* no broadcasting of 1 either */
    const int64_t one[] = {1, 1};
    d = support_nd_desc(CLG_OV_GATHER_ND_8, CLG_I32, 3, s234, CLG_I64, 2, one, 1);
    expect_rejected_everywhere(&d, CLG_ERR_BATCH_SHAPE_MISMATCH, "differs from indices.shape[0] = 1");
}
END_TEST

START_TEST(tuple_length_outside_range)
{
    const int64_t zero[] = {2, 0}, four[] = {2, 4}, three_b[] = {2, 3};
    clg_gather_nd_desc d = support_nd_desc(CLG_ONNX_GATHER_ND_13, CLG_I32, 3, s234, CLG_I64, 2, zero, 0);
    expect_rejected_everywhere(
        &d, CLG_ERR_SHAPE_MISMATCH,
        "indices.shape[1] = 0, the tuple length, is outside [1, 3] (data rank 3 minus batch_dims 0)");
    d = support_nd_desc(CLG_ONNX_GATHER_ND_13, CLG_I32, 3, s234, CLG_I64, 2, four, 0);
    expect_rejected_everywhere(&d, CLG_ERR_SHAPE_MISMATCH, "indices.shape[1] = 4, the tuple length");
    d = support_nd_desc(CLG_ONNX_GATHER_ND_13, CLG_I32, 3, s234, CLG_I64, 2, three_b, 1);
    expect_rejected_everywhere(&d, CLG_ERR_SHAPE_MISMATCH, "outside [1, 2] (data rank 3 minus batch_dims 1)");
}
END_TEST

START_TEST(size_overflow)
{
    const int64_t huge[] = {INT64_MAX, 2};
    clg_gather_nd_desc d = support_nd_desc(CLG_OV_GATHER_ND_8, CLG_F32, 2, huge, CLG_I64, 2, s21, 0);
    expect_rejected_everywhere(&d, CLG_ERR_SIZE_OVERFLOW, "data size");
    const int64_t is[] = {(int64_t)1 << 62, 1};
    d = support_nd_desc(CLG_OV_GATHER_ND_8, CLG_F32, 3, s234, CLG_I32, 2, is, 0);
    expect_rejected_everywhere(&d, CLG_ERR_SIZE_OVERFLOW, "indices size");
    d.indices.type = CLG_U8; /* 2^62 tuples of slices of 12 f32: the output overflows */
    expect_rejected_everywhere(&d, CLG_ERR_SIZE_OVERFLOW, "output size");
}
END_TEST

START_TEST(zero_sized_overflowing_shape_is_empty_not_overflow)
{
    const int64_t ds[] = {INT64_MAX, 0, INT64_MAX}, is[] = {0, 1};
    clg_gather_nd_desc d = support_nd_desc(CLG_OV_GATHER_ND_8, CLG_F32, 3, ds, CLG_I64, 2, is, 0);
    uint64_t data_bytes = 1, out_bytes = 1;
    ck_assert_int_eq(clg_gather_nd_sizes(&d, &data_bytes, NULL, &out_bytes), CLG_SUCCESS);
    ck_assert_int_eq(data_bytes, 0);
    ck_assert_int_eq(out_bytes, 0);
}
END_TEST

/* ov-gather-nd-5 reports the batch dimensions' product as one extent, so it must fit int64 even where
 * another extent makes the output empty (found by fuzz_plan). */
START_TEST(flattened_batch_extent_must_fit_int64)
{
    const int64_t ds[] = {2, INT64_MAX, 0}, is[] = {2, INT64_MAX, 0, 1};
    clg_gather_nd_desc d = support_nd_desc(CLG_OV_GATHER_ND_5, CLG_F32, 3, ds, CLG_I64, 4, is, 2);
    expect_rejected_everywhere(&d, CLG_ERR_SIZE_OVERFLOW, "flattens batch_dims = 2");
    const int64_t ds2[] = {(int64_t)1 << 32, (int64_t)1 << 31, 0}, is2[] = {(int64_t)1 << 32, (int64_t)1 << 31, 0, 1};
    d = support_nd_desc(CLG_OV_GATHER_ND_5, CLG_F32, 3, ds2, CLG_I64, 4, is2, 2); /* 2^63: past INT64_MAX */
    expect_rejected_everywhere(&d, CLG_ERR_SIZE_OVERFLOW, "overflows int64");
    d.preset = CLG_OV_GATHER_ND_8; /* no flattening: an empty output of extents that each fit */
    expect_accepted(&d);
}
END_TEST

START_TEST(output_shapes_of_the_presets)
{
    /* data [2, 3, 4, 5], indices [2, 3, 7, 1], batch_dims 2: ONNX and GatherND-8 [2, 3, 7, 5], GatherND-5 [6, 7, 5] */
    const int64_t ds[] = {2, 3, 4, 5}, is[] = {2, 3, 7, 1};
    const clg_gather_nd_preset presets[] = {CLG_ONNX_GATHER_ND_12, CLG_ONNX_GATHER_ND_13, CLG_OV_GATHER_ND_8,
                                            CLG_OV_GATHER_ND_5};
    for (int p = 0; p < 4; ++p) {
        clg_gather_nd_desc d = support_nd_desc(presets[p], CLG_F32, 4, ds, CLG_I64, 4, is, 2);
        int32_t rank;
        int64_t shape[CLG_MAX_OUTPUT_RANK];
        ck_assert_int_eq(clg_gather_nd_output_shape(&d, &rank, shape), CLG_SUCCESS);
        if (presets[p] == CLG_OV_GATHER_ND_5) {
            ck_assert_int_eq(rank, 3);
            ck_assert(shape[0] == 6 && shape[1] == 7 && shape[2] == 5);
        } else {
            ck_assert_int_eq(rank, 4);
            ck_assert(shape[0] == 2 && shape[1] == 3 && shape[2] == 7 && shape[3] == 5);
        }
    }
}
END_TEST

START_TEST(rank0_output)
{
    /* a full-rank tuple from indices of rank 1: one element, an output of rank 0 */
    const int32_t data[] = {10, 11, 12, 13, 14, 15};
    const int64_t ds[] = {2, 3}, is[] = {2}, idx[] = {1, -1};
    clg_gather_nd_desc d = support_nd_desc(CLG_ONNX_GATHER_ND_11, CLG_I32, 2, ds, CLG_I64, 1, is, 0);
    int32_t rank = -1;
    int64_t shape[CLG_MAX_OUTPUT_RANK];
    ck_assert_int_eq(clg_gather_nd_output_shape(&d, &rank, shape), CLG_SUCCESS);
    ck_assert_int_eq(rank, 0);
    int32_t out = 0;
    ck_assert_int_eq(clg_gather_nd(support_cl_context(), &d, data, sizeof data, idx, sizeof idx, &out, 4), CLG_SUCCESS);
    ck_assert_int_eq(out, 15);
    out = 0;
    ck_assert_int_eq(clg_gather_nd_reference(&d, data, sizeof data, idx, sizeof idx, &out, 4), CLG_SUCCESS);
    ck_assert_int_eq(out, 15);
}
END_TEST

START_TEST(buffers_too_small)
{
    clg_gather_nd_desc d = valid_onnx13(); /* data 96 bytes, indices 32, output [2, 4] i32 = 32 */
    unsigned char *out = support_poisoned(64);
    ck_assert_int_eq(clg_gather_nd_reference(&d, data_buf, 96, index_buf, 32, out, 31), CLG_ERR_BUFFER_TOO_SMALL);
    ck_assert(strstr(clg_last_error_message(), "output_bytes = 31"));
    ck_assert_int_eq(clg_gather_nd(support_cl_context(), &d, data_buf, 95, index_buf, 32, out, 32),
                     CLG_ERR_BUFFER_TOO_SMALL);
    ck_assert(strstr(clg_last_error_message(), "data_bytes = 95"));
    ck_assert(support_all_poison(out, 64));
    free(out);
    clg_context *ctx = support_cl_context();
    cl_int err;
    cl_mem buf = clCreateBuffer(clg_context_cl_context(ctx), CL_MEM_READ_WRITE, 128, NULL, &err);
    ck_assert_int_eq(clg_gather_nd_enqueue(ctx, &d, clg_context_cl_queue(ctx), buf, 0, buf, 0, buf, 100, 0, NULL, NULL),
                     CLG_ERR_BUFFER_TOO_SMALL);
    ck_assert(strstr(clg_last_error_message(), "output: cl_mem of 128 bytes at offset 100"));
    clReleaseMemObject(buf);
}
END_TEST

START_TEST(enqueue_arguments)
{
    clg_gather_nd_desc d = valid_onnx13();
    clg_context *ctx = support_cl_context();
    cl_int err;
    cl_mem buf = clCreateBuffer(clg_context_cl_context(ctx), CL_MEM_READ_WRITE, 256, NULL, &err);
    ck_assert_int_eq(
        clg_gather_nd_enqueue(ctx, &d, clg_context_cl_queue(ctx), buf, 0, buf, 12, buf, 128, 0, NULL, NULL),
        CLG_ERR_MISALIGNED_OFFSET);
    ck_assert(strstr(clg_last_error_message(), "indices_offset = 12"));
    clReleaseMemObject(buf);
    ck_assert_int_eq(
        clg_gather_nd_enqueue(ctx, &d, clg_context_cl_queue(ctx), NULL, 0, NULL, 0, NULL, 0, 1, NULL, NULL),
        CLG_ERR_NULL_ARGUMENT);
    ck_assert(strstr(clg_last_error_message(), "num_events is 1"));
    ck_assert_int_eq(
        clg_gather_nd_enqueue(support_reference_context(), &d, NULL, NULL, 0, NULL, 0, NULL, 0, 0, NULL, NULL),
        CLG_ERR_NO_OPENCL);
    ck_assert(strstr(clg_last_error_message(), "clg_gather_nd_enqueue needs an OpenCL device"));
}
END_TEST

/* ---- the error policy: name the first bad component, write nothing ---- */

/* The data every error-policy test below reads. */
static const int32_t error_data[24] = {0};

/* Every entry point fails on idx under the error policy, naming the fragment, writing nothing. */
#define expect_index_error(d, idx, idx_bytes, fragment) \
    support_expect_index_error(&support_gather_nd, d, error_data, sizeof error_data, idx, idx_bytes, 256, fragment)

START_TEST(onnx_component_out_of_range_names_first)
{
    /* data [2, 3, 4], indices [2, 2, 2]: tuples (0, 2) (1, -3) | (1, 3) (-2, 0); tuple 2 component 1
     * = 3 is outside [-3, 2] for data axis 1 */
    const int64_t is[] = {2, 2, 2}, idx[] = {0, 2, 1, -3, 1, 3, -3, 0};
    const clg_gather_nd_preset onnx[] = {CLG_ONNX_GATHER_ND_11, CLG_ONNX_GATHER_ND_12, CLG_ONNX_GATHER_ND_13};
    for (int p = 0; p < 3; ++p) {
        clg_gather_nd_desc d = support_nd_desc(onnx[p], CLG_I32, 3, s234, CLG_I64, 3, is, 0);
        expect_index_error(&d, idx, sizeof idx,
                           "indices[1, 0, 1] (tuple 2, component 1, flat position 5) = 3 is outside [-3, 2] for data "
                           "axis 1 of size 3");
    }
    /* with batch_dims 1 the components index data axes 1 (size 3) and 2 (size 4): tuple 1 is (-3, 4) */
    const int64_t is_b[] = {2, 1, 2}, idx_b[] = {2, 3, -3, 4};
    clg_gather_nd_desc d = support_nd_desc(CLG_OV_GATHER_ND_8, CLG_I32, 3, s234, CLG_I64, 3, is_b, 1);
    d.oob_policy = CLG_OOB_ERROR;
    expect_index_error(
        &d, idx_b, sizeof idx_b,
        "indices[1, 0, 1] (tuple 1, component 1, flat position 3) = 4 is outside [-4, 3] for data axis 2 "
        "of size 4");
}
END_TEST

START_TEST(hostile_index_values_under_error_policy)
{
    const int64_t is[] = {1, 2};
    clg_gather_nd_desc d = support_nd_desc(CLG_ONNX_GATHER_ND_13, CLG_I32, 3, s234, CLG_I64, 2, is, 0);
    const int64_t lo[] = {0, INT64_MIN}, hi[] = {INT64_MAX, 0};
    expect_index_error(&d, lo, sizeof lo, "(tuple 0, component 1, flat position 1) = -9223372036854775808 is outside");
    expect_index_error(&d, hi, sizeof hi, "(tuple 0, component 0, flat position 0) = 9223372036854775807 is outside");
    const uint64_t umax[] = {1, UINT64_MAX};
    clg_gather_nd_desc u = support_nd_desc(CLG_OV_GATHER_ND_5, CLG_I32, 3, s234, CLG_U64, 2, is, 0);
    u.oob_policy = CLG_OOB_ERROR;
    expect_index_error(&u, umax, sizeof umax, "= 18446744073709551615 is outside [-3, 2] for data axis 1");
}
END_TEST

START_TEST(error_policy_finds_first_bad_among_many)
{
    /* many tuples, so the device check spans several chunks; the bad components sit late, out of order */
    enum { TUPLES = 60000 };
    static int64_t idx[TUPLES * 2];
    for (int k = 0; k < TUPLES * 2; ++k) idx[k] = k % 2;
    idx[2 * 41234 + 1] = -5; /* axis 1 has size 3 */
    idx[2 * 59999] = 2;      /* axis 0 has size 2 */
    const int64_t is[] = {TUPLES, 2};
    clg_gather_nd_desc d = support_nd_desc(CLG_ONNX_GATHER_ND_13, CLG_I32, 3, s234, CLG_I64, 2, is, 0);
    const int32_t data[24] = {0};
    const size_t out_bytes = TUPLES * 16;
    const char *want = "indices[41234, 1] (tuple 41234, component 1, flat position 82469) = -5";
    support_expect_index_error(&support_gather_nd, &d, data, sizeof data, idx, sizeof idx, out_bytes, want);
}
END_TEST

START_TEST(zero_extent_with_tuples)
{
    /* data [3, 0, 2], tuples of 2: component 1 indexes an axis of size 0, so every tuple is out of range;
     * the data is empty and may be NULL. error names the first such component; zero and clamp give zeros */
    const int64_t ds[] = {3, 0, 2}, is[] = {2, 2}, idx[] = {1, 0, 2, -1};
    clg_gather_nd_desc d = support_nd_desc(CLG_ONNX_GATHER_ND_13, CLG_F32, 3, ds, CLG_I64, 2, is, 0);
    expect_index_error(&d, idx, sizeof idx,
                       "indices[0, 1] (tuple 0, component 1, flat position 1) = 0 is outside [-0, -1] for data axis 1 "
                       "of size 0");
    const clg_oob_policy zeroing[] = {CLG_OOB_ZERO, CLG_OOB_CLAMP};
    for (int k = 0; k < 2; ++k) {
        d.oob_policy = zeroing[k];
        support_expect_zeros(&support_gather_nd, &d, NULL, 0, idx, sizeof idx, 16);
    }
}
END_TEST

START_TEST(verify_mode_passes_and_detects_mismatch)
{
    /* data [2, 3, 4] i32 by tuples [2, 3, 1] with batch_dims 1 (slices of 4), one out of range, clamped */
    int32_t data[24];
    for (int k = 0; k < 24; ++k) data[k] = 1000 + k;
    const int64_t is[] = {2, 3, 1}, idx[6] = {2, -1, 0, 1, 9, -3};
    clg_gather_nd_desc d = support_nd_desc(CLG_OV_GATHER_ND_8, CLG_I32, 3, s234, CLG_I64, 3, is, 1);
    d.oob_policy = CLG_OOB_CLAMP;
    support_expect_verify_mode(&support_gather_nd, &d, data, sizeof data, idx, sizeof idx, 6 * 4 * 4);
}
END_TEST

START_TEST(zero_sized_output_is_a_noop)
{
    /* no tuples, or empty slices: success, nothing read, no index checked */
    const int64_t is[] = {0, 2}, ds[] = {2, 3, 0}, idx[] = {9, 9};
    clg_gather_nd_desc d = support_nd_desc(CLG_ONNX_GATHER_ND_13, CLG_I32, 3, s234, CLG_I64, 2, is, 0);
    unsigned char *out = support_poisoned(16);
    ck_assert_int_eq(clg_gather_nd(support_cl_context(), &d, data_buf, 96, NULL, 0, out, 0), CLG_SUCCESS);
    const int64_t is2[] = {1, 2};
    d = support_nd_desc(CLG_ONNX_GATHER_ND_13, CLG_I32, 3, ds, CLG_I64, 2, is2, 0);
    ck_assert_int_eq(clg_gather_nd(support_cl_context(), &d, NULL, 0, idx, sizeof idx, out, 0), CLG_SUCCESS);
    ck_assert_int_eq(clg_gather_nd_reference(&d, NULL, 0, idx, sizeof idx, out, 0), CLG_SUCCESS);
    ck_assert(support_all_poison(out, 16));
    clg_context *ctx = support_cl_context();
    cl_event ev = NULL;
    ck_assert_int_eq(clg_gather_nd_enqueue(ctx, &d, clg_context_cl_queue(ctx), NULL, 0, NULL, 0, NULL, 0, 0, NULL, &ev),
                     CLG_SUCCESS);
    ck_assert_ptr_nonnull(ev);
    ck_assert_int_eq(clWaitForEvents(1, &ev), CL_SUCCESS);
    clReleaseEvent(ev);
    free(out);
}
END_TEST

int main(void)
{
    return support_run_tests(
        "gather_nd_validation", 600,
        SUPPORT_TESTS(null_descriptor, invalid_preset, preset_names_round_trip, invalid_data_type, bf16_needs_onnx13,
                      index_type_must_be_integer, onnx_accepts_i64_indices_only, invalid_policy, data_rank_at_least_one,
                      indices_rank_at_least_one, negative_dimension, batch_dims_only_from_onnx12,
                      batch_dims_outside_range, batch_shapes_must_match, tuple_length_outside_range, size_overflow,
                      zero_sized_overflowing_shape_is_empty_not_overflow, flattened_batch_extent_must_fit_int64,
                      output_shapes_of_the_presets, rank0_output, buffers_too_small, enqueue_arguments,
                      onnx_component_out_of_range_names_first, hostile_index_values_under_error_policy,
                      error_policy_finds_first_bad_among_many, zero_extent_with_tuples,
                      verify_mode_passes_and_detects_mismatch, zero_sized_output_is_a_noop));
}
