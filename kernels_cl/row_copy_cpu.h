/* Row copies, the CPU mapping: each work-item copies a contiguous run of whole output rows, so a CPU
 * runtime (which runs a work-group's items one after another on one thread) streams through
 * consecutive indices and output rows. Shared by Gather (gather_rows_cpu.cl) and GatherND
 * (gather_nd_rows_cpu.cl), which differ only in their row source (row_source_index.h,
 * row_source_tuple.h), included before this header.
 *
 * Output row r (of R = B*O*N rows) is data row g*A + source(bb, n), where g = r / N = bb*O + o and
 * n = r % N. A row is U units of MOVE_T; the host picks the widest unit (64 bytes down to 1) that
 * divides the row's bytes and the data and output byte offsets, so element types do not matter.
 *
 * Build options: those of index_rules.h, hints.h and the row source, and
 *   MOVE_T  uint16 | uint8 | uint4 | uint2 | uint | ushort | uchar
 *   STREAM  1: write the output with non-temporal stores where HINT_STREAM allows (outputs larger than
 *           the caches): no read-for-ownership of output lines, no eviction of the data rows */
#ifndef CLG_ROW_COPY_CPU_H
#define CLG_ROW_COPY_CPU_H

#include "failure_record.h"
#include "hints.h"
#include "unit_rows_cpu.h"

/* Rows shorter than PREFETCH_HEAD_FROM_ROW_BYTES are prefetched whole, PREFETCH_AHEAD_BYTES ahead (at
 * most PREFETCH_MAX_ROWS rows); longer rows only their first PREFETCH_HEAD_BYTES, one row ahead: the
 * hardware prefetcher streams the rest. All four are tuning constants (hints.h). */

/* A work-item's run of output rows, walked segment by segment: a segment is the rows of one (bb, o)
 * group, so the copy loops see a fixed source base and consecutive indices. One division per
 * work-item finds where the run starts. */
typedef struct row_run {
    offset_t r, end; /* the segment's first row; the run's end */
    offset_t g, n;   /* row r lies in group g = bb*O + o, at place n of its N rows */
    offset_t bb, o;
    offset_t count; /* rows in this segment */
    int first;      /* 1 for the run's first segment */
} row_run;

/* Start this work-item's run; 0 if it has no rows (the host guarantees that the global size times
 * rows_per_item fits offset_t). */
inline int row_run_start(row_run *run, offset_t R, offset_t N, offset_t O, offset_t rows_per_item)
{
    run->r = (offset_t)get_global_id(0) * rows_per_item;
    if (run->r >= R) return 0;
    run->end = (R - run->r > rows_per_item) ? run->r + rows_per_item : R;
    run->g = run->r / N;
    run->n = run->r - run->g * N;
    run->bb = run->g / O;
    run->o = run->g - run->bb * O;
    run->count = min(run->end - run->r, N - run->n);
    run->first = 1;
    return 1;
}

/* Move to the next segment (the start of the next group); 0 at the end of the run. */
inline int row_run_next(row_run *run, offset_t N, offset_t O)
{
    run->r += run->count;
    run->n = 0;
    ++run->g;
    if (++run->o == O) {
        run->o = 0;
        ++run->bb;
    }
    run->first = 0;
    if (run->r >= run->end) return 0;
    run->count = min(run->end - run->r, N);
    return 1;
}

/* The segment's first index element. */
inline __global const IDX_T *row_run_indices(const row_run *run, __global const IDX_T *indices, offset_t N)
{
    return indices + (run->bb * N + run->n) * INDICES_PER_ROW;
}

/* Copy one segment of `count` rows of U units. `avail` (>= count) is how many rows of the group are
 * left from idx on: rows past this work-item's run may be prefetched (the next work-item of the
 * group, which runs next on the same core, copies them). */
