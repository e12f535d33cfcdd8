#include "bag_support.h"

#include "testing/testing.h"

#include <stdio.h>
#include <stdlib.h>

#define GUARD BAG_GUARD

clg_tensor_desc bag_tensor(clg_dtype type, int32_t rank, int64_t d0, int64_t d1)
{
    clg_tensor_desc t = {.type = type, .rank = rank};
    t.shape[0] = d0;
    t.shape[1] = d1;
    return t;
}

/* Random finite values of moderate exponent (sums stay far from subnormals), now and then an infinity
 * or a quiet NaN (a signaling NaN may come out quieted: docs/semantics.md), as the table type's bits. */
void bag_fill_values(support_rng *rng, clg_dtype type, void *base, uint64_t count, int specials)
{
    for (uint64_t k = 0; k < count; ++k) {
        const uint64_t r = support_next(rng), sign = r & 1;
        const int special = specials && support_below(rng, 50) == 0;
        switch (type) {
        case CLG_F16: {
            uint16_t h = (uint16_t)(sign << 15 | (uint64_t)(special ? 31 : 8 + (r >> 1) % 14) << 10 | (r >> 8) % 1024);
            if (special) h = support_below(rng, 2) ? (uint16_t)(h & 0xFC00) : (uint16_t)(h | 0x200);
            ((uint16_t *)base)[k] = h;
            break;
        }
        case CLG_BF16: {
            uint16_t b = (uint16_t)(sign << 15 | (uint64_t)(special ? 255 : 120 + (r >> 1) % 14) << 7 | (r >> 8) % 128);
            if (special) b = support_below(rng, 2) ? (uint16_t)(b & 0xFF80) : (uint16_t)(b | 0x40);
            ((uint16_t *)base)[k] = b;
            break;
        }
        case CLG_F32: {
            uint32_t f =
                (uint32_t)(sign << 31 | (uint64_t)(special ? 255 : 120 + (r >> 1) % 14) << 23 | (r >> 9) % (1u << 23));
            if (special) f = support_below(rng, 2) ? f & 0xFF800000u : f | 0x400000u;
            ((uint32_t *)base)[k] = f;
            break;
        }
        default: {
            uint64_t d = sign << 63 | (special ? 2047ull : 1016 + (r >> 1) % 14) << 52 | support_next(rng) >> 12;
            if (special) d = support_below(rng, 2) ? d & 0xFFF0000000000000ull : d | (1ull << 51);
            ((uint64_t *)base)[k] = d;
            break;
        }
        }
    }
}

/* A cl_mem of guard + bytes + guard, the tensor between poison; NULL for an absent tensor. */
static cl_mem guarded_buffer(cl_context cl, const void *data, size_t bytes)
{
    if (!data) return NULL;
    unsigned char *region = support_poisoned(bytes + 2 * GUARD);
    memcpy(region + GUARD, data, bytes);
    cl_int err;
    cl_mem mem = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes + 2 * GUARD, region, &err);
    free(region);
    ck_assert_int_eq(err, CL_SUCCESS);
    return mem;
}

clg_status bag_enqueue(clg_context *ctx, const bag_case *c, unsigned char *out_region, int deferred)
{
    cl_context cl = clg_context_cl_context(ctx);
    cl_command_queue queue = clg_context_cl_queue(ctx);
    cl_mem table = guarded_buffer(cl, c->table, c->table_bytes);
    cl_mem indices = guarded_buffer(cl, c->indices, c->index_bytes);
    cl_mem bags = guarded_buffer(cl, c->bags, c->bags_bytes);
    cl_mem weights = guarded_buffer(cl, c->weights, c->weights_bytes);
    memset(out_region, POISON_BYTE, c->out_bytes + 2 * GUARD);
    cl_mem out = guarded_buffer(cl, out_region + GUARD, c->out_bytes);
    cl_event done = NULL;
    clg_status st = clg_embedding_bag_enqueue(ctx, &c->desc, queue, table, GUARD, indices, GUARD, bags, GUARD, weights,
                                              GUARD, out, GUARD, 0, NULL, &done);
    if (st == CLG_SUCCESS && deferred) st = clg_deferred_status(ctx, done);
    if (done) clReleaseEvent(done);
    ck_assert_int_eq(clFinish(queue), CL_SUCCESS);
    ck_assert_int_eq(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, c->out_bytes + 2 * GUARD, out_region, 0, NULL, NULL),
                     CL_SUCCESS);
    cl_mem all[] = {table, indices, bags, weights, out};
    for (int i = 0; i < 5; ++i)
        if (all[i]) clReleaseMemObject(all[i]);
    return st;
}

