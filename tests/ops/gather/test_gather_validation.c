/* One test per validation rule of docs/semantics.md (and of the API): each asserts the exact status
 * on every entry point (shape inference, reference, synchronous and enqueue OpenCL paths), that the
 * message names the offending value, and that the output buffer is unchanged. */
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
#define expect_rejected_everywhere(d, want, fragment) support_expect_rejected(&support_gather, d, want, fragment)

static const int64_t s5[] = {5}, s23[] = {2, 3}, s3[] = {3};
static int64_t axis0 = 0;

static clg_gather_desc valid_ov8(void)
{
    return support_ov_desc(CLG_OV_GATHER_8, CLG_I32, 2, s23, CLG_I32, 1, s3, &axis0, 0);
}

START_TEST(null_descriptor)
{
    clg_gather_desc d = valid_ov8();
    support_expect_null_arguments(&support_gather, &d);
}
END_TEST

START_TEST(invalid_preset)
{
    clg_gather_desc d = valid_ov8();
    d.preset = (clg_preset)77;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_PRESET, "preset = 77");
}
END_TEST

START_TEST(invalid_data_type)
{
    clg_gather_desc d = valid_ov8();
    d.data.type = (clg_dtype)99;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_DTYPE, "data type = 99");
}
END_TEST

START_TEST(bf16_needs_onnx13)
{
    clg_gather_desc d = support_onnx_desc(CLG_ONNX_11, CLG_BF16, 1, s5, CLG_I64, 1, s3, 0);
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_DTYPE, "bf16 needs onnx-13");
    d.preset = CLG_ONNX_1;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_DTYPE, "preset is onnx-1");
}
END_TEST

START_TEST(index_type_must_be_integer)
{
    clg_gather_desc d = valid_ov8();
    d.indices.type = CLG_F32;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_INDEX_TYPE, "indices type f32");
}
END_TEST

START_TEST(onnx_accepts_i32_i64_indices_only)
{
    const clg_dtype rejected[] = {CLG_I8, CLG_U8, CLG_I16, CLG_U16, CLG_U32, CLG_U64};
    for (size_t k = 0; k < sizeof rejected / sizeof rejected[0]; ++k) {
        clg_gather_desc d = support_onnx_desc(CLG_ONNX_13, CLG_F32, 1, s5, rejected[k], 1, s3, 0);
        expect_rejected_everywhere(&d, CLG_ERR_INVALID_INDEX_TYPE, "accepts i32 and i64 only");
    }
}
END_TEST

START_TEST(data_rank_at_least_one)
{
    clg_gather_desc d = support_onnx_desc(CLG_ONNX_13, CLG_F32, 0, NULL, CLG_I64, 1, s3, 0);
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_RANK, "data rank 0");
    d = valid_ov8();
    d.data.rank = 0;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_RANK, "data rank 0");
}
END_TEST

START_TEST(rank_above_maximum)
{
    clg_gather_desc d = valid_ov8();
    d.data.rank = CLG_MAX_RANK + 1;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_RANK, "data rank 9");
    d = valid_ov8();
    d.indices.rank = -1;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_RANK, "indices rank -1");
}
END_TEST

START_TEST(negative_dimension)
{
    clg_gather_desc d = valid_ov8();
    d.data.shape[1] = -3;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_DIMENSION, "data.shape[1] = -3");
}
END_TEST

START_TEST(axis_out_of_range_onnx)
{
    clg_gather_desc d = support_onnx_desc(CLG_ONNX_13, CLG_F32, 2, s23, CLG_I64, 1, s3, 2);
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_AXIS, "axis = 2 is outside [-2, 1]");
    d.axis = -3;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_AXIS, "axis = -3");
}
END_TEST

START_TEST(axis_out_of_range_openvino)
{
    int64_t axis = 5;
    clg_gather_desc d = support_ov_desc(CLG_OV_GATHER_1, CLG_F32, 2, s23, CLG_I64, 1, s3, &axis, 0);
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_AXIS, "axis = 5");
    const uint64_t huge = UINT64_MAX;
    d.axis_tensor.type = CLG_U64;
    d.axis_value = &huge;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_AXIS, "axis = 18446744073709551615");
}
END_TEST

