/* Every refusal of EmbeddingBag: each descriptor rule in its validation order (status, a message naming
 * the argument and the value, output untouched), and every bad value the checks find on the device and
 * on the host: hostile indices (INT64_MIN, INT64_MAX, unsigned maxima, -1, N), offsets that decrease,
 * leave [0, L] or (torch) do not start at 0, segment ids out of range or unsorted; the first bad value
 * in the documented order is the one named, through every entry point, deferred calls included. */
#include "bag_support.h"
#include "testing/testing.h"

#include <stdlib.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static float table[5 * 2];

/* A valid torch offsets case over a [5, 2] f32 table, 4 i64 indices and 2 offsets. */
static clg_embedding_bag_desc torch_desc(void)
{
    clg_embedding_bag_desc d = {.preset = CLG_TORCH_EMBEDDING_BAG, .bag_form = CLG_BAG_OFFSETS};
    d.table = bag_tensor(CLG_F32, 2, 5, 2);
    d.indices = bag_tensor(CLG_I64, 1, 4, 0);
    d.offsets = bag_tensor(CLG_I64, 1, 2, 0);
    return d;
}

static clg_embedding_bag_desc ov_desc(clg_embedding_bag_preset preset, clg_bag_form form)
{
    clg_embedding_bag_desc d = torch_desc();
    d.preset = preset;
    d.bag_form = form;
    d.indices.type = CLG_I32;
    if (form != CLG_BAG_OFFSETS) d.offsets = (clg_tensor_desc){0};
    if (form == CLG_BAG_PACKED) d.indices = bag_tensor(CLG_I32, 2, 2, 2);
    if (form == CLG_BAG_SEGMENTS) {
        d.segment_ids = bag_tensor(CLG_I32, 1, 4, 0);
        d.num_segments = 3;
    }
    return d;
}

START_TEST(null_descriptor_and_choices)
{
    bag_expect_refused(NULL, CLG_ERR_NULL_ARGUMENT, "desc is NULL");
    clg_embedding_bag_desc d = torch_desc();
    d.preset = CLG_EMBEDDING_BAG_PRESET_INVALID;
    bag_expect_refused(&d, CLG_ERR_INVALID_PRESET, "preset = 0");
    d.preset = CLG_EMBEDDING_BAG_PRESET_COUNT;
    bag_expect_refused(&d, CLG_ERR_INVALID_PRESET, "is not a clg_embedding_bag_preset");
    d = ov_desc(CLG_OV_EMBEDDING_BAG_OFFSETS_3, CLG_BAG_OFFSETS);
    d.bag_form = CLG_BAG_PACKED; /* checked before anything else of the form */
    bag_expect_refused(&d, CLG_ERR_INVALID_BAG_FORM, "bag_form = 2: preset ov-embedding-bag-offsets-3 takes offsets");
    d = torch_desc();
    d.bag_form = CLG_BAG_SEGMENTS;
    bag_expect_refused(&d, CLG_ERR_INVALID_BAG_FORM, "bag_form = 3");
    d.bag_form = CLG_BAG_FORM_INVALID;
    bag_expect_refused(&d, CLG_ERR_INVALID_BAG_FORM, "bag_form = 0");
    /* modes: each preset's own */
    d = ov_desc(CLG_OV_EMBEDDING_BAG_OFFSETS_3, CLG_BAG_OFFSETS);
    d.mode = CLG_BAG_MEAN;
    bag_expect_refused(&d, CLG_ERR_INVALID_MODE, "mode = 1 (mean): preset ov-embedding-bag-offsets-3 allows sum");
    d = ov_desc(CLG_OV_EMBEDDING_BAG_PACKED_15, CLG_BAG_PACKED);
    d.mode = CLG_BAG_MAX;
    bag_expect_refused(&d, CLG_ERR_INVALID_MODE,
                       "mode = 2 (max): preset ov-embedding-bag-packed-15 allows sum or mean");
    d = ov_desc(CLG_OV_EMBEDDING_SEGMENTS_SUM_3, CLG_BAG_SEGMENTS);
    d.mode = CLG_BAG_MEAN;
    bag_expect_refused(&d, CLG_ERR_INVALID_MODE, "mode = 1");
    d = torch_desc();
    d.mode = CLG_BAG_MODE_COUNT;
    bag_expect_refused(&d, CLG_ERR_INVALID_MODE, "mode = 3 (invalid)");
}
END_TEST

