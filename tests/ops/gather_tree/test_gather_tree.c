/* GatherTree-1 (docs/semantics.md, GatherTree): hand-worked examples, lengths, end_token, invalid
 * parent ids, every element type, validation, the asynchronous entry point at offsets inside larger
 * buffers, verify mode, and a randomized differential suite (OpenCL against the CPU reference).
 *
 * Every case runs on four paths: the synchronous call on the OpenCL context, the asynchronous call
 * on the caller's buffers, the synchronous call on the CPU-reference context and the public
 * reference function. Outputs start poisoned and are compared with memcmp. */
#include "test_support.h"

#include "testing/testing.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ----------------------------------------------------------------------------------------------- */
/* Tensors of any GatherTree type                                                                  */
/* ----------------------------------------------------------------------------------------------- */

static const clg_dtype all_types[] = {CLG_I8,  CLG_I16, CLG_I32, CLG_I64, CLG_U8, CLG_U16,
                                      CLG_U32, CLG_U64, CLG_F16, CLG_F32, CLG_F64};
#define ALL_TYPES_COUNT (sizeof all_types / sizeof all_types[0])

static int is_float(clg_dtype t) { return t == CLG_F16 || t == CLG_F32 || t == CLG_F64; }
static int is_signed(clg_dtype t) { return t == CLG_I8 || t == CLG_I16 || t == CLG_I32 || t == CLG_I64 || is_float(t); }

/* binary16 bits of a value that f16 holds exactly (the tests use no others) */
static uint16_t half_bits(double v)
{
    if (isnan(v)) return 0x7E00;
    uint16_t sign = signbit(v) ? 0x8000 : 0;
    double a = fabs(v);
    if (isinf(a)) return sign | 0x7C00;
    if (a == 0) return sign;
    int e = 0;
    while (a >= 2) a /= 2, ++e;
    while (a < 1) a *= 2, --e;
    double m = (a - 1) * 1024;
    ck_assert_msg(m == floor(m) && e >= -14 && e <= 15, "%g is not exact in f16", v);
    return (uint16_t)(sign | (uint16_t)((e + 15) << 10) | (uint16_t)m);
}

/* Store v at element pos of a tensor of type t (integers truncate as C does: -1 in u8 is 255). */
static void put(void *base, clg_dtype t, size_t pos, double v)
{
    unsigned char *p = (unsigned char *)base + pos * clg_dtype_size(t);
    switch (t) {
    case CLG_F16: {
        uint16_t x = half_bits(v);
        memcpy(p, &x, 2);
        break;
    }
    case CLG_F32: {
        float x = (float)v;
        memcpy(p, &x, 4);
        break;
    }
    case CLG_F64: memcpy(p, &v, 8); break;
    default: support_store_int(base, t, pos, (int64_t)v); break;
    }
}

/* One GatherTree problem in host memory. */
typedef struct tree {
    clg_gather_tree_desc desc;
    clg_dtype type;
    size_t es;
    int64_t T, B, W;
    size_t ids_bytes, seq_bytes;
    unsigned char *step, *parent, *seq, *end;
} tree;

static tree tree_make(clg_dtype type, int64_t T, int64_t B, int64_t W)
{
    tree tr;
    memset(&tr, 0, sizeof tr);
    tr.type = type;
    tr.es = clg_dtype_size(type);
    tr.T = T, tr.B = B, tr.W = W;
    const int64_t ids_shape[] = {T, B, W}, seq_shape[] = {B};
    support_shape(&tr.desc.step_ids, type, 3, ids_shape);
    support_shape(&tr.desc.parent_ids, type, 3, ids_shape);
    support_shape(&tr.desc.max_seq_len, type, 1, seq_shape);
    support_shape(&tr.desc.end_token, type, 0, NULL);
    tr.ids_bytes = (size_t)(T * B * W) * tr.es;
    tr.seq_bytes = (size_t)B * tr.es;
    tr.step = calloc(1, tr.ids_bytes + 1);
    tr.parent = calloc(1, tr.ids_bytes + 1);
    tr.seq = calloc(1, tr.seq_bytes + 1);
    tr.end = calloc(1, tr.es);
    ck_assert(tr.step && tr.parent && tr.seq && tr.end);
    return tr;
}

static void tree_free(tree *tr)
{
    free(tr->step);
    free(tr->parent);
    free(tr->seq);
    free(tr->end);
}

static size_t at(const tree *tr, int64_t t, int64_t b, int64_t w) { return (size_t)((t * tr->B + b) * tr->W + w); }

/* Fill from row-major [T, B, W] value lists (parent may be NULL: all zero). */
static void tree_fill(tree *tr, const double *step, const double *parent, const double *seq, double end)
{
    const size_t n = (size_t)(tr->T * tr->B * tr->W);
    for (size_t i = 0; i < n; ++i) {
        put(tr->step, tr->type, i, step[i]);
        put(tr->parent, tr->type, i, parent ? parent[i] : 0);
    }
    for (int64_t b = 0; b < tr->B; ++b) put(tr->seq, tr->type, (size_t)b, seq[b]);
    put(tr->end, tr->type, 0, end);
}

/* Expected output bytes from values. */
static void *expected_of(const tree *tr, const double *values)
{
    const size_t n = (size_t)(tr->T * tr->B * tr->W);
    void *e = malloc(tr->ids_bytes + 1);
    ck_assert_ptr_nonnull(e);
    for (size_t i = 0; i < n; ++i) put(e, tr->type, i, values[i]);
    return e;
}

/* ----------------------------------------------------------------------------------------------- */
/* The four paths                                                                                  */
/* ----------------------------------------------------------------------------------------------- */

enum { PATH_OPENCL, PATH_OPENCL_ASYNC, PATH_REFERENCE_CONTEXT, PATH_REFERENCE_FUNCTION, PATH_COUNT };
static const char *const path_names[PATH_COUNT] = {"OpenCL sync", "OpenCL async", "reference context",
                                                   "reference function"};

/* The message of the last run_path call, kept before any other clgather call clears it. */
static char call_message[1024];

