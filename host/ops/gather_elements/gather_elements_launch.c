#include "ops/gather_elements/gather_elements_launch.h"

#include "core/index_value.h"
#include "core/launch.h"
#include "core/local_staging.h"
#include "core/size_math.h"
#include "core/status.h"
#include "kernel_table.h"

#include <stdio.h>

/* How the innermost walk dimension reads the data (kernels_cl/gather_elements_cpu.cl, INNER). */
enum inner_kind { INNER_AXIS_ROW = 0, INNER_CONTIGUOUS = 1, INNER_STRIDED = 2 };

/* The runs mapping's form for an outer axis: blocks of a slab's columns staged in local memory. */
typedef struct column_blocks {
    int on;
    uint64_t len;   /* elements of a line per block (the line's last block fewer) */
    uint64_t count; /* blocks over every slab */
} column_blocks;

typedef struct specialization {
    clg_variant_id variant;
    int runs;          /* 1: the CPU mapping (runs of elements), 0: the GPU mapping (lines) */
    size_t move_bytes; /* the unit; an element is elem_size / move_bytes units */
    int offsets64;
    enum inner_kind inner;
    uint64_t per_item;  /* elements per work-item (runs) */
    clg_staging staged; /* lines (INNER_AXIS_ROW) through local memory */
    column_blocks blocks;
} specialization;

/* Blocks where the walk ends [axis, contiguous inner] and A rows of a block fit in local memory: a
 * block's row at least block_row_min_bytes, the staged bytes an output costs at most
 * block_bytes_per_output, and blocks_per_cu blocks for every compute unit. Where a test or the
 * benchmark forces them (core/variants.h), wherever they fit, down to blocks of one element; where it
 * forces elements-runs, never. */
static column_blocks choose_column_blocks(const clg_context *ctx, const clg_gather_elements_plan *plan,
                                          const specialization *s)
{
    column_blocks c = {0};
    const clg_tuning *t = &ctx->tuning;
    const clg_staging_rule rule =
        clg_staging_rule_of(ctx, CLG_VARIANT_ELEMENTS_COLUMN_BLOCKS, CLG_VARIANT_ELEMENTS_RUNS);
    const int forced = rule == CLG_STAGING_WHEREVER_IT_FITS;
    const int32_t R = plan->walk_rank;
    if (rule == CLG_STAGING_NEVER || !s->runs || s->inner != INNER_CONTIGUOUS || R < 2 ||
        plan->walk_stride[R - 2] != 0 || plan->A == 0 || plan->io.size.out_elems == 0)
        return c;
    const uint64_t line = plan->walk_extent[R - 1], rows = plan->walk_extent[R - 2];
    const uint64_t elem = plan->io.elem_size;
    if (!forced && plan->A * elem > rows * t->block_bytes_per_output) return c;
    const uint64_t least = forced ? 1 : clg_min_u64(line, clg_max_u64(1, t->block_row_min_bytes / elem));
    uint64_t len = clg_min_u64(line, ctx->local_mem_bytes / plan->A / elem);
    if (len < least) return c;
    if (len < line) len -= len % least;
    const uint64_t slabs = plan->io.size.out_elems / (rows * line);
    const uint64_t wanted = (uint64_t)ctx->compute_units * t->blocks_per_cu;
    c.count = slabs * ((line + len - 1) / len);
    while (c.count < wanted && len / 2 >= least) {
        len = len / 2 - (len / 2) % least;
        c.count = slabs * ((line + len - 1) / len);
    }
    c.on = 1;
    c.len = len;
    return c;
}

