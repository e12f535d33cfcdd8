/* The CPU reference for GatherND: the rules of docs/semantics.md in plain C, written independently of
 * the OpenCL kernels so that each can check the other. */
#include "ops/gather_nd/gather_nd_reference.h"

#include "core/index_value.h"

#include <string.h>

/* The slice a tuple selects under the plan's policy, as a row of the batch's A rows; false means
 * "write zeros". Zero: any component out of range rejects the tuple; clamp: each is clamped alone. */
static bool select_slice(const clg_gather_nd_plan *plan, const void *indices, uint64_t first, uint64_t *row)
{
    uint64_t r = 0;
    for (int32_t j = 0; j < plan->tuple_len; ++j) {
        const uint64_t extent = (uint64_t)plan->tuple_extents[j];
        const clg_integer v = clg_read_integer(indices, plan->io.index_type, first + (uint64_t)j);
        uint64_t coordinate;
        if (!clg_index_in_range(v, extent, &coordinate)) {
            if (plan->io.policy != CLG_OOB_CLAMP || extent == 0) return false;
            coordinate = !v.is_unsigned && v.s < 0 ? 0 : extent - 1;
        }
        r = r * extent + coordinate;
    }
    *row = r;
    return true;
}

clg_status clg_gather_nd_reference_run(const void *plan_ptr, const void *const *inputs, void *output)
{
    const clg_gather_nd_plan *plan = plan_ptr;
    const void *indices = inputs[1];
    if (plan->io.size.out_elems == 0) return CLG_SUCCESS;
    if (plan->io.policy == CLG_OOB_ERROR) {
        clg_status st = clg_index_check_host(&plan->bound, indices, 0, plan->io.size.index_elems);
        if (st != CLG_SUCCESS) return st;
    }
    const size_t slice_bytes = (size_t)(plan->I * plan->io.elem_size);
    const unsigned char *src = inputs[0];
    unsigned char *dst = output;
    for (uint64_t bb = 0; bb < plan->B; ++bb)
        for (uint64_t n = 0; n < plan->N; ++n) {
            const uint64_t tuple = bb * plan->N + n;
            uint64_t row;
            unsigned char *out_slice = dst + tuple * slice_bytes;
            if (select_slice(plan, indices, tuple * (uint64_t)plan->tuple_len, &row))
                memcpy(out_slice, src + (bb * plan->A + row) * slice_bytes, slice_bytes);
            else
                memset(out_slice, 0, slice_bytes);
        }
    return CLG_SUCCESS;
}
