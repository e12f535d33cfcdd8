/* Randomized differential tests of GatherElements: the OpenCL path against the CPU reference, bit for
 * bit, with poisoned outputs and guard bytes (so byte offsets of any alignment), over random presets,
 * element and index types, ranks, shapes (indices smaller than the data off the axis, larger along
 * it), axes, policies and index values (in range, negative, out of range, hostile), in both kernel
 * mappings with 32- and 64-bit offsets. The seed is fixed and printed; set CLGATHER_TEST_SEED to replay
 * another. CLGATHER_TEST_SCALE (a fraction, default 1) scales the number of cases. */
#include "op_support.h"

#include <inttypes.h>
#include <stdio.h>

static support_random_setup setup;

/* Inputs against the axis length, and the case's name. */
static void finish_case(support_rng *rng, support_case *c, int keep_valid, const char *kind, int number)
{
    const clg_gather_elements_desc *d = &c->desc.elements;
    const int32_t axis = (int32_t)(d->axis < 0 ? d->axis + d->data.rank : d->axis);
    support_case_fill(c, rng, &d->data, &d->indices, &d->data.shape[axis], 1, keep_valid);
    snprintf(c->name, sizeof c->name, "%s %d: %s data %s r%d idx %s axis %" PRId64 " oob %d", kind, number,
             clg_gather_elements_preset_name(d->preset), clg_dtype_name(d->data.type), (int)d->data.rank,
             clg_dtype_name(d->indices.type), d->axis, (int)d->oob_policy);
}

static void make_case(support_rng *rng, support_case *c, int number)
{
    c->op = &support_gather_elements;
    clg_gather_elements_desc *d = &c->desc.elements;
    d->preset = (clg_gather_elements_preset)(1 + support_below(rng, CLG_GATHER_ELEMENTS_PRESET_COUNT - 1));
    const int onnx = d->preset != CLG_OV_GATHER_ELEMENTS_6;
    d->data.type = support_data_types[support_below(rng, SUPPORT_DATA_TYPES)];
    if (d->data.type == CLG_BF16 && d->preset == CLG_ONNX_GATHER_ELEMENTS_11) d->preset = CLG_ONNX_GATHER_ELEMENTS_13;
    d->indices.type = onnx ? (support_below(rng, 2) ? CLG_I64 : CLG_I32)
                           : support_index_types[support_below(rng, SUPPORT_INDEX_TYPES)];
    const int allow_zero = support_below(rng, 8) == 0;
    d->data.rank = d->indices.rank = 1 + (int32_t)support_below(rng, 6);
    const int32_t axis = (int32_t)support_below(rng, (uint64_t)d->data.rank);
    for (int32_t k = 0; k < d->data.rank; ++k) {
        d->data.shape[k] = support_pick_dim(rng, allow_zero, 5);
        /* off the axis the indices are no larger than the data (often equal); along it, anything */
        if (k == axis)
            d->indices.shape[k] = support_pick_dim(rng, allow_zero, 6);
        else
            d->indices.shape[k] =
                support_below(rng, 2) ? d->data.shape[k] : (int64_t)support_below(rng, (uint64_t)d->data.shape[k] + 1);
    }
    d->axis = support_below(rng, 3) == 0 ? axis - d->data.rank : axis; /* the negative form too */
    d->oob_policy = (clg_oob_policy)support_below(rng, CLG_OOB_COUNT);
    finish_case(rng, c, support_below(rng, 4) != 0, "case", number); /* under the error policy, most valid */
}

/* The random cases under each kernel configuration of op_support.h. */
START_TEST(random_configuration) { support_run_configuration(&setup, make_case, _i); }
END_TEST

/* A GatherElements-6 case of random element and index types, for the targeted makers to shape. */
static clg_gather_elements_desc *start_ov_case(support_rng *rng, support_case *c)
{
    c->op = &support_gather_elements;
    clg_gather_elements_desc *d = &c->desc.elements;
    d->preset = CLG_OV_GATHER_ELEMENTS_6;
    d->data.type = support_data_types[support_below(rng, SUPPORT_DATA_TYPES)];
    d->indices.type = support_index_types[support_below(rng, SUPPORT_INDEX_TYPES)];
    return d;
}