static specialization choose(const clg_context *ctx, const clg_gather_elements_plan *plan, const clg_buffer *buffers)
{
    specialization s;
    const clg_tuning *t = &ctx->tuning;
    s.runs = !clg_context_maps_adjacent(ctx, CLG_FAMILY_ELEMENTS);
    s.move_bytes = clg_move_unit(ctx, plan->io.elem_size, plan->io.elem_size, &buffers[0], &buffers[2]);
    const uint64_t units = plan->io.elem_size / s.move_bytes;
    const uint64_t inner_stride = plan->walk_stride[plan->walk_rank - 1];
    if (inner_stride == 0 && plan->axis_stride == 1 && units == 1)
        s.inner = INNER_AXIS_ROW;
    else
        s.inner = inner_stride == 1 ? INNER_CONTIGUOUS : INNER_STRIDED;
    s.per_item = clg_max_u64(1, t->run_bytes / plan->io.elem_size);
    /* keep enough work-groups to occupy every compute unit a few times over */
    const uint64_t min_items = (uint64_t)ctx->compute_units * t->runs_groups_per_cu * t->runs_local_size;
    while (s.per_item > 1 && plan->io.size.out_elems / s.per_item < min_items) s.per_item /= 2;
    /* units of data and output, indices, the axis, and the runs' start positions past the end */
    const uint64_t largest =
        clg_max_u64(clg_max_u64(plan->io.size.data_bytes / s.move_bytes, plan->io.size.out_bytes / s.move_bytes),
                    clg_max_u64(plan->A, plan->io.size.out_elems + s.per_item * (t->runs_local_size + 1)));
    s.offsets64 = CLG_TEST_SWITCH(ctx, force_offsets64) || largest >= CLG_OFFSET32_LIMIT;
    s.staged = (clg_staging){0};
    s.blocks = choose_column_blocks(ctx, plan, &s);
    const uint64_t line = plan->walk_extent[plan->walk_rank - 1];
    if (!s.runs && s.inner == INNER_AXIS_ROW && plan->A > 0 && line > 0) {
        /* a line's data row starts at a sum of walk strides and spans A units */
        uint64_t multiple = plan->A * s.move_bytes;
        for (int32_t j = 0; j + 1 < plan->walk_rank; ++j)
            if ((plan->walk_stride[j] * s.move_bytes) % 16) multiple = 1;
        s.staged = clg_staging_choose(
            ctx, clg_staging_rule_of(ctx, CLG_VARIANT_ELEMENTS_STAGED_LINES, CLG_VARIANT_ELEMENTS_LINES),
            plan->io.size.out_elems / line, line, plan->A * s.move_bytes, multiple, &buffers[0],
            t->adjacent_local_size);
    }
    s.variant = s.blocks.on   ? CLG_VARIANT_ELEMENTS_COLUMN_BLOCKS
                : s.runs      ? CLG_VARIANT_ELEMENTS_RUNS
                : s.staged.on ? CLG_VARIANT_ELEMENTS_STAGED_LINES
                              : CLG_VARIANT_ELEMENTS_LINES;
    return s;
}

static void build_options(const clg_gather_elements_plan *plan, const specialization *s, char *buf, size_t size)
{
    char index_rules[160];
    clg_index_rules_options(plan->io.index_type, s->offsets64, plan->io.policy == CLG_OOB_CLAMP, index_rules,
                            sizeof index_rules);
    char staging[24];
    clg_staging_options(&s->staged, staging, sizeof staging);
    snprintf(buf, size, "-DMOVE_T=%s -DUNITS=%zu -DWALK_RANK=%d -DINNER=%d -DAXIS_EMPTY=%d %s -DSTREAM=0%s",
             clg_move_type(s->move_bytes), plan->io.elem_size / s->move_bytes, (int)plan->walk_rank, (int)s->inner,
             plan->A == 0, index_rules, staging);
}

/* The walk's extents and its strides in units, and the axis stride in units. */
static cl_int set_walk_args(cl_kernel k, cl_uint first, const clg_gather_elements_plan *plan, const specialization *s)
{
    const uint64_t units = plan->io.elem_size / s->move_bytes;
    cl_ulong8 extents = {{0}}, strides = {{0}};
    for (int32_t j = 0; j < plan->walk_rank; ++j) {
        extents.s[j] = plan->walk_extent[j];
        strides.s[j] = plan->walk_stride[j] * units;
    }
    cl_long A = (cl_long)plan->A;
    cl_int err = clSetKernelArg(k, first, sizeof A, &A);
    err |= clg_set_offset_arg(k, first + 1, plan->axis_stride * units, s->offsets64);
    err |= clSetKernelArg(k, first + 2, sizeof extents, &extents);
    err |= clSetKernelArg(k, first + 3, sizeof strides, &strides);
    return err;
}

