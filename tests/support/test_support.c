#include "test_support.h"

#include <stdlib.h>

static clg_context *cl_ctx, *ref_ctx;

static void release_contexts(void)
{
    clg_context_release(cl_ctx);
    clg_context_release(ref_ctx);
    cl_ctx = ref_ctx = NULL;
}

static void register_release(void)
{
    static int registered;
    if (!registered) {
        atexit(release_contexts);
        registered = 1;
    }
}

clg_context *support_cl_context(void)
{
    if (!cl_ctx) {
        clg_status st = clg_context_create_default(NULL, 0, &cl_ctx);
        ck_assert_msg(st == CLG_SUCCESS, "no OpenCL context: %s: %s", clg_status_string(st), clg_last_error_message());
        clg_device_info info;
        clg_context_device_info(cl_ctx, &info);
        ck_assert_msg(!info.is_reference, "the default device must be OpenCL for these tests");
        register_release();
    }
    return cl_ctx;
}

clg_context *support_reference_context(void)
{
    if (!ref_ctx) {
        clg_status st = clg_context_create_default("cpu", 0, &ref_ctx);
        ck_assert_int_eq(st, CLG_SUCCESS);
        register_release();
    }
    return ref_ctx;
}

int support_platform_is(const char *name)
{
    clg_device_info info;
    return clg_context_device_info(support_cl_context(), &info) == CLG_SUCCESS &&
           strstr(info.platform_name, name) != NULL;
}

int support_scaled(int count)
{
    const char *text = getenv("CLGATHER_TEST_SCALE");
    const double scale = text ? atof(text) : 1.0;
    const int scaled = scale > 0 ? (int)(count * scale) : count;
    return scaled > 0 ? scaled : 1;
}

int support_run_suite(Suite *suite)
{
    SRunner *runner = srunner_create(suite);
    srunner_set_fork_status(runner, CK_NOFORK);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    /* Release while main still runs: exit() destroys thread-local objects before it calls atexit
     * handlers, and Oclgrind's API entry points use a thread-local stack (tests/drivers/
     * oclgrind_atexit_teardown). The atexit handler stays for suites that exit another way. */
    release_contexts();
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

uint64_t support_next(support_rng *rng)
{
    uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t support_below(support_rng *rng, uint64_t bound) { return support_next(rng) % bound; }

void *support_poisoned(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    ck_assert_ptr_nonnull(p);
    memset(p, POISON_BYTE, bytes ? bytes : 1);
    return p;
}

int support_all_poison(const void *p, size_t bytes)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < bytes; ++i)
        if (b[i] != POISON_BYTE) return 0;
    return 1;
}

void support_store_int(void *base, clg_dtype t, size_t pos, int64_t v)
{
    unsigned char *p = (unsigned char *)base + pos * clg_dtype_size(t);
    switch (clg_dtype_size(t)) {
    case 1: {
        uint8_t x = (uint8_t)v;
        memcpy(p, &x, 1);
        break;
    }
    case 2: {
        uint16_t x = (uint16_t)v;
        memcpy(p, &x, 2);
        break;
    }
    case 4: {
        uint32_t x = (uint32_t)v;
        memcpy(p, &x, 4);
        break;
    }
    default: {
        uint64_t x = (uint64_t)v;
        memcpy(p, &x, 8);
        break;
    }
    }
}

void support_shape(clg_tensor_desc *t, clg_dtype type, int32_t rank, const int64_t *shape)
{
    memset(t, 0, sizeof *t);
    t->type = type;
    t->rank = rank;
    for (int32_t d = 0; d < rank; ++d) t->shape[d] = shape[d];
}

clg_gather_desc support_ov_desc(clg_preset preset, clg_dtype data_type, int32_t data_rank, const int64_t *data_shape,
                                clg_dtype index_type, int32_t indices_rank, const int64_t *indices_shape,
                                const int64_t *axis_storage, int64_t batch_dims)
{
    clg_gather_desc d;
    memset(&d, 0, sizeof d);
    d.preset = preset;
    support_shape(&d.data, data_type, data_rank, data_shape);
    support_shape(&d.indices, index_type, indices_rank, indices_shape);
    d.axis_tensor.type = CLG_I64;
    d.axis_tensor.rank = 0;
    d.axis_value = axis_storage;
    d.batch_dims = batch_dims;
    return d;
}

clg_gather_desc support_onnx_desc(clg_preset preset, clg_dtype data_type, int32_t data_rank, const int64_t *data_shape,
                                  clg_dtype index_type, int32_t indices_rank, const int64_t *indices_shape,
                                  int64_t axis)
{
    clg_gather_desc d;
    memset(&d, 0, sizeof d);
    d.preset = preset;
    support_shape(&d.data, data_type, data_rank, data_shape);
    support_shape(&d.indices, index_type, indices_rank, indices_shape);
    d.axis = axis;
    return d;
}

static cl_mem guarded_buffer(cl_context cl, const void *content, size_t bytes, size_t guard)
{
    size_t total = guard + bytes + guard;
    unsigned char *staging = malloc(total ? total : 1);
    ck_assert_ptr_nonnull(staging);
    memset(staging, POISON_BYTE, total ? total : 1);
    if (content && bytes) memcpy(staging + guard, content, bytes);
    cl_int err = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, total ? total : 1, staging, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    free(staging);
    return mem;
}

clg_status support_enqueue_gather(clg_context *ctx, const clg_gather_desc *desc, const void *data, size_t data_bytes,
                                  const void *indices, size_t indices_bytes, size_t out_bytes, size_t guard,
                                  void *out_region)
{
    cl_context cl = clg_context_cl_context(ctx);
    cl_command_queue queue = clg_context_cl_queue(ctx);
    size_t index_size = clg_dtype_size(desc->indices.type);
    size_t index_guard = index_size ? (guard + index_size - 1) / index_size * index_size : guard;
    cl_mem d = guarded_buffer(cl, data, data_bytes, guard);
    cl_mem i = guarded_buffer(cl, indices, indices_bytes, index_guard);
    cl_mem o = guarded_buffer(cl, NULL, out_bytes, guard);
    cl_event done = NULL;
    clg_status st = clg_gather_enqueue(ctx, desc, queue, d, guard, i, index_guard, o, guard, 0, NULL, &done);
    if (st == CLG_SUCCESS) {
        ck_assert_ptr_nonnull(done);
        ck_assert_int_eq(clWaitForEvents(1, &done), CL_SUCCESS);
        clReleaseEvent(done);
    }
    ck_assert_int_eq(clEnqueueReadBuffer(queue, o, CL_TRUE, 0, guard + out_bytes + guard, out_region, 0, NULL, NULL),
                     CL_SUCCESS);
    clReleaseMemObject(d);
    clReleaseMemObject(i);
    clReleaseMemObject(o);
    return st;
}

int support_guards_intact(const void *region, size_t guard, size_t bytes)
{
    const unsigned char *r = region;
    return support_all_poison(r, guard) && support_all_poison(r + guard + bytes, guard);
}
