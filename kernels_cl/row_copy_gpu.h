/* Row copies, the GPU mapping: adjacent work-items copy adjacent units of a row, so a work-group's
 * loads and stores coalesce. Shared by Gather (gather_rows_gpu.cl) and GatherND (gather_nd_rows_gpu.cl),
 * which differ only in their row source (row_source_index.h, row_source_tuple.h), included before
 * this header.
 *
 * Output row r (of R = B*O*N rows) is data row g*A + source(bb, n), where g = r / N = bb*O + o and
 * n = r % N. A row is U units of MOVE_T (at most 16 bytes here: the widest load that still
 * coalesces); the host picks the widest unit that divides the row's bytes and both byte offsets.
 *
 * Build options: MOVE_T (uint4 | uint2 | uint | ushort | uchar), those of index_rules.h and the row
 * source. */
#ifndef CLG_ROW_COPY_GPU_H
#define CLG_ROW_COPY_GPU_H

#include "failure_record.h"
#include "hints.h"

/* Dimension 0 walks the units of a row, dimension 1 walks rows with a grid stride, so the NDRange
 * stays within what the host sized for the device whatever R is. */
__kernel void gather_row_units(__global const uchar *data_base, ulong data_offset, __global const IDX_T *indices,
                               ulong indices_offset, __global uchar *out_base, ulong out_offset, offset_t R, offset_t N,
                               offset_t O, long A, offset_t U ROW_SOURCE_PARAMETER GATE_PARAMETER)
{
    const offset_t rows = GATE_IS_CLOSED() ? 0 : R; /* the check failed: no rows, nothing written */
    ROW_SOURCE_SETUP(bound, A);
    __global const MOVE_T *data = (__global const MOVE_T *)(data_base + data_offset);
    __global MOVE_T *out = (__global MOVE_T *)(out_base + out_offset);
    indices += indices_offset;

    const offset_t u0 = (offset_t)get_global_id(0), du = (offset_t)get_global_size(0);
    const offset_t dr = (offset_t)get_global_size(1);
    if (u0 >= U) return;
    for (offset_t r = (offset_t)get_global_id(1); r < rows; r += dr) {
        offset_t g = r / N, n = r - g * N;
        offset_t bb = g / O;
        long row;
        __global MOVE_T *dst = out + r * U;
        if (select_source_row(indices, bb * N + n, bound, &row)) {
            __global const MOVE_T *src = data + ((offset_t)g * (offset_t)A + (offset_t)row) * U;
            for (offset_t u = u0; u < U; u += du) dst[u] = src[u];
        } else {
            for (offset_t u = u0; u < U; u += du) dst[u] = (MOVE_T)(0);
        }
        if (rows - r <= dr) break; /* r + dr would wrap around offset_t */
    }
}

#endif /* CLG_ROW_COPY_GPU_H */
