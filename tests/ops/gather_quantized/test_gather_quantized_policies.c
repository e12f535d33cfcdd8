/* The dequantizing gather under each out-of-range policy with hostile indices, the error policy on
 * the device (first bad index among many, the blocking and the deferred policy, whose gated kernels
 * must write nothing), and verify mode. */
#define _DEFAULT_SOURCE /* setenv */
#include "quantized_support.h"
#include "testing/testing.h"

#include <stdlib.h>

/* ONNX Runtime u8 (bits 8) [rows, 32], blocks of 16, f16 scales, n i64 indices; row r holds 128 + r. */
static void make_table(quant_case *c, int64_t rows, int64_t n)
{
    memset(c, 0, sizeof *c);
    const int64_t ds[] = {rows, 32}, ss[] = {rows, 2}, is[] = {n};
    c->desc.layout = CLG_QUANT_ORT_BLOCK;
    c->desc.data.type = CLG_QUANT_U8;
    c->desc.data.rank = 2;
    memcpy(c->desc.data.shape, ds, sizeof ds);
    support_shape(&c->desc.indices, CLG_I64, 1, is);
    support_shape(&c->desc.scales, CLG_F16, 2, ss);
    c->desc.bits = 8;
    c->desc.block_size = 16;
    c->desc.quantize_axis = 1;
    quant_case_alloc(c);
    for (int64_t r = 0; r < rows; ++r) {
        memset(c->data + 32 * r, (int)(128 + r), 32);
        quant_put_scale(c, (uint64_t)(2 * r), 1.0f);
        quant_put_scale(c, (uint64_t)(2 * r + 1), -1.0f);
    }
}

static void set_index(quant_case *c, uint64_t k, int64_t v) { memcpy(c->indices + 8 * k, &v, 8); }

/* Hostile values under zero and clamp, on every path: the same bits as the reference, guards intact. */
START_TEST(hostile_indices_zero_and_clamp)
{
    quant_case c;
    make_table(&c, 5, 8);
    const int64_t hostile[8] = {INT64_MIN, INT64_MAX, -1, 5, -5, -6, 4, (int64_t)1 << 40};
    for (int k = 0; k < 8; ++k) set_index(&c, (uint64_t)k, hostile[k]);
    clg_context *ctx = support_cl_context();
    for (int policy = CLG_OOB_ZERO; policy <= CLG_OOB_CLAMP; ++policy) {
        c.desc.oob_policy = (clg_oob_policy)policy;
        unsigned char *want = support_poisoned(c.out_bytes);
        ck_assert_int_eq(quant_reference(&c, want), CLG_SUCCESS);
        /* clamp: INT64_MIN, -6 -> row 0; INT64_MAX, 5, 2^40 -> row 4; -1 -> 4; -5 -> 0. Slab 1
         * (INT64_MAX) starts with (132 - 128) * 1 = 4 (f16 0x4400) under clamp, zeros otherwise */
        const uint16_t second = (uint16_t)(want[64] | want[65] << 8);
        ck_assert_uint_eq(second, policy == CLG_OOB_ZERO ? 0 : 0x4400u);
        for (int m = 0; m < 2; ++m) {
            support_use_mapping(ctx, support_mappings[m]);
            const size_t guard = quant_out_guard(&c, 12);
            unsigned char *region = support_poisoned(guard + c.out_bytes + guard);
            ck_assert_int_eq(quant_enqueue(ctx, &c, 12, region), CLG_SUCCESS);
            ck_assert(support_guards_intact(region, guard, c.out_bytes));
            ck_assert_mem_eq(region + guard, want, c.out_bytes);
            free(region);
        }
        support_use_mapping(ctx, NULL);
        free(want);
    }
    quant_case_free(&c);
}
END_TEST

/* Gathering along an empty quantize axis (ONNX Runtime u4 [1, 5, 6, 0], gather axis = quantize axis = 3): no row can be
 * selected, so the zero policy writes zeros, on both mappings (the kernels once divided by its 0 blocks). */
