#include "ops/gather/gather_launch.h"

#include "core/index_value.h"
#include "core/launch.h"
#include "core/status.h"
#include "kernel_table.h"

#include <stdio.h>

/* Bound under which the host has proved 32-bit offsets safe: every offset the kernels form, plus
 * one grid's worth of overshoot, stays below 2^32. */
#define CLG_OFFSET32_LIMIT        ((uint64_t)1 << 31)
#define CLG_RUN_BYTES_TARGET      4096u
#define CLG_RUNS_LOCAL_SIZE       64u
#define CLG_UNITS_LOCAL_SIZE      256u
/* Streaming stores pay off once the output is too large to stay in the caches near the cores and
 * each store writes whole cache lines; below these sizes ordinary stores leave the output in cache
 * for its consumer (bench/RESULTS.md, changes 6 and 9). */
#define CLG_STREAM_MIN_BYTES      ((uint64_t)8 << 20)
#define CLG_STREAM_MIN_ROW_BYTES  128u /* rows of several units */
#define CLG_STREAM_MIN_UNIT_BYTES 64u  /* rows of one unit: a whole line per store */

typedef struct specialization {
    size_t move_bytes;
    int offsets64;
    clg_gather_mapping mapping;
    uint64_t units_per_row;
    uint64_t rows;
    uint64_t rows_per_item;
    int stream;
} specialization;

static const char *move_type(size_t bytes)
{
    switch (bytes) {
    case 64: return "uint16";
    case 32: return "uint8";
    case 16: return "uint4";
    case 8: return "uint2";
    case 4: return "uint";
    case 2: return "ushort";
    default: return "uchar";
    }
}

static void build_options(const clg_gather_plan *plan, const specialization *s, int gated, char *buf, size_t size)
{
    char index_rules[160];
    clg_index_rules_options(plan->index_type, s->offsets64, plan->policy == CLG_OOB_CLAMP, index_rules,
                            sizeof index_rules);
    snprintf(buf, size, "-DMOVE_T=%s %s -DSTREAM=%d -DGATE=%d", move_type(s->move_bytes), index_rules, s->stream,
             gated);
}

static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

static specialization choose(const clg_context *ctx, const clg_gather_plan *plan, const clg_buffer *buffers)
{
    specialization s;
    const uint64_t row_bytes = plan->I * plan->elem_size;
    s.mapping = clg_context_maps_adjacent(ctx) ? CLG_MAPPING_ROW_UNITS : CLG_MAPPING_ROW_RUNS;
    /* Row runs (CPU): one work-item moves whole rows, so up to 64 bytes at a time (two AVX2 or one
     * AVX-512 move). Row units (GPU): 16 bytes per work-item, the widest load that still coalesces. */
    s.move_bytes = s.mapping == CLG_MAPPING_ROW_RUNS ? 64 : 16;
    /* a vector type's natural alignment may be assumed by the compiler: never exceed what the buffers have */
    size_t data_align = clg_buffer_alignment(ctx, buffers[0].mem),
           out_align = clg_buffer_alignment(ctx, buffers[2].mem);
    while (s.move_bytes > 1 &&
           (row_bytes % s.move_bytes || buffers[0].offset % s.move_bytes || buffers[2].offset % s.move_bytes ||
            data_align < s.move_bytes || out_align < s.move_bytes))
        s.move_bytes /= 2;
    s.units_per_row = row_bytes / s.move_bytes;
    s.rows = plan->B * plan->O * plan->N;
    s.rows_per_item = max_u64(1, CLG_RUN_BYTES_TARGET / row_bytes);
    /* keep enough work-groups to occupy every compute unit a few times over */
    uint64_t min_items = (uint64_t)ctx->compute_units * 4 * CLG_RUNS_LOCAL_SIZE;
    while (s.rows_per_item > 1 && s.rows / s.rows_per_item < min_items) s.rows_per_item /= 2;

    uint64_t largest = max_u64(max_u64(plan->data_bytes / s.move_bytes, s.rows * s.units_per_row),
                               max_u64(plan->index_elems, s.rows + s.rows_per_item * CLG_RUNS_LOCAL_SIZE));
    largest = max_u64(largest, plan->A);
    s.offsets64 = CLG_TEST_SWITCH(ctx, force_offsets64) || largest >= CLG_OFFSET32_LIMIT;
    s.stream = s.mapping == CLG_MAPPING_ROW_RUNS && s.move_bytes >= 16 &&
               (s.units_per_row > 1 ? row_bytes >= CLG_STREAM_MIN_ROW_BYTES : row_bytes >= CLG_STREAM_MIN_UNIT_BYTES) &&
               plan->out_bytes >= CLG_STREAM_MIN_BYTES && CLG_TEST_SWITCH(ctx, force_stream) >= 0;
    if (CLG_TEST_SWITCH(ctx, force_stream) > 0) s.stream = s.mapping == CLG_MAPPING_ROW_RUNS;
    return s;
}

