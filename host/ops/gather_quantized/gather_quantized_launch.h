/* The dequantizing gather's kernel launch: a specialization chosen from the plan and the device,
 * enqueued over the CPU mapping (runs of units per work-item) or the GPU mapping (adjacent pieces). */
#ifndef CLG_GATHER_QUANTIZED_LAUNCH_H
#define CLG_GATHER_QUANTIZED_LAUNCH_H

#include "core/operation.h"
#include "ops/gather_quantized/gather_quantized_plan.h"

/* The operation's launch (operation.h): buffers are data, indices, scales, zero_points and the
 * output. Out-of-range indices give zeros, or clamp under CLG_OOB_CLAMP; the error policy has been
 * applied before, or, with a gate (a failure record), the kernel writes nothing if its flag is set. */
clg_status clg_gather_quantized_launch(clg_context *ctx, const void *plan, cl_command_queue queue,
                                       const clg_buffer *buffers, cl_mem gate, cl_uint num_events,
                                       const cl_event *wait_list, cl_event *done);

#endif
