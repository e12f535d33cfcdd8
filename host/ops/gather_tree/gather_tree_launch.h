/* GatherTree's kernel launch and its error flag: the backtrack kernel records the first beam whose
 * max_seq_len or followed parent id is invalid (CLG_FLAG_INLINE), and the report names it exactly as
 * the CPU reference would. */
#ifndef CLG_GATHER_TREE_LAUNCH_H
#define CLG_GATHER_TREE_LAUNCH_H

#include "core/operation.h"
#include "ops/gather_tree/gather_tree_plan.h"

/* The operation's launch (operation.h): buffers are step_ids, parent_ids, max_seq_len, end_token
 * and the output (offsets multiples of the element size); the first failure goes into the record. */
clg_status clg_gather_tree_launch(clg_context *ctx, const void *plan, cl_command_queue queue, const clg_buffer *buffers,
                                  cl_mem record, cl_uint num_events, const cl_event *wait_list, cl_event *done);

/* The operation's locate: walk the flagged beams again on the device and record the first failure. */
clg_status clg_gather_tree_enqueue_locate(clg_context *ctx, const void *plan, cl_command_queue queue,
                                          const clg_buffer *inputs, cl_mem record, cl_uint num_events,
                                          const cl_event *wait_list, cl_event *done);

/* The operation's report: name the recorded failure. */
clg_status clg_gather_tree_report_failure(const void *plan, const clg_failure_record *record);

#endif
