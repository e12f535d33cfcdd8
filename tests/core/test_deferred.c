/* The deferred error policy (CLG_CONTEXT_DEFER_ERRORS): enqueue calls (Gather, GatherElements, GatherND,
 * GatherTree) return at once, a failed check leaves the output untouched, and clg_deferred_status
 * reports the failure later with the message the blocking policy gives at once. (That no host wait
 * happens is shown by test_fault_injection, which counts them.) */
#define _DEFAULT_SOURCE /* setenv */
#include "op_support.h"
#include "testing/testing.h"

#include <stdio.h>
#include <stdlib.h>

enum { OUT_BYTES = 256, GUARD = 16 };

static const float data[6 * 4] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23};
static const int64_t ds[] = {6, 4}, is[] = {5};
static const int32_t good_idx[5] = {5, -1, 0, 3, 2};
static const int32_t bad_idx[5] = {5, -1, 7, 6, 2};   /* first bad: position 2, value 7 */
static const int32_t other_bad[5] = {0, 1, 2, 3, -9}; /* position 4, value -9 */

static clg_context *deferred_context(void)
{
    clg_context *ctx = NULL;
    ck_assert_int_eq(clg_context_create_default(NULL, CLG_CONTEXT_DEFER_ERRORS, &ctx), CLG_SUCCESS);
    return ctx;
}

