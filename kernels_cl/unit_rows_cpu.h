/* Rows of one unit, the CPU mapping: a run of output units, each a whole row selected by the row
 * source (included before this header), copied branch-free so that the compiler vectorizes across
 * rows, with the group's data prefetched ahead of its random reads. Used by the row runs of Gather and
 * GatherND (row_copy_cpu.h) and by GatherElements' lines along the innermost axis
 * (gather_elements_cpu.cl).
 *
 * Build options: MOVE_T, STREAM (row_copy_cpu.h), those of hints.h and the row source. */
#ifndef CLG_UNIT_ROWS_CPU_H
#define CLG_UNIT_ROWS_CPU_H

#include "hints.h"

/* Prefetch the first prefetch_bytes (<= row_bytes) of the row that output row `ahead` reads, if its
 * source is in range. Byte sizes are 64-bit: the 32-bit offsets the host may prove count move units,
 * not bytes. */
inline void prefetch_row(__global const uchar *restrict src, __global const IDX_T *restrict idx, offset_t ahead,
                         row_bound_t bound, ulong row_bytes, uint prefetch_bytes)
{
    long row;
    if (source_row_in_range(idx, ahead, bound, &row)) {
        prefetch_span(src + (ulong)row * row_bytes, prefetch_bytes);
    }
}

/* Rows of exactly one unit (the last axis, or any row moved as one MOVE_T) are copied branch-free so
 * the compiler vectorizes across rows. A group's data (A units) of at most GROUP_PREFETCH_BYTES (about
 * what fits in L2) is prefetched in order before its random reads; larger groups are prefetched row
 * by row, U1_AHEAD rows ahead. Both are tuning constants (hints.h). */

inline void copy_units(__global MOVE_T *restrict dst, __global const MOVE_T *restrict src,
                       __global const IDX_T *restrict idx, offset_t count, offset_t avail, row_bound_t bound,
                       int prefetch_ahead)
{
    for (offset_t k = 0; k < count; ++k) {
        /* the unit that row k + U1_AHEAD selects, while that row is still in this group */
        if (prefetch_ahead && avail - k > U1_AHEAD)
            prefetch_row((__global const uchar *)src, idx, k + U1_AHEAD, bound, sizeof(MOVE_T), sizeof(MOVE_T));
        int ok;
        const MOVE_T v = src[unit_source(idx, k, bound, &ok)];
        STORE_UNIT(dst + k, ok ? v : (MOVE_T)(0));
    }
}

/* Groups that fit in L2: the next group's lines are prefetched in order while this one is gathered,
 * this segment's share of them spread over its rows (SPREAD_CHUNK rows at a time, a tuning constant),
 * so each line is asked for once and never in a burst. The first work-item of a work-group also
 * fetches its own group: the item before it on this core worked elsewhere. The next group starts
 * next_group units after this one. */
inline void copy_segment_u1_grouped(__global MOVE_T *restrict dst, __global const MOVE_T *restrict src,
                                    __global const IDX_T *restrict idx, offset_t count, offset_t n, offset_t N, long A,
                                    row_bound_t bound, offset_t next_group, int fetch_own, int has_next)
{
    __global const uchar *own = (__global const uchar *)src;
    const ulong group_lines = ((ulong)A * sizeof(MOVE_T) + CACHE_LINE - 1) / CACHE_LINE;
    if (fetch_own)
        for (ulong b = (ulong)n * group_lines / N; b < group_lines; ++b) PREFETCH(own + b * CACHE_LINE);
    /* the next group's lines [first, last) are this segment's share */
    __global const uchar *next = own + (ulong)next_group * sizeof(MOVE_T);
    const ulong first = has_next ? (ulong)n * group_lines / N : 0;
    const ulong last = has_next ? (ulong)(n + count) * group_lines / N : 0;
    ulong line = first;
    for (offset_t k = 0; k < count; k += SPREAD_CHUNK) {
        const offset_t todo = count - k < SPREAD_CHUNK ? count - k : SPREAD_CHUNK;
        const ulong due = first + (last - first) * (ulong)(k + todo) / count;
        for (; line < due; ++line) PREFETCH(next + line * CACHE_LINE);
        copy_units(dst + k, src, idx + k * INDICES_PER_ROW, todo, todo, bound, 0);
    }
}

/* One segment of one-unit rows: n is its place in its group of N rows, A the group's rows, the next
 * group next_group units on. */
inline void copy_segment_u1(__global MOVE_T *restrict dst, __global const MOVE_T *restrict src,
                            __global const IDX_T *restrict idx, offset_t count, offset_t n, offset_t N, long A,
                            row_bound_t bound, offset_t next_group, int first, int has_next)
{
    if ((ulong)A * sizeof(MOVE_T) <= GROUP_PREFETCH_BYTES)
        copy_segment_u1_grouped(dst, src, idx, count, n, N, A, bound, next_group, first && get_local_id(0) == 0,
                                has_next);
    else
        copy_units(dst, src, idx, count, N - n, bound, 1);
}

#endif /* CLG_UNIT_ROWS_CPU_H */
