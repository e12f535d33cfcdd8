/* Temporary device buffers for the synchronous host-pointer calls. */
#ifndef CLG_DEVICE_BUFFERS_H
#define CLG_DEVICE_BUFFERS_H

#include "core/context.h"

/* A device buffer, initialised from host memory when host is not NULL. A zero-byte tensor gets a
 * small placeholder (OpenCL has no empty buffers). Fails with CLG_ERR_TOO_LARGE_FOR_DEVICE above the
 * device's max allocation and CLG_ERR_DEVICE_OUT_OF_MEMORY when the device cannot allocate it. Every
 * buffer the library makes comes from here. */
clg_status clg_create_device_buffer(clg_context *ctx, const char *name, const void *host, uint64_t bytes, cl_mem *out);

#endif
