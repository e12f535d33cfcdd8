/* Validation and normalization of a GatherElements descriptor into the plan everything downstream
 * reads (the CPU reference, the OpenCL launch, the index check, messages): the caller's descriptor
 * stops here.
 *
 * out[p] = data[p with p[axis] replaced by idx(p)]: the output and the indices share one flat order,
 * and the data offset of output element p is base(p) + row * axis_stride, where base(p) sums the
 * coordinates of p other than the axis times the data's strides. The walk describes base(p) for the
 * kernels: the output's dimensions, those of extent 1 dropped and neighbours that step through the
 * data contiguously merged, with their data strides (0 for the axis, whose data offset is the row's). */
#ifndef CLG_GATHER_ELEMENTS_PLAN_H
#define CLG_GATHER_ELEMENTS_PLAN_H

#include "clgather.h"
#include "core/gather_io.h"
#include "core/index_check.h"

typedef struct clg_gather_elements_plan {
    clg_index_bound bound; /* the indices against A, for the error policy; first (core/index_check.h) */
    clg_gather_io io;      /* types, policy, sizes, the output's shape (the indices') */
    int32_t axis;          /* normalized */
    int32_t rank;          /* of data, indices and output */
    int64_t data_shape[CLG_MAX_RANK];
    uint64_t A;           /* data.shape[axis] */
    uint64_t axis_stride; /* prod(data.shape[axis+1:]): data elements between consecutive rows */
    int32_t walk_rank;    /* 1..CLG_MAX_RANK */
    uint64_t walk_extent[CLG_MAX_RANK], walk_stride[CLG_MAX_RANK];
} clg_gather_elements_plan;

/* Validate desc and fill plan. On failure the thread's message names the argument and value. */
clg_status clg_gather_elements_plan_make(const clg_gather_elements_desc *desc, clg_gather_elements_plan *plan);

#endif
