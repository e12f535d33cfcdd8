/* The error policy for a flat tensor of integer indices checked against one axis length (Gather,
 * GatherElements, the dequantizing gather): on the host (the reference and the synchronous calls), or
 * on the device by kernels_cl/check_indices.cl, and the message that names the first bad index. */
#ifndef CLG_INDEX_CHECK_H
#define CLG_INDEX_CHECK_H

#include "core/operation.h"

/* What the check needs to know: the indices and the length they index. */
typedef struct clg_index_bound {
    clg_dtype index_type;
    size_t index_size;
    uint64_t count;       /* indices */
    uint64_t A;           /* the axis length: valid indices are [-A, A) */
    int32_t axis;         /* named in messages */
    int32_t indices_rank; /* the indices' shape, to name positions in messages */
    int64_t indices_shape[CLG_MAX_RANK];
} clg_index_bound;

/* Scan indices[first, first + count) (positions into the whole indices tensor, held at `indices`,
 * which points at element `first`) and fail with CLG_ERR_INDEX_OUT_OF_RANGE naming the first one
 * outside the range; CLG_SUCCESS if none is. */
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

#endif
