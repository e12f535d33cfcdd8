/* EmbeddingBag's public entry points: plan, then the runner (core/run.h). */
#include "core/planned_call.h"
#include "core/status.h"
#include "ops/embedding_bag/embedding_bag_check.h"
#include "ops/embedding_bag/embedding_bag_launch.h"
#include "ops/embedding_bag/embedding_bag_reference.h"

enum { INPUT_TABLE, INPUT_INDICES, INPUT_BAGS, INPUT_WEIGHTS, INPUT_COUNT };

static const clg_operation embedding_bag_operation = {
    .plan_size = sizeof(clg_embedding_bag_plan),
    .scratch_buffer_name = "verify scratch",
    .device_supports = clg_embedding_bag_device_supports,
    .reference = clg_embedding_bag_reference_run,
    .host_check = clg_embedding_bag_host_check,
    .check = clg_embedding_bag_check_enqueue,
    .locate = clg_embedding_bag_locate_enqueue,
    .report = clg_embedding_bag_report,
    .launch = clg_embedding_bag_launch,
};

/* Plan desc and describe it to the runner. */
static clg_status plan_run(const void *desc, void *plan_ptr, clg_run_plan *run)
{
    clg_embedding_bag_plan *plan = plan_ptr;
    clg_status st = clg_embedding_bag_plan_make(desc, plan);
    if (st != CLG_SUCCESS) return st;
    const clg_dtype table = plan->table_type;
    *run = (clg_run_plan){
        .op = &embedding_bag_operation,
        .plan = plan,
        .input_count = INPUT_COUNT,
        .operands = {{"table", plan->table_bytes, table},
                     {"indices", plan->index_bytes, plan->index_type},
                     {plan->form == CLG_BAG_SEGMENTS ? "segment_ids" : "offsets", plan->bags_bytes,
                      plan->bags_bytes ? plan->bags_type : CLG_DTYPE_INVALID},
                     {"per_sample_weights", plan->weights_bytes, plan->weights_bytes ? table : CLG_DTYPE_INVALID},
                     {"output", plan->out_bytes, table}},
        .out_elems = plan->out_elems,
        .out_elem_size = plan->table_size,
        .out_rank = plan->out_rank,
        .out_shape = plan->out_shape,
        .flag_mode = CLG_FLAG_CHECK_KERNEL,
        .scratch_offset_modulus = plan->table_size,
    };
    return CLG_SUCCESS;
}

clg_status clg_embedding_bag_output_shape(const clg_embedding_bag_desc *desc, int32_t *out_rank,
                                          int64_t out_shape[CLG_MAX_OUTPUT_RANK])
{
    clg_embedding_bag_plan plan;
    return clg_planned_output_shape(plan_run, desc, &plan, out_rank, out_shape);
}

clg_status clg_embedding_bag_sizes(const clg_embedding_bag_desc *desc, uint64_t *table_bytes, uint64_t *indices_bytes,
                                   uint64_t *bags_bytes, uint64_t *weights_bytes, uint64_t *output_bytes)
{
    clg_embedding_bag_plan plan;
    uint64_t *const inputs[] = {table_bytes, indices_bytes, bags_bytes, weights_bytes};
    return clg_planned_sizes(plan_run, desc, &plan, inputs, output_bytes);
}

clg_status clg_embedding_bag_enqueue(clg_context *ctx, const clg_embedding_bag_desc *desc, cl_command_queue queue,
                                     cl_mem table, size_t table_offset, cl_mem indices, size_t indices_offset,
                                     cl_mem bags, size_t bags_offset, cl_mem weights, size_t weights_offset,
                                     cl_mem output, size_t output_offset, cl_uint num_events, const cl_event *wait_list,
                                     cl_event *out_event)
{
    clg_embedding_bag_plan plan;
    const clg_buffer buffers[] = {{table, table_offset},
                                  {indices, indices_offset},
                                  {bags, bags_offset},
                                  {weights, weights_offset},
                                  {output, output_offset}};
    return clg_planned_enqueue(ctx, "clg_embedding_bag_enqueue", plan_run, desc, &plan, queue, buffers, num_events,
                               wait_list, out_event);
}

/* The host-memory calls: on ctx's device (or its CPU reference), or with ctx NULL the CPU reference. */
static clg_status run_on_host(clg_context *ctx, const clg_embedding_bag_desc *desc, const void *table,
                              size_t table_bytes, const void *indices, size_t indices_bytes, const void *bags,
                              size_t bags_bytes, const void *weights, size_t weights_bytes, void *output,
                              size_t output_bytes)
{
    clg_embedding_bag_plan plan;
    const clg_host_buffer host[] = {{table, table_bytes},
                                    {indices, indices_bytes},
                                    {bags, bags_bytes},
                                    {weights, weights_bytes},
                                    {output, output_bytes}};
    return ctx ? clg_planned_sync(ctx, plan_run, desc, &plan, host)
               : clg_planned_reference(plan_run, desc, &plan, host);
}

clg_status clg_embedding_bag(clg_context *ctx, const clg_embedding_bag_desc *desc, const void *table,
                             size_t table_bytes, const void *indices, size_t indices_bytes, const void *bags,
                             size_t bags_bytes, const void *weights, size_t weights_bytes, void *output,
                             size_t output_bytes)
{
    if (!ctx) {
        clg_clear_error();
        return clg_fail(CLG_ERR_NULL_ARGUMENT, "ctx is NULL");
    }
    return run_on_host(ctx, desc, table, table_bytes, indices, indices_bytes, bags, bags_bytes, weights, weights_bytes,
                       output, output_bytes);
}

clg_status clg_embedding_bag_reference(const clg_embedding_bag_desc *desc, const void *table, size_t table_bytes,
                                       const void *indices, size_t indices_bytes, const void *bags, size_t bags_bytes,
                                       const void *weights, size_t weights_bytes, void *output, size_t output_bytes)
{
    return run_on_host(NULL, desc, table, table_bytes, indices, indices_bytes, bags, bags_bytes, weights, weights_bytes,
                       output, output_bytes);
}
