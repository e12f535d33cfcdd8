#include "op_support.h"

#include "testing/testing.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- the three operations behind one interface ------------------------------------------------ */

/* Each operation's public calls with its descriptor as `const void *`. */
#define SUPPORT_OP(NAME, DESC)                                                                                      \
    static clg_status NAME##_output_shape(const void *desc, int32_t *out_rank, int64_t *out_shape)                  \
    {                                                                                                               \
        return clg_##NAME##_output_shape((const DESC *)desc, out_rank, out_shape);                                  \
    }                                                                                                               \
    static clg_status NAME##_sizes(const void *desc, uint64_t *data_bytes, uint64_t *indices_bytes,                 \
                                   uint64_t *output_bytes)                                                          \
    {                                                                                                               \
        return clg_##NAME##_sizes((const DESC *)desc, data_bytes, indices_bytes, output_bytes);                     \
    }                                                                                                               \
    static clg_status NAME##_reference(const void *desc, const void *data, size_t data_bytes, const void *indices,  \
                                       size_t indices_bytes, void *output, size_t output_bytes)                     \
    {                                                                                                               \
        return clg_##NAME##_reference((const DESC *)desc, data, data_bytes, indices, indices_bytes, output,         \
                                      output_bytes);                                                                \
    }                                                                                                               \
    static clg_status NAME##_sync(clg_context *ctx, const void *desc, const void *data, size_t data_bytes,          \
                                  const void *indices, size_t indices_bytes, void *output, size_t output_bytes)     \
    {                                                                                                               \
        return clg_##NAME(ctx, (const DESC *)desc, data, data_bytes, indices, indices_bytes, output, output_bytes); \
    }                                                                                                               \
    static clg_status NAME##_enqueue(clg_context *ctx, const void *desc, cl_command_queue queue, cl_mem data,       \
                                     size_t data_offset, cl_mem indices, size_t indices_offset, cl_mem output,      \
                                     size_t output_offset, cl_uint num_events, const cl_event *wait_list,           \
                                     cl_event *out_event)                                                           \
    {                                                                                                               \
        return clg_##NAME##_enqueue(ctx, (const DESC *)desc, queue, data, data_offset, indices, indices_offset,     \
                                    output, output_offset, num_events, wait_list, out_event);                       \
    }                                                                                                               \
    static clg_dtype NAME##_index_type(const void *desc) { return ((const DESC *)desc)->indices.type; }             \
    const support_op support_##NAME = {#NAME,       NAME##_output_shape, NAME##_sizes,     NAME##_reference,        \
                                       NAME##_sync, NAME##_enqueue,      NAME##_index_type}

SUPPORT_OP(gather, clg_gather_desc);
SUPPORT_OP(gather_elements, clg_gather_elements_desc);
SUPPORT_OP(gather_nd, clg_gather_nd_desc);

/* ---- enqueue with guard bytes ----------------------------------------------------------------- */

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

