/* Randomized differential tests: the OpenCL path against the CPU reference, bit for bit, with
 * poisoned outputs and guard bytes, over random presets, types, ranks, axes, batch_dims, policies and
 * index values (in range, negative, out of range, hostile). The seed is fixed and printed; set
 * CLGATHER_TEST_SEED to replay another. CLGATHER_TEST_SCALE (a fraction, default 1) scales the
 * number of cases, for the slower sanitizer builds. */
#include "op_support.h"
#include "testing/testing.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static support_random_setup setup;

static void make_case(support_rng *rng, support_case *c, int case_number)
{
    c->op = &support_gather;
    clg_gather_desc *d = &c->desc.gather;
    d->preset = (clg_preset)(1 + support_below(rng, CLG_PRESET_COUNT - 1));
    const int onnx = d->preset <= CLG_ONNX_13;
    const int has_batch = d->preset == CLG_OV_GATHER_7 || d->preset == CLG_OV_GATHER_8;

    d->data.type = support_data_types[support_below(rng, SUPPORT_DATA_TYPES)];
    if (d->data.type == CLG_BF16 && onnx) d->preset = CLG_ONNX_13;
    d->indices.type = onnx ? (support_below(rng, 2) ? CLG_I64 : CLG_I32)
                           : support_index_types[support_below(rng, SUPPORT_INDEX_TYPES)];
    const int allow_zero = support_below(rng, 8) == 0;
    d->data.rank = 1 + (int32_t)support_below(rng, 6);
    d->indices.rank = (int32_t)support_below(rng, 7);
    for (int32_t k = 0; k < d->data.rank; ++k) d->data.shape[k] = support_pick_dim(rng, allow_zero, 4);
    for (int32_t k = 0; k < d->indices.rank; ++k) d->indices.shape[k] = support_pick_dim(rng, allow_zero, 4);

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
    /* under the error policy, keep most cases valid so the gather itself runs */
    support_case_fill(c, rng, &d->data, &d->indices, &d->data.shape[axis], 1, support_below(rng, 4) != 0);
    snprintf(c->name, sizeof c->name,
             "case %d: %s data %s r%d idx %s r%d axis %" PRId64 " batch_dims %" PRId64 " oob %d", case_number,
             clg_preset_name(d->preset), clg_dtype_name(d->data.type), (int)d->data.rank,
             clg_dtype_name(d->indices.type), (int)d->indices.rank, axis_given, d->batch_dims, (int)d->oob_policy);
}

START_TEST(random_row_runs_offsets32)
{
    support_run_random_cases(&setup, make_case, 400, "runs", 0, SUPPORT_STREAM_TUNED, 1);
}
END_TEST
START_TEST(random_row_units_offsets32)
{
    support_run_random_cases(&setup, make_case, 400, "adjacent", 0, SUPPORT_STREAM_TUNED, 2);
}
END_TEST
START_TEST(random_row_runs_offsets64)
{
    support_run_random_cases(&setup, make_case, 250, "runs", 1, SUPPORT_STREAM_TUNED, 3);
}
END_TEST
START_TEST(random_row_units_offsets64)
{
    support_run_random_cases(&setup, make_case, 250, "adjacent", 1, SUPPORT_STREAM_TUNED, 4);
}
END_TEST
START_TEST(random_automatic_choice)
{
    support_run_random_cases(&setup, make_case, 250, NULL, 0, SUPPORT_STREAM_TUNED, 5);
}
END_TEST
START_TEST(random_row_runs_streaming_stores)
{
    support_run_random_cases(&setup, make_case, 250, "runs", 0, SUPPORT_STREAM_EVERYWHERE, 6);
}
END_TEST

