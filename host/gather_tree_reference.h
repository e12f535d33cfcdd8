/* The CPU reference for GatherTree on a validated plan (defined in reference_gather_tree.c). */
#ifndef CLG_GATHER_TREE_REFERENCE_H
#define CLG_GATHER_TREE_REFERENCE_H

#include "gather_tree_plan.h"

/* Run the reference over host memory. "First failure" is defined as in the OpenCL path: batches in
 * order; within a batch, an invalid max_seq_len[b] first, then beams in order, each reporting the
 * first invalid parent id its backtrack meets. On failure the output is untouched. */
clg_status clg_gather_tree_reference_run(const clg_gather_tree_plan *plan, const void *step_ids, const void *parent_ids,
                                         const void *max_seq_len, const void *end_token, void *output);

#endif
