#include "core/plan_checks.h"

#include "core/index_value.h"
#include "core/status.h"

#include <inttypes.h>

clg_status clg_check_data_type(clg_dtype type, bool bf16_allowed, const char *needs_for_bf16, const char *preset)
{
    if (clg_dtype_size(type) == 0)
        return clg_fail(CLG_ERR_INVALID_DTYPE, "data type = %d is not a clg_dtype", (int)type);
    if (type == CLG_BF16 && !bf16_allowed)
        return clg_fail(CLG_ERR_INVALID_DTYPE, "data type bf16 needs %s (preset is %s)", needs_for_bf16, preset);
    return CLG_SUCCESS;
}

clg_status clg_check_index_type(clg_dtype type, const clg_dtype *allowed, const char *allowed_names, const char *preset)
{
    if (!clg_dtype_is_integer(type))
        return clg_fail(CLG_ERR_INVALID_INDEX_TYPE, "indices type %s is not an integer type", clg_dtype_name(type));
    if (!allowed) return CLG_SUCCESS;
    for (; *allowed != CLG_DTYPE_INVALID; ++allowed)
        if (*allowed == type) return CLG_SUCCESS;
    return clg_fail(CLG_ERR_INVALID_INDEX_TYPE, "indices type %s: preset %s accepts %s only", clg_dtype_name(type),
                    preset, allowed_names);
}

clg_status clg_check_policy(clg_oob_policy policy)
{
    if ((int)policy < 0 || (int)policy >= (int)CLG_OOB_COUNT)
        return clg_fail(CLG_ERR_INVALID_POLICY, "oob_policy = %d is not a clg_oob_policy", (int)policy);
    return CLG_SUCCESS;
}

clg_oob_policy clg_resolve_policy(clg_oob_policy policy, bool error_by_default)
{
    if (policy != CLG_OOB_PRESET) return policy;
    return error_by_default ? CLG_OOB_ERROR : CLG_OOB_ZERO;
}

clg_status clg_check_tensor_shape(const clg_tensor_desc *t, const char *name, int32_t min_rank)
{
    if (t->rank < min_rank || t->rank > CLG_MAX_RANK)
        return clg_fail(CLG_ERR_INVALID_RANK, "%s rank %d is outside [%d, %d]", name, (int)t->rank, (int)min_rank,
                        CLG_MAX_RANK);
    for (int32_t d = 0; d < t->rank; ++d)
        if (t->shape[d] < 0)
            return clg_fail(CLG_ERR_INVALID_DIMENSION, "%s.shape[%d] = %" PRId64 " is negative", name, (int)d,
                            t->shape[d]);
    return CLG_SUCCESS;
}

clg_status clg_check_batch_shapes(const clg_tensor_desc *data, const clg_tensor_desc *indices, int64_t batch_dims)
{
    for (int64_t d = 0; d < batch_dims; ++d)
        if (data->shape[d] != indices->shape[d])
            return clg_fail(CLG_ERR_BATCH_SHAPE_MISMATCH,
                            "data.shape[%" PRId64 "] = %" PRId64 " differs from indices.shape[%" PRId64 "] = %" PRId64
                            " within batch_dims = %" PRId64,
                            d, data->shape[d], d, indices->shape[d], batch_dims);
    return CLG_SUCCESS;
}

clg_status clg_check_byte_sizes(clg_size data_elems, clg_size index_elems, clg_size out_elems, size_t elem_size,
                                size_t index_size, clg_byte_sizes *sizes)
{
    clg_size data_bytes = clg_size_mul(data_elems, clg_size_of(elem_size));
    clg_size index_bytes = clg_size_mul(index_elems, clg_size_of(index_size));
    clg_size out_bytes = clg_size_mul(out_elems, clg_size_of(elem_size));
    if (data_bytes.overflow)
        return clg_fail(CLG_ERR_SIZE_OVERFLOW, "data size (elements x %zu bytes) overflows 64 bits", elem_size);
    if (index_bytes.overflow)
        return clg_fail(CLG_ERR_SIZE_OVERFLOW, "indices size (elements x %zu bytes) overflows 64 bits", index_size);
    if (out_bytes.overflow)
        return clg_fail(CLG_ERR_SIZE_OVERFLOW, "output size (elements x %zu bytes) overflows 64 bits", elem_size);
    /* factors of an empty product may have overflowed; those of a non-empty one cannot have */
    *sizes = (clg_byte_sizes){data_elems.value, index_elems.value, out_elems.value,
                              data_bytes.value, index_bytes.value, out_bytes.value};
    return CLG_SUCCESS;
}
