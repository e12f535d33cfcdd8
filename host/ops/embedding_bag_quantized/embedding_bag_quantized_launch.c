#include "ops/embedding_bag_quantized/embedding_bag_quantized_launch.h"

#include "core/device_buffers.h"
#include "core/index_value.h"
#include "core/launch.h"
#include "core/status.h"
#include "core/variants.h"
#include "kernel_table.h"
#include "ops/embedding_bag/embedding_bag_launch.h"
#include "ops/gather_quantized/gather_quantized_launch.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* -DHARDWARE_FMA=1 where the device says its f32 fma is fused in hardware (PoCL says so where the CPU
 * has FMA): FBGEMM's 4-bit values then take one fma instead of a product and a sum, to the same bits
 * (kernels_cl/dequant_fbgemm.h). A device without it would run fma in software. */
static const char *hardware_fma_option(const clg_context *ctx)
{
    return ctx->single_fp_config & CL_FP_FMA ? " -DHARDWARE_FMA=1" : "";
}

clg_status clg_embedding_bag_quantized_borrow(clg_context *ctx, const void *program_plan, const char *name,
                                              clg_kernel_lease *lease)
{
    const clg_embedding_bag_quantized_plan *p = program_plan;
    char index_rules[160], options[320];
    /* 64-bit offsets always: one program whatever the sizes (the bag loops are not the costly part) */
    clg_index_rules_options(CLG_I64, 1, 0, index_rules, sizeof index_rules);
    snprintf(options, sizeof options, "%s%s%s%s", index_rules, clg_gather_quantized_family_option(&p->table),
             clg_embedding_bag_division_options(ctx, CLG_F32), hardware_fma_option(ctx));
    return clg_borrow_kernel(ctx, &clg_kernel_embedding_bag_quantized, options, name, lease);
}

/* The most values one unit of a row holds (dequant_units.h). */
static uint64_t largest_unit(const clg_gather_quantized_plan *t)
{
    if (t->ggml != CLG_GGML_NONE) return t->ggml_block_values;
    if (t->placement != CLG_SCALES_IN_SLAB) return t->I;
    return (t->bs < t->Qd ? t->bs : t->Qd) * t->QN;
}

static cl_int set_bag_args(cl_kernel k, const clg_embedding_bag_quantized_plan *qp, const clg_buffer *buffers,
                           uint64_t workers, uint64_t pieces_per_unit, cl_mem stage, cl_mem gate)
{
    const clg_embedding_bag_plan *p = &qp->bag;
    const cl_int form = (cl_int)p->form, mode = (cl_int)p->mode;
    const cl_int out_kind = qp->out_type == CLG_F32 ? 0 : qp->out_type == CLG_F16 ? 1 : 2;
    const cl_ulong sizes[] = {p->B, p->K, p->L, p->bags_count};
    const cl_long default_row = p->default_row, padding_row = p->padding_row;
    const cl_ulong worker_count = workers, ppu = pieces_per_unit;
    cl_uint a = CLG_DEQUANT_KERNEL_ARGS;
    cl_int err = clg_embedding_bag_set_input_args(k, &a, p, &buffers[3], &buffers[4], &buffers[5], sizeof(cl_float));
    for (int i = 0; i < 4; ++i) err |= clSetKernelArg(k, a++, sizeof(cl_ulong), &sizes[i]);
    err |= clSetKernelArg(k, a++, sizeof form, &form);
    err |= clSetKernelArg(k, a++, sizeof mode, &mode);
    err |= clSetKernelArg(k, a++, sizeof default_row, &default_row);
    err |= clSetKernelArg(k, a++, sizeof padding_row, &padding_row);
    err |= clSetKernelArg(k, a++, sizeof out_kind, &out_kind);
    err |= clSetKernelArg(k, a++, sizeof worker_count, &worker_count);
    err |= clSetKernelArg(k, a++, sizeof ppu, &ppu); /* offset_t: 64 bits (OFF64 1) */
    err |= clSetKernelArg(k, a++, sizeof(cl_mem), &stage);
    return err | clg_set_gate_arg(k, a, gate);
}

