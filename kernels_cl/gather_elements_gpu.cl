/* GatherElements as element moves, the GPU mapping: adjacent work-items move adjacent elements of a
 * line (the innermost walk dimension of the plan, host/ops/gather_elements/gather_elements_plan.h),
 * so the index loads and the output stores coalesce; lines go across dimension 1 with a grid stride.
 * Output element e = line*E + c reads data element base(line) + c*T + row(indices[e]) * AS, where
 * base(line) comes from the outer walk dimensions: one division per outer dimension and line, none
 * per element.
 *
 * An element is UNITS units of MOVE_T; the host passes the data strides T and AS in units.
 *
 * Build options: MOVE_T (uchar | ushort | uint | uint2 | uint4), UNITS (1, 2, 4, 8 or 16), WALK_RANK
 * (1..8), and those of index_rules.h. */
#include "failure_record.h"
#include "hints.h"
#include "index_rules.h"
#include "stage_slab.h"

__kernel void gather_elements_lines(__global const uchar *data_base, ulong data_offset, __global const IDX_T *indices,
                                    ulong indices_offset, __global uchar *out_base, ulong out_offset, offset_t lines,
                                    long A, offset_t AS, ulong8 extents, ulong8 strides GATE_PARAMETER)
{
    const offset_t open_lines = GATE_IS_CLOSED() ? 0 : lines; /* the check failed: no lines */
    __global const MOVE_T *data = (__global const MOVE_T *)(data_base + data_offset);
    __global MOVE_T *out = (__global MOVE_T *)(out_base + out_offset);
    indices += indices_offset;
    /* the vectors' lanes by address: a wide vector passed by value changes the ABI (a warning) */
    const ulong *extent = (const ulong *)&extents, *stride = (const ulong *)&strides;
    const offset_t E = (offset_t)extent[WALK_RANK - 1], T = (offset_t)stride[WALK_RANK - 1];
    const offset_t c0 = (offset_t)get_global_id(0), dc = (offset_t)get_global_size(0);
    const offset_t dl = (offset_t)get_global_size(1);
    if (c0 >= E) return;
    for (offset_t line = (offset_t)get_global_id(1); line < open_lines; line += dl) {
        offset_t base = 0, rest = line;
        for (int j = WALK_RANK - 2; j >= 0; --j) {
            const offset_t next = rest / (offset_t)extent[j];
            base += (rest - next * (offset_t)extent[j]) * (offset_t)stride[j];
            rest = next;
        }
        for (offset_t c = c0; c < E; c += dc) {
            const offset_t e = line * E + c;
            long row;
            __global MOVE_T *dst = out + e * UNITS;
            if (select_row(indices[e], A, &row)) { /* never when A == 0: then no data is read */
                __global const MOVE_T *src = data + base + c * T + (offset_t)row * AS;
                for (uint u = 0; u < UNITS; ++u) dst[u] = src[u];
            } else {
                for (uint u = 0; u < UNITS; ++u) dst[u] = (MOVE_T)(0);
            }
        }
        if (open_lines - line <= dl) break; /* line + dl would wrap around offset_t */
    }
}

/* Along the innermost axis (the line is the axis, elements of one unit: host INNER_AXIS_ROW) through
 * local memory (host/core/local_staging.h): work-group w copies the A units of the data row that line
 * w / C reads from into local memory with coalesced loads, then serves chunk w % C (L elements) of the
 * line from there. The loop leaves only through the test of get_num_groups
 * (tests/drivers/pocl_single_trip_barrier_loop). AS is 1 here. Build option SLAB_WIDE: stage_slab.h. */
__kernel void gather_elements_staged_lines(__global const uchar *data_base, ulong data_offset,
                                           __global const IDX_T *indices, ulong indices_offset,
                                           __global uchar *out_base, ulong out_offset, offset_t lines, long A,
                                           offset_t AS, ulong8 extents, ulong8 strides, offset_t C, offset_t L,
                                           __local uint4 *slab16 GATE_PARAMETER)
{
    const int closed = GATE_IS_CLOSED(); /* the check failed: no pairs, nothing written */
    __global const MOVE_T *data = (__global const MOVE_T *)(data_base + data_offset);
    __global MOVE_T *out = (__global MOVE_T *)(out_base + out_offset);
    indices += indices_offset;
    __local MOVE_T *slab = (__local MOVE_T *)slab16;
    (void)AS;
    const ulong *extent = (const ulong *)&extents, *stride = (const ulong *)&strides;
    const offset_t E = (offset_t)extent[WALK_RANK - 1];
    const offset_t pairs = closed ? 0 : lines * C;
    const offset_t item = (offset_t)get_local_id(0), items = (offset_t)get_local_size(0);
    const offset_t dw = (offset_t)get_num_groups(0);
    for (offset_t w = (offset_t)get_group_id(0); w < pairs; w += dw) {
        const offset_t line = w / C, chunk = w - line * C;
        offset_t base = 0, rest = line;
        for (int j = WALK_RANK - 2; j >= 0; --j) {
            const offset_t next = rest / (offset_t)extent[j];
            base += (rest - next * (offset_t)extent[j]) * (offset_t)stride[j];
            rest = next;
        }
        barrier(CLK_LOCAL_MEM_FENCE); /* every read of the previous pair's slab is done */
        STAGE_SLAB(slab16, slab, data + base, A, item, items);
        barrier(CLK_LOCAL_MEM_FENCE);
        const offset_t first = chunk * L;
        const offset_t end = E - first < L ? E : first + L;
        for (offset_t c = first + item; c < end; c += items) {
            const offset_t e = line * E + c;
            long row;
            out[e] = select_row(indices[e], A, &row) ? slab[row] : (MOVE_T)(0);
        }
        if (pairs - w <= dw) break; /* w + dw would wrap around offset_t */
    }
}
