#include "core/device_buffers.h"

#include "core/status.h"

#include <inttypes.h>
#include <stdbool.h>

#define CLG_PLACEHOLDER_BYTES 16

/* Host memory this aligned is read in place where the tuning allows it. */
#define CLG_IN_PLACE_ALIGNMENT 16

/* How a buffer over host memory is made: copied from it, read in place, or read and written in place. */
typedef enum host_use { HOST_COPIED, HOST_READ_IN_PLACE, HOST_WRITTEN_IN_PLACE } host_use;

static clg_status create_buffer(clg_context *ctx, const char *name, const void *host, uint64_t bytes, host_use use,
                                cl_mem *out)
{
    *out = NULL;
    if (bytes > ctx->info.max_alloc_bytes)
        return clg_fail(CLG_ERR_TOO_LARGE_FOR_DEVICE,
                        "%s needs %" PRIu64 " bytes, more than the device's max allocation of %" PRIu64 " bytes", name,
                        bytes, ctx->info.max_alloc_bytes);
    cl_int err = CL_SUCCESS;
    const bool from_host = host && bytes;
    cl_mem_flags flags = CL_MEM_READ_WRITE;
    if (from_host && use == HOST_READ_IN_PLACE)
        flags = CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR;
    else if (from_host && use == HOST_WRITTEN_IN_PLACE)
        flags = CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR;
    else if (from_host)
        flags = CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR;
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
    return create_buffer(ctx, name, host, bytes, HOST_COPIED, out);
}

bool clg_host_in_place(const clg_context *ctx, const void *host)
{
    return ctx->tuning.host_memory_in_place && (uintptr_t)host % CLG_IN_PLACE_ALIGNMENT == 0;
}

clg_status clg_create_input_buffer(clg_context *ctx, const char *name, const void *host, uint64_t bytes, cl_mem *out)
{
    return create_buffer(ctx, name, host, bytes, clg_host_in_place(ctx, host) ? HOST_READ_IN_PLACE : HOST_COPIED, out);
}

clg_status clg_create_output_in_place(clg_context *ctx, const char *name, void *host, uint64_t bytes, cl_mem *out)
{
    return create_buffer(ctx, name, host, bytes, HOST_WRITTEN_IN_PLACE, out);
}
