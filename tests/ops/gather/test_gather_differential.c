/* Randomized differential tests: the OpenCL path against the CPU reference, bit for bit, with
 * poisoned outputs and guard bytes, over random presets, types, ranks, axes, batch_dims, policies and
 * index values (in range, negative, out of range, hostile). The seed is fixed and printed; set
 * CLGATHER_TEST_SEED to replay another. CLGATHER_TEST_SCALE (a fraction, default 1) scales the
 * number of cases, for the slower sanitizer builds. */
#include "test_support.h"
#include "testing/testing.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t seed = 0xC16A7E4ull;
static double scale = 1.0;

static const clg_dtype data_types[] = {CLG_BOOL, CLG_I8,  CLG_U8,   CLG_I16, CLG_U16, CLG_I32, CLG_U32, CLG_I64,
                                       CLG_U64,  CLG_F16, CLG_BF16, CLG_F32, CLG_F64, CLG_C64, CLG_C128};
static const clg_dtype index_types[] = {CLG_I8, CLG_U8, CLG_I16, CLG_U16, CLG_I32, CLG_U32, CLG_I64, CLG_U64};

typedef struct random_case {
    clg_gather_desc desc;
    int64_t axis_value; /* storage for the OpenVINO axis tensor */
    void *data, *indices;
    size_t data_bytes, index_bytes, out_bytes;
    char name[256];
} random_case;

static int64_t pick_dim(support_rng *rng, int allow_zero)
{
    uint64_t r = support_below(rng, 20);
    if (allow_zero && r == 0) return 0;
    if (r < 6) return 1;
    return 1 + (int64_t)support_below(rng, 4);
}

/* An index value: mostly in range, some negative in range, some out of range, some hostile. */
static int64_t pick_index(support_rng *rng, int64_t A, clg_dtype type)
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

static int is_signed_index(clg_dtype t) { return t == CLG_I8 || t == CLG_I16 || t == CLG_I32 || t == CLG_I64; }

static void make_case(support_rng *rng, random_case *c, int case_number)
{
    memset(c, 0, sizeof *c);
    clg_gather_desc *d = &c->desc;
    d->preset = (clg_preset)(1 + support_below(rng, CLG_PRESET_COUNT - 1));
    const int onnx = d->preset <= CLG_ONNX_13;
    const int has_batch = d->preset == CLG_OV_GATHER_7 || d->preset == CLG_OV_GATHER_8;

    d->data.type = data_types[support_below(rng, sizeof data_types / sizeof data_types[0])];
    if (d->data.type == CLG_BF16 && onnx) d->preset = CLG_ONNX_13;
    d->indices.type = onnx ? (support_below(rng, 2) ? CLG_I64 : CLG_I32)
                           : index_types[support_below(rng, sizeof index_types / sizeof index_types[0])];
    const int allow_zero = support_below(rng, 8) == 0;
    d->data.rank = 1 + (int32_t)support_below(rng, 6);
    d->indices.rank = (int32_t)support_below(rng, 7);
    for (int32_t k = 0; k < d->data.rank; ++k) d->data.shape[k] = pick_dim(rng, allow_zero);
    for (int32_t k = 0; k < d->indices.rank; ++k) d->indices.shape[k] = pick_dim(rng, allow_zero);

    int32_t axis = (int32_t)support_below(rng, (uint64_t)d->data.rank);
    int32_t batch = 0;
    if (has_batch) {
        int32_t most = axis < d->indices.rank ? axis : d->indices.rank;
        batch = (int32_t)support_below(rng, (uint64_t)most + 1);
        for (int32_t k = 0; k < batch; ++k) d->indices.shape[k] = d->data.shape[k];
        d->batch_dims = support_below(rng, 3) == 0 ? batch - d->indices.rank : batch; /* negative form too */
    }
    int64_t axis_given = support_below(rng, 3) == 0 ? axis - d->data.rank : axis; /* negative form too */
    if (onnx) {
        d->axis = axis_given;
    } else {
        c->axis_value = axis_given;
        d->axis_tensor.type = CLG_I64;
        d->axis_tensor.rank = (int32_t)support_below(rng, 2);
        d->axis_tensor.shape[0] = 1;
        d->axis_value = &c->axis_value;
    }
    d->oob_policy = (clg_oob_policy)support_below(rng, CLG_OOB_COUNT);

    uint64_t data_elems = 1, index_elems = 1;
    for (int32_t k = 0; k < d->data.rank; ++k) data_elems *= (uint64_t)d->data.shape[k];
    for (int32_t k = 0; k < d->indices.rank; ++k) index_elems *= (uint64_t)d->indices.shape[k];
    c->data_bytes = data_elems * clg_dtype_size(d->data.type);
    c->index_bytes = index_elems * clg_dtype_size(d->indices.type);
    c->data = malloc(c->data_bytes ? c->data_bytes : 1);
    c->indices = malloc(c->index_bytes ? c->index_bytes : 1);
    ck_assert_ptr_nonnull(c->data);
    ck_assert_ptr_nonnull(c->indices);
    unsigned char *bytes = c->data;
    for (size_t k = 0; k < c->data_bytes; ++k) bytes[k] = (unsigned char)support_next(rng);
    /* under the error policy, keep most cases valid so the gather itself runs */
    const int keep_valid = support_below(rng, 4) != 0;
    const int64_t A = d->data.shape[axis];
    for (uint64_t k = 0; k < index_elems; ++k) {
        int64_t v = pick_index(rng, A, d->indices.type);
        if (keep_valid && A > 0 && (v >= A || v < -A)) v = (int64_t)support_below(rng, (uint64_t)A);
        if (!is_signed_index(d->indices.type) && v < 0 && keep_valid && A > 0) v = -v - 1;
        support_store_int(c->indices, d->indices.type, k, v);
    }
    uint64_t out_bytes = 0;
    clg_gather_sizes(d, NULL, NULL, &out_bytes);
    c->out_bytes = (size_t)out_bytes;
    snprintf(c->name, sizeof c->name,
             "case %d: %s data %s r%d idx %s r%d axis %" PRId64 " batch_dims %" PRId64 " oob %d", case_number,
             clg_preset_name(d->preset), clg_dtype_name(d->data.type), (int)d->data.rank,
             clg_dtype_name(d->indices.type), (int)d->indices.rank, axis_given, d->batch_dims, (int)d->oob_policy);
}

