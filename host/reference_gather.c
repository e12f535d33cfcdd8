/* The CPU reference for Gather: the semantics of docs/semantics.md in plain C, written independently
 * of the OpenCL kernels so that each can check the other. */
#include "index_check.h"
#include "index_value.h"
#include "plan.h"
#include "status.h"

#include <string.h>

/* The data row an index selects under the plan's policy; false means "write zeros". */
static bool select_row(const clg_gather_plan *plan, clg_integer v, uint64_t *row)
{
    if (clg_index_in_range(v, plan->A, row)) return true;
    if (plan->policy != CLG_OOB_CLAMP || plan->A == 0) return false;
    bool below = v.is_unsigned ? false : v.s < 0;
    *row = below ? 0 : plan->A - 1;
    return true;
}

clg_status clg_reference_run(const clg_gather_desc *desc, const clg_gather_plan *plan, const void *data,
                             const void *indices, void *output)
{
    if (clg_plan_is_empty(plan)) return CLG_SUCCESS;
    if (plan->policy == CLG_OOB_ERROR) {
        clg_status st = clg_check_indices_host(desc, plan, indices, 0, plan->index_elems);
        if (st != CLG_SUCCESS) return st;
    }
    const size_t row_bytes = (size_t)(plan->I * plan->elem_size);
    const unsigned char *src = data;
    unsigned char *dst = output;
    for (uint64_t bb = 0; bb < plan->B; ++bb)
        for (uint64_t o = 0; o < plan->O; ++o)
            for (uint64_t n = 0; n < plan->N; ++n) {
                uint64_t row;
                clg_integer v = clg_read_integer(indices, plan->index_type, bb * plan->N + n);
                unsigned char *out_row = dst + (((bb * plan->O + o) * plan->N + n) * row_bytes);
                if (select_row(plan, v, &row))
                    memcpy(out_row, src + ((bb * plan->O + o) * plan->A + row) * row_bytes, row_bytes);
                else
                    memset(out_row, 0, row_bytes);
            }
    return CLG_SUCCESS;
}

clg_status clg_gather_reference(const clg_gather_desc *desc, const void *data, size_t data_bytes,
                                const void *indices, size_t indices_bytes, void *output, size_t output_bytes)
{
    clg_clear_error();
    clg_gather_plan plan;
    clg_status st = clg_plan_gather(desc, &plan);
    if (st == CLG_SUCCESS)
        st = clg_check_gather_host_buffers(&plan, data, data_bytes, indices, indices_bytes, output, output_bytes);
    if (st == CLG_SUCCESS) st = clg_reference_run(desc, &plan, data, indices, output);
    return st;
}
