#include "core/device_buffers.h"

#include "core/status.h"

#include <inttypes.h>
#include <stdbool.h>

#define CLG_PLACEHOLDER_BYTES 16

/* Host memory this aligned is read in place where the tuning allows it. */
#define CLG_IN_PLACE_ALIGNMENT 16

static clg_status create_buffer(clg_context *ctx, const char *name, const void *host, uint64_t bytes, bool in_place,
                                cl_mem *out)
{
    *out = NULL;
    if (bytes > ctx->info.max_alloc_bytes)
        return clg_fail(CLG_ERR_TOO_LARGE_FOR_DEVICE,
                        "%s needs %" PRIu64 " bytes, more than the device's max allocation of %" PRIu64 " bytes", name,
                        bytes, ctx->info.max_alloc_bytes);
    cl_int err = CL_SUCCESS;
    const bool from_host = host && bytes;
    cl_mem_flags flags = in_place && from_host ? CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR
                                               : CL_MEM_READ_WRITE | (from_host ? CL_MEM_COPY_HOST_PTR : 0);
    cl_mem mem = clCreateBuffer(ctx->cl_ctx, flags, bytes ? (size_t)bytes : CLG_PLACEHOLDER_BYTES,
                                bytes ? (void *)(uintptr_t)host : NULL, &err);
    if (err == CL_SUCCESS) {
        *out = mem;
        return CLG_SUCCESS;
    }
    if (err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES || err == CL_OUT_OF_HOST_MEMORY)
        return clg_fail(CLG_ERR_DEVICE_OUT_OF_MEMORY, "the device could not allocate %" PRIu64 " bytes for %s (%s)",
                        bytes, name, clg_cl_error_name(err));
    return clg_fail(err, "clCreateBuffer for %s (%" PRIu64 " bytes) failed (%d)", name, bytes, (int)err);
}

clg_status clg_create_device_buffer(clg_context *ctx, const char *name, const void *host, uint64_t bytes, cl_mem *out)
{
    return create_buffer(ctx, name, host, bytes, false, out);
}

clg_status clg_create_input_buffer(clg_context *ctx, const char *name, const void *host, uint64_t bytes, cl_mem *out)
{
    const bool in_place = ctx->tuning.host_inputs_in_place && (uintptr_t)host % CLG_IN_PLACE_ALIGNMENT == 0;
    return create_buffer(ctx, name, host, bytes, in_place, out);
}
