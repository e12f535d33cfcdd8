/* Validation and normalization of a gather descriptor into the flattened plan [B, O, A, N, I] that
 * everything downstream reads (the CPU reference, the OpenCL launch, the index check, messages):
 * the caller's descriptor stops here. */
#ifndef CLG_GATHER_PLAN_H
#define CLG_GATHER_PLAN_H

#include "clgather.h"
#include "core/gather_io.h"
#include "core/index_check.h"

typedef struct clg_gather_plan {
    clg_index_bound bound; /* the indices against A, for the error policy; first (core/index_check.h) */
    uint64_t B;            /* prod(data.shape[:b]) */
    uint64_t O;            /* prod(data.shape[b:a]) */
    uint64_t A;            /* data.shape[a] */
    uint64_t N;            /* prod(indices.shape[b:]) */
    uint64_t I;            /* prod(data.shape[a+1:]), elements */
    int32_t axis;          /* normalized */
    int32_t batch_dims;    /* normalized */
    clg_gather_io io;      /* types, policy, sizes, the output's shape */
} clg_gather_plan;

/* Validate desc and fill plan. On failure the thread's message names the argument and value. */
clg_status clg_gather_plan_make(const clg_gather_desc *desc, clg_gather_plan *plan);

#endif
