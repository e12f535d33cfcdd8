#include "gather_dispatch.h"

#include "index_check.h"
#include "kernel_sources.h"
#include "device_buffers.h"
#include "status.h"

#include <stdio.h>
#include <stdlib.h>

/* Bound under which the host has proved 32-bit offsets safe: every offset the kernels form, plus
 * one grid's worth of overshoot, stays below 2^32. */
#define CLG_OFFSET32_LIMIT ((uint64_t)1 << 31)
#define CLG_RUN_BYTES_TARGET 4096u
#define CLG_RUNS_LOCAL_SIZE 64u
#define CLG_UNITS_LOCAL_SIZE 256u
#define CLG_MAX_GROUPS_DIM1 65535u
#define CLG_CHECK_PER_ITEM 256u
/* Streaming stores pay off once the output is too large to stay in the caches near the cores (it is
 * written back to memory anyway) and each store writes whole cache lines; measured on PoCL
 * (bench/RESULTS.md): +15-25% on embedding, batched and middle-axis rows, +9% on 64-byte rows moved
 * as one 64-byte unit, but -20% on the same rows moved in 16-byte units, and -6% on 4-byte units of
 * the last axis. Below these sizes, ordinary stores leave the output in cache for its consumer. */
#define CLG_STREAM_MIN_BYTES ((uint64_t)8 << 20)
#define CLG_STREAM_MIN_ROW_BYTES 128u  /* rows of several units */
#define CLG_STREAM_MIN_UNIT_BYTES 64u  /* rows of one unit: a whole line per store */

typedef struct specialization {
    size_t move_bytes;
    int offsets64;
    clg_mapping mapping;
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

static const char *index_type(clg_dtype t)
{
    switch (t) {
    case CLG_I8: return "char";
    case CLG_U8: return "uchar";
    case CLG_I16: return "short";
    case CLG_U16: return "ushort";
    case CLG_I32: return "int";
    case CLG_U32: return "uint";
    case CLG_I64: return "long";
    default: return "ulong";
    }
}

static int index_signed(clg_dtype t) { return t == CLG_I8 || t == CLG_I16 || t == CLG_I32 || t == CLG_I64; }

static void build_options(const clg_gather_plan *plan, const specialization *s, int clamp, char *buf, size_t size)
{
    snprintf(buf, size, "-DMOVE_T=%s -DIDX_T=%s -DIDX_BYTES=%zu -DIDX_SIGNED=%d -DOFF64=%d -DCLAMP=%d -DSTREAM=%d",
             move_type(s->move_bytes), index_type(plan->index_type), plan->index_size, index_signed(plan->index_type),
             s->offsets64, clamp, s->stream);
}

static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }
static uint64_t round_up(uint64_t v, uint64_t m) { return (v + m - 1) / m * m; }

/* The alignment a buffer's device address is known to have: the device's base alignment, or less
 * for a buffer over a caller's host pointer (CL_MEM_USE_HOST_PTR), which drivers may use in place. */
static size_t buffer_alignment(const clg_context *ctx, cl_mem mem)
{
    size_t align = ctx->base_align_bytes;
    cl_mem_flags flags = 0;
    void *host = NULL;
    if (mem && clGetMemObjectInfo(mem, CL_MEM_FLAGS, sizeof flags, &flags, NULL) == CL_SUCCESS &&
        (flags & CL_MEM_USE_HOST_PTR) && clGetMemObjectInfo(mem, CL_MEM_HOST_PTR, sizeof host, &host, NULL) == CL_SUCCESS &&
        host) {
        uintptr_t address = (uintptr_t)host;
        size_t host_align = (size_t)(address & (~address + 1)); /* lowest set bit */
        if (host_align < align) align = host_align;
    }
    return align ? align : 1;
}

static specialization choose(const clg_context *ctx, const clg_gather_plan *plan, const clg_gather_buffers *bufs)
{
    specialization s;
    const uint64_t row_bytes = plan->I * plan->elem_size;
    s.mapping = ctx->force_mapping;
    if (s.mapping == CLG_MAPPING_AUTO)
        s.mapping = (ctx->info.type & CL_DEVICE_TYPE_GPU) ? CLG_MAPPING_ROW_UNITS : CLG_MAPPING_ROW_RUNS;
    /* Row runs (CPU): one work-item moves whole rows, so up to 64 bytes at a time (two AVX2 or one
     * AVX-512 move). Row units (GPU): 16 bytes per work-item, the widest load that still coalesces. */
    s.move_bytes = s.mapping == CLG_MAPPING_ROW_RUNS ? 64 : 16;
    /* a vector type's natural alignment may be assumed by the compiler: never exceed what the buffers have */
    size_t data_align = buffer_alignment(ctx, bufs->data), out_align = buffer_alignment(ctx, bufs->output);
    while (s.move_bytes > 1 && (row_bytes % s.move_bytes || bufs->data_offset % s.move_bytes ||
                                bufs->output_offset % s.move_bytes || data_align < s.move_bytes ||
                                out_align < s.move_bytes))
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
    s.offsets64 = ctx->force_offsets64 || largest >= CLG_OFFSET32_LIMIT;
    s.stream = s.mapping == CLG_MAPPING_ROW_RUNS && s.move_bytes >= 16 &&
               (s.units_per_row > 1 ? row_bytes >= CLG_STREAM_MIN_ROW_BYTES : row_bytes >= CLG_STREAM_MIN_UNIT_BYTES) &&
               plan->out_bytes >= CLG_STREAM_MIN_BYTES && ctx->force_stream >= 0;
    if (ctx->force_stream > 0) s.stream = s.mapping == CLG_MAPPING_ROW_RUNS;
    return s;
}