inline void copy_segment(__global MOVE_T *restrict dst, __global const MOVE_T *restrict src,
                         __global const IDX_T *restrict idx, offset_t count, offset_t avail, row_bound_t bound,
                         offset_t U)
{
    const ulong row_bytes = (ulong)U * sizeof(MOVE_T);
    const int long_row = row_bytes >= PREFETCH_HEAD_FROM_ROW_BYTES;
    offset_t ahead = long_row ? 1 : PREFETCH_AHEAD_BYTES / (uint)row_bytes;
    if (ahead > PREFETCH_MAX_ROWS) ahead = PREFETCH_MAX_ROWS;
    const uint prefetch_bytes = long_row ? PREFETCH_HEAD_BYTES : (uint)row_bytes;
    for (offset_t k = 0; k < count; ++k) {
        long row;
        if (avail - k > ahead)
            prefetch_row((__global const uchar *)src, idx, k + ahead, bound, row_bytes, prefetch_bytes);
        __global MOVE_T *restrict d = dst + k * U;
        if (select_source_row(idx, k, bound, &row)) {
            __global const MOVE_T *restrict s = src + (offset_t)row * U;
            for (offset_t u = 0; u < U; ++u) STORE_UNIT(d + u, s[u]);
        } else {
            for (offset_t u = 0; u < U; ++u) STORE_UNIT(d + u, (MOVE_T)(0));
        }
    }
}

ITEM_LOOPS_KERNEL void gather_row_runs(__global const uchar *data_base, ulong data_offset,
                                       __global const IDX_T *indices, ulong indices_offset, __global uchar *out_base,
                                       ulong out_offset, offset_t R, offset_t N, offset_t O, long A, offset_t U,
                                       offset_t rows_per_item ROW_SOURCE_PARAMETER GATE_PARAMETER)
{
    const offset_t rows = GATE_IS_CLOSED() ? 0 : R; /* the check failed: no rows, nothing written */
    ROW_SOURCE_SETUP(bound, A);
    __global const MOVE_T *data = (__global const MOVE_T *)(data_base + data_offset);
    __global MOVE_T *out = (__global MOVE_T *)(out_base + out_offset);
    indices += indices_offset;
    row_run run;
    /* no early return: the group fence needs every item */
    for (int more = row_run_start(&run, rows, N, O, rows_per_item); more; more = row_run_next(&run, N, O))
        copy_segment(out + run.r * U, data + run.g * (offset_t)A * U, row_run_indices(&run, indices, N), run.count,
                     N - run.n, bound, U);
    STREAM_GROUP_FENCE();
}

/* The same for rows of one unit (U == 1) and A > 0 (unit_source reads unit 0 for a row of zeros): the
 * host sends an empty axis to gather_row_runs, which never reads data for an out-of-range index. A
 * branch on A here made Mesa's llvmpipe warn about kernel arguments in control flow. */
ITEM_LOOPS_KERNEL void gather_row_runs_u1(__global const uchar *data_base, ulong data_offset,
                                          __global const IDX_T *indices, ulong indices_offset, __global uchar *out_base,
                                          ulong out_offset, offset_t R, offset_t N, offset_t O, long A, offset_t U,
                                          offset_t rows_per_item ROW_SOURCE_PARAMETER GATE_PARAMETER)
{
    const offset_t rows = GATE_IS_CLOSED() ? 0 : R; /* the check failed: no rows, nothing written */
    (void)U;
    ROW_SOURCE_SETUP(bound, A);
    __global const MOVE_T *data = (__global const MOVE_T *)(data_base + data_offset);
    __global MOVE_T *out = (__global MOVE_T *)(out_base + out_offset);
    indices += indices_offset;
    row_run run;
    /* no early return: the group fence needs every item */
    for (int more = row_run_start(&run, rows, N, O, rows_per_item); more; more = row_run_next(&run, N, O))
        copy_segment_u1(out + run.r, data + run.g * (offset_t)A, row_run_indices(&run, indices, N), run.count, run.n, N,
                        A, bound, (offset_t)A, run.first, rows - run.r > N - run.n);
    STREAM_GROUP_FENCE();
}

#endif /* CLG_ROW_COPY_CPU_H */
