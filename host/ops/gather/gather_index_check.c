#include "ops/gather/gather_index_check.h"

#include "core/index_value.h"
#include "core/launch.h"
#include "core/status.h"
#include "kernel_table.h"

#include <inttypes.h>
#include <stdlib.h>

/* Indices a check work-item scans; doubled until the chunk number fits the 32-bit flag. */
#define CLG_CHECK_PER_ITEM       256u
#define CLG_CHECK_LOCAL_SIZE     64u
/* Below this bound 32-bit offsets are safe for every position the check forms. */
#define CLG_CHECK_OFFSET32_LIMIT ((uint64_t)1 << 31)

clg_status clg_gather_check_indices_host(const clg_gather_plan *plan, const void *indices, uint64_t first,
                                         uint64_t count)
{
    for (uint64_t k = 0; k < count; ++k) {
        clg_integer v = clg_read_integer(indices, plan->index_type, k);
        uint64_t row;
        if (clg_index_in_range(v, plan->A, &row)) continue;
        char value[32], where[256];
        clg_integer_format(v, value, sizeof value);
        clg_format_position(plan->indices_shape, plan->indices_rank, first + k, where, sizeof where);
        return clg_fail(CLG_ERR_INDEX_OUT_OF_RANGE,
                        "indices%s (flat position %" PRIu64 ") = %s is outside [-%" PRIu64 ", %" PRId64
                        "] for axis %d of size %" PRIu64,
                        where, first + k, value, plan->A, (int64_t)plan->A - 1, (int)plan->axis, plan->A);
    }
    return CLG_SUCCESS;
}

static uint64_t indices_per_item(const clg_gather_plan *plan)
{
    uint64_t per_item = CLG_CHECK_PER_ITEM;
    while (plan->index_elems / per_item >= ((uint64_t)1 << 31)) per_item *= 2;
    return per_item;
}

clg_status clg_gather_enqueue_index_check(clg_context *ctx, const void *plan_ptr, cl_command_queue queue,
                                          const clg_buffer *inputs, cl_mem flag, cl_uint num_events,
                                          const cl_event *wait_list, cl_event *done)
{
    const clg_gather_plan *plan = plan_ptr;
    const clg_buffer *indices = &inputs[1];
    const uint64_t per_item = indices_per_item(plan);
    /* positions reach count plus one work-group's worth of chunks */
    const int offsets64 = CLG_TEST_SWITCH(ctx, force_offsets64) ||
                          plan->index_elems + per_item * (CLG_CHECK_LOCAL_SIZE + 1) >= CLG_CHECK_OFFSET32_LIMIT;
    char options[256];
    clg_index_rules_options(plan->index_type, offsets64, 0, options, sizeof options);
    clg_kernel_lease lease;
    clg_status st = clg_kernel_borrow(ctx->programs, &clg_kernel_check_indices, options, "check_indices", &lease);
    if (st != CLG_SUCCESS) return st;
    cl_ulong index_offset = indices->offset / plan->index_size;
    cl_long A = (cl_long)plan->A;
    cl_int err = clSetKernelArg(lease.kernel, 0, sizeof(cl_mem), &indices->mem);
    err |= clSetKernelArg(lease.kernel, 1, sizeof index_offset, &index_offset);
    err |= clg_set_offset_arg(lease.kernel, 2, plan->index_elems, offsets64);
    err |= clSetKernelArg(lease.kernel, 3, sizeof A, &A);
    err |= clg_set_offset_arg(lease.kernel, 4, per_item, offsets64);
    err |= clSetKernelArg(lease.kernel, 5, sizeof(cl_mem), &flag);
    if (err != CL_SUCCESS) {
        clg_kernel_return(ctx->programs, &lease);
        return clg_fail_cl(CL_INVALID_KERNEL_ARGS, "clSetKernelArg (check_indices)");
    }
    const uint64_t items = (plan->index_elems + per_item - 1) / per_item;
    const size_t local = CLG_CHECK_LOCAL_SIZE;
    st = clg_launch(ctx, queue, &lease, "check_indices", 1, &items, &local, num_events, wait_list, done);
    clg_kernel_return(ctx->programs, &lease);
    return st;
}

clg_status clg_gather_report_bad_index(const void *plan_ptr, cl_command_queue queue, const clg_buffer *inputs,
                                       cl_uint flagged_chunk)
{
    const clg_gather_plan *plan = plan_ptr;
    const clg_buffer *indices = &inputs[1];
    const uint64_t per_item = indices_per_item(plan);
    const uint64_t first = (uint64_t)flagged_chunk * per_item;
    const uint64_t count = plan->index_elems - first < per_item ? plan->index_elems - first : per_item;
    void *host = malloc(count * plan->index_size);
    if (!host)
        return clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "cannot allocate %zu bytes to read back indices",
                        (size_t)(count * plan->index_size));
    cl_int err = clEnqueueReadBuffer(queue, indices->mem, CL_TRUE, indices->offset + first * plan->index_size,
                                     count * plan->index_size, host, 0, NULL, NULL);
    clg_status st = err != CL_SUCCESS ? clg_fail_cl(err, "clEnqueueReadBuffer (indices)")
                                      : clg_gather_check_indices_host(plan, host, first, count);
    free(host);
    if (st == CLG_SUCCESS) /* the device saw a bad index the host no longer sees: indices changed under us */
        st = clg_fail(CLG_ERR_INDEX_OUT_OF_RANGE,
                      "the index check flagged indices from flat position %llu, but they read back in range "
                      "(were the indices written concurrently?)",
                      (unsigned long long)first);
    return st;
}