clg_context *bag_deferring_context(void)
{
    static clg_context *ctx;
    if (!ctx) {
        clg_context *base = support_cl_context();
        const clg_status st = clg_context_create(clg_context_cl_context(base), clg_context_cl_device(base),
                                                 CLG_CONTEXT_DEFER_ERRORS, &ctx);
        ck_assert_msg(st == CLG_SUCCESS, "%s", clg_last_error_message());
    }
    return ctx;
}

/* status == want, and on failure the message holds fragment. */
static void expect_status(clg_status st, clg_status want, const char *fragment, const char *path, const char *name)
{
    ck_assert_msg(st == want, "%s, %s: %s (%s), expected %s", name, path, clg_status_string(st),
                  clg_last_error_message(), clg_status_string(want));
    if (st != CLG_SUCCESS && fragment)
        ck_assert_msg(strstr(clg_last_error_message(), fragment) != NULL, "%s, %s: message '%s' lacks '%s'", name, path,
                      clg_last_error_message(), fragment);
}

/* The output of one path against the expected bytes (success) or poison (failure). */
static void expect_output(const void *out, const void *expected, size_t bytes, clg_status want, const char *path,
                          const char *name)
{
    if (want != CLG_SUCCESS) {
        ck_assert_msg(support_all_poison(out, bytes), "%s, %s: the output was written on failure", name, path);
        return;
    }
    if (memcmp(out, expected, bytes) == 0) return; /* one assertion a byte would cost a Check mark point each */
    size_t k = 0;
    while (((const unsigned char *)out)[k] == ((const unsigned char *)expected)[k]) ++k;
    ck_abort_msg("%s, %s: output byte %zu is 0x%02x, expected 0x%02x", name, path, k, ((const unsigned char *)out)[k],
                 ((const unsigned char *)expected)[k]);
}

/* One call's three ways through the library, for the all-paths check below: the CPU reference, the
 * synchronous call on ctx, and the enqueue call on guarded buffers (deferred: on a deferring context). */
typedef struct call_paths {
    clg_status (*reference)(const void *c, void *out, size_t bytes);
    clg_status (*sync)(clg_context *ctx, const void *c, void *out, size_t bytes);
    clg_status (*enqueue)(clg_context *ctx, const void *c, unsigned char *region, int deferred);
} call_paths;

/* The reference (against expected, where given), then on both mappings the synchronous call and the
 * enqueue call (its mapping's own kernel ran), then the deferred enqueue: each `want`, the fragment in
 * its message, the reference's output on success, poison and intact guards on failure. */
static void check_all_paths(const call_paths *calls, const void *c, size_t bytes, int converts, const void *expected,
                            clg_status want, const char *fragment, const char *name)
{
    static const char *const variants[2][2] = {{"bag-runs", "bag-columns"},
                                               {"bag-quantized-runs", "bag-quantized-columns"}};
    unsigned char *reference = support_poisoned(bytes + 1), *out = support_poisoned(bytes + 1);
    unsigned char *region = malloc(bytes + 2 * GUARD);
    ck_assert_ptr_nonnull(region);
    clg_status st = calls->reference(c, reference, bytes);
    expect_status(st, want, fragment, "reference", name);
    if (expected) expect_output(reference, expected, bytes, want, "reference", name);
    if (want != CLG_SUCCESS) expect_output(reference, NULL, bytes, want, "reference", name);
    clg_context *ctx = support_cl_context();
    for (int m = 0; m < 2; ++m) {
        char path[64];
        support_use_mapping(ctx, support_mappings[m]);
        memset(out, POISON_BYTE, bytes);
        st = calls->sync(ctx, c, out, bytes);
        snprintf(path, sizeof path, "synchronous call, %s mapping", support_mappings[m]);
        expect_status(st, want, fragment, path, name);
        expect_output(out, reference, bytes, want, path, name);
        clg_testing_forget_variant(ctx);
        st = calls->enqueue(ctx, c, region, 0);
        snprintf(path, sizeof path, "enqueue call, %s mapping", support_mappings[m]);
        expect_status(st, want, fragment, path, name);
        /* the mapping's own kernel ran, where the values let one run */
        const char *variant = clg_testing_last_variant(ctx);
        if (want == CLG_SUCCESS && bytes > 0)
            ck_assert_msg(strcmp(variant, variants[converts][m]) == 0, "%s, %s: variant '%s' ran, not '%s'", name, path,
                          variant, variants[converts][m]);
        expect_output(region + GUARD, reference, bytes, want, path, name);
        ck_assert_msg(support_guards_intact(region, GUARD, bytes), "%s, %s: a guard byte was written", name, path);
    }
    support_use_mapping(ctx, NULL);
    st = calls->enqueue(bag_deferring_context(), c, region, 1);
    expect_status(st, want, fragment, "deferred enqueue call", name);
    expect_output(region + GUARD, reference, bytes, want, "deferred enqueue call", name);
    ck_assert_msg(support_guards_intact(region, GUARD, bytes), "%s, deferred call: a guard byte was written", name);
    free(reference);
    free(out);
    free(region);
}

