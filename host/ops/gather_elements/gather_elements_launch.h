/* GatherElements' kernel launch: choosing a kernel specialization from the plan, the device and the
 * buffers (kernels_cl/gather_elements_cpu.cl, gather_elements_gpu.cl), and enqueueing it. */
#ifndef CLG_GATHER_ELEMENTS_LAUNCH_H
#define CLG_GATHER_ELEMENTS_LAUNCH_H

#include "core/operation.h"
#include "ops/gather_elements/gather_elements_plan.h"

/* The operation's launch (operation.h): buffers are data, indices and the output. Out-of-range indices give
 * zeros, or clamp under CLG_OOB_CLAMP; under the error policy the check has run first, and the kernel
 * writes nothing if its gate's flag is set. */
clg_status clg_gather_elements_launch(clg_context *ctx, const void *plan, cl_command_queue queue,
                                      const clg_buffer *buffers, cl_mem gate, cl_uint num_events,
                                      const cl_event *wait_list, cl_event *done);

#endif