clg_status support_enqueue_op(const support_op *op, clg_context *ctx, const void *desc, const void *data,
                              size_t data_bytes, const void *indices, size_t indices_bytes, size_t out_bytes,
                              size_t guard, void *out_region)
{
    cl_context cl = clg_context_cl_context(ctx);
    cl_command_queue queue = clg_context_cl_queue(ctx);
    const size_t index_size = clg_dtype_size(op->index_type(desc));
    const size_t index_guard = index_size ? (guard + index_size - 1) / index_size * index_size : guard;
    cl_mem d = guarded_buffer(cl, data, data_bytes, guard);
    cl_mem i = guarded_buffer(cl, indices, indices_bytes, index_guard);
    cl_mem o = guarded_buffer(cl, NULL, out_bytes, guard);
    cl_event done = NULL;
    clg_status st = op->enqueue(ctx, desc, queue, d, guard, i, index_guard, o, guard, 0, NULL, &done);
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

/* ---- examples and validation ------------------------------------------------------------------ */

void support_check_example(const support_op *op, const void *desc, const void *data, size_t data_bytes,
                           const void *indices, size_t indices_bytes, const void *expected, size_t expected_bytes,
                           int32_t rank, const int64_t *shape)
{
    int32_t got_rank = -1;
    int64_t got_shape[CLG_MAX_OUTPUT_RANK];
    clg_status st = op->output_shape(desc, &got_rank, got_shape);
    ck_assert_msg(st == CLG_SUCCESS, "%s output shape: %s", op->name, clg_last_error_message());
    ck_assert_int_eq(got_rank, rank);
    for (int32_t d = 0; d < rank; ++d) ck_assert_int_eq(got_shape[d], shape[d]);

    unsigned char *out = support_poisoned(expected_bytes);
    st = op->reference(desc, data, data_bytes, indices, indices_bytes, out, expected_bytes);
    ck_assert_msg(st == CLG_SUCCESS, "%s reference: %s", op->name, clg_last_error_message());
    ck_assert_mem_eq(out, expected, expected_bytes);

    clg_context *ctx = support_cl_context();
    for (int m = 0; m < 2; ++m) {
        const char *mapping = support_mappings[m];
        support_use_mapping(ctx, mapping);
        memset(out, POISON_BYTE, expected_bytes);
        st = op->sync(ctx, desc, data, data_bytes, indices, indices_bytes, out, expected_bytes);
        ck_assert_msg(st == CLG_SUCCESS, "%s sync (mapping %s): %s", op->name, mapping, clg_last_error_message());
        ck_assert_mem_eq(out, expected, expected_bytes);

        const size_t guard = 24;
        unsigned char *region = support_poisoned(guard + expected_bytes + guard);
        st = support_enqueue_op(op, ctx, desc, data, data_bytes, indices, indices_bytes, expected_bytes, guard, region);
        ck_assert_msg(st == CLG_SUCCESS, "%s enqueue (mapping %s): %s", op->name, mapping, clg_last_error_message());
        ck_assert_mem_eq(region + guard, expected, expected_bytes);
        ck_assert(support_guards_intact(region, guard, expected_bytes));
        free(region);
    }
    support_use_mapping(ctx, NULL);
    free(out);
}

enum { SMALL = 256 };

void support_expect_rejected(const support_op *op, const void *desc, clg_status want, const char *fragment)
{
    static const unsigned char zeros[SMALL];
    int32_t rank;
    int64_t shape[CLG_MAX_OUTPUT_RANK];
    clg_status st = op->output_shape(desc, &rank, shape);
    ck_assert_msg(st == want, "output_shape: %s, want %s (%s)", clg_status_string(st), clg_status_string(want),
                  clg_last_error_message());
    ck_assert_msg(strstr(clg_last_error_message(), fragment), "message \"%s\" lacks \"%s\"", clg_last_error_message(),
                  fragment);
    ck_assert_int_eq(op->sizes(desc, NULL, NULL, NULL), want);

    unsigned char *out = support_poisoned(SMALL);
    st = op->reference(desc, zeros, SMALL, zeros, SMALL, out, SMALL);
    ck_assert_msg(st == want, "reference: %s (%s)", clg_status_string(st), clg_last_error_message());
    st = op->sync(support_cl_context(), desc, zeros, SMALL, zeros, SMALL, out, SMALL);
    ck_assert_msg(st == want, "sync: %s (%s)", clg_status_string(st), clg_last_error_message());
    ck_assert(support_all_poison(out, SMALL));
    free(out);

    unsigned char *region = support_poisoned(SMALL + 32);
    st = support_enqueue_op(op, support_cl_context(), desc, zeros, SMALL, zeros, SMALL, SMALL, 16, region);
    ck_assert_msg(st == want, "enqueue: %s (%s)", clg_status_string(st), clg_last_error_message());
    ck_assert(support_all_poison(region, SMALL + 32));
    free(region);
}

void support_expect_null_arguments(const support_op *op, const void *desc)
{
    static const unsigned char zeros[SMALL];
    int32_t rank;
    int64_t shape[CLG_MAX_OUTPUT_RANK];
    ck_assert_int_eq(op->output_shape(NULL, &rank, shape), CLG_ERR_NULL_ARGUMENT);
    ck_assert_msg(strstr(clg_last_error_message(), "desc is NULL"), "%s", clg_last_error_message());
    ck_assert_int_eq(op->output_shape(desc, &rank, NULL), CLG_ERR_NULL_ARGUMENT);
    unsigned char *out = support_poisoned(SMALL);
    ck_assert_int_eq(op->sync(NULL, desc, zeros, SMALL, zeros, SMALL, out, SMALL), CLG_ERR_NULL_ARGUMENT);
    ck_assert_msg(strstr(clg_last_error_message(), "ctx is NULL"), "%s", clg_last_error_message());
    ck_assert_int_eq(op->reference(desc, NULL, SMALL, zeros, SMALL, out, SMALL), CLG_ERR_NULL_ARGUMENT);
    ck_assert_msg(strstr(clg_last_error_message(), "data is NULL"), "%s", clg_last_error_message());
    ck_assert(support_all_poison(out, SMALL));
    free(out);
}

void support_expect_zeros(const support_op *op, const void *desc, const void *data, size_t data_bytes,
                          const void *indices, size_t indices_bytes, size_t out_bytes)
{
    clg_context *ctx = support_cl_context();
    unsigned char *out = malloc(out_bytes ? out_bytes : 1), *zeros = calloc(1, out_bytes ? out_bytes : 1);
    ck_assert(out && zeros);
    for (int m = 0; m < 2; ++m) {
        support_use_mapping(ctx, support_mappings[m]);
        memset(out, POISON_BYTE, out_bytes);
        ck_assert_int_eq(op->sync(ctx, desc, data, data_bytes, indices, indices_bytes, out, out_bytes), CLG_SUCCESS);
        ck_assert_mem_eq(out, zeros, out_bytes);
    }
    support_use_mapping(ctx, NULL);
    memset(out, POISON_BYTE, out_bytes);
    ck_assert_int_eq(op->reference(desc, data, data_bytes, indices, indices_bytes, out, out_bytes), CLG_SUCCESS);
    ck_assert_mem_eq(out, zeros, out_bytes);
    free(out);
    free(zeros);
}

void support_expect_verify_mode(const support_op *op, const void *desc, const void *data, size_t data_bytes,
                                const void *indices, size_t indices_bytes, size_t out_bytes)
{
    clg_context *ctx = NULL;
    ck_assert_int_eq(clg_context_create_default(NULL, CLG_CONTEXT_VERIFY, &ctx), CLG_SUCCESS);
    unsigned char *want = support_poisoned(out_bytes), *got = support_poisoned(out_bytes);
    unsigned char *region = support_poisoned(out_bytes + 2 * 8);
    ck_assert_int_eq(op->reference(desc, data, data_bytes, indices, indices_bytes, want, out_bytes), CLG_SUCCESS);
    for (int corrupt = 0; corrupt <= 1; ++corrupt) {
        clg_testing_corrupt_verify_readback(ctx, corrupt);
        const clg_status expected = corrupt ? CLG_ERR_VERIFY_MISMATCH : CLG_SUCCESS;
        memset(got, POISON_BYTE, out_bytes);
        ck_assert_int_eq(op->sync(ctx, desc, data, data_bytes, indices, indices_bytes, got, out_bytes), expected);
        memset(region, POISON_BYTE, out_bytes + 2 * 8);
        ck_assert_int_eq(
            support_enqueue_op(op, ctx, desc, data, data_bytes, indices, indices_bytes, out_bytes, 8, region),
            expected);
        if (corrupt) {
            ck_assert_msg(strstr(clg_last_error_message(), "on the device but"), "%s", clg_last_error_message());
            ck_assert(support_all_poison(got, out_bytes));
            ck_assert(support_all_poison(region, out_bytes + 2 * 8));
        } else {
            ck_assert_mem_eq(got, want, out_bytes);
            ck_assert_mem_eq(region + 8, want, out_bytes);
        }
    }
    free(want);
    free(got);
    free(region);
    clg_context_release(ctx);
}

void support_expect_index_error(const support_op *op, const void *desc, const void *data, size_t data_bytes,
                                const void *indices, size_t indices_bytes, size_t out_bytes, const char *fragment)
{
    clg_context *ctx = support_cl_context();
    unsigned char *out = support_poisoned(out_bytes);
    ck_assert_int_eq(op->reference(desc, data, data_bytes, indices, indices_bytes, out, out_bytes),
                     CLG_ERR_INDEX_OUT_OF_RANGE);
    ck_assert_msg(strstr(clg_last_error_message(), fragment), "reference: %s", clg_last_error_message());
    ck_assert_int_eq(op->sync(ctx, desc, data, data_bytes, indices, indices_bytes, out, out_bytes),
                     CLG_ERR_INDEX_OUT_OF_RANGE);
    ck_assert_msg(strstr(clg_last_error_message(), fragment), "sync: %s", clg_last_error_message());
    ck_assert(support_all_poison(out, out_bytes));
    free(out);
    /* the device check in both mappings: chunks per work-item (CPU), adjacent items (GPU) */
    for (int m = 0; m < 2; ++m) {
        const char *mapping = support_mappings[m];
        support_use_mapping(ctx, mapping);
        unsigned char *region = support_poisoned(out_bytes + 64);
        ck_assert_int_eq(
            support_enqueue_op(op, ctx, desc, data, data_bytes, indices, indices_bytes, out_bytes, 32, region),
            CLG_ERR_INDEX_OUT_OF_RANGE);
        ck_assert_msg(strstr(clg_last_error_message(), fragment), "enqueue (mapping %s): %s", mapping,
                      clg_last_error_message());
        ck_assert(support_all_poison(region, out_bytes + 64));
        free(region);
    }
    support_use_mapping(ctx, NULL);
}

/* ---- differential ----------------------------------------------------------------------------- */

void support_compare_with_reference(const support_op *op, const void *desc, const void *data, size_t data_bytes,
                                    const void *indices, size_t indices_bytes, size_t out_bytes, int use_enqueue,
                                    size_t guard, const char *name)
{
    char ref_message[1024];
    unsigned char *want = support_poisoned(out_bytes);
    clg_status want_st = op->reference(desc, data, data_bytes, indices, indices_bytes, want, out_bytes);
    snprintf(ref_message, sizeof ref_message, "%s", clg_last_error_message());
    clg_context *ctx = support_cl_context();
    clg_status got_st;
    unsigned char *got = support_poisoned(out_bytes);
    if (use_enqueue) {
        unsigned char *region = support_poisoned(guard + out_bytes + guard);
        got_st = support_enqueue_op(op, ctx, desc, data, data_bytes, indices, indices_bytes, out_bytes, guard, region);
        ck_assert_msg(support_guards_intact(region, guard, out_bytes), "%s: guard bytes overwritten", name);
        memcpy(got, region + guard, out_bytes);
        free(region);
    } else {
        got_st = op->sync(ctx, desc, data, data_bytes, indices, indices_bytes, got, out_bytes);
    }
    ck_assert_msg(got_st == want_st, "%s (enqueue %d, guard %zu): OpenCL %s (%s) vs reference %s (%s)", name,
                  use_enqueue, guard, clg_status_string(got_st), clg_last_error_message(), clg_status_string(want_st),
                  ref_message);
    if (want_st == CLG_SUCCESS) {
        ck_assert_msg(memcmp(got, want, out_bytes) == 0, "%s (enqueue %d, guard %zu): outputs differ", name,
                      use_enqueue, guard);
    } else {
        ck_assert_msg(support_all_poison(got, out_bytes), "%s: output written on failure", name);
        ck_assert_msg(support_all_poison(want, out_bytes), "%s: reference wrote output on failure", name);
        ck_assert_msg(strcmp(clg_last_error_message(), ref_message) == 0, "%s: messages differ:\n  %s\n  %s", name,
                      clg_last_error_message(), ref_message);
    }
    free(got);
    free(want);
}

const clg_dtype support_data_types[SUPPORT_DATA_TYPES] = {CLG_BOOL, CLG_I8,  CLG_U8,  CLG_I16, CLG_U16,
                                                          CLG_I32,  CLG_U32, CLG_I64, CLG_U64, CLG_F16,
                                                          CLG_BF16, CLG_F32, CLG_F64, CLG_C64, CLG_C128};
const clg_dtype support_index_types[SUPPORT_INDEX_TYPES] = {CLG_I8,  CLG_U8,  CLG_I16, CLG_U16,
                                                            CLG_I32, CLG_U32, CLG_I64, CLG_U64};

int64_t support_pick_dim(support_rng *rng, int allow_zero, int64_t most)
{
    uint64_t r = support_below(rng, 20);
    if (allow_zero && r == 0) return 0;
    if (r < 6) return 1;
    return 1 + (int64_t)support_below(rng, (uint64_t)most);
}

int64_t support_pick_index(support_rng *rng, int64_t A, clg_dtype type)
{
    uint64_t r = support_below(rng, 100);
    if (r < 60 && A > 0) return (int64_t)support_below(rng, (uint64_t)A);
    if (r < 75 && A > 0) return -1 - (int64_t)support_below(rng, (uint64_t)A); /* [-A, -1] */
    if (r < 85) return A + (int64_t)support_below(rng, 3);                     /* just past the end */
    if (r < 90) return -A - 1 - (int64_t)support_below(rng, 3);                /* just before -A */
    switch (support_below(rng, 4)) {
    case 0: return INT64_MIN;
    case 1: return INT64_MAX;
    case 2: return -1; /* UINT64_MAX (and every unsigned max) once truncated */
    default: return clg_dtype_size(type) == 1 ? 127 : 32767;
    }
}

int support_index_is_signed(clg_dtype t) { return t == CLG_I8 || t == CLG_I16 || t == CLG_I32 || t == CLG_I64; }

void support_force_kernels(const char *mapping, int offsets64, support_stream stream)
{
    clg_context *ctx = support_cl_context();
    /* a threshold no test output reaches, or none at all */
    support_use_tuning(stream == SUPPORT_STREAM_EVERYWHERE ? "stream_min_bytes = 0\nstream_min_row_bytes = 0\n"
                                                             "stream_min_unit_bytes = 0"
                       : stream == SUPPORT_STREAM_NEVER    ? "stream_min_bytes = 4294967295"
                                                           : NULL);
    if (mapping) support_use_mapping(ctx, mapping);
    clg_testing_force_offsets64(ctx, offsets64);
    ck_assert_int_eq(clg_testing_force_variant(ctx, NULL), CLG_SUCCESS);
    clg_testing_forget_variant(ctx);
}

void support_force_variant(const char *variant, int offsets64)
{
    clg_context *ctx = support_cl_context();
    support_force_kernels(NULL, offsets64, SUPPORT_STREAM_TUNED);
    const clg_status st = clg_testing_force_variant(ctx, variant);
    ck_assert_msg(st == CLG_SUCCESS, "%s", clg_last_error_message());
}

support_random_setup support_random_from_environment(const char *suite, uint64_t default_seed)
{
    support_random_setup setup = {default_seed, 1.0};
    const char *env = getenv("CLGATHER_TEST_SEED");
    if (env && *env) setup.seed = strtoull(env, NULL, 0);
    const char *scale_env = getenv("CLGATHER_TEST_SCALE");
    if (scale_env && atof(scale_env) > 0) setup.scale = atof(scale_env);
    printf("%s: seed 0x%" PRIx64 " (set CLGATHER_TEST_SEED to replay another), scale %.2f\n", suite, setup.seed,
           setup.scale);
    return setup;
}

int support_setup_scaled(const support_random_setup *setup, int count, int least)
{
    const int scaled = (int)(count * setup->scale);
    return scaled > least ? scaled : least;
}

/* ---- random cases ----------------------------------------------------------------------------- */

static uint64_t element_count(const clg_tensor_desc *t)
{
    uint64_t n = 1;
    for (int32_t k = 0; k < t->rank; ++k) n *= (uint64_t)t->shape[k];
    return n;
}

void support_case_fill(support_case *c, support_rng *rng, const clg_tensor_desc *data, const clg_tensor_desc *indices,
                       const int64_t *extents, int period, int keep_valid)
{
    const uint64_t index_elems = element_count(indices);
    c->data_bytes = element_count(data) * clg_dtype_size(data->type);
    c->index_bytes = index_elems * clg_dtype_size(indices->type);
    c->data = malloc(c->data_bytes ? c->data_bytes : 1);
    c->indices = malloc(c->index_bytes ? c->index_bytes : 1);
    ck_assert_ptr_nonnull(c->data);
    ck_assert_ptr_nonnull(c->indices);
    unsigned char *bytes = c->data;
    for (size_t k = 0; k < c->data_bytes; ++k) bytes[k] = (unsigned char)support_next(rng);
    for (uint64_t k = 0; k < index_elems; ++k) {
        const int64_t A = extents[k % (uint64_t)period];
        int64_t v = support_pick_index(rng, A, indices->type);
        if (keep_valid && A > 0 && (v >= A || v < -A)) v = (int64_t)support_below(rng, (uint64_t)A);
        if (!support_index_is_signed(indices->type) && v < 0 && keep_valid && A > 0) v = -v - 1;
        support_store_int(c->indices, indices->type, (size_t)k, v);
    }
    uint64_t out_bytes = 0;
    ck_assert_msg(c->op->sizes(&c->desc, NULL, NULL, &out_bytes) == CLG_SUCCESS, "%s", clg_last_error_message());
    c->out_bytes = (size_t)out_bytes;
}

void support_case_free(support_case *c)
{
    free(c->data);
    free(c->indices);
}

void support_case_compare(const support_case *c, int use_enqueue, size_t guard)
{
    support_compare_with_reference(c->op, &c->desc, c->data, c->data_bytes, c->indices, c->index_bytes, c->out_bytes,
                                   use_enqueue, guard, c->name);
}

void support_run_random_cases(const support_random_setup *setup, support_case_maker make, int count,
                              const char *mapping, int offsets64, support_stream stream, uint64_t stream_id)
{
    support_force_kernels(mapping, offsets64, stream);
    support_rng rng = {setup->seed ^ (stream_id * 0x9E3779B97F4A7C15ull)};
    count = support_setup_scaled(setup, count, 10);
    for (int k = 0; k < count; ++k) {
        support_case c;
        memset(&c, 0, sizeof c);
        make(&rng, &c, k);
        const size_t guard = (size_t)support_below(&rng, 40);
        support_case_compare(&c, (int)support_below(&rng, 2), guard);
        support_case_free(&c);
    }
    support_force_kernels(NULL, 0, SUPPORT_STREAM_TUNED);
}

void support_run_configuration(const support_random_setup *setup, support_case_maker make, int configuration)
{
    /* NULL: the suite's own mapping */
    static const struct {
        int cases;
        const char *mapping;
        int offsets64;
        support_stream stream;
    } configurations[SUPPORT_CONFIGURATIONS] = {
        {400, "runs", 0, SUPPORT_STREAM_TUNED}, {400, "adjacent", 0, SUPPORT_STREAM_TUNED},
        {250, "runs", 1, SUPPORT_STREAM_TUNED}, {250, "adjacent", 1, SUPPORT_STREAM_TUNED},
        {250, NULL, 0, SUPPORT_STREAM_TUNED},   {200, "runs", 0, SUPPORT_STREAM_EVERYWHERE},
    };
    const int k = configuration;
    support_run_random_cases(setup, make, configurations[k].cases, configurations[k].mapping,
                             configurations[k].offsets64, configurations[k].stream, (uint64_t)configuration + 1);
}

void support_run_targeted_cases(const support_random_setup *setup, support_case_maker make, int count,
                                uint64_t stream_id)
{
    support_rng rng = {setup->seed ^ (stream_id * 0x9E3779B97F4A7C15ull)};
    /* at least three: a run at a small scale (a sanitizer, a simulator) still meets large cases of
     * several kinds, without the cost of a quarter of them (most of a simulated run's time) */
    const int cases = support_setup_scaled(setup, count, 3);
    for (int k = 0; k < cases; ++k) {
        support_case c;
        memset(&c, 0, sizeof c);
        make(&rng, &c, k);
        support_case_compare(&c, k % 3 != 0, (c.guard_unit ? c.guard_unit : 1) * (size_t)support_below(&rng, 20));
        if (c.expected_variant) {
            const char *ran = clg_testing_last_variant(support_cl_context());
            ck_assert_msg(strcmp(ran, c.expected_variant) == 0, "%s: ran variant '%s', not %s", c.name, ran,
                          c.expected_variant);
        }
        support_case_free(&c);
    }
    support_force_kernels(NULL, 0, SUPPORT_STREAM_TUNED);
}