START_TEST(types_and_inputs)
{
    clg_embedding_bag_desc d = torch_desc();
    d.table.type = CLG_I32;
    bag_expect_refused(&d, CLG_ERR_INVALID_DTYPE, "table type i32 is not f32, f16, bf16 or f64");
    d = torch_desc();
    d.indices.type = CLG_F32;
    bag_expect_refused(&d, CLG_ERR_INVALID_INDEX_TYPE, "indices type f32");
    d = torch_desc();
    d.offsets = (clg_tensor_desc){0};
    bag_expect_refused(&d, CLG_ERR_INPUT_MISSING, "offsets is absent: the offsets form needs it");
    d = torch_desc();
    d.offsets.type = CLG_F16;
    bag_expect_refused(&d, CLG_ERR_INVALID_INDEX_TYPE, "offsets type f16");
    d = torch_desc();
    d.segment_ids = bag_tensor(CLG_I32, 1, 4, 0);
    bag_expect_refused(&d, CLG_ERR_INPUT_NOT_ALLOWED, "segment_ids is given (type i32)");
    d = ov_desc(CLG_OV_EMBEDDING_SEGMENTS_SUM_3, CLG_BAG_SEGMENTS);
    d.segment_ids = (clg_tensor_desc){0};
    bag_expect_refused(&d, CLG_ERR_INPUT_MISSING, "segment_ids is absent");
    d = ov_desc(CLG_OV_EMBEDDING_BAG_PACKED_3, CLG_BAG_PACKED);
    d.offsets = bag_tensor(CLG_I32, 1, 2, 0);
    bag_expect_refused(&d, CLG_ERR_INPUT_NOT_ALLOWED, "offsets is given");
    /* weights: sum only, the table's type */
    d = torch_desc();
    d.mode = CLG_BAG_MAX;
    d.per_sample_weights = bag_tensor(CLG_F32, 1, 4, 0);
    bag_expect_refused(&d, CLG_ERR_INVALID_MODE, "per_sample_weights are given with mode max");
    d = torch_desc();
    d.per_sample_weights = bag_tensor(CLG_F16, 1, 4, 0);
    bag_expect_refused(&d, CLG_ERR_TYPE_MISMATCH, "per_sample_weights type f16 differs from the table's f32");
}
END_TEST

START_TEST(attributes_of_other_presets)
{
    clg_embedding_bag_desc d = ov_desc(CLG_OV_EMBEDDING_BAG_OFFSETS_15, CLG_BAG_OFFSETS);
    d.include_last_offset = 1;
    bag_expect_refused(&d, CLG_ERR_INPUT_NOT_ALLOWED, "include_last_offset = 1");
    d = torch_desc();
    d.bag_form = CLG_BAG_PACKED;
    d.offsets = (clg_tensor_desc){0};
    d.indices = bag_tensor(CLG_I64, 2, 2, 2);
    d.include_last_offset = 1;
    bag_expect_refused(&d, CLG_ERR_INPUT_NOT_ALLOWED, "include_last_offset");
    d = torch_desc();
    d.has_default_index = 1;
    bag_expect_refused(&d, CLG_ERR_INPUT_NOT_ALLOWED, "default_index is given: preset torch-embedding-bag");
    d = ov_desc(CLG_OV_EMBEDDING_BAG_PACKED_3, CLG_BAG_PACKED);
    d.has_padding_idx = 1;
    bag_expect_refused(&d, CLG_ERR_INPUT_NOT_ALLOWED, "padding_idx is given: preset ov-embedding-bag-packed-3");
    d = torch_desc();
    d.num_segments = 2;
    bag_expect_refused(&d, CLG_ERR_INPUT_NOT_ALLOWED, "num_segments = 2");
    d = ov_desc(CLG_OV_EMBEDDING_SEGMENTS_SUM_3, CLG_BAG_SEGMENTS);
    d.num_segments = -1;
    bag_expect_refused(&d, CLG_ERR_INVALID_DIMENSION, "num_segments = -1 is negative");
}
END_TEST