/* Larger 2-D and 3-D cases shaped like the kernels' specializations: the innermost axis (lines that
 * gather within one data row, with the rows' prefetch), an outer axis (contiguous inner walk), and
 * indices narrower than the data (strided walks), with enough elements that work-items carry several
 * lines and lines span work-items. */
static void make_large_walk(support_rng *rng, support_case *c, int k)
{
    support_force_kernels(support_mappings[k % 2], (k / 2) % 2, SUPPORT_STREAM_TUNED);
    clg_gather_elements_desc *d = start_ov_case(rng, c);
    const int kind = k % 3;
    d->data.rank = d->indices.rank = 2 + (int32_t)support_below(rng, 2);
    for (int32_t j = 0; j < d->data.rank; ++j) d->data.shape[j] = 1 + (int64_t)support_below(rng, 90);
    d->axis = kind == 0 ? d->data.rank - 1 : 0;
    for (int32_t j = 0; j < d->data.rank; ++j)
        d->indices.shape[j] = j == d->axis ? 1 + (int64_t)support_below(rng, 120)
                              : kind == 2  ? 1 + (int64_t)support_below(rng, (uint64_t)d->data.shape[j])
                                           : d->data.shape[j];
    d->oob_policy = support_below(rng, 2) ? CLG_OOB_ZERO : CLG_OOB_CLAMP;
    finish_case(rng, c, 0, kind == 0 ? "innermost axis" : kind == 1 ? "outer axis" : "narrow indices", k);
}

START_TEST(random_large_walks) { support_run_targeted_cases(&setup, make_large_walk, 36, 0x1A26Eull); }
END_TEST

/* Lines along the innermost axis through local memory (gather_elements_staged_lines), forced wherever
 * the data row fits: rows of at most 32 KiB, of whole 16-byte vectors or not, 2-D and 3-D (indices
 * narrower than the data off the axis too, so the walk has strided outer dimensions), few lines of many
 * elements (several chunks a line) or more lines than the grid has work-groups, every policy. The staged
 * kernel must be the one that ran. */
static void make_staged_line(support_rng *rng, support_case *c, int k)
{
    support_force_variant("elements-staged-lines", (k / 2) % 2);
    clg_gather_elements_desc *d = start_ov_case(rng, c);
    const int64_t elem = (int64_t)clg_dtype_size(d->data.type);
    const int few_lines = k % 2 == 0;
    d->data.rank = d->indices.rank = 2 + (int32_t)support_below(rng, 2);
    const int32_t axis = d->data.rank - 1;
    for (int32_t j = 0; j < axis; ++j) {
        d->data.shape[j] = few_lines ? 1 + (int64_t)support_below(rng, 2) : 8 + (int64_t)support_below(rng, 20);
        d->indices.shape[j] =
            support_below(rng, 2) ? d->data.shape[j] : 1 + (int64_t)support_below(rng, (uint64_t)d->data.shape[j]);
    }
    d->data.shape[axis] = 1 + (int64_t)support_below(rng, (uint64_t)(32768 / elem));
    /* half the cases with rows and guards of whole 16-byte vectors: the slab's 16-byte loads */
    const int wide = k % 4 < 2;
    const int64_t per_vector = elem < 16 ? 16 / elem : 1;
    if (wide) d->data.shape[axis] = (d->data.shape[axis] + per_vector - 1) / per_vector * per_vector;
    d->indices.shape[axis] = 1 + (int64_t)support_below(rng, few_lines ? 5000 : 400);
    d->axis = support_below(rng, 2) ? axis : -1;
    d->oob_policy = (clg_oob_policy)(1 + support_below(rng, CLG_OOB_COUNT - 1));
    finish_case(rng, c, d->oob_policy == CLG_OOB_ERROR && support_below(rng, 4) != 0, "staged", k);
    /* guards of whole elements keep the byte offsets multiples of the element, one unit */
    c->guard_unit = (size_t)(wide ? 16 : elem);
    c->expected_variant = d->oob_policy != CLG_OOB_ERROR ? "elements-staged-lines" : NULL;
}

START_TEST(random_staged_lines) { support_run_targeted_cases(&setup, make_staged_line, 32, 0x57A6ED3ull); }
END_TEST

