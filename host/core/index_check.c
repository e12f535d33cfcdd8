#include "core/index_check.h"

#include "core/index_value.h"
#include "core/launch.h"
#include "core/status.h"
#include "kernel_table.h"

#include <inttypes.h>

/* Indices a check work-item scans; doubled until the chunk number fits the 32-bit flag. */
#define CLG_CHECK_PER_ITEM       256u
#define CLG_CHECK_LOCAL_SIZE     64u
/* Below this bound 32-bit offsets are safe for every position the check forms. */
#define CLG_CHECK_OFFSET32_LIMIT ((uint64_t)1 << 31)

/* The error policy's message for the index at flat position `position`. */
static clg_status out_of_range(const clg_index_bound *bound, uint64_t position, clg_integer v)
{
    char value[32], where[256];
    clg_integer_format(v, value, sizeof value);
    clg_format_position(bound->indices_shape, bound->indices_rank, position, where, sizeof where);
    return clg_fail(CLG_ERR_INDEX_OUT_OF_RANGE,
                    "indices%s (flat position %" PRIu64 ") = %s is outside [-%" PRIu64 ", %" PRId64
                    "] for axis %d of size %" PRIu64,
                    where, position, value, bound->A, (int64_t)bound->A - 1, (int)bound->axis, bound->A);
}

clg_status clg_index_check_host(const clg_index_bound *bound, const void *indices, uint64_t first, uint64_t count)
{
    for (uint64_t k = 0; k < count; ++k) {
        clg_integer v = clg_read_integer(indices, bound->index_type, k);
        uint64_t row;
        if (!clg_index_in_range(v, bound->A, &row)) return out_of_range(bound, first + k, v);
    }
    return CLG_SUCCESS;
}

static uint64_t indices_per_item(const clg_index_bound *bound)
{
    uint64_t per_item = CLG_CHECK_PER_ITEM;
    while (bound->count / per_item >= ((uint64_t)1 << 31)) per_item *= 2;
    return per_item;
}

/* check_indices and locate_bad_index take the same arguments. */
static clg_status enqueue_check_kernel(clg_context *ctx, const clg_index_bound *bound, const char *kernel,
                                       cl_command_queue queue, const clg_buffer *indices, cl_mem record, uint64_t items,
                                       cl_uint num_events, const cl_event *wait_list, cl_event *done)
{
    const uint64_t per_item = indices_per_item(bound);
    /* positions reach count plus one work-group's worth of chunks */
    const int offsets64 = CLG_TEST_SWITCH(ctx, force_offsets64) ||
                          bound->count + per_item * (CLG_CHECK_LOCAL_SIZE + 1) >= CLG_CHECK_OFFSET32_LIMIT;
    char options[256];
    clg_index_rules_options(bound->index_type, offsets64, 0, options, sizeof options);
    clg_kernel_lease lease;
    clg_status st = clg_borrow_kernel(ctx, &clg_kernel_check_indices, options, kernel, &lease);
    if (st != CLG_SUCCESS) return st;
    cl_ulong index_offset = indices->offset / bound->index_size;
    cl_long A = (cl_long)bound->A;
    cl_int err = clSetKernelArg(lease.kernel, 0, sizeof(cl_mem), &indices->mem);
    err |= clSetKernelArg(lease.kernel, 1, sizeof index_offset, &index_offset);
    err |= clg_set_offset_arg(lease.kernel, 2, bound->count, offsets64);
    err |= clSetKernelArg(lease.kernel, 3, sizeof A, &A);
    err |= clg_set_offset_arg(lease.kernel, 4, per_item, offsets64);
    err |= clSetKernelArg(lease.kernel, 5, sizeof(cl_mem), &record);
    if (err != CL_SUCCESS) {
        clg_kernel_return(ctx->programs, &lease);
        return clg_fail_cl(CL_INVALID_KERNEL_ARGS, "clSetKernelArg (check_indices)");
    }
    const size_t local = CLG_CHECK_LOCAL_SIZE;
    st = clg_launch(ctx, queue, &lease, kernel, 1, &items, &local, num_events, wait_list, done);
    clg_kernel_return(ctx->programs, &lease);
    return st;
}

clg_status clg_index_check_enqueue(clg_context *ctx, const clg_index_bound *bound, cl_command_queue queue,
                                   const clg_buffer *indices, cl_mem record, cl_uint num_events,
                                   const cl_event *wait_list, cl_event *done)
{
    const uint64_t per_item = indices_per_item(bound);
    if (clg_context_maps_adjacent(ctx)) { /* coalesced reads, as many items as the device keeps busy */
        const uint64_t cap = (uint64_t)CLG_CHECK_LOCAL_SIZE * clg_launch_grid_groups(ctx);
        return enqueue_check_kernel(ctx, bound, "check_indices_strided", queue, indices, record,
                                    bound->count < cap ? bound->count : cap, num_events, wait_list, done);
    }
    return enqueue_check_kernel(ctx, bound, "check_indices", queue, indices, record,
                                (bound->count + per_item - 1) / per_item, num_events, wait_list, done);
}

clg_status clg_index_locate_enqueue(clg_context *ctx, const clg_index_bound *bound, cl_command_queue queue,
                                    const clg_buffer *indices, cl_mem record, cl_uint num_events,
                                    const cl_event *wait_list, cl_event *done)
{
    return enqueue_check_kernel(ctx, bound, "locate_bad_index", queue, indices, record, 1, num_events, wait_list, done);
}

clg_status clg_index_check_report(const clg_index_bound *bound, const clg_failure_record *record)
{
    if (record->details[0] != 1) /* the device saw a bad index the locate kernel no longer sees */
        return clg_fail(CLG_ERR_INDEX_OUT_OF_RANGE,
                        "the index check flagged indices from flat position %" PRIu64
                        ", but they read back in range (were the indices written concurrently?)",
                        (uint64_t)record->flag * indices_per_item(bound));
    clg_integer v = {.is_unsigned = !clg_dtype_is_signed_integer(bound->index_type), .s = 0, .u = 0};
    if (v.is_unsigned)
        v.u = record->details[2];
    else
        v.s = (int64_t)record->details[2];
    return out_of_range(bound, record->details[1], v);
}