START_TEST(shapes_and_rows)
{
    clg_embedding_bag_desc d = torch_desc();
    d.indices = bag_tensor(CLG_I64, 2, 2, 2);
    bag_expect_refused(&d, CLG_ERR_INVALID_RANK, "indices rank 2: this form needs rank 1");
    d = ov_desc(CLG_OV_EMBEDDING_BAG_PACKED_15, CLG_BAG_PACKED);
    d.indices = bag_tensor(CLG_I32, 1, 4, 0);
    bag_expect_refused(&d, CLG_ERR_INVALID_RANK, "indices rank 1: this form needs rank 2");
    d = torch_desc();
    d.table.rank = 0;
    bag_expect_refused(&d, CLG_ERR_INVALID_RANK, "table rank 0");
    d = torch_desc();
    d.table.shape[1] = -2;
    bag_expect_refused(&d, CLG_ERR_INVALID_DIMENSION, "table.shape[1] = -2 is negative");
    d = ov_desc(CLG_OV_EMBEDDING_SEGMENTS_SUM_3, CLG_BAG_SEGMENTS);
    d.segment_ids.shape[0] = 3;
    bag_expect_refused(&d, CLG_ERR_SHAPE_MISMATCH, "segment_ids.shape[0] = 3 differs from indices.shape[0] = 4");
    d = torch_desc();
    d.per_sample_weights = bag_tensor(CLG_F32, 1, 3, 0);
    bag_expect_refused(&d, CLG_ERR_SHAPE_MISMATCH, "per_sample_weights (rank 1) must have the indices' shape");
    d = torch_desc();
    d.include_last_offset = 1;
    d.offsets.shape[0] = 0;
    bag_expect_refused(&d, CLG_ERR_SHAPE_MISMATCH, "offsets.shape[0] = 0: include_last_offset");
    d = ov_desc(CLG_OV_EMBEDDING_BAG_OFFSETS_3, CLG_BAG_OFFSETS);
    d.has_default_index = 1;
    d.default_index = 5;
    bag_expect_refused(&d, CLG_ERR_INDEX_OUT_OF_RANGE, "default_index = 5 is outside [0, 5)");
    d = torch_desc();
    d.has_padding_idx = 1;
    d.padding_idx = 5;
    bag_expect_refused(&d, CLG_ERR_INDEX_OUT_OF_RANGE, "padding_idx = 5 is outside [-5, 5)");
    d.padding_idx = -6;
    bag_expect_refused(&d, CLG_ERR_INDEX_OUT_OF_RANGE, "padding_idx = -6");
    d = torch_desc();
    d.table.shape[0] = INT64_MAX;
    d.table.shape[1] = 4;
    bag_expect_refused(&d, CLG_ERR_SIZE_OVERFLOW, "overflows 64 bits");
}
END_TEST

/* A torch offsets case with these indices and offsets (i64), expected to fail with want. */
static void expect_values_refused(const clg_embedding_bag_desc *d, const void *indices, size_t index_bytes,
                                  const void *bags, size_t bags_bytes, clg_status want, const char *fragment)
{
    for (int k = 0; k < 10; ++k) table[k] = (float)k;
    bag_case c = {.desc = *d,
                  .table = table,
                  .indices = indices,
                  .index_bytes = index_bytes,
                  .bags = bags,
                  .bags_bytes = bags_bytes};
    c.table_bytes = sizeof table;
    uint64_t out = 0;
    ck_assert_int_eq(clg_embedding_bag_sizes(d, NULL, NULL, NULL, NULL, &out), CLG_SUCCESS);
    c.out_bytes = out;
    bag_check_all_paths(&c, NULL, want, fragment, fragment);
}

START_TEST(hostile_indices)
{
    const clg_embedding_bag_desc d = torch_desc();
    const int64_t offsets[] = {0, 2};
    const int64_t values[] = {INT64_MIN, INT64_MAX, -1, 5};
    const char *const named[] = {"indices[2] = -9223372036854775808 is outside [0, 5) (table.shape[0])",
                                 "indices[2] = 9223372036854775807", "indices[2] = -1", "indices[2] = 5"};
    for (int k = 0; k < 4; ++k) {
        const int64_t indices[] = {0, 1, values[k], 3};
        expect_values_refused(&d, indices, sizeof indices, offsets, sizeof offsets, CLG_ERR_INDEX_OUT_OF_RANGE,
                              named[k]);
    }
    /* unsigned maxima, narrow signed minima */
    clg_embedding_bag_desc u = d;
    u.indices.type = CLG_U64;
    const uint64_t big[] = {0, UINT64_MAX, 1, 2};
    expect_values_refused(&u, big, sizeof big, offsets, sizeof offsets, CLG_ERR_INDEX_OUT_OF_RANGE,
                          "indices[1] = 18446744073709551615");
    u.indices.type = CLG_I8;
    const int8_t small[] = {0, 1, 2, -128};
    expect_values_refused(&u, small, sizeof small, offsets, sizeof offsets, CLG_ERR_INDEX_OUT_OF_RANGE,
                          "indices[3] = -128");
    u.indices.type = CLG_U16;
    const uint16_t wide[] = {65535, 0, 1, 2};
    expect_values_refused(&u, wide, sizeof wide, offsets, sizeof offsets, CLG_ERR_INDEX_OUT_OF_RANGE,
                          "indices[0] = 65535");
}
END_TEST