START_TEST(empty_quantize_axis_gathered_gives_zeros)
{
    quant_case c;
    memset(&c, 0, sizeof c);
    const int64_t ds[] = {1, 5, 6, 0};
    c.desc.layout = CLG_QUANT_ORT_BLOCK;
    c.desc.data.type = CLG_QUANT_U4;
    c.desc.data.rank = 4;
    memcpy(c.desc.data.shape, ds, sizeof ds);
    support_shape(&c.desc.indices, CLG_I32, 0, ds);
    support_shape(&c.desc.scales, CLG_F16, 4, ds);
    c.desc.block_size = 32;
    c.desc.gather_axis = 3;
    c.desc.quantize_axis = 3;
    c.desc.output_type = CLG_BF16;
    c.desc.oob_policy = CLG_OOB_ZERO;
    quant_case_alloc(&c);
    const int32_t index = 0;
    memcpy(c.indices, &index, sizeof index);
    unsigned char *want = support_poisoned(c.out_bytes);
    ck_assert_int_eq(quant_reference(&c, want), CLG_SUCCESS);
    for (size_t k = 0; k < c.out_bytes; ++k) ck_assert_uint_eq(want[k], 0);
    clg_context *ctx = support_cl_context();
    for (int m = 0; m < 2; ++m) {
        support_use_mapping(ctx, support_mappings[m]);
        const size_t guard = quant_out_guard(&c, 8);
        unsigned char *region = support_poisoned(guard + c.out_bytes + guard);
        ck_assert_int_eq(quant_enqueue(ctx, &c, 8, region), CLG_SUCCESS);
        ck_assert(support_guards_intact(region, guard, c.out_bytes));
        ck_assert_mem_eq(region + guard, want, c.out_bytes);
        free(region);
        unsigned char *got = support_poisoned(c.out_bytes);
        ck_assert_int_eq(quant_sync(ctx, &c, got), CLG_SUCCESS);
        ck_assert_mem_eq(got, want, c.out_bytes);
        free(got);
    }
    support_use_mapping(ctx, NULL);
    free(want);
    quant_case_free(&c);
}
END_TEST

/* 100,000 indices, the bad ones late and out of order: every path names the first in row-major order. */
START_TEST(error_policy_names_the_first_bad_among_many)
{
    quant_case c;
    const uint64_t n = 100000;
    make_table(&c, 7, (int64_t)n);
    for (uint64_t k = 0; k < n; ++k) set_index(&c, k, (int64_t)(k % 7) - 3);
    set_index(&c, 99990, 7);
    set_index(&c, 91234, -8);
    set_index(&c, 99999, INT64_MIN);
    const char *want = "indices[91234] (flat position 91234) = -8 is outside [-7, 6] for axis 0 of size 7";
    unsigned char *out = support_poisoned(c.out_bytes);
    ck_assert_int_eq(quant_reference(&c, out), CLG_ERR_INDEX_OUT_OF_RANGE);
    ck_assert_str_eq(clg_last_error_message(), want);
    ck_assert_int_eq(quant_sync(support_cl_context(), &c, out), CLG_ERR_INDEX_OUT_OF_RANGE);
    ck_assert_str_eq(clg_last_error_message(), want);
    ck_assert(support_all_poison(out, c.out_bytes));
    const size_t guard = quant_out_guard(&c, 4);
    unsigned char *region = support_poisoned(guard + c.out_bytes + guard);
    ck_assert_int_eq(quant_enqueue(support_cl_context(), &c, 4, region), CLG_ERR_INDEX_OUT_OF_RANGE);
    ck_assert_str_eq(clg_last_error_message(), want);
    ck_assert(support_all_poison(region, guard + c.out_bytes + guard));
    free(region);
    free(out);
    quant_case_free(&c);
}
END_TEST

