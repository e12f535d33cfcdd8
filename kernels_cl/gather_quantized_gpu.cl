/* The dequantizing gather, GPU mapping: dimension 0 walks pieces of the units of a slab (a piece is
 * at most `piece` values of one unit), so adjacent work-items read and write adjacent memory;
 * dimension 1 walks slabs with a grid stride, so the NDRange stays within what the host sized for the
 * device. Output slab r = m*N + n is data slab (m, idx[n]).
 *
 * Build options: those of index_rules.h, hints.h, failure_record.h, dequant.h and dequant_piece.h;
 * SPEC 1 with SPEC_BITS, SPEC_SIGNED, SPEC_SCALES, SPEC_ZP, SPEC_PLACEMENT, SPEC_GGML, SPEC_FAST: the
 * encodings as constants (the host sets it for the fast form). */
#include "dequant_units.h"
#include "failure_record.h"
#include "hints.h"

__kernel void dequant_pieces(__global const uchar *data_base, ulong data_offset, __global const IDX_T *indices,
                             ulong indices_offset, __global const uchar *scales_base, ulong scales_offset,
                             __global const uchar *zp_base, ulong zp_offset, __global uchar *out_base, ulong out_offset,
                             offset_t R, offset_t N, long A, offset_t I, offset_t U, offset_t nb, offset_t bs,
                             offset_t Qd, offset_t QN, offset_t P, offset_t W, offset_t zp_row_bytes, int value_bits,
                             int value_signed, int scale_kind, int zp_mode, int zp_constant, int placement, int ggml,
                             int fast, offset_t pieces_per_unit, offset_t piece GATE_PARAMETER)
{
    if (GATE_IS_CLOSED()) return; /* the check failed: write nothing (uniform) */
    const offset_t x = (offset_t)get_global_id(0);
    if (x >= U * pieces_per_unit) return;
    __global const uchar *data = data_base + data_offset;
    __global const uchar *scales = scales_base + scales_offset;
    __global const uchar *zp = zp_base + zp_offset;
    __global out_bits_t *out = (__global out_bits_t *)(out_base + out_offset);
    indices += indices_offset;
#if !SPEC
    const dequant_params q = {
        N,          I,       U,           nb,        bs,   Qd,  QN, P, W, zp_row_bytes, A, value_bits, value_signed,
        scale_kind, zp_mode, zp_constant, placement, ggml, fast};
#else /* the fast form: encodings fixed at build time (the arguments carry the same values) */
    const dequant_params q = {N,
                              I,
                              U,
                              nb,
                              bs,
                              Qd,
                              QN,
                              P,
                              W,
                              zp_row_bytes,
                              A,
                              SPEC_BITS,
                              SPEC_SIGNED,
                              SPEC_SCALES,
                              SPEC_ZP,
                              zp_constant,
                              SPEC_PLACEMENT,
                              SPEC_GGML,
                              SPEC_FAST};
#endif

    const offset_t u = x / pieces_per_unit, c = x - u * pieces_per_unit;
    const offset_t p = u / nb, b = u - p * nb;
    const offset_t values = unit_values(&q, b), k0 = c * piece;
    if (k0 >= values) return;
    const offset_t count = min(piece, values - k0);
    const offset_t dr = (offset_t)get_global_size(1);
    for (offset_t r = (offset_t)get_global_id(1); r < R; r += dr) {
        const offset_t m = r / N, n = r - m * N;
        long row;
        __global out_bits_t *out_unit = out + r * I + unit_start(&q, p, b);
        if (select_row(indices[n], A, &row)) {
            const slab sl = slab_at(&q, m, (offset_t)row);
            dequant_unit_piece(&q, &sl, data, scales, zp, out_unit, u, p, b, k0, count);
        } else {
            zero_piece(out_unit, k0, count);
        }
        if (R - r <= dr) break; /* r + dr would wrap around offset_t */
    }
}
