#include "core/context.h"

#include "core/device_buffers.h"
#include "core/devices.h"
#include "core/operation.h"
#include "core/status.h"

#include <stdlib.h>
#include <string.h>

static uint32_t flags_with_environment(uint32_t flags)
{
    const char *verify = getenv("CLGATHER_VERIFY"), *defer = getenv("CLGATHER_DEFER_ERRORS");
    if (verify && strcmp(verify, "1") == 0) flags |= CLG_CONTEXT_VERIFY;
    if (defer && strcmp(defer, "1") == 0) flags |= CLG_CONTEXT_DEFER_ERRORS;
    return flags;
}

/* Finish a context around a retained cl_context and device (reverse-order cleanup on failure). */
static clg_status init_opencl(clg_context *ctx, cl_platform_id platform, int32_t index)
{
    cl_int err = CL_SUCCESS;
    if (!platform) {
        err = clGetDeviceInfo(ctx->device, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
        if (err != CL_SUCCESS) return clg_fail_cl(err, "clGetDeviceInfo(CL_DEVICE_PLATFORM)");
    }
    clg_describe_device(platform, ctx->device, index, &ctx->info);
    clGetDeviceInfo(ctx->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof ctx->max_work_group_size,
                    &ctx->max_work_group_size, NULL);
    clGetDeviceInfo(ctx->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof ctx->compute_units, &ctx->compute_units, NULL);
    clGetDeviceInfo(ctx->device, CL_DEVICE_SINGLE_FP_CONFIG, sizeof ctx->single_fp_config, &ctx->single_fp_config,
                    NULL);
    clGetDeviceInfo(ctx->device, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, sizeof ctx->native_float_lanes,
                    &ctx->native_float_lanes, NULL);
    cl_ulong local_bytes = 0;
    cl_device_local_mem_type local_type = CL_GLOBAL;
    clGetDeviceInfo(ctx->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local_bytes, &local_bytes, NULL);
    clGetDeviceInfo(ctx->device, CL_DEVICE_LOCAL_MEM_TYPE, sizeof local_type, &local_type, NULL);
    ctx->local_mem_bytes = local_bytes;
    ctx->local_mem_dedicated = local_type == CL_LOCAL;
    size_t item_sizes[3] = {1, 1, 1};
    if (clGetDeviceInfo(ctx->device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof item_sizes, item_sizes, NULL) != CL_SUCCESS)
        item_sizes[0] = item_sizes[1] = item_sizes[2] = 1;
    for (int d = 0; d < 3; ++d) ctx->max_work_item_sizes[d] = item_sizes[d] ? item_sizes[d] : 1;
    if (clGetDeviceInfo(ctx->device, CL_DEVICE_ADDRESS_BITS, sizeof ctx->address_bits, &ctx->address_bits, NULL) !=
            CL_SUCCESS ||
        ctx->address_bits == 0)
        ctx->address_bits = 32;
    cl_uint align_bits = 0;
    clGetDeviceInfo(ctx->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL);
    ctx->base_align_bytes = align_bits >= 8 ? align_bits / 8 : 1;
    if (ctx->max_work_group_size == 0) ctx->max_work_group_size = 1;
    if (ctx->compute_units == 0) ctx->compute_units = 1;
    clg_device_profile_detect(&ctx->info, &ctx->profile);
    ctx->queue = clCreateCommandQueue(ctx->cl_ctx, ctx->device, 0, &err);
    if (err != CL_SUCCESS) return clg_fail_cl(err, "clCreateCommandQueue");
    clg_status st = clg_deferred_create(&ctx->deferred);
    if (st != CLG_SUCCESS) return st;
    st = clg_program_cache_create(ctx->cl_ctx, ctx->device, ctx->profile.driver_caches_programs, &ctx->programs);
    if (st != CLG_SUCCESS) return st;
    const cl_uint open = CLG_FLAG_NONE_FAILED;
    st = clg_create_device_buffer(ctx, "open gate", &open, sizeof open, &ctx->open_gate);
    if (st == CLG_SUCCESS) clg_context_init_tuning(ctx);
    return st;
}

clg_status clg_context_create(cl_context context, cl_device_id device, uint32_t flags, clg_context **out_ctx)
{
    clg_clear_error();
    if (!out_ctx) return clg_fail(CLG_ERR_NULL_ARGUMENT, "out_ctx is NULL");
    if (!context || !device) return clg_fail(CLG_ERR_NULL_ARGUMENT, "context or device is NULL");
    clg_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "cannot allocate a context");
    ctx->flags = flags_with_environment(flags);
    cl_int err = clRetainContext(context);
    if (err != CL_SUCCESS) {
        free(ctx);
        return clg_fail_cl(err, "clRetainContext");
    }
    ctx->cl_ctx = context;
    ctx->device = device;
    clRetainDevice(device);
    clg_status st = init_opencl(ctx, NULL, -1);
    if (st != CLG_SUCCESS) {
        clg_context_release(ctx);
        return st;
    }
    *out_ctx = ctx;
    return CLG_SUCCESS;
}

