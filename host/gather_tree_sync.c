/* The synchronous GatherTree entry point over host memory: copy in, run, copy out. */
#include "context.h"
#include "device_buffers.h"
#include "gather_tree_dispatch.h"
#include "gather_tree_plan.h"
#include "gather_tree_reference.h"
#include "gather_tree_verify.h"
#include "status.h"

#include <stdlib.h>
#include <string.h>

/* Run on the device into a library-owned buffer (so no scratch copy is needed: on failure the
 * caller's host output has not been touched) and read the result into host memory. */
static clg_status run_on_device(clg_context *ctx, const clg_gather_tree_plan *plan, const void *step_ids,
                                const void *parent_ids, const void *max_seq_len, const void *end_token, void *result)
{
    clg_gather_tree_inputs in = {0};
    cl_mem out = NULL;
    clg_status st = clg_create_device_buffer(ctx, "step_ids", step_ids, plan->ids_bytes, &in.step_ids);
    if (st == CLG_SUCCESS) st = clg_create_device_buffer(ctx, "parent_ids", parent_ids, plan->ids_bytes, &in.parent_ids);
    if (st == CLG_SUCCESS)
        st = clg_create_device_buffer(ctx, "max_seq_len", max_seq_len, plan->seq_len_bytes, &in.max_seq_len);
    if (st == CLG_SUCCESS)
        st = clg_create_device_buffer(ctx, "end_token", end_token, plan->end_token_bytes, &in.end_token);
    if (st == CLG_SUCCESS) st = clg_create_device_buffer(ctx, "output", NULL, plan->ids_bytes, &out);
    cl_event done = NULL;
    if (st == CLG_SUCCESS) st = clg_dispatch_gather_tree(ctx, plan, ctx->queue, &in, out, 0, NULL, &done);
    if (st == CLG_SUCCESS) {
        cl_int err = clEnqueueReadBuffer(ctx->queue, out, CL_TRUE, 0, plan->ids_bytes, result, 1, &done, NULL);
        if (err != CL_SUCCESS) st = clg_fail_cl(err, "clEnqueueReadBuffer (GatherTree output)");
    }
    if (done) clReleaseEvent(done);
    if (out) clReleaseMemObject(out);
    if (in.end_token) clReleaseMemObject(in.end_token);
    if (in.max_seq_len) clReleaseMemObject(in.max_seq_len);
    if (in.parent_ids) clReleaseMemObject(in.parent_ids);
    if (in.step_ids) clReleaseMemObject(in.step_ids);
    return st;
}

clg_status clg_gather_tree(clg_context *ctx, const clg_gather_tree_desc *desc, const void *step_ids,
                           size_t step_ids_bytes, const void *parent_ids, size_t parent_ids_bytes,
                           const void *max_seq_len, size_t max_seq_len_bytes, const void *end_token,
                           size_t end_token_bytes, void *output, size_t output_bytes)
{
    clg_clear_error();
    if (!ctx) return clg_fail(CLG_ERR_NULL_ARGUMENT, "ctx is NULL");
    clg_gather_tree_plan plan;
    clg_status st = clg_plan_gather_tree(desc, &plan);
    if (st == CLG_SUCCESS)
        st = clg_check_gather_tree_host_buffers(&plan, step_ids, step_ids_bytes, parent_ids, parent_ids_bytes,
                                                max_seq_len, max_seq_len_bytes, end_token, end_token_bytes, output,
                                                output_bytes);
    if (st != CLG_SUCCESS) return st;
    if (ctx->is_reference)
        return clg_gather_tree_reference_run(&plan, step_ids, parent_ids, max_seq_len, end_token, output);
    st = clg_gather_tree_device_supports(ctx, &plan);
    if (st != CLG_SUCCESS || clg_gather_tree_plan_is_empty(&plan)) return st;

    if (!clg_context_verifies(ctx))
        return run_on_device(ctx, &plan, step_ids, parent_ids, max_seq_len, end_token, output);
    /* verify mode: the output is written only once the device result matches the reference */
    void *result = malloc(plan.ids_bytes);
    if (!result) return clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "verify: cannot allocate a host copy of the output");
    st = run_on_device(ctx, &plan, step_ids, parent_ids, max_seq_len, end_token, result);
    if (st == CLG_SUCCESS) st = clg_verify_gather_tree(&plan, step_ids, parent_ids, max_seq_len, end_token, result);
    if (st == CLG_SUCCESS) memcpy(output, result, plan.ids_bytes);
    free(result);
    return st;
}
