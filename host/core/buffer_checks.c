#include "core/buffer_checks.h"

#include "core/status.h"

#include <inttypes.h>

clg_status clg_check_cl_buffer(const char *name, cl_mem mem, size_t offset, uint64_t need)
{
    if (need == 0) return CLG_SUCCESS;
    if (!mem) return clg_fail(CLG_ERR_NULL_ARGUMENT, "%s is NULL but needs %" PRIu64 " bytes", name, need);
    size_t size = 0;
    cl_int err = clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof size, &size, NULL);
    if (err != CL_SUCCESS)
        return clg_fail(err, "%s: clGetMemObjectInfo(CL_MEM_SIZE) failed (%d): not a valid cl_mem?", name, (int)err);
    if (offset > size || size - offset < need)
        return clg_fail(CLG_ERR_BUFFER_TOO_SMALL,
                        "%s: cl_mem of %zu bytes at offset %zu is smaller than the %" PRIu64 " bytes the tensor needs",
                        name, size, offset, need);
    return CLG_SUCCESS;
}

clg_status clg_check_offset_alignment(const char *name, size_t offset, clg_dtype type)
{
    const size_t unit = clg_dtype_size(type);
    if (unit > 1 && offset % unit != 0)
        return clg_fail(CLG_ERR_MISALIGNED_OFFSET, "%s_offset = %zu is not a multiple of the %s size %zu", name, offset,
                        clg_dtype_name(type), unit);
    return CLG_SUCCESS;
}

clg_status clg_check_host_buffer(const char *name, const void *ptr, size_t have, uint64_t need)
{
    if (have < need)
        return clg_fail(CLG_ERR_BUFFER_TOO_SMALL, "%s_bytes = %zu is smaller than the %" PRIu64 " bytes %s needs", name,
                        have, need, name);
    if (!ptr && need > 0) return clg_fail(CLG_ERR_NULL_ARGUMENT, "%s is NULL but needs %" PRIu64 " bytes", name, need);
    return CLG_SUCCESS;
}