static clg_status bag_reference_call(const void *p, void *out, size_t bytes)
{
    const bag_case *c = p;
    return clg_embedding_bag_reference(&c->desc, c->table, c->table_bytes, c->indices, c->index_bytes, c->bags,
                                       c->bags_bytes, c->weights, c->weights_bytes, out, bytes);
}

static clg_status bag_sync_call(clg_context *ctx, const void *p, void *out, size_t bytes)
{
    const bag_case *c = p;
    return clg_embedding_bag(ctx, &c->desc, c->table, c->table_bytes, c->indices, c->index_bytes, c->bags,
                             c->bags_bytes, c->weights, c->weights_bytes, out, bytes);
}

static clg_status bag_enqueue_call(clg_context *ctx, const void *c, unsigned char *region, int deferred)
{
    return bag_enqueue(ctx, c, region, deferred);
}

void bag_check_all_paths(const bag_case *c, const void *expected, clg_status want, const char *fragment,
                         const char *name)
{
    static const call_paths calls = {bag_reference_call, bag_sync_call, bag_enqueue_call};
    check_all_paths(&calls, c, c->out_bytes, 0, expected, want, fragment, name);
}

void bag_expect_refused(const clg_embedding_bag_desc *desc, clg_status want, const char *fragment)
{
    int32_t rank = -1;
    int64_t shape[CLG_MAX_OUTPUT_RANK];
    uint64_t bytes = 0;
    unsigned char *out = support_poisoned(256), big[256] = {0};
    expect_status(clg_embedding_bag_output_shape(desc, &rank, shape), want, fragment, "output_shape", "refused");
    ck_assert_int_eq(rank, -1);
    expect_status(clg_embedding_bag_sizes(desc, &bytes, NULL, NULL, NULL, NULL), want, fragment, "sizes", "refused");
    expect_status(clg_embedding_bag_reference(desc, big, 256, big, 256, big, 256, big, 256, out, 256), want, fragment,
                  "reference", "refused");
    expect_status(clg_embedding_bag(support_cl_context(), desc, big, 256, big, 256, big, 256, big, 256, out, 256), want,
                  fragment, "synchronous call", "refused");
    ck_assert(support_all_poison(out, 256));
    free(out);
}

static clg_status tables_enqueue(clg_context *ctx, const tables_case *c, unsigned char *out_region, int deferred)
{
    cl_context cl = clg_context_cl_context(ctx);
    cl_command_queue queue = clg_context_cl_queue(ctx);
    cl_mem tables = guarded_buffer(cl, c->tables, c->tables_bytes);
    cl_mem indices = guarded_buffer(cl, c->indices, c->index_bytes);
    cl_mem offsets = guarded_buffer(cl, c->offsets, c->offsets_bytes);
    cl_mem weights = guarded_buffer(cl, c->weights, c->weights_bytes);
    memset(out_region, POISON_BYTE, c->out_bytes + 2 * GUARD);
    cl_mem out = guarded_buffer(cl, out_region + GUARD, c->out_bytes);
    cl_event done = NULL;
    clg_status st = clg_embedding_bag_tables_enqueue(ctx, &c->desc, queue, tables, GUARD, indices, GUARD, offsets,
                                                     GUARD, weights, GUARD, out, GUARD, 0, NULL, &done);
    if (st == CLG_SUCCESS && deferred) st = clg_deferred_status(ctx, done);
    if (done) clReleaseEvent(done);
    ck_assert_int_eq(clFinish(queue), CL_SUCCESS);
    ck_assert_int_eq(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, c->out_bytes + 2 * GUARD, out_region, 0, NULL, NULL),
                     CL_SUCCESS);
    cl_mem all[] = {tables, indices, offsets, weights, out};
    for (int i = 0; i < 5; ++i)
        if (all[i]) clReleaseMemObject(all[i]);
    return st;
}