static cl_int set_common_args(cl_kernel k, const clg_gather_plan *plan, const specialization *s,
                              const clg_buffer *buffers)
{
    cl_ulong data_offset = buffers[0].offset, out_offset = buffers[2].offset;
    cl_ulong index_offset = buffers[1].offset / plan->index_size;
    cl_long A = (cl_long)plan->A;
    cl_int err = clSetKernelArg(k, 0, sizeof(cl_mem), &buffers[0].mem);
    err |= clSetKernelArg(k, 1, sizeof data_offset, &data_offset);
    err |= clSetKernelArg(k, 2, sizeof(cl_mem), &buffers[1].mem);
    err |= clSetKernelArg(k, 3, sizeof index_offset, &index_offset);
    err |= clSetKernelArg(k, 4, sizeof(cl_mem), &buffers[2].mem);
    err |= clSetKernelArg(k, 5, sizeof out_offset, &out_offset);
    err |= clg_set_offset_arg(k, 6, s->rows, s->offsets64);
    err |= clg_set_offset_arg(k, 7, plan->N, s->offsets64);
    err |= clg_set_offset_arg(k, 8, plan->O, s->offsets64);
    err |= clSetKernelArg(k, 9, sizeof A, &A);
    err |= clg_set_offset_arg(k, 10, s->units_per_row, s->offsets64);
    return err;
}

clg_status clg_gather_launch(clg_context *ctx, const void *plan_ptr, cl_command_queue queue, const clg_buffer *buffers,
                             cl_mem gate, cl_uint num_events, const cl_event *wait_list, cl_event *done)
{
    const clg_gather_plan *plan = plan_ptr;
    const specialization s = choose(ctx, plan, buffers);
    char options[256];
    build_options(plan, &s, gate != NULL, options, sizeof options);
    const int runs = s.mapping == CLG_MAPPING_ROW_RUNS;
    const clg_kernel_source *source = runs ? &clg_kernel_gather_rows_cpu : &clg_kernel_gather_rows_gpu;
    /* gather_row_runs_u1 reads unit 0 of the data for every row, so it needs A > 0 */
    const char *name = !runs                                 ? "gather_row_units"
                       : s.units_per_row == 1 && plan->A > 0 ? "gather_row_runs_u1"
                                                             : "gather_row_runs";
    clg_kernel_lease lease;
    clg_status st = clg_borrow_kernel(ctx, source, options, name, &lease);
    if (st != CLG_SUCCESS) return st;

    cl_int err = set_common_args(lease.kernel, plan, &s, buffers);
    uint64_t items[2];
    size_t local[2];
    cl_uint dims;
    cl_uint next_arg = 11;
    if (runs) {
        err |= clg_set_offset_arg(lease.kernel, next_arg++, s.rows_per_item, s.offsets64);
        items[0] = (s.rows + s.rows_per_item - 1) / s.rows_per_item;
        local[0] = CLG_RUNS_LOCAL_SIZE;
        dims = 1;
    } else {
        /* units of a row across dimension 0 (a power of two up to the row), rows across dimension 1 */
        size_t l0 = 1;
        while (l0 < s.units_per_row && l0 * 2 <= CLG_UNITS_LOCAL_SIZE) l0 *= 2;
        local[0] = l0;
        local[1] = CLG_UNITS_LOCAL_SIZE / l0;
        clg_launch_fit_local(ctx, &lease, 2, local);
        items[0] = local[0];
        /* rows with a grid stride: as many as the device keeps busy */
        const uint64_t cap = (uint64_t)local[1] * clg_launch_grid_groups(ctx);
        items[1] = s.rows < cap ? s.rows : cap;
        dims = 2;
    }
    if (gate) err |= clSetKernelArg(lease.kernel, next_arg, sizeof(cl_mem), &gate);
    if (err != CL_SUCCESS) {
        clg_kernel_return(ctx->programs, &lease);
        return clg_fail_cl(err, "clSetKernelArg (gather)");
    }
    st = clg_launch(ctx, queue, &lease, name, dims, items, local, num_events, wait_list, done);
    clg_kernel_return(ctx->programs, &lease);
    return st;
}
