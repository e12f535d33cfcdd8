/* Verify mode's comparison: a device result against the CPU reference, bit for bit. */
#ifndef CLG_COMPARE_H
#define CLG_COMPARE_H

#include "clgather.h"

/* Compare two buffers of elems elements of elem_size bytes; fail with CLG_ERR_VERIFY_MISMATCH naming
 * the first differing element, its position in shape and both values. */
clg_status clg_compare_results(const char *what, const void *device, const void *reference, uint64_t elems,
                               size_t elem_size, const int64_t *shape, int32_t rank);

#endif