START_TEST(packed_index_named_by_bag_and_place)
{
    const clg_embedding_bag_desc d = ov_desc(CLG_OV_EMBEDDING_BAG_PACKED_3, CLG_BAG_PACKED);
    const int32_t indices[] = {0, 1, 7, 2}; /* [[0, 1], [7, 2]] */
    expect_values_refused(&d, indices, sizeof indices, NULL, 0, CLG_ERR_INDEX_OUT_OF_RANGE,
                          "indices[1, 0] = 7 is outside [0, 5)");
}
END_TEST

START_TEST(bad_offsets)
{
    clg_embedding_bag_desc d = torch_desc();
    d.offsets.shape[0] = 3;
    const int64_t indices[] = {0, 1, 2, 3};
    const int64_t decreasing[] = {0, 3, 2};
    expect_values_refused(&d, indices, sizeof indices, decreasing, sizeof decreasing, CLG_ERR_INVALID_OFFSETS,
                          "offsets[2] = 2 is less than offsets[1] = 3: they must not decrease");
    const int64_t past_end[] = {0, 2, 5};
    expect_values_refused(&d, indices, sizeof indices, past_end, sizeof past_end, CLG_ERR_INVALID_OFFSETS,
                          "offsets[2] = 5 is outside [0, 4] (the number of indices)");
    const int64_t hostile[] = {0, INT64_MIN, INT64_MAX};
    expect_values_refused(&d, indices, sizeof indices, hostile, sizeof hostile, CLG_ERR_INVALID_OFFSETS,
                          "offsets[1] = -9223372036854775808 is outside [0, 4]");
    const int64_t not_zero[] = {1, 2, 3};
    expect_values_refused(&d, indices, sizeof indices, not_zero, sizeof not_zero, CLG_ERR_INVALID_OFFSETS,
                          "offsets[0] = 1: preset torch-embedding-bag needs the first offset to be 0");
    /* OpenVINO does not ask offsets[0] to be 0: its first bag then starts later */
    clg_embedding_bag_desc ov = ov_desc(CLG_OV_EMBEDDING_BAG_OFFSETS_15, CLG_BAG_OFFSETS);
    ov.indices.type = CLG_I64;
    ov.offsets = bag_tensor(CLG_U64, 1, 2, 0);
    const uint64_t huge[] = {1, UINT64_MAX};
    expect_values_refused(&ov, indices, sizeof indices, huge, sizeof huge, CLG_ERR_INVALID_OFFSETS,
                          "offsets[1] = 18446744073709551615 is outside [0, 4]");
    /* the bag structure is checked before the indices */
    const int64_t bad_indices[] = {9, 1, 2, 3};
    expect_values_refused(&d, bad_indices, sizeof bad_indices, decreasing, sizeof decreasing, CLG_ERR_INVALID_OFFSETS,
                          "offsets[2] = 2");
}
END_TEST

START_TEST(bad_segment_ids)
{
    clg_embedding_bag_desc d = ov_desc(CLG_OV_EMBEDDING_SEGMENTS_SUM_3, CLG_BAG_SEGMENTS);
    const int32_t indices[] = {0, 1, 2, 3};
    const int32_t unsorted[] = {0, 2, 1, 2};
    expect_values_refused(&d, indices, sizeof indices, unsorted, sizeof unsorted, CLG_ERR_INVALID_SEGMENT_IDS,
                          "segment_ids[2] = 1 is less than segment_ids[1] = 2: they must not decrease");
    const int32_t too_large[] = {0, 1, 2, 3};
    expect_values_refused(&d, indices, sizeof indices, too_large, sizeof too_large, CLG_ERR_INVALID_SEGMENT_IDS,
                          "segment_ids[3] = 3 is outside [0, 3) (num_segments)");
    const int32_t negative[] = {-1, 0, 0, 0};
    expect_values_refused(&d, indices, sizeof indices, negative, sizeof negative, CLG_ERR_INVALID_SEGMENT_IDS,
                          "segment_ids[0] = -1");
}
END_TEST

