/* Gather's error policy: the first out-of-range index, found on the host (the reference and the
 * synchronous call) or by the check kernel on the device (kernels_cl/check_indices.cl). */
#ifndef CLG_GATHER_INDEX_CHECK_H
#define CLG_GATHER_INDEX_CHECK_H

#include "core/operation.h"
#include "ops/gather/gather_plan.h"

/* Scan indices[first, first + count) (positions into the whole indices tensor, held at `indices`,
 * which points at element `first`) and fail with CLG_ERR_INDEX_OUT_OF_RANGE naming the first one
 * outside the range; CLG_SUCCESS if none is. */
clg_status clg_gather_check_indices_host(const clg_gather_plan *plan, const void *indices, uint64_t first,
                                         uint64_t count);

/* The operation's check (operation.h): enqueue check_indices, which lowers the record's flag to the
 * first chunk holding a bad index. inputs: data, indices. */
clg_status clg_gather_enqueue_index_check(clg_context *ctx, const void *plan, cl_command_queue queue,
                                          const clg_buffer *inputs, cl_mem record, cl_uint num_events,
                                          const cl_event *wait_list, cl_event *done);

/* The operation's locate: record the flagged chunk's first bad index, its position and value. */
clg_status clg_gather_enqueue_locate_bad_index(clg_context *ctx, const void *plan, cl_command_queue queue,
                                               const clg_buffer *inputs, cl_mem record, cl_uint num_events,
                                               const cl_event *wait_list, cl_event *done);

/* The operation's report: name the recorded index. */
clg_status clg_gather_report_bad_index(const void *plan, const clg_failure_record *record);

#endif