clg_status clg_context_create_default(const char *device_spec, uint32_t flags, clg_context **out_ctx)
{
    clg_clear_error();
    if (!out_ctx) return clg_fail(CLG_ERR_NULL_ARGUMENT, "out_ctx is NULL");
    int is_reference = 0;
    cl_platform_id platform = NULL;
    cl_device_id device = NULL;
    int32_t index = -1;
    clg_status st = clg_select_device(device_spec, &is_reference, &platform, &device, &index);
    if (st != CLG_SUCCESS) return st;
    clg_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "cannot allocate a context");
    ctx->flags = flags_with_environment(flags);
    if (is_reference) {
        ctx->is_reference = 1;
        ctx->info.index = -1;
        ctx->info.is_reference = 1;
        strcpy(ctx->info.platform_name, "clgather");
        strcpy(ctx->info.device_name, "CPU reference");
        strcpy(ctx->info.vendor, "clgather");
        strcpy(ctx->info.driver_version, clg_version());
        *out_ctx = ctx;
        return CLG_SUCCESS;
    }
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    cl_int err = CL_SUCCESS;
    ctx->cl_ctx = clCreateContext(props, 1, &device, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        free(ctx);
        return clg_fail_cl(err, "clCreateContext");
    }
    ctx->device = device;
    clRetainDevice(device);
    st = init_opencl(ctx, platform, index);
    if (st != CLG_SUCCESS) {
        clg_context_release(ctx);
        return st;
    }
    /* The spec resolved to the default device if it is the one the default rule picks. */
    size_t count = 0;
    clg_device_info listed[64];
    if (clg_list_devices(listed, 64, &count) == CLG_SUCCESS && index >= 0 && (size_t)index < count && index < 64)
        ctx->info.is_default = listed[index].is_default;
    *out_ctx = ctx;
    return CLG_SUCCESS;
}

void clg_context_release(clg_context *ctx)
{
    if (!ctx) return;
    clg_deferred_destroy(ctx->deferred);
    clg_program_cache_destroy(ctx->programs);
    if (ctx->open_gate) clReleaseMemObject(ctx->open_gate);
    if (ctx->queue) clReleaseCommandQueue(ctx->queue);
    if (ctx->device) clReleaseDevice(ctx->device);
    if (ctx->cl_ctx) clReleaseContext(ctx->cl_ctx);
    free(ctx);
}

clg_status clg_context_device_info(const clg_context *ctx, clg_device_info *out)
{
    clg_clear_error();
    if (!ctx || !out) return clg_fail(CLG_ERR_NULL_ARGUMENT, "ctx or out is NULL");
    *out = ctx->info;
    return CLG_SUCCESS;
}

cl_context clg_context_cl_context(const clg_context *ctx) { return ctx ? ctx->cl_ctx : NULL; }
cl_device_id clg_context_cl_device(const clg_context *ctx) { return ctx ? ctx->device : NULL; }
cl_command_queue clg_context_cl_queue(const clg_context *ctx) { return ctx ? ctx->queue : NULL; }

clg_status clg_deferred_status(clg_context *ctx, cl_event event)
{
    clg_clear_error();
    if (!ctx) return clg_fail(CLG_ERR_NULL_ARGUMENT, "ctx is NULL");
    if (ctx->is_reference) return clg_fail(CLG_ERR_NO_OPENCL, "ctx is the CPU reference: it makes no deferred calls");
    return clg_deferred_query(ctx->deferred, event);
}
