#include "ops/gather_nd/gather_nd_launch.h"

#include "core/row_gather.h"
#include "kernel_table.h"

#include <string.h>

clg_status clg_gather_nd_launch(clg_context *ctx, const void *plan_ptr, cl_command_queue queue,
                                const clg_buffer *buffers, cl_mem gate, cl_uint num_events, const cl_event *wait_list,
                                cl_event *done)
{
    const clg_gather_nd_plan *plan = plan_ptr;
    /* no outer dimensions between the batch and the tuple's: O = 1 */
    clg_row_gather rows = clg_row_gather_of(&plan->io, plan->B, 1, plan->A, plan->N, plan->I,
                                            &clg_kernel_gather_nd_rows_cpu, &clg_kernel_gather_nd_rows_gpu);
    rows.tuple_len = plan->tuple_len;
    memcpy(rows.tuple_dims, plan->tuple_extents, sizeof rows.tuple_dims);
    return clg_row_gather_launch(ctx, &rows, queue, buffers, gate, num_events, wait_list, done);
}
