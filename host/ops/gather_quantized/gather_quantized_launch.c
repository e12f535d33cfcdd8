#include "ops/gather_quantized/gather_quantized_launch.h"

#include "core/index_value.h"
#include "core/launch.h"
#include "core/size_math.h"
#include "core/status.h"
#include "kernel_table.h"

#include <stdio.h>

typedef struct specialization {
    clg_variant_id variant;
    int adjacent; /* the GPU mapping */
    int fast;
    int offsets64;
    int stream;                      /* CPU mapping, fast form: every 8-value store aligned to its vector's size */
    int aligned8;                    /* GPU mapping, fast form: those stores and their packed loads aligned */
    uint64_t units_per_item;         /* CPU mapping */
    uint64_t prefetch_slabs;         /* slabs prefetched ahead (the CPU mapping's kernel; 1 elsewhere) */
    uint64_t piece, pieces_per_unit; /* GPU mapping */
    clg_nibble_lookups lookups;      /* the widest x86 nibble lookup the kernel may use */
    int k_groups_only;               /* super-blocks in 8-value groups, not whole blocks (Oclgrind) */
} specialization;

/* The most values one unit holds. */
static uint64_t largest_unit(const clg_gather_quantized_plan *p)
{
    if (p->ggml != CLG_GGML_NONE) return p->ggml_block_values;
    if (p->placement != CLG_SCALES_IN_SLAB) return p->I;
    return (p->bs < p->Qd ? p->bs : p->Qd) * p->QN;
}

/* The fast form: ggml blocks, or values along the last axis (one scale a unit) starting on whole bytes. */
int clg_gather_quantized_fast_form(const clg_gather_quantized_plan *p)
{
    if (p->ggml != CLG_GGML_NONE) return 1;
    if (p->placement != CLG_SCALES_IN_SLAB || p->QN != 1) return 0;
    const uint64_t per_byte = (uint64_t)(8 / p->value_bits);
    return p->Qd % per_byte == 0 && (p->bs % per_byte == 0 || p->nb == 1);
}

/* Whether every 8-value store of the fast form starts on a multiple of 8 values of a slab (and so, with
 * an output address aligned to 32 bytes, on a multiple of the store's size): ggml blocks always; FBGEMM
 * rows when D is a multiple of 8; ORT blocks when slabs, quantized lines and blocks are multiples of 8
 * values. The address, not only the offset: a caller's CL_MEM_USE_HOST_PTR output may sit on any 16
 * bytes, where a 32-byte streaming store faults. */
static int fast_stores_aligned(const clg_context *ctx, const clg_gather_quantized_plan *p, const clg_buffer *out)
{
    if (!clg_buffer_aligned_to(ctx, out, 32)) return 0;
    if (clg_ggml_is_fbgemm(p->ggml)) return p->ggml_block_values % 8 == 0; /* rows of D values */
    if (p->ggml != CLG_GGML_NONE) return 1;
    return p->I % 8 == 0 && p->Qd % 8 == 0 && (p->bs % 8 == 0 || p->nb == 1);
}

static specialization choose(const clg_context *ctx, const clg_gather_quantized_plan *p, const clg_buffer *data,
                             const clg_buffer *out)
{
    specialization s = {0};
    const clg_tuning *t = &ctx->tuning;
    s.adjacent = clg_context_maps_adjacent(ctx, CLG_FAMILY_QUANTIZED);
    s.variant = s.adjacent ? CLG_VARIANT_DEQUANT_PIECES : CLG_VARIANT_DEQUANT_RUNS;
    s.fast = clg_gather_quantized_fast_form(p);
    s.prefetch_slabs = 1;
    const uint64_t R = p->M * p->N, units = R * p->U, unit_values = largest_unit(p);
    uint64_t grid_overshoot;
    if (s.adjacent) {
        s.piece = clg_ggml_is_super(p->ggml) ? t->dequant_super_piece_values : t->dequant_piece_values;
        s.pieces_per_unit = (unit_values + s.piece - 1) / s.piece;
        s.aligned8 = s.fast && fast_stores_aligned(ctx, p, out) && clg_buffer_aligned_to(ctx, data, 8);
        grid_overshoot =
            clg_max_u64(p->U * s.pieces_per_unit, R) + t->adjacent_local_size * clg_launch_grid_groups(ctx);
    } else {
        const uint64_t unit_bytes = clg_max_u64(1, unit_values * p->out_size);
        s.units_per_item = clg_max_u64(1, t->dequant_run_bytes / unit_bytes);
        const uint64_t min_items = (uint64_t)ctx->compute_units * t->runs_groups_per_cu * t->runs_local_size;
        while (s.units_per_item > 1 && units / s.units_per_item < min_items) s.units_per_item /= 2;
        if (clg_context_forces(ctx, CLG_VARIANT_DEQUANT_WHOLE_SLABS)) {
            s.variant = CLG_VARIANT_DEQUANT_WHOLE_SLABS;
            s.units_per_item = clg_max_u64(1, p->U);
        }
        grid_overshoot = units + s.units_per_item * t->runs_local_size;
        s.stream = s.fast && fast_stores_aligned(ctx, p, out);
        const uint64_t slab_bytes = clg_max_u64(1, (p->data_bytes + p->scale_bytes) / clg_max_u64(1, p->M * p->A));
        /* the gathered slabs are prefetched about dequant_prefetch_bytes ahead of the work: at least the
         * next slab, at most dequant_prefetch_slabs_max */
        s.prefetch_slabs =
            clg_min_u64(t->dequant_prefetch_slabs_max, clg_max_u64(1, t->dequant_prefetch_bytes / slab_bytes));
    }
    uint64_t largest =
        clg_max_u64(clg_max_u64(p->data_values, p->data_bytes), clg_max_u64(p->scale_elems, 2 * p->zp_bytes));
    largest = clg_max_u64(largest, clg_max_u64(p->out_elems, grid_overshoot));
    largest = clg_max_u64(largest, clg_max_u64(p->index_elems, p->M * p->A));
    s.offsets64 = CLG_TEST_SWITCH(ctx, force_offsets64) || largest >= CLG_OFFSET32_LIMIT;
    s.lookups = (clg_nibble_lookups)t->nibble_lookups;
    /* Oclgrind 21.10's uninitialized-value plugin crashes (a memcpy in Uninitialized::instructionExecuted)
     * on the whole-block q4_K, q6_K and iq4_xs code of the runs mapping; the group loop computes the
     * same values (docs/drivers.md) */
    s.k_groups_only = ctx->profile.driver == CLG_DRIVER_OCLGRIND;
    return s;
}