static cl_mem buffer_from(clg_context *ctx, const void *host, size_t bytes)
{
    cl_int err = CL_SUCCESS;
    size_t size = bytes ? bytes : 16;
    cl_mem m = clCreateBuffer(clg_context_cl_context(ctx), CL_MEM_READ_WRITE, size, NULL, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    if (host && bytes)
        ck_assert_int_eq(clEnqueueWriteBuffer(clg_context_cl_queue(ctx), m, CL_TRUE, 0, bytes, host, 0, NULL, NULL),
                         CL_SUCCESS);
    return m;
}

/* The asynchronous call on fresh buffers at offset 0; out receives what the output buffer holds
 * afterwards (its poisoned start when the call failed). */
static clg_status run_async(const clg_gather_tree_desc *d, const tree *tr, void *out, size_t out_bytes)
{
    clg_context *ctx = support_cl_context();
    cl_command_queue q = clg_context_cl_queue(ctx);
    cl_mem step = buffer_from(ctx, tr->step, tr->ids_bytes), parent = buffer_from(ctx, tr->parent, tr->ids_bytes);
    cl_mem seq = buffer_from(ctx, tr->seq, tr->seq_bytes), end = buffer_from(ctx, tr->end, tr->es);
    cl_mem output = buffer_from(ctx, out, out_bytes);
    cl_event done = NULL;
    clg_status st = clg_gather_tree_enqueue(ctx, d, q, step, 0, parent, 0, seq, 0, end, 0, output, 0, 0, NULL, &done);
    if (st == CLG_SUCCESS) {
        ck_assert_ptr_nonnull(done);
        ck_assert_int_eq(clWaitForEvents(1, &done), CL_SUCCESS);
        clReleaseEvent(done);
    }
    if (out_bytes)
        ck_assert_int_eq(clEnqueueReadBuffer(q, output, CL_TRUE, 0, out_bytes, out, 0, NULL, NULL), CL_SUCCESS);
    clReleaseMemObject(step);
    clReleaseMemObject(parent);
    clReleaseMemObject(seq);
    clReleaseMemObject(end);
    clReleaseMemObject(output);
    return st; /* only OpenCL calls since: clg_last_error_message() is still the call's */
}

static clg_status run_path_once(int path, const clg_gather_tree_desc *d, const tree *tr, void *out, size_t out_bytes)
{
    switch (path) {
    case PATH_OPENCL:
        return clg_gather_tree(support_cl_context(), d, tr->step, tr->ids_bytes, tr->parent, tr->ids_bytes, tr->seq,
                               tr->seq_bytes, tr->end, tr->es, out, out_bytes);
    case PATH_OPENCL_ASYNC: return run_async(d, tr, out, out_bytes);
    case PATH_REFERENCE_CONTEXT:
        return clg_gather_tree(support_reference_context(), d, tr->step, tr->ids_bytes, tr->parent, tr->ids_bytes,
                               tr->seq, tr->seq_bytes, tr->end, tr->es, out, out_bytes);
    default:
        return clg_gather_tree_reference(d, tr->step, tr->ids_bytes, tr->parent, tr->ids_bytes, tr->seq, tr->seq_bytes,
                                         tr->end, tr->es, out, out_bytes);
    }
}

static clg_status run_path(int path, const clg_gather_tree_desc *d, const tree *tr, void *out, size_t out_bytes)
{
    clg_status st = run_path_once(path, d, tr, out, out_bytes);
    snprintf(call_message, sizeof call_message, "%s", clg_last_error_message());
    return st;
}

/* Every path succeeds with exactly `expected`. */
static void expect_output(const tree *tr, const void *expected)
{
    for (int path = 0; path < PATH_COUNT; ++path) {
        void *out = support_poisoned(tr->ids_bytes);
        clg_status st = run_path(path, &tr->desc, tr, out, tr->ids_bytes);
        ck_assert_msg(st == CLG_SUCCESS, "%s %s: %s: %s", path_names[path], clg_dtype_name(tr->type),
                      clg_status_string(st), call_message);
        ck_assert_msg(memcmp(out, expected, tr->ids_bytes) == 0, "%s %s: output differs", path_names[path],
                      clg_dtype_name(tr->type));
        free(out);
    }
}

static void expect_values(const tree *tr, const double *values)
{
    void *e = expected_of(tr, values);
    expect_output(tr, e);
    free(e);
}

/* Every path returns `want` (a failure, or success for zero-sized work), with a message holding
 * `fragment` (for invalid inputs the very same message on every path), and leaves the output
 * untouched. */
static void expect_status_untouched(const clg_gather_tree_desc *d, const tree *tr, clg_status want,
                                    const char *fragment, size_t out_bytes)
{
    char first_message[1024] = "";
    for (int path = 0; path < PATH_COUNT; ++path) {
        void *out = support_poisoned(out_bytes);
        clg_status st = run_path(path, d, tr, out, out_bytes);
        ck_assert_msg(st == want, "%s: got %s, want %s: %s", path_names[path], clg_status_string(st),
                      clg_status_string(want), call_message);
        ck_assert_msg(support_all_poison(out, out_bytes), "%s: the output was written by a failing call",
                      path_names[path]);
        const char *message = call_message;
        if (fragment)
            ck_assert_msg(strstr(message, fragment) != NULL, "%s: message \"%s\" lacks \"%s\"", path_names[path],
                          message, fragment);
        if (first_message[0] == '\0')
            snprintf(first_message, sizeof first_message, "%s", message);
        else if (want == CLG_ERR_INVALID_PARENT || want == CLG_ERR_INVALID_SEQ_LEN)
            ck_assert_msg(strcmp(first_message, message) == 0, "%s names another failure: \"%s\" vs \"%s\"",
                          path_names[path], message, first_message);
        free(out);
    }
}

static void expect_failure(const tree *tr, clg_status want, const char *fragment)
{
    expect_status_untouched(&tr->desc, tr, want, fragment, tr->ids_bytes);
}

/* ----------------------------------------------------------------------------------------------- */
/* Hand-worked example: T = 4, B = 1, W = 3                                                        */
/* ----------------------------------------------------------------------------------------------- */

/* step_ids                parent_ids (time 0 is never followed: garbage on purpose)
 *   t0: [ 1,  2,  3]        t0: [99, 77, 55]
 *   t1: [ 4,  5,  6]        t1: [ 2,  0,  1]
 *   t2: [ 7,  8, 10]        t2: [ 1,  2,  0]
 *   t3: [11, 12, 13]        t3: [ 2,  1,  0]
 * Backtracks (max_seq_len 4):
 *   beam 0: t3 step[3][0] = 11, parent 2 -> t2 step[2][2] = 10, parent[2][2] = 0 -> t1 step[1][0] = 4,
 *           parent[1][0] = 2 -> t0 step[0][2] = 3                        => [3, 4, 10, 11]
 *   beam 1: 12, parent 1 -> step[2][1] = 8, parent[2][1] = 2 -> step[1][2] = 6, parent[1][2] = 1 ->
 *           step[0][1] = 2                                                => [2, 6, 8, 12]
 *   beam 2: 13, parent 0 -> step[2][0] = 7, parent[2][0] = 1 -> step[1][1] = 5, parent[1][1] = 0 ->
 *           step[0][0] = 1                                                => [1, 5, 7, 13]
 * end_token 9 appears nowhere. */
static const double example_step[] = {1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13};
static const double example_parent[] = {99, 77, 55, 2, 0, 1, 1, 2, 0, 2, 1, 0};
static const double example_out[] = {3, 2, 1, 4, 6, 5, 10, 8, 7, 11, 12, 13};

static tree example_tree(clg_dtype type, double seq_len, double end)
{
    tree tr = tree_make(type, 4, 1, 3);
    const double seq[] = {seq_len};
    tree_fill(&tr, example_step, example_parent, seq, end);
    return tr;
}

START_TEST(pseudocode_example_i32)
{
    tree tr = example_tree(CLG_I32, 4, 9);
    expect_values(&tr, example_out);
    tree_free(&tr);
}
END_TEST

START_TEST(every_element_type)
{
    for (size_t i = 0; i < ALL_TYPES_COUNT; ++i) {
        tree tr = example_tree(all_types[i], 4, 9);
        expect_values(&tr, example_out);
        tree_free(&tr);
    }
}
END_TEST

/* f16 runs on every device: the kernel decodes it from its bits, without cl_khr_fp16. */
START_TEST(f16_end_token_and_fraction)
{
    tree tr = example_tree(CLG_F16, 4, 4);
    const double want[] = {3, 2, 1, 4, 6, 5, 4, 8, 7, 4, 12, 13};
    expect_values(&tr, want);
    tree_free(&tr);
    tr = example_tree(CLG_F16, 4, 9);
    put(tr.parent, CLG_F16, at(&tr, 1, 0, 0), 1.5); /* beam 0 follows parent_ids[1, 0, 0] */
    expect_failure(&tr, CLG_ERR_INVALID_PARENT, "parent_ids[1, 0, 0] = 1.5");
    tree_free(&tr);
}
END_TEST

START_TEST(end_token_in_the_middle)
{
    /* end 4: beam 0 is [3, 4, 10, 11] -> [3, 4, 4, 4]; the other beams hold no 4 */
    tree tr = example_tree(CLG_I32, 4, 4);
    const double want4[] = {3, 2, 1, 4, 6, 5, 4, 8, 7, 4, 12, 13};
    expect_values(&tr, want4);
    tree_free(&tr);
    /* end 8: beam 1 is [2, 6, 8, 12] -> [2, 6, 8, 8] */
    tr = example_tree(CLG_I64, 4, 8);
    const double want8[] = {3, 2, 1, 4, 6, 5, 10, 8, 7, 11, 8, 13};
    expect_values(&tr, want8);
    tree_free(&tr);
    /* end 3: beam 0 starts with it -> all 3 */
    tr = example_tree(CLG_U16, 4, 3);
    const double want3[] = {3, 2, 1, 3, 6, 5, 3, 8, 7, 3, 12, 13};
    expect_values(&tr, want3);
    tree_free(&tr);
}
END_TEST

START_TEST(end_token_never_appearing)
{
    for (size_t i = 0; i < ALL_TYPES_COUNT; ++i) {
        tree tr = example_tree(all_types[i], 4, 42);
        expect_values(&tr, example_out);
        tree_free(&tr);
    }
}
END_TEST

START_TEST(end_token_off_the_path_is_ignored)
{
    /* W = 2, every parent 0: both beams pass through step_ids[0, 0, 0], none through [0, 0, 1] */
    tree tr = tree_make(CLG_I32, 2, 1, 2);
    const double step[] = {5, 9, 1, 2}, parent[] = {0, 0, 0, 0}, seq[] = {2};
    tree_fill(&tr, step, parent, seq, 9); /* 9 at t0 beam 1: neither beam passes through it */
    const double want[] = {5, 5, 1, 2};
    expect_values(&tr, want);
    tree_free(&tr);
}
END_TEST

/* ----------------------------------------------------------------------------------------------- */
/* B > 1 and max_seq_len                                                                            */
/* ----------------------------------------------------------------------------------------------- */

/* T = 3, B = 2, W = 2.
 * step t0: b0 [1, 2]  b1 [3, 4]     parent t0: [50, 50] [50, 50] (never followed)
 *      t1: b0 [5, 6]  b1 [7, 8]            t1: [ 1,  0] [ 1,  1]
 *      t2: b0 [10,11] b1 [12,13]           t2: [ 1,  0] [ 0,  1]
 * L = 3: b0 beam0 10 <- p1 -> step[1][0][1] = 6, p[1][0][1] = 0 -> step[0][0][0] = 1: [1, 6, 10]
 *        b0 beam1 11 <- p0 -> 5, p[1][0][0] = 1 -> 2:                       [2, 5, 11]
 *        b1 beam0 12 <- p0 -> 7, p[1][1][0] = 1 -> 4:                       [4, 7, 12]
 *        b1 beam1 13 <- p1 -> 8, p[1][1][1] = 1 -> 4:                       [4, 8, 13] */
static const double batch_step[] = {1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13};
static const double batch_parent[] = {50, 50, 50, 50, 1, 0, 1, 1, 1, 0, 0, 1};
#define E 99 /* end_token in the batch examples (short, to keep the tables readable) */

static tree batch_tree(clg_dtype type, double len0, double len1)
{
    tree tr = tree_make(type, 3, 2, 2);
    const double seq[] = {len0, len1};
    tree_fill(&tr, batch_step, batch_parent, seq, E);
    return tr;
}

START_TEST(batches_full_length)
{
    tree tr = batch_tree(CLG_I32, 3, 3);
    const double want[] = {1, 2, 4, 4, 6, 5, 7, 8, 10, 11, 12, 13};
    expect_values(&tr, want);
    tree_free(&tr);
}
END_TEST

START_TEST(batches_shorter_length)
{
    /* b0 L = 2: beam0 5 <- p[1][0][0] = 1 -> step[0][0][1] = 2: [2, 5, E]; beam1 6 <- 0 -> 1: [1, 6, E].
     * parent_ids at t2 of b0 lie beyond L and are garbage on purpose. */
    tree tr = batch_tree(CLG_I16, 2, 3);
    put(tr.parent, tr.type, at(&tr, 2, 0, 0), 77);
    put(tr.parent, tr.type, at(&tr, 2, 0, 1), -7);
    const double want[] = {2, 1, 4, 4, 5, 6, 7, 8, E, E, 12, 13};
    expect_values(&tr, want);
    tree_free(&tr);
}
END_TEST

START_TEST(max_seq_len_one)
{
    tree tr = batch_tree(CLG_I32, 1, 3);
    put(tr.parent, tr.type, at(&tr, 1, 0, 0), 5); /* beyond L: never read */
    const double want[] = {1, 2, 4, 4, E, E, 7, 8, E, E, 12, 13};
    expect_values(&tr, want);
    tree_free(&tr);
}
END_TEST

START_TEST(max_seq_len_zero)
{
    for (size_t i = 0; i < ALL_TYPES_COUNT; ++i) {
        tree tr = batch_tree(all_types[i], 0, 3);
        const double want[] = {E, E, 4, 4, E, E, 7, 8, E, E, 12, 13};
        expect_values(&tr, want);
        tree_free(&tr);
    }
}
END_TEST

START_TEST(max_seq_len_negative)
{
    for (size_t i = 0; i < ALL_TYPES_COUNT; ++i) {
        if (!is_signed(all_types[i])) continue;
        tree tr = batch_tree(all_types[i], 3, -1);
        const double want[] = {1, 2, E, E, 6, 5, E, E, 10, 11, E, E};
        expect_values(&tr, want);
        tree_free(&tr);
    }
    tree tr = batch_tree(CLG_I64, -1, 3);
    support_store_int(tr.seq, CLG_I64, 0, INT64_MIN);
    const double want[] = {E, E, 4, 4, E, E, 7, 8, E, E, 12, 13};
    expect_values(&tr, want);
    tree_free(&tr);
}
END_TEST

START_TEST(max_seq_len_above_max_time)
{
    const double want[] = {1, 2, 4, 4, 6, 5, 7, 8, 10, 11, 12, 13};
    for (size_t i = 0; i < ALL_TYPES_COUNT; ++i) {
        tree tr = batch_tree(all_types[i], 4, 100);
        expect_values(&tr, want);
        tree_free(&tr);
    }
    /* unsigned lengths above INT64_MAX, and huge float lengths, clamp to T as well */
    tree tr = batch_tree(CLG_U64, 3, 3);
    uint64_t huge[] = {UINT64_MAX, (uint64_t)INT64_MAX + 1};
    memcpy(tr.seq, huge, sizeof huge);
    expect_values(&tr, want);
    tree_free(&tr);
    tr = batch_tree(CLG_I64, 3, 3);
    support_store_int(tr.seq, CLG_I64, 1, INT64_MAX);
    expect_values(&tr, want);
    tree_free(&tr);
    tr = batch_tree(CLG_F32, 1e30, 16777217.0);
    expect_values(&tr, want);
    tree_free(&tr);
    tr = batch_tree(CLG_F64, 1e300, 9.3e18);
    expect_values(&tr, want);
    tree_free(&tr);
}
END_TEST

START_TEST(max_seq_len_float_not_integral)
{
    const double bad[] = {NAN, 1.5, INFINITY, -INFINITY, 0.5};
    const char *shown[] = {"= nan", "= 1.5", "= inf", "= -inf", "= 0.5"};
    for (int k = 0; k < 5; ++k) {
        tree tr = batch_tree(CLG_F32, 3, bad[k]);
        expect_failure(&tr, CLG_ERR_INVALID_SEQ_LEN, "max_seq_len[1]");
        expect_failure(&tr, CLG_ERR_INVALID_SEQ_LEN, shown[k]);
        tree_free(&tr);
    }
    tree tr = batch_tree(CLG_F64, -2.25, 3);
    expect_failure(&tr, CLG_ERR_INVALID_SEQ_LEN, "max_seq_len[0] = -2.25");
    tree_free(&tr);
    /* -0.0 is the integer 0: the batch is all end_token */
    tr = batch_tree(CLG_F32, -0.0, 3);
    const double want[] = {E, E, 4, 4, E, E, 7, 8, E, E, 12, 13};
    expect_values(&tr, want);
    tree_free(&tr);
}
END_TEST

/* ----------------------------------------------------------------------------------------------- */
/* Invalid parent ids                                                                              */
/* ----------------------------------------------------------------------------------------------- */

START_TEST(parent_equal_to_width)
{
    /* TensorFlow accepts parent == W (an off-by-one); we refuse it. Beam 0 follows parent_ids[3, 0, 0]. */
    for (size_t i = 0; i < ALL_TYPES_COUNT; ++i) {
        tree tr = example_tree(all_types[i], 4, 9);
        put(tr.parent, tr.type, at(&tr, 3, 0, 0), 3);
        expect_failure(&tr, CLG_ERR_INVALID_PARENT, "parent_ids[3, 0, 0] = 3 (time 3, batch 0, beam 0)");
        tree_free(&tr);
    }
}
END_TEST

START_TEST(parent_minus_one)
{
    /* beam 0: parent_ids[3, 0, 0] = 2, then parent_ids[2, 0, 2] is followed */
    for (size_t i = 0; i < ALL_TYPES_COUNT; ++i) {
        if (!is_signed(all_types[i])) continue;
        tree tr = example_tree(all_types[i], 4, 9);
        put(tr.parent, tr.type, at(&tr, 2, 0, 2), -1);
        expect_failure(&tr, CLG_ERR_INVALID_PARENT, "parent_ids[2, 0, 2] = -1 (time 2, batch 0, beam 2)");
        tree_free(&tr);
    }
    /* -1 in an unsigned type is its largest value, which is out of range too */
    tree tr = example_tree(CLG_U8, 4, 9);
    put(tr.parent, tr.type, at(&tr, 2, 0, 2), -1);
    expect_failure(&tr, CLG_ERR_INVALID_PARENT, "parent_ids[2, 0, 2] = 255");
    tree_free(&tr);
    tr = example_tree(CLG_U64, 4, 9);
    put(tr.parent, tr.type, at(&tr, 2, 0, 2), -1);
    expect_failure(&tr, CLG_ERR_INVALID_PARENT, "= 18446744073709551615");
    tree_free(&tr);
    tr = example_tree(CLG_I64, 4, 9);
    support_store_int(tr.parent, CLG_I64, at(&tr, 2, 0, 2), INT64_MIN);
    expect_failure(&tr, CLG_ERR_INVALID_PARENT, "= -9223372036854775808");
    tree_free(&tr);
}
END_TEST

START_TEST(parent_far_above_width)
{
    tree tr = example_tree(CLG_I32, 4, 9);
    support_store_int(tr.parent, CLG_I32, at(&tr, 1, 0, 2), INT32_MAX); /* followed by beam 1 at time 1 */
    expect_failure(&tr, CLG_ERR_INVALID_PARENT, "parent_ids[1, 0, 2] = 2147483647");
    tree_free(&tr);
}
END_TEST

START_TEST(parent_nan_and_fraction_f32)
{
    const double bad[] = {NAN, 1.5, INFINITY, -0.5, 3.0};
    const char *shown[] = {"= nan", "= 1.5", "= inf", "= -0.5", "= 3 "};
    for (int k = 0; k < 5; ++k) {
        for (int f64 = 0; f64 < 2; ++f64) {
            tree tr = example_tree(f64 ? CLG_F64 : CLG_F32, 4, 9);
            put(tr.parent, tr.type, at(&tr, 2, 0, 0), bad[k]); /* followed by beam 2 at time 2 */
            expect_failure(&tr, CLG_ERR_INVALID_PARENT, "parent_ids[2, 0, 0]");
            expect_failure(&tr, CLG_ERR_INVALID_PARENT, shown[k]);
            tree_free(&tr);
        }
    }
}
END_TEST

START_TEST(parent_negative_zero_is_zero)
{
    tree tr = example_tree(CLG_F32, 4, 9);
    put(tr.parent, tr.type, at(&tr, 1, 0, 1), -0.0); /* was 0, followed by beam 2 */
    expect_values(&tr, example_out);
    tree_free(&tr);
}
END_TEST

START_TEST(parent_not_followed_is_ignored)
{
    /* Time 0 is never followed, and times >= L are never read: those ids may be anything.
     * L = 3: beam 0: step[2][0] = 7, p[2][0] = 1 -> step[1][1] = 5, p[1][1] = 0 -> step[0][0] = 1
     *        beam 1: 8, p[2][1] = 2 -> step[1][2] = 6, p[1][2] = 1 -> step[0][1] = 2
     *        beam 2: 10, p[2][2] = 0 -> step[1][0] = 4, p[1][0] = 2 -> step[0][2] = 3 */
    tree tr = example_tree(CLG_I32, 3, 9);
    put(tr.parent, tr.type, at(&tr, 0, 0, 0), -1);
    put(tr.parent, tr.type, at(&tr, 0, 0, 1), 3);
    put(tr.parent, tr.type, at(&tr, 3, 0, 2), 1000);
    const double want[] = {1, 2, 3, 5, 6, 4, 7, 8, 10, 9, 9, 9};
    expect_values(&tr, want);
    tree_free(&tr);
}
END_TEST

START_TEST(first_failure_is_smallest_beam)
{
    /* beam 2 follows parent_ids[2, 0, 0]; beam 1 follows parent_ids[1, 0, 2]; beam 0 neither.
     * Both are broken: the report names beam 1's, the smaller (batch, beam). */
    tree tr = example_tree(CLG_I32, 4, 9);
    put(tr.parent, tr.type, at(&tr, 2, 0, 0), 5);
    put(tr.parent, tr.type, at(&tr, 1, 0, 2), 7);
    expect_failure(&tr, CLG_ERR_INVALID_PARENT, "parent_ids[1, 0, 2] = 7");
    expect_failure(&tr, CLG_ERR_INVALID_PARENT, "the backtrack of beam 1 from time 3");
    tree_free(&tr);
}
END_TEST

START_TEST(first_failure_in_batch_order)
{
    /* batch 0: a bad parent on beam 1; batch 1: a NaN length. Batch order names batch 0. */
    tree tr = batch_tree(CLG_F32, 3, NAN);
    put(tr.parent, tr.type, at(&tr, 2, 0, 1), 2);
    expect_failure(&tr, CLG_ERR_INVALID_PARENT, "parent_ids[2, 0, 1] = 2");
    tree_free(&tr);
    /* batch 0: a NaN length; batch 1: a bad parent. The length comes first. */
    tr = batch_tree(CLG_F32, NAN, 3);
    put(tr.parent, tr.type, at(&tr, 2, 1, 0), -1);
    expect_failure(&tr, CLG_ERR_INVALID_SEQ_LEN, "max_seq_len[0] = nan");
    tree_free(&tr);
    /* batch 1 only */
    tr = batch_tree(CLG_I8, 3, 3);
    put(tr.parent, tr.type, at(&tr, 1, 1, 1), 2); /* beam 1 of batch 1 reaches it through parent_ids[2, 1, 1] = 1 */
    expect_failure(&tr, CLG_ERR_INVALID_PARENT,
                   "parent_ids[1, 1, 1] = 2 (time 1, batch 1, beam 1) is not a beam "
                   "index in [0, 2); the backtrack of beam 1 from time 2 follows it");
    tree_free(&tr);
}
END_TEST

/* ----------------------------------------------------------------------------------------------- */
/* Float equality with end_token                                                                   */
/* ----------------------------------------------------------------------------------------------- */

START_TEST(negative_zero_end_token_matches_zero)
{
    /* T = 3, B = 1, W = 1, parents 0: the beam is step_ids itself. end_token -0.0 matches +0.0 at t1:
     * t1 keeps +0.0, t2 becomes -0.0 (end_token's own bits). */
    for (int f64 = 0; f64 < 2; ++f64) {
        tree tr = tree_make(f64 ? CLG_F64 : CLG_F32, 3, 1, 1);
        const double step[] = {5, 0.0, 7}, seq[] = {3};
        tree_fill(&tr, step, NULL, seq, -0.0);
        const double want[] = {5, 0.0, -0.0};
        expect_values(&tr, want);
        tree_free(&tr);
    }
}
END_TEST

START_TEST(nan_end_token_never_matches)
{
    /* end_token NaN: a NaN on the path does not end the beam; t >= L still gets end_token's bits */
    tree tr = tree_make(CLG_F32, 4, 1, 1);
    const double step[] = {1, NAN, 2, 3}, seq[] = {3};
    tree_fill(&tr, step, NULL, seq, 0);
    const uint32_t nan_payload = 0x7FC01234u, other_nan = 0xFFA00001u; /* quiet NaN, signalling-ish NaN */
    memcpy(tr.end, &nan_payload, 4);
    memcpy(tr.step + 4, &other_nan, 4);
    unsigned char want[16];
    const float one = 1, two = 2;
    memcpy(want, &one, 4);
    memcpy(want + 4, &other_nan, 4); /* NaN payloads travel bit for bit */
    memcpy(want + 8, &two, 4);
    memcpy(want + 12, &nan_payload, 4);
    expect_output(&tr, want);
    tree_free(&tr);
}
END_TEST

/* ----------------------------------------------------------------------------------------------- */
/* Floats from their bits: f16, f32 and f64 on every device                                        */
/* ----------------------------------------------------------------------------------------------- */

static const clg_dtype float_types[] = {CLG_F16, CLG_F32, CLG_F64};

static int fraction_width(clg_dtype t) { return t == CLG_F16 ? 10 : t == CLG_F32 ? 23 : 52; }
static uint64_t exponent_ones(clg_dtype t) { return t == CLG_F16 ? 31 : t == CLG_F32 ? 255 : 2047; }
static uint64_t exponent_bias(clg_dtype t) { return exponent_ones(t) / 2; }

/* The bits of a float of type t from its sign, biased exponent field and fraction field. */
static uint64_t float_bits(clg_dtype t, int negative, uint64_t exponent, uint64_t fraction)
{
    const int m = fraction_width(t);
    return (uint64_t)(negative != 0) << (clg_dtype_size(t) * 8 - 1) | exponent << m | fraction;
}

/* 2^e, exactly (e within the type's normal range) */
static uint64_t power_of_two(clg_dtype t, int negative, int e)
{
    return float_bits(t, negative, (uint64_t)((int64_t)exponent_bias(t) + e), 0);
}

static void put_bits(void *base, clg_dtype t, size_t pos, uint64_t bits)
{
    const size_t es = clg_dtype_size(t);
    unsigned char *p = (unsigned char *)base + pos * es;
    for (size_t i = 0; i < es; ++i) p[i] = (unsigned char)(bits >> (8 * i)); /* little-endian, as OpenCL devices */
}

/* T = n, B = 1, W = 1, parents 0, max_seq_len n: the beam is step_ids itself, cut after the first
 * element equal to end_token. want_end: the first time that must match (n for none). */
static void expect_single_beam(clg_dtype t, const uint64_t *step, int n, uint64_t end, int want_end)
{
    tree tr = tree_make(t, n, 1, 1);
    for (int i = 0; i < n; ++i) put_bits(tr.step, t, (size_t)i, step[i]);
    put(tr.seq, t, 0, n);
    put_bits(tr.end, t, 0, end);
    unsigned char *want = malloc(tr.ids_bytes);
    ck_assert_ptr_nonnull(want);
    for (int i = 0; i < n; ++i) put_bits(want, t, (size_t)i, i <= want_end ? step[i] : end);
    expect_output(&tr, want);
    free(want);
    tree_free(&tr);
}

START_TEST(float_end_token_equality)
{
    for (size_t i = 0; i < 3; ++i) {
        const clg_dtype t = float_types[i];
        const int m = fraction_width(t);
        const uint64_t ones = exponent_ones(t), quiet = (uint64_t)1 << (m - 1);
        const uint64_t five = float_bits(t, 0, exponent_bias(t) + 2, quiet / 2), pos0 = 0,
                       neg0 = float_bits(t, 1, 0, 0);
        const uint64_t inf = float_bits(t, 0, ones, 0), minus_inf = float_bits(t, 1, ones, 0);
        const uint64_t nan = float_bits(t, 0, ones, quiet | 5), other_nan = float_bits(t, 1, ones, 1);
        const uint64_t sub = float_bits(t, 0, 0, 1), big_sub = float_bits(t, 0, 0, (quiet << 1) - 1);
        const uint64_t max = float_bits(t, 0, ones - 1, (quiet << 1) - 1);
        /* -0.0 equals +0.0 both ways; the times after the match take end_token's own bits */
        const uint64_t zeros[] = {five, pos0, five};
        expect_single_beam(t, zeros, 3, neg0, 1);
        const uint64_t neg_zeros[] = {five, neg0, five};
        expect_single_beam(t, neg_zeros, 3, pos0, 1);
        /* NaN equals nothing, not even its own bits; NaN payloads travel bit for bit */
        const uint64_t nans[] = {five, other_nan, nan, pos0};
        expect_single_beam(t, nans, 4, nan, 4);
        /* infinities equal themselves only */
        const uint64_t infs[] = {five, minus_inf, inf, five};
        expect_single_beam(t, infs, 4, inf, 2);
        /* subnormals compare exactly (no flush to zero) */
        const uint64_t subs[] = {big_sub, float_bits(t, 1, 0, 1), pos0, sub, five};
        expect_single_beam(t, subs, 5, sub, 3);
        const uint64_t zero_vs_sub[] = {sub, neg0, five};
        expect_single_beam(t, zero_vs_sub, 3, pos0, 1);
        /* the largest finite value, and its neighbour below */
        const uint64_t tops[] = {max - 1, max, pos0};
        expect_single_beam(t, tops, 3, max, 1);
    }
}
END_TEST

START_TEST(float_parent_ids_not_beam_indices)
{
    for (size_t i = 0; i < 3; ++i) {
        const clg_dtype t = float_types[i];
        const int m = fraction_width(t);
        const uint64_t ones = exponent_ones(t), all_fraction = ((uint64_t)1 << m) - 1;
        const uint64_t bad[] = {
            float_bits(t, 0, 0, 1),                                   /* the smallest subnormal */
            float_bits(t, 0, 0, all_fraction),                        /* the largest subnormal */
            float_bits(t, 1, 0, 1),                                   /* a negative subnormal */
            float_bits(t, 0, 1, 0),                                   /* the smallest normal */
            power_of_two(t, 0, -1),                                   /* 0.5 */
            power_of_two(t, 1, -1),                                   /* -0.5 */
            power_of_two(t, 0, 0) | 1,                                /* 1 + ulp */
            power_of_two(t, 0, 1) | ((uint64_t)1 << (m - 1)),         /* 3, = W */
            power_of_two(t, 0, m - 1) | all_fraction,                 /* 2^m - 0.5, the largest non-integer */
            power_of_two(t, 1, 0),                                    /* -1 */
            float_bits(t, 0, ones, 0),                                /* inf */
            float_bits(t, 1, ones, 0),                                /* -inf */
            float_bits(t, 0, ones, (uint64_t)1 << (m - 1) | 7),       /* a quiet NaN with a payload */
            float_bits(t, 0, ones, 1),                                /* a signalling NaN */
            float_bits(t, 1, ones, (uint64_t)1 << (m - 1)),           /* a negative NaN */
            power_of_two(t, 0, m),                                    /* 2^m: every float from here on is an integer */
            power_of_two(t, 0, m) | 1,                                /* 2^m + 1 */
            float_bits(t, 0, ones - 1, all_fraction),                 /* the largest finite */
            t == CLG_F16 ? 0 : power_of_two(t, 0, 62),                /* 2^62 */
            t == CLG_F16 ? 0 : power_of_two(t, 0, 62) | all_fraction, /* the largest below 2^63 */
            t == CLG_F16 ? 0 : power_of_two(t, 0, 63),                /* 2^63 */
            t == CLG_F16 ? 0 : power_of_two(t, 0, 64),                /* 2^64 */
        };
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
            if (bad[k] == 0) continue; /* beyond f16's range */
            tree tr = example_tree(t, 4, 9);
            put_bits(tr.parent, t, at(&tr, 2, 0, 0), bad[k]); /* followed by beam 2 at time 2 */
            /* every path, the reference included, with the same message */
            expect_failure(&tr, CLG_ERR_INVALID_PARENT, "parent_ids[2, 0, 0] = ");
            expect_failure(&tr, CLG_ERR_INVALID_PARENT, "(time 2, batch 0, beam 0) is not a beam index in [0, 3)");
            tree_free(&tr);
        }
        /* -0.0 is the index 0 */
        tree tr = example_tree(t, 4, 9);
        put_bits(tr.parent, t, at(&tr, 1, 0, 1), float_bits(t, 1, 0, 0)); /* was 0, followed by beam 2 */
        expect_values(&tr, example_out);
        tree_free(&tr);
    }
}
END_TEST