static cl_mem buffer_of(clg_context *ctx, const void *host, size_t bytes)
{
    cl_int err;
    cl_mem m = clCreateBuffer(clg_context_cl_context(ctx), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes,
                              (void *)host, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    return m;
}

/* What a buffer holds once the queue has finished. */
static void read_back(clg_context *ctx, cl_mem m, void *host, size_t bytes)
{
    cl_command_queue q = clg_context_cl_queue(ctx);
    ck_assert_int_eq(clFinish(q), CL_SUCCESS);
    ck_assert_int_eq(clEnqueueReadBuffer(q, m, CL_TRUE, 0, bytes, host, 0, NULL, NULL), CL_SUCCESS);
}

/* An onnx-13 gather of idx into a poisoned output at byte offset GUARD; returns the enqueue status. */
static clg_status enqueue_gather(clg_context *ctx, const int32_t *idx, cl_mem output, cl_event *done)
{
    clg_gather_desc d = support_onnx_desc(CLG_ONNX_13, CLG_F32, 2, ds, CLG_I32, 1, is, 0);
    cl_mem bd = buffer_of(ctx, data, sizeof data), bi = buffer_of(ctx, idx, 5 * 4);
    clg_status st = clg_gather_enqueue(ctx, &d, clg_context_cl_queue(ctx), bd, 0, bi, 0, output, GUARD, 0, NULL, done);
    clReleaseMemObject(bd);
    clReleaseMemObject(bi);
    return st;
}

/* The message the blocking policy gives for the same call, from the reference. */
static void blocking_message(const int32_t *idx, char *message, size_t size)
{
    clg_gather_desc d = support_onnx_desc(CLG_ONNX_13, CLG_F32, 2, ds, CLG_I32, 1, is, 0);
    unsigned char out[OUT_BYTES];
    ck_assert_int_eq(clg_gather_reference(&d, data, sizeof data, idx, 5 * 4, out, sizeof out),
                     CLG_ERR_INDEX_OUT_OF_RANGE);
    snprintf(message, size, "%s", clg_last_error_message());
}

START_TEST(gather_failure_reported_later_output_untouched)
{
    clg_context *ctx = deferred_context();
    unsigned char *poison = support_poisoned(OUT_BYTES), *got = malloc(OUT_BYTES);
    cl_mem out = buffer_of(ctx, poison, OUT_BYTES);
    cl_event done = NULL;
    ck_assert_int_eq(enqueue_gather(ctx, bad_idx, out, &done), CLG_SUCCESS); /* returns at once */
    ck_assert_ptr_nonnull(done);
    ck_assert_int_eq(clg_deferred_status(ctx, done), CLG_ERR_INDEX_OUT_OF_RANGE);
    char want[1024];
    const char *message = clg_last_error_message();
    ck_assert_ptr_nonnull(strstr(message, "indices[2] (flat position 2) = 7"));
    char got_message[1024];
    snprintf(got_message, sizeof got_message, "%s", message);
    blocking_message(bad_idx, want, sizeof want);
    ck_assert_str_eq(got_message, want);
    read_back(ctx, out, got, OUT_BYTES);
    ck_assert(support_all_poison(got, OUT_BYTES));
    /* reported once: the same event now reads as settled */
    ck_assert_int_eq(clg_deferred_status(ctx, done), CLG_SUCCESS);
    ck_assert_uint_eq(clg_testing_deferred_pending(ctx), 0);
    clReleaseEvent(done);
    clReleaseMemObject(out);
    free(poison);
    free(got);
    clg_context_release(ctx);
}
END_TEST

START_TEST(gather_success_writes_output)
{
    clg_context *ctx = deferred_context();
    unsigned char *poison = support_poisoned(OUT_BYTES), *got = malloc(OUT_BYTES);
    unsigned char *want = support_poisoned(OUT_BYTES);
    clg_gather_desc d = support_onnx_desc(CLG_ONNX_13, CLG_F32, 2, ds, CLG_I32, 1, is, 0);
    ck_assert_int_eq(clg_gather_reference(&d, data, sizeof data, good_idx, 5 * 4, want + GUARD, OUT_BYTES - GUARD),
                     CLG_SUCCESS);
    cl_mem out = buffer_of(ctx, poison, OUT_BYTES);
    cl_event done = NULL;
    ck_assert_int_eq(enqueue_gather(ctx, good_idx, out, &done), CLG_SUCCESS);
    ck_assert_int_eq(clg_deferred_status(ctx, done), CLG_SUCCESS);
    read_back(ctx, out, got, OUT_BYTES);
    ck_assert_mem_eq(got, want, OUT_BYTES); /* the guard before it and the tail after it untouched too */
    clReleaseEvent(done);
    clReleaseMemObject(out);
    free(poison);
    free(got);
    free(want);
    clg_context_release(ctx);
}
END_TEST

START_TEST(null_query_reports_failures_in_enqueue_order_once_each)
{
    clg_context *ctx = deferred_context();
    unsigned char *poison = support_poisoned(OUT_BYTES);
    cl_mem out[3] = {buffer_of(ctx, poison, OUT_BYTES), buffer_of(ctx, poison, OUT_BYTES),
                     buffer_of(ctx, poison, OUT_BYTES)};
    const int32_t *calls[3] = {good_idx, other_bad, bad_idx};
    for (int i = 0; i < 3; ++i) ck_assert_int_eq(enqueue_gather(ctx, calls[i], out[i], NULL), CLG_SUCCESS);
    ck_assert_int_eq(clg_deferred_status(ctx, NULL), CLG_ERR_INDEX_OUT_OF_RANGE);
    ck_assert_ptr_nonnull(strstr(clg_last_error_message(), "indices[4] (flat position 4) = -9"));
    ck_assert_int_eq(clg_deferred_status(ctx, NULL), CLG_ERR_INDEX_OUT_OF_RANGE);
    ck_assert_ptr_nonnull(strstr(clg_last_error_message(), "indices[2] (flat position 2) = 7"));
    ck_assert_int_eq(clg_deferred_status(ctx, NULL), CLG_SUCCESS);
    unsigned char *got = malloc(OUT_BYTES);
    for (int i = 1; i < 3; ++i) {
        read_back(ctx, out[i], got, OUT_BYTES);
        ck_assert(support_all_poison(got, OUT_BYTES));
    }
    for (int i = 0; i < 3; ++i) clReleaseMemObject(out[i]);
    free(got);
    free(poison);
    clg_context_release(ctx);
}
END_TEST

START_TEST(settled_calls_are_not_kept)
{
    clg_context *ctx = deferred_context();
    unsigned char *poison = support_poisoned(OUT_BYTES);
    cl_mem out = buffer_of(ctx, poison, OUT_BYTES);
    /* complete means their events say so: clFinish is not enough on rusticl 22.3.6, whose events may
     * report CL_COMPLETE only later (tests/drivers/rusticl_status_after_finish) */
    cl_event calls[50];
    for (int i = 0; i < 50; ++i) ck_assert_int_eq(enqueue_gather(ctx, good_idx, out, &calls[i]), CLG_SUCCESS);
    ck_assert_int_eq(clWaitForEvents(50, calls), CL_SUCCESS);
    for (int i = 0; i < 50; ++i) clReleaseEvent(calls[i]);
    /* the next call finds the 50 completed, successful ones and drops them */
    ck_assert_int_eq(enqueue_gather(ctx, good_idx, out, NULL), CLG_SUCCESS);
    ck_assert_uint_le(clg_testing_deferred_pending(ctx), 1);
    /* a failure is kept until it is reported, however many calls follow */
    ck_assert_int_eq(enqueue_gather(ctx, bad_idx, out, NULL), CLG_SUCCESS);
    for (int i = 0; i < 20; ++i) ck_assert_int_eq(enqueue_gather(ctx, good_idx, out, NULL), CLG_SUCCESS);
    ck_assert_int_eq(clFinish(clg_context_cl_queue(ctx)), CL_SUCCESS);
    ck_assert_int_eq(enqueue_gather(ctx, good_idx, out, NULL), CLG_SUCCESS);
    ck_assert_uint_ge(clg_testing_deferred_pending(ctx), 1);
    ck_assert_int_eq(clg_deferred_status(ctx, NULL), CLG_ERR_INDEX_OUT_OF_RANGE);
    ck_assert_int_eq(clg_deferred_status(ctx, NULL), CLG_SUCCESS);
    ck_assert_uint_eq(clg_testing_deferred_pending(ctx), 0);
    clReleaseMemObject(out);
    free(poison);
    clg_context_release(ctx);
}
END_TEST

START_TEST(calls_without_device_checks_settle_at_once)
{
    clg_context *ctx = deferred_context();
    const int64_t axis = 0;
    clg_gather_desc d = support_ov_desc(CLG_OV_GATHER_8, CLG_F32, 2, ds, CLG_I32, 1, is, &axis, 0);
    cl_mem bd = buffer_of(ctx, data, sizeof data), bi = buffer_of(ctx, bad_idx, 5 * 4);
    unsigned char *poison = support_poisoned(OUT_BYTES);
    cl_mem out = buffer_of(ctx, poison, OUT_BYTES);
    cl_event done = NULL;
    ck_assert_int_eq(clg_gather_enqueue(ctx, &d, clg_context_cl_queue(ctx), bd, 0, bi, 0, out, 0, 0, NULL, &done),
                     CLG_SUCCESS);
    ck_assert_uint_eq(clg_testing_deferred_pending(ctx), 0); /* zero policy: nothing to learn later */
    ck_assert_int_eq(clg_deferred_status(ctx, done), CLG_SUCCESS);
    /* the synchronous calls keep reporting at once */
    clg_gather_desc onnx = support_onnx_desc(CLG_ONNX_13, CLG_F32, 2, ds, CLG_I32, 1, is, 0);
    unsigned char host[OUT_BYTES];
    ck_assert_int_eq(clg_gather(ctx, &onnx, data, sizeof data, bad_idx, 5 * 4, host, sizeof host),
                     CLG_ERR_INDEX_OUT_OF_RANGE);
    clReleaseEvent(done);
    clReleaseMemObject(bd);
    clReleaseMemObject(bi);
    clReleaseMemObject(out);
    free(poison);
    clg_context_release(ctx);
}
END_TEST

START_TEST(verify_mode_still_reports_at_once)
{
    clg_context *ctx = NULL;
    ck_assert_int_eq(clg_context_create_default(NULL, CLG_CONTEXT_DEFER_ERRORS | CLG_CONTEXT_VERIFY, &ctx),
                     CLG_SUCCESS);
    unsigned char *poison = support_poisoned(OUT_BYTES);
    cl_mem out = buffer_of(ctx, poison, OUT_BYTES);
    cl_event done = NULL;
    ck_assert_int_eq(enqueue_gather(ctx, bad_idx, out, &done), CLG_ERR_INDEX_OUT_OF_RANGE);
    ck_assert_ptr_null(done);
    clReleaseMemObject(out);
    free(poison);
    clg_context_release(ctx);
}
END_TEST

/* GatherTree T=3, B=1, W=2 i32 into an output at an odd byte offset; parent_ids[2, 0, 1] = 2 is bad. */
static char reference_message[1024]; /* the reference's message for the last call below */

static clg_status enqueue_tree(clg_context *ctx, int valid, cl_mem output, cl_event *done, void *want)
{
    clg_gather_tree_desc d;
    memset(&d, 0, sizeof d);
    const int64_t tbw[] = {3, 1, 2}, b[] = {1};
    support_shape(&d.step_ids, CLG_I32, 3, tbw);
    support_shape(&d.parent_ids, CLG_I32, 3, tbw);
    support_shape(&d.max_seq_len, CLG_I32, 1, b);
    support_shape(&d.end_token, CLG_I32, 0, NULL);
    const int32_t step[6] = {1, 2, 3, 4, 5, 6}, parents[6] = {0, 0, 1, 0, 1, valid ? 1 : 2}, len[1] = {3}, end = 9;
    clg_status want_st =
        clg_gather_tree_reference(&d, step, sizeof step, parents, sizeof parents, len, sizeof len, &end, 4, want, 24);
    snprintf(reference_message, sizeof reference_message, "%s", clg_last_error_message());
    cl_mem bs = buffer_of(ctx, step, sizeof step), bp = buffer_of(ctx, parents, sizeof parents);
    cl_mem bl = buffer_of(ctx, len, sizeof len), be = buffer_of(ctx, &end, sizeof end);
    clg_status st = clg_gather_tree_enqueue(ctx, &d, clg_context_cl_queue(ctx), bs, 0, bp, 0, bl, 0, be, 0, output,
                                            GUARD + 1, 0, NULL, done);
    ck_assert_int_eq(want_st, valid ? CLG_SUCCESS : CLG_ERR_INVALID_PARENT);
    clReleaseMemObject(bs);
    clReleaseMemObject(bp);
    clReleaseMemObject(bl);
    clReleaseMemObject(be);
    return st;
}

/* GatherElements onnx-13 of data [6, 4] along axis 1 by indices [6, 2] (bad: indices[4, 1] = -5), and
 * GatherND onnx-13 of the same data by tuples [3, 2] (bad: component 1 of tuple 2 = 4), into an output
 * at an odd byte offset; *want receives the reference's result and its message. */

/* Enqueue op on buffers made here, the output at an odd byte offset; the reference's result goes to
 * want, its message to reference_message. */
static clg_status enqueue_indexed(clg_context *ctx, const support_op *op, const void *desc, const int64_t *idx,
                                  size_t idx_bytes, int valid, cl_mem output, cl_event *done, void *want)
{
    clg_status want_st = op->reference(desc, data, sizeof data, idx, idx_bytes, want, 48);
    snprintf(reference_message, sizeof reference_message, "%s", clg_last_error_message());
    ck_assert_int_eq(want_st, valid ? CLG_SUCCESS : CLG_ERR_INDEX_OUT_OF_RANGE);
    cl_mem bd = buffer_of(ctx, data, sizeof data), bi = buffer_of(ctx, idx, idx_bytes);
    clg_status st = op->enqueue(ctx, desc, clg_context_cl_queue(ctx), bd, 0, bi, 0, output, GUARD + 1, 0, NULL, done);
    clReleaseMemObject(bd);
    clReleaseMemObject(bi);
    return st;
}

static clg_status enqueue_elements(clg_context *ctx, int valid, cl_mem output, cl_event *done, void *want)
{
    const int64_t es[] = {6, 2}, idx[12] = {0, 3, -1, -4, 2, 2, 1, 0, 3, valid ? 1 : -5, 0, 0};
    clg_gather_elements_desc d = support_elements_desc(CLG_ONNX_GATHER_ELEMENTS_13, CLG_F32, 2, ds, CLG_I64, es, 1);
    return enqueue_indexed(ctx, &support_gather_elements, &d, idx, sizeof idx, valid, output, done, want);
}

static clg_status enqueue_nd(clg_context *ctx, int valid, cl_mem output, cl_event *done, void *want)
{
    const int64_t ts[] = {3, 2}, idx[6] = {5, 3, -6, -4, 0, valid ? -1 : 4};
    clg_gather_nd_desc d = support_nd_desc(CLG_ONNX_GATHER_ND_13, CLG_F32, 2, ds, CLG_I64, 2, ts, 0);
    return enqueue_indexed(ctx, &support_gather_nd, &d, idx, sizeof idx, valid, output, done, want);
}

typedef clg_status (*deferred_call)(clg_context *ctx, int valid, cl_mem output, cl_event *done, void *want);

/* A bad call returns at once and reports later with the blocking policy's message, output untouched;
 * then a good call writes the output, guards and tail untouched, under both kernel mappings. */
static void check_deferred_failure_and_success(deferred_call call, clg_status failure, const char *fragment)
{
    clg_context *ctx = deferred_context();
    for (int m = 0; m < 2; ++m) {
        support_use_mapping(ctx, support_mappings[m]);
        unsigned char *poison = support_poisoned(OUT_BYTES), *got = malloc(OUT_BYTES);
        unsigned char *want = support_poisoned(OUT_BYTES);
        cl_mem out = buffer_of(ctx, poison, OUT_BYTES);
        cl_event done = NULL;
        ck_assert_int_eq(call(ctx, 0, out, &done, want + GUARD + 1), CLG_SUCCESS);
        ck_assert_int_eq(clg_deferred_status(ctx, done), failure);
        ck_assert_str_eq(clg_last_error_message(), reference_message);
        ck_assert_ptr_nonnull(strstr(reference_message, fragment));
        read_back(ctx, out, got, OUT_BYTES);
        ck_assert(support_all_poison(got, OUT_BYTES));
        clReleaseEvent(done);

        ck_assert_int_eq(call(ctx, 1, out, &done, want + GUARD + 1), CLG_SUCCESS);
        ck_assert_int_eq(clg_deferred_status(ctx, done), CLG_SUCCESS);
        read_back(ctx, out, got, OUT_BYTES);
        ck_assert_mem_eq(got, want, OUT_BYTES);
        ck_assert_uint_eq(clg_testing_deferred_pending(ctx), 0);
        clReleaseEvent(done);
        clReleaseMemObject(out);
        free(poison);
        free(got);
        free(want);
    }
    clg_context_release(ctx);
}

START_TEST(gather_elements_deferred_failure_and_success)
{
    check_deferred_failure_and_success(enqueue_elements, CLG_ERR_INDEX_OUT_OF_RANGE,
                                       "indices[4, 1] (flat position 9) = -5 is outside [-4, 3]");
}
END_TEST

START_TEST(gather_nd_deferred_failure_and_success)
{
    check_deferred_failure_and_success(enqueue_nd, CLG_ERR_INDEX_OUT_OF_RANGE,
                                       "indices[2, 1] (tuple 2, component 1, flat position 5) = 4");
}
END_TEST

START_TEST(gather_tree_deferred_failure_and_success)
{
    check_deferred_failure_and_success(enqueue_tree, CLG_ERR_INVALID_PARENT, "parent_ids[2, 0, 1] = 2");
}
END_TEST

/* Failures of the three operations on one context come back in enqueue order, each once. */
START_TEST(failures_of_every_operation_in_enqueue_order)
{
    clg_context *ctx = deferred_context();
    unsigned char *poison = support_poisoned(OUT_BYTES), *want = malloc(OUT_BYTES);
    cl_mem out = buffer_of(ctx, poison, OUT_BYTES);
    ck_assert_int_eq(enqueue_nd(ctx, 0, out, NULL, want), CLG_SUCCESS);
    ck_assert_int_eq(enqueue_gather(ctx, good_idx, out, NULL), CLG_SUCCESS);
    ck_assert_int_eq(enqueue_elements(ctx, 0, out, NULL, want), CLG_SUCCESS);
    ck_assert_int_eq(enqueue_gather(ctx, bad_idx, out, NULL), CLG_SUCCESS);
    ck_assert_int_eq(clg_deferred_status(ctx, NULL), CLG_ERR_INDEX_OUT_OF_RANGE);
    ck_assert_ptr_nonnull(strstr(clg_last_error_message(), "(tuple 2, component 1, flat position 5) = 4"));
    ck_assert_int_eq(clg_deferred_status(ctx, NULL), CLG_ERR_INDEX_OUT_OF_RANGE);
    ck_assert_ptr_nonnull(strstr(clg_last_error_message(), "indices[4, 1] (flat position 9) = -5"));
    ck_assert_int_eq(clg_deferred_status(ctx, NULL), CLG_ERR_INDEX_OUT_OF_RANGE);
    ck_assert_ptr_nonnull(strstr(clg_last_error_message(), "indices[2] (flat position 2) = 7"));
    ck_assert_int_eq(clg_deferred_status(ctx, NULL), CLG_SUCCESS);
    clReleaseMemObject(out);
    free(poison);
    free(want);
    clg_context_release(ctx);
}
END_TEST

START_TEST(deferred_from_environment)
{
    setenv("CLGATHER_DEFER_ERRORS", "1", 1);
    clg_context *ctx = NULL;
    ck_assert_int_eq(clg_context_create_default(NULL, 0, &ctx), CLG_SUCCESS);
    unsetenv("CLGATHER_DEFER_ERRORS");
    unsigned char *poison = support_poisoned(OUT_BYTES);
    cl_mem out = buffer_of(ctx, poison, OUT_BYTES);
    cl_event done = NULL;
    ck_assert_int_eq(enqueue_gather(ctx, bad_idx, out, &done), CLG_SUCCESS);
    ck_assert_int_eq(clg_deferred_status(ctx, done), CLG_ERR_INDEX_OUT_OF_RANGE);
    clReleaseEvent(done);
    clReleaseMemObject(out);
    free(poison);
    clg_context_release(ctx);
    ck_assert_int_eq(clg_deferred_status(NULL, NULL), CLG_ERR_NULL_ARGUMENT);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("deferred");
    TCase *tc = tcase_create("deferred");
    tcase_add_test(tc, gather_failure_reported_later_output_untouched);
    tcase_add_test(tc, gather_success_writes_output);
    tcase_add_test(tc, null_query_reports_failures_in_enqueue_order_once_each);
    tcase_add_test(tc, settled_calls_are_not_kept);
    tcase_add_test(tc, calls_without_device_checks_settle_at_once);
    tcase_add_test(tc, verify_mode_still_reports_at_once);
    tcase_add_test(tc, gather_tree_deferred_failure_and_success);
    tcase_add_test(tc, gather_elements_deferred_failure_and_success);
    tcase_add_test(tc, gather_nd_deferred_failure_and_success);
    tcase_add_test(tc, failures_of_every_operation_in_enqueue_order);
    tcase_add_test(tc, deferred_from_environment);
    suite_add_tcase(s, tc);
    return support_run_suite(s);
}
