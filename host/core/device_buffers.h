/* Temporary device buffers for the synchronous host-pointer calls. */
#ifndef CLG_DEVICE_BUFFERS_H
#define CLG_DEVICE_BUFFERS_H

#include "core/context.h"

#include <stdbool.h>

/* A device buffer, initialised from host memory when host is not NULL. A zero-byte tensor gets a
 * small placeholder (OpenCL has no empty buffers). Fails with CLG_ERR_TOO_LARGE_FOR_DEVICE above the
 * device's max allocation and CLG_ERR_DEVICE_OUT_OF_MEMORY when the device cannot allocate it. Every
 * buffer the library makes comes from here. */
clg_status clg_create_device_buffer(clg_context *ctx, const char *name, const void *host, uint64_t bytes, cl_mem *out);

/* A buffer for a host-memory call's input: the caller's memory itself (read-only, CL_MEM_USE_HOST_PTR)
 * where the tuning's host_memory_in_place says the driver reads it in place and the memory is 16-byte
 * aligned (every element type's alignment); else a device copy, as clg_create_device_buffer makes. The
 * caller's memory must outlive the buffer's use: the synchronous calls wait for their kernels. */
clg_status clg_create_input_buffer(clg_context *ctx, const char *name, const void *host, uint64_t bytes, cl_mem *out);

/* Whether the tuning has host memory at `host` read (and written) in place: host_memory_in_place, and the
 * address 16-byte aligned. */
bool clg_host_in_place(const clg_context *ctx, const void *host);

/* A buffer over a synchronous call's output memory, written in place (CL_MEM_USE_HOST_PTR): only where
 * clg_host_in_place holds and no input shares a byte with it (the caller, core/run.c, decides). */
clg_status clg_create_output_in_place(clg_context *ctx, const char *name, void *host, uint64_t bytes, cl_mem *out);

#endif