clg_status clg_embedding_bag_quantized_launch(clg_context *ctx, const void *plan, cl_command_queue queue,
                                              const clg_buffer *buffers, cl_mem gate, cl_uint num_events,
                                              const cl_event *wait_list, cl_event *done)
{
    const clg_embedding_bag_quantized_plan *qp = plan;
    const clg_gather_quantized_plan *t = &qp->table;
    const clg_embedding_bag_plan *p = &qp->bag;
    const int adjacent = clg_context_maps_adjacent(ctx, CLG_FAMILY_EMBEDDING_BAG);
    const clg_variant_id variant = adjacent ? CLG_VARIANT_BAG_QUANTIZED_COLUMNS : CLG_VARIANT_BAG_QUANTIZED_RUNS;
    const char *name = clg_variant_get(variant)->kernel;
    clg_kernel_lease lease;
    clg_status st = clg_embedding_bag_quantized_borrow(ctx, qp, name, &lease);
    if (st != CLG_SUCCESS) return st;

    /* kernels_cl/embedding_bag_quantized.cl's QBAG_PIECE, which every build of the context gets */
    const uint64_t piece_values = ctx->tuning.bag_quantized_piece_values;
    const uint64_t pieces_per_unit = (largest_unit(t) + piece_values - 1) / piece_values;
    const uint64_t pieces = t->U * pieces_per_unit;
    uint64_t items[2];
    size_t local[2];
    cl_uint dims;
    uint64_t workers, stages;
    if (adjacent) {
        clg_launch_rows_grid(ctx, &lease, pieces, p->B, ctx->tuning.adjacent_local_size, local, items);
        items[0] = pieces; /* every piece of a row its own work-item; the bags grid-strided */
        workers = items[1];
        stages = workers * pieces;
        dims = 2;
    } else {
        /* enough work-items to keep the device busy, each walking bags with a stride */
        const uint64_t busy =
            (uint64_t)ctx->compute_units * ctx->tuning.runs_groups_per_cu * ctx->tuning.runs_local_size;
        workers = p->B < busy ? p->B : busy;
        items[0] = workers;
        local[0] = ctx->tuning.runs_local_size;
        stages = workers;
        dims = 1;
    }
    cl_mem stage = NULL;
    const uint64_t stage_bytes = stages * piece_values * sizeof(cl_uint);
    /* each work-item writes its piece of the stage before it reads it back, so the stage needs no
     * contents; where the profile's driver_scratch_from_host says so (Oclgrind) it starts as zeros */
    void *stage_zeros = NULL;
    if (ctx->profile.driver_scratch_from_host && stage_bytes <= ctx->info.max_alloc_bytes) {
        stage_zeros = calloc(1, (size_t)stage_bytes);
        if (!stage_zeros) {
            clg_kernel_return(ctx->programs, &lease);
            return clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "EmbeddingBag stage: no host memory for %" PRIu64 " bytes",
                            stage_bytes);
        }
    }
    st = clg_create_device_buffer(ctx, "EmbeddingBag stage", stage_zeros, stage_bytes, &stage);
    free(stage_zeros);
    if (st != CLG_SUCCESS) {
        clg_kernel_return(ctx->programs, &lease);
        return st;
    }
    /* the dequantizing gather's arguments: indices and output are the bag's (the kernel reads them as such) */
    const clg_buffer dequant[] = {buffers[0], {buffers[3].mem, 0}, buffers[1], buffers[2], buffers[6]};
    cl_int err = clg_gather_quantized_set_args(lease.kernel, t, 1, clg_gather_quantized_fast_form(t), dequant);
    err |= set_bag_args(lease.kernel, qp, buffers, workers, pieces_per_unit, stage, gate);
    if (err != CL_SUCCESS) {
        clReleaseMemObject(stage);
        clg_kernel_return(ctx->programs, &lease);
        return clg_fail_cl(err, "clSetKernelArg (embedding bag, quantized table)");
    }
    st = clg_launch(ctx, queue, &lease, name, dims, items, local, num_events, wait_list, done);
    clReleaseMemObject(stage); /* OpenCL keeps it until the kernel has run */
    clg_kernel_return(ctx->programs, &lease);
    if (st == CLG_SUCCESS) CLG_TEST_RECORD_VARIANT(ctx, variant);
    return st;
}
