#include "ops/embedding_bag/embedding_bag_launch.h"

#include "core/index_value.h"
#include "core/launch.h"
#include "core/status.h"
#include "kernel_table.h"

#include <stdio.h>

/* kernels_cl/embedding_bag.cl: TABLE_KIND 0 f32, 1 f16, 2 bf16, 3 f64 */
static int table_kind(clg_dtype t) { return t == CLG_F32 ? 0 : t == CLG_F16 ? 1 : t == CLG_BF16 ? 2 : 3; }

/* How the kernels make mean's one f32 division correctly rounded, as the reference's is: OpenCL lets an f32
 * division err by 2.5 ulp (NVIDIA's does). The build option that asks for correctly rounded f32
 * division where the device offers it; else an f64 division rounded to f32 (correctly rounded: 53 >=
 * 2 * 24 + 2 bits, so the double rounding of a quotient is innocuous), which is no help where a compiler
 * shrinks it back to an f32 division (LLVM may), hence second. */
const char *clg_embedding_bag_division_options(const clg_context *ctx, clg_dtype table)
{
    if (table == CLG_F64) return "";
    if (ctx->single_fp_config & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) return " -cl-fp32-correctly-rounded-divide-sqrt";
    return ctx->info.has_fp64 ? " -DF64_DIVISION=1" : "";
}

clg_status clg_embedding_bag_borrow(clg_context *ctx, const clg_embedding_bag_plan *p, const char *name,
                                    clg_kernel_lease *lease)
{
    char options[96];
    snprintf(options, sizeof options, "-DTABLE_KIND=%d%s", table_kind(p->table_type),
             clg_embedding_bag_division_options(ctx, p->table_type));
    return clg_borrow_kernel(ctx, &clg_kernel_embedding_bag, options, name, lease);
}

clg_status clg_embedding_bag_device_supports(const clg_context *ctx, const void *plan)
{
    const clg_embedding_bag_plan *p = plan;
    if (p->table_type == CLG_F64 && !ctx->info.has_fp64)
        return clg_fail(CLG_ERR_UNSUPPORTED_BY_DEVICE, "an f64 table needs cl_khr_fp64, which device %s lacks",
                        ctx->info.device_name);
    return CLG_SUCCESS;
}

cl_int clg_embedding_bag_set_input_args(cl_kernel k, cl_uint *next, const clg_embedding_bag_plan *p,
                                        const clg_buffer *indices, const clg_buffer *bags, const clg_buffer *weights,
                                        size_t weight_size)
{
    const cl_ulong index_offset = indices->offset / p->index_size;
    const cl_ulong bags_offset = p->bags_size ? bags->offset / p->bags_size : 0;
    const cl_ulong weights_offset = p->has_weights ? weights->offset / weight_size : 0;
    const cl_mem bags_mem = p->bags_size ? bags->mem : NULL, weights_mem = p->has_weights ? weights->mem : NULL;
    const cl_int index_size = (cl_int)p->index_size, index_signed = clg_dtype_is_signed_integer(p->index_type);
    const cl_int bags_size = (cl_int)p->bags_size, bags_signed = clg_dtype_is_signed_integer(p->bags_type);
    const cl_int has_weights = p->has_weights;
    cl_uint a = *next;
    cl_int err = clSetKernelArg(k, a++, sizeof(cl_mem), &indices->mem);
    err |= clSetKernelArg(k, a++, sizeof index_offset, &index_offset);
    err |= clSetKernelArg(k, a++, sizeof index_size, &index_size);
    err |= clSetKernelArg(k, a++, sizeof index_signed, &index_signed);
    err |= clSetKernelArg(k, a++, sizeof(cl_mem), &bags_mem);
    err |= clSetKernelArg(k, a++, sizeof bags_offset, &bags_offset);
    err |= clSetKernelArg(k, a++, sizeof bags_size, &bags_size);
    err |= clSetKernelArg(k, a++, sizeof bags_signed, &bags_signed);
    err |= clSetKernelArg(k, a++, sizeof(cl_mem), &weights_mem);
    err |= clSetKernelArg(k, a++, sizeof weights_offset, &weights_offset);
    err |= clSetKernelArg(k, a++, sizeof has_weights, &has_weights);
    *next = a;
    return err;
}

cl_int clg_embedding_bag_set_args(cl_kernel k, const clg_embedding_bag_plan *p, const clg_buffer *buffers, cl_mem gate)
{
    const cl_ulong table_offset = buffers[0].offset / p->table_size, out_offset = buffers[4].offset / p->table_size;
    const cl_int form = (cl_int)p->form, mode = (cl_int)p->mode;
    const cl_ulong sizes[] = {p->N, p->D, p->L, p->B, p->K, p->bags_count};
    const cl_long default_row = p->default_row, padding_row = p->padding_row;
    cl_uint a = 0;
    cl_int err = clSetKernelArg(k, a++, sizeof(cl_mem), &buffers[0].mem);
    err |= clSetKernelArg(k, a++, sizeof table_offset, &table_offset);
    err |= clg_embedding_bag_set_input_args(k, &a, p, &buffers[1], &buffers[2], &buffers[3], p->table_size);
    err |= clSetKernelArg(k, a++, sizeof(cl_mem), &buffers[4].mem);
    err |= clSetKernelArg(k, a++, sizeof out_offset, &out_offset);
    for (int i = 0; i < 6; ++i) err |= clSetKernelArg(k, a++, sizeof(cl_ulong), &sizes[i]);
    err |= clSetKernelArg(k, a++, sizeof form, &form);
    err |= clSetKernelArg(k, a++, sizeof mode, &mode);
    err |= clSetKernelArg(k, a++, sizeof default_row, &default_row);
    err |= clSetKernelArg(k, a++, sizeof padding_row, &padding_row);
    return err | clg_set_gate_arg(k, a, gate);
}

clg_status clg_embedding_bag_launch(clg_context *ctx, const void *plan, cl_command_queue queue,
                                    const clg_buffer *buffers, cl_mem gate, cl_uint num_events,
                                    const cl_event *wait_list, cl_event *done)
{
    const clg_embedding_bag_plan *p = plan;
    const int adjacent = clg_context_maps_adjacent(ctx, CLG_FAMILY_EMBEDDING_BAG);
    const clg_variant_id variant = adjacent ? CLG_VARIANT_BAG_COLUMNS : CLG_VARIANT_BAG_RUNS;
    const char *name = clg_variant_get(variant)->kernel;
    clg_kernel_lease lease;
    clg_status st = clg_embedding_bag_borrow(ctx, p, name, &lease);
    if (st != CLG_SUCCESS) return st;
    if (clg_embedding_bag_set_args(lease.kernel, p, buffers, gate) != CL_SUCCESS) {
        clg_kernel_return(ctx->programs, &lease);
        return clg_fail_cl(CL_INVALID_KERNEL_ARGS, "clSetKernelArg (embedding bag)");
    }
    uint64_t items[2];
    size_t local[2];
    cl_uint dims = 1;
    if (adjacent) {
        clg_launch_rows_grid(ctx, &lease, p->D, p->B, ctx->tuning.adjacent_local_size, local, items);
        dims = 2;
    } else {
        items[0] = p->B;
        local[0] = ctx->tuning.runs_local_size;
    }
    st = clg_launch(ctx, queue, &lease, name, dims, items, local, num_events, wait_list, done);
    clg_kernel_return(ctx->programs, &lease);
    if (st == CLG_SUCCESS) CLG_TEST_RECORD_VARIANT(ctx, variant);
    return st;
}
