/* One test per GatherElements validation rule of docs/semantics.md: each asserts the exact status on
 * every entry point (shape inference, reference, synchronous and enqueue OpenCL paths), that the
 * message names the offending value, and that the output buffer is unchanged. Then the error policy:
 * the first bad index named on every path and in both kernel mappings, hostile values, A == 0, empty
 * outputs. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE */
#include "op_support.h"
#include "testing/testing.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#define SMALL 256

/* Host buffers large enough for every small descriptor below, holding valid indices (zeros). */
static unsigned char data_buf[SMALL], index_buf[SMALL];

/* Every entry point refuses d with this status and a message holding the fragment (op_support.h). */
#define expect_rejected_everywhere(d, want, fragment) \
    support_expect_rejected(&support_gather_elements, d, want, fragment)

static const int64_t s23[] = {2, 3}, s22[] = {2, 2};

static clg_gather_elements_desc valid_onnx13(void)
{
    return support_elements_desc(CLG_ONNX_GATHER_ELEMENTS_13, CLG_I32, 2, s23, CLG_I64, s22, 1);
}

START_TEST(null_descriptor)
{
    clg_gather_elements_desc d = valid_onnx13();
    support_expect_null_arguments(&support_gather_elements, &d);
}
END_TEST

START_TEST(invalid_preset)
{
    clg_gather_elements_desc d = valid_onnx13();
    d.preset = (clg_gather_elements_preset)77;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_PRESET, "preset = 77 is not a clg_gather_elements_preset");
    d.preset = CLG_GATHER_ELEMENTS_PRESET_INVALID;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_PRESET, "preset = 0");
}
END_TEST

START_TEST(preset_names_round_trip)
{
    const char *names[] = {"onnx-11", "onnx-13", "ov-gather-elements-6"};
    for (int p = 1; p < (int)CLG_GATHER_ELEMENTS_PRESET_COUNT; ++p) {
        ck_assert_str_eq(clg_gather_elements_preset_name((clg_gather_elements_preset)p), names[p - 1]);
        ck_assert_int_eq(clg_gather_elements_preset_from_name(names[p - 1]), p);
    }
    ck_assert_str_eq(clg_gather_elements_preset_name((clg_gather_elements_preset)9), "invalid");
    ck_assert_int_eq(clg_gather_elements_preset_from_name("onnx-1"), CLG_GATHER_ELEMENTS_PRESET_INVALID);
    ck_assert_int_eq(clg_gather_elements_preset_from_name(NULL), CLG_GATHER_ELEMENTS_PRESET_INVALID);
}
END_TEST

START_TEST(invalid_data_type)
{
    clg_gather_elements_desc d = valid_onnx13();
    d.data.type = (clg_dtype)99;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_DTYPE, "data type = 99");
}
END_TEST

START_TEST(bf16_needs_onnx13)
{
    clg_gather_elements_desc d = valid_onnx13();
    d.data.type = CLG_BF16;
    d.preset = CLG_ONNX_GATHER_ELEMENTS_11;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_DTYPE, "bf16 needs onnx-13 (preset is onnx-11)");
    const clg_gather_elements_preset accepting[] = {CLG_ONNX_GATHER_ELEMENTS_13, CLG_OV_GATHER_ELEMENTS_6};
    for (int k = 0; k < 2; ++k) {
        d.preset = accepting[k];
        ck_assert_int_eq(clg_gather_elements_sizes(&d, NULL, NULL, NULL), CLG_SUCCESS);
    }
}
END_TEST

START_TEST(index_type_must_be_integer)
{
    clg_gather_elements_desc d = valid_onnx13();
    d.indices.type = CLG_F32;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_INDEX_TYPE, "indices type f32 is not an integer type");
    d.preset = CLG_OV_GATHER_ELEMENTS_6;
    d.indices.type = CLG_BOOL;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_INDEX_TYPE, "indices type bool");
}
END_TEST

START_TEST(onnx_accepts_i32_i64_indices_only)
{
    const clg_dtype types[] = {CLG_I8, CLG_U8, CLG_I16, CLG_U16, CLG_U32, CLG_U64};
    for (size_t k = 0; k < sizeof types / sizeof types[0]; ++k) {
        clg_gather_elements_desc d = valid_onnx13();
        d.indices.type = types[k];
        expect_rejected_everywhere(&d, CLG_ERR_INVALID_INDEX_TYPE, "accepts i32 and i64 only");
        d.preset = CLG_ONNX_GATHER_ELEMENTS_11;
        expect_rejected_everywhere(&d, CLG_ERR_INVALID_INDEX_TYPE, "preset onnx-11 accepts i32 and i64 only");
        d.preset = CLG_OV_GATHER_ELEMENTS_6; /* OpenVINO: any integer type */
        ck_assert_int_eq(clg_gather_elements_sizes(&d, NULL, NULL, NULL), CLG_SUCCESS);
    }
}
END_TEST

