#include "core/index_check.h"

#include "core/index_value.h"
#include "core/launch.h"
#include "core/status.h"
#include "kernel_table.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Components of each unit the check kernels read: a flat index is a tuple of one. */
static uint64_t tuple_len(const clg_index_bound *bound)
{
    return bound->tuple_len > 0 ? (uint64_t)bound->tuple_len : 1;
}

/* The extent that the index at flat position `position` is checked against, and its data axis. */
static uint64_t extent_at(const clg_index_bound *bound, uint64_t position, int32_t *axis)
{
    if (bound->tuple_len == 0) {
        *axis = bound->axis;
        return bound->A;
    }
    const int32_t component = (int32_t)(position % (uint64_t)bound->tuple_len);
    *axis = bound->axis + component;
    return bound->extents[component];
}

/* The error policy's message for the index at flat position `position`. */
static clg_status out_of_range(const clg_index_bound *bound, uint64_t position, clg_integer v)
{
    char value[32], where[256], tuple[96] = "";
    clg_integer_format(v, value, sizeof value);
    clg_format_position(bound->indices_shape, bound->indices_rank, position, where, sizeof where);
    int32_t axis;
    const uint64_t extent = extent_at(bound, position, &axis);
    if (bound->tuple_len > 0)
        snprintf(tuple, sizeof tuple, "tuple %" PRIu64 ", component %d, ", position / (uint64_t)bound->tuple_len,
                 (int)(position % (uint64_t)bound->tuple_len));
    return clg_fail(CLG_ERR_INDEX_OUT_OF_RANGE,
                    "indices%s (%sflat position %" PRIu64 ") = %s is outside [-%" PRIu64 ", %" PRId64
                    "] for %saxis %d of size %" PRIu64,
                    where, tuple, position, value, extent, (int64_t)extent - 1, bound->tuple_len > 0 ? "data " : "",
                    (int)axis, extent);
}

clg_index_bound clg_index_bound_of(const clg_tensor_desc *indices, uint64_t count, uint64_t A, int32_t axis)
{
    clg_index_bound bound = {.index_type = indices->type,
                             .index_size = clg_dtype_size(indices->type),
                             .count = count,
                             .A = A,
                             .axis = axis,
                             .indices_rank = indices->rank};
    memcpy(bound.indices_shape, indices->shape, sizeof bound.indices_shape);
    return bound;
}

clg_index_bound clg_index_bound_of_tuples(const clg_tensor_desc *indices, uint64_t count, const int64_t *extents,
                                          int32_t first_axis)
{
    clg_index_bound bound = clg_index_bound_of(indices, count, 0, first_axis);
    bound.tuple_len = (int32_t)indices->shape[indices->rank - 1];
    for (int32_t j = 0; j < bound.tuple_len; ++j) bound.extents[j] = (uint64_t)extents[j];
    return bound;
}

clg_status clg_index_check_host(const clg_index_bound *bound, const void *indices, uint64_t first, uint64_t count)
{
    for (uint64_t k = 0; k < count; ++k) {
        clg_integer v = clg_read_integer(indices, bound->index_type, k);
        uint64_t row;
        int32_t axis;
        if (!clg_index_in_range(v, extent_at(bound, first + k, &axis), &row)) return out_of_range(bound, first + k, v);
    }
    return CLG_SUCCESS;
}

/* Tuples a check work-item scans: the tuning's, doubled until the chunk number fits the 32-bit flag. */
static uint64_t indices_per_item(const clg_context *ctx, const clg_index_bound *bound)
{
    uint64_t per_item = ctx->tuning.check_per_item;
    while (bound->count / tuple_len(bound) / per_item >= ((uint64_t)1 << 31)) per_item *= 2;
    return per_item;
}