/* The 256-value super-blocks are a program of their own (kernels_cl/dequant_ggml_k.h in place of
 * dequant_ggml.h): neither family's code grows the other's program. FBGEMM's rows likewise
 * (kernels_cl/dequant_fbgemm.h), one program for both formats. */
const char *clg_gather_quantized_family_option(const clg_gather_quantized_plan *p)
{
    if (clg_ggml_is_super(p->ggml)) return " -DGGML_SUPER=1";
    if (clg_ggml_is_fbgemm(p->ggml)) return " -DGGML_FBGEMM=1";
    return "";
}

/* kernels_cl/dequant_values.h: SCALES_F32, SCALES_F16, SCALES_BF16; dequant.h: OUT_KIND */
static int float_kind(clg_dtype t) { return t == CLG_F32 ? 0 : t == CLG_F16 ? 1 : 2; }

static void build_options(const clg_gather_quantized_plan *p, const specialization *s, char *buf, size_t size)
{
    char index_rules[160];
    clg_index_rules_options(p->index_type, s->offsets64, p->policy == CLG_OOB_CLAMP, index_rules, sizeof index_rules);
    int n = snprintf(buf, size, "%s -DOUT_KIND=%d -DSTREAM=%d -DALIGNED8=%d -DSPEC=%d -DSLAB_PREFETCH_AHEAD=%d",
                     index_rules, float_kind(p->out_type), s->stream, s->aligned8, s->fast, (int)s->prefetch_slabs);
    /* kernels_cl/dequant_nibble_table.h: NIBBLE_TABLES_LIMIT 0 none, 1 SSSE3's, 2 AVX2's */
    if (s->lookups != CLG_LOOKUPS_TARGET && n > 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, " -DNIBBLE_TABLES_LIMIT=%d",
                      s->lookups == CLG_LOOKUPS_SSSE3  ? 1
                      : s->lookups == CLG_LOOKUPS_AVX2 ? 2
                                                       : 0);
    /* The fast form's value encodings (bits, signedness, where scales lie) are build-time constants:
     * its inner loops then carry no branch on them (the general form keeps them as arguments, one
     * build for every encoding). The scale type and the zero points' arrangement stay arguments: they
     * are read once a block, so one program serves every one of them (bench/RESULTS.md, "kernel builds
     * in CI", has the measurement). The ggml format stays an argument, and the value encodings its
     * blocks do not read are left 0: one program for the family, the size of one format's
     * (kernels_cl/dequant_ggml.h). */
    const int ggml = p->ggml != CLG_GGML_NONE;
    if (n > 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, "%s%s", clg_gather_quantized_family_option(p),
                      s->k_groups_only && clg_ggml_is_super(p->ggml) ? " -DGGML_K_WHOLE_BLOCKS=0" : "");
    if (s->fast && n > 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n,
                 " -DSPEC_BITS=%d -DSPEC_SIGNED=%d -DSPEC_PLACEMENT=%d -DSPEC_GGML=%d -DSPEC_FAST=1",
                 ggml ? 0 : p->value_bits, !ggml && (p->value_type == CLG_QUANT_I4 || p->value_type == CLG_QUANT_I8),
                 (int)p->placement, ggml);
}

