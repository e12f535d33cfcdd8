/* Validation of a GatherTree descriptor into the plan [T, B, W] that the CPU reference and the
 * OpenCL dispatch both read. */
#ifndef CLG_GATHER_TREE_PLAN_H
#define CLG_GATHER_TREE_PLAN_H

#include "clgather.h"

#include <stdbool.h>

typedef struct clg_gather_tree_plan {
    clg_dtype type; /* the one element type of all four inputs and the output */
    size_t elem_size;
    uint64_t T, B, W;     /* MAX_TIME, BATCH_SIZE, BEAM_WIDTH */
    int64_t shape[3];     /* {T, B, W}, for messages */
    uint64_t elems;       /* T * B * W: step_ids, parent_ids and the output */
    uint64_t ids_bytes;   /* elems * elem_size */
    uint64_t seq_len_bytes; /* B * elem_size */
    uint64_t end_token_bytes; /* elem_size */
} clg_gather_tree_plan;

/* Validate desc and fill plan. On failure the thread's message names the argument and value. */
clg_status clg_plan_gather_tree(const clg_gather_tree_desc *desc, clg_gather_tree_plan *plan);

/* Whether any output element exists (T, B and W all non-zero). */
static inline bool clg_gather_tree_plan_is_empty(const clg_gather_tree_plan *plan) { return plan->elems == 0; }

/* Check host pointers and byte counts against the plan (the reference and the synchronous call). */
clg_status clg_check_gather_tree_host_buffers(const clg_gather_tree_plan *plan, const void *step_ids,
                                              size_t step_ids_bytes, const void *parent_ids, size_t parent_ids_bytes,
                                              const void *max_seq_len, size_t max_seq_len_bytes,
                                              const void *end_token, size_t end_token_bytes, const void *output,
                                              size_t output_bytes);

#endif