clg_status clg_gather_elements_launch(clg_context *ctx, const void *plan_ptr, cl_command_queue queue,
                                      const clg_buffer *buffers, cl_mem gate, cl_uint num_events,
                                      const cl_event *wait_list, cl_event *done)
{
    const clg_gather_elements_plan *plan = plan_ptr;
    const specialization s = choose(ctx, plan, buffers);
    char options[320];
    build_options(plan, &s, options, sizeof options);
    const char *name = clg_variant_get(s.variant)->kernel;
    clg_kernel_lease lease;
    clg_status st = clg_borrow_kernel(ctx, s.runs ? &clg_kernel_gather_elements_cpu : &clg_kernel_gather_elements_gpu,
                                      options, name, &lease);
    if (st != CLG_SUCCESS) return st;

    cl_ulong data_offset = buffers[0].offset, out_offset = buffers[2].offset;
    cl_ulong index_offset = buffers[1].offset / plan->io.index_size;
    cl_int err = clSetKernelArg(lease.kernel, 0, sizeof(cl_mem), &buffers[0].mem);
    err |= clSetKernelArg(lease.kernel, 1, sizeof data_offset, &data_offset);
    err |= clSetKernelArg(lease.kernel, 2, sizeof(cl_mem), &buffers[1].mem);
    err |= clSetKernelArg(lease.kernel, 3, sizeof index_offset, &index_offset);
    err |= clSetKernelArg(lease.kernel, 4, sizeof(cl_mem), &buffers[2].mem);
    err |= clSetKernelArg(lease.kernel, 5, sizeof out_offset, &out_offset);
    uint64_t items[2];
    size_t local[2];
    cl_uint dims, next_arg;
    const uint64_t line = plan->walk_extent[plan->walk_rank - 1];
    if (s.blocks.on) {
        /* one work-group of one item per block, and the block's A rows in local memory */
        err |= clg_set_offset_arg(lease.kernel, 6, s.blocks.count, s.offsets64);
        err |= clg_set_offset_arg(lease.kernel, 7, s.blocks.len, s.offsets64);
        err |= set_walk_args(lease.kernel, 8, plan, &s);
        err |= clSetKernelArg(lease.kernel, 12, (size_t)(plan->A * s.blocks.len * plan->io.elem_size), NULL);
        next_arg = 13;
        items[0] = s.blocks.count;
        local[0] = 1;
        dims = 1;
    } else if (s.runs) {
        err |= clg_set_offset_arg(lease.kernel, 6, plan->io.size.out_elems, s.offsets64);
        err |= clg_set_offset_arg(lease.kernel, 7, s.per_item, s.offsets64);
        err |= set_walk_args(lease.kernel, 8, plan, &s);
        next_arg = 12;
        items[0] = (plan->io.size.out_elems + s.per_item - 1) / s.per_item;
        local[0] = ctx->tuning.runs_local_size;
        dims = 1;
    } else if (s.staged.on) {
        /* one work-group per (line, chunk) pair, with a grid stride, and the line's data row */
        const uint64_t lines = plan->io.size.out_elems / line;
        err |= clg_set_offset_arg(lease.kernel, 6, lines, s.offsets64);
        err |= set_walk_args(lease.kernel, 7, plan, &s);
        err |= clg_staging_set_args(lease.kernel, 11, &s.staged, s.offsets64);
        next_arg = 14;
        clg_staging_grid(ctx, &lease, &s.staged, ctx->tuning.adjacent_local_size, local, items);
        dims = 1;
    } else {
        const uint64_t lines = plan->io.size.out_elems / line;
        err |= clg_set_offset_arg(lease.kernel, 6, lines, s.offsets64);
        err |= set_walk_args(lease.kernel, 7, plan, &s);
        next_arg = 11;
        /* elements of a line across dimension 0, lines across dimension 1 with a grid stride */
        clg_launch_rows_grid(ctx, &lease, line, lines, ctx->tuning.adjacent_local_size, local, items);
        dims = 2;
    }
    err |= clg_set_gate_arg(lease.kernel, next_arg, gate);
    if (err != CL_SUCCESS) {
        clg_kernel_return(ctx->programs, &lease);
        return clg_fail_cl(err, "clSetKernelArg (gather elements)");
    }
    st = clg_launch(ctx, queue, &lease, name, dims, items, local, num_events, wait_list, done);
    clg_kernel_return(ctx->programs, &lease);
    if (st == CLG_SUCCESS) CLG_TEST_RECORD_VARIANT(ctx, s.variant);
    return st;
}
