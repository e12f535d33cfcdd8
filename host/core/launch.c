#include "core/launch.h"

#include "core/status.h"

#include <inttypes.h>
#include <stdio.h>

clg_status clg_borrow_kernel(clg_context *ctx, const clg_kernel_source *source, const char *options, const char *name,
                             clg_kernel_lease *lease)
{
    int hinted = !__atomic_load_n(&ctx->hints_failed, __ATOMIC_RELAXED);
    const clg_tuning *t = &ctx->tuning;
    const int prefetch = CLG_TEST_SWITCH(ctx, broken_hint) ? 9 : (int)t->prefetch; /* 9: a value hints.h refuses */
    if (!prefetch && !t->stream && !t->item_loops && !t->force_inline) hinted = 0;
    char full[CLG_OPTIONS_CAPACITY], constants[CLG_OPTIONS_CAPACITY / 2];
    const char *driver_options = ctx->profile.driver_options ? ctx->profile.driver_options : "";
    const size_t needed = clg_tuning_build_options(t, constants, sizeof constants);
    if (needed >= sizeof constants) /* never at the tunables' maxima today (test_tuning) */
        return clg_fail(CLG_ERR_KERNEL_BUILD,
                        "the tuning's build options take %zu bytes, more than the %zu kept for them", needed,
                        sizeof constants - 1);
    if (hinted)
        snprintf(full, sizeof full,
                 "%s%s%s -DHINT_PREFETCH=%d -DHINT_STREAM=%d -DHINT_ITEM_LOOPS=%d -DHINT_FORCE_INLINE=%d", options,
                 driver_options, constants, prefetch, (int)t->stream, (int)t->item_loops, (int)t->force_inline);
    else
        snprintf(full, sizeof full, "%s%s%s", options, driver_options, constants);
    clg_status st = clg_kernel_borrow(ctx->programs, source, full, name, lease);
    if (st == CLG_ERR_KERNEL_BUILD && hinted) {
        __atomic_store_n(&ctx->hints_failed, 1, __ATOMIC_RELAXED);
        char log[900];
        snprintf(log, sizeof log, "%s", clg_last_error_message());
        st = clg_fail(CLG_ERR_KERNEL_BUILD, "%s [the device's hints are now off: the next call builds without them]",
                      log);
    }
    return st;
}

void clg_launch_fit_local(const clg_context *ctx, const clg_kernel_lease *lease, cl_uint dims, size_t *local)
{
    size_t limit = lease->max_local_size < ctx->max_work_group_size ? lease->max_local_size : ctx->max_work_group_size;
    if (limit == 0) limit = 1;
    for (cl_uint d = 0; d < dims; ++d) {
        const size_t item_limit = d < 3 ? ctx->max_work_item_sizes[d] : 1;
        if (local[d] == 0) local[d] = 1;
        while (local[d] > item_limit) local[d] = (local[d] + 1) / 2;
    }
    for (;;) {
        size_t product = 1, largest = 0;
        for (cl_uint d = 0; d < dims; ++d) {
            product *= local[d];
            if (local[d] >= local[largest]) largest = d;
        }
        if (product <= limit) break;
        local[largest] = (local[largest] + 1) / 2;
    }
}

void clg_launch_rows_grid(const clg_context *ctx, const clg_kernel_lease *lease, uint64_t width, uint64_t rows,
                          size_t group, size_t local[2], uint64_t items[2])
{
    size_t l0 = 1;
    while (l0 < width && l0 * 2 <= group) l0 *= 2;
    local[0] = l0;
    local[1] = group / l0;
    clg_launch_fit_local(ctx, lease, 2, local);
    items[0] = local[0];
    const uint64_t cap = (uint64_t)local[1] * clg_launch_grid_groups(ctx);
    items[1] = rows < cap ? rows : cap;
}

cl_int clg_set_gate_arg(cl_kernel kernel, cl_uint first, cl_mem gate)
{
    /* every kernel reads its gate: a NULL one would fault on the device, not fail here */
    return gate ? clSetKernelArg(kernel, first, sizeof(cl_mem), &gate) : CL_INVALID_MEM_OBJECT;
}

