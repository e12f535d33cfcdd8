/* Running a validated GatherTree on an OpenCL queue: the device-support check, the kernel
 * specialization, and learning (and naming) the first invalid input before anything reaches the
 * caller's output. */
#ifndef CLG_GATHER_TREE_DISPATCH_H
#define CLG_GATHER_TREE_DISPATCH_H

#include "context.h"
#include "gather_tree_plan.h"

/* The four inputs on the device; byte offsets, each a multiple of the element size. */
typedef struct clg_gather_tree_inputs {
    cl_mem step_ids;
    size_t step_ids_offset;
    cl_mem parent_ids;
    size_t parent_ids_offset;
    cl_mem max_seq_len;
    size_t max_seq_len_offset;
    cl_mem end_token;
    size_t end_token_offset;
} clg_gather_tree_inputs;

/* CLG_ERR_UNSUPPORTED_BY_DEVICE when the element type needs an extension the device lacks (f16:
 * cl_khr_fp16, f64: cl_khr_fp64). */
clg_status clg_gather_tree_device_supports(const clg_context *ctx, const clg_gather_tree_plan *plan);

/* Backtrack a non-empty plan into target (offset 0, at least plan->ids_bytes, owned by the library)
 * after the wait list, and wait for it. If a max_seq_len or a followed parent id is invalid, read the
 * inputs needed back and fail naming batch, time, beam and value (target then holds garbage).
 * On success *done receives the kernel's event. */
clg_status clg_dispatch_gather_tree(clg_context *ctx, const clg_gather_tree_plan *plan, cl_command_queue queue,
                                    const clg_gather_tree_inputs *inputs, cl_mem target, cl_uint num_events,
                                    const cl_event *wait_list, cl_event *done);

#endif
