#include "device_buffers.h"

#include "status.h"

#include <inttypes.h>

#define CLG_PLACEHOLDER_BYTES 16

clg_status clg_create_device_buffer(clg_context *ctx, const char *name, const void *host, uint64_t bytes, cl_mem *out)
{
    if (bytes > ctx->info.max_alloc_bytes)
        return clg_fail(CLG_ERR_TOO_LARGE_FOR_DEVICE,
                        "%s needs %" PRIu64 " bytes, more than the device's max allocation of %" PRIu64 " bytes", name,
                        bytes, ctx->info.max_alloc_bytes);
    cl_int err = CL_SUCCESS;
    cl_mem_flags flags = host && bytes ? (CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR) : CL_MEM_READ_WRITE;
    *out = clCreateBuffer(ctx->cl_ctx, flags, bytes ? (size_t)bytes : CLG_PLACEHOLDER_BYTES,
                          bytes ? (void *)(uintptr_t)host : NULL, &err);
    if (err != CL_SUCCESS) {
        *out = NULL;
        return clg_fail(err, "clCreateBuffer for %s (%" PRIu64 " bytes) failed (%d)", name, bytes, (int)err);
    }
    return CLG_SUCCESS;
}
