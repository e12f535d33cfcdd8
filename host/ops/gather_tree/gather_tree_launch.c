#include "ops/gather_tree/gather_tree_launch.h"

#include "core/launch.h"
#include "core/status.h"
#include "kernel_table.h"
#include "ops/gather_tree/gather_tree_rules.h"

#include <inttypes.h>
#include <stdio.h>

static const char *bits_type(size_t elem_size)
{
    switch (elem_size) {
    case 1: return "uchar";
    case 2: return "ushort";
    case 4: return "uint";
    default: return "ulong";
    }
}

/* The OpenCL C type of an integer element (kind 0 signed, 1 unsigned), or for a float (kind 2) the
 * widths of its exponent and fraction: the kernel decodes floats from their bits. */
static const char *value_type(clg_dtype t, int *kind, int *exp_bits, int *mant_bits)
{
    *kind = 0;
    *exp_bits = *mant_bits = 0;
    switch (t) {
    case CLG_I8: return "char";
    case CLG_I16: return "short";
    case CLG_I32: return "int";
    case CLG_I64: return "long";
    case CLG_U8: *kind = 1; return "uchar";
    case CLG_U16: *kind = 1; return "ushort";
    case CLG_U32: *kind = 1; return "uint";
    case CLG_U64: *kind = 1; return "ulong";
    case CLG_F16: *exp_bits = 5, *mant_bits = 10; break;
    case CLG_F32: *exp_bits = 8, *mant_bits = 23; break;
    default: *exp_bits = 11, *mant_bits = 52; break; /* f64 */
    }
    *kind = 2;
    return bits_type(clg_dtype_size(t));
}

/* The work-group size asked for (tree_local_size) sizes the kernel's local array (TREE_MAX_LOCAL_SIZE). */
static void build_options(const clg_context *ctx, const clg_gather_tree_plan *plan, char *buf, size_t size)
{
    int kind = 0, exp_bits = 0, mant_bits = 0;
    const char *value = value_type(plan->type, &kind, &exp_bits, &mant_bits);
    snprintf(buf, size,
             "-DTREE_MAX_LOCAL_SIZE=%u -DBITS_T=%s -DVALUE_KIND=%d -DVALUE_T=%s -DAS_VALUE=as_%s -DEXP_BITS=%d "
             "-DMANT_BITS=%d",
             (unsigned)ctx->tuning.tree_local_size, bits_type(plan->elem_size), kind, value, value, exp_bits,
             mant_bits);
}

/* The failing pair is recorded in 32 bits (CLG_FLAG_NONE_FAILED meaning none): beyond that many
 * pairs the kernel records chunks of 2^shift pairs and the host searches the chunk. */
static unsigned failure_shift(const clg_gather_tree_plan *plan)
{
    const uint64_t pairs = plan->B * plan->W;
    unsigned shift = 0;
    while (((pairs - 1) >> shift) >= CLG_FLAG_NONE_FAILED) ++shift;
    return shift;
}

clg_status clg_gather_tree_enqueue_locate(clg_context *ctx, const void *plan_ptr, cl_command_queue queue,
                                          const clg_buffer *inputs, cl_mem record, cl_uint num_events,
                                          const cl_event *wait_list, cl_event *done)
{
    const clg_gather_tree_plan *plan = plan_ptr;
    char options[256];
    build_options(ctx, plan, options, sizeof options);
    clg_kernel_lease lease;
    clg_status st = clg_borrow_kernel(ctx, &clg_kernel_gather_tree, options, "gather_tree_locate", &lease);
    if (st != CLG_SUCCESS) return st;
    const size_t es = plan->elem_size;
    cl_ulong parent_offset = inputs[1].offset / es, seq_offset = inputs[2].offset / es;
    cl_long T = (cl_long)plan->T;
    cl_ulong B = plan->B, W = plan->W;
    cl_uint shift = (cl_uint)failure_shift(plan);
    cl_int err = clSetKernelArg(lease.kernel, 0, sizeof(cl_mem), &inputs[1].mem);
    err |= clSetKernelArg(lease.kernel, 1, sizeof parent_offset, &parent_offset);
    err |= clSetKernelArg(lease.kernel, 2, sizeof(cl_mem), &inputs[2].mem);
    err |= clSetKernelArg(lease.kernel, 3, sizeof seq_offset, &seq_offset);
    err |= clSetKernelArg(lease.kernel, 4, sizeof T, &T);
    err |= clSetKernelArg(lease.kernel, 5, sizeof B, &B);
    err |= clSetKernelArg(lease.kernel, 6, sizeof W, &W);
    err |= clSetKernelArg(lease.kernel, 7, sizeof shift, &shift);
    err |= clSetKernelArg(lease.kernel, 8, sizeof(cl_mem), &record);
    if (err != CL_SUCCESS) {
        clg_kernel_return(ctx->programs, &lease);
        return clg_fail_cl(CL_INVALID_KERNEL_ARGS, "clSetKernelArg (gather_tree_locate)");
    }
    const uint64_t one = 1;
    const size_t local = 1;
    st = clg_launch(ctx, queue, &lease, "gather_tree_locate", 1, &one, &local, num_events, wait_list, done);
    clg_kernel_return(ctx->programs, &lease);
    return st;
}

