#include "core/row_gather.h"

#include "core/index_value.h"
#include "core/launch.h"
#include "core/local_staging.h"
#include "core/size_math.h"
#include "core/status.h"

#include <stdio.h>

typedef struct specialization {
    clg_variant_id variant;
    size_t move_bytes;
    int offsets64;
    clg_mapping mapping; /* runs: a work-item copies whole rows; adjacent: adjacent items adjacent units */
    uint64_t units_per_row;
    uint64_t rows;
    uint64_t rows_per_item;
    int stream;
    clg_staging staged; /* one-unit rows through local memory (CLG_MAPPING_ADJACENT only) */
} specialization;

static void build_options(const clg_row_gather *rows, const specialization *s, char *buf, size_t size)
{
    char staging[24];
    clg_staging_options(&s->staged, staging, sizeof staging);
    char index_rules[160], tuple[32] = "";
    clg_index_rules_options(rows->index_type, s->offsets64, rows->policy == CLG_OOB_CLAMP, index_rules,
                            sizeof index_rules);
    if (rows->tuple_len > 0) snprintf(tuple, sizeof tuple, " -DTUPLE=%d", (int)rows->tuple_len);
    snprintf(buf, size, "-DMOVE_T=%s %s -DSTREAM=%d%s%s", clg_move_type(s->move_bytes), index_rules, s->stream, tuple,
             staging);
}

static specialization choose(const clg_context *ctx, const clg_row_gather *rows, const clg_buffer *buffers)
{
    specialization s;
    const clg_tuning *t = &ctx->tuning;
    const uint64_t row_bytes = rows->I * rows->elem_size;
    s.mapping = clg_context_maps_adjacent(ctx, CLG_FAMILY_ROWS) ? CLG_MAPPING_ADJACENT : CLG_MAPPING_RUNS;
    /* Row runs (CPU): one work-item moves whole rows, in the widest moves the row allows. Row units
     * (GPU): adjacent work-items move adjacent units, no wider than still coalesces. */
    s.move_bytes = clg_move_unit(ctx, s.mapping == CLG_MAPPING_RUNS ? t->runs_move_bytes : t->adjacent_move_bytes,
                                 row_bytes, &buffers[0], &buffers[2]);
    s.units_per_row = row_bytes / s.move_bytes;
    s.rows = rows->B * rows->O * rows->N;
    s.rows_per_item = clg_max_u64(1, t->run_bytes / row_bytes);
    /* keep enough work-groups to occupy every compute unit a few times over */
    uint64_t min_items = (uint64_t)ctx->compute_units * t->runs_groups_per_cu * t->runs_local_size;
    while (s.rows_per_item > 1 && s.rows / s.rows_per_item < min_items) s.rows_per_item /= 2;

    uint64_t largest = clg_max_u64(clg_max_u64(rows->data_bytes / s.move_bytes, s.rows * s.units_per_row),
                                   clg_max_u64(rows->index_elems, s.rows + s.rows_per_item * t->runs_local_size));
    largest = clg_max_u64(largest, rows->A);
    s.offsets64 = CLG_TEST_SWITCH(ctx, force_offsets64) || largest >= CLG_OFFSET32_LIMIT;
    /* Streaming stores pay off once the output is too large to stay in the caches near the cores and
     * each store writes whole cache lines; below that, ordinary stores leave the output in cache for
     * its consumer. */
    s.stream = s.mapping == CLG_MAPPING_RUNS && s.move_bytes >= 16 &&
               row_bytes >= (s.units_per_row > 1 ? t->stream_min_row_bytes : t->stream_min_unit_bytes) &&
               rows->out_bytes >= t->stream_min_bytes;
    s.staged = (clg_staging){0};
    if (s.mapping == CLG_MAPPING_ADJACENT && s.units_per_row == 1 && rows->A > 0)
        s.staged = clg_staging_choose(ctx, clg_staging_rule_of(ctx, CLG_VARIANT_STAGED_UNITS, CLG_VARIANT_ROW_UNITS),
                                      s.rows / clg_max_u64(rows->N, 1), rows->N, rows->A * s.move_bytes,
                                      rows->A * s.move_bytes, &buffers[0], t->adjacent_local_size);
    /* gather_row_runs_u1 reads unit 0 of the data for every row, so it needs A > 0 */
    if (s.mapping == CLG_MAPPING_ADJACENT)
        s.variant = s.staged.on ? CLG_VARIANT_STAGED_UNITS : CLG_VARIANT_ROW_UNITS;
    else
        s.variant = s.units_per_row == 1 && rows->A > 0 && !clg_context_forces(ctx, CLG_VARIANT_ROW_RUNS)
                        ? CLG_VARIANT_ROW_RUNS_ONE_UNIT
                        : CLG_VARIANT_ROW_RUNS;
    return s;
}

