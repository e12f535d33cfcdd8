/* The dequantizing gather's public entry points: plan, then the runner (core/run.h). */
#include "core/run.h"
#include "core/status.h"
#include "ops/gather_quantized/gather_quantized_launch.h"
#include "ops/gather_quantized/gather_quantized_plan.h"
#include "ops/gather_quantized/gather_quantized_reference.h"

enum { INPUT_DATA, INPUT_INDICES, INPUT_SCALES, INPUT_ZERO_POINTS, INPUT_COUNT };

/* The error policy, through the shared index check (core/index_check.h) on the indices. */
static clg_status host_check(const void *plan_ptr, const void *const *inputs)
{
    const clg_gather_quantized_plan *plan = plan_ptr;
    return clg_index_check_host(&plan->bound, inputs[INPUT_INDICES], 0, plan->index_elems);
}

static clg_status check(clg_context *ctx, const void *plan, cl_command_queue queue, const clg_buffer *inputs,
                        cl_mem record, cl_uint num_events, const cl_event *wait_list, cl_event *done)
{
    const clg_gather_quantized_plan *p = plan;
    return clg_index_check_enqueue(ctx, &p->bound, queue, &inputs[INPUT_INDICES], record, num_events, wait_list, done);
}

static clg_status locate(clg_context *ctx, const void *plan, cl_command_queue queue, const clg_buffer *inputs,
                         cl_mem record, cl_uint num_events, const cl_event *wait_list, cl_event *done)
{
    const clg_gather_quantized_plan *p = plan;
    return clg_index_locate_enqueue(ctx, &p->bound, queue, &inputs[INPUT_INDICES], record, num_events, wait_list, done);
}

static clg_status report(const void *plan, const clg_failure_record *record)
{
    return clg_index_check_report(&((const clg_gather_quantized_plan *)plan)->bound, record);
}

static const clg_operation gather_quantized_operation = {
    .plan_size = sizeof(clg_gather_quantized_plan),
    .scratch_buffer_name = "verify scratch",
    .device_supports = NULL,
    .reference = clg_gather_quantized_reference_run,
    .host_check = host_check,
    .check = check,
    .locate = locate,
    .report = report,
    .launch = clg_gather_quantized_launch,
};

/* Plan desc and describe it to the runner. */
static clg_status plan_run(const clg_gather_quantized_desc *desc, clg_gather_quantized_plan *plan, clg_run_plan *run)
{
    clg_status st = clg_gather_quantized_plan_make(desc, plan);
    if (st != CLG_SUCCESS) return st;
    *run = (clg_run_plan){
        .op = &gather_quantized_operation,
        .plan = plan,
        .input_count = INPUT_COUNT,
        .operands = {{"data", plan->data_bytes, CLG_DTYPE_INVALID},
                     {"indices", plan->index_bytes, plan->index_type},
                     {"scales", plan->scale_bytes, plan->scale_bytes ? plan->scale_type : CLG_DTYPE_INVALID},
                     {"zero_points", plan->zp_bytes, CLG_DTYPE_INVALID},
                     {"output", plan->out_bytes, plan->out_type}},
        .out_elems = plan->out_elems,
        .out_elem_size = plan->out_size,
        .out_rank = plan->out_rank,
        .out_shape = plan->out_shape,
        .flag_mode = plan->policy == CLG_OOB_ERROR ? CLG_FLAG_CHECK_KERNEL : CLG_FLAG_NO_CHECK,
        /* the kernels store whole output elements: a scratch keeps the output's alignment to one */
        .scratch_offset_modulus = plan->out_size,
    };
    return CLG_SUCCESS;
}

clg_status clg_gather_quantized_enqueue(clg_context *ctx, const clg_gather_quantized_desc *desc, cl_command_queue queue,
                                        cl_mem data, size_t data_offset, cl_mem indices, size_t indices_offset,
                                        cl_mem scales, size_t scales_offset, cl_mem zero_points,
                                        size_t zero_points_offset, cl_mem output, size_t output_offset,
                                        cl_uint num_events, const cl_event *wait_list, cl_event *out_event)
{
    clg_clear_error();
    clg_status st = clg_run_check_enqueue_call(ctx, "clg_gather_quantized_enqueue", queue, num_events, wait_list);
    clg_gather_quantized_plan plan;
    clg_run_plan run;
    if (st == CLG_SUCCESS) st = plan_run(desc, &plan, &run);
    if (st != CLG_SUCCESS) return st;
    const clg_buffer buffers[] = {{data, data_offset},
                                  {indices, indices_offset},
                                  {scales, scales_offset},
                                  {zero_points, zero_points_offset},
                                  {output, output_offset}};
    return clg_run_enqueue(ctx, &run, queue, buffers, num_events, wait_list, out_event);
}

/* The host-memory calls: on ctx's device (or its CPU reference), or with ctx NULL the CPU reference. */
static clg_status run_on_host(clg_context *ctx, const clg_gather_quantized_desc *desc, const clg_host_buffer *host)
{
    clg_gather_quantized_plan plan;
    clg_run_plan run;
    clg_status st = plan_run(desc, &plan, &run);
    if (st != CLG_SUCCESS) return st;
    return ctx ? clg_run_sync(ctx, &run, host) : clg_run_reference(&run, host);
}

clg_status clg_gather_quantized(clg_context *ctx, const clg_gather_quantized_desc *desc, const void *data,
                                size_t data_bytes, const void *indices, size_t indices_bytes, const void *scales,
                                size_t scales_bytes, const void *zero_points, size_t zero_points_bytes, void *output,
                                size_t output_bytes)
{
    clg_clear_error();
    if (!ctx) return clg_fail(CLG_ERR_NULL_ARGUMENT, "ctx is NULL");
    const clg_host_buffer host[] = {{data, data_bytes},
                                    {indices, indices_bytes},
                                    {scales, scales_bytes},
                                    {zero_points, zero_points_bytes},
                                    {output, output_bytes}};
    return run_on_host(ctx, desc, host);
}

clg_status clg_gather_quantized_reference(const clg_gather_quantized_desc *desc, const void *data, size_t data_bytes,
                                          const void *indices, size_t indices_bytes, const void *scales,
                                          size_t scales_bytes, const void *zero_points, size_t zero_points_bytes,
                                          void *output, size_t output_bytes)
{
    clg_clear_error();
    const clg_host_buffer host[] = {{data, data_bytes},
                                    {indices, indices_bytes},
                                    {scales, scales_bytes},
                                    {zero_points, zero_points_bytes},
                                    {output, output_bytes}};
    return run_on_host(NULL, desc, host);
}
