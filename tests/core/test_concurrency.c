/* Many host threads sharing one context: mixed gather and gather-tree calls, different element and
 * index types (so different specializations get built concurrently), through the context's shared
 * queue (synchronous calls) and through per-thread queues (enqueue calls). Every result must be
 * bit-exact with the CPU reference. CLGATHER_DEVICE picks the device ("cpu" runs the reference
 * context, which is how the ThreadSanitizer build runs it); CLGATHER_STRESS_CALLS overrides the
 * number of calls per thread. */
#include "test_support.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { THREADS = 8, DEFAULT_CALLS = 1000 };

static int calls_per_thread = DEFAULT_CALLS;
static clg_context *shared_ctx;

typedef struct worker {
    int id;
    int mismatches;
    int calls;
    char first_problem[256];
} worker;

static void note(worker *w, const char *what, clg_status got, clg_status want)
{
    if (w->mismatches++ == 0)
        snprintf(w->first_problem, sizeof w->first_problem, "thread %d call %d: %s (status %s vs %s)", w->id, w->calls,
                 what, clg_status_string(got), clg_status_string(want));
}

/* Run a gather through the chosen path; returns the status, output in out. */
static clg_status run_gather(cl_command_queue own_queue, const clg_gather_desc *d, const void *data, size_t data_bytes,
                             const void *idx, size_t idx_bytes, void *out, size_t out_bytes)
{
    if (!own_queue) return clg_gather(shared_ctx, d, data, data_bytes, idx, idx_bytes, out, out_bytes);
    cl_context cl = clg_context_cl_context(shared_ctx);
    cl_int err;
    cl_mem bd = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, data_bytes, (void *)data, &err);
    cl_mem bi = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, idx_bytes, (void *)idx, &err);
    cl_mem bo = clCreateBuffer(cl, CL_MEM_READ_WRITE, out_bytes, NULL, &err);
    cl_event done = NULL;
    clg_status st = clg_gather_enqueue(shared_ctx, d, own_queue, bd, 0, bi, 0, bo, 0, 0, NULL, &done);
    if (st == CLG_SUCCESS) {
        clEnqueueReadBuffer(own_queue, bo, CL_TRUE, 0, out_bytes, out, 1, &done, NULL);
        clReleaseEvent(done);
    }
    clReleaseMemObject(bd);
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    return st;
}

static void one_gather(worker *w, support_rng *rng, cl_command_queue own_queue)
{
    static const clg_dtype types[] = {CLG_U8, CLG_I16, CLG_F16, CLG_F32, CLG_F64, CLG_C64, CLG_C128};
    static const clg_dtype index_types[] = {CLG_I8, CLG_U16, CLG_I32, CLG_U32, CLG_I64};
    const clg_dtype type = types[support_below(rng, 7)];
    const clg_dtype index_type = index_types[support_below(rng, 5)];
    const int64_t rows = 1 + (int64_t)support_below(rng, 30), width = 1 + (int64_t)support_below(rng, 12);
    const int64_t n = 1 + (int64_t)support_below(rng, 24), axis = (int64_t)support_below(rng, 2);
    const int64_t ds[] = {rows, width}, is[] = {n};
    clg_gather_desc d = support_ov_desc(CLG_OV_GATHER_8, type, 2, ds, index_type, 1, is, &axis, 0);
    d.oob_policy = (clg_oob_policy)support_below(rng, CLG_OOB_COUNT);
    const size_t es = clg_dtype_size(type), data_bytes = (size_t)(rows * width) * es;
    const size_t out_bytes = (size_t)(axis == 0 ? n * width : rows * n) * es,
                 idx_bytes = (size_t)n * clg_dtype_size(index_type);
    const int64_t A = axis == 0 ? rows : width;
    unsigned char *data = malloc(data_bytes), *idx = malloc(idx_bytes), *got = malloc(out_bytes),
                  *want = malloc(out_bytes);
    for (size_t k = 0; k < data_bytes; ++k) data[k] = (unsigned char)support_next(rng);
    for (int64_t k = 0; k < n; ++k)
        support_store_int(idx, index_type, (size_t)k, (int64_t)support_below(rng, (uint64_t)A + 2) - 1);
    memset(got, POISON_BYTE, out_bytes);
    memset(want, POISON_BYTE, out_bytes);
    clg_status a = run_gather(own_queue, &d, data, data_bytes, idx, idx_bytes, got, out_bytes);
    clg_status b = clg_gather_reference(&d, data, data_bytes, idx, idx_bytes, want, out_bytes);
    if (a != b || memcmp(got, want, out_bytes) != 0) note(w, "gather differs", a, b);
    free(data);
    free(idx);
    free(got);
    free(want);
}

