/* The CPU reference for GatherTree-1: the spec's pseudocode with the decisions of docs/semantics.md,
 * in plain C, written independently of kernels_cl/gather_tree.cl so that each can check the other. */
#include "ops/gather_tree/gather_tree_reference.h"

#include "ops/gather_tree/gather_tree_rules.h"

#include <string.h>

/* Backtrack beam j of batch b into output (inputs already checked by clg_gather_tree_check_beam). */
static void backtrack_beam(const clg_gather_tree_plan *plan, const unsigned char *step_ids,
                           const unsigned char *parent_ids, const unsigned char *max_seq_len,
                           const unsigned char *end_token, unsigned char *output, uint64_t b, uint64_t j)
{
    const size_t es = plan->elem_size;
    const uint64_t row = plan->B * plan->W, batch = b * plan->W, pair = batch + j;
    uint64_t L = 0;
    clg_tree_sequence_length(clg_tree_read(max_seq_len, plan->type, b), plan->T, &L);

    /* final_ids[:, b, j] = end_token */
    for (uint64_t t = 0; t < plan->T; ++t) memcpy(output + (t * row + pair) * es, end_token, es);
    if (L == 0) return; /* the pseudocode would read parent_ids[-1]; we leave the beam all end_token */

    memcpy(output + ((L - 1) * row + pair) * es, step_ids + ((L - 1) * row + pair) * es, es);
    clg_tree_value parent = clg_tree_read(parent_ids, plan->type, (L - 1) * row + pair);
    for (uint64_t level = L - 1; level-- > 0;) {
        uint64_t k = 0;
        if (!clg_tree_beam_index(parent, plan->W, &k)) return; /* cannot happen after the check */
        const uint64_t src = level * row + batch + k;
        memcpy(output + (level * row + pair) * es, step_ids + src * es, es);
        parent = clg_tree_read(parent_ids, plan->type, src);
    }

    /* past the first end_token (within t < L) everything is end_token */
    const clg_tree_value end = clg_tree_read(end_token, plan->type, 0);
    bool finished = false;
    for (uint64_t t = 0; t < L; ++t) {
        unsigned char *at = output + (t * row + pair) * es;
        if (finished)
            memcpy(at, end_token, es);
        else if (clg_tree_values_equal(clg_tree_read(at, plan->type, 0), end))
            finished = true;
    }
}

clg_status clg_gather_tree_reference_run(const void *plan_ptr, const void *const *inputs, void *output)
{
    const clg_gather_tree_plan *plan = plan_ptr;
    const void *step_ids = inputs[0], *parent_ids = inputs[1], *max_seq_len = inputs[2], *end_token = inputs[3];
    if (plan->elems == 0) return CLG_SUCCESS;
    const size_t es = plan->elem_size;
    const unsigned char *seq = max_seq_len, *parents = parent_ids;
    /* A first pass finds any failure before the output is touched. */
    for (uint64_t b = 0; b < plan->B; ++b)
        for (uint64_t j = 0; j < plan->W; ++j) {
            clg_status st =
                clg_gather_tree_check_beam(plan, seq + b * es, parents + b * plan->W * es, plan->B * plan->W, b, j);
            if (st != CLG_SUCCESS) return st;
        }
    for (uint64_t b = 0; b < plan->B; ++b)
        for (uint64_t j = 0; j < plan->W; ++j)
            backtrack_beam(plan, step_ids, parent_ids, max_seq_len, end_token, output, b, j);
    return CLG_SUCCESS;
}