/* The largest exact integers of each type as max_seq_len, and lengths that are not integers. */
START_TEST(float_lengths_from_bits)
{
    const double full[] = {1, 2, 4, 4, 6, 5, 7, 8, 10, 11, 12, 13}; /* L = 3 (batch_tree's tables) */
    const double two[] = {2, 1, 4, 4, 5, 6, 7, 8, E, E, 12, 13};
    const double one[] = {1, 2, 4, 4, E, E, 7, 8, E, E, 12, 13};
    const double none[] = {E, E, 4, 4, E, E, 7, 8, E, E, 12, 13};
    for (size_t i = 0; i < 3; ++i) {
        const clg_dtype t = float_types[i];
        const int m = fraction_width(t);
        const uint64_t ones = exponent_ones(t), all_fraction = ((uint64_t)1 << m) - 1;
        const struct {
            uint64_t bits;
            const double *want; /* NULL: invalid */
        } lengths[] = {
            {float_bits(t, 0, 0, 0), none},
            {float_bits(t, 1, 0, 0), none},                           /* -0.0 */
            {power_of_two(t, 1, 0), none},                            /* -1 */
            {float_bits(t, 1, ones - 1, all_fraction), none},         /* the lowest finite */
            {power_of_two(t, 0, 0), one},                             /* 1 */
            {power_of_two(t, 0, 1), two},                             /* 2 */
            {power_of_two(t, 0, 1) | ((uint64_t)1 << (m - 1)), full}, /* 3 */
            {power_of_two(t, 0, m) | all_fraction, full},             /* 2^(m+1) - 1, the largest odd integer */
            {power_of_two(t, 0, m + 1), full},                        /* 2^(m+1) */
            {float_bits(t, 0, ones - 1, all_fraction), full},         /* the largest finite */
            {t == CLG_F16 ? 0 : power_of_two(t, 0, 62), full},
            {t == CLG_F16 ? 0 : power_of_two(t, 0, 63), full},
            {float_bits(t, 0, 0, 1), NULL}, /* subnormals are fractions */
            {float_bits(t, 1, 0, all_fraction), NULL},
            {power_of_two(t, 0, 0) | 1, NULL},                /* 1 + ulp */
            {power_of_two(t, 1, m - 1) | all_fraction, NULL}, /* -(2^m - 0.5) */
            {float_bits(t, 0, ones, 0), NULL},                /* inf */
            {float_bits(t, 1, ones, 0), NULL},                /* -inf */
            {float_bits(t, 0, ones, 3), NULL},                /* NaN */
        };
        for (size_t k = 0; k < sizeof lengths / sizeof lengths[0]; ++k) {
            if (lengths[k].bits == 0 && k != 0) continue; /* beyond f16's range */
            tree tr = batch_tree(t, 3, 3);
            put_bits(tr.seq, t, 0, lengths[k].bits);
            if (lengths[k].want)
                expect_values(&tr, lengths[k].want);
            else
                expect_failure(&tr, CLG_ERR_INVALID_SEQ_LEN, "max_seq_len[0] = ");
            tree_free(&tr);
        }
    }
}
END_TEST