static void free_case(random_case *c)
{
    free(c->data);
    free(c->indices);
}

/* Compare one configuration of the OpenCL path with the reference on one case. */
static void compare_case(random_case *c, int use_enqueue, size_t guard)
{
    char ref_message[1024];
    unsigned char *want = support_poisoned(c->out_bytes);
    clg_status want_st =
        clg_gather_reference(&c->desc, c->data, c->data_bytes, c->indices, c->index_bytes, want, c->out_bytes);
    snprintf(ref_message, sizeof ref_message, "%s", clg_last_error_message());
    clg_context *ctx = support_cl_context();
    clg_status got_st;
    unsigned char *got;
    if (use_enqueue) {
        unsigned char *region = support_poisoned(guard + c->out_bytes + guard);
        got_st = support_enqueue_gather(ctx, &c->desc, c->data, c->data_bytes, c->indices, c->index_bytes, c->out_bytes,
                                        guard, region);
        ck_assert_msg(support_guards_intact(region, guard, c->out_bytes), "%s: guard bytes overwritten", c->name);
        got = support_poisoned(c->out_bytes);
        memcpy(got, region + guard, c->out_bytes);
        free(region);
    } else {
        got = support_poisoned(c->out_bytes);
        got_st = clg_gather(ctx, &c->desc, c->data, c->data_bytes, c->indices, c->index_bytes, got, c->out_bytes);
    }
    ck_assert_msg(got_st == want_st, "%s (enqueue %d, guard %zu): OpenCL %s (%s) vs reference %s (%s)", c->name,
                  use_enqueue, guard, clg_status_string(got_st), clg_last_error_message(), clg_status_string(want_st),
                  ref_message);
    if (want_st == CLG_SUCCESS) {
        ck_assert_msg(memcmp(got, want, c->out_bytes) == 0, "%s (enqueue %d, guard %zu): outputs differ", c->name,
                      use_enqueue, guard);
    } else {
        ck_assert_msg(support_all_poison(got, c->out_bytes), "%s: output written on failure", c->name);
        ck_assert_msg(support_all_poison(want, c->out_bytes), "%s: reference wrote output on failure", c->name);
        ck_assert_msg(strcmp(clg_last_error_message(), ref_message) == 0, "%s: messages differ:\n  %s\n  %s", c->name,
                      clg_last_error_message(), ref_message);
    }
    free(got);
    free(want);
}

