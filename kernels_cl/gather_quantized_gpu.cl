/* The dequantizing gather, GPU mapping: dimension 0 walks pieces of the units of a slab (a piece is
 * at most `piece` values of one unit), so adjacent work-items read and write adjacent memory;
 * dimension 1 walks slabs with a grid stride, so the NDRange stays within what the host sized for the
 * device. Output slab r = m*N + n is data slab (m, idx[n]).
 *
 * Build options: those of index_rules.h, hints.h, dequant.h, dequant_piece.h and
 * dequant_kernel_interface.h. */
#include "dequant_kernel_interface.h"
#include "dequant_units.h"
#include "failure_record.h"
#include "hints.h"

__kernel void dequant_pieces(DEQUANT_KERNEL_PARAMETERS, offset_t pieces_per_unit, offset_t piece GATE_PARAMETER)
{
    const offset_t rows = GATE_IS_CLOSED() ? 0 : R; /* the check failed: no rows, nothing written */
    const offset_t x = (offset_t)get_global_id(0);
    if (x >= U * pieces_per_unit) return;
    DEQUANT_KERNEL_SETUP(q);

    const offset_t u = x / pieces_per_unit, c = x - u * pieces_per_unit;
    const offset_t p = u / nb, b = u - p * nb;
    const offset_t values = unit_values(&q, b), k0 = c * piece;
    if (k0 >= values) return;
    const offset_t count = min(piece, values - k0);
    const offset_t dr = (offset_t)get_global_size(1);
    for (offset_t r = (offset_t)get_global_id(1); r < rows; r += dr) {
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
