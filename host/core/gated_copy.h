/* The deferred error policy's last step for operations that compute into a scratch: copy the scratch
 * into the caller's output on the device, only if the call's failure record is clear
 * (kernels_cl/gated_copy.cl). */
#ifndef CLG_GATED_COPY_H
#define CLG_GATED_COPY_H

#include "core/operation.h"

/* Enqueue the copy of `bytes` from src to dst after `after`, gated by the record. */
clg_status clg_enqueue_gated_copy(clg_context *ctx, cl_command_queue queue, const clg_buffer *src,
                                  const clg_buffer *dst, uint64_t bytes, cl_mem record, cl_event after, cl_event *done);

#endif