/* Every beam index below 4100 (f16: every one it holds), so every exponent the indices take. */
START_TEST(float_beam_indices_of_every_size)
{
    const int64_t W = 4100;
    for (size_t i = 0; i < 3; ++i) {
        const clg_dtype t = float_types[i];
        tree tr = tree_make(t, 2, 1, W);
        unsigned char *want = malloc(tr.ids_bytes);
        ck_assert_ptr_nonnull(want);
        for (int64_t j = 0; j < W; ++j) {
            /* beams in reverse; f16 holds every integer up to 2048, then every second, then every fourth */
            const int64_t r = W - 1 - j;
            const int64_t parent = t != CLG_F16 || r <= 2048 ? r : r < 4096 ? r & ~(int64_t)1 : r & ~(int64_t)3;
            put(tr.parent, t, at(&tr, 1, 0, j), (double)parent);
            put(tr.parent, t, at(&tr, 0, 0, j), -1); /* never followed */
            /* distinct bits (small subnormals: no flush to zero may touch them as they travel) */
            put_bits(tr.step, t, at(&tr, 0, 0, j), (uint64_t)(j + 1));
            put_bits(tr.step, t, at(&tr, 1, 0, j), (uint64_t)(j + 1) << 2);
            put_bits(want, t, at(&tr, 0, 0, j), (uint64_t)(parent + 1));
            put_bits(want, t, at(&tr, 1, 0, j), (uint64_t)(j + 1) << 2);
        }
        put(tr.seq, t, 0, 2);
        put_bits(tr.end, t, 0, float_bits(t, 0, exponent_ones(t), 1)); /* NaN: matches nothing */
        expect_output(&tr, want);
        free(want);
        tree_free(&tr);
    }
}
END_TEST