START_TEST(invalid_policy)
{
    clg_gather_elements_desc d = valid_onnx13();
    d.oob_policy = (clg_oob_policy)9;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_POLICY, "oob_policy = 9");
}
END_TEST

START_TEST(data_rank_at_least_one)
{
    clg_gather_elements_desc d = support_elements_desc(CLG_OV_GATHER_ELEMENTS_6, CLG_F32, 0, NULL, CLG_I32, NULL, 0);
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_RANK, "data rank 0 is outside [1, 8]");
}
END_TEST

START_TEST(rank_above_maximum)
{
    clg_gather_elements_desc d = valid_onnx13();
    d.data.rank = d.indices.rank = CLG_MAX_RANK + 1;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_RANK, "data rank 9");
}
END_TEST

START_TEST(negative_dimension)
{
    clg_gather_elements_desc d = valid_onnx13();
    d.data.shape[1] = -3;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_DIMENSION, "data.shape[1] = -3 is negative");
    d = valid_onnx13();
    d.indices.shape[0] = -1;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_DIMENSION, "indices.shape[0] = -1 is negative");
}
END_TEST

START_TEST(indices_rank_must_equal_data_rank)
{
    clg_gather_elements_desc d = valid_onnx13();
    d.indices.rank = 1;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_RANK, "indices rank 1 differs from data rank 2");
    d.indices.rank = 3;
    d.indices.shape[2] = 1;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_RANK, "indices rank 3 differs from data rank 2");
}
END_TEST

START_TEST(axis_out_of_range)
{
    clg_gather_elements_desc d = valid_onnx13();
    d.axis = 2;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_AXIS, "axis = 2 is outside [-2, 1] for data rank 2");
    d.axis = -3;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_AXIS, "axis = -3");
    d.axis = -2; /* normalizes to 0, valid */
    ck_assert_int_eq(clg_gather_elements_sizes(&d, NULL, NULL, NULL), CLG_SUCCESS);
}
END_TEST

START_TEST(indices_larger_than_data_off_the_axis)
{
    /* data [2, 3], axis 1: indices [3, 2] is larger along dimension 0 */
    const int64_t is[] = {3, 2};
    clg_gather_elements_desc d = support_elements_desc(CLG_ONNX_GATHER_ELEMENTS_13, CLG_I32, 2, s23, CLG_I64, is, 1);
    expect_rejected_everywhere(
        &d, CLG_ERR_SHAPE_MISMATCH,
        "indices.shape[0] = 3 is larger than data.shape[0] = 2 (only the axis, 1, may be larger)");
    /* along the axis it may be larger, and elsewhere smaller */
    const int64_t along[] = {1, 9};
    d = support_elements_desc(CLG_ONNX_GATHER_ELEMENTS_13, CLG_I32, 2, s23, CLG_I64, along, 1);
    int32_t rank;
    int64_t shape[CLG_MAX_OUTPUT_RANK];
    ck_assert_int_eq(clg_gather_elements_output_shape(&d, &rank, shape), CLG_SUCCESS);
    ck_assert_int_eq(rank, 2);
    ck_assert_int_eq(shape[0], 1);
    ck_assert_int_eq(shape[1], 9);
}
END_TEST

START_TEST(size_overflow)
{
    const int64_t huge[] = {INT64_MAX, INT64_MAX}, small[] = {1, 1};
    clg_gather_elements_desc d = support_elements_desc(CLG_OV_GATHER_ELEMENTS_6, CLG_F32, 2, huge, CLG_I64, small, 0);
    expect_rejected_everywhere(&d, CLG_ERR_SIZE_OVERFLOW, "data size");
    /* the data fits; the indices (and the output) do not: indices may be longer along the axis */
    const int64_t data_shape[] = {4, 2}, idx_shape[] = {(int64_t)1 << 62, 2};
    d = support_elements_desc(CLG_OV_GATHER_ELEMENTS_6, CLG_U8, 2, data_shape, CLG_I32, idx_shape, 0);
    expect_rejected_everywhere(&d, CLG_ERR_SIZE_OVERFLOW, "indices size");
    d.indices.type = CLG_U8; /* 2^63 one-byte indices fit, the 2^63 elements of 8 bytes do not */
    d.data.type = CLG_F64;
    expect_rejected_everywhere(&d, CLG_ERR_SIZE_OVERFLOW, "output size");
}
END_TEST