cl_int clg_set_offset_arg(cl_kernel kernel, cl_uint index, uint64_t value, int offsets64)
{
    if (offsets64) {
        cl_ulong v = value;
        return clSetKernelArg(kernel, index, sizeof v, &v);
    }
    cl_uint v = (cl_uint)value;
    return clSetKernelArg(kernel, index, sizeof v, &v);
}

/* The alignment a buffer's device address is known to have: the device's base alignment, or less
 * for a buffer over a caller's host pointer (CL_MEM_USE_HOST_PTR), which drivers may use in place. */
size_t clg_buffer_alignment(const clg_context *ctx, cl_mem mem)
{
    size_t align = ctx->base_align_bytes;
    cl_mem_flags flags = 0;
    void *host = NULL;
    if (mem && clGetMemObjectInfo(mem, CL_MEM_FLAGS, sizeof flags, &flags, NULL) == CL_SUCCESS &&
        (flags & CL_MEM_USE_HOST_PTR) &&
        clGetMemObjectInfo(mem, CL_MEM_HOST_PTR, sizeof host, &host, NULL) == CL_SUCCESS && host) {
        uintptr_t address = (uintptr_t)host;
        size_t host_align = (size_t)(address & (~address + 1)); /* lowest set bit */
        if (host_align < align) align = host_align;
    }
    return align ? align : 1;
}

bool clg_buffer_aligned_to(const clg_context *ctx, const clg_buffer *b, size_t bytes)
{
    return b->offset % bytes == 0 && clg_buffer_alignment(ctx, b->mem) >= bytes;
}

size_t clg_move_unit(const clg_context *ctx, size_t widest, uint64_t bytes, const clg_buffer *src,
                     const clg_buffer *dst)
{
    const size_t src_align = clg_buffer_alignment(ctx, src->mem), dst_align = clg_buffer_alignment(ctx, dst->mem);
    size_t unit = widest;
    while (unit > 1 &&
           (bytes % unit || src->offset % unit || dst->offset % unit || src_align < unit || dst_align < unit))
        unit /= 2;
    return unit;
}

const char *clg_move_type(size_t unit_bytes)
{
    switch (unit_bytes) {
    case 64: return "uint16";
    case 32: return "uint8";
    case 16: return "uint4";
    case 8: return "uint2";
    case 4: return "uint";
    case 2: return "ushort";
    default: return "uchar";
    }
}

uint64_t clg_launch_grid_groups(const clg_context *ctx)
{
    return (uint64_t)ctx->compute_units * ctx->tuning.grid_groups_per_cu;
}

clg_status clg_launch(const clg_context *ctx, cl_command_queue queue, const clg_kernel_lease *lease, const char *what,
                      cl_uint dims, const uint64_t *items, const size_t *local_wanted, cl_uint num_events,
                      const cl_event *wait_list, cl_event *done)
{
    size_t local[3] = {1, 1, 1}, global[3] = {1, 1, 1};
    for (cl_uint d = 0; d < dims; ++d) local[d] = local_wanted[d];
    clg_launch_fit_local(ctx, lease, dims, local);
    /* the device's size_t bounds every global size (and get_global_id's values) */
    const uint64_t device_max = ctx->address_bits >= 64 ? UINT64_MAX : ((uint64_t)1 << ctx->address_bits) - 1;
    const uint64_t host_max = (uint64_t)SIZE_MAX;
    const uint64_t max_global = device_max < host_max ? device_max : host_max;
    for (cl_uint d = 0; d < dims; ++d) {
        const uint64_t groups = items[d] / local[d] + (items[d] % local[d] != 0);
        if (groups > max_global / local[d])
            return clg_fail(CLG_ERR_TOO_LARGE_FOR_DEVICE,
                            "%s needs %" PRIu64
                            " work-items in dimension %u, more than the device's %u-bit size_t holds",
                            what, items[d], (unsigned)d, (unsigned)ctx->address_bits);
        global[d] = (size_t)(groups * local[d]);
        if (global[d] == 0) global[d] = local[d];
    }
    cl_int err = clEnqueueNDRangeKernel(queue, lease->kernel, dims, NULL, global, local, num_events, wait_list, done);
    if (err != CL_SUCCESS) {
        char call[96];
        snprintf(call, sizeof call, "clEnqueueNDRangeKernel (%s)", what);
        return clg_fail_cl(err, call);
    }
    return CLG_SUCCESS;
}