START_TEST(axis_tensor_of_every_integer_type)
{
    /* a one-element axis of each integer type is accepted (value 1, as 8 bytes of little-endian 1) */
    const uint64_t one = 1;
    const clg_dtype types[] = {CLG_I8, CLG_U8, CLG_I16, CLG_U16, CLG_I32, CLG_U32, CLG_I64, CLG_U64};
    for (size_t k = 0; k < 8; ++k) {
        clg_gather_desc d = valid_ov8();
        d.axis_tensor.type = types[k];
        d.axis_tensor.rank = 1;
        d.axis_tensor.shape[0] = 1;
        d.axis_value = &one;
        int32_t rank;
        int64_t shape[CLG_MAX_OUTPUT_RANK];
        ck_assert_int_eq(clg_gather_output_shape(&d, &rank, shape), CLG_SUCCESS);
        ck_assert_int_eq(rank, 2);
        ck_assert_int_eq(shape[1], 3);
    }
}
END_TEST

START_TEST(axis_tensor_must_have_one_element)
{
    const int64_t axes[2] = {0, 0};
    clg_gather_desc d = valid_ov8();
    d.axis_value = axes;
    d.axis_tensor.rank = 1;
    d.axis_tensor.shape[0] = 2;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_AXIS_TENSOR, "one element");
    d.axis_tensor.rank = 2;
    d.axis_tensor.shape[0] = 1;
    d.axis_tensor.shape[1] = 1;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_AXIS_TENSOR, "rank 2");
}
END_TEST

START_TEST(axis_tensor_must_be_integer)
{
    clg_gather_desc d = valid_ov8();
    d.axis_tensor.type = CLG_F32;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_AXIS_TENSOR, "axis_tensor type f32");
}
END_TEST

START_TEST(axis_tensor_required_for_openvino)
{
    clg_gather_desc d = valid_ov8();
    d.axis_value = NULL;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_AXIS_TENSOR, "axis_value is NULL");
}
END_TEST

START_TEST(axis_tensor_refused_for_onnx)
{
    clg_gather_desc d = support_onnx_desc(CLG_ONNX_13, CLG_F32, 2, s23, CLG_I64, 1, s3, 0);
    d.axis_tensor.type = CLG_I64;
    d.axis_value = &axis0;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_AXIS_TENSOR, "takes the axis attribute");
}
END_TEST

START_TEST(batch_dims_outside_indices_rank)
{
    int64_t axis = 1;
    clg_gather_desc d = support_ov_desc(CLG_OV_GATHER_8, CLG_F32, 2, s23, CLG_I64, 1, s3, &axis, 2);
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_BATCH_DIMS, "batch_dims = 2 is outside [-1, 1]");
    d.batch_dims = -2;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_BATCH_DIMS, "batch_dims = -2");
}
END_TEST

START_TEST(batch_dims_above_axis)
{
    const int64_t is[] = {2, 3};
    clg_gather_desc d = support_ov_desc(CLG_OV_GATHER_7, CLG_F32, 2, s23, CLG_I64, 2, is, &axis0, 1);
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_BATCH_DIMS, "greater than axis = 0");
    d.batch_dims = -1; /* normalizes to 1 */
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_BATCH_DIMS, "batch_dims = 1 (normalized)");
}
END_TEST

START_TEST(batch_dims_only_for_gather7_and_8)
{
    clg_gather_desc d = support_onnx_desc(CLG_ONNX_13, CLG_F32, 2, s23, CLG_I64, 1, s3, 1);
    d.batch_dims = 1;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_BATCH_DIMS, "preset onnx-13 has no batch_dims");
    int64_t axis = 1;
    d = support_ov_desc(CLG_OV_GATHER_1, CLG_F32, 2, s23, CLG_I64, 1, s3, &axis, 1);
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_BATCH_DIMS, "preset ov-gather-1 has no batch_dims");
}
END_TEST