/* A 2-D OpenVINO Gather-8 case: random data bytes, then n i32 indices drawn from [index_lo, index_hi]. */
static void make_2d_case(support_case *c, support_rng *rng, clg_dtype type, const int64_t data_shape[2], int64_t axis,
                         int64_t n, int64_t index_lo, int64_t index_hi)
{
    const int64_t idx_shape[] = {n};
    memset(c, 0, sizeof *c);
    c->op = &support_gather;
    c->axis_value = axis;
    c->desc.gather = support_ov_desc(CLG_OV_GATHER_8, type, 2, data_shape, CLG_I32, 1, idx_shape, &c->axis_value, 0);
    support_case_fill(c, rng, &c->desc.gather.data, &c->desc.gather.indices, &data_shape[axis], 1, 1);
    for (int64_t j = 0; j < n; ++j)
        support_store_int(c->indices, CLG_I32, (size_t)j,
                          index_lo + (int64_t)support_below(rng, (uint64_t)(index_hi - index_lo + 1)));
}

/* Larger rows and many rows, so work-items carry several rows and rows several 16-byte units. */
START_TEST(random_wide_rows)
{
    support_rng rng = {setup.seed ^ 0xABCDEFull};
    for (int k = 0; k < 24; ++k) {
        support_force_kernels(support_mappings[k % 2], (k / 2) % 2,
                              k % 3 == 0 ? SUPPORT_STREAM_EVERYWHERE : SUPPORT_STREAM_TUNED);
        const int64_t rows = 1 + (int64_t)support_below(&rng, 300);
        /* cases 0 and 2 of every 8 (row runs, 32- and 64-bit offsets) may reach rows of 2 KiB and
         * more, whose prefetch covers only their head */
        const int64_t width = 1 + (int64_t)support_below(&rng, k % 8 == 0 || k % 8 == 2 ? 800 : 200);
        const int64_t n = 1 + (int64_t)support_below(&rng, 700);
        const int64_t data_shape[] = {rows, width};
        const clg_dtype type = support_data_types[support_below(&rng, SUPPORT_DATA_TYPES)];
        support_case c;
        make_2d_case(&c, &rng, type, data_shape, 0, n, -1, rows); /* one below and one above the range */
        snprintf(c.name, sizeof c.name, "wide %d: [%" PRId64 ", %" PRId64 "] %s, %" PRId64 " indices", k, rows, width,
                 clg_dtype_name(type), n);
        support_case_compare(&c, k % 3 != 0, (size_t)support_below(&rng, 20));
        support_case_free(&c);
    }
    support_force_kernels(NULL, 0, SUPPORT_STREAM_TUNED);
}
END_TEST

/* Rows of exactly one move unit, the kernels' vectorized one-unit path: the last axis (rows of one
 * element) with groups small enough to prefetch whole and too large for that, and 64-byte rows on
 * axis 0. Enough indices that segments span many work-items and their prefetch windows, streaming
 * forced on and off, and output offsets that are multiples of the element but not of a line. */
START_TEST(random_one_unit_rows)
{
    support_rng rng = {setup.seed ^ 0x0E1707ull};
    const int cases = support_setup_scaled(&setup, 32, 8);
    for (int k = 0; k < cases; ++k) {
        support_force_kernels(k % 8 == 7 ? "adjacent" : "runs", (k / 4) % 2,
                              k % 2 ? SUPPORT_STREAM_EVERYWHERE : SUPPORT_STREAM_NEVER);
        const clg_dtype type = support_data_types[support_below(&rng, SUPPORT_DATA_TYPES)];
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
        support_case c;
        make_2d_case(&c, &rng, type, data_shape, axis, n, -A - 2, A + 1); /* wrapped, in range, out of range */
        c.desc.gather.oob_policy = policy;
        snprintf(c.name, sizeof c.name,
                 "one-unit %d: [%" PRId64 ", %" PRId64 "] %s axis %" PRId64 ", %" PRId64 " indices", k, data_shape[0],
                 data_shape[1], clg_dtype_name(type), axis, n);
        support_case_compare(&c, k % 3 != 2, (size_t)(elem * (int64_t)support_below(&rng, 20)));
        support_case_free(&c);
    }
    support_force_kernels(NULL, 0, SUPPORT_STREAM_TUNED);
}
END_TEST

