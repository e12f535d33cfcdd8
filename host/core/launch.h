/* Enqueueing a kernel within the device's limits: every local size checked against the device's
 * CL_DEVICE_MAX_WORK_ITEM_SIZES and the kernel's CL_KERNEL_WORK_GROUP_SIZE, every global size
 * rounded up to a multiple of its local size (OpenCL 1.2 has no non-uniform work-groups, so kernels
 * guard their ids) and checked against the device's size_t. */
#ifndef CLG_LAUNCH_H
#define CLG_LAUNCH_H

#include "core/context.h"
#include "core/operation.h"

/* Lend kernel `name` of source built with options plus the device's hints (kernels_cl/hints.h). If
 * a build with hints fails, the call fails with CLG_ERR_KERNEL_BUILD and its log, and the context
 * turns hints off: the next call builds the same kernel without them. */
clg_status clg_borrow_kernel(clg_context *ctx, const clg_kernel_source *source, const char *options, const char *name,
                             clg_kernel_lease *lease);

/* Fit local[0 .. dims) in place: each dimension at most the device's item size, and their product at
 * most what the kernel allows, by halving the largest dimension. */
void clg_launch_fit_local(const clg_context *ctx, const clg_kernel_lease *lease, cl_uint dims, size_t *local);

/* The alignment a buffer's device address is known to have: the device's base alignment, or less
 * for a buffer over a caller's host pointer (CL_MEM_USE_HOST_PTR), which drivers may use in place.
 * A kernel may move vectors no wider than this. */
size_t clg_buffer_alignment(const clg_context *ctx, cl_mem mem);

/* Whether the device address of b's byte offset is a multiple of `bytes` (a power of two): the offset is,
 * and so is the alignment b's memory is known to have (clg_buffer_alignment). */
bool clg_buffer_aligned_to(const clg_context *ctx, const clg_buffer *b, size_t bytes);

/* The widest unit, a power of two of at most `widest` bytes, in which a kernel may move `bytes` from
 * src to dst: it divides the bytes and both byte offsets, and neither buffer's alignment is below it
 * (a vector type's natural alignment may be assumed by the compiler). */
size_t clg_move_unit(const clg_context *ctx, size_t widest, uint64_t bytes, const clg_buffer *src,
                     const clg_buffer *dst);

/* The OpenCL C type of a move unit of 1 to 64 bytes ("uchar" .. "uint16"), for a MOVE_T build option. */
const char *clg_move_type(size_t unit_bytes);

/* Work-groups a grid-stride kernel launches to keep every compute unit busy: OpenCL sets no limit on
 * the number of groups, so the grid is sized from the device's compute units. */
uint64_t clg_launch_grid_groups(const clg_context *ctx);

/* The NDRange of a kernel over `rows` rows of `width` units each: dimension 0 walks a row's units
 * (a power of two up to the width, at most `group`), dimension 1 the rows with a grid stride, as many
 * as the device keeps busy (the kernel loops over the rest). Fills local and items for clg_launch. */
void clg_launch_rows_grid(const clg_context *ctx, const clg_kernel_lease *lease, uint64_t width, uint64_t rows,
                          size_t group, size_t local[2], uint64_t items[2]);

/* Below this bound 32-bit offsets are safe: every offset or count a kernel forms, plus one grid's worth
 * of overshoot, stays below 2^32. */
#define CLG_OFFSET32_LIMIT ((uint64_t)1 << 31)

/* Set kernel argument `index` to an offset or count in the kernel's offset_t: 64 bits, or 32 where the
 * host proved every offset fits (kernels_cl/index_rules.h). */
cl_int clg_set_offset_arg(cl_kernel kernel, cl_uint index, uint64_t value, int offsets64);

/* Set the gate, kernel argument `first`, that every kernel writing a call's output takes
 * (kernels_cl/failure_record.h): the record of the call's check, or the context's open gate. */
cl_int clg_set_gate_arg(cl_kernel kernel, cl_uint first, cl_mem gate);

/* Enqueue lease->kernel (its arguments set) over items[d] work-items in dimension d, with the local
 * sizes fitted by clg_launch_fit_local. `what` names the kernel in messages. */
clg_status clg_launch(const clg_context *ctx, cl_command_queue queue, const clg_kernel_lease *lease, const char *what,
                      cl_uint dims, const uint64_t *items, const size_t *local, cl_uint num_events,
                      const cl_event *wait_list, cl_event *done);

#endif
