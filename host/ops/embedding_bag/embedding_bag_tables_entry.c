/* The table-batched EmbeddingBag's public entry points: plan, then the runner (core/run.h). */
#include "core/planned_call.h"
#include "core/status.h"
#include "ops/embedding_bag/embedding_bag_tables.h"

enum { INPUT_TABLES, INPUT_INDICES, INPUT_OFFSETS, INPUT_WEIGHTS, INPUT_COUNT };

static const clg_operation tables_operation = {
    .plan_size = sizeof(clg_embedding_bag_tables_plan),
    .scratch_buffer_name = "verify scratch",
    .device_supports = clg_embedding_bag_tables_device_supports,
    .reference = clg_embedding_bag_tables_reference_run,
    .host_check = clg_embedding_bag_tables_host_check,
    .check = clg_embedding_bag_tables_check_enqueue,
    .locate = clg_embedding_bag_tables_locate_enqueue,
    .report = clg_embedding_bag_tables_report,
    .launch = clg_embedding_bag_tables_launch,
};

/* Plan desc and describe it to the runner. */
static clg_status plan_run(const void *desc, void *plan_ptr, clg_run_plan *run)
{
    clg_embedding_bag_tables_plan *plan = plan_ptr;
    clg_status st = clg_embedding_bag_tables_plan_make(desc, plan);
    if (st != CLG_SUCCESS) return st;
    const clg_embedding_bag_plan *b = &plan->bags;
    *run = (clg_run_plan){
        .op = &tables_operation,
        .plan = plan,
        .input_count = INPUT_COUNT,
        .operands = {{"tables", b->table_bytes, plan->converts ? plan->widest_plain : b->table_type},
                     {"indices", b->index_bytes, b->index_type},
                     {"offsets", b->bags_bytes, b->bags_type},
                     {"per_sample_weights", b->weights_bytes, b->weights_bytes ? b->table_type : CLG_DTYPE_INVALID},
                     {"output", b->out_bytes, plan->out_type}},
        .out_elems = b->out_elems,
        .out_elem_size = plan->out_size,
        .out_rank = b->out_rank,
        .out_shape = plan->out_shape,
        .flag_mode = CLG_FLAG_CHECK_KERNEL,
        .scratch_offset_modulus = plan->out_size,
    };
    return CLG_SUCCESS;
}

clg_status clg_embedding_bag_tables_output_shape(const clg_embedding_bag_tables_desc *desc, int32_t *out_rank,
                                                 int64_t out_shape[CLG_MAX_OUTPUT_RANK])
{
    clg_embedding_bag_tables_plan plan;
    return clg_planned_output_shape(plan_run, desc, &plan, out_rank, out_shape);
}

clg_status clg_embedding_bag_tables_output_type(const clg_embedding_bag_tables_desc *desc, clg_dtype *out_type)
{
    clg_clear_error();
    if (!out_type) return clg_fail(CLG_ERR_NULL_ARGUMENT, "out_type is NULL");
    clg_embedding_bag_tables_plan plan;
    const clg_status st = clg_embedding_bag_tables_plan_make(desc, &plan);
    if (st == CLG_SUCCESS) *out_type = plan.out_type;
    return st;
}

clg_status clg_embedding_bag_tables_sizes(const clg_embedding_bag_tables_desc *desc, uint64_t *tables_bytes,
                                          uint64_t *indices_bytes, uint64_t *offsets_bytes, uint64_t *weights_bytes,
                                          uint64_t *output_bytes)
{
    clg_embedding_bag_tables_plan plan;
    uint64_t *const inputs[] = {tables_bytes, indices_bytes, offsets_bytes, weights_bytes};
    return clg_planned_sizes(plan_run, desc, &plan, inputs, output_bytes);
}

clg_status clg_embedding_bag_tables_enqueue(clg_context *ctx, const clg_embedding_bag_tables_desc *desc,
                                            cl_command_queue queue, cl_mem tables, size_t tables_offset, cl_mem indices,
                                            size_t indices_offset, cl_mem offsets, size_t offsets_offset,
                                            cl_mem weights, size_t weights_offset, cl_mem output, size_t output_offset,
                                            cl_uint num_events, const cl_event *wait_list, cl_event *out_event)
{
    clg_embedding_bag_tables_plan plan;
    const clg_buffer buffers[] = {{tables, tables_offset},
                                  {indices, indices_offset},
                                  {offsets, offsets_offset},
                                  {weights, weights_offset},
                                  {output, output_offset}};
    return clg_planned_enqueue(ctx, "clg_embedding_bag_tables_enqueue", plan_run, desc, &plan, queue, buffers,
                               num_events, wait_list, out_event);
}

/* The host-memory calls: on ctx's device (or its CPU reference), or with ctx NULL the CPU reference. */
static clg_status run_on_host(clg_context *ctx, const clg_embedding_bag_tables_desc *desc, const void *tables,
                              size_t tables_bytes, const void *indices, size_t indices_bytes, const void *offsets,
                              size_t offsets_bytes, const void *weights, size_t weights_bytes, void *output,
                              size_t output_bytes)
{
    clg_embedding_bag_tables_plan plan;
    const clg_host_buffer host[] = {{tables, tables_bytes},
                                    {indices, indices_bytes},
                                    {offsets, offsets_bytes},
                                    {weights, weights_bytes},
                                    {output, output_bytes}};
    return ctx ? clg_planned_sync(ctx, plan_run, desc, &plan, host)
               : clg_planned_reference(plan_run, desc, &plan, host);
}

clg_status clg_embedding_bag_tables(clg_context *ctx, const clg_embedding_bag_tables_desc *desc, const void *tables,
                                    size_t tables_bytes, const void *indices, size_t indices_bytes, const void *offsets,
                                    size_t offsets_bytes, const void *weights, size_t weights_bytes, void *output,
                                    size_t output_bytes)
{
    if (!ctx) {
        clg_clear_error();
        return clg_fail(CLG_ERR_NULL_ARGUMENT, "ctx is NULL");
    }
    return run_on_host(ctx, desc, tables, tables_bytes, indices, indices_bytes, offsets, offsets_bytes, weights,
                       weights_bytes, output, output_bytes);
}

clg_status clg_embedding_bag_tables_reference(const clg_embedding_bag_tables_desc *desc, const void *tables,
                                              size_t tables_bytes, const void *indices, size_t indices_bytes,
                                              const void *offsets, size_t offsets_bytes, const void *weights,
                                              size_t weights_bytes, void *output, size_t output_bytes)
{
    return run_on_host(NULL, desc, tables, tables_bytes, indices, indices_bytes, offsets, offsets_bytes, weights,
                       weights_bytes, output, output_bytes);
}
