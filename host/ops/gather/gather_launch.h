/* Gather's kernel launch: the plan's [B, O, A, N, I] as row copies (core/row_gather.h), one index per
 * row (kernels_cl/gather_rows_cpu.cl, gather_rows_gpu.cl). */
#ifndef CLG_GATHER_LAUNCH_H
#define CLG_GATHER_LAUNCH_H

#include "core/operation.h"
#include "ops/gather/gather_plan.h"

/* The operation's launch (operation.h): buffers are data, indices and the output. Out-of-range indices give
 * zeros, or clamp under CLG_OOB_CLAMP; under the error policy the check has run first, and the kernel
 * writes nothing if its gate's flag is set. */
clg_status clg_gather_launch(clg_context *ctx, const void *plan, cl_command_queue queue, const clg_buffer *buffers,
                             cl_mem gate, cl_uint num_events, const cl_event *wait_list, cl_event *done);

#endif
