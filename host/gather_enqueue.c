/* The asynchronous entry point on the caller's queue and buffers. */
#include "cl_buffer_check.h"
#include "context.h"
#include "device_buffers.h"
#include "gather_dispatch.h"
#include "plan.h"
#include "status.h"
#include "verify.h"

#include <stdlib.h>

/* Verify mode: wait for the result, read inputs and output back, compare with the reference. */
static clg_status verify_on_host(const clg_context *ctx, const clg_gather_desc *desc, const clg_gather_plan *plan, cl_command_queue queue,
                                 const clg_gather_buffers *bufs, cl_event done)
{
    void *data = malloc(plan->data_bytes ? plan->data_bytes : 1);
    void *indices = malloc(plan->index_bytes ? plan->index_bytes : 1);
    void *output = malloc(plan->out_bytes ? plan->out_bytes : 1);
    clg_status st = CLG_SUCCESS;
    if (!data || !indices || !output) st = clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "verify: cannot allocate host copies");
    /* blocking reads: a failure part-way must not leave a pending read into memory freed below */
    cl_int err = CL_SUCCESS;
    if (st == CLG_SUCCESS && plan->data_bytes)
        err = clEnqueueReadBuffer(queue, bufs->data, CL_TRUE, bufs->data_offset, plan->data_bytes, data, 1, &done, NULL);
    if (st == CLG_SUCCESS && err == CL_SUCCESS && plan->index_bytes)
        err = clEnqueueReadBuffer(queue, bufs->indices, CL_TRUE, bufs->indices_offset, plan->index_bytes, indices, 1,
                                  &done, NULL);
    if (st == CLG_SUCCESS && err == CL_SUCCESS)
        err = clEnqueueReadBuffer(queue, bufs->output, CL_TRUE, bufs->output_offset, plan->out_bytes, output, 1, &done,
                                  NULL);
    if (st == CLG_SUCCESS && err != CL_SUCCESS) st = clg_fail_cl(err, "verify: reading buffers back");
    if (st == CLG_SUCCESS && ctx->corrupt_verify_readback) ((unsigned char *)output)[plan->out_bytes - 1] ^= 1;
    if (st == CLG_SUCCESS) st = clg_verify_gather(desc, plan, data, indices, output);
    free(data);
    free(indices);
    free(output);
    return st;
}

/* Gather into bufs (or, in verify mode, into a scratch buffer that is verified and then copied to
 * bufs->output, so that a failed verification leaves the caller's output untouched). */
static clg_status gather_checked(clg_context *ctx, const clg_gather_desc *desc, const clg_gather_plan *plan,
                                 cl_command_queue queue, const clg_gather_buffers *bufs, int indices_checked,
                                 cl_uint num_events, const cl_event *wait_list, cl_event *done)
{
    if (plan->policy == CLG_OOB_ERROR && !indices_checked) {
        cl_event checked = NULL;
        clg_status st = clg_dispatch_index_check(ctx, desc, plan, queue, bufs, num_events, wait_list, &checked);
        if (st != CLG_SUCCESS) return st;
        st = clg_dispatch_gather(ctx, plan, queue, bufs, 1, &checked, done);
        clReleaseEvent(checked);
        return st;
    }
    return clg_dispatch_gather(ctx, plan, queue, bufs, num_events, wait_list, done);
}

clg_status clg_gather_run_on_queue(clg_context *ctx, const clg_gather_desc *desc, const clg_gather_plan *plan,
                                   cl_command_queue queue, const clg_gather_buffers *bufs, int indices_checked,
                                   cl_uint num_events, const cl_event *wait_list, cl_event *out_event)
{
    cl_event done = NULL;
    if (clg_plan_is_empty(plan)) {
        cl_int err = clEnqueueMarkerWithWaitList(queue, num_events, wait_list, &done);
        if (err != CL_SUCCESS) return clg_fail_cl(err, "clEnqueueMarkerWithWaitList");
        if (out_event)
            *out_event = done;
        else
            clReleaseEvent(done);
        return CLG_SUCCESS;
    }
    if (!clg_context_verifies(ctx)) {
        clg_status st = gather_checked(ctx, desc, plan, queue, bufs, indices_checked, num_events, wait_list, &done);
        if (st == CLG_SUCCESS && out_event)
            *out_event = done;
        else if (done)
            clReleaseEvent(done);
        return st;
    }
    /* verify mode: the scratch keeps the output offset modulo 16, so the same specialization runs */
    clg_gather_buffers scratch = *bufs;
    scratch.output_offset = bufs->output_offset % 16;
    clg_status st = clg_create_device_buffer(ctx, "verify scratch", NULL, plan->out_bytes + scratch.output_offset,
                                             &scratch.output);
    if (st == CLG_SUCCESS)
        st = gather_checked(ctx, desc, plan, queue, &scratch, indices_checked, num_events, wait_list, &done);
    if (st == CLG_SUCCESS) st = verify_on_host(ctx, desc, plan, queue, &scratch, done);
    cl_event copied = NULL;
    if (st == CLG_SUCCESS) {
        cl_int err = clEnqueueCopyBuffer(queue, scratch.output, bufs->output, scratch.output_offset, bufs->output_offset,
                                         plan->out_bytes, 1, &done, &copied);
        if (err != CL_SUCCESS) st = clg_fail_cl(err, "clEnqueueCopyBuffer (verified result)");
    }
    if (done) clReleaseEvent(done);
    if (scratch.output) clReleaseMemObject(scratch.output);
    if (st == CLG_SUCCESS && out_event)
        *out_event = copied;
    else if (copied)
        clReleaseEvent(copied);
    return st;
}

clg_status clg_gather_enqueue(clg_context *ctx, const clg_gather_desc *desc, cl_command_queue queue, cl_mem data,
                              size_t data_offset, cl_mem indices, size_t indices_offset, cl_mem output,
                              size_t output_offset, cl_uint num_events, const cl_event *wait_list, cl_event *out_event)
{
    clg_clear_error();
    if (!ctx) return clg_fail(CLG_ERR_NULL_ARGUMENT, "ctx is NULL");
    if (ctx->is_reference)
        return clg_fail(CLG_ERR_NO_OPENCL, "ctx is the CPU reference: clg_gather_enqueue needs an OpenCL device");
    if (!queue) return clg_fail(CLG_ERR_NULL_ARGUMENT, "queue is NULL");
    if (num_events > 0 && !wait_list)
        return clg_fail(CLG_ERR_NULL_ARGUMENT, "wait_list is NULL but num_events is %u", (unsigned)num_events);
    clg_gather_plan plan;
    clg_status st = clg_plan_gather(desc, &plan);
    if (st != CLG_SUCCESS) return st;
    if (indices_offset % plan.index_size != 0)
        return clg_fail(CLG_ERR_MISALIGNED_OFFSET, "indices_offset = %zu is not a multiple of the %s size %zu",
                        indices_offset, clg_dtype_name(plan.index_type), plan.index_size);
    if (!clg_plan_is_empty(&plan)) {
        st = clg_check_cl_buffer("data", data, data_offset, plan.data_bytes);
        if (st == CLG_SUCCESS) st = clg_check_cl_buffer("indices", indices, indices_offset, plan.index_bytes);
        if (st == CLG_SUCCESS) st = clg_check_cl_buffer("output", output, output_offset, plan.out_bytes);
        if (st != CLG_SUCCESS) return st;
    }
    clg_gather_buffers bufs = {data, data_offset, indices, indices_offset, output, output_offset};
    return clg_gather_run_on_queue(ctx, desc, &plan, queue, &bufs, 0, num_events, wait_list, out_event);
}