/* check_indices and locate_bad_index take the same arguments. */
static clg_status enqueue_check_kernel(clg_context *ctx, const clg_index_bound *bound, const char *kernel,
                                       cl_command_queue queue, const clg_buffer *indices, cl_mem record, uint64_t items,
                                       cl_uint num_events, const cl_event *wait_list, cl_event *done)
{
    const uint64_t per_item = indices_per_item(ctx, bound), tuples = bound->count / tuple_len(bound);
    /* positions reach count plus one work-group's worth of chunks */
    const int offsets64 =
        CLG_TEST_SWITCH(ctx, force_offsets64) ||
        bound->count + per_item * tuple_len(bound) * (ctx->tuning.check_local_size + 1) >= CLG_OFFSET32_LIMIT;
    char options[256], rules[200];
    clg_index_rules_options(bound->index_type, offsets64, 0, rules, sizeof rules);
    snprintf(options, sizeof options, "%s -DTUPLE=%d", rules, (int)tuple_len(bound));
    clg_kernel_lease lease;
    clg_status st = clg_borrow_kernel(ctx, &clg_kernel_check_indices, options, kernel, &lease);
    if (st != CLG_SUCCESS) return st;
    cl_ulong index_offset = indices->offset / bound->index_size;
    cl_long8 extents = {{0}};
    if (bound->tuple_len == 0)
        extents.s[0] = (cl_long)bound->A;
    else
        for (int32_t j = 0; j < bound->tuple_len; ++j) extents.s[j] = (cl_long)bound->extents[j];
    cl_int err = clSetKernelArg(lease.kernel, 0, sizeof(cl_mem), &indices->mem);
    err |= clSetKernelArg(lease.kernel, 1, sizeof index_offset, &index_offset);
    err |= clg_set_offset_arg(lease.kernel, 2, tuples, offsets64);
    err |= clSetKernelArg(lease.kernel, 3, sizeof extents, &extents);
    err |= clg_set_offset_arg(lease.kernel, 4, per_item, offsets64);
    err |= clSetKernelArg(lease.kernel, 5, sizeof(cl_mem), &record);
    if (err != CL_SUCCESS) {
        clg_kernel_return(ctx->programs, &lease);
        return clg_fail_cl(CL_INVALID_KERNEL_ARGS, "clSetKernelArg (check_indices)");
    }
    const size_t local = ctx->tuning.check_local_size;
    st = clg_launch(ctx, queue, &lease, kernel, 1, &items, &local, num_events, wait_list, done);
    clg_kernel_return(ctx->programs, &lease);
    return st;
}

clg_status clg_index_check_enqueue(clg_context *ctx, const clg_index_bound *bound, cl_command_queue queue,
                                   const clg_buffer *indices, cl_mem record, cl_uint num_events,
                                   const cl_event *wait_list, cl_event *done)
{
    const uint64_t per_item = indices_per_item(ctx, bound), tuples = bound->count / tuple_len(bound);
    /* the tuning's mapping: checks are not a variant of the call they check */
    if (ctx->tuning.mapping == CLG_MAPPING_ADJACENT) { /* coalesced reads, as many items as the device keeps busy */
        const uint64_t cap = (uint64_t)ctx->tuning.check_local_size * clg_launch_grid_groups(ctx);
        return enqueue_check_kernel(ctx, bound, "check_indices_strided", queue, indices, record,
                                    tuples < cap ? tuples : cap, num_events, wait_list, done);
    }
    return enqueue_check_kernel(ctx, bound, "check_indices", queue, indices, record, (tuples + per_item - 1) / per_item,
                                num_events, wait_list, done);
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
                        "the index check flagged its chunk %" PRIu64
                        " of %s indices, but they read back in range (were the indices written concurrently?)",
                        (uint64_t)record->flag, clg_dtype_name(bound->index_type));
    clg_integer v = {.is_unsigned = !clg_dtype_is_signed_integer(bound->index_type), .s = 0, .u = 0};
    if (v.is_unsigned)
        v.u = record->details[2];
    else
        v.s = (int64_t)record->details[2];
    return out_of_range(bound, record->details[1], v);
}

clg_status clg_index_plan_host_check(const void *plan, const void *const *inputs)
{
    const clg_index_bound *bound = plan;
    return clg_index_check_host(bound, inputs[1], 0, bound->count);
}

clg_status clg_index_plan_check(clg_context *ctx, const void *plan, cl_command_queue queue, const clg_buffer *inputs,
                                cl_mem record, cl_uint num_events, const cl_event *wait_list, cl_event *done)
{
    return clg_index_check_enqueue(ctx, plan, queue, &inputs[1], record, num_events, wait_list, done);
}

clg_status clg_index_plan_locate(clg_context *ctx, const void *plan, cl_command_queue queue, const clg_buffer *inputs,
                                 cl_mem record, cl_uint num_events, const cl_event *wait_list, cl_event *done)
{
    return clg_index_locate_enqueue(ctx, plan, queue, &inputs[1], record, num_events, wait_list, done);
}

clg_status clg_index_plan_report(const void *plan, const clg_failure_record *record)
{
    return clg_index_check_report(plan, record);
}
