/* Checking a caller's cl_mem + byte offset against the bytes a tensor needs. */
#ifndef CLG_CL_BUFFER_CHECK_H
#define CLG_CL_BUFFER_CHECK_H

#include "clgather.h"

clg_status clg_check_cl_buffer(const char *name, cl_mem mem, size_t offset, uint64_t need);

#endif
