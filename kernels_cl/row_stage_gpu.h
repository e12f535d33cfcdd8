/* Row copies of one-unit rows through local memory, a form of the GPU mapping (row_copy_gpu.h) for
 * rows of 1 to 16 bytes: read straight from global memory, each output row costs a memory transaction
 * of its own (a sector of 32 bytes or more) wherever its index points. When a group's A rows fit in
 * local memory and its output rows read most of them, a work-group first copies the group there with
 * coalesced loads, then serves every output row from local memory.
 *
 * Output row r = g*N + n (g = bb*O + o) reads row source(bb, n) of group g, data rows g*A .. g*A + A-1.
 * The host splits each group's N output rows into C chunks of L rows (C*L >= N, C <= N); work-group w
 * serves chunk w % C of group w / C, and work-groups stride over the G*C pairs.
 *
 * The loop leaves only through the test of get_num_groups: PoCL 3.1 runs a later loop past its bound when
 * a barrier sits in a loop it can prove runs once (tests/drivers/pocl_single_trip_barrier_loop).
 *
 * Build options: those of row_copy_gpu.h, whose argument layout the kernel shares (U is 1 here), and
 * SLAB_WIDE (1: every group starts and ends on 16 bytes, so the slab loads go 16 bytes at a time). */
#ifndef CLG_ROW_STAGE_GPU_H
#define CLG_ROW_STAGE_GPU_H

#include "failure_record.h"
#include "hints.h"
#include "stage_slab.h"

__kernel void gather_staged_units(__global const uchar *data_base, ulong data_offset, __global const IDX_T *indices,
                                  ulong indices_offset, __global uchar *out_base, ulong out_offset, offset_t R,
                                  offset_t N, offset_t O, long A, offset_t U, offset_t C, offset_t L,
                                  __local uint4 *slab16 ROW_SOURCE_PARAMETER GATE_PARAMETER)
{
    const int closed = GATE_IS_CLOSED(); /* the check failed: no pairs, nothing written */
    ROW_SOURCE_SETUP(bound, A);
    __global const MOVE_T *data = (__global const MOVE_T *)(data_base + data_offset);
    __global MOVE_T *out = (__global MOVE_T *)(out_base + out_offset);
    indices += indices_offset;
    __local MOVE_T *slab = (__local MOVE_T *)slab16;
    (void)U;

    const offset_t pairs = closed ? 0 : (R / N) * C;
    const offset_t item = (offset_t)get_local_id(0), items = (offset_t)get_local_size(0);
    const offset_t dw = (offset_t)get_num_groups(0);
    for (offset_t w = (offset_t)get_group_id(0); w < pairs; w += dw) {
        const offset_t g = w / C, chunk = w - g * C;
        const offset_t bb = g / O;
        __global const MOVE_T *group = data + g * (offset_t)A;
        barrier(CLK_LOCAL_MEM_FENCE); /* every read of the previous pair's slab is done */
        STAGE_SLAB(slab16, slab, group, A, item, items);
        barrier(CLK_LOCAL_MEM_FENCE);
        const offset_t first = chunk * L;
        const offset_t end = N - first < L ? N : first + L;
        for (offset_t n = first + item; n < end; n += items) {
            long row;
            out[g * N + n] = select_source_row(indices, bb * N + n, bound, &row) ? slab[row] : (MOVE_T)(0);
        }
        if (pairs - w <= dw) break; /* w + dw would wrap around offset_t */
    }
}

#endif /* CLG_ROW_STAGE_GPU_H */