START_TEST(zero_sized_overflowing_shape_is_empty_not_overflow)
{
    const int64_t shape[] = {INT64_MAX, 0, INT64_MAX}, is[] = {1, 0, 1};
    clg_gather_elements_desc d = support_elements_desc(CLG_ONNX_GATHER_ELEMENTS_13, CLG_F32, 3, shape, CLG_I64, is, 2);
    uint64_t data_bytes = 1, out_bytes = 1;
    ck_assert_int_eq(clg_gather_elements_sizes(&d, &data_bytes, NULL, &out_bytes), CLG_SUCCESS);
    ck_assert_int_eq(data_bytes, 0);
    ck_assert_int_eq(out_bytes, 0);
}
END_TEST

START_TEST(buffers_too_small)
{
    clg_gather_elements_desc d = valid_onnx13(); /* data 24 bytes, indices 32, output [2, 2] i32 = 16 bytes */
    unsigned char *out = support_poisoned(64);
    ck_assert_int_eq(clg_gather_elements_reference(&d, data_buf, 24, index_buf, 32, out, 15), CLG_ERR_BUFFER_TOO_SMALL);
    ck_assert(strstr(clg_last_error_message(), "output_bytes = 15"));
    ck_assert_int_eq(clg_gather_elements(support_cl_context(), &d, data_buf, 23, index_buf, 32, out, 16),
                     CLG_ERR_BUFFER_TOO_SMALL);
    ck_assert(strstr(clg_last_error_message(), "data_bytes = 23"));
    ck_assert_int_eq(clg_gather_elements(support_cl_context(), &d, data_buf, 24, index_buf, 31, out, 16),
                     CLG_ERR_BUFFER_TOO_SMALL);
    ck_assert(strstr(clg_last_error_message(), "indices_bytes = 31"));
    ck_assert(support_all_poison(out, 64));
    free(out);

    clg_context *ctx = support_cl_context();
    cl_int err;
    cl_mem data = clCreateBuffer(clg_context_cl_context(ctx), CL_MEM_READ_WRITE, 64, NULL, &err);
    cl_mem small = clCreateBuffer(clg_context_cl_context(ctx), CL_MEM_READ_WRITE, 20, NULL, &err);
    ck_assert_int_eq(
        clg_gather_elements_enqueue(ctx, &d, clg_context_cl_queue(ctx), data, 0, data, 0, small, 8, 0, NULL, NULL),
        CLG_ERR_BUFFER_TOO_SMALL);
    ck_assert(strstr(clg_last_error_message(), "output: cl_mem of 20 bytes at offset 8"));
    ck_assert_int_eq(
        clg_gather_elements_enqueue(ctx, &d, clg_context_cl_queue(ctx), data, 48, data, 0, data, 0, 0, NULL, NULL),
        CLG_ERR_BUFFER_TOO_SMALL);
    clReleaseMemObject(data);
    clReleaseMemObject(small);
}
END_TEST

START_TEST(indices_offset_must_be_aligned)
{
    clg_gather_elements_desc d = valid_onnx13();
    clg_context *ctx = support_cl_context();
    cl_int err;
    cl_mem buf = clCreateBuffer(clg_context_cl_context(ctx), CL_MEM_READ_WRITE, 256, NULL, &err);
    ck_assert_int_eq(
        clg_gather_elements_enqueue(ctx, &d, clg_context_cl_queue(ctx), buf, 0, buf, 4, buf, 128, 0, NULL, NULL),
        CLG_ERR_MISALIGNED_OFFSET);
    ck_assert(strstr(clg_last_error_message(), "indices_offset = 4"));
    clReleaseMemObject(buf);
}
END_TEST

START_TEST(enqueue_arguments)
{
    clg_gather_elements_desc d = valid_onnx13();
    clg_context *ctx = support_cl_context();
    ck_assert_int_eq(
        clg_gather_elements_enqueue(ctx, &d, clg_context_cl_queue(ctx), NULL, 0, NULL, 0, NULL, 0, 2, NULL, NULL),
        CLG_ERR_NULL_ARGUMENT);
    ck_assert(strstr(clg_last_error_message(), "num_events is 2"));
    ck_assert_int_eq(clg_gather_elements_enqueue(ctx, &d, NULL, NULL, 0, NULL, 0, NULL, 0, 0, NULL, NULL),
                     CLG_ERR_NULL_ARGUMENT);
    ck_assert_int_eq(
        clg_gather_elements_enqueue(support_reference_context(), &d, NULL, NULL, 0, NULL, 0, NULL, 0, 0, NULL, NULL),
        CLG_ERR_NO_OPENCL);
    ck_assert(strstr(clg_last_error_message(), "clg_gather_elements_enqueue needs an OpenCL device"));
}
END_TEST

