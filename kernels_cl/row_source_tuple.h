/* Where an output row comes from when an index tuple selects it (GatherND): the TUPLE components of
 * output row k, at idx[k*TUPLE ..], each checked against the data extent it indexes under the
 * one-wrap rule and the policy of index_rules.h, then combined into the row (row-major over those
 * extents). Under zeros, a tuple with any component out of range selects zeros; under clamp each
 * component is clamped on its own (zeros when an extent is 0). The interface is row_source_index.h's.
 *
 * Build options: those of index_rules.h and TUPLE (1..8). */
#ifndef CLG_ROW_SOURCE_TUPLE_H
#define CLG_ROW_SOURCE_TUPLE_H

#include "index_rules.h"

typedef const long *row_bound_t; /* the TUPLE extents */
#define INDICES_PER_ROW            TUPLE
#define ROW_SOURCE_PARAMETER       , long8 tuple_extents
/* the extents by address: a wide vector passed by value changes the ABI (a warning); A, their product,
 * is not needed */
#define ROW_SOURCE_SETUP(bound, A) const row_bound_t bound = (const long *)&tuple_extents

/* The row the tuple of output row k names. Each component is taken by select_row (the policy), or
 * with in_range_only by index_in_range (no policy: for prefetching, where it must stay branch-free).
 * in_range_only is a constant at every call, so each caller gets a
 * loop with no branch on it. */
inline int tuple_source_row(__global const IDX_T *restrict idx, offset_t k, row_bound_t extent, long *row,
                            const int in_range_only)
{
    idx += k * TUPLE;
    ulong r = 0; /* unsigned: a row of rejected components may wrap, and is never used */
    int ok = 1;
#pragma unroll
    for (int j = 0; j < TUPLE; ++j) {
        long c;
        ok &= in_range_only ? index_in_range(idx[j], extent[j], &c) : select_row(idx[j], extent[j], &c);
        r = r * (ulong)extent[j] + (ulong)c;
    }
    *row = (long)r;
    return ok;
}

inline int select_source_row(__global const IDX_T *restrict idx, offset_t k, row_bound_t extent, long *row)
{
    return tuple_source_row(idx, k, extent, row, 0);
}

inline int source_row_in_range(__global const IDX_T *restrict idx, offset_t k, row_bound_t extent, long *row)
{
    return tuple_source_row(idx, k, extent, row, 1);
}

/* *ok is 0 for a row of zeros (then row 0 is read and discarded, so loops stay branch-free). */
inline offset_t unit_source(__global const IDX_T *restrict idx, offset_t k, row_bound_t extent, int *ok)
{
    long row;
    *ok = select_source_row(idx, k, extent, &row);
    return *ok ? (offset_t)row : (offset_t)0;
}

#endif /* CLG_ROW_SOURCE_TUPLE_H */