/* ----------------------------------------------------------------------------------------------- */
/* Validation                                                                                      */
/* ----------------------------------------------------------------------------------------------- */

START_TEST(validation_types)
{
    tree tr = example_tree(CLG_I32, 4, 9);
    const clg_dtype refused[] = {CLG_BOOL, CLG_BF16, CLG_C64, CLG_C128, CLG_DTYPE_INVALID, (clg_dtype)99};
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; ++k) {
        clg_gather_tree_desc d = tr.desc;
        d.step_ids.type = d.parent_ids.type = d.max_seq_len.type = d.end_token.type = refused[k];
        expect_status_untouched(&d, &tr, CLG_ERR_INVALID_DTYPE, "step_ids type", tr.ids_bytes);
    }
    clg_gather_tree_desc d = tr.desc;
    d.parent_ids.type = CLG_I64;
    expect_status_untouched(&d, &tr, CLG_ERR_TYPE_MISMATCH, "parent_ids type i64 differs from step_ids type i32",
                            tr.ids_bytes);
    d = tr.desc;
    d.max_seq_len.type = CLG_U32;
    expect_status_untouched(&d, &tr, CLG_ERR_TYPE_MISMATCH, "max_seq_len type u32", tr.ids_bytes);
    d = tr.desc;
    d.end_token.type = CLG_F32;
    expect_status_untouched(&d, &tr, CLG_ERR_TYPE_MISMATCH, "end_token type f32", tr.ids_bytes);
    d = tr.desc;
    d.end_token.type = CLG_BOOL;
    expect_status_untouched(&d, &tr, CLG_ERR_TYPE_MISMATCH, "end_token type bool", tr.ids_bytes);
    tree_free(&tr);
}
END_TEST

START_TEST(validation_ranks)
{
    tree tr = example_tree(CLG_I32, 4, 9);
    clg_gather_tree_desc d = tr.desc;
    d.step_ids.rank = 2;
    expect_status_untouched(&d, &tr, CLG_ERR_INVALID_RANK, "step_ids rank 2 must be 3", tr.ids_bytes);
    d = tr.desc;
    d.parent_ids.rank = 4;
    d.parent_ids.shape[3] = 1;
    expect_status_untouched(&d, &tr, CLG_ERR_INVALID_RANK, "parent_ids rank 4 must be 3", tr.ids_bytes);
    d = tr.desc;
    d.max_seq_len.rank = 0;
    expect_status_untouched(&d, &tr, CLG_ERR_INVALID_RANK, "max_seq_len rank 0 must be 1", tr.ids_bytes);
    d = tr.desc;
    d.end_token.rank = 1;
    d.end_token.shape[0] = 1;
    expect_status_untouched(&d, &tr, CLG_ERR_INVALID_RANK, "end_token rank 1 must be 0", tr.ids_bytes);
    d = tr.desc;
    d.step_ids.rank = -1;
    expect_status_untouched(&d, &tr, CLG_ERR_INVALID_RANK, "step_ids rank -1", tr.ids_bytes);
    tree_free(&tr);
}
END_TEST

START_TEST(validation_shapes)
{
    tree tr = example_tree(CLG_I32, 4, 9);
    clg_gather_tree_desc d = tr.desc;
    d.parent_ids.shape[2] = 2;
    expect_status_untouched(&d, &tr, CLG_ERR_SHAPE_MISMATCH,
                            "parent_ids shape [4, 1, 2] differs from step_ids shape [4, 1, 3]", tr.ids_bytes);
    d = tr.desc;
    d.max_seq_len.shape[0] = 2;
    expect_status_untouched(&d, &tr, CLG_ERR_SHAPE_MISMATCH, "max_seq_len length 2 differs from BATCH_SIZE = 1",
                            tr.ids_bytes);
    d = tr.desc;
    d.step_ids.shape[1] = -1;
    expect_status_untouched(&d, &tr, CLG_ERR_INVALID_DIMENSION, "step_ids.shape[1] = -1 is negative", tr.ids_bytes);
    d = tr.desc;
    d.max_seq_len.shape[0] = -3;
    expect_status_untouched(&d, &tr, CLG_ERR_INVALID_DIMENSION, "max_seq_len.shape[0] = -3", tr.ids_bytes);
    tree_free(&tr);
}
END_TEST