static cl_mem buffer_of(clg_context *ctx, const void *host, size_t bytes)
{
    cl_int err;
    cl_mem m = clCreateBuffer(clg_context_cl_context(ctx), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes ? bytes : 1,
                              (void *)host, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    return m;
}

/* Enqueue c on a deferred context into a poisoned output; returns the enqueue status. */
static clg_status enqueue_deferred(clg_context *ctx, const quant_case *c, cl_mem out, cl_event *done)
{
    cl_mem d = buffer_of(ctx, c->data, c->data_bytes), i = buffer_of(ctx, c->indices, c->index_bytes);
    cl_mem s = buffer_of(ctx, c->scales, c->scale_bytes);
    clg_status st = clg_gather_quantized_enqueue(ctx, &c->desc, clg_context_cl_queue(ctx), d, 0, i, 0, s, 0, NULL, 0,
                                                 out, 0, 0, NULL, done);
    clReleaseMemObject(d);
    clReleaseMemObject(i);
    clReleaseMemObject(s);
    return st;
}

/* CLG_CONTEXT_DEFER_ERRORS: the call returns at once; the gated kernel writes nothing when an index is
 * bad, and clg_deferred_status reports the blocking policy's message; a valid call writes the output. */
START_TEST(deferred_errors_gate_the_kernel)
{
    for (int m = 0; m < 2; ++m) {
        clg_context *ctx = NULL;
        ck_assert_int_eq(clg_context_create_default(NULL, CLG_CONTEXT_DEFER_ERRORS, &ctx), CLG_SUCCESS);
        support_use_mapping(ctx, support_mappings[m]);
        quant_case c;
        make_table(&c, 4, 6);
        for (uint64_t k = 0; k < 6; ++k) set_index(&c, k, (int64_t)k % 4);
        set_index(&c, 4, 9);
        unsigned char *poison = support_poisoned(c.out_bytes), *got = malloc(c.out_bytes);
        cl_mem out = buffer_of(ctx, poison, c.out_bytes);
        cl_event done = NULL;
        ck_assert_int_eq(enqueue_deferred(ctx, &c, out, &done), CLG_SUCCESS);
        ck_assert_int_eq(clg_deferred_status(ctx, done), CLG_ERR_INDEX_OUT_OF_RANGE);
        ck_assert_str_eq(clg_last_error_message(),
                         "indices[4] (flat position 4) = 9 is outside [-4, 3] for axis 0 of size 4");
        clReleaseEvent(done);
        ck_assert_int_eq(
            clEnqueueReadBuffer(clg_context_cl_queue(ctx), out, CL_TRUE, 0, c.out_bytes, got, 0, NULL, NULL),
            CL_SUCCESS);
        ck_assert(support_all_poison(got, c.out_bytes));

        set_index(&c, 4, -1);
        unsigned char *want = support_poisoned(c.out_bytes);
        ck_assert_int_eq(quant_reference(&c, want), CLG_SUCCESS);
        ck_assert_int_eq(enqueue_deferred(ctx, &c, out, &done), CLG_SUCCESS);
        ck_assert_int_eq(clg_deferred_status(ctx, done), CLG_SUCCESS);
        clReleaseEvent(done);
        ck_assert_int_eq(
            clEnqueueReadBuffer(clg_context_cl_queue(ctx), out, CL_TRUE, 0, c.out_bytes, got, 0, NULL, NULL),
            CL_SUCCESS);
        ck_assert_mem_eq(got, want, c.out_bytes);
        ck_assert_int_eq(clg_deferred_status(ctx, NULL), CLG_SUCCESS);
        clReleaseMemObject(out);
        free(poison);
        free(got);
        free(want);
        quant_case_free(&c);
        clg_context_release(ctx);
    }
}
END_TEST

/* Verify mode recomputes with the reference and compares; a flipped bit in the device's result is a
 * CLG_ERR_VERIFY_MISMATCH naming the element, and the output stays untouched. */
START_TEST(verify_mode_passes_and_detects_a_mismatch)
{
    clg_context *ctx = NULL;
    ck_assert_int_eq(clg_context_create_default(NULL, CLG_CONTEXT_VERIFY, &ctx), CLG_SUCCESS);
    quant_case c;
    make_table(&c, 3, 4);
    for (uint64_t k = 0; k < 4; ++k) set_index(&c, k, 2 - (int64_t)k);
    unsigned char *got = support_poisoned(c.out_bytes), *want = support_poisoned(c.out_bytes);
    ck_assert_int_eq(quant_reference(&c, want), CLG_SUCCESS);
    ck_assert_int_eq(quant_sync(ctx, &c, got), CLG_SUCCESS);
    ck_assert_mem_eq(got, want, c.out_bytes);
    clg_testing_corrupt_verify_readback(ctx, 1);
    memset(got, POISON_BYTE, c.out_bytes);
    ck_assert_int_eq(quant_sync(ctx, &c, got), CLG_ERR_VERIFY_MISMATCH);
    ck_assert_ptr_nonnull(strstr(clg_last_error_message(), "output[3, 31] (flat element 127)"));
    ck_assert(support_all_poison(got, c.out_bytes));
    const size_t guard = quant_out_guard(&c, 2);
    unsigned char *region = support_poisoned(guard + c.out_bytes + guard);
    ck_assert_int_eq(quant_enqueue(ctx, &c, 2, region), CLG_ERR_VERIFY_MISMATCH);
    ck_assert(support_all_poison(region, guard + c.out_bytes + guard));
    free(region);
    free(got);
    free(want);
    quant_case_free(&c);
    clg_context_release(ctx);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gather_quantized_policies");
    TCase *tc = tcase_create("policies");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, hostile_indices_zero_and_clamp);
    tcase_add_test(tc, empty_quantize_axis_gathered_gives_zeros);
    tcase_add_test(tc, error_policy_names_the_first_bad_among_many);
    tcase_add_test(tc, deferred_errors_gate_the_kernel);
    tcase_add_test(tc, verify_mode_passes_and_detects_a_mismatch);
    suite_add_tcase(s, tc);
    return support_run_suite(s);
}
