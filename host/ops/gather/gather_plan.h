/* Validation and normalization of a gather descriptor into the flattened plan [B, O, A, N, I] that
 * everything downstream reads (the CPU reference, the OpenCL launch, the index check, messages):
 * the caller's descriptor stops here. */
#ifndef CLG_GATHER_PLAN_H
#define CLG_GATHER_PLAN_H

#include "clgather.h"
#include "core/index_check.h"

typedef struct clg_gather_plan {
    uint64_t B; /* prod(data.shape[:b]) */
    uint64_t O; /* prod(data.shape[b:a]) */
    uint64_t A; /* data.shape[a] */
    uint64_t N; /* prod(indices.shape[b:]) */
    uint64_t I; /* prod(data.shape[a+1:]), elements */
    size_t elem_size;
    clg_dtype index_type;
    size_t index_size;
    clg_oob_policy policy; /* resolved: ERROR, ZERO or CLAMP */
    int32_t axis;          /* normalized */
    int32_t batch_dims;    /* normalized */
    clg_index_bound bound; /* the indices against A, for the error policy */
    int32_t out_rank;
    int64_t out_shape[CLG_MAX_OUTPUT_RANK];
    uint64_t data_elems, index_elems, out_elems;
    uint64_t data_bytes, index_bytes, out_bytes;
} clg_gather_plan;

/* Validate desc and fill plan. On failure the thread's message names the argument and value. */
clg_status clg_gather_plan_make(const clg_gather_desc *desc, clg_gather_plan *plan);

#endif
