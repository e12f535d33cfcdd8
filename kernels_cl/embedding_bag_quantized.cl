/* EmbeddingBag over a quantized table: each gathered row's values dequantized to f32 by the dequantizing
 * gather's own unit code (dequant_units.h's dequant_unit_piece, the code both of its mappings run, so
 * that every layout it reads is read here the same way), then reduced as embedding_bag.cl reduces an
 * f32 table (bag_range, bag_row, combine and finish are its), and each output value rounded once to
 * the output type. The checks are embedding_bag.cl's check_bags and locate_bad_bag, built into this
 * program.
 *
 * A work-item owns up to 8 columns of a unit of the row (a piece) for its bags: it reads each gathered
 * piece once, accumulates in registers, and writes each output value once. The unit code stores f32
 * bits through a __global pointer, so each work-item dequantizes a piece into its own 8 words of a
 * stage buffer (32 bytes that stay in its cache) and reads them back at once.
 *
 * Build options: those of index_rules.h (IDX_T long, OFF64 1: the host's), the block family's of
 * dequant_piece.h (GGML_SUPER, GGML_FBGEMM: the host's clg_gather_quantized_family_option), and
 * embedding_bag.cl's F64_DIVISION. The layout and its encodings are kernel arguments
 * (dequant_kernel_interface.h), as is the output type: one program for the 32-value ggml blocks, ONNX
 * Runtime's and OpenVINO's layouts, one for ggml's super-blocks, one for FBGEMM's rows. */
#define TABLE_KIND 0
#ifndef SPEC
#define SPEC 0
#endif
#include "dequant_kernel_interface.h"
#include "dequant_units.h"
#include "embedding_bag.cl"

/* The output's element types (the host's out_kind). */
#define QBAG_OUT_F32  0
#define QBAG_OUT_F16  1
#define QBAG_OUT_BF16 2

/* Values a work-item dequantizes and accumulates at once. */
#define QBAG_PIECE 8

inline void store_output(__global uchar *out, int out_kind, ulong k, uint bits)
{
    if (out_kind == QBAG_OUT_F32)
        ((__global uint *)out)[k] = bits;
    else
        ((__global ushort *)out)[k] =
            out_kind == QBAG_OUT_F16 ? f32_bits_to_f16_bits(bits) : f32_bits_to_bf16_bits(bits);
}

/* Where one piece's values land: a piece of unit u = (p, b), values k0 .. k0 + count - 1 of the unit,
 * output columns column .. column + count - 1. */
typedef struct piece {
    offset_t u, p, b, k0, count, column;
} piece;

/* The piece's values of bag [start, end) reduced into out row `bag`. The unit code writes value k of
 * the unit at out_unit[k]: out_unit = stage - k0 puts the piece at stage[0 .. count) (never addressed
 * below stage). */
inline void reduce_piece(const dequant_params *q, const bag_inputs *in, __global const uchar *data,
                         __global const uchar *scales, __global const uchar *zp, __global uint *stage, const piece *pc,
                         ulong start, ulong end, __global uchar *out, ulong bag, int out_kind)
{
    float acc[QBAG_PIECE];
    for (int j = 0; j < QBAG_PIECE; ++j) acc[j] = in->mode == MODE_MAX ? -INFINITY : 0.0f;
    ulong n = 0;
    for (ulong i = start; i < end; ++i) {
        const long row = bag_row(in, i);
        if (row < 0) continue;
        ++n;
        const slab sl = slab_at(q, 0, (offset_t)row);
        dequant_unit_piece(q, &sl, data, scales, zp, stage - pc->k0, pc->u, pc->p, pc->b, pc->k0, pc->count);
        for (offset_t j = 0; j < pc->count; ++j) acc[j] = combine(in, acc[j], as_float(stage[j]), i);
    }
    const int default_row = n == 0 && in->default_row >= 0;
    if (default_row) { /* an empty bag: the default row, dequantized like any other */
        const slab sl = slab_at(q, 0, (offset_t)in->default_row);
        dequant_unit_piece(q, &sl, data, scales, zp, stage - pc->k0, pc->u, pc->p, pc->b, pc->k0, pc->count);
    }
    const ulong first = bag * in->D + pc->column;
    for (offset_t j = 0; j < pc->count; ++j)
        store_output(out, out_kind, first + j, n ? finish(in, acc[j], n) : default_row ? stage[j] : 0u);
}