static clg_status tables_reference_call(const void *p, void *out, size_t bytes)
{
    const tables_case *c = p;
    return clg_embedding_bag_tables_reference(&c->desc, c->tables, c->tables_bytes, c->indices, c->index_bytes,
                                              c->offsets, c->offsets_bytes, c->weights, c->weights_bytes, out, bytes);
}

static clg_status tables_sync_call(clg_context *ctx, const void *p, void *out, size_t bytes)
{
    const tables_case *c = p;
    return clg_embedding_bag_tables(ctx, &c->desc, c->tables, c->tables_bytes, c->indices, c->index_bytes, c->offsets,
                                    c->offsets_bytes, c->weights, c->weights_bytes, out, bytes);
}

static clg_status tables_enqueue_call(clg_context *ctx, const void *c, unsigned char *region, int deferred)
{
    return tables_enqueue(ctx, c, region, deferred);
}

/* Whether the call converts its tables (include/clgather.h, clg_embedding_bag_tables_desc: a quantized
 * table, plain tables of several types, or an output type not theirs), which the quantized variants run. */
static int tables_convert(const clg_embedding_bag_tables_desc *d)
{
    if (d->num_tables < 1) return 0;
    for (int32_t t = 0; t < d->num_tables; ++t)
        if (d->tables[t].quant_layout != 0 || d->tables[t].type != d->tables[0].type) return 1;
    return d->output_type != CLG_DTYPE_INVALID && d->output_type != d->tables[0].type;
}

void tables_check_all_paths(const tables_case *c, const void *expected, clg_status want, const char *fragment,
                            const char *name)
{
    static const call_paths calls = {tables_reference_call, tables_sync_call, tables_enqueue_call};
    check_all_paths(&calls, c, c->out_bytes, tables_convert(&c->desc), expected, want, fragment, name);
}

void tables_expect_refused(const clg_embedding_bag_tables_desc *desc, clg_status want, const char *fragment)
{
    int32_t rank = -1;
    int64_t shape[CLG_MAX_OUTPUT_RANK];
    uint64_t bytes = 0;
    unsigned char *out = support_poisoned(256), big[256] = {0};
    expect_status(clg_embedding_bag_tables_output_shape(desc, &rank, shape), want, fragment, "output_shape", "refused");
    ck_assert_int_eq(rank, -1);
    expect_status(clg_embedding_bag_tables_sizes(desc, &bytes, NULL, NULL, NULL, NULL), want, fragment, "sizes",
                  "refused");
    expect_status(clg_embedding_bag_tables_reference(desc, big, 256, big, 256, big, 256, big, 256, out, 256), want,
                  fragment, "reference", "refused");
    expect_status(
        clg_embedding_bag_tables(support_cl_context(), desc, big, 256, big, 256, big, 256, big, 256, out, 256), want,
        fragment, "synchronous call", "refused");
    ck_assert(support_all_poison(out, 256));
    free(out);
}

void bag_random_offsets(support_rng *rng, clg_dtype type, void *offsets, uint64_t count, uint64_t L, int last_is_L)
{
    uint64_t at = 0;
    for (uint64_t k = 0; k < count; ++k) {
        if (k > 0 && at < L)
            at += support_below(rng, 4) == 0 ? 0 : 1 + support_below(rng, 2 * (L - at) / (count - k) + 1);
        if (at > L) at = L;
        support_store_int(offsets, type, k, (int64_t)(last_is_L && k + 1 == count ? L : at));
    }
}

int64_t bag_load_offset(const void *base, clg_dtype type, uint64_t pos)
{
    switch (clg_dtype_size(type)) {
    case 1: return ((const uint8_t *)base)[pos];
    case 2: return ((const uint16_t *)base)[pos];
    case 4: return ((const uint32_t *)base)[pos];
    default: return ((const int64_t *)base)[pos];
    }
}