/* An outer axis in the runs mapping, where column blocks staged in local memory are the CPU's form
 * (gather_elements_column_blocks). Cases in three modes: staging forced, down to blocks of one element;
 * automatic, with output rows per staged row at the host's bound, above it (blocks of at least a cache
 * line a row, halved for occupancy) or just below it (the row-run kernel); forced off, the row-run
 * kernel. The dimensions after the axis merge into one contiguous line (the first may be narrower than
 * the data's), those before it are any width, ranks 2 to 8, the line is often longer than the blocks
 * local memory holds (several blocks a line, the last one shorter), elements of one unit or, at byte
 * offsets, of several, every policy. The kernel of the mode must be the one that ran. */
static void make_column_block(support_rng *rng, support_case *c, int k)
{
    const int mode = k % 3;
    if (mode == 1) /* the runs mapping's own choice */
        support_force_kernels("runs", (k / 3) % 2, SUPPORT_STREAM_TUNED);
    else
        support_force_variant(mode == 0 ? "elements-column-blocks" : "elements-runs", (k / 3) % 2);
    clg_gather_elements_desc *d = start_ov_case(rng, c);
    d->data.rank = d->indices.rank = 2 + (int32_t)support_below(rng, k % 4 == 0 ? 7 : 3);
    const int small = d->data.rank > 4; /* then every dimension small, for the simulators' sake */
    const int32_t axis = (int32_t)support_below(rng, (uint64_t)d->data.rank - 1);
    for (int32_t j = 0; j < d->data.rank; ++j) {
        d->data.shape[j] = 1 + (int64_t)support_below(rng, small ? 2 : j < axis ? 3 : 4);
        d->indices.shape[j] = d->data.shape[j];
    }
    d->data.shape[axis] = 1 + (int64_t)support_below(rng, small ? 40 : 200);
    d->data.shape[axis + 1] = 2 + (int64_t)support_below(rng, small ? 60 : 400);
    d->indices.shape[axis + 1] = support_below(rng, 2)
                                     ? d->data.shape[axis + 1]
                                     : 2 + (int64_t)support_below(rng, (uint64_t)d->data.shape[axis + 1] - 1);
    if (axis > 0 && support_below(rng, 2))
        d->indices.shape[0] = 1 + (int64_t)support_below(rng, (uint64_t)d->data.shape[0]);
    /* automatic: blocks from 16 staged bytes per output row at most (gather_elements_launch.c); the
     * rows at that bound, above it, or one below it (then the row-run kernel) */
    const int64_t least_rows = (d->data.shape[axis] * (int64_t)clg_dtype_size(d->data.type) + 15) / 16;
    const int64_t at_bound = least_rows > 2 ? least_rows : 2;
    const uint64_t side = mode == 1 ? support_below(rng, 3) : 1;
    const int below = side == 2 && least_rows > 2;
    d->indices.shape[axis] = below       ? least_rows - 1
                             : side == 0 ? at_bound
                                         : at_bound + (int64_t)support_below(rng, small ? 20 : 150);
    d->axis = support_below(rng, 2) ? axis : axis - d->data.rank;
    d->oob_policy = (clg_oob_policy)(1 + support_below(rng, CLG_OOB_COUNT - 1));
    const int keep_valid = d->oob_policy == CLG_OOB_ERROR && support_below(rng, 4) != 0;
    finish_case(rng, c, keep_valid, mode == 0 ? "column blocks" : mode == 1 ? "automatic blocks" : "no blocks", k);
    c->guard_unit = k % 4 < 2 ? clg_dtype_size(d->data.type) : 1;
    /* under the error policy the kernel runs only when every index is valid */
    if (d->oob_policy != CLG_OOB_ERROR || keep_valid)
        c->expected_variant = mode == 2 || below ? "elements-runs" : "elements-column-blocks";
}

START_TEST(random_column_blocks) { support_run_targeted_cases(&setup, make_column_block, 48, 0xC01B10Cull); }
END_TEST

int main(void)
{
    setup = support_random_from_environment("test_gather_elements_differential", 0x6E1E3E75ull);
    return support_run_looped_tests("gather_elements_differential", 1200, random_configuration, SUPPORT_CONFIGURATIONS,
                                    SUPPORT_TESTS(random_large_walks, random_staged_lines, random_column_blocks));
}