static cl_int set_common_args(cl_kernel k, const clg_row_gather *rows, const specialization *s,
                              const clg_buffer *buffers)
{
    cl_ulong data_offset = buffers[0].offset, out_offset = buffers[2].offset;
    cl_ulong index_offset = buffers[1].offset / clg_dtype_size(rows->index_type);
    cl_long A = (cl_long)rows->A;
    cl_int err = clSetKernelArg(k, 0, sizeof(cl_mem), &buffers[0].mem);
    err |= clSetKernelArg(k, 1, sizeof data_offset, &data_offset);
    err |= clSetKernelArg(k, 2, sizeof(cl_mem), &buffers[1].mem);
    err |= clSetKernelArg(k, 3, sizeof index_offset, &index_offset);
    err |= clSetKernelArg(k, 4, sizeof(cl_mem), &buffers[2].mem);
    err |= clSetKernelArg(k, 5, sizeof out_offset, &out_offset);
    err |= clg_set_offset_arg(k, 6, s->rows, s->offsets64);
    err |= clg_set_offset_arg(k, 7, rows->N, s->offsets64);
    err |= clg_set_offset_arg(k, 8, rows->O, s->offsets64);
    err |= clSetKernelArg(k, 9, sizeof A, &A);
    err |= clg_set_offset_arg(k, 10, s->units_per_row, s->offsets64);
    return err;
}

clg_row_gather clg_row_gather_of(const clg_gather_io *io, uint64_t B, uint64_t O, uint64_t A, uint64_t N, uint64_t I,
                                 const clg_kernel_source *cpu_source, const clg_kernel_source *gpu_source)
{
    return (clg_row_gather){.B = B,
                            .O = O,
                            .A = A,
                            .N = N,
                            .I = I,
                            .elem_size = io->elem_size,
                            .index_type = io->index_type,
                            .policy = io->policy,
                            .data_bytes = io->size.data_bytes,
                            .index_elems = io->size.index_elems,
                            .out_bytes = io->size.out_bytes,
                            .tuple_len = 0,
                            .cpu_source = cpu_source,
                            .gpu_source = gpu_source};
}

clg_status clg_row_gather_launch(clg_context *ctx, const clg_row_gather *rows, cl_command_queue queue,
                                 const clg_buffer *buffers, cl_mem gate, cl_uint num_events, const cl_event *wait_list,
                                 cl_event *done)
{
    const specialization s = choose(ctx, rows, buffers);
    char options[256];
    build_options(rows, &s, options, sizeof options);
    const int runs = s.mapping == CLG_MAPPING_RUNS;
    const clg_kernel_source *source = runs ? rows->cpu_source : rows->gpu_source;
    const char *name = clg_variant_get(s.variant)->kernel;
    clg_kernel_lease lease;
    clg_status st = clg_borrow_kernel(ctx, source, options, name, &lease);
    if (st != CLG_SUCCESS) return st;

    cl_int err = set_common_args(lease.kernel, rows, &s, buffers);
    uint64_t items[2];
    size_t local[2];
    cl_uint dims;
    cl_uint next_arg = 11;
    if (runs) {
        err |= clg_set_offset_arg(lease.kernel, next_arg++, s.rows_per_item, s.offsets64);
        items[0] = (s.rows + s.rows_per_item - 1) / s.rows_per_item;
        local[0] = ctx->tuning.runs_local_size;
        dims = 1;
    } else if (s.staged.on) {
        /* one work-group per (group, chunk) pair, with a grid stride, and the group's slab */
        err |= clg_staging_set_args(lease.kernel, next_arg, &s.staged, s.offsets64);
        next_arg += 3;
        clg_staging_grid(ctx, &lease, &s.staged, ctx->tuning.adjacent_local_size, local, items);
        dims = 1;
    } else {
        /* units of a row across dimension 0, rows across dimension 1 with a grid stride */
        clg_launch_rows_grid(ctx, &lease, s.units_per_row, s.rows, ctx->tuning.adjacent_local_size, local, items);
        dims = 2;
    }
    if (rows->tuple_len > 0) { /* the extent each tuple component indexes */
        cl_long8 dims = {{0}};
        for (int32_t j = 0; j < rows->tuple_len; ++j) dims.s[j] = (cl_long)rows->tuple_dims[j];
        err |= clSetKernelArg(lease.kernel, next_arg++, sizeof dims, &dims);
    }
    err |= clg_set_gate_arg(lease.kernel, next_arg, gate);
    if (err != CL_SUCCESS) {
        clg_kernel_return(ctx->programs, &lease);
        return clg_fail_cl(err, "clSetKernelArg (row gather)");
    }
    st = clg_launch(ctx, queue, &lease, name, dims, items, local, num_events, wait_list, done);
    clg_kernel_return(ctx->programs, &lease);
    if (st == CLG_SUCCESS) CLG_TEST_RECORD_VARIANT(ctx, s.variant);
    return st;
}