clg_status clg_gather_tree_report_failure(const void *plan_ptr, const clg_failure_record *record)
{
    const clg_gather_tree_plan *plan = plan_ptr;
    const uint64_t first = (uint64_t)record->flag << failure_shift(plan);
    const cl_ulong *d = record->details;
    if (d[0] != CLG_TREE_INVALID_SEQ_LEN && d[0] != CLG_TREE_INVALID_PARENT)
        /* the device saw a failure the locate kernel no longer sees: inputs changed under us */
        return clg_fail(CLG_ERR_INVALID_PARENT,
                        "the GatherTree kernel flagged the beams from (batch %" PRIu64 ", beam %" PRIu64
                        ") on, but max_seq_len and parent_ids read back valid (were they written concurrently?)",
                        first / plan->W, first % plan->W);
    /* the value's bits, little-endian, read back as the element type */
    unsigned char bits[8];
    for (int i = 0; i < 8; ++i) bits[i] = (unsigned char)(d[6] >> (8 * i));
    const clg_tree_failure failure = {.kind = (clg_tree_failure_kind)d[0],
                                      .b = d[1],
                                      .t = d[2],
                                      .k = d[3],
                                      .j = d[4],
                                      .L = d[5],
                                      .value = clg_tree_read(bits, plan->type, 0)};
    return clg_gather_tree_failure_status(plan, &failure);
}

static cl_int set_args(cl_kernel k, const clg_gather_tree_plan *plan, const clg_buffer *buffers, cl_uint shift,
                       cl_mem record)
{
    const size_t es = plan->elem_size;
    cl_ulong step_offset = buffers[0].offset / es, parent_offset = buffers[1].offset / es;
    cl_ulong seq_offset = buffers[2].offset / es, end_offset = buffers[3].offset / es;
    cl_ulong out_offset = buffers[4].offset / es;
    cl_long T = (cl_long)plan->T;
    cl_ulong B = plan->B, W = plan->W;
    cl_int err = clSetKernelArg(k, 0, sizeof(cl_mem), &buffers[0].mem);
    err |= clSetKernelArg(k, 1, sizeof step_offset, &step_offset);
    err |= clSetKernelArg(k, 2, sizeof(cl_mem), &buffers[1].mem);
    err |= clSetKernelArg(k, 3, sizeof parent_offset, &parent_offset);
    err |= clSetKernelArg(k, 4, sizeof(cl_mem), &buffers[2].mem);
    err |= clSetKernelArg(k, 5, sizeof seq_offset, &seq_offset);
    err |= clSetKernelArg(k, 6, sizeof(cl_mem), &buffers[3].mem);
    err |= clSetKernelArg(k, 7, sizeof end_offset, &end_offset);
    err |= clSetKernelArg(k, 8, sizeof(cl_mem), &buffers[4].mem);
    err |= clSetKernelArg(k, 9, sizeof out_offset, &out_offset);
    err |= clSetKernelArg(k, 10, sizeof T, &T);
    err |= clSetKernelArg(k, 11, sizeof B, &B);
    err |= clSetKernelArg(k, 12, sizeof W, &W);
    err |= clSetKernelArg(k, 13, sizeof shift, &shift);
    err |= clSetKernelArg(k, 14, sizeof(cl_mem), &record);
    return err;
}

clg_status clg_gather_tree_launch(clg_context *ctx, const void *plan_ptr, cl_command_queue queue,
                                  const clg_buffer *buffers, cl_mem record, cl_uint num_events,
                                  const cl_event *wait_list, cl_event *done)
{
    const clg_gather_tree_plan *plan = plan_ptr;
    char options[256];
    build_options(ctx, plan, options, sizeof options);
    clg_kernel_lease lease;
    const char *name = clg_variant_get(CLG_VARIANT_TREE)->kernel;
    clg_status st = clg_borrow_kernel(ctx, &clg_kernel_gather_tree, options, name, &lease);
    if (st != CLG_SUCCESS) return st;
    if (set_args(lease.kernel, plan, buffers, (cl_uint)failure_shift(plan), record) != CL_SUCCESS) {
        clg_kernel_return(ctx->programs, &lease);
        return clg_fail_cl(CL_INVALID_KERNEL_ARGS, "clSetKernelArg (gather_tree)");
    }
    const uint64_t pairs = plan->B * plan->W;
    const size_t local = ctx->tuning.tree_local_size;
    st = clg_launch(ctx, queue, &lease, name, 1, &pairs, &local, num_events, wait_list, done);
    clg_kernel_return(ctx->programs, &lease);
    if (st == CLG_SUCCESS) CLG_TEST_RECORD_VARIANT(ctx, CLG_VARIANT_TREE);
    return st;
}
