/* The asynchronous GatherTree entry point on the caller's queue and buffers. */
#include "cl_buffer_check.h"
#include "context.h"
#include "device_buffers.h"
#include "gather_tree_dispatch.h"
#include "gather_tree_plan.h"
#include "gather_tree_verify.h"
#include "status.h"

#include <stdlib.h>

/* Verify mode: wait for the backtrack, read the inputs and its scratch result back, compare with the
 * reference. Blocking reads: a failure part-way must not leave a pending read into memory freed below. */
static clg_status verify_on_host(const clg_gather_tree_plan *plan, cl_command_queue queue,
                                 const clg_gather_tree_inputs *in, cl_mem result, cl_event done)
{
    const size_t es = plan->elem_size;
    void *step = malloc(plan->ids_bytes), *parent = malloc(plan->ids_bytes), *out = malloc(plan->ids_bytes);
    void *seq = malloc(plan->seq_len_bytes), *end = malloc(es);
    clg_status st = CLG_SUCCESS;
    if (!step || !parent || !out || !seq || !end) st = clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "verify: cannot allocate host copies");
    cl_int err = CL_SUCCESS;
    if (st == CLG_SUCCESS)
        err = clEnqueueReadBuffer(queue, in->step_ids, CL_TRUE, in->step_ids_offset, plan->ids_bytes, step, 1, &done, NULL);
    if (st == CLG_SUCCESS && err == CL_SUCCESS)
        err = clEnqueueReadBuffer(queue, in->parent_ids, CL_TRUE, in->parent_ids_offset, plan->ids_bytes, parent, 1,
                                  &done, NULL);
    if (st == CLG_SUCCESS && err == CL_SUCCESS)
        err = clEnqueueReadBuffer(queue, in->max_seq_len, CL_TRUE, in->max_seq_len_offset, plan->seq_len_bytes, seq, 1,
                                  &done, NULL);
    if (st == CLG_SUCCESS && err == CL_SUCCESS)
        err = clEnqueueReadBuffer(queue, in->end_token, CL_TRUE, in->end_token_offset, es, end, 1, &done, NULL);
    if (st == CLG_SUCCESS && err == CL_SUCCESS)
        err = clEnqueueReadBuffer(queue, result, CL_TRUE, 0, plan->ids_bytes, out, 1, &done, NULL);
    if (st == CLG_SUCCESS && err != CL_SUCCESS) st = clg_fail_cl(err, "verify: reading GatherTree buffers back");
    if (st == CLG_SUCCESS) st = clg_verify_gather_tree(plan, step, parent, seq, end, out);
    free(step);
    free(parent);
    free(out);
    free(seq);
    free(end);
    return st;
}

static clg_status check_offsets(const clg_gather_tree_plan *plan, const clg_gather_tree_inputs *in)
{
    const char *names[] = {"step_ids_offset", "parent_ids_offset", "max_seq_len_offset", "end_token_offset"};
    const size_t offsets[] = {in->step_ids_offset, in->parent_ids_offset, in->max_seq_len_offset, in->end_token_offset};
    for (int i = 0; i < 4; ++i)
        if (offsets[i] % plan->elem_size != 0)
            return clg_fail(CLG_ERR_MISALIGNED_OFFSET, "%s = %zu is not a multiple of the %s size %zu", names[i],
                            offsets[i], clg_dtype_name(plan->type), plan->elem_size);
    return CLG_SUCCESS;
}

static clg_status check_buffers(const clg_gather_tree_plan *plan, const clg_gather_tree_inputs *in, cl_mem output,
                                size_t output_offset)
{
    clg_status st = clg_check_cl_buffer("step_ids", in->step_ids, in->step_ids_offset, plan->ids_bytes);
    if (st == CLG_SUCCESS) st = clg_check_cl_buffer("parent_ids", in->parent_ids, in->parent_ids_offset, plan->ids_bytes);
    if (st == CLG_SUCCESS)
        st = clg_check_cl_buffer("max_seq_len", in->max_seq_len, in->max_seq_len_offset, plan->seq_len_bytes);
    if (st == CLG_SUCCESS)
        st = clg_check_cl_buffer("end_token", in->end_token, in->end_token_offset, plan->end_token_bytes);
    if (st == CLG_SUCCESS) st = clg_check_cl_buffer("output", output, output_offset, plan->ids_bytes);
    return st;
}

