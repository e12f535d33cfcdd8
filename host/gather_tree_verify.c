#include "gather_tree_verify.h"

#include "gather_tree_reference.h"
#include "status.h"
#include "verify.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

clg_status clg_verify_gather_tree(const clg_gather_tree_plan *plan, const void *step_ids, const void *parent_ids,
                                  const void *max_seq_len, const void *end_token, const void *device_output)
{
    void *expected = malloc(plan->ids_bytes ? plan->ids_bytes : 1);
    if (!expected)
        return clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "verify: cannot allocate %" PRIu64 " bytes", plan->ids_bytes);
    clg_status st = clg_gather_tree_reference_run(plan, step_ids, parent_ids, max_seq_len, end_token, expected);
    if (st != CLG_SUCCESS) {
        char reason[512];
        snprintf(reason, sizeof reason, "%s", clg_last_error_message());
        st = clg_fail(CLG_ERR_VERIFY_MISMATCH, "verify: the device succeeded but the CPU reference failed: %s", reason);
    } else {
        st = clg_verify_compare("output", device_output, expected, plan->elems, plan->elem_size, plan->shape, 3);
    }
    free(expected);
    return st;
}