/* The piece x of a row cut into pieces_per_unit pieces a unit; count 0 past the unit's values. */
inline piece piece_at(const dequant_params *q, offset_t x, offset_t pieces_per_unit)
{
    piece pc;
    pc.u = x / pieces_per_unit;
    pc.p = pc.u / q->nb;
    pc.b = pc.u - pc.p * q->nb;
    pc.k0 = (x - pc.u * pieces_per_unit) * QBAG_PIECE;
    const offset_t values = unit_values(q, pc.b);
    pc.count = pc.k0 < values ? min((offset_t)QBAG_PIECE, values - pc.k0) : 0;
    pc.column = unit_start(q, pc.p, pc.b) + pc.k0;
    return pc;
}

/* The bag part of the arguments, after DEQUANT_KERNEL_PARAMETERS (whose indices and out are the bag's
 * indices and output buffers, A the table's rows and I its row's values). */
#define QBAG_PARAMETERS                                                                                        \
    DEQUANT_KERNEL_PARAMETERS, __global const uchar *bag_indices, ulong bag_indices_offset, int index_size,    \
        int index_signed, __global const uchar *bags, ulong bags_offset, int bags_size, int bags_signed,       \
        __global const uint *weights, ulong weights_offset, int has_weights, ulong B, ulong K, ulong L,        \
        ulong bags_count, int form, int mode, long default_row, long padding_row, int out_kind, ulong workers, \
        offset_t pieces_per_unit, __global uint *stage_base, int gated, __global const uint *gate

#define QBAG_INPUTS()                                                                                              \
    inputs_of((__global const uint *)0, 0, bag_indices, bag_indices_offset, index_size, index_signed, bags,        \
              bags_offset, bags_size, bags_signed, weights, weights_offset, has_weights, (ulong)A, (ulong)I, L, K, \
              bags_count, form, mode, default_row, padding_row)

/* Runs mapping (CPUs): `workers` work-items, each walking bags b, b + workers, ...; for each bag every
 * piece of the row in turn. */
__kernel void bag_quantized_runs(QBAG_PARAMETERS)
{
    const ulong w = get_global_id(0);
    if (w >= workers || (gated && gate[0] != NONE_FAILED)) return;
    DEQUANT_KERNEL_SETUP(q);
    (void)out;
    (void)indices;
    const bag_inputs in = QBAG_INPUTS();
    __global uint *stage = stage_base + w * QBAG_PIECE;
    __global uchar *output = out_base + out_offset;
    const offset_t pieces = U * pieces_per_unit;
    for (ulong bag = w; bag < B; bag += workers) {
        ulong start, end;
        bag_range(&in, bag, &start, &end);
        for (offset_t x = 0; x < pieces; ++x) {
            const piece pc = piece_at(&q, x, pieces_per_unit);
            if (pc.count) reduce_piece(&q, &in, data, scales, zp, stage, &pc, start, end, output, bag, out_kind);
        }
    }
}

/* Adjacent mapping (GPUs): dimension 0 the pieces of a row (adjacent work-items, adjacent columns),
 * dimension 1 `workers` rows of work-items walking the bags with a stride. */
__kernel void bag_quantized_columns(QBAG_PARAMETERS)
{
    const offset_t x = (offset_t)get_global_id(0);
    const ulong w = get_global_id(1);
    if (x >= U * pieces_per_unit || w >= workers || (gated && gate[0] != NONE_FAILED)) return;
    DEQUANT_KERNEL_SETUP(q);
    (void)out;
    (void)indices;
    const piece pc = piece_at(&q, x, pieces_per_unit);
    if (!pc.count) return;
    const bag_inputs in = QBAG_INPUTS();
    __global uint *stage = stage_base + (w * (ulong)(U * pieces_per_unit) + x) * QBAG_PIECE;
    __global uchar *output = out_base + out_offset;
    for (ulong bag = w; bag < B; bag += workers) {
        ulong start, end;
        bag_range(&in, bag, &start, &end);
        reduce_piece(&q, &in, data, scales, zp, stage, &pc, start, end, output, bag, out_kind);
    }
}

/* the table-batched call over quantized and mixed tables, in the same programs */
#include "embedding_bag_tables_quantized.h"