START_TEST(batch_shapes_must_match)
{
    const int64_t is[] = {3, 2};
    int64_t axis = 1;
    clg_gather_desc d = support_ov_desc(CLG_OV_GATHER_8, CLG_F32, 2, s23, CLG_I64, 2, is, &axis, 1);
    expect_rejected_everywhere(&d, CLG_ERR_BATCH_SHAPE_MISMATCH, "data.shape[0] = 2 differs from indices.shape[0] = 3");
}
END_TEST

START_TEST(invalid_policy)
{
    clg_gather_desc d = valid_ov8();
    d.oob_policy = (clg_oob_policy)9;
    expect_rejected_everywhere(&d, CLG_ERR_INVALID_POLICY, "oob_policy = 9");
}
END_TEST

START_TEST(size_overflow)
{
    const int64_t huge[] = {INT64_MAX, INT64_MAX};
    clg_gather_desc d = support_ov_desc(CLG_OV_GATHER_8, CLG_F32, 2, huge, CLG_I64, 1, s3, &axis0, 0);
    expect_rejected_everywhere(&d, CLG_ERR_SIZE_OVERFLOW, "data size");
    /* the data fits, the output does not: 2^62 indices of 8-byte rows */
    const int64_t data_shape[] = {4, 8}, idx_shape[] = {(int64_t)1 << 31, (int64_t)1 << 31};
    d = support_ov_desc(CLG_OV_GATHER_8, CLG_U8, 2, data_shape, CLG_U8, 2, idx_shape, &axis0, 0);
    expect_rejected_everywhere(&d, CLG_ERR_SIZE_OVERFLOW, "output size");
}
END_TEST

START_TEST(zero_sized_overflowing_shape_is_empty_not_overflow)
{
    const int64_t shape[] = {INT64_MAX, 0, INT64_MAX};
    clg_gather_desc d = support_ov_desc(CLG_OV_GATHER_8, CLG_F32, 3, shape, CLG_I64, 1, s3, &axis0, 0);
    uint64_t out_bytes = 1;
    ck_assert_int_eq(clg_gather_sizes(&d, NULL, NULL, &out_bytes), CLG_SUCCESS);
    ck_assert_int_eq(out_bytes, 0);
}
END_TEST

START_TEST(output_buffer_too_small)
{
    clg_gather_desc d = valid_ov8(); /* output [3, 3] i32 = 36 bytes */
    unsigned char *out = support_poisoned(64);
    ck_assert_int_eq(clg_gather_reference(&d, data_buf, 24, index_buf, 12, out, 35), CLG_ERR_BUFFER_TOO_SMALL);
    ck_assert(strstr(clg_last_error_message(), "output_bytes = 35"));
    ck_assert_int_eq(clg_gather(support_cl_context(), &d, data_buf, 24, index_buf, 12, out, 35),
                     CLG_ERR_BUFFER_TOO_SMALL);
    ck_assert_int_eq(clg_gather(support_cl_context(), &d, data_buf, 23, index_buf, 12, out, 36),
                     CLG_ERR_BUFFER_TOO_SMALL);
    ck_assert(strstr(clg_last_error_message(), "data_bytes = 23"));
    ck_assert(support_all_poison(out, 64));
    free(out);

    /* cl_mem too small for offset + size */
    clg_context *ctx = support_cl_context();
    cl_int err;
    cl_mem data = clCreateBuffer(clg_context_cl_context(ctx), CL_MEM_READ_WRITE, 64, NULL, &err);
    cl_mem small = clCreateBuffer(clg_context_cl_context(ctx), CL_MEM_READ_WRITE, 40, NULL, &err);
    ck_assert_int_eq(clg_gather_enqueue(ctx, &d, clg_context_cl_queue(ctx), data, 0, data, 0, small, 8, 0, NULL, NULL),
                     CLG_ERR_BUFFER_TOO_SMALL);
    ck_assert(strstr(clg_last_error_message(), "output: cl_mem of 40 bytes at offset 8"));
    ck_assert_int_eq(clg_gather_enqueue(ctx, &d, clg_context_cl_queue(ctx), data, 48, data, 0, data, 0, 0, NULL, NULL),
                     CLG_ERR_BUFFER_TOO_SMALL);
    clReleaseMemObject(data);
    clReleaseMemObject(small);
}
END_TEST

