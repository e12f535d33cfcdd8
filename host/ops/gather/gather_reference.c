/* The CPU reference for Gather: the rules of docs/semantics.md in plain C, written independently of
 * the OpenCL kernels so that each can check the other. */
#include "ops/gather/gather_reference.h"

#include "core/index_value.h"

#include <string.h>

/* The data row an index selects under the plan's policy; false means "write zeros". */
static bool select_row(const clg_gather_plan *plan, clg_integer v, uint64_t *row)
{
    if (clg_index_in_range(v, plan->A, row)) return true;
    if (plan->io.policy != CLG_OOB_CLAMP || plan->A == 0) return false;
    bool below = v.is_unsigned ? false : v.s < 0;
    *row = below ? 0 : plan->A - 1;
    return true;
}

clg_status clg_gather_reference_run(const void *plan_ptr, const void *const *inputs, void *output)
{
    const clg_gather_plan *plan = plan_ptr;
    const void *indices = inputs[1];
    if (plan->io.size.out_elems == 0) return CLG_SUCCESS;
    if (plan->io.policy == CLG_OOB_ERROR) {
        clg_status st = clg_index_check_host(&plan->bound, indices, 0, plan->io.size.index_elems);
        if (st != CLG_SUCCESS) return st;
    }
    const size_t row_bytes = (size_t)(plan->I * plan->io.elem_size);
    const unsigned char *src = inputs[0];
    unsigned char *dst = output;
    for (uint64_t bb = 0; bb < plan->B; ++bb)
        for (uint64_t o = 0; o < plan->O; ++o)
            for (uint64_t n = 0; n < plan->N; ++n) {
                uint64_t row;
                clg_integer v = clg_read_integer(indices, plan->io.index_type, bb * plan->N + n);
                unsigned char *out_row = dst + (((bb * plan->O + o) * plan->N + n) * row_bytes);
                if (select_row(plan, v, &row))
                    memcpy(out_row, src + ((bb * plan->O + o) * plan->A + row) * row_bytes, row_bytes);
                else
                    memset(out_row, 0, row_bytes);
            }
    return CLG_SUCCESS;
}
