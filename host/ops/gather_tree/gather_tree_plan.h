/* Validation of a GatherTree descriptor into the plan [T, B, W] that everything downstream reads
 * (the CPU reference, the OpenCL launch, messages): the caller's descriptor stops here. */
#ifndef CLG_GATHER_TREE_PLAN_H
#define CLG_GATHER_TREE_PLAN_H

#include "clgather.h"

typedef struct clg_gather_tree_plan {
    clg_dtype type; /* the one element type of all four inputs and the output */
    size_t elem_size;
    uint64_t T, B, W;         /* MAX_TIME, BATCH_SIZE, BEAM_WIDTH */
    int64_t shape[3];         /* {T, B, W}, for messages */
    uint64_t elems;           /* T * B * W: step_ids, parent_ids and the output */
    uint64_t ids_bytes;       /* elems * elem_size */
    uint64_t seq_len_bytes;   /* B * elem_size */
    uint64_t end_token_bytes; /* elem_size */
} clg_gather_tree_plan;

/* Validate desc and fill plan. On failure the thread's message names the argument and value. */
clg_status clg_gather_tree_plan_make(const clg_gather_tree_desc *desc, clg_gather_tree_plan *plan);

#endif
