/* GatherElements as element moves, the CPU mapping: each work-item moves a contiguous run of output
 * elements (the indices share their flat order). Output element e reads data element
 * base + c*T + row(indices[e]) * AS, where base and c follow the walk of the plan
 * (host/ops/gather_elements/gather_elements_plan.h): base from the outer walk dimensions, c the
 * coordinate along the innermost one, of data stride T. The walk advances with carries; one division
 * chain per work-item finds where its run starts, none is made per element.
 *
 * An element is UNITS units of MOVE_T (1 unless the buffers' offsets or alignment are finer than the
 * element); the host passes the data strides T and AS in units.
 *
 * Build options: those of index_rules.h and hints.h, and
 *   MOVE_T     uchar | ushort | uint | uint2 | uint4
 *   UNITS      units of MOVE_T per element: 1, 2, 4, 8 or 16
 *   WALK_RANK  dimensions of the walk, 1..8
 *   INNER      0: the innermost walk dimension is the axis, rows are adjacent and UNITS is 1 (T 0,
 *                 AS 1): a line gathers within one data row, with the one-unit row copies of
 *                 unit_rows_cpu.h
 *              1: it steps through the data contiguously (T = UNITS)
 *              2: any other stride
 *   AXIS_EMPTY 1 when A == 0: every element is zero and no data is read
 *   STREAM     as in row_copy_cpu.h */
#include "failure_record.h"
#include "hints.h"
#include "row_source_index.h"
#include "unit_rows_cpu.h"

/* The outer walk dimension next to the innermost (0 when there is none: then unused). */
#define OUTER_LAST (WALK_RANK > 1 ? WALK_RANK - 2 : 0)

/* A work-item's place in the walk: the coordinates of its next element and base, the data offset of
 * the outer coordinates. */
typedef struct walk {
    offset_t extent[WALK_RANK], stride[WALK_RANK], coord[WALK_RANK];
    offset_t base;
} walk;

/* Position the walk at element e (one division per dimension). */
inline void walk_start(walk *w, const ulong *extent, const ulong *stride, offset_t e)
{
    w->base = 0;
    for (int j = WALK_RANK - 1; j >= 0; --j) {
        w->extent[j] = (offset_t)extent[j];
        w->stride[j] = (offset_t)stride[j];
        const offset_t next = e / w->extent[j];
        w->coord[j] = e - next * w->extent[j];
        e = next;
        if (j < WALK_RANK - 1) w->base += w->coord[j] * w->stride[j];
    }
}

/* After count elements of the innermost dimension: carry into the outer ones at the line's end. */
inline void walk_advance(walk *w, offset_t count)
{
    w->coord[WALK_RANK - 1] += count;
    if (w->coord[WALK_RANK - 1] < w->extent[WALK_RANK - 1]) return;
    w->coord[WALK_RANK - 1] = 0;
    for (int j = WALK_RANK - 2; j >= 0; --j) {
        w->base += w->stride[j]; /* unsigned: a wrap below is undone by the subtraction */
        if (++w->coord[j] < w->extent[j]) return;
        w->coord[j] = 0;
        w->base -= w->extent[j] * w->stride[j];
    }
}

/* count elements of one line from coordinate c: element k is data[base + (c + k)*T + row(idx[k]) * AS]
 * (offsets in units). */
inline void copy_line(__global MOVE_T *restrict out, __global const MOVE_T *restrict data,
                      __global const IDX_T *restrict idx, const walk *w, offset_t count, long A, offset_t AS,
                      int first_line)
{
    const offset_t c = w->coord[WALK_RANK - 1];
#if INNER == 0
    /* the next line reads the data row one step of the next outer dimension on, if that exists */
    const int has_next = WALK_RANK > 1 && w->coord[OUTER_LAST] + 1 < w->extent[OUTER_LAST];
    const offset_t next = WALK_RANK > 1 ? w->stride[OUTER_LAST] : 0;
    (void)AS;
    copy_segment_u1(out, data + w->base, idx, count, c, w->extent[WALK_RANK - 1], A, A, next, first_line, has_next);
#else
    __global const MOVE_T *restrict src = data + w->base;
#if INNER == 1
    src += c * UNITS;
#define INNER_OFFSET(k) ((k)*UNITS)
#else
    const offset_t T = w->stride[WALK_RANK - 1];
    src += c * T;
#define INNER_OFFSET(k) ((k)*T)
#endif
    for (offset_t k = 0; k < count; ++k) {
        int ok;
        const offset_t row = unit_source(idx, k, A, &ok); /* 0 for zeros: row 0 exists since A > 0 */
        for (uint u = 0; u < UNITS; ++u) {
            const MOVE_T v = src[INNER_OFFSET(k) + row * AS + u];
            STORE_UNIT(out + k * UNITS + u, ok ? v : (MOVE_T)(0));
        }
    }
#undef INNER_OFFSET
#endif
}

/* Column blocks: the walk ends [axis, contiguous inner] (an outer axis) and each output row along the
 * axis reads the same data columns of A rows chosen at random. Read straight from the data, every
 * element costs a cache line of its own from a row far from its neighbours'. Instead a work-group of one work-item takes one block of the columns of one
 * slab (the outer walk coordinates): it copies the block's A rows into local memory, contiguous, then
 * serves every output row of the slab for those columns from there, so each data line is read once.
 * block_len elements per block (the last of a line fewer); blocks counts them over all slabs. Index
 * and data rows are prefetched PREFETCH_INDEX_ROWS_AHEAD and PREFETCH_DATA_ROWS_AHEAD rows ahead (tuning
 * constants, hints.h). */