START_TEST(validation_size_overflow)
{
    tree tr = example_tree(CLG_I64, 4, 9);
    clg_gather_tree_desc d = tr.desc;
    const int64_t huge = (int64_t)1 << 31;
    d.step_ids.shape[0] = d.parent_ids.shape[0] = huge;
    d.step_ids.shape[2] = d.parent_ids.shape[2] = huge;
    expect_status_untouched(&d, &tr, CLG_ERR_SIZE_OVERFLOW, "overflows 64 bits", tr.ids_bytes);
    uint64_t bytes = 0;
    ck_assert_int_eq(clg_gather_tree_sizes(&d, &bytes), CLG_ERR_SIZE_OVERFLOW);
    /* an empty tensor is never too large, but max_seq_len alone can be */
    d = tr.desc;
    d.step_ids.shape[0] = d.parent_ids.shape[0] = 0;
    d.step_ids.shape[1] = d.parent_ids.shape[1] = d.max_seq_len.shape[0] = INT64_MAX / 2;
    ck_assert_int_eq(clg_gather_tree_sizes(&d, &bytes), CLG_ERR_SIZE_OVERFLOW);
    ck_assert_int_eq(clg_gather_tree_sizes(&tr.desc, &bytes), CLG_SUCCESS);
    ck_assert_uint_eq(bytes, 12 * 8);
    ck_assert_int_eq(clg_gather_tree_sizes(&tr.desc, NULL), CLG_SUCCESS);
    ck_assert_int_eq(clg_gather_tree_sizes(NULL, &bytes), CLG_ERR_NULL_ARGUMENT);
    tree_free(&tr);
}
END_TEST

START_TEST(validation_null_and_small_host_buffers)
{
    tree tr = example_tree(CLG_I32, 4, 9);
    clg_context *contexts[] = {support_cl_context(), support_reference_context()};
    for (int c = 0; c < 3; ++c) {
        void *out = support_poisoned(tr.ids_bytes);
#define CALL(desc, step, sb, par, pb, seq, qb, end, eb, o, ob)                              \
    (c < 2 ? clg_gather_tree(contexts[c], desc, step, sb, par, pb, seq, qb, end, eb, o, ob) \
           : clg_gather_tree_reference(desc, step, sb, par, pb, seq, qb, end, eb, o, ob))
        const size_t n = tr.ids_bytes, q = tr.seq_bytes, e = tr.es;
        ck_assert_int_eq(CALL(NULL, tr.step, n, tr.parent, n, tr.seq, q, tr.end, e, out, n), CLG_ERR_NULL_ARGUMENT);
        ck_assert_int_eq(CALL(&tr.desc, NULL, n, tr.parent, n, tr.seq, q, tr.end, e, out, n), CLG_ERR_NULL_ARGUMENT);
        ck_assert_ptr_nonnull(strstr(clg_last_error_message(), "step_ids is NULL"));
        ck_assert_int_eq(CALL(&tr.desc, tr.step, n, tr.parent, n, tr.seq, q, NULL, e, out, n), CLG_ERR_NULL_ARGUMENT);
        ck_assert_int_eq(CALL(&tr.desc, tr.step, n, tr.parent, n, tr.seq, q, tr.end, e, NULL, n),
                         CLG_ERR_NULL_ARGUMENT);
        ck_assert_int_eq(CALL(&tr.desc, tr.step, n - 1, tr.parent, n, tr.seq, q, tr.end, e, out, n),
                         CLG_ERR_BUFFER_TOO_SMALL);
        ck_assert_int_eq(CALL(&tr.desc, tr.step, n, tr.parent, n - 4, tr.seq, q, tr.end, e, out, n),
                         CLG_ERR_BUFFER_TOO_SMALL);
        ck_assert_ptr_nonnull(strstr(clg_last_error_message(), "parent_ids_bytes = 44"));
        ck_assert_int_eq(CALL(&tr.desc, tr.step, n, tr.parent, n, tr.seq, 0, tr.end, e, out, n),
                         CLG_ERR_BUFFER_TOO_SMALL);
        ck_assert_int_eq(CALL(&tr.desc, tr.step, n, tr.parent, n, tr.seq, q, tr.end, 2, out, n),
                         CLG_ERR_BUFFER_TOO_SMALL);
        ck_assert_int_eq(CALL(&tr.desc, tr.step, n, tr.parent, n, tr.seq, q, tr.end, e, out, n - 1),
                         CLG_ERR_BUFFER_TOO_SMALL);
#undef CALL
        ck_assert(support_all_poison(out, n));
        free(out);
    }
    ck_assert_int_eq(clg_gather_tree(NULL, &tr.desc, tr.step, tr.ids_bytes, tr.parent, tr.ids_bytes, tr.seq,
                                     tr.seq_bytes, tr.end, tr.es, tr.step, tr.ids_bytes),
                     CLG_ERR_NULL_ARGUMENT);
    tree_free(&tr);
}
END_TEST

START_TEST(validation_enqueue_arguments)
{
    tree tr = example_tree(CLG_I32, 4, 9);
    clg_context *ctx = support_cl_context();
    cl_command_queue q = clg_context_cl_queue(ctx);
    cl_mem step = buffer_from(ctx, tr.step, tr.ids_bytes), parent = buffer_from(ctx, tr.parent, tr.ids_bytes);
    cl_mem seq = buffer_from(ctx, tr.seq, tr.seq_bytes), end = buffer_from(ctx, tr.end, tr.es);
    void *poison = support_poisoned(tr.ids_bytes + 8);
    cl_mem out = buffer_from(ctx, poison, tr.ids_bytes + 8);
    cl_event ev = NULL;
    ck_assert_int_eq(
        clg_gather_tree_enqueue(NULL, &tr.desc, q, step, 0, parent, 0, seq, 0, end, 0, out, 0, 0, NULL, &ev),
        CLG_ERR_NULL_ARGUMENT);
    ck_assert_int_eq(clg_gather_tree_enqueue(support_reference_context(), &tr.desc, q, step, 0, parent, 0, seq, 0, end,
                                             0, out, 0, 0, NULL, &ev),
                     CLG_ERR_NO_OPENCL);
    ck_assert_int_eq(
        clg_gather_tree_enqueue(ctx, &tr.desc, NULL, step, 0, parent, 0, seq, 0, end, 0, out, 0, 0, NULL, &ev),
        CLG_ERR_NULL_ARGUMENT);
    ck_assert_int_eq(
        clg_gather_tree_enqueue(ctx, &tr.desc, q, step, 0, parent, 0, seq, 0, end, 0, out, 0, 2, NULL, &ev),
        CLG_ERR_NULL_ARGUMENT);
    ck_assert_int_eq(clg_gather_tree_enqueue(ctx, NULL, q, step, 0, parent, 0, seq, 0, end, 0, out, 0, 0, NULL, &ev),
                     CLG_ERR_NULL_ARGUMENT);
    /* offsets of the inputs must be multiples of the element size */
    ck_assert_int_eq(
        clg_gather_tree_enqueue(ctx, &tr.desc, q, step, 2, parent, 0, seq, 0, end, 0, out, 0, 0, NULL, &ev),
        CLG_ERR_MISALIGNED_OFFSET);
    ck_assert_ptr_nonnull(strstr(clg_last_error_message(), "step_ids_offset = 2 is not a multiple of the i32 size 4"));
    ck_assert_int_eq(
        clg_gather_tree_enqueue(ctx, &tr.desc, q, step, 0, parent, 1, seq, 0, end, 0, out, 0, 0, NULL, &ev),
        CLG_ERR_MISALIGNED_OFFSET);
    ck_assert_int_eq(
        clg_gather_tree_enqueue(ctx, &tr.desc, q, step, 0, parent, 0, seq, 3, end, 0, out, 0, 0, NULL, &ev),
        CLG_ERR_MISALIGNED_OFFSET);
    ck_assert_int_eq(
        clg_gather_tree_enqueue(ctx, &tr.desc, q, step, 0, parent, 0, seq, 0, end, 6, out, 0, 0, NULL, &ev),
        CLG_ERR_MISALIGNED_OFFSET);
    /* cl_mem sizes */
    ck_assert_int_eq(
        clg_gather_tree_enqueue(ctx, &tr.desc, q, step, 4, parent, 0, seq, 0, end, 0, out, 0, 0, NULL, &ev),
        CLG_ERR_BUFFER_TOO_SMALL);
    ck_assert_ptr_nonnull(strstr(clg_last_error_message(), "step_ids"));
    ck_assert_int_eq(
        clg_gather_tree_enqueue(ctx, &tr.desc, q, step, 0, parent, 0, seq, 4, end, 0, out, 0, 0, NULL, &ev),
        CLG_ERR_BUFFER_TOO_SMALL);
    ck_assert_int_eq(
        clg_gather_tree_enqueue(ctx, &tr.desc, q, step, 0, parent, 0, seq, 0, end, 4, out, 0, 0, NULL, &ev),
        CLG_ERR_BUFFER_TOO_SMALL);
    ck_assert_int_eq(
        clg_gather_tree_enqueue(ctx, &tr.desc, q, step, 0, parent, 0, seq, 0, end, 0, out, 9, 0, NULL, &ev),
        CLG_ERR_BUFFER_TOO_SMALL);
    ck_assert_int_eq(clg_gather_tree_enqueue(ctx, &tr.desc, q, step, 0, NULL, 0, seq, 0, end, 0, out, 0, 0, NULL, &ev),
                     CLG_ERR_NULL_ARGUMENT);
    ck_assert_ptr_null(ev);
    void *back = malloc(tr.ids_bytes + 8);
    ck_assert_int_eq(clEnqueueReadBuffer(q, out, CL_TRUE, 0, tr.ids_bytes + 8, back, 0, NULL, NULL), CL_SUCCESS);
    ck_assert(support_all_poison(back, tr.ids_bytes + 8));
    free(back);
    free(poison);
    clReleaseMemObject(step);
    clReleaseMemObject(parent);
    clReleaseMemObject(seq);
    clReleaseMemObject(end);
    clReleaseMemObject(out);
    tree_free(&tr);
}
END_TEST

