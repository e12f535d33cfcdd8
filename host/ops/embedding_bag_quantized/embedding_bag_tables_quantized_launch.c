/* The converting table-batched call on the device: the per-table words, the family's program, the checks
 * and the reduction (kernels_cl/embedding_bag_tables_quantized.h). */
#include "core/device_buffers.h"
#include "core/index_value.h"
#include "core/launch.h"
#include "core/status.h"
#include "core/variants.h"
#include "ops/embedding_bag/embedding_bag_check.h"
#include "ops/embedding_bag/embedding_bag_launch.h"
#include "ops/embedding_bag_quantized/embedding_bag_quantized_launch.h"
#include "ops/embedding_bag_quantized/embedding_bag_tables_quantized.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* embedding_bag_tables_quantized.h: PLAIN_PIECE values a plain table's piece, the words a table past the
 * check's four. A quantized piece holds QBAG_PIECE values (kernels_cl/embedding_bag_quantized.cl), the
 * tuning's bag_quantized_piece_values, which every build of the context gets. */
#define PLAIN_PIECE_VALUES 32
#define QMETA_WORDS        5

/* The program of the call's block family: the one the single-table call builds for a table of that family
 * (FBGEMM's, the smallest, where every table is plain). */
static clg_status borrow(clg_context *ctx, const clg_embedding_bag_tables_plan *p, const char *name,
                         clg_kernel_lease *lease)
{
    clg_embedding_bag_quantized_plan program;
    memset(&program, 0, sizeof program);
    program.table.ggml = p->family != CLG_GGML_NONE ? p->family : CLG_GGML_FBGEMM_8BIT;
    return clg_embedding_bag_quantized_borrow(ctx, &program, name, lease);
}

static clg_status borrow_check(clg_context *ctx, const void *program_plan, const char *name, clg_kernel_lease *lease)
{
    return borrow(ctx, program_plan, name, lease);
}

/* Table e's words past the check's: format, plain kind, units, unit values, pieces a unit; *pieces the
 * pieces of its row. */
static clg_status table_words(const clg_embedding_bag_table *e, uint64_t quant_piece_values, cl_ulong *w,
                              uint64_t *pieces)
{
    const uint64_t D = (uint64_t)e->width;
    memset(w, 0, QMETA_WORDS * sizeof *w);
    uint64_t units = 1, unit_values = D, piece_values = PLAIN_PIECE_VALUES;
    if (e->quant_layout != 0 && D > 0) {
        clg_gather_quantized_plan g;
        const clg_status st = clg_embedding_bag_table_quant_plan(e, &g);
        if (st != CLG_SUCCESS) return st;
        w[0] = (cl_ulong)g.ggml;
        units = g.U;
        unit_values = g.ggml_block_values;
        piece_values = quant_piece_values;
    } else {
        w[1] = e->type == CLG_F32 ? 0 : e->type == CLG_F16 ? 1 : 2;
    }
    w[2] = units;
    w[3] = unit_values;
    w[4] = (unit_values + piece_values - 1) / piece_values;
    *pieces = D ? units * w[4] : 0;
    return CLG_SUCCESS;
}

/* The per-table words: the check's four a table (first byte, N_t, D_t, first column), then QMETA_WORDS a
 * table; *max_pieces the most pieces a row has. */
static clg_status make_meta(clg_context *ctx, const clg_embedding_bag_tables_plan *p, cl_mem *meta,
                            uint64_t *max_pieces)
{
    const size_t bytes = (size_t)p->T * (4 + QMETA_WORDS) * sizeof(cl_ulong);
    cl_ulong *words = malloc(bytes);
    if (!words) return clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "table-batched EmbeddingBag: %zu bytes", bytes);
    cl_ulong column = 0;
    *max_pieces = 0;
    for (uint64_t t = 0; t < p->T; ++t) {
        const clg_embedding_bag_table *e = &p->tables[t];
        words[4 * t + 0] = e->byte_offset;
        words[4 * t + 1] = (cl_ulong)e->rows;
        words[4 * t + 2] = (cl_ulong)e->width;
        words[4 * t + 3] = column;
        column += (cl_ulong)e->width;
        uint64_t pieces = 0;
        const clg_status st =
            table_words(e, ctx->tuning.bag_quantized_piece_values, words + 4 * p->T + QMETA_WORDS * t, &pieces);
        if (st != CLG_SUCCESS) {
            free(words);
            return st;
        }
        if (pieces > *max_pieces) *max_pieces = pieces;
    }
    const clg_status st = clg_create_device_buffer(ctx, "table-batched EmbeddingBag tables", words, bytes, meta);
    free(words);
    return st;
}

clg_status clg_embedding_bag_tables_quantized_check(clg_context *ctx, const clg_embedding_bag_tables_plan *p,
                                                    int locate, cl_command_queue queue, const clg_buffer *inputs,
                                                    cl_mem record, cl_uint num_events, const cl_event *wait_list,
                                                    cl_event *done)
{
    cl_mem meta = NULL;
    uint64_t max_pieces = 0;
    clg_status st = make_meta(ctx, p, &meta, &max_pieces);
    if (st != CLG_SUCCESS) return st;
    clg_embedding_bag_plan b = p->bags;
    b.B = p->batch;
    st = clg_embedding_bag_check_tables_in(ctx, &b, borrow_check, p, locate, queue, inputs, record, meta, p->T,
                                           num_events, wait_list, done);
    clReleaseMemObject(meta); /* OpenCL keeps it until the kernel is done */
    return st;
}

