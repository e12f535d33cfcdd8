#include "cl_buffer_check.h"

#include "status.h"

#include <inttypes.h>

clg_status clg_check_cl_buffer(const char *name, cl_mem mem, size_t offset, uint64_t need)
{
    if (need == 0) return CLG_SUCCESS;
    if (!mem) return clg_fail(CLG_ERR_NULL_ARGUMENT, "%s is NULL but needs %" PRIu64 " bytes", name, need);
    size_t size = 0;
    cl_int err = clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof size, &size, NULL);
    if (err != CL_SUCCESS) return clg_fail(err, "%s: clGetMemObjectInfo(CL_MEM_SIZE) failed (%d): not a valid cl_mem?", name, (int)err);
    if (offset > size || size - offset < need)
        return clg_fail(CLG_ERR_BUFFER_TOO_SMALL,
                        "%s: cl_mem of %zu bytes at offset %zu is smaller than the %" PRIu64 " bytes the tensor needs", name,
                        size, offset, need);
    return CLG_SUCCESS;
}
