#include "ops/gather/gather_launch.h"

#include "core/row_gather.h"
#include "kernel_table.h"

clg_status clg_gather_launch(clg_context *ctx, const void *plan_ptr, cl_command_queue queue, const clg_buffer *buffers,
                             cl_mem gate, cl_uint num_events, const cl_event *wait_list, cl_event *done)
{
    const clg_gather_plan *plan = plan_ptr;
    const clg_row_gather rows = clg_row_gather_of(&plan->io, plan->B, plan->O, plan->A, plan->N, plan->I,
                                                  &clg_kernel_gather_rows_cpu, &clg_kernel_gather_rows_gpu);
    return clg_row_gather_launch(ctx, &rows, queue, buffers, gate, num_events, wait_list, done);
}
