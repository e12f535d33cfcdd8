/* The CPU reference for GatherElements: the rules of docs/semantics.md in plain C, element by element
 * from the coordinates of each output position, written independently of the OpenCL kernels (which
 * walk the plan's merged dimensions instead) so that each can check the other. */
#include "ops/gather_elements/gather_elements_reference.h"

#include "core/index_value.h"

#include <string.h>

/* The axis coordinate an index selects under the plan's policy; false means "write zeros". */
static bool select_coordinate(const clg_gather_elements_plan *plan, clg_integer v, uint64_t *coordinate)
{
    if (clg_index_in_range(v, plan->A, coordinate)) return true;
    if (plan->io.policy != CLG_OOB_CLAMP || plan->A == 0) return false;
    *coordinate = !v.is_unsigned && v.s < 0 ? 0 : plan->A - 1;
    return true;
}

clg_status clg_gather_elements_reference_run(const void *plan_ptr, const void *const *inputs, void *output)
{
    const clg_gather_elements_plan *plan = plan_ptr;
    const void *indices = inputs[1];
    if (plan->io.size.out_elems == 0) return CLG_SUCCESS;
    if (plan->io.policy == CLG_OOB_ERROR) {
        clg_status st = clg_index_check_host(&plan->bound, indices, 0, plan->io.size.index_elems);
        if (st != CLG_SUCCESS) return st;
    }
    const unsigned char *src = inputs[0];
    unsigned char *dst = output;
    const size_t elem = plan->io.elem_size;
    uint64_t position[CLG_MAX_RANK] = {0}; /* of output element p, in the indices' shape */
    for (uint64_t p = 0; p < plan->io.size.out_elems; ++p) {
        uint64_t coordinate;
        if (select_coordinate(plan, clg_read_integer(indices, plan->io.index_type, p), &coordinate)) {
            uint64_t offset = 0;
            for (int32_t d = 0; d < plan->rank; ++d)
                offset = offset * (uint64_t)plan->data_shape[d] + (d == plan->axis ? coordinate : position[d]);
            memcpy(dst + p * elem, src + offset * elem, elem);
        } else {
            memset(dst + p * elem, 0, elem);
        }
        for (int32_t d = plan->rank - 1; d >= 0; --d) {
            if (++position[d] < (uint64_t)plan->io.out_shape[d]) break;
            position[d] = 0;
        }
    }
    return CLG_SUCCESS;
}