__kernel __attribute__((reqd_work_group_size(1, 1, 1))) void gather_elements_column_blocks(
    __global const uchar *data_base, ulong data_offset, __global const IDX_T *indices, ulong indices_offset,
    __global uchar *out_base, ulong out_offset, offset_t blocks, offset_t block_len, long A, offset_t AS,
    ulong8 extents, ulong8 strides, __local MOVE_T *restrict block GATE_PARAMETER)
{
    const offset_t open_blocks = GATE_IS_CLOSED() ? 0 : blocks; /* the check failed: no blocks */
    const offset_t b = (offset_t)get_global_id(0);
    if (b >= open_blocks) return;
    __global const MOVE_T *data = (__global const MOVE_T *)(data_base + data_offset);
    __global MOVE_T *out = (__global MOVE_T *)(out_base + out_offset);
    indices += indices_offset;
    const ulong *extent = (const ulong *)&extents;
    const offset_t line = (offset_t)extent[WALK_RANK - 1], rows = (offset_t)extent[WALK_RANK - 2];
    const offset_t per_line = (line + block_len - 1) / block_len;
    const offset_t slab = b / per_line, c0 = (b - slab * per_line) * block_len;
    const offset_t width = line - c0 < block_len ? line - c0 : block_len;
    const offset_t first = slab * rows * line + c0; /* the block's first output element */
    walk w;
    walk_start(&w, extent, (const ulong *)&strides, first);
    /* the block's A rows, block_len elements apart */
    const offset_t pitch = block_len * UNITS;
    __global const MOVE_T *src = data + w.base + c0 * UNITS;
    const offset_t row_units = width * UNITS;
    for (offset_t r = 0; r < (offset_t)A; ++r) {
        /* each row of the block lies on a page of its own, where the hardware prefetcher stops */
        if (r + PREFETCH_DATA_ROWS_AHEAD < (offset_t)A)
            for (offset_t u = 0; u < row_units; u += CACHE_LINE / sizeof(MOVE_T))
                PREFETCH(src + (r + PREFETCH_DATA_ROWS_AHEAD) * AS + u);
        for (offset_t u = 0; u < row_units; ++u) block[r * pitch + u] = src[r * AS + u];
    }
    for (offset_t i = 0; i < rows; ++i) {
        const offset_t e = first + i * line;
        if (i + PREFETCH_INDEX_ROWS_AHEAD < rows)
            for (offset_t k = 0; k < width; k += CACHE_LINE / IDX_BYTES)
                PREFETCH(indices + e + PREFETCH_INDEX_ROWS_AHEAD * line + k);
        for (offset_t k = 0; k < width; ++k) {
            int ok;
            const offset_t row = unit_source(indices + e, k, A, &ok);
            /* a mask, not a select: a select lets the compiler load only when ok, which stops it
             * vectorizing the loop with gathers */
            const MOVE_T keep = (MOVE_T)(0u - (uint)ok);
            for (uint u = 0; u < UNITS; ++u) out[(e + k) * UNITS + u] = block[row * pitch + k * UNITS + u] & keep;
        }
    }
}

ITEM_LOOPS_KERNEL void gather_elements_runs(__global const uchar *data_base, ulong data_offset,
                                            __global const IDX_T *indices, ulong indices_offset,
                                            __global uchar *out_base, ulong out_offset, offset_t total,
                                            offset_t per_item, long A, offset_t AS, ulong8 extents,
                                            ulong8 strides GATE_PARAMETER)
{
    const offset_t open_total = GATE_IS_CLOSED() ? 0 : total; /* the check failed: no elements */
    __global const MOVE_T *data = (__global const MOVE_T *)(data_base + data_offset);
    __global MOVE_T *out = (__global MOVE_T *)(out_base + out_offset);
    indices += indices_offset;
    offset_t e = (offset_t)get_global_id(0) * per_item;
    const offset_t end = e < open_total ? (open_total - e > per_item ? e + per_item : open_total) : e;
#if AXIS_EMPTY
    /* every index is out of range: zeros (clamp too, when A == 0), and the data is empty. A build
     * option, not a branch on A: Mesa's llvmpipe warns about kernel arguments read in control flow. */
    for (offset_t u = e * UNITS; u < end * UNITS; ++u) out[u] = (MOVE_T)(0);
#else
    if (e < end) { /* no early return: the group fence needs every item */
        walk w;
        /* the vectors' lanes by address: a wide vector passed by value changes the ABI (a warning) */
        walk_start(&w, (const ulong *)&extents, (const ulong *)&strides, e);
        for (int first = 1; e < end; first = 0) {
            const offset_t left = w.extent[WALK_RANK - 1] - w.coord[WALK_RANK - 1];
            const offset_t count = end - e < left ? end - e : left;
            copy_line(out + e * UNITS, data, indices + e, &w, count, A, AS, first);
            e += count;
            walk_advance(&w, count);
        }
    }
#endif
    STREAM_GROUP_FENCE();
}