static cl_int set_offset_arg(cl_kernel k, cl_uint i, uint64_t value, int offsets64)
{
    if (offsets64) {
        cl_ulong v = value;
        return clSetKernelArg(k, i, sizeof v, &v);
    }
    cl_uint v = (cl_uint)value;
    return clSetKernelArg(k, i, sizeof v, &v);
}

static cl_int set_common_args(cl_kernel k, const clg_gather_plan *plan, const specialization *s,
                              const clg_gather_buffers *bufs)
{
    cl_ulong data_offset = bufs->data_offset, out_offset = bufs->output_offset;
    cl_ulong index_offset = bufs->indices_offset / plan->index_size;
    cl_long A = (cl_long)plan->A;
    cl_int err = clSetKernelArg(k, 0, sizeof(cl_mem), &bufs->data);
    err |= clSetKernelArg(k, 1, sizeof data_offset, &data_offset);
    err |= clSetKernelArg(k, 2, sizeof(cl_mem), &bufs->indices);
    err |= clSetKernelArg(k, 3, sizeof index_offset, &index_offset);
    err |= clSetKernelArg(k, 4, sizeof(cl_mem), &bufs->output);
    err |= clSetKernelArg(k, 5, sizeof out_offset, &out_offset);
    err |= set_offset_arg(k, 6, s->rows, s->offsets64);
    err |= set_offset_arg(k, 7, plan->N, s->offsets64);
    err |= set_offset_arg(k, 8, plan->O, s->offsets64);
    err |= clSetKernelArg(k, 9, sizeof A, &A);
    err |= set_offset_arg(k, 10, s->units_per_row, s->offsets64);
    return err;
}

clg_status clg_dispatch_gather(clg_context *ctx, const clg_gather_plan *plan, cl_command_queue queue,
                               const clg_gather_buffers *bufs, cl_uint num_events, const cl_event *wait_list,
                               cl_event *done)
{
    specialization s = choose(ctx, plan, bufs);
    char options[256];
    build_options(plan, &s, plan->policy == CLG_OOB_CLAMP, options, sizeof options);
    const char *name = s.mapping == CLG_MAPPING_ROW_UNITS ? "gather_row_units"
                       : s.units_per_row == 1             ? "gather_row_runs_u1"
                                                          : "gather_row_runs";
    clg_kernel_lease lease;
    clg_status st = clg_kernel_borrow(ctx->programs, &clg_kernel_gather, options, name, &lease);
    if (st != CLG_SUCCESS) return st;

    cl_int err = set_common_args(lease.kernel, plan, &s, bufs);
    size_t global[2], local[2];
    cl_uint dims;
    if (s.mapping == CLG_MAPPING_ROW_RUNS) {
        err |= set_offset_arg(lease.kernel, 11, s.rows_per_item, s.offsets64);
        uint64_t items = (s.rows + s.rows_per_item - 1) / s.rows_per_item;
        local[0] = CLG_RUNS_LOCAL_SIZE <= ctx->max_work_group_size ? CLG_RUNS_LOCAL_SIZE : 1;
        global[0] = (size_t)round_up(items, local[0]);
        dims = 1;
    } else {
        size_t group = CLG_UNITS_LOCAL_SIZE <= ctx->max_work_group_size ? CLG_UNITS_LOCAL_SIZE : ctx->max_work_group_size;
        size_t l0 = 1;
        while (l0 < s.units_per_row && l0 * 2 <= group) l0 *= 2;
        local[0] = l0;
        local[1] = group / l0;
        global[0] = l0;
        uint64_t rows = round_up(s.rows, local[1]);
        uint64_t cap = (uint64_t)local[1] * CLG_MAX_GROUPS_DIM1;
        global[1] = (size_t)(rows < cap ? rows : cap);
        dims = 2;
    }
    if (err != CL_SUCCESS) {
        clg_kernel_return(ctx->programs, &lease);
        return clg_fail_cl(err, "clSetKernelArg (gather)");
    }
    err = clEnqueueNDRangeKernel(queue, lease.kernel, dims, NULL, global, local, num_events, wait_list, done);
    clg_kernel_return(ctx->programs, &lease);
    if (err != CL_SUCCESS) return clg_fail_cl(err, "clEnqueueNDRangeKernel (gather)");
    return CLG_SUCCESS;
}

