/* GatherND's kernel launch: the plan's [B, A, N, I] as row copies (core/row_gather.h), the slice a
 * row and the index tuple computing it (kernels_cl/gather_nd_rows_cpu.cl, gather_nd_rows_gpu.cl). */
#ifndef CLG_GATHER_ND_LAUNCH_H
#define CLG_GATHER_ND_LAUNCH_H

#include "core/operation.h"
#include "ops/gather_nd/gather_nd_plan.h"

/* The operation's launch (operation.h): buffers are data, indices and the output. A tuple with a component
 * out of range gives a zero slice, or each component clamps under CLG_OOB_CLAMP; under the error policy the
 * check has run first, and the kernel writes nothing if its gate's flag is set. */
clg_status clg_gather_nd_launch(clg_context *ctx, const void *plan, cl_command_queue queue, const clg_buffer *buffers,
                                cl_mem gate, cl_uint num_events, const cl_event *wait_list, cl_event *done);

#endif