START_TEST(tensor_above_device_max_allocation)
{
    clg_device_info info;
    clg_context_device_info(support_cl_context(), &info);
    const uint64_t rows = info.max_alloc_bytes / 16 + 1; /* one row of 16 bytes past the limit */
    const int64_t ds[] = {(int64_t)rows, 16}, is[] = {1, 16};
    clg_gather_elements_desc d = support_elements_desc(CLG_OV_GATHER_ELEMENTS_6, CLG_U8, 2, ds, CLG_U8, is, 0);
    size_t bytes = (size_t)(rows * 16);
    void *data = mmap(NULL, bytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    ck_assert_ptr_ne(data, MAP_FAILED);
    unsigned char *out = support_poisoned(16);
    ck_assert_int_eq(clg_gather_elements(support_cl_context(), &d, data, bytes, index_buf, 16, out, 16),
                     CLG_ERR_TOO_LARGE_FOR_DEVICE);
    ck_assert(strstr(clg_last_error_message(), "max allocation"));
    ck_assert(support_all_poison(out, 16));
    free(out);
    munmap(data, bytes);
}
END_TEST

/* ---- the error policy: name the first bad index, write nothing ---- */

/* The data every error-policy test below reads. */
static const int32_t error_data[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};

/* Every entry point fails on idx under the error policy, naming the fragment, writing nothing. */
#define expect_index_error(d, idx, idx_bytes, fragment)                                                         \
    support_expect_index_error(&support_gather_elements, d, error_data, sizeof error_data, idx, idx_bytes, 256, \
                               fragment)

START_TEST(onnx_index_out_of_range_names_first)
{
    /* data [3, 4], indices [2, 3] along axis 0: A = 3 */
    const int64_t ds[] = {3, 4}, is[] = {2, 3};
    const int64_t idx[] = {0, -3, 2, 3, -4, 9};
    const clg_gather_elements_preset presets[] = {CLG_ONNX_GATHER_ELEMENTS_11, CLG_ONNX_GATHER_ELEMENTS_13};
    for (int p = 0; p < 2; ++p) {
        clg_gather_elements_desc d = support_elements_desc(presets[p], CLG_I32, 2, ds, CLG_I64, is, 0);
        expect_index_error(&d, idx, sizeof idx,
                           "indices[1, 0] (flat position 3) = 3 is outside [-3, 2] for axis 0 of size 3");
    }
    /* OpenVINO's default is zeros; the error policy can be asked for */
    clg_gather_elements_desc d = support_elements_desc(CLG_OV_GATHER_ELEMENTS_6, CLG_I32, 2, ds, CLG_I64, is, -1);
    d.oob_policy = CLG_OOB_ERROR;
    expect_index_error(&d, idx, sizeof idx,
                       "indices[1, 2] (flat position 5) = 9 is outside [-4, 3] for axis 1 of size 4");
}
END_TEST

START_TEST(hostile_index_values_under_error_policy)
{
    const int64_t ds[] = {12}, is[] = {1};
    clg_gather_elements_desc d = support_elements_desc(CLG_ONNX_GATHER_ELEMENTS_13, CLG_I32, 1, ds, CLG_I64, is, 0);
    const int64_t lo = INT64_MIN, hi = INT64_MAX;
    expect_index_error(&d, &lo, 8, "= -9223372036854775808 is outside");
    expect_index_error(&d, &hi, 8, "= 9223372036854775807 is outside");
    const uint64_t umax = UINT64_MAX;
    clg_gather_elements_desc u = support_elements_desc(CLG_OV_GATHER_ELEMENTS_6, CLG_I32, 1, ds, CLG_U64, is, 0);
    u.oob_policy = CLG_OOB_ERROR;
    expect_index_error(&u, &umax, 8, "= 18446744073709551615 is outside");
}
END_TEST

START_TEST(error_policy_finds_first_bad_among_many)
{
    /* [300, 250] i64 indices along axis 0 of data [7, 250]: the device check spans many chunks; two bad
     * indices sit late, the later one in a lower chunk of the GPU mapping's grid stride */
    enum { ROWS = 300, COLS = 250 };
    static int64_t idx[ROWS * COLS];
    for (int k = 0; k < ROWS * COLS; ++k) idx[k] = (k * 5) % 7 - 3;
    idx[COLS * 211 + 17] = 7;
    idx[COLS * 299 + 249] = -8;
    const int64_t ds[] = {7, COLS}, is[] = {ROWS, COLS};
    clg_gather_elements_desc d = support_elements_desc(CLG_ONNX_GATHER_ELEMENTS_11, CLG_U16, 2, ds, CLG_I64, is, 0);
    static uint16_t data[7 * COLS];
    support_expect_index_error(&support_gather_elements, &d, data, sizeof data, idx, sizeof idx, ROWS * COLS * 2,
                               "indices[211, 17] (flat position 52767) = 7 is outside [-7, 6] for axis 0 of size 7");
}
END_TEST

START_TEST(empty_axis_with_indices)
{
    /* A == 0 (data [2, 0]), indices [2, 2] along axis 1: every index is out of range; the data is
     * empty and may be NULL */
    const int64_t ds[] = {2, 0}, is[] = {2, 2};
    const int32_t idx[] = {0, -1, 5, 0};
    clg_gather_elements_desc d = support_elements_desc(CLG_ONNX_GATHER_ELEMENTS_13, CLG_F32, 2, ds, CLG_I32, is, 1);
    expect_index_error(&d, idx, sizeof idx,
                       "indices[0, 0] (flat position 0) = 0 is outside [-0, -1] for axis 1 of size 0");
    const clg_oob_policy zeroing[] = {CLG_OOB_ZERO, CLG_OOB_CLAMP};
    for (int k = 0; k < 2; ++k) {
        d.oob_policy = zeroing[k];
        support_expect_zeros(&support_gather_elements, &d, NULL, 0, idx, sizeof idx, 16);
    }
}
END_TEST

START_TEST(verify_mode_passes_and_detects_mismatch)
{
    /* data [4, 6] f32 along axis 1 by indices [3, 5], some out of range under the zero policy */
    float data[24];
    for (int k = 0; k < 24; ++k) data[k] = 0.25f * (float)k - 2;
    const int16_t idx[15] = {0, 5, -6, 6, 2, 1, -1, 3, 4, 0, 5, 5, -7, 2, 3};
    const int64_t ds[] = {4, 6}, is[] = {3, 5};
    clg_gather_elements_desc d = support_elements_desc(CLG_OV_GATHER_ELEMENTS_6, CLG_F32, 2, ds, CLG_I16, is, 1);
    support_expect_verify_mode(&support_gather_elements, &d, data, sizeof data, idx, sizeof idx, 60);
}
END_TEST

START_TEST(zero_sized_output_is_a_noop)
{
    /* indices [2, 0]: an empty output, even with a bad index under the error policy there is none read */
    const int64_t ds[] = {5, 3}, is[] = {2, 0};
    clg_gather_elements_desc d = support_elements_desc(CLG_ONNX_GATHER_ELEMENTS_13, CLG_F32, 2, ds, CLG_I32, is, 0);
    unsigned char *out = support_poisoned(16);
    ck_assert_int_eq(clg_gather_elements(support_cl_context(), &d, data_buf, 60, NULL, 0, out, 0), CLG_SUCCESS);
    ck_assert_int_eq(clg_gather_elements_reference(&d, data_buf, 60, NULL, 0, out, 0), CLG_SUCCESS);
    ck_assert(support_all_poison(out, 16));
    clg_context *ctx = support_cl_context();
    cl_event ev = NULL;
    ck_assert_int_eq(
        clg_gather_elements_enqueue(ctx, &d, clg_context_cl_queue(ctx), NULL, 0, NULL, 0, NULL, 0, 0, NULL, &ev),
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
        "gather_elements_validation", 600,
        SUPPORT_TESTS(null_descriptor, invalid_preset, preset_names_round_trip, invalid_data_type, bf16_needs_onnx13,
                      index_type_must_be_integer, onnx_accepts_i32_i64_indices_only, invalid_policy,
                      data_rank_at_least_one, rank_above_maximum, negative_dimension, indices_rank_must_equal_data_rank,
                      axis_out_of_range, indices_larger_than_data_off_the_axis, size_overflow,
                      zero_sized_overflowing_shape_is_empty_not_overflow, buffers_too_small,
                      indices_offset_must_be_aligned, enqueue_arguments, tensor_above_device_max_allocation,
                      onnx_index_out_of_range_names_first, hostile_index_values_under_error_policy,
                      error_policy_finds_first_bad_among_many, empty_axis_with_indices,
                      verify_mode_passes_and_detects_mismatch, zero_sized_output_is_a_noop));
}
