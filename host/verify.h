/* Verify mode: recompute a result with the CPU reference and compare bit for bit. */
#ifndef CLG_VERIFY_H
#define CLG_VERIFY_H

#include "plan.h"

/* Defined in reference_gather.c: run the reference on a validated plan. */
clg_status clg_reference_run(const clg_gather_desc *desc, const clg_gather_plan *plan, const void *data,
                             const void *indices, void *output);

/* Compare a device result against the reference over the same host inputs. */
clg_status clg_verify_gather(const clg_gather_desc *desc, const clg_gather_plan *plan, const void *data,
                             const void *indices, const void *device_output);

/* Compare two buffers of elements; fail with CLG_ERR_VERIFY_MISMATCH naming the first differing
 * element and its position in shape. */
clg_status clg_verify_compare(const char *what, const void *device, const void *reference, uint64_t elems,
                              size_t elem_size, const int64_t *shape, int32_t rank);

#endif
