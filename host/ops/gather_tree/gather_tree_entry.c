/* GatherTree's public entry points: plan, then the runner (core/run.h). */
#include "core/run.h"
#include "core/status.h"
#include "ops/gather_tree/gather_tree_launch.h"
#include "ops/gather_tree/gather_tree_plan.h"
#include "ops/gather_tree/gather_tree_reference.h"

static const clg_operation gather_tree_operation = {
    .plan_size = sizeof(clg_gather_tree_plan),
    .scratch_buffer_name = "GatherTree scratch output",
    .device_supports = NULL, /* floats are decoded from their bits: no extension needed */
    .reference = clg_gather_tree_reference_run,
    .host_check = NULL,
    .check = NULL,
    .locate = clg_gather_tree_enqueue_locate,
    .report = clg_gather_tree_report_failure,
    .launch = clg_gather_tree_launch,
};

/* Plan desc and describe it to the runner. */
static clg_status plan_run(const clg_gather_tree_desc *desc, clg_gather_tree_plan *plan, clg_run_plan *run)
{
    clg_status st = clg_gather_tree_plan_make(desc, plan);
    if (st != CLG_SUCCESS) return st;
    *run = (clg_run_plan){
        .op = &gather_tree_operation,
        .plan = plan,
        .input_count = 4,
        .operands = {{"step_ids", plan->ids_bytes, plan->type},
                     {"parent_ids", plan->ids_bytes, plan->type},
                     {"max_seq_len", plan->seq_len_bytes, plan->type},
                     {"end_token", plan->end_token_bytes, plan->type},
                     /* written by a byte copy out of the scratch: any byte offset */
                     {"output", plan->ids_bytes, CLG_DTYPE_INVALID}},
        .out_elems = plan->elems,
        .out_elem_size = plan->elem_size,
        .out_rank = 3,
        .out_shape = plan->shape,
        /* the backtrack finds invalid parent ids as it walks them */
        .flag_mode = CLG_FLAG_INLINE,
        .scratch_offset_modulus = 1,
    };
    return CLG_SUCCESS;
}

clg_status clg_gather_tree_enqueue(clg_context *ctx, const clg_gather_tree_desc *desc, cl_command_queue queue,
                                   cl_mem step_ids, size_t step_ids_offset, cl_mem parent_ids, size_t parent_ids_offset,
                                   cl_mem max_seq_len, size_t max_seq_len_offset, cl_mem end_token,
                                   size_t end_token_offset, cl_mem output, size_t output_offset, cl_uint num_events,
                                   const cl_event *wait_list, cl_event *out_event)
{
    clg_clear_error();
    clg_status st = clg_run_check_enqueue_call(ctx, "clg_gather_tree_enqueue", queue, num_events, wait_list);
    clg_gather_tree_plan plan;
    clg_run_plan run;
    if (st == CLG_SUCCESS) st = plan_run(desc, &plan, &run);
    if (st != CLG_SUCCESS) return st;
    const clg_buffer buffers[] = {{step_ids, step_ids_offset},
                                  {parent_ids, parent_ids_offset},
                                  {max_seq_len, max_seq_len_offset},
                                  {end_token, end_token_offset},
                                  {output, output_offset}};
    return clg_run_enqueue(ctx, &run, queue, buffers, num_events, wait_list, out_event);
}

/* The host-memory calls: on ctx's device (or its CPU reference), or with ctx NULL the CPU reference. */
static clg_status run_on_host(clg_context *ctx, const clg_gather_tree_desc *desc, const clg_host_buffer *host)
{
    clg_gather_tree_plan plan;
    clg_run_plan run;
    clg_status st = plan_run(desc, &plan, &run);
    if (st != CLG_SUCCESS) return st;
    return ctx ? clg_run_sync(ctx, &run, host) : clg_run_reference(&run, host);
}

clg_status clg_gather_tree(clg_context *ctx, const clg_gather_tree_desc *desc, const void *step_ids,
                           size_t step_ids_bytes, const void *parent_ids, size_t parent_ids_bytes,
                           const void *max_seq_len, size_t max_seq_len_bytes, const void *end_token,
                           size_t end_token_bytes, void *output, size_t output_bytes)
{
    clg_clear_error();
    if (!ctx) return clg_fail(CLG_ERR_NULL_ARGUMENT, "ctx is NULL");
    const clg_host_buffer host[] = {{step_ids, step_ids_bytes},
                                    {parent_ids, parent_ids_bytes},
                                    {max_seq_len, max_seq_len_bytes},
                                    {end_token, end_token_bytes},
                                    {output, output_bytes}};
    return run_on_host(ctx, desc, host);
}

clg_status clg_gather_tree_reference(const clg_gather_tree_desc *desc, const void *step_ids, size_t step_ids_bytes,
                                     const void *parent_ids, size_t parent_ids_bytes, const void *max_seq_len,
                                     size_t max_seq_len_bytes, const void *end_token, size_t end_token_bytes,
                                     void *output, size_t output_bytes)
{
    clg_clear_error();
    const clg_host_buffer host[] = {{step_ids, step_ids_bytes},
                                    {parent_ids, parent_ids_bytes},
                                    {max_seq_len, max_seq_len_bytes},
                                    {end_token, end_token_bytes},
                                    {output, output_bytes}};
    return run_on_host(NULL, desc, host);
}