static void one_gather_tree(worker *w, support_rng *rng)
{
    static const clg_dtype types[] = {CLG_I32, CLG_I64, CLG_U8, CLG_F32, CLG_F64};
    /* f64 needs no cl_khr_fp64: the kernel decodes floats from their bits */
    const clg_dtype type = types[support_below(rng, 5)];
    const int64_t T = 1 + (int64_t)support_below(rng, 12), B = 1 + (int64_t)support_below(rng, 4),
                  W = 1 + (int64_t)support_below(rng, 5);
    const size_t es = clg_dtype_size(type), n = (size_t)(T * B * W);
    clg_gather_tree_desc d;
    memset(&d, 0, sizeof d);
    const int64_t tbw[] = {T, B, W}, b[] = {B};
    support_shape(&d.step_ids, type, 3, tbw);
    support_shape(&d.parent_ids, type, 3, tbw);
    support_shape(&d.max_seq_len, type, 1, b);
    support_shape(&d.end_token, type, 0, NULL);
    unsigned char *step = malloc(n * es), *parent = malloc(n * es), *len = malloc((size_t)B * es), end[8];
    unsigned char *got = malloc(n * es), *want = malloc(n * es);
    const int floating = type == CLG_F32 || type == CLG_F64;
    for (size_t k = 0; k < n; ++k) {
        int64_t s = (int64_t)support_below(rng, 10), p = (int64_t)support_below(rng, (uint64_t)W);
        if (support_below(rng, 50) == 0) p = W; /* an invalid parent now and then */
        if (floating && type == CLG_F32) {
            float fs = (float)s, fp = (float)p;
            memcpy(step + k * es, &fs, es);
            memcpy(parent + k * es, &fp, es);
        } else if (floating) {
            double fs = (double)s, fp = (double)p;
            memcpy(step + k * es, &fs, es);
            memcpy(parent + k * es, &fp, es);
        } else {
            support_store_int(step, type, k, s);
            support_store_int(parent, type, k, p);
        }
    }
    for (int64_t k = 0; k < B; ++k) {
        int64_t l = (int64_t)support_below(rng, (uint64_t)T + 3) - 1;
        if (type == CLG_U8 && l < 0) l = 0;
        if (type == CLG_F32) {
            float f = (float)l;
            memcpy(len + (size_t)k * es, &f, es);
        } else if (type == CLG_F64) {
            double f = (double)l;
            memcpy(len + (size_t)k * es, &f, es);
        } else {
            support_store_int(len, type, (size_t)k, l);
        }
    }
    if (type == CLG_F32) {
        float e = 9.0f;
        memcpy(end, &e, 4);
    } else if (type == CLG_F64) {
        double e = 9.0;
        memcpy(end, &e, 8);
    } else {
        support_store_int(end, type, 0, 9);
    }
    memset(got, POISON_BYTE, n * es);
    memset(want, POISON_BYTE, n * es);
    clg_status a =
        clg_gather_tree(shared_ctx, &d, step, n * es, parent, n * es, len, (size_t)B * es, end, es, got, n * es);
    clg_status r =
        clg_gather_tree_reference(&d, step, n * es, parent, n * es, len, (size_t)B * es, end, es, want, n * es);
    if (a != r || memcmp(got, want, n * es) != 0) note(w, "gather-tree differs", a, r);
    free(step);
    free(parent);
    free(len);
    free(got);
    free(want);
}

static void *work(void *arg)
{
    worker *w = arg;
    support_rng rng = {0x5EED0000ull + (uint64_t)w->id};
    cl_command_queue own = NULL;
    cl_context cl = clg_context_cl_context(shared_ctx);
    if (cl && w->id % 2 == 1) { /* odd threads use a queue of their own, even ones the shared queue */
        cl_int err;
        own = clCreateCommandQueue(cl, clg_context_cl_device(shared_ctx), 0, &err);
    }
    for (w->calls = 0; w->calls < calls_per_thread; ++w->calls) {
        if (support_below(&rng, 4) == 0)
            one_gather_tree(w, &rng);
        else
            one_gather(w, &rng, own);
    }
    if (own) clReleaseCommandQueue(own);
    return NULL;
}

START_TEST(eight_threads_one_context)
{
    ck_assert_int_eq(clg_context_create_default(NULL, 0, &shared_ctx), CLG_SUCCESS);
    clg_device_info info;
    clg_context_device_info(shared_ctx, &info);
    printf("test_concurrency: %d threads x %d calls on %s\n", THREADS, calls_per_thread, info.device_name);
    pthread_t threads[THREADS];
    worker workers[THREADS];
    for (int t = 0; t < THREADS; ++t) {
        memset(&workers[t], 0, sizeof workers[t]);
        workers[t].id = t;
        ck_assert_int_eq(pthread_create(&threads[t], NULL, work, &workers[t]), 0);
    }
    int mismatches = 0;
    for (int t = 0; t < THREADS; ++t) {
        pthread_join(threads[t], NULL);
        if (workers[t].mismatches) printf("%s\n", workers[t].first_problem);
        mismatches += workers[t].mismatches;
    }
    clg_context_release(shared_ctx);
    shared_ctx = NULL;
    ck_assert_int_eq(mismatches, 0);
}
END_TEST

int main(void)
{
    const char *calls = getenv("CLGATHER_STRESS_CALLS");
    if (calls && atoi(calls) > 0) calls_per_thread = atoi(calls);
    Suite *s = suite_create("concurrency");
    TCase *tc = tcase_create("threads");
    tcase_set_timeout(tc, 1200);
    tcase_add_test(tc, eight_threads_one_context);
    suite_add_tcase(s, tc);
    return support_run_suite(s);
}
