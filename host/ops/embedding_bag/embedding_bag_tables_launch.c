/* The table-batched call's reduction: one launch of embedding_bag_tables_runs or _columns over every
 * (table, bag), from the single-table call's program for the tables' type. */
#include "core/status.h"
#include "core/variants.h"
#include "ops/embedding_bag/embedding_bag_launch.h"
#include "ops/embedding_bag/embedding_bag_tables.h"
#include "ops/embedding_bag_quantized/embedding_bag_tables_quantized.h"

clg_status clg_embedding_bag_tables_device_supports(const clg_context *ctx, const void *plan)
{
    const clg_embedding_bag_tables_plan *p = plan;
    return p->converts ? CLG_SUCCESS : clg_embedding_bag_device_supports(ctx, &p->bags);
}

/* The arguments past BAG_PARAMETERS: the per-table words, T, the output's row width. */
static cl_int set_table_args(cl_kernel k, const clg_embedding_bag_tables_plan *p, cl_mem meta)
{
    const cl_ulong T = p->T, out_width = p->total_D;
    cl_int err = clSetKernelArg(k, CLG_EMBEDDING_BAG_ARGS, sizeof(cl_mem), &meta);
    err |= clSetKernelArg(k, CLG_EMBEDDING_BAG_ARGS + 1, sizeof T, &T);
    err |= clSetKernelArg(k, CLG_EMBEDDING_BAG_ARGS + 2, sizeof out_width, &out_width);
    return err;
}

clg_status clg_embedding_bag_tables_launch(clg_context *ctx, const void *plan, cl_command_queue queue,
                                           const clg_buffer *buffers, cl_mem gate, cl_uint num_events,
                                           const cl_event *wait_list, cl_event *done)
{
    const clg_embedding_bag_tables_plan *p = plan;
    const int adjacent = clg_context_maps_adjacent(ctx, CLG_FAMILY_EMBEDDING_BAG);
    const clg_variant_id variant = adjacent ? CLG_VARIANT_BAG_COLUMNS : CLG_VARIANT_BAG_RUNS;
    const char *name = adjacent ? "embedding_bag_tables_columns" : "embedding_bag_tables_runs";
    if (p->converts) /* it records its own variant */
        return clg_embedding_bag_tables_quantized_launch(ctx, p, queue, buffers, gate, num_events, wait_list, done);
    clg_embedding_bag_plan b = p->bags; /* the kernels' B: bags a table; N and D come from the words */
    b.B = p->batch;
    cl_mem meta = NULL;
    clg_status st = clg_embedding_bag_tables_meta(ctx, p, &meta);
    if (st != CLG_SUCCESS) return st;
    clg_kernel_lease lease;
    st = clg_embedding_bag_borrow(ctx, &b, name, &lease);
    if (st != CLG_SUCCESS) {
        clReleaseMemObject(meta);
        return st;
    }
    if ((clg_embedding_bag_set_args(lease.kernel, &b, buffers, gate) | set_table_args(lease.kernel, p, meta)) !=
        CL_SUCCESS) {
        clg_kernel_return(ctx->programs, &lease);
        clReleaseMemObject(meta);
        return clg_fail_cl(CL_INVALID_KERNEL_ARGS, "clSetKernelArg (table-batched embedding bag)");
    }
    const uint64_t bags = p->T * p->batch;
    uint64_t items[2];
    size_t local[2];
    cl_uint dims = 1;
    if (adjacent) {
        clg_launch_rows_grid(ctx, &lease, p->max_D, bags, ctx->tuning.adjacent_local_size, local, items);
        dims = 2;
    } else {
        items[0] = bags;
        local[0] = ctx->tuning.runs_local_size;
    }
    st = clg_launch(ctx, queue, &lease, name, dims, items, local, num_events, wait_list, done);
    clg_kernel_return(ctx->programs, &lease);
    clReleaseMemObject(meta); /* OpenCL keeps it until the kernel is done */
    (void)variant;            /* recorded in testing builds only */
    if (st == CLG_SUCCESS) CLG_TEST_RECORD_VARIANT(ctx, variant);
    return st;
}
