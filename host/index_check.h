/* Finding and reporting the first out-of-range index (the error policy), over host memory. */
#ifndef CLG_INDEX_CHECK_H
#define CLG_INDEX_CHECK_H

#include "plan.h"

/* Scan indices[first, first + count) (positions into the whole indices tensor, held at `indices`,
 * which points at element `first`) and fail with CLG_ERR_INDEX_OUT_OF_RANGE naming the first one
 * outside the range; CLG_SUCCESS if none is. */
clg_status clg_check_indices_host(const clg_gather_desc *desc, const clg_gather_plan *plan, const void *indices,
                                  uint64_t first, uint64_t count);

/* Check host buffer pointers and sizes against the plan (shared by the reference and the sync call). */
clg_status clg_check_gather_host_buffers(const clg_gather_plan *plan, const void *data, size_t data_bytes,
                                         const void *indices, size_t indices_bytes, const void *output,
                                         size_t output_bytes);

#endif
