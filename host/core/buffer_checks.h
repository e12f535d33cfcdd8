/* Checking the buffers a caller passes against the bytes each tensor needs: a cl_mem plus a byte
 * offset (enqueue calls), a host pointer plus a byte count (synchronous and reference calls). */
#ifndef CLG_BUFFER_CHECKS_H
#define CLG_BUFFER_CHECKS_H

#include "clgather.h"

/* `name` is the operand as the API names it ("data", "step_ids", ...). */
clg_status clg_check_cl_buffer(const char *name, cl_mem mem, size_t offset, uint64_t need);

/* A byte offset into a cl_mem must be a multiple of the size of the element type the kernel reads
 * there. */
clg_status clg_check_offset_alignment(const char *name, size_t offset, clg_dtype type);

/* A host buffer of `have` bytes at ptr must hold `need` bytes (ptr may be NULL when need is 0). */
clg_status clg_check_host_buffer(const char *name, const void *ptr, size_t have, uint64_t need);

#endif