START_TEST(indices_offset_must_be_aligned)
{
    clg_gather_desc d = valid_ov8();
    clg_context *ctx = support_cl_context();
    cl_int err;
    cl_mem buf = clCreateBuffer(clg_context_cl_context(ctx), CL_MEM_READ_WRITE, 256, NULL, &err);
    ck_assert_int_eq(clg_gather_enqueue(ctx, &d, clg_context_cl_queue(ctx), buf, 0, buf, 2, buf, 128, 0, NULL, NULL),
                     CLG_ERR_MISALIGNED_OFFSET);
    ck_assert(strstr(clg_last_error_message(), "indices_offset = 2"));
    clReleaseMemObject(buf);
}
END_TEST

START_TEST(wait_list_null_with_events)
{
    clg_gather_desc d = valid_ov8();
    clg_context *ctx = support_cl_context();
    ck_assert_int_eq(clg_gather_enqueue(ctx, &d, clg_context_cl_queue(ctx), NULL, 0, NULL, 0, NULL, 0, 2, NULL, NULL),
                     CLG_ERR_NULL_ARGUMENT);
    ck_assert(strstr(clg_last_error_message(), "num_events is 2"));
}
END_TEST

START_TEST(enqueue_needs_opencl)
{
    clg_gather_desc d = valid_ov8();
    ck_assert_int_eq(
        clg_gather_enqueue(support_reference_context(), &d, NULL, NULL, 0, NULL, 0, NULL, 0, 0, NULL, NULL),
        CLG_ERR_NO_OPENCL);
}
END_TEST

START_TEST(unknown_device_spec)
{
    clg_context *ctx = NULL;
    ck_assert_int_eq(clg_context_create_default("no-such-device-name", 0, &ctx), CLG_ERR_NO_DEVICE);
    ck_assert(strstr(clg_last_error_message(), "no-such-device-name"));
    ck_assert_ptr_null(ctx);
    ck_assert_int_eq(clg_context_create_default("9999", 0, &ctx), CLG_ERR_NO_DEVICE);
    ck_assert(strstr(clg_last_error_message(), "9999"));
}
END_TEST

