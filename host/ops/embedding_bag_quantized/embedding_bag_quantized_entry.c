/* EmbeddingBag over a quantized table: the public entry points, plan, then the runner (core/run.h). The
 * error policy is EmbeddingBag's: its host check, and its check kernels built into this operation's
 * programs. */
#include "core/planned_call.h"
#include "core/status.h"
#include "ops/embedding_bag/embedding_bag_check.h"
#include "ops/embedding_bag_quantized/embedding_bag_quantized_launch.h"
#include "ops/embedding_bag_quantized/embedding_bag_quantized_reference.h"

enum { INPUT_DATA, INPUT_SCALES, INPUT_ZERO_POINTS, INPUT_INDICES, INPUT_BAGS, INPUT_WEIGHTS, INPUT_COUNT };

/* EmbeddingBag's checks read their inputs in its own order: table, indices, bags, weights. */
static clg_status host_check(const void *plan, const void *const *inputs)
{
    const clg_embedding_bag_quantized_plan *p = plan;
    const void *bag_inputs[4] = {NULL, inputs[INPUT_INDICES], inputs[INPUT_BAGS], inputs[INPUT_WEIGHTS]};
    return clg_embedding_bag_host_check(&p->bag, bag_inputs);
}

static clg_status enqueue_check(clg_context *ctx, const void *plan, int locate, cl_command_queue queue,
                                const clg_buffer *inputs, cl_mem record, cl_uint num_events, const cl_event *wait_list,
                                cl_event *done)
{
    const clg_embedding_bag_quantized_plan *p = plan;
    const clg_buffer bag_inputs[4] = {inputs[INPUT_DATA], inputs[INPUT_INDICES], inputs[INPUT_BAGS],
                                      inputs[INPUT_WEIGHTS]};
    return clg_embedding_bag_check_in(ctx, &p->bag, clg_embedding_bag_quantized_borrow, p, locate, queue, bag_inputs,
                                      record, num_events, wait_list, done);
}

static clg_status check(clg_context *ctx, const void *plan, cl_command_queue queue, const clg_buffer *inputs,
                        cl_mem record, cl_uint num_events, const cl_event *wait_list, cl_event *done)
{
    return enqueue_check(ctx, plan, 0, queue, inputs, record, num_events, wait_list, done);
}

static clg_status locate(clg_context *ctx, const void *plan, cl_command_queue queue, const clg_buffer *inputs,
                         cl_mem record, cl_uint num_events, const cl_event *wait_list, cl_event *done)
{
    return enqueue_check(ctx, plan, 1, queue, inputs, record, num_events, wait_list, done);
}

static clg_status report(const void *plan, const clg_failure_record *record)
{
    return clg_embedding_bag_report(&((const clg_embedding_bag_quantized_plan *)plan)->bag, record);
}

static const clg_operation embedding_bag_quantized_operation = {
    .plan_size = sizeof(clg_embedding_bag_quantized_plan),
    .scratch_buffer_name = "verify scratch",
    .device_supports = NULL,
    .reference = clg_embedding_bag_quantized_reference_run,
    .host_check = host_check,
    .check = check,
    .locate = locate,
    .report = report,
    .launch = clg_embedding_bag_quantized_launch,
};

/* Plan desc and describe it to the runner. */
static clg_status plan_run(const void *desc, void *plan_ptr, clg_run_plan *run)
{
    clg_embedding_bag_quantized_plan *plan = plan_ptr;
    clg_status st = clg_embedding_bag_quantized_plan_make(desc, plan);
    if (st != CLG_SUCCESS) return st;
    const clg_gather_quantized_plan *t = &plan->table;
    const clg_embedding_bag_plan *b = &plan->bag;
    *run = (clg_run_plan){
        .op = &embedding_bag_quantized_operation,
        .plan = plan,
        .input_count = INPUT_COUNT,
        .operands = {{"data", t->data_bytes, CLG_DTYPE_INVALID},
                     {"scales", t->scale_bytes, t->scale_bytes ? t->scale_type : CLG_DTYPE_INVALID},
                     {"zero_points", t->zp_bytes, CLG_DTYPE_INVALID},
                     {"indices", b->index_bytes, b->index_type},
                     {b->form == CLG_BAG_SEGMENTS ? "segment_ids" : "offsets", b->bags_bytes,
                      b->bags_bytes ? b->bags_type : CLG_DTYPE_INVALID},
                     {"per_sample_weights", b->weights_bytes, b->weights_bytes ? CLG_F32 : CLG_DTYPE_INVALID},
                     {"output", plan->out_bytes, plan->out_type}},
        .out_elems = b->out_elems,
        .out_elem_size = plan->out_size,
        .out_rank = b->out_rank,
        .out_shape = b->out_shape,
        .flag_mode = CLG_FLAG_CHECK_KERNEL,
        .scratch_offset_modulus = plan->out_size,
    };
    return CLG_SUCCESS;
}