/* Read back the flagged chunk and name its first bad index. */
static clg_status report_bad_chunk(const clg_gather_desc *desc, const clg_gather_plan *plan, cl_command_queue queue,
                                   const clg_gather_buffers *bufs, uint64_t first, uint64_t count)
{
    void *host = malloc(count * plan->index_size);
    if (!host) return clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "cannot allocate %zu bytes to read back indices",
                               (size_t)(count * plan->index_size));
    cl_int err = clEnqueueReadBuffer(queue, bufs->indices, CL_TRUE, bufs->indices_offset + first * plan->index_size,
                                     count * plan->index_size, host, 0, NULL, NULL);
    clg_status st = err != CL_SUCCESS ? clg_fail_cl(err, "clEnqueueReadBuffer (indices)")
                                      : clg_check_indices_host(desc, plan, host, first, count);
    free(host);
    if (st == CLG_SUCCESS) /* the device saw a bad index the host no longer sees: indices changed under us */
        st = clg_fail(CLG_ERR_INDEX_OUT_OF_RANGE,
                      "the index check flagged indices from flat position %llu, but they read back in range "
                      "(were the indices written concurrently?)",
                      (unsigned long long)first);
    return st;
}

clg_status clg_dispatch_index_check(clg_context *ctx, const clg_gather_desc *desc, const clg_gather_plan *plan,
                                    cl_command_queue queue, const clg_gather_buffers *bufs, cl_uint num_events,
                                    const cl_event *wait_list, cl_event *done)
{
    specialization s = choose(ctx, plan, bufs);
    uint64_t per_item = CLG_CHECK_PER_ITEM;
    while (plan->index_elems / per_item >= ((uint64_t)1 << 31)) per_item *= 2;
    char options[256];
    build_options(plan, &s, 0, options, sizeof options);
    clg_kernel_lease lease;
    clg_status st = clg_kernel_borrow(ctx->programs, &clg_kernel_gather, options, "check_indices", &lease);
    if (st != CLG_SUCCESS) return st;

    cl_int err = CL_SUCCESS;
    cl_uint none_bad = 0xFFFFFFFFu, first_bad = 0xFFFFFFFFu;
    cl_mem result = NULL;
    st = clg_create_device_buffer(ctx, "index check result", &none_bad, sizeof none_bad, &result);
    if (st != CLG_SUCCESS) {
        clg_kernel_return(ctx->programs, &lease);
        return st;
    }
    cl_ulong index_offset = bufs->indices_offset / plan->index_size;
    cl_long A = (cl_long)plan->A;
    err = clSetKernelArg(lease.kernel, 0, sizeof(cl_mem), &bufs->indices);
    err |= clSetKernelArg(lease.kernel, 1, sizeof index_offset, &index_offset);
    err |= set_offset_arg(lease.kernel, 2, plan->index_elems, s.offsets64);
    err |= clSetKernelArg(lease.kernel, 3, sizeof A, &A);
    err |= set_offset_arg(lease.kernel, 4, per_item, s.offsets64);
    err |= clSetKernelArg(lease.kernel, 5, sizeof(cl_mem), &result);
    size_t local = CLG_RUNS_LOCAL_SIZE <= ctx->max_work_group_size ? CLG_RUNS_LOCAL_SIZE : 1;
    size_t global = (size_t)round_up((plan->index_elems + per_item - 1) / per_item, local);
    cl_event checked = NULL;
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(queue, lease.kernel, 1, NULL, &global, &local, num_events, wait_list, &checked);
    else
        err = CL_INVALID_KERNEL_ARGS;
    clg_kernel_return(ctx->programs, &lease);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(queue, result, CL_TRUE, 0, sizeof first_bad, &first_bad, 1, &checked, NULL);
    clReleaseMemObject(result);
    if (err != CL_SUCCESS) {
        if (checked) clReleaseEvent(checked);
        return clg_fail_cl(err, "index check (clEnqueueNDRangeKernel / clEnqueueReadBuffer)");
    }
    if (first_bad != none_bad) {
        clReleaseEvent(checked);
        uint64_t first = (uint64_t)first_bad * per_item;
        uint64_t count = plan->index_elems - first < per_item ? plan->index_elems - first : per_item;
        return report_bad_chunk(desc, plan, queue, bufs, first, count);
    }
    *done = checked;
    return CLG_SUCCESS;
}