START_TEST(zero_sized_is_a_no_op)
{
    const int64_t shapes[][3] = {{0, 2, 3}, {4, 0, 3}, {4, 2, 0}, {0, 0, 0}};
    for (int s = 0; s < 4; ++s) {
        tree tr = tree_make(CLG_I32, shapes[s][0], shapes[s][1], shapes[s][2]);
        for (int64_t b = 0; b < tr.B; ++b) put(tr.seq, tr.type, (size_t)b, 2);
        expect_status_untouched(&tr.desc, &tr, CLG_SUCCESS, NULL, 0);
        /* the asynchronous call returns a marker event, even on NULL buffers */
        clg_context *ctx = support_cl_context();
        cl_event ev = NULL;
        cl_mem seq = buffer_from(ctx, tr.seq, tr.seq_bytes), end = buffer_from(ctx, tr.end, tr.es);
        ck_assert_int_eq(clg_gather_tree_enqueue(ctx, &tr.desc, clg_context_cl_queue(ctx), NULL, 0, NULL, 0, seq, 0,
                                                 end, 0, NULL, 0, 0, NULL, &ev),
                         CLG_SUCCESS);
        ck_assert_ptr_nonnull(ev);
        ck_assert_int_eq(clWaitForEvents(1, &ev), CL_SUCCESS);
        clReleaseEvent(ev);
        clReleaseMemObject(seq);
        clReleaseMemObject(end);
        tree_free(&tr);
    }
    /* a NaN length of a batch with no beams is never read */
    tree tr = tree_make(CLG_F32, 3, 2, 0);
    put(tr.seq, CLG_F32, 0, NAN);
    expect_status_untouched(&tr.desc, &tr, CLG_SUCCESS, NULL, 0);
    tree_free(&tr);
}
END_TEST

/* ----------------------------------------------------------------------------------------------- */
/* The asynchronous call inside larger buffers                                                     */
/* ----------------------------------------------------------------------------------------------- */

#define GUARD 64

/* A cl_mem holding `bytes` of host at byte offset `offset`, poison before and GUARD bytes after. */
static cl_mem guarded_buffer(clg_context *ctx, const void *host, size_t bytes, size_t offset)
{
    unsigned char *all = support_poisoned(offset + bytes + GUARD);
    if (host) memcpy(all + offset, host, bytes);
    cl_mem m = buffer_from(ctx, all, offset + bytes + GUARD);
    free(all);
    return m;
}

/* Run the example through the asynchronous call with every buffer at an offset, after a wait list;
 * return what the output cl_mem holds afterwards. */
static clg_status async_at_offsets(clg_context *ctx, const tree *tr, size_t out_offset, unsigned char **output_all)
{
    cl_command_queue q = clg_context_cl_queue(ctx);
    const size_t es = tr->es;
    const size_t step_off = 3 * es, parent_off = 8 * es + 16, seq_off = es, end_off = 5 * es;
    cl_mem step = guarded_buffer(ctx, tr->step, tr->ids_bytes, step_off);
    cl_mem parent = guarded_buffer(ctx, tr->parent, tr->ids_bytes, parent_off);
    cl_mem seq = guarded_buffer(ctx, tr->seq, tr->seq_bytes, seq_off);
    cl_mem end = guarded_buffer(ctx, tr->end, es, end_off);
    cl_mem out = guarded_buffer(ctx, NULL, tr->ids_bytes, out_offset);
    cl_event before = NULL, done = NULL;
    ck_assert_int_eq(clEnqueueMarkerWithWaitList(q, 0, NULL, &before), CL_SUCCESS);
    clg_status st = clg_gather_tree_enqueue(ctx, &tr->desc, q, step, step_off, parent, parent_off, seq, seq_off, end,
                                            end_off, out, out_offset, 1, &before, &done);
    if (st == CLG_SUCCESS) {
        ck_assert_int_eq(clWaitForEvents(1, &done), CL_SUCCESS);
        clReleaseEvent(done);
    } else {
        ck_assert_ptr_null(done);
    }
    const size_t total = out_offset + tr->ids_bytes + GUARD;
    *output_all = malloc(total);
    ck_assert_int_eq(clEnqueueReadBuffer(q, out, CL_TRUE, 0, total, *output_all, 0, NULL, NULL), CL_SUCCESS);
    /* the inputs are untouched too */
    cl_mem inputs[] = {step, parent, seq, end};
    const size_t offsets[] = {step_off, parent_off, seq_off, end_off};
    const size_t sizes[] = {tr->ids_bytes, tr->ids_bytes, tr->seq_bytes, es};
    const void *hosts[] = {tr->step, tr->parent, tr->seq, tr->end};
    for (int i = 0; i < 4; ++i) {
        const size_t n = offsets[i] + sizes[i] + GUARD;
        unsigned char *back = malloc(n);
        ck_assert_int_eq(clEnqueueReadBuffer(q, inputs[i], CL_TRUE, 0, n, back, 0, NULL, NULL), CL_SUCCESS);
        ck_assert(support_all_poison(back, offsets[i]));
        ck_assert(memcmp(back + offsets[i], hosts[i], sizes[i]) == 0);
        ck_assert(support_all_poison(back + offsets[i] + sizes[i], GUARD));
        free(back);
        clReleaseMemObject(inputs[i]);
    }
    clReleaseEvent(before);
    clReleaseMemObject(out);
    return st; /* only OpenCL calls since: clg_last_error_message() is still the call's */
}

START_TEST(async_at_offsets_with_guards)
{
    const clg_dtype types[] = {CLG_U8, CLG_I16, CLG_F16, CLG_F32, CLG_I64, CLG_F64};
    const size_t out_offsets[] = {0, 7, 24, 1001};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t)
        for (size_t o = 0; o < 4; ++o) {
            tree tr = example_tree(types[t], 4, 8);
            const double want[] = {3, 2, 1, 4, 6, 5, 10, 8, 7, 11, 8, 13};
            void *expected = expected_of(&tr, want);
            unsigned char *all = NULL;
            clg_status st = async_at_offsets(support_cl_context(), &tr, out_offsets[o], &all);
            ck_assert_msg(st == CLG_SUCCESS, "%s: %s", clg_status_string(st), clg_last_error_message());
            ck_assert(support_all_poison(all, out_offsets[o]));
            ck_assert_msg(memcmp(all + out_offsets[o], expected, tr.ids_bytes) == 0, "%s at %zu",
                          clg_dtype_name(types[t]), out_offsets[o]);
            ck_assert(support_all_poison(all + out_offsets[o] + tr.ids_bytes, GUARD));
            free(all);
            free(expected);
            tree_free(&tr);
        }
}
END_TEST

START_TEST(async_failure_leaves_output_untouched)
{
    tree tr = example_tree(CLG_I32, 4, 9);
    put(tr.parent, tr.type, at(&tr, 3, 0, 1), 3); /* parent == W on beam 1 */
    unsigned char *all = NULL;
    clg_status st = async_at_offsets(support_cl_context(), &tr, 12, &all);
    ck_assert_int_eq(st, CLG_ERR_INVALID_PARENT);
    ck_assert_ptr_nonnull(strstr(clg_last_error_message(), "parent_ids[3, 0, 1] = 3"));
    ck_assert(support_all_poison(all, 12 + tr.ids_bytes + GUARD));
    free(all);
    tree_free(&tr);
}
END_TEST

/* ----------------------------------------------------------------------------------------------- */
/* Verify mode                                                                                     */
/* ----------------------------------------------------------------------------------------------- */

START_TEST(verify_mode)
{
    clg_context *ctx = NULL;
    ck_assert_int_eq(clg_context_create_default(NULL, CLG_CONTEXT_VERIFY, &ctx), CLG_SUCCESS);
    tree tr = example_tree(CLG_F32, 4, 8);
    const double want[] = {3, 2, 1, 4, 6, 5, 10, 8, 7, 11, 8, 13};
    void *expected = expected_of(&tr, want);
    void *out = support_poisoned(tr.ids_bytes);
    clg_status st = clg_gather_tree(ctx, &tr.desc, tr.step, tr.ids_bytes, tr.parent, tr.ids_bytes, tr.seq, tr.seq_bytes,
                                    tr.end, tr.es, out, tr.ids_bytes);
    ck_assert_msg(st == CLG_SUCCESS, "%s: %s", clg_status_string(st), clg_last_error_message());
    ck_assert(memcmp(out, expected, tr.ids_bytes) == 0);
    unsigned char *all = NULL;
    st = async_at_offsets(ctx, &tr, 5, &all);
    ck_assert_msg(st == CLG_SUCCESS, "%s: %s", clg_status_string(st), clg_last_error_message());
    ck_assert(memcmp(all + 5, expected, tr.ids_bytes) == 0);
    free(all);
    /* failures are still reported as such, not as verify mismatches */
    put(tr.parent, tr.type, at(&tr, 2, 0, 0), NAN);
    memset(out, POISON_BYTE, tr.ids_bytes);
    st = clg_gather_tree(ctx, &tr.desc, tr.step, tr.ids_bytes, tr.parent, tr.ids_bytes, tr.seq, tr.seq_bytes, tr.end,
                         tr.es, out, tr.ids_bytes);
    ck_assert_int_eq(st, CLG_ERR_INVALID_PARENT);
    ck_assert(support_all_poison(out, tr.ids_bytes));
    free(out);
    free(expected);
    tree_free(&tr);
    clg_context_release(ctx);
}
END_TEST

START_TEST(status_string_of_seq_len)
{
    ck_assert_str_eq(clg_status_string(CLG_ERR_INVALID_SEQ_LEN), "CLG_ERR_INVALID_SEQ_LEN");
    ck_assert_int_eq(CLG_ERR_INVALID_SEQ_LEN, -2028);
    ck_assert(CLG_ERR_INVALID_SEQ_LEN >= CLG_STATUS_FIRST && CLG_ERR_INVALID_SEQ_LEN <= CLG_STATUS_LAST);
}
END_TEST

/* ----------------------------------------------------------------------------------------------- */
/* Randomized differential suite: OpenCL against the reference, bit for bit                        */
/* ----------------------------------------------------------------------------------------------- */

#define DIFF_SEED      0x67A7E5EEDull
#define DIFF_CASES     160
#define DIFF_MAX_DIM   300
#define DIFF_MAX_ELEMS 1000000

static int64_t random_dim(support_rng *rng)
{
    /* half small (edge cases), half up to a few hundred */
    return support_below(rng, 2) ? 1 + (int64_t)support_below(rng, 8) : 1 + (int64_t)support_below(rng, DIFF_MAX_DIM);
}

