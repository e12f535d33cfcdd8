/* Validation and normalization of a GatherND descriptor into the plan everything downstream reads
 * (the CPU reference, the OpenCL launch, the index check, messages): the caller's descriptor stops
 * here.
 *
 * With b = batch_dims and m = indices.shape[-1], every call reduces to [B, A, N, I]:
 *     B = prod(data.shape[:b])      A = prod(data.shape[b:b+m])  (the rows a tuple can select)
 *     N = prod(indices.shape[b:-1]) I = prod(data.shape[b+m:])   (the slice, a row of I elements)
 *     out[bb, n, :] = data[bb, row(tuple(bb, n)), :], tuple(bb, n) at indices[(bb*N + n)*m ..]
 * where row() combines the m components, each checked against its own extent data.shape[b+j]. */
#ifndef CLG_GATHER_ND_PLAN_H
#define CLG_GATHER_ND_PLAN_H

#include "clgather.h"
#include "core/gather_io.h"
#include "core/index_check.h"

typedef struct clg_gather_nd_plan {
    clg_index_bound bound; /* the tuples against their extents, for the error policy; first (core/index_check.h) */
    clg_gather_io io;      /* types, policy, sizes, the output's shape */
    int32_t batch_dims;
    int32_t tuple_len;                   /* m */
    int64_t tuple_extents[CLG_MAX_RANK]; /* data.shape[b .. b+m) */
    uint64_t B, A, N, I;
} clg_gather_nd_plan;

/* Validate desc and fill plan. On failure the thread's message names the argument and value. */
clg_status clg_gather_nd_plan_make(const clg_gather_nd_desc *desc, clg_gather_nd_plan *plan);

#endif
