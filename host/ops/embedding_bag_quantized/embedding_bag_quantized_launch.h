/* EmbeddingBag over a quantized table: its programs (kernels_cl/embedding_bag_quantized.cl, one for the
 * 32-value ggml blocks and the other layouts, one for ggml's super-blocks), which hold the bag checks
 * too, and the reduction on the runs or the adjacent mapping. */
#ifndef CLG_EMBEDDING_BAG_QUANTIZED_LAUNCH_H
#define CLG_EMBEDDING_BAG_QUANTIZED_LAUNCH_H

#include "core/launch.h"
#include "ops/embedding_bag_quantized/embedding_bag_quantized_plan.h"

/* Lend kernel `name` of the program for the plan's layout family (program_plan: the quantized plan). */
clg_status clg_embedding_bag_quantized_borrow(clg_context *ctx, const void *program_plan, const char *name,
                                              clg_kernel_lease *lease);

/* operation.h's launch: buffers are data, scales, zero_points, indices, bags, weights and the output;
 * gated on the gate's record. */
clg_status clg_embedding_bag_quantized_launch(clg_context *ctx, const void *plan, cl_command_queue queue,
                                              const clg_buffer *buffers, cl_mem gate, cl_uint num_events,
                                              const cl_event *wait_list, cl_event *done);

#endif
