/* The public calls of an operation around its plan function: clear the thread's message, check the
 * enqueue arguments, plan into the caller's plan storage, and hand the plan to the runner (run.h).
 * Each operation's entry points are then one line each. */
#ifndef CLG_PLANNED_CALL_H
#define CLG_PLANNED_CALL_H

#include "core/run.h"

/* Validate the operation's descriptor into its plan (storage of the operation's plan_size) and
 * describe it to the runner. */
typedef clg_status (*clg_plan_fn)(const void *desc, void *plan, clg_run_plan *run);

/* The enqueue call: `entry` names the public function in messages; buffers: inputs, then the output. */
clg_status clg_planned_enqueue(clg_context *ctx, const char *entry, clg_plan_fn plan_fn, const void *desc, void *plan,
                               cl_command_queue queue, const clg_buffer *buffers, cl_uint num_events,
                               const cl_event *wait_list, cl_event *out_event);

/* The synchronous call over host memory (ctx must not be NULL). */
clg_status clg_planned_sync(clg_context *ctx, clg_plan_fn plan_fn, const void *desc, void *plan,
                            const clg_host_buffer *host);

/* The output's shape (out_shape holds CLG_MAX_OUTPUT_RANK entries), from the plan. */
clg_status clg_planned_output_shape(clg_plan_fn plan_fn, const void *desc, void *plan, int32_t *out_rank,
                                    int64_t *out_shape);

/* The byte sizes of the inputs, in operand order, then the output; any pointer may be NULL. */
clg_status clg_planned_sizes(clg_plan_fn plan_fn, const void *desc, void *plan, uint64_t *const *input_bytes,
                             uint64_t *output_bytes);

/* The CPU reference over host memory. */
clg_status clg_planned_reference(clg_plan_fn plan_fn, const void *desc, void *plan, const clg_host_buffer *host);

#endif