/* A float that is no plain number: a NaN with a random payload and sign, a signed zero, an infinity, a
 * subnormal, or the largest finite value. */
static uint64_t random_odd_float(support_rng *rng, clg_dtype t)
{
    const uint64_t ones = exponent_ones(t), fractions = (uint64_t)1 << fraction_width(t);
    const int negative = (int)support_below(rng, 2);
    switch (support_below(rng, 5)) {
    case 0: return float_bits(t, negative, ones, 1 + support_below(rng, fractions - 1));
    case 1: return float_bits(t, negative, 0, 0);
    case 2: return float_bits(t, negative, ones, 0);
    case 3: return float_bits(t, negative, 0, 1 + support_below(rng, fractions - 1));
    default: return float_bits(t, negative, ones - 1, fractions - 1);
    }
}

/* A token value: mostly small integers (so end_token appears), sometimes type-specific oddities. */
static void random_token(support_rng *rng, const tree *tr, unsigned char *base, size_t pos)
{
    uint64_t r = support_below(rng, 100);
    if (is_float(tr->type) && r < 4) {
        put_bits(base, tr->type, pos, random_odd_float(rng, tr->type));
    } else if (r < 6) {
        uint64_t bits = support_next(rng); /* any bit pattern (NaNs included for floats) */
        memcpy(base + pos * tr->es, &bits, tr->es);
    } else {
        put(base, tr->type, pos,
            is_signed(tr->type) ? (double)support_below(rng, 24) - 4 : (double)support_below(rng, 20));
    }
}

static void random_bad_parent(support_rng *rng, const tree *tr, size_t pos)
{
    const double W = (double)tr->W;
    switch (support_below(rng, is_float(tr->type) ? 7 : 3)) {
    case 0: put(tr->parent, tr->type, pos, W); break; /* may wrap in small unsigned types: still checked */
    case 1: put(tr->parent, tr->type, pos, is_signed(tr->type) ? -1 : W + 1); break;
    case 2: put(tr->parent, tr->type, pos, W + 3); break;
    case 3: put(tr->parent, tr->type, pos, NAN); break;
    case 4: put(tr->parent, tr->type, pos, tr->W > 1 ? 0.5 : 0.25); break;
    case 5: put_bits(tr->parent, tr->type, pos, random_odd_float(rng, tr->type)); break; /* -0.0 is valid */
    default: { /* the next float above the id there: a fraction, or (f16 from 1024 on) the next integer */
        uint64_t bits = 0;
        for (size_t i = 0; i < tr->es; ++i) bits |= (uint64_t)tr->parent[pos * tr->es + i] << (8 * i);
        put_bits(tr->parent, tr->type, pos, bits + 1);
        break;
    }
    }
}

START_TEST(differential_random)
{
    support_rng rng = {DIFF_SEED};
    const int cases = support_scaled(DIFF_CASES);
    printf("gather_tree differential: seed 0x%" PRIx64 ", %d cases\n", (uint64_t)DIFF_SEED, cases);
    fflush(stdout);
    int failures_compared = 0;
    int64_t largest = 0, max_t = 0, max_b = 0, max_w = 0;
    for (int c = 0; c < cases; ++c) {
        const clg_dtype type = all_types[support_below(&rng, ALL_TYPES_COUNT)];
        int64_t T, B, W;
        do {
            T = random_dim(&rng), B = random_dim(&rng), W = random_dim(&rng);
        } while (T * B * W > DIFF_MAX_ELEMS);
        /* beam indices must be representable: i8 holds up to 127 */
        const int64_t widest = clg_dtype_size(type) == 1 ? 100 : type == CLG_F16 ? 2000 : W;
        if (W > widest) W = widest;
        tree tr = tree_make(type, T, B, W);
        const size_t n = (size_t)(T * B * W);
        largest = (int64_t)n > largest ? (int64_t)n : largest;
        max_t = T > max_t ? T : max_t;
        max_b = B > max_b ? B : max_b;
        max_w = W > max_w ? W : max_w;
        for (size_t i = 0; i < n; ++i) {
            random_token(&rng, &tr, tr.step, i);
            put(tr.parent, type, i, (double)support_below(&rng, (uint64_t)W));
        }
        const int64_t seq_top = T + 3 < 2000 ? T + 3 : 2000; /* f16 holds integers exactly up to 2048 */
        const int odd_lengths = is_float(type) && support_below(&rng, 4) == 0;
        for (int64_t b = 0; b < B; ++b) {
            double len = (double)support_below(&rng, (uint64_t)seq_top + 3) - 2;
            if (!is_signed(type) && len < 0) len = 0;
            put(tr.seq, type, (size_t)b, len);
            if (odd_lengths && support_below(&rng, 8) == 0) /* no plain number */
                put_bits(tr.seq, type, (size_t)b, random_odd_float(&rng, type));
        }
        put(tr.end, type, 0, (double)support_below(&rng, 12));
        if (is_float(type) && support_below(&rng, 8) == 0) put_bits(tr.end, type, 0, random_odd_float(&rng, type));
        const int inject = support_below(&rng, 4) == 0;
        if (inject)
            for (int k = 0; k < 3; ++k) random_bad_parent(&rng, &tr, (size_t)support_below(&rng, n));

        void *want = support_poisoned(tr.ids_bytes), *got = support_poisoned(tr.ids_bytes);
        clg_status want_st = run_path(PATH_REFERENCE_FUNCTION, &tr.desc, &tr, want, tr.ids_bytes);
        char want_message[1024];
        snprintf(want_message, sizeof want_message, "%s", call_message);
        const int path = c % 3 == 2 ? PATH_OPENCL_ASYNC : PATH_OPENCL;
        clg_status got_st = run_path(path, &tr.desc, &tr, got, tr.ids_bytes);
        ck_assert_msg(got_st == want_st,
                      "case %d (%s T=%" PRId64 " B=%" PRId64 " W=%" PRId64 "): %s gives %s (%s), the reference %s (%s)",
                      c, clg_dtype_name(type), T, B, W, path_names[path], clg_status_string(got_st), call_message,
                      clg_status_string(want_st), want_message);
        if (want_st == CLG_SUCCESS) {
            ck_assert_msg(memcmp(got, want, tr.ids_bytes) == 0,
                          "case %d (%s T=%" PRId64 " B=%" PRId64 " W=%" PRId64 "): outputs differ", c,
                          clg_dtype_name(type), T, B, W);
        } else {
            ++failures_compared;
            ck_assert_str_eq(call_message, want_message);
            ck_assert(support_all_poison(got, tr.ids_bytes));
            ck_assert(support_all_poison(want, tr.ids_bytes));
        }
        free(want);
        free(got);
        tree_free(&tr);
    }
    printf("gather_tree differential: %d failing cases compared; largest T*B*W %" PRId64 "; max T %" PRId64
           ", B %" PRId64 ", W %" PRId64 "\n",
           failures_compared, largest, max_t, max_b, max_w);
    /* the full run's seed injects failures that its backtracks follow; a scaled-down run may not */
    if (cases == DIFF_CASES) ck_assert_msg(failures_compared > 0, "the seed produced no failing case to compare");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gather_tree");
    TCase *examples = tcase_create("examples");
    tcase_add_test(examples, pseudocode_example_i32);
    tcase_add_test(examples, every_element_type);
    tcase_add_test(examples, f16_end_token_and_fraction);
    tcase_add_test(examples, end_token_in_the_middle);
    tcase_add_test(examples, end_token_never_appearing);
    tcase_add_test(examples, end_token_off_the_path_is_ignored);
    tcase_add_test(examples, batches_full_length);
    tcase_add_test(examples, batches_shorter_length);
    tcase_add_test(examples, max_seq_len_one);
    tcase_add_test(examples, max_seq_len_zero);
    tcase_add_test(examples, max_seq_len_negative);
    tcase_add_test(examples, max_seq_len_above_max_time);
    tcase_add_test(examples, max_seq_len_float_not_integral);
    tcase_add_test(examples, negative_zero_end_token_matches_zero);
    tcase_add_test(examples, nan_end_token_never_matches);
    suite_add_tcase(s, examples);

    TCase *parents = tcase_create("parents");
    tcase_add_test(parents, parent_equal_to_width);
    tcase_add_test(parents, parent_minus_one);
    tcase_add_test(parents, parent_far_above_width);
    tcase_add_test(parents, parent_nan_and_fraction_f32);
    tcase_add_test(parents, parent_negative_zero_is_zero);
    tcase_add_test(parents, parent_not_followed_is_ignored);
    tcase_add_test(parents, first_failure_is_smallest_beam);
    tcase_add_test(parents, first_failure_in_batch_order);
    suite_add_tcase(s, parents);

    TCase *floats = tcase_create("floats");
    tcase_add_test(floats, float_end_token_equality);
    tcase_add_test(floats, float_parent_ids_not_beam_indices);
    tcase_add_test(floats, float_lengths_from_bits);
    tcase_add_test(floats, float_beam_indices_of_every_size);
    suite_add_tcase(s, floats);

    TCase *validation = tcase_create("validation");
    tcase_add_test(validation, validation_types);
    tcase_add_test(validation, validation_ranks);
    tcase_add_test(validation, validation_shapes);
    tcase_add_test(validation, validation_size_overflow);
    tcase_add_test(validation, validation_null_and_small_host_buffers);
    tcase_add_test(validation, validation_enqueue_arguments);
    tcase_add_test(validation, zero_sized_is_a_no_op);
    tcase_add_test(validation, status_string_of_seq_len);
    suite_add_tcase(s, validation);

    TCase *async = tcase_create("async_and_verify");
    tcase_add_test(async, async_at_offsets_with_guards);
    tcase_add_test(async, async_failure_leaves_output_untouched);
    tcase_add_test(async, verify_mode);
    suite_add_tcase(s, async);

    TCase *differential = tcase_create("differential");
    tcase_add_test(differential, differential_random);
    suite_add_tcase(s, differential);
    return support_run_suite(s);
}
