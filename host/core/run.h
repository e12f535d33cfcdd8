/* The one operation runner. Every entry point of every operation is: validate into a plan, then one
 * of the three calls below, which do the rest the same way for all operations: argument and buffer
 * checks, the empty-work marker, the error-flag protocol (check, wait for 4 bytes, report, output
 * untouched), scratch -> verify -> copy, and the synchronous host-memory path. */
#ifndef CLG_RUN_H
#define CLG_RUN_H

#include "core/operation.h"

/* The checks every enqueue call makes before it plans: ctx, an OpenCL context, queue, wait list.
 * `entry` names the public function in messages. */
clg_status clg_run_check_enqueue_call(const clg_context *ctx, const char *entry, cl_command_queue queue,
                                      cl_uint num_events, const cl_event *wait_list);

/* Enqueue a planned call on the caller's queue; buffers: one per operand, inputs then the output. */
clg_status clg_run_enqueue(clg_context *ctx, const clg_run_plan *run, cl_command_queue queue, const clg_buffer *buffers,
                           cl_uint num_events, const cl_event *wait_list, cl_event *out_event);

/* The synchronous call over host memory: copy in, run on the context's queue, copy out (the CPU
 * reference for a reference context). host: one per operand, inputs then the output. */
clg_status clg_run_sync(clg_context *ctx, const clg_run_plan *run, const clg_host_buffer *host);

/* The CPU reference over host memory, after the host buffer checks. */
clg_status clg_run_reference(const clg_run_plan *run, const clg_host_buffer *host);

#endif