/* Run `count` random cases under one kernel configuration. */
static void run_random_cases(int count, int mapping, int offsets64, int streaming, uint64_t stream)
{
    clg_context *ctx = support_cl_context();
    clg_testing_force_mapping(ctx, mapping);
    clg_testing_force_offsets64(ctx, offsets64);
    clg_testing_force_stream(ctx, streaming);
    support_rng rng = {seed ^ (stream * 0x9E3779B97F4A7C15ull)};
    count = (int)(count * scale) > 10 ? (int)(count * scale) : 10;
    for (int k = 0; k < count; ++k) {
        random_case c;
        make_case(&rng, &c, k);
        size_t guard = (size_t)support_below(&rng, 40);
        compare_case(&c, (int)support_below(&rng, 2), guard);
        free_case(&c);
    }
    clg_testing_force_mapping(ctx, 0);
    clg_testing_force_offsets64(ctx, 0);
    clg_testing_force_stream(ctx, 0);
}

START_TEST(random_row_runs_offsets32) { run_random_cases(400, 1, 0, 0, 1); }
END_TEST
START_TEST(random_row_units_offsets32) { run_random_cases(400, 2, 0, 0, 2); }
END_TEST
START_TEST(random_row_runs_offsets64) { run_random_cases(250, 1, 1, 0, 3); }
END_TEST
START_TEST(random_row_units_offsets64) { run_random_cases(250, 2, 1, 0, 4); }
END_TEST
START_TEST(random_automatic_choice) { run_random_cases(250, 0, 0, 0, 5); }
END_TEST
START_TEST(random_row_runs_streaming_stores) { run_random_cases(250, 1, 0, 1, 6); }
END_TEST

/* A 2-D OpenVINO Gather-8 case: random data bytes, then n i32 indices drawn from [index_lo, index_hi]. */
static void make_2d_case(random_case *c, support_rng *rng, clg_dtype type, const int64_t data_shape[2], int64_t axis,
                         int64_t n, int64_t index_lo, int64_t index_hi)
{
    const int64_t idx_shape[] = {n};
    memset(c, 0, sizeof *c);
    c->axis_value = axis;
    c->desc = support_ov_desc(CLG_OV_GATHER_8, type, 2, data_shape, CLG_I32, 1, idx_shape, &c->axis_value, 0);
    c->data_bytes = (size_t)(data_shape[0] * data_shape[1]) * clg_dtype_size(type);
    c->index_bytes = (size_t)n * 4;
    uint64_t out_bytes = 0;
    ck_assert_int_eq(clg_gather_sizes(&c->desc, NULL, NULL, &out_bytes), CLG_SUCCESS);
    c->out_bytes = (size_t)out_bytes;
    c->data = malloc(c->data_bytes);
    c->indices = malloc(c->index_bytes);
    ck_assert_ptr_nonnull(c->data);
    ck_assert_ptr_nonnull(c->indices);
    for (size_t b = 0; b < c->data_bytes; ++b) ((unsigned char *)c->data)[b] = (unsigned char)support_next(rng);
    for (int64_t j = 0; j < n; ++j)
        support_store_int(c->indices, CLG_I32, (size_t)j,
                          index_lo + (int64_t)support_below(rng, (uint64_t)(index_hi - index_lo + 1)));
}

/* Larger rows and many rows, so work-items carry several rows and rows several 16-byte units. */
START_TEST(random_wide_rows)
{
    support_rng rng = {seed ^ 0xABCDEFull};
    clg_context *ctx = support_cl_context();
    for (int k = 0; k < 24; ++k) {
        clg_testing_force_mapping(ctx, 1 + k % 2);
        clg_testing_force_offsets64(ctx, (k / 2) % 2);
        clg_testing_force_stream(ctx, k % 3 == 0 ? 1 : 0);
        const int64_t rows = 1 + (int64_t)support_below(&rng, 300);
        /* cases 0 and 2 of every 8 (row runs, 32- and 64-bit offsets) may reach rows of 2 KiB and
         * more, whose prefetch covers only their head */
        const int64_t width = 1 + (int64_t)support_below(&rng, k % 8 == 0 || k % 8 == 2 ? 800 : 200);
        const int64_t n = 1 + (int64_t)support_below(&rng, 700);
        const int64_t data_shape[] = {rows, width};
        const clg_dtype type = data_types[support_below(&rng, sizeof data_types / sizeof data_types[0])];
        random_case c;
        make_2d_case(&c, &rng, type, data_shape, 0, n, -1, rows); /* one below and one above the range */
        snprintf(c.name, sizeof c.name, "wide %d: [%" PRId64 ", %" PRId64 "] %s, %" PRId64 " indices", k, rows, width,
                 clg_dtype_name(type), n);
        compare_case(&c, k % 3 != 0, (size_t)support_below(&rng, 20));
        free_case(&c);
    }
    clg_testing_force_mapping(ctx, 0);
    clg_testing_force_offsets64(ctx, 0);
    clg_testing_force_stream(ctx, 0);
}
END_TEST

