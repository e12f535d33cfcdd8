/* The descriptor checks every operation's plan makes the same way (types, ranks and extents, the
 * out-of-range policy, 64-bit byte sizes), with the same messages. */
#ifndef CLG_PLAN_CHECKS_H
#define CLG_PLAN_CHECKS_H

#include "clgather.h"
#include "core/size_math.h"

#include <stdbool.h>

/* The data type is a clg_dtype; bf16 only where bf16_allowed (else the message names needs_for_bf16,
 * the preset that would accept it, and the call's preset). */
clg_status clg_check_data_type(clg_dtype type, bool bf16_allowed, const char *needs_for_bf16, const char *preset);

/* The index type is an integer type and, where `allowed` is given (a list ending in CLG_DTYPE_INVALID,
 * named `allowed_names` in messages), one of those. */
clg_status clg_check_index_type(clg_dtype type, const clg_dtype *allowed, const char *allowed_names,
                                const char *preset);

/* The policy is a clg_oob_policy. */
clg_status clg_check_policy(clg_oob_policy policy);

/* CLG_OOB_PRESET resolved to the preset's rule: error where error_by_default, else zero. */
clg_oob_policy clg_resolve_policy(clg_oob_policy policy, bool error_by_default);

/* Rank in [min_rank, CLG_MAX_RANK] and every extent >= 0. */
clg_status clg_check_tensor_shape(const clg_tensor_desc *t, const char *name, int32_t min_rank);

/* data.shape[d] == indices.shape[d] for every d < batch_dims, else CLG_ERR_BATCH_SHAPE_MISMATCH. */
clg_status clg_check_batch_shapes(const clg_tensor_desc *data, const clg_tensor_desc *indices, int64_t batch_dims);

/* Byte sizes of the data, indices and output tensors, checked in that order for 64-bit overflow. */
typedef struct clg_byte_sizes {
    uint64_t data_elems, index_elems, out_elems;
    uint64_t data_bytes, index_bytes, out_bytes;
} clg_byte_sizes;
clg_status clg_check_byte_sizes(clg_size data_elems, clg_size index_elems, clg_size out_elems, size_t elem_size,
                                size_t index_size, clg_byte_sizes *sizes);

#endif