cl_int clg_gather_quantized_set_args(cl_kernel k, const clg_gather_quantized_plan *p, int offsets64, int fast,
                                     const clg_buffer *buffers)
{
    const cl_ulong data_offset = buffers[0].offset, index_offset = buffers[1].offset / p->index_size;
    const cl_ulong scales_offset = buffers[2].offset, zp_offset = buffers[3].offset, out_offset = buffers[4].offset;
    const cl_long A = (cl_long)p->A;
    const int o64 = offsets64;
    cl_int err = clSetKernelArg(k, 0, sizeof(cl_mem), &buffers[0].mem);
    err |= clSetKernelArg(k, 1, sizeof data_offset, &data_offset);
    err |= clSetKernelArg(k, 2, sizeof(cl_mem), &buffers[1].mem);
    err |= clSetKernelArg(k, 3, sizeof index_offset, &index_offset);
    err |= clSetKernelArg(k, 4, sizeof(cl_mem), &buffers[2].mem);
    err |= clSetKernelArg(k, 5, sizeof scales_offset, &scales_offset);
    err |= clSetKernelArg(k, 6, sizeof(cl_mem), &buffers[3].mem);
    err |= clSetKernelArg(k, 7, sizeof zp_offset, &zp_offset);
    err |= clSetKernelArg(k, 8, sizeof(cl_mem), &buffers[4].mem);
    err |= clSetKernelArg(k, 9, sizeof out_offset, &out_offset);
    err |= clg_set_offset_arg(k, 10, p->M * p->N, o64);
    err |= clg_set_offset_arg(k, 11, p->N, o64);
    err |= clSetKernelArg(k, 12, sizeof A, &A);
    err |= clg_set_offset_arg(k, 13, p->I, o64);
    err |= clg_set_offset_arg(k, 14, p->U, o64);
    /* the kernels divide unit numbers by nb: a quantize axis of length 0 along the gathered one has nb 0 yet one
     * unit a slab, every one of them zeros (no row can be selected) */
    err |= clg_set_offset_arg(k, 15, p->nb ? p->nb : 1, o64);
    err |= clg_set_offset_arg(k, 16, p->bs, o64);
    err |= clg_set_offset_arg(k, 17, p->Qd, o64);
    err |= clg_set_offset_arg(k, 18, p->QN, o64);
    err |= clg_set_offset_arg(k, 19, p->P, o64);
    err |= clg_set_offset_arg(k, 20, p->W, o64);
    err |= clg_set_offset_arg(k, 21, p->zp_row_bytes, o64);
    const cl_int encodings[] = {p->value_bits,
                                p->value_type == CLG_QUANT_I4 || p->value_type == CLG_QUANT_I8,
                                float_kind(p->scale_type),
                                (cl_int)p->zp_mode,
                                p->zp_constant,
                                (cl_int)p->placement,
                                (cl_int)p->ggml,
                                fast};
    for (cl_uint i = 0; i < sizeof encodings / sizeof encodings[0]; ++i)
        err |= clSetKernelArg(k, 22 + i, sizeof(cl_int), &encodings[i]);
    return err;
}

clg_status clg_gather_quantized_launch(clg_context *ctx, const void *plan_ptr, cl_command_queue queue,
                                       const clg_buffer *buffers, cl_mem gate, cl_uint num_events,
                                       const cl_event *wait_list, cl_event *done)
{
    const clg_gather_quantized_plan *p = plan_ptr;
    const specialization s = choose(ctx, p, &buffers[0], &buffers[4]);
    char options[512];
    build_options(p, &s, options, sizeof options);
    const clg_kernel_source *source = s.adjacent ? &clg_kernel_gather_quantized_gpu : &clg_kernel_gather_quantized_cpu;
    const char *name = clg_variant_get(s.variant)->kernel;
    clg_kernel_lease lease;
    clg_status st = clg_borrow_kernel(ctx, source, options, name, &lease);
    if (st != CLG_SUCCESS) return st;

    cl_int err = clg_gather_quantized_set_args(lease.kernel, p, s.offsets64, s.fast, buffers);
    cl_uint next_arg = CLG_DEQUANT_KERNEL_ARGS;
    uint64_t items[2];
    size_t local[2];
    cl_uint dims;
    const uint64_t R = p->M * p->N;
    if (!s.adjacent) {
        err |= clg_set_offset_arg(lease.kernel, next_arg++, s.units_per_item, s.offsets64);
        items[0] = (R * p->U + s.units_per_item - 1) / s.units_per_item;
        local[0] = ctx->tuning.runs_local_size;
        dims = 1;
    } else {
        err |= clg_set_offset_arg(lease.kernel, next_arg++, s.pieces_per_unit, s.offsets64);
        err |= clg_set_offset_arg(lease.kernel, next_arg++, s.piece, s.offsets64);
        const uint64_t pieces = p->U * s.pieces_per_unit;
        clg_launch_rows_grid(ctx, &lease, pieces, R, ctx->tuning.adjacent_local_size, local, items);
        items[0] = pieces;
        dims = 2;
    }
    err |= clg_set_gate_arg(lease.kernel, next_arg, gate);
    if (err != CL_SUCCESS) {
        clg_kernel_return(ctx->programs, &lease);
        return clg_fail_cl(err, "clSetKernelArg (gather_quantized)");
    }
    st = clg_launch(ctx, queue, &lease, name, dims, items, local, num_events, wait_list, done);
    clg_kernel_return(ctx->programs, &lease);
    if (st == CLG_SUCCESS) CLG_TEST_RECORD_VARIANT(ctx, s.variant);
    return st;
}
