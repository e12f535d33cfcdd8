/* Verify mode for GatherTree: recompute with the CPU reference and compare bit for bit. */
#ifndef CLG_GATHER_TREE_VERIFY_H
#define CLG_GATHER_TREE_VERIFY_H

#include "gather_tree_plan.h"

/* Compare a device result (host copy) against the reference over the same host inputs; fails with
 * CLG_ERR_VERIFY_MISMATCH naming the first differing element. */
clg_status clg_verify_gather_tree(const clg_gather_tree_plan *plan, const void *step_ids, const void *parent_ids,
                                  const void *max_seq_len, const void *end_token, const void *device_output);

#endif