clg_status clg_embedding_bag_quantized_output_shape(const clg_embedding_bag_quantized_desc *desc, int32_t *out_rank,
                                                    int64_t out_shape[CLG_MAX_OUTPUT_RANK], clg_dtype *out_type)
{
    clg_embedding_bag_quantized_plan plan;
    clg_status st = clg_planned_output_shape(plan_run, desc, &plan, out_rank, out_shape);
    if (st == CLG_SUCCESS && out_type) *out_type = plan.out_type;
    return st;
}

clg_status clg_embedding_bag_quantized_sizes(const clg_embedding_bag_quantized_desc *desc, uint64_t *data_bytes,
                                             uint64_t *scales_bytes, uint64_t *zero_points_bytes,
                                             uint64_t *indices_bytes, uint64_t *bags_bytes, uint64_t *weights_bytes,
                                             uint64_t *output_bytes)
{
    clg_embedding_bag_quantized_plan plan;
    uint64_t *const inputs[] = {data_bytes, scales_bytes, zero_points_bytes, indices_bytes, bags_bytes, weights_bytes};
    return clg_planned_sizes(plan_run, desc, &plan, inputs, output_bytes);
}

clg_status clg_embedding_bag_quantized_enqueue(clg_context *ctx, const clg_embedding_bag_quantized_desc *desc,
                                               cl_command_queue queue, cl_mem data, size_t data_offset, cl_mem scales,
                                               size_t scales_offset, cl_mem zero_points, size_t zero_points_offset,
                                               cl_mem indices, size_t indices_offset, cl_mem bags, size_t bags_offset,
                                               cl_mem weights, size_t weights_offset, cl_mem output,
                                               size_t output_offset, cl_uint num_events, const cl_event *wait_list,
                                               cl_event *out_event)
{
    clg_embedding_bag_quantized_plan plan;
    const clg_buffer buffers[] = {{data, data_offset},       {scales, scales_offset}, {zero_points, zero_points_offset},
                                  {indices, indices_offset}, {bags, bags_offset},     {weights, weights_offset},
                                  {output, output_offset}};
    return clg_planned_enqueue(ctx, "clg_embedding_bag_quantized_enqueue", plan_run, desc, &plan, queue, buffers,
                               num_events, wait_list, out_event);
}

/* The host-memory calls: on ctx's device (or its CPU reference), or with ctx NULL the CPU reference. */
static clg_status run_on_host(clg_context *ctx, const clg_embedding_bag_quantized_desc *desc,
                              const clg_host_buffer *host)
{
    clg_embedding_bag_quantized_plan plan;
    return ctx ? clg_planned_sync(ctx, plan_run, desc, &plan, host)
               : clg_planned_reference(plan_run, desc, &plan, host);
}

clg_status clg_embedding_bag_quantized(clg_context *ctx, const clg_embedding_bag_quantized_desc *desc, const void *data,
                                       size_t data_bytes, const void *scales, size_t scales_bytes,
                                       const void *zero_points, size_t zero_points_bytes, const void *indices,
                                       size_t indices_bytes, const void *bags, size_t bags_bytes, const void *weights,
                                       size_t weights_bytes, void *output, size_t output_bytes)
{
    if (!ctx) {
        clg_clear_error();
        return clg_fail(CLG_ERR_NULL_ARGUMENT, "ctx is NULL");
    }
    const clg_host_buffer host[] = {{data, data_bytes},       {scales, scales_bytes}, {zero_points, zero_points_bytes},
                                    {indices, indices_bytes}, {bags, bags_bytes},     {weights, weights_bytes},
                                    {output, output_bytes}};
    return run_on_host(ctx, desc, host);
}

clg_status clg_embedding_bag_quantized_reference(const clg_embedding_bag_quantized_desc *desc, const void *data,
                                                 size_t data_bytes, const void *scales, size_t scales_bytes,
                                                 const void *zero_points, size_t zero_points_bytes, const void *indices,
                                                 size_t indices_bytes, const void *bags, size_t bags_bytes,
                                                 const void *weights, size_t weights_bytes, void *output,
                                                 size_t output_bytes)
{
    const clg_host_buffer host[] = {{data, data_bytes},       {scales, scales_bytes}, {zero_points, zero_points_bytes},
                                    {indices, indices_bytes}, {bags, bags_bytes},     {weights, weights_bytes},
                                    {output, output_bytes}};
    return run_on_host(NULL, desc, host);
}
