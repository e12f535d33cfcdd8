/* The dequantizing gather's kernel launch: a specialization chosen from the plan and the device,
 * enqueued over the CPU mapping (runs of units per work-item) or the GPU mapping (adjacent pieces). */
#ifndef CLG_GATHER_QUANTIZED_LAUNCH_H
#define CLG_GATHER_QUANTIZED_LAUNCH_H

#include "core/operation.h"
#include "ops/gather_quantized/gather_quantized_plan.h"

/* The operation's launch (operation.h): buffers are data, indices, scales, zero_points and the output.
 * Out-of-range indices give zeros, or clamp under CLG_OOB_CLAMP; under the error policy the check has run
 * first, and the kernel writes nothing if its gate's flag is set. */
clg_status clg_gather_quantized_launch(clg_context *ctx, const void *plan, cl_command_queue queue,
                                       const clg_buffer *buffers, cl_mem gate, cl_uint num_events,
                                       const cl_event *wait_list, cl_event *done);

/* Whether the plan's units take the fast form (dequant_piece.h): ggml blocks, or values along the last
 * axis, one scale a unit, each unit starting on a whole byte. */
int clg_gather_quantized_fast_form(const clg_gather_quantized_plan *p);

/* The build option that picks the plan's block family for kernels_cl/dequant_piece.h ("" for the
 * 32-value ggml blocks and the layouts without blocks): every program that dequantizes adds it. */
const char *clg_gather_quantized_family_option(const clg_gather_quantized_plan *p);

/* The arguments of kernels_cl/dequant_kernel_interface.h's DEQUANT_KERNEL_PARAMETERS, the first
 * CLG_DEQUANT_KERNEL_ARGS of every kernel that dequantizes (the dequantizing gather's, EmbeddingBag's
 * over quantized tables): buffers are data, indices, scales, zero_points and the output. */
#define CLG_DEQUANT_KERNEL_ARGS 30
cl_int clg_gather_quantized_set_args(cl_kernel k, const clg_gather_quantized_plan *p, int offsets64, int fast,
                                     const clg_buffer *buffers);

#endif