START_TEST(tensor_above_device_max_allocation)
{
    clg_device_info info;
    clg_context_device_info(support_cl_context(), &info);
    const uint64_t rows = info.max_alloc_bytes / 16 + 1; /* rows of 16 bytes: one row past the limit */
    const int64_t ds[] = {(int64_t)rows, 16}, is[] = {1};
    clg_gather_desc d = support_ov_desc(CLG_OV_GATHER_8, CLG_U8, 2, ds, CLG_I32, 1, is, &axis0, 0);
    /* reserve address space only: the library must refuse before it reads a byte */
    size_t bytes = (size_t)(rows * 16);
    void *data = mmap(NULL, bytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    ck_assert_ptr_ne(data, MAP_FAILED);
    unsigned char *out = support_poisoned(16);
    ck_assert_int_eq(clg_gather(support_cl_context(), &d, data, bytes, index_buf, 4, out, 16),
                     CLG_ERR_TOO_LARGE_FOR_DEVICE);
    ck_assert(strstr(clg_last_error_message(), "max allocation"));
    ck_assert(support_all_poison(out, 16));
    free(out);
    munmap(data, bytes);
}
END_TEST

/* ---- the error policy: name the first bad index, write nothing ---- */

/* The data every error-policy test below reads. */
static const int32_t error_data[6] = {1, 2, 3, 4, 5, 6};

/* Every entry point fails on idx under the error policy, naming the fragment, writing nothing. */
#define expect_index_error(d, idx, idx_bytes, fragment) \
    support_expect_index_error(&support_gather, d, error_data, sizeof error_data, idx, idx_bytes, 256, fragment)

START_TEST(onnx_index_out_of_range_names_first)
{
    const int64_t ds[] = {6}, is[] = {2, 3};
    const int64_t idx[] = {0, -6, 5, 6, -7, 9};
    for (int p = 0; p < 3; ++p) {
        const clg_preset presets[] = {CLG_ONNX_1, CLG_ONNX_11, CLG_ONNX_13};
        clg_gather_desc d = support_onnx_desc(presets[p], CLG_I32, 1, ds, CLG_I64, 2, is, 0);
        expect_index_error(&d, idx, sizeof idx, "indices[1, 0] (flat position 3) = 6 is outside [-6, 5]");
    }
}
END_TEST

START_TEST(hostile_index_values_under_error_policy)
{
    const int64_t ds[] = {6}, is[] = {1};
    clg_gather_desc d = support_onnx_desc(CLG_ONNX_13, CLG_I32, 1, ds, CLG_I64, 1, is, 0);
    const int64_t lo = INT64_MIN, hi = INT64_MAX;
    expect_index_error(&d, &lo, 8, "= -9223372036854775808 is outside");
    expect_index_error(&d, &hi, 8, "= 9223372036854775807 is outside");
    const uint64_t umax = UINT64_MAX;
    clg_gather_desc u = support_ov_desc(CLG_OV_GATHER_8, CLG_I32, 1, ds, CLG_U64, 1, is, &axis0, 0);
    u.oob_policy = CLG_OOB_ERROR;
    expect_index_error(&u, &umax, 8, "= 18446744073709551615 is outside");
}
END_TEST

START_TEST(error_policy_finds_first_bad_among_many)
{
    /* many indices, so the device check spans several chunks; the bad ones sit late and out of order */
    enum { COUNT = 100000 };
    static int32_t idx[COUNT];
    for (int k = 0; k < COUNT; ++k) idx[k] = k % 6;
    idx[70001] = -7;
    idx[99999] = 6;
    const int64_t ds[] = {6}, is[] = {COUNT};
    clg_gather_desc d = support_onnx_desc(CLG_ONNX_13, CLG_I32, 1, ds, CLG_I32, 1, is, 0);
    const int32_t data[6] = {0};
    size_t out_bytes = COUNT * 4;
    support_expect_index_error(&support_gather, &d, data, sizeof data, idx, sizeof idx, out_bytes,
                               "indices[70001] (flat position 70001) = -7");
}
END_TEST

START_TEST(empty_axis_with_indices)
{
    /* A == 0: every index is out of range; error policy fails, zero policy writes zeros */
    const int64_t ds[] = {0, 2}, is[] = {2};
    const int32_t idx[] = {0, -1};
    clg_gather_desc d = support_onnx_desc(CLG_ONNX_13, CLG_F32, 2, ds, CLG_I32, 1, is, 0);
    expect_index_error(&d, idx, sizeof idx, "indices[0] (flat position 0) = 0 is outside [-0, -1]");
    const clg_oob_policy zeroing[] = {CLG_OOB_ZERO, CLG_OOB_CLAMP};
    for (int k = 0; k < 2; ++k) {
        d.oob_policy = zeroing[k];
        support_expect_zeros(&support_gather, &d, NULL, 0, idx, sizeof idx, 16);
    }
}
END_TEST

START_TEST(zero_sized_output_is_a_noop)
{
    /* zero-sized output: success, nothing written, even with an out-of-range index under error */
    const int64_t ds[] = {5, 0}, is[] = {2};
    const int32_t idx[] = {7, 1};
    clg_gather_desc d = support_onnx_desc(CLG_ONNX_13, CLG_F32, 2, ds, CLG_I32, 1, is, 0);
    unsigned char *out = support_poisoned(16);
    ck_assert_int_eq(clg_gather(support_cl_context(), &d, NULL, 0, idx, sizeof idx, out, 0), CLG_SUCCESS);
    ck_assert_int_eq(clg_gather_reference(&d, NULL, 0, idx, sizeof idx, out, 0), CLG_SUCCESS);
    ck_assert(support_all_poison(out, 16));
    /* enqueue: a marker event is returned */
    clg_context *ctx = support_cl_context();
    cl_event ev = NULL;
    ck_assert_int_eq(clg_gather_enqueue(ctx, &d, clg_context_cl_queue(ctx), NULL, 0, NULL, 0, NULL, 0, 0, NULL, &ev),
                     CLG_SUCCESS);
    ck_assert_ptr_nonnull(ev);
    ck_assert_int_eq(clWaitForEvents(1, &ev), CL_SUCCESS);
    clReleaseEvent(ev);
    free(out);
}
END_TEST

START_TEST(status_strings_are_distinct)
{
    for (clg_status s = CLG_STATUS_LAST; s >= CLG_STATUS_FIRST; --s) {
        const char *name = clg_status_string(s);
        if (strcmp(name, "unknown status") == 0) continue;
        ck_assert_msg(strncmp(name, "CLG_ERR_", 8) == 0, "%d -> %s", (int)s, name);
        for (clg_status t = s - 1; t >= CLG_STATUS_FIRST; --t) ck_assert_str_ne(name, clg_status_string(t));
    }
    ck_assert_str_eq(clg_status_string(CLG_SUCCESS), "CLG_SUCCESS");
    ck_assert_str_eq(clg_status_string(CL_OUT_OF_RESOURCES), "CL_OUT_OF_RESOURCES");
    ck_assert_str_eq(clg_status_string(12345), "unknown status");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("validation");
    TCase *tc = tcase_create("rules");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, null_descriptor);
    tcase_add_test(tc, invalid_preset);
    tcase_add_test(tc, invalid_data_type);
    tcase_add_test(tc, bf16_needs_onnx13);
    tcase_add_test(tc, index_type_must_be_integer);
    tcase_add_test(tc, onnx_accepts_i32_i64_indices_only);
    tcase_add_test(tc, data_rank_at_least_one);
    tcase_add_test(tc, rank_above_maximum);
    tcase_add_test(tc, negative_dimension);
    tcase_add_test(tc, axis_out_of_range_onnx);
    tcase_add_test(tc, axis_out_of_range_openvino);
    tcase_add_test(tc, axis_tensor_of_every_integer_type);
    tcase_add_test(tc, axis_tensor_must_have_one_element);
    tcase_add_test(tc, axis_tensor_must_be_integer);
    tcase_add_test(tc, axis_tensor_required_for_openvino);
    tcase_add_test(tc, axis_tensor_refused_for_onnx);
    tcase_add_test(tc, batch_dims_outside_indices_rank);
    tcase_add_test(tc, batch_dims_above_axis);
    tcase_add_test(tc, batch_dims_only_for_gather7_and_8);
    tcase_add_test(tc, batch_shapes_must_match);
    tcase_add_test(tc, invalid_policy);
    tcase_add_test(tc, size_overflow);
    tcase_add_test(tc, zero_sized_overflowing_shape_is_empty_not_overflow);
    tcase_add_test(tc, output_buffer_too_small);
    tcase_add_test(tc, indices_offset_must_be_aligned);
    tcase_add_test(tc, wait_list_null_with_events);
    tcase_add_test(tc, enqueue_needs_opencl);
    tcase_add_test(tc, unknown_device_spec);
    tcase_add_test(tc, tensor_above_device_max_allocation);
    tcase_add_test(tc, onnx_index_out_of_range_names_first);
    tcase_add_test(tc, hostile_index_values_under_error_policy);
    tcase_add_test(tc, error_policy_finds_first_bad_among_many);
    tcase_add_test(tc, empty_axis_with_indices);
    tcase_add_test(tc, zero_sized_output_is_a_noop);
    tcase_add_test(tc, status_strings_are_distinct);
    suite_add_tcase(s, tc);
    return support_run_suite(s);
}
