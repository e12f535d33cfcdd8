/* Where an output row comes from when one index selects it (Gather, and GatherElements along the
 * innermost axis): indices[k] against the A rows of its group, under the one-wrap rule and the policy
 * of index_rules.h. The row-copy machinery (row_copy_cpu.h, row_copy_gpu.h) reads indices only
 * through the functions below; row_source_tuple.h is the same interface for index tuples (GatherND).
 *
 * The interface every row source provides:
 *   row_bound_t               what selection checks a row against (here the axis length A)
 *   INDICES_PER_ROW           index elements read per output row
 *   ROW_SOURCE_PARAMETER      the source's extra kernel parameters (here none)
 *   ROW_SOURCE_SETUP(b, A)    declare `b`, the kernel's row_bound_t, from those parameters and A
 *   select_source_row         the row (of A) that output row k reads under the policy; 0: zeros
 *   source_row_in_range       the row output row k reads if its index is in range (for prefetching)
 *   unit_source               select_source_row as the offset of a one-unit row (branch-free loops) */
#ifndef CLG_ROW_SOURCE_INDEX_H
#define CLG_ROW_SOURCE_INDEX_H

#include "index_rules.h"

typedef long row_bound_t;
#define INDICES_PER_ROW 1
#define ROW_SOURCE_PARAMETER
#define ROW_SOURCE_SETUP(bound, A) const row_bound_t bound = (A)

inline int select_source_row(__global const IDX_T *restrict idx, offset_t k, row_bound_t A, long *row)
{
    return select_row(idx[k], A, row);
}

inline int source_row_in_range(__global const IDX_T *restrict idx, offset_t k, row_bound_t A, long *row)
{
    return index_in_range(idx[k], A, row);
}

/* *ok is 0 for a row of zeros (then unit 0, which exists since A > 0, is read and discarded, so loops
 * stay branch-free). Returns the unit's offset, not the unit, so that no function passes a wide vector
 * by value (an ABI change compilers warn about). */
inline offset_t unit_source(__global const IDX_T *restrict idx, offset_t k, row_bound_t A, int *ok)
{
#ifdef HAVE_SELECT_ROW32
    uint row;
    *ok = select_row32(idx[k], (uint)A, &row);
    return *ok ? row : 0u;
#else
    long row;
    *ok = select_row(idx[k], A, &row);
    return *ok ? (offset_t)row : (offset_t)0;
#endif
}

#endif /* CLG_ROW_SOURCE_INDEX_H */