/* Rows of exactly one move unit, the kernels' vectorized one-unit path: the last axis (rows of one
 * element) with groups small enough to prefetch whole and too large for that, and 64-byte rows on
 * axis 0. Enough indices that segments span many work-items and their prefetch windows, streaming
 * forced on and off, and output offsets that are multiples of the element but not of a line. */
START_TEST(random_one_unit_rows)
{
    support_rng rng = {seed ^ 0x0E1707ull};
    clg_context *ctx = support_cl_context();
    const int cases = (int)(32 * scale) > 8 ? (int)(32 * scale) : 8;
    for (int k = 0; k < cases; ++k) {
        clg_testing_force_mapping(ctx, k % 8 == 7 ? 2 : 1);
        clg_testing_force_offsets64(ctx, (k / 4) % 2);
        clg_testing_force_stream(ctx, k % 2 ? 1 : -1);
        const clg_dtype type = data_types[support_below(&rng, sizeof data_types / sizeof data_types[0])];
        const int64_t elem = (int64_t)clg_dtype_size(type);
        const int shape_kind = (int)support_below(&rng, 3);
        int64_t data_shape[2], axis;
        if (shape_kind == 0) { /* last axis, the group fits in the prefetched 64 KiB */
            data_shape[0] = 1 + (int64_t)support_below(&rng, 6);
            data_shape[1] = 1 + (int64_t)support_below(&rng, 400);
            axis = 1;
        } else if (shape_kind == 1) { /* last axis, a group larger than 64 KiB: rows prefetched one by one */
            data_shape[0] = 1 + (int64_t)support_below(&rng, 2);
            data_shape[1] = 65536 / elem + 1 + (int64_t)support_below(&rng, 3000);
            axis = 1;
        } else { /* axis 0, rows of one 64-byte line where the element divides it */
            data_shape[0] = 1 + (int64_t)support_below(&rng, 3000);
            data_shape[1] = elem <= 64 ? 64 / elem : 1;
            axis = 0;
        }
        const int64_t A = data_shape[axis];
        const int64_t n = 1 + (int64_t)support_below(&rng, 3000);
        const clg_oob_policy policy = support_below(&rng, 2) ? CLG_OOB_ZERO : CLG_OOB_CLAMP;
        random_case c;
        make_2d_case(&c, &rng, type, data_shape, axis, n, -A - 2, A + 1); /* wrapped, in range, out of range */
        c.desc.oob_policy = policy;
        snprintf(c.name, sizeof c.name,
                 "one-unit %d: [%" PRId64 ", %" PRId64 "] %s axis %" PRId64 ", %" PRId64 " indices", k, data_shape[0],
                 data_shape[1], clg_dtype_name(type), axis, n);
        compare_case(&c, k % 3 != 2, (size_t)(elem * (int64_t)support_below(&rng, 20)));
        free_case(&c);
    }
    clg_testing_force_mapping(ctx, 0);
    clg_testing_force_offsets64(ctx, 0);
    clg_testing_force_stream(ctx, 0);
}
END_TEST

int main(void)
{
    const char *env = getenv("CLGATHER_TEST_SEED");
    if (env && *env) seed = strtoull(env, NULL, 0);
    const char *scale_env = getenv("CLGATHER_TEST_SCALE");
    if (scale_env && atof(scale_env) > 0) scale = atof(scale_env);
    printf("test_differential: seed 0x%" PRIx64 " (set CLGATHER_TEST_SEED to replay another), scale %.2f\n", seed,
           scale);
    Suite *s = suite_create("differential");
    TCase *tc = tcase_create("random");
    tcase_set_timeout(tc, 1200);
    tcase_add_test(tc, random_row_runs_offsets32);
    tcase_add_test(tc, random_row_units_offsets32);
    tcase_add_test(tc, random_row_runs_offsets64);
    tcase_add_test(tc, random_row_units_offsets64);
    tcase_add_test(tc, random_automatic_choice);
    tcase_add_test(tc, random_row_runs_streaming_stores);
    tcase_add_test(tc, random_wide_rows);
    tcase_add_test(tc, random_one_unit_rows);
    suite_add_tcase(s, tc);
    return support_run_suite(s);
}
