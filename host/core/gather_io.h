/* What an operation over data and indices into one output (Gather, GatherElements, GatherND) knows of
 * its tensors once planned, and the run plan (core/operation.h) that describes them to the runner:
 * operands "data", "indices" (its cl_mem offset aligned to the index type) and "output". */
#ifndef CLG_GATHER_IO_H
#define CLG_GATHER_IO_H

#include "core/operation.h"
#include "core/plan_checks.h"

typedef struct clg_gather_io {
    size_t elem_size; /* of data and output */
    clg_dtype index_type;
    size_t index_size;
    clg_oob_policy policy; /* resolved: ERROR, ZERO or CLAMP */
    clg_byte_sizes size;
    int32_t out_rank;
    int64_t out_shape[CLG_MAX_OUTPUT_RANK];
} clg_gather_io;

/* The element sizes of data and indices, and the policy resolved for the preset. */
void clg_gather_io_types(clg_gather_io *io, clg_dtype data_type, clg_dtype index_type, clg_oob_policy policy,
                         bool error_by_default);

/* The run plan of op on plan: under the error policy a check kernel runs before the output is
 * written; a scratch output keeps the caller's output offset modulo scratch_offset_modulus (the
 * widest move of the operation's kernels). */
clg_run_plan clg_gather_io_run_plan(const clg_operation *op, const void *plan, const clg_gather_io *io,
                                    size_t scratch_offset_modulus);

#endif
