/* Choosing a kernel specialization from the plan and enqueueing it. Everything here assumes the
 * descriptor and the buffers were validated. */
#ifndef CLG_GATHER_DISPATCH_H
#define CLG_GATHER_DISPATCH_H

#include "context.h"
#include "plan.h"

typedef struct clg_gather_buffers {
    cl_mem data;
    size_t data_offset;
    cl_mem indices;
    size_t indices_offset; /* bytes, a multiple of the index size */
    cl_mem output;
    size_t output_offset;
} clg_gather_buffers;

/* Enqueue the row gather. out-of-range indices give zeros (or clamp under CLG_OOB_CLAMP); the error
 * policy must have been applied before. *done receives the kernel's event. */
clg_status clg_dispatch_gather(clg_context *ctx, const clg_gather_plan *plan, cl_command_queue queue,
                               const clg_gather_buffers *bufs, cl_uint num_events, const cl_event *wait_list,
                               cl_event *done);

/* The error policy on the device: run the index check after the wait list, wait for it, and fail
 * with CLG_ERR_INDEX_OUT_OF_RANGE naming the first bad index. *done receives the check's event. */
clg_status clg_dispatch_index_check(clg_context *ctx, const clg_gather_desc *desc, const clg_gather_plan *plan,
                                    cl_command_queue queue, const clg_gather_buffers *bufs, cl_uint num_events,
                                    const cl_event *wait_list, cl_event *done);

/* Run a validated gather on a queue: the error policy (unless indices_checked), the gather, and
 * verify mode. On failure nothing has been written to the output buffer. */
clg_status clg_gather_run_on_queue(clg_context *ctx, const clg_gather_desc *desc, const clg_gather_plan *plan,
                                   cl_command_queue queue, const clg_gather_buffers *bufs, int indices_checked,
                                   cl_uint num_events, const cl_event *wait_list, cl_event *out_event);

#endif
