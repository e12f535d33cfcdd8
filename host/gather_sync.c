/* The synchronous host-pointer entry point: copy in, run, copy out. */
#include "context.h"
#include "device_buffers.h"
#include "gather_dispatch.h"
#include "index_check.h"
#include "plan.h"
#include "status.h"
#include "verify.h"

clg_status clg_gather(clg_context *ctx, const clg_gather_desc *desc, const void *data, size_t data_bytes,
                      const void *indices, size_t indices_bytes, void *output, size_t output_bytes)
{
    clg_clear_error();
    if (!ctx) return clg_fail(CLG_ERR_NULL_ARGUMENT, "ctx is NULL");
    clg_gather_plan plan;
    clg_status st = clg_plan_gather(desc, &plan);
    if (st == CLG_SUCCESS)
        st = clg_check_gather_host_buffers(&plan, data, data_bytes, indices, indices_bytes, output, output_bytes);
    if (st != CLG_SUCCESS) return st;
    if (ctx->is_reference) return clg_reference_run(desc, &plan, data, indices, output);
    if (clg_plan_is_empty(&plan)) return CLG_SUCCESS;
    /* the indices are on the host already: check them here rather than with a device round trip */
    if (plan.policy == CLG_OOB_ERROR) {
        st = clg_check_indices_host(desc, &plan, indices, 0, plan.index_elems);
        if (st != CLG_SUCCESS) return st;
    }

    clg_gather_buffers bufs = {0};
    st = clg_create_device_buffer(ctx, "data", data, plan.data_bytes, &bufs.data);
    if (st == CLG_SUCCESS) st = clg_create_device_buffer(ctx, "indices", indices, plan.index_bytes, &bufs.indices);
    if (st == CLG_SUCCESS) st = clg_create_device_buffer(ctx, "output", NULL, plan.out_bytes, &bufs.output);
    cl_event done = NULL;
    if (st == CLG_SUCCESS) st = clg_gather_run_on_queue(ctx, desc, &plan, ctx->queue, &bufs, 1, 0, NULL, &done);
    if (st == CLG_SUCCESS) {
        cl_int err = clEnqueueReadBuffer(ctx->queue, bufs.output, CL_TRUE, 0, plan.out_bytes, output, 1, &done, NULL);
        if (err != CL_SUCCESS) st = clg_fail_cl(err, "clEnqueueReadBuffer (output)");
    }
    if (done) clReleaseEvent(done);
    if (bufs.output) clReleaseMemObject(bufs.output);
    if (bufs.indices) clReleaseMemObject(bufs.indices);
    if (bufs.data) clReleaseMemObject(bufs.data);
    return st;
}