/* Many chunks of positions: the first bad value of several is named, whichever work-item finds one. */
START_TEST(first_of_many_bad_values)
{
    enum { L = 20000 };
    clg_embedding_bag_desc d = torch_desc();
    d.indices.shape[0] = L;
    int64_t *indices = calloc(L, sizeof *indices);
    ck_assert_ptr_nonnull(indices);
    indices[19999] = -3;
    indices[12345] = 77;
    indices[15000] = 5;
    const int64_t offsets[] = {0, 10};
    expect_values_refused(&d, indices, L * sizeof *indices, offsets, sizeof offsets, CLG_ERR_INDEX_OUT_OF_RANGE,
                          "indices[12345] = 77");
    free(indices);
}
END_TEST

/* Long bag structures of the common types, which the host screens in one pass before any judge: the
 * first bad value far into them is named, and a decrease between two valid values is found. */
START_TEST(first_bad_of_long_bag_structures)
{
    enum { B = 5000, L = 20000 };
    int64_t *indices = calloc(L, sizeof *indices);
    void *offsets = malloc(B * sizeof(int64_t));
    ck_assert(indices && offsets);
    clg_embedding_bag_desc d = torch_desc();
    d.indices.shape[0] = L;
    d.offsets.shape[0] = B;
    const clg_dtype types[] = {CLG_I64, CLG_I32};
    for (int type = 0; type < 2; ++type) {
        d.offsets.type = types[type];
        const size_t bytes = B * clg_dtype_size(types[type]);
        for (int k = 0; k < B; ++k) support_store_int(offsets, types[type], k, 4 * k);
        support_store_int(offsets, types[type], 3001, 4 * 3000 - 1); /* below offsets[3000], every value in range */
        expect_values_refused(&d, indices, L * sizeof *indices, offsets, bytes, CLG_ERR_INVALID_OFFSETS,
                              "offsets[3001] = 11999 is less than offsets[3000] = 12000");
        /* and a later value out of range: the first failure is named */
        support_store_int(offsets, types[type], 4000, L + 1);
        expect_values_refused(&d, indices, L * sizeof *indices, offsets, bytes, CLG_ERR_INVALID_OFFSETS,
                              "offsets[3001] = 11999 is less than offsets[3000] = 12000");
        support_store_int(offsets, types[type], 3001, 4 * 3001);
        expect_values_refused(&d, indices, L * sizeof *indices, offsets, bytes, CLG_ERR_INVALID_OFFSETS,
                              "offsets[4000] = 20001 is outside [0, 20000]");
        support_store_int(offsets, types[type], 4000, -1);
        expect_values_refused(&d, indices, L * sizeof *indices, offsets, bytes, CLG_ERR_INVALID_OFFSETS,
                              "offsets[4000] = -1 is outside [0, 20000]");
        support_store_int(offsets, types[type], 4000, 4 * 4000);
        indices[L - 1] = 5; /* the structure valid: the indices are checked, the last one named */
        expect_values_refused(&d, indices, L * sizeof *indices, offsets, bytes, CLG_ERR_INDEX_OUT_OF_RANGE,
                              "indices[19999] = 5");
        indices[L - 1] = 0;
    }
    /* segment ids: sorted, the last one past num_segments */
    clg_embedding_bag_desc seg = ov_desc(CLG_OV_EMBEDDING_SEGMENTS_SUM_3, CLG_BAG_SEGMENTS);
    seg.indices = bag_tensor(CLG_I64, 1, L, 0);
    seg.segment_ids = bag_tensor(CLG_I64, 1, L, 0);
    seg.num_segments = B;
    int64_t *ids = malloc(L * sizeof *ids);
    ck_assert_ptr_nonnull(ids);
    for (int k = 0; k < L; ++k) ids[k] = k / 4;
    ids[L - 1] = B;
    expect_values_refused(&seg, indices, L * sizeof *indices, ids, L * sizeof *ids, CLG_ERR_INVALID_SEGMENT_IDS,
                          "segment_ids[19999] = 5000 is outside [0, 5000) (num_segments)");
    free(ids);
    free(offsets);
    free(indices);
}
END_TEST

