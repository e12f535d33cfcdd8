/* The error policy for a tensor of integer indices checked against the data extents they index, on
 * the host (the reference and the synchronous calls) or on the device by kernels_cl/check_indices.cl,
 * and the message that names the first bad index. Two layouts:
 *  - flat indices, each against one axis length A (Gather, GatherElements, the dequantizing gather);
 *  - index tuples (GatherND): the innermost dimension of the indices holds m components, component j
 *    checked against the data extent of axis `axis + j`.
 * Either way the first bad index element in flat order is the one reported. */
#ifndef CLG_INDEX_CHECK_H
#define CLG_INDEX_CHECK_H

#include "core/operation.h"

/* What the check needs to know: the indices and the extents they index. */
typedef struct clg_index_bound {
    clg_dtype index_type;
    size_t index_size;
    uint64_t count;                 /* index elements */
    uint64_t A;                     /* flat indices: the axis length; valid indices are [-A, A) */
    int32_t axis;                   /* named in messages: the data axis of A, or of a tuple's first component */
    int32_t tuple_len;              /* 0: flat indices; m >= 1: tuples of m components */
    uint64_t extents[CLG_MAX_RANK]; /* tuples: component j indexes data axis axis + j of this extent */
    int32_t indices_rank;           /* the indices' shape, to name positions in messages */
    int64_t indices_shape[CLG_MAX_RANK];
} clg_index_bound;

/* The bound of a whole tensor of flat indices against axis `axis` of length A. */
clg_index_bound clg_index_bound_of(const clg_tensor_desc *indices, uint64_t count, uint64_t A, int32_t axis);

/* The bound of a whole tensor of index tuples (indices.shape[-1] components) whose first component
 * indexes data axis `first_axis`; extents: data.shape[first_axis ..]. */
clg_index_bound clg_index_bound_of_tuples(const clg_tensor_desc *indices, uint64_t count, const int64_t *extents,
                                          int32_t first_axis);

/* Scan indices[first, first + count) (positions into the whole indices tensor, held at `indices`,
 * which points at element `first`; for tuples, first is a multiple of the tuple length) and fail with
 * CLG_ERR_INDEX_OUT_OF_RANGE naming the first one outside its range; CLG_SUCCESS if none is. */
clg_status clg_index_check_host(const clg_index_bound *bound, const void *indices, uint64_t first, uint64_t count);

/* Enqueue check_indices over the indices buffer, which lowers the record's flag to the first chunk
 * holding a bad index. */
clg_status clg_index_check_enqueue(clg_context *ctx, const clg_index_bound *bound, cl_command_queue queue,
                                   const clg_buffer *indices, cl_mem record, cl_uint num_events,
                                   const cl_event *wait_list, cl_event *done);

/* Enqueue locate_bad_index: record the flagged chunk's first bad index, its position and value. */
clg_status clg_index_locate_enqueue(clg_context *ctx, const clg_index_bound *bound, cl_command_queue queue,
                                    const clg_buffer *indices, cl_mem record, cl_uint num_events,
                                    const cl_event *wait_list, cl_event *done);

/* Name the recorded index (CLG_ERR_INDEX_OUT_OF_RANGE). */
clg_status clg_index_check_report(const clg_index_bound *bound, const clg_failure_record *record);

/* The error policy's callbacks (operation.h) for an operation whose plan starts with the
 * clg_index_bound of its indices, input 1 (Gather, GatherElements, GatherND). */
clg_status clg_index_plan_host_check(const void *plan, const void *const *inputs);
clg_status clg_index_plan_check(clg_context *ctx, const void *plan, cl_command_queue queue, const clg_buffer *inputs,
                                cl_mem record, cl_uint num_events, const cl_event *wait_list, cl_event *done);
clg_status clg_index_plan_locate(clg_context *ctx, const void *plan, cl_command_queue queue, const clg_buffer *inputs,
                                 cl_mem record, cl_uint num_events, const cl_event *wait_list, cl_event *done);
clg_status clg_index_plan_report(const void *plan, const clg_failure_record *record);

#endif
