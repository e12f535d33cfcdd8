/* An operation over data and indices into one output (Gather, GatherElements, GatherND) whose plan
 * starts with the clg_index_bound of its indices, so that the shared index check
 * (core/index_check.h) is its error policy, and holds a clg_gather_io named io (core/gather_io.h).
 * CLG_DEFINE_INDEXED_OPERATION defines, in the operation's entry file, its clg_operation, its plan
 * function and the five public calls of include/clgather.h, each a line into core/planned_call.h:
 *     clg_<name>_output_shape, clg_<name>_sizes, clg_<name>_enqueue, clg_<name>, clg_<name>_reference
 *   name         the public prefix after clg_ (gather, gather_elements, gather_nd)
 *   desc_type    its descriptor type; plan_type, plan_make: its plan and the function that makes it
 *   reference_run, launch_run  its CPU reference and its kernel launch (operation.h)
 *   widest_move  the widest move of its kernels in bytes: a scratch output keeps the caller's output
 *                offset modulo this, so that the same kernel specialization runs */
#ifndef CLG_INDEXED_OPERATION_H
#define CLG_INDEXED_OPERATION_H

#include "core/gather_io.h"
#include "core/index_check.h"
#include "core/planned_call.h"

#include <stddef.h>

#define CLG_DEFINE_INDEXED_OPERATION(name, desc_type, plan_type, plan_make, reference_run, launch_run, widest_move)    \
    _Static_assert(offsetof(plan_type, bound) == 0, "core/index_check.h reads the bound at the plan's start");         \
                                                                                                                       \
    static const clg_operation name##_operation = {                                                                    \
        .plan_size = sizeof(plan_type),                                                                                \
        .scratch_buffer_name = "verify scratch",                                                                       \
        .device_supports = NULL,                                                                                       \
        .reference = reference_run,                                                                                    \
        .host_check = clg_index_plan_host_check,                                                                       \
        .check = clg_index_plan_check,                                                                                 \
        .locate = clg_index_plan_locate,                                                                               \
        .report = clg_index_plan_report,                                                                               \
        .launch = launch_run,                                                                                          \
    };                                                                                                                 \
                                                                                                                       \
    static clg_status name##_plan_run(const void *desc, void *plan_ptr, clg_run_plan *run)                             \
    {                                                                                                                  \
        plan_type *plan = plan_ptr;                                                                                    \
        clg_status st = plan_make(desc, plan);                                                                         \
        if (st == CLG_SUCCESS) *run = clg_gather_io_run_plan(&name##_operation, plan, &plan->io, widest_move);         \
        return st;                                                                                                     \
    }                                                                                                                  \
                                                                                                                       \
    clg_status clg_##name##_output_shape(const desc_type *desc, int32_t *out_rank,                                     \
                                         int64_t out_shape[CLG_MAX_OUTPUT_RANK])                                       \
    {                                                                                                                  \
        plan_type plan;                                                                                                \
        return clg_planned_output_shape(name##_plan_run, desc, &plan, out_rank, out_shape);                            \
    }                                                                                                                  \
                                                                                                                       \
    clg_status clg_##name##_sizes(const desc_type *desc, uint64_t *data_bytes, uint64_t *indices_bytes,                \
                                  uint64_t *output_bytes)                                                              \
    {                                                                                                                  \
        plan_type plan;                                                                                                \
        uint64_t *const inputs[] = {data_bytes, indices_bytes};                                                        \
        return clg_planned_sizes(name##_plan_run, desc, &plan, inputs, output_bytes);                                  \
    }                                                                                                                  \
                                                                                                                       \
    clg_status clg_##name##_enqueue(clg_context *ctx, const desc_type *desc, cl_command_queue queue, cl_mem data,      \
                                    size_t data_offset, cl_mem indices, size_t indices_offset, cl_mem output,          \
                                    size_t output_offset, cl_uint num_events, const cl_event *wait_list,               \
                                    cl_event *out_event)                                                               \
    {                                                                                                                  \
        plan_type plan;                                                                                                \
        const clg_buffer buffers[] = {{data, data_offset}, {indices, indices_offset}, {output, output_offset}};        \
        return clg_planned_enqueue(ctx, "clg_" #name "_enqueue", name##_plan_run, desc, &plan, queue, buffers,         \
                                   num_events, wait_list, out_event);                                                  \
    }                                                                                                                  \
                                                                                                                       \
    clg_status clg_##name(clg_context *ctx, const desc_type *desc, const void *data, size_t data_bytes,                \
                          const void *indices, size_t indices_bytes, void *output, size_t output_bytes)                \
    {                                                                                                                  \
        plan_type plan;                                                                                                \
        const clg_host_buffer host[] = {{data, data_bytes}, {indices, indices_bytes}, {output, output_bytes}};         \
        return clg_planned_sync(ctx, name##_plan_run, desc, &plan, host);                                              \
    }                                                                                                                  \
                                                                                                                       \
    clg_status clg_##name##_reference(const desc_type *desc, const void *data, size_t data_bytes, const void *indices, \
                                      size_t indices_bytes, void *output, size_t output_bytes)                         \
    {                                                                                                                  \
        plan_type plan;                                                                                                \
        const clg_host_buffer host[] = {{data, data_bytes}, {indices, indices_bytes}, {output, output_bytes}};         \
        return clg_planned_reference(name##_plan_run, desc, &plan, host);                                              \
    }

#endif