START_TEST(buffers)
{
    const clg_embedding_bag_desc d = torch_desc();
    const int64_t indices[] = {0, 1, 2, 3}, offsets[] = {0, 2};
    float out[4];
    clg_status st = clg_embedding_bag(support_cl_context(), &d, table, sizeof table - 1, indices, sizeof indices,
                                      offsets, sizeof offsets, NULL, 0, out, sizeof out);
    ck_assert_int_eq(st, CLG_ERR_BUFFER_TOO_SMALL);
    ck_assert_msg(strstr(clg_last_error_message(), "table_bytes = 39"), "%s", clg_last_error_message());
    st = clg_embedding_bag_reference(&d, table, sizeof table, indices, sizeof indices, NULL, 0, NULL, 0, out,
                                     sizeof out);
    ck_assert_int_eq(st, CLG_ERR_BUFFER_TOO_SMALL);
    ck_assert_msg(strstr(clg_last_error_message(), "offsets_bytes = 0"), "%s", clg_last_error_message());
    st = clg_embedding_bag(NULL, &d, table, sizeof table, indices, sizeof indices, offsets, sizeof offsets, NULL, 0,
                           out, sizeof out);
    ck_assert_int_eq(st, CLG_ERR_NULL_ARGUMENT);
    /* a misaligned offset of an index buffer on the enqueue call */
    clg_context *ctx = support_cl_context();
    cl_int err;
    cl_mem mem = clCreateBuffer(clg_context_cl_context(ctx), CL_MEM_READ_WRITE, 256, NULL, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    st = clg_embedding_bag_enqueue(ctx, &d, clg_context_cl_queue(ctx), mem, 0, mem, 4, mem, 0, NULL, 0, mem, 128, 0,
                                   NULL, NULL);
    ck_assert_int_eq(st, CLG_ERR_MISALIGNED_OFFSET);
    ck_assert_msg(strstr(clg_last_error_message(), "indices"), "%s", clg_last_error_message());
    clReleaseMemObject(mem);
}
END_TEST

/* Verify mode: the synchronous and the enqueue calls succeed with the reference's output; with one bit of
 * the device's result flipped on its way back they fail with CLG_ERR_VERIFY_MISMATCH and write nothing. */
START_TEST(verify_mode)
{
    for (int k = 0; k < 10; ++k) table[k] = (float)k / 4;
    const int64_t indices[] = {0, 4, 2, 3}, offsets[] = {0, 1};
    bag_case c = {.desc = torch_desc(),
                  .table = table,
                  .table_bytes = sizeof table,
                  .indices = indices,
                  .index_bytes = sizeof indices,
                  .bags = offsets,
                  .bags_bytes = sizeof offsets,
                  .out_bytes = 16};
    c.desc.mode = CLG_BAG_MEAN;
    unsigned char want[16], got[16], region[16 + 2 * BAG_GUARD];
    ck_assert_int_eq(clg_embedding_bag_reference(&c.desc, table, sizeof table, indices, sizeof indices, offsets,
                                                 sizeof offsets, NULL, 0, want, sizeof want),
                     CLG_SUCCESS);
    clg_context *ctx = NULL;
    ck_assert_int_eq(clg_context_create_default(NULL, CLG_CONTEXT_VERIFY, &ctx), CLG_SUCCESS);
    for (int corrupt = 0; corrupt <= 1; ++corrupt) {
        clg_testing_corrupt_verify_readback(ctx, corrupt);
        const clg_status expected = corrupt ? CLG_ERR_VERIFY_MISMATCH : CLG_SUCCESS;
        memset(got, POISON_BYTE, sizeof got);
        ck_assert_int_eq(clg_embedding_bag(ctx, &c.desc, table, sizeof table, indices, sizeof indices, offsets,
                                           sizeof offsets, NULL, 0, got, sizeof got),
                         expected);
        ck_assert_int_eq(bag_enqueue(ctx, &c, region, 0), expected);
        if (corrupt) {
            ck_assert_msg(strstr(clg_last_error_message(), "on the device but"), "%s", clg_last_error_message());
            ck_assert(support_all_poison(got, sizeof got));
            ck_assert(support_all_poison(region, sizeof region));
        } else {
            ck_assert_mem_eq(got, want, sizeof want);
            ck_assert_mem_eq(region + BAG_GUARD, want, sizeof want);
        }
    }
    clg_context_release(ctx);
}
END_TEST

int main(void)
{
    return support_run_tests("embedding_bag_validation", 600,
                             SUPPORT_TESTS(null_descriptor_and_choices, types_and_inputs, attributes_of_other_presets,
                                           shapes_and_rows, hostile_indices, packed_index_named_by_bag_and_place,
                                           bad_offsets, bad_segment_ids, first_of_many_bad_values,
                                           first_bad_of_long_bag_structures, buffers, verify_mode));
}
