#include "core/gated_copy.h"

#include "core/launch.h"
#include "core/status.h"
#include "kernel_table.h"

#include <stdio.h>

static const char *move_type(size_t bytes)
{
    switch (bytes) {
    case 16: return "uint4";
    case 8: return "uint2";
    case 4: return "uint";
    case 2: return "ushort";
    default: return "uchar";
    }
}

clg_status clg_enqueue_gated_copy(clg_context *ctx, cl_command_queue queue, const clg_buffer *src,
                                  const clg_buffer *dst, uint64_t bytes, cl_mem record, cl_event after, cl_event *done)
{
    /* the widest unit that divides the size, both offsets and both buffers' alignment */
    size_t move = 16;
    const size_t align = clg_buffer_alignment(ctx, dst->mem);
    while (move > 1 && (bytes % move || src->offset % move || dst->offset % move || align < move)) move /= 2;
    char options[64];
    snprintf(options, sizeof options, "-DMOVE_T=%s", move_type(move));
    clg_kernel_lease lease;
    clg_status st = clg_borrow_kernel(ctx, &clg_kernel_gated_copy, options, "gated_copy", &lease);
    if (st != CLG_SUCCESS) return st;
    cl_ulong src_offset = src->offset, dst_offset = dst->offset, units = bytes / move;
    cl_int err = clSetKernelArg(lease.kernel, 0, sizeof(cl_mem), &src->mem);
    err |= clSetKernelArg(lease.kernel, 1, sizeof src_offset, &src_offset);
    err |= clSetKernelArg(lease.kernel, 2, sizeof(cl_mem), &dst->mem);
    err |= clSetKernelArg(lease.kernel, 3, sizeof dst_offset, &dst_offset);
    err |= clSetKernelArg(lease.kernel, 4, sizeof units, &units);
    err |= clSetKernelArg(lease.kernel, 5, sizeof(cl_mem), &record);
    if (err != CL_SUCCESS) {
        clg_kernel_return(ctx->programs, &lease);
        return clg_fail_cl(CL_INVALID_KERNEL_ARGS, "clSetKernelArg (gated_copy)");
    }
    /* a grid-stride loop: as many items as the device keeps busy */
    const uint64_t cap = (uint64_t)ctx->tuning.copy_local_size * clg_launch_grid_groups(ctx);
    const uint64_t items = units < cap ? units : cap;
    const size_t local = ctx->tuning.copy_local_size;
    st = clg_launch(ctx, queue, &lease, "gated_copy", 1, &items, &local, 1, &after, done);
    clg_kernel_return(ctx->programs, &lease);
    return st;
}
