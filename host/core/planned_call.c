#include "core/planned_call.h"

#include "core/status.h"

#include <string.h>

clg_status clg_planned_enqueue(clg_context *ctx, const char *entry, clg_plan_fn plan_fn, const void *desc, void *plan,
                               cl_command_queue queue, const clg_buffer *buffers, cl_uint num_events,
                               const cl_event *wait_list, cl_event *out_event)
{
    clg_clear_error();
    clg_run_plan run;
    clg_status st = clg_run_check_enqueue_call(ctx, entry, queue, num_events, wait_list);
    if (st == CLG_SUCCESS) st = plan_fn(desc, plan, &run);
    return st == CLG_SUCCESS ? clg_run_enqueue(ctx, &run, queue, buffers, num_events, wait_list, out_event) : st;
}

clg_status clg_planned_sync(clg_context *ctx, clg_plan_fn plan_fn, const void *desc, void *plan,
                            const clg_host_buffer *host)
{
    clg_clear_error();
    if (!ctx) return clg_fail(CLG_ERR_NULL_ARGUMENT, "ctx is NULL");
    clg_run_plan run;
    clg_status st = plan_fn(desc, plan, &run);
    return st == CLG_SUCCESS ? clg_run_sync(ctx, &run, host) : st;
}

clg_status clg_planned_reference(clg_plan_fn plan_fn, const void *desc, void *plan, const clg_host_buffer *host)
{
    clg_clear_error();
    clg_run_plan run;
    clg_status st = plan_fn(desc, plan, &run);
    return st == CLG_SUCCESS ? clg_run_reference(&run, host) : st;
}

clg_status clg_planned_output_shape(clg_plan_fn plan_fn, const void *desc, void *plan, int32_t *out_rank,
                                    int64_t *out_shape)
{
    clg_clear_error();
    if (!out_rank || !out_shape) return clg_fail(CLG_ERR_NULL_ARGUMENT, "out_rank or out_shape is NULL");
    clg_run_plan run;
    clg_status st = plan_fn(desc, plan, &run);
    if (st != CLG_SUCCESS) return st;
    *out_rank = run.out_rank;
    memset(out_shape, 0, CLG_MAX_OUTPUT_RANK * sizeof *out_shape);
    memcpy(out_shape, run.out_shape, (size_t)run.out_rank * sizeof *out_shape);
    return CLG_SUCCESS;
}

clg_status clg_planned_sizes(clg_plan_fn plan_fn, const void *desc, void *plan, uint64_t *const *input_bytes,
                             uint64_t *output_bytes)
{
    clg_clear_error();
    clg_run_plan run;
    clg_status st = plan_fn(desc, plan, &run);
    if (st != CLG_SUCCESS) return st;
    for (int i = 0; i < run.input_count; ++i)
        if (input_bytes[i]) *input_bytes[i] = run.operands[i].bytes;
    if (output_bytes) *output_bytes = run.operands[run.input_count].bytes;
    return CLG_SUCCESS;
}