/* Backtrack into a scratch buffer, and copy into the output only once every followed parent id is
 * known to be valid (and, in verify mode, the result matches the reference), so that a failing call
 * leaves the caller's output untouched. */
static clg_status run_into_output(clg_context *ctx, const clg_gather_tree_plan *plan, cl_command_queue queue,
                                  const clg_gather_tree_inputs *in, cl_mem output, size_t output_offset,
                                  cl_uint num_events, const cl_event *wait_list, cl_event *done)
{
    cl_mem scratch = NULL;
    clg_status st = clg_create_device_buffer(ctx, "GatherTree scratch output", NULL, plan->ids_bytes, &scratch);
    if (st != CLG_SUCCESS) return st;
    cl_event backtracked = NULL;
    st = clg_dispatch_gather_tree(ctx, plan, queue, in, scratch, num_events, wait_list, &backtracked);
    if (st == CLG_SUCCESS && clg_context_verifies(ctx)) st = verify_on_host(plan, queue, in, scratch, backtracked);
    if (st == CLG_SUCCESS) {
        cl_int err = clEnqueueCopyBuffer(queue, scratch, output, 0, output_offset, plan->ids_bytes, 1, &backtracked, done);
        if (err != CL_SUCCESS) st = clg_fail_cl(err, "clEnqueueCopyBuffer (GatherTree result into output)");
    }
    if (backtracked) clReleaseEvent(backtracked);
    /* OpenCL keeps the scratch alive until the copy that reads it has completed */
    clReleaseMemObject(scratch);
    return st;
}

clg_status clg_gather_tree_enqueue(clg_context *ctx, const clg_gather_tree_desc *desc, cl_command_queue queue,
                                   cl_mem step_ids, size_t step_ids_offset, cl_mem parent_ids, size_t parent_ids_offset,
                                   cl_mem max_seq_len, size_t max_seq_len_offset, cl_mem end_token,
                                   size_t end_token_offset, cl_mem output, size_t output_offset, cl_uint num_events,
                                   const cl_event *wait_list, cl_event *out_event)
{
    clg_clear_error();
    if (!ctx) return clg_fail(CLG_ERR_NULL_ARGUMENT, "ctx is NULL");
    if (ctx->is_reference)
        return clg_fail(CLG_ERR_NO_OPENCL, "ctx is the CPU reference: clg_gather_tree_enqueue needs an OpenCL device");
    if (!queue) return clg_fail(CLG_ERR_NULL_ARGUMENT, "queue is NULL");
    if (num_events > 0 && !wait_list)
        return clg_fail(CLG_ERR_NULL_ARGUMENT, "wait_list is NULL but num_events is %u", (unsigned)num_events);
    clg_gather_tree_plan plan;
    clg_status st = clg_plan_gather_tree(desc, &plan);
    if (st != CLG_SUCCESS) return st;
    const clg_gather_tree_inputs in = {step_ids,    step_ids_offset,    parent_ids, parent_ids_offset,
                                       max_seq_len, max_seq_len_offset, end_token,  end_token_offset};
    /* the output is written by a byte copy, so its offset may be any byte offset */
    st = check_offsets(&plan, &in);
    if (st == CLG_SUCCESS) st = clg_gather_tree_device_supports(ctx, &plan);
    if (st != CLG_SUCCESS) return st;

    cl_event done = NULL;
    if (clg_gather_tree_plan_is_empty(&plan)) {
        cl_int err = clEnqueueMarkerWithWaitList(queue, num_events, wait_list, &done);
        if (err != CL_SUCCESS) return clg_fail_cl(err, "clEnqueueMarkerWithWaitList");
    } else {
        st = check_buffers(&plan, &in, output, output_offset);
        if (st == CLG_SUCCESS)
            st = run_into_output(ctx, &plan, queue, &in, output, output_offset, num_events, wait_list, &done);
    }
    if (st == CLG_SUCCESS && out_event)
        *out_event = done;
    else if (done)
        clReleaseEvent(done);
    return st;
}
