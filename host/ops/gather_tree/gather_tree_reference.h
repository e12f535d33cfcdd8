/* The CPU reference for GatherTree on a validated plan. */
#ifndef CLG_GATHER_TREE_REFERENCE_H
#define CLG_GATHER_TREE_REFERENCE_H

#include "ops/gather_tree/gather_tree_plan.h"

/* The operation's reference (operation.h): inputs are step_ids, parent_ids, max_seq_len and
 * end_token in host memory. "First failure" is defined as in the OpenCL path: batches in order;
 * within a batch, an invalid max_seq_len[b] first, then beams in order, each reporting the first
 * invalid parent id its backtrack meets. On failure the output is untouched. */
clg_status clg_gather_tree_reference_run(const void *plan, const void *const *inputs, void *output);

#endif
