/* Gather's kernel launch: choosing a kernel specialization from the plan, the device and the
 * buffers, and enqueueing it. */
#ifndef CLG_GATHER_LAUNCH_H
#define CLG_GATHER_LAUNCH_H

#include "core/operation.h"
#include "ops/gather/gather_plan.h"

/* How gather rows are mapped to work-items (clg_context_maps_adjacent). */
typedef enum clg_gather_mapping {
    CLG_MAPPING_ROW_RUNS = 1, /* CPU devices: each work-item copies a run of whole rows */
    CLG_MAPPING_ROW_UNITS,    /* GPUs: adjacent work-items copy adjacent units of a row */
} clg_gather_mapping;

/* The operation's launch (operation.h): buffers are data, indices and the output. Out-of-range
 * indices give zeros, or clamp under CLG_OOB_CLAMP; the error policy has been applied before, or,
 * with a gate (a failure record), the kernel writes nothing if the record's flag is set. */
clg_status clg_gather_launch(clg_context *ctx, const void *plan, cl_command_queue queue, const clg_buffer *buffers,
                             cl_mem gate, cl_uint num_events, const cl_event *wait_list, cl_event *done);

#endif