/* One-unit rows through local memory (kernels_cl/row_stage_gpu.h), forced wherever the group fits:
 * groups of at most 32 KiB (every implementation's local memory holds that), of whole 16-byte vectors
 * or not, rows of 1 to 16 bytes, few groups with many rows each (several chunks a group) or more groups
 * than the grid has work-groups (a stride), batch_dims 0 and 1, every policy, 32- and 64-bit offsets.
 * The staged kernel must be the one that ran. */
static void make_staged_group(support_rng *rng, support_case *c, int k)
{
    support_force_variant("staged-units", (k / 2) % 2);
    const clg_dtype type = support_data_types[support_below(rng, SUPPORT_DATA_TYPES)];
    const int64_t elem = (int64_t)clg_dtype_size(type);
    int64_t inner = 1; /* elements per row: a power of two up to 16 bytes */
    while (inner * elem * 2 <= 16 && support_below(rng, 3) == 0) inner *= 2;
    const int64_t row_bytes = inner * elem, batched = (int64_t)support_below(rng, 2);
    const int few_groups = k % 2 == 0;
    const int64_t B = batched ? 1 + (int64_t)support_below(rng, 3) : 1;
    const int64_t O = few_groups ? 1 + (int64_t)support_below(rng, 2) : 40 + (int64_t)support_below(rng, 160);
    /* half the cases with groups and guards of whole 16-byte vectors: the slab's 16-byte loads */
    const int wide = k % 4 < 2;
    const int64_t per_vector = row_bytes < 16 ? 16 / row_bytes : 1;
    int64_t A = 1 + (int64_t)support_below(rng, few_groups ? (uint64_t)(32768 / row_bytes) : 200);
    if (wide) A = (A + per_vector - 1) / per_vector * per_vector;
    const int64_t N = 1 + (int64_t)support_below(rng, few_groups ? 5000 : 300);
    const int64_t data_shape[] = {B, O, A, inner}, idx_shape[] = {B, N};
    const clg_dtype index_type = support_index_types[support_below(rng, SUPPORT_INDEX_TYPES)];
    const clg_oob_policy policy = (clg_oob_policy)(1 + support_below(rng, CLG_OOB_COUNT - 1));
    c->op = &support_gather;
    c->axis_value = 2;
    c->desc.gather = support_ov_desc(CLG_OV_GATHER_8, type, 4, data_shape, index_type, batched ? 2 : 1,
                                     batched ? idx_shape : &idx_shape[1], &c->axis_value, batched);
    c->desc.gather.oob_policy = policy;
    support_case_fill(c, rng, &c->desc.gather.data, &c->desc.gather.indices, &A, 1,
                      policy == CLG_OOB_ERROR && support_below(rng, 4) != 0);
    snprintf(c->name, sizeof c->name,
             "staged %d: [%" PRId64 ", %" PRId64 ", %" PRId64 ", %" PRId64 "] %s, %" PRId64 " %s indices, oob %d", k, B,
             O, A, inner, clg_dtype_name(type), N, clg_dtype_name(index_type), (int)policy);
    /* guards of whole rows keep the byte offsets multiples of the row, so a row stays one unit */
    c->guard_unit = (size_t)(wide ? 16 : row_bytes);
    c->expected_variant = policy != CLG_OOB_ERROR ? "staged-units" : NULL;
}

START_TEST(random_staged_groups) { support_run_targeted_cases(&setup, make_staged_group, 64, 0x57A6EDull); }
END_TEST

int main(void)
{
    setup = support_random_from_environment("test_gather_differential", 0xC16A7E4ull);
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
    tcase_add_test(tc, random_staged_groups);
    suite_add_tcase(s, tc);
    return support_run_suite(s);
}