static cl_int set_args(cl_kernel k, const clg_embedding_bag_tables_plan *p, const clg_buffer *buffers, cl_mem meta,
                       uint64_t workers, uint64_t max_pieces, cl_mem stage, cl_mem gate)
{
    const clg_embedding_bag_plan *b = &p->bags;
    const cl_ulong tables_offset = buffers[0].offset, out_offset = buffers[4].offset;
    const cl_int mode = (cl_int)b->mode;
    const cl_int out_kind = p->out_type == CLG_F32 ? 0 : p->out_type == CLG_F16 ? 1 : 2;
    const cl_ulong sizes[] = {p->batch, b->L, b->bags_count};
    const cl_ulong tail[] = {p->T, p->total_D, workers, max_pieces};
    cl_uint a = 0;
    cl_int err = clSetKernelArg(k, a++, sizeof(cl_mem), &buffers[0].mem);
    err |= clSetKernelArg(k, a++, sizeof tables_offset, &tables_offset);
    err |= clg_embedding_bag_set_input_args(k, &a, b, &buffers[1], &buffers[2], &buffers[3], sizeof(cl_float));
    err |= clSetKernelArg(k, a++, sizeof(cl_mem), &buffers[4].mem);
    err |= clSetKernelArg(k, a++, sizeof out_offset, &out_offset);
    for (int i = 0; i < 3; ++i) err |= clSetKernelArg(k, a++, sizeof(cl_ulong), &sizes[i]);
    err |= clSetKernelArg(k, a++, sizeof mode, &mode);
    err |= clSetKernelArg(k, a++, sizeof out_kind, &out_kind);
    err |= clSetKernelArg(k, a++, sizeof(cl_mem), &meta);
    for (int i = 0; i < 4; ++i) err |= clSetKernelArg(k, a++, sizeof(cl_ulong), &tail[i]);
    err |= clSetKernelArg(k, a++, sizeof(cl_mem), &stage);
    return err | clg_set_gate_arg(k, a, gate);
}

/* The stage: `words` words, zeros where the profile's driver_scratch_from_host says so (Oclgrind); each
 * work-item writes its words before it reads them. */
static clg_status make_stage(clg_context *ctx, uint64_t words, cl_mem *stage)
{
    const uint64_t bytes = words * sizeof(cl_uint);
    void *zeros = NULL;
    if (ctx->profile.driver_scratch_from_host && bytes <= ctx->info.max_alloc_bytes) {
        zeros = calloc(1, (size_t)bytes);
        if (!zeros)
            return clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "EmbeddingBag stage: no host memory for %" PRIu64 " bytes",
                            bytes);
    }
    const clg_status st = clg_create_device_buffer(ctx, "EmbeddingBag stage", zeros, bytes, stage);
    free(zeros);
    return st;
}

clg_status clg_embedding_bag_tables_quantized_launch(clg_context *ctx, const clg_embedding_bag_tables_plan *p,
                                                     cl_command_queue queue, const clg_buffer *buffers, cl_mem gate,
                                                     cl_uint num_events, const cl_event *wait_list, cl_event *done)
{
    const int adjacent = clg_context_maps_adjacent(ctx, CLG_FAMILY_EMBEDDING_BAG);
    const clg_variant_id variant = adjacent ? CLG_VARIANT_BAG_QUANTIZED_COLUMNS : CLG_VARIANT_BAG_QUANTIZED_RUNS;
    const char *name = adjacent ? "bag_quantized_tables_columns" : "bag_quantized_tables_runs";
    cl_mem meta = NULL, stage = NULL;
    uint64_t max_pieces = 0;
    clg_status st = make_meta(ctx, p, &meta, &max_pieces);
    if (st != CLG_SUCCESS) return st;
    clg_kernel_lease lease;
    st = borrow(ctx, p, name, &lease);
    if (st != CLG_SUCCESS) {
        clReleaseMemObject(meta);
        return st;
    }
    const uint64_t bags = p->T * p->batch;
    uint64_t items[2], workers, stages;
    size_t local[2];
    cl_uint dims;
    if (adjacent) {
        clg_launch_rows_grid(ctx, &lease, max_pieces, bags, ctx->tuning.adjacent_local_size, local, items);
        items[0] = max_pieces; /* every piece of the longest row its own work-item; the bags grid-strided */
        workers = items[1];
        stages = workers * max_pieces;
        dims = 2;
    } else {
        const uint64_t busy =
            (uint64_t)ctx->compute_units * ctx->tuning.runs_groups_per_cu * ctx->tuning.runs_local_size;
        workers = bags < busy ? bags : busy;
        items[0] = workers;
        local[0] = ctx->tuning.runs_local_size;
        stages = workers;
        dims = 1;
    }
    st = make_stage(ctx, stages * ctx->tuning.bag_quantized_piece_values, &stage);
    if (st == CLG_SUCCESS && set_args(lease.kernel, p, buffers, meta, workers, max_pieces, stage, gate) != CL_SUCCESS)
        st = clg_fail_cl(CL_INVALID_KERNEL_ARGS, "clSetKernelArg (table-batched embedding bag, converting)");
    if (st == CLG_SUCCESS) st = clg_launch(ctx, queue, &lease, name, dims, items, local, num_events, wait_list, done);
    if (stage) clReleaseMemObject(stage); /* OpenCL keeps them until the kernel has run */
    clReleaseMemObject(meta);
    clg_kernel_return(ctx->programs, &lease);
    (void)variant; /* recorded in testing builds only */
    if (st == CLG_SUCCESS) CLG_TEST_RECORD_VARIANT(ctx, variant);
    return st;
}
