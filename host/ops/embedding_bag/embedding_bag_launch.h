/* EmbeddingBag's kernels (kernels_cl/embedding_bag.cl): the program for the plan's table type, and the
 * reduction on the runs or the adjacent mapping. */
#ifndef CLG_EMBEDDING_BAG_LAUNCH_H
#define CLG_EMBEDDING_BAG_LAUNCH_H

#include "core/launch.h"
#include "ops/embedding_bag/embedding_bag_plan.h"

/* Lend kernel `name` of the program built for p's table type (one build serves every other choice). */
clg_status clg_embedding_bag_borrow(clg_context *ctx, const clg_embedding_bag_plan *p, const char *name,
                                    clg_kernel_lease *lease);

/* The bag inputs' eleven kernel arguments, every reduction kernel's in the same order (indices, its offset,
 * index size and signedness; bags, the same four; weights, its offset, has_weights), from argument *next
 * on, which is left past them. bags and weights are read only where p has them (NULL arguments otherwise);
 * weights counts its offset in elements of weight_size bytes. */
cl_int clg_embedding_bag_set_input_args(cl_kernel k, cl_uint *next, const clg_embedding_bag_plan *p,
                                        const clg_buffer *indices, const clg_buffer *bags, const clg_buffer *weights,
                                        size_t weight_size);

/* The reduction kernels' CLG_EMBEDDING_BAG_ARGS common arguments (BAG_PARAMETERS) from p: buffers
 * table, indices, bags, weights, output, and the gate (core/launch.h, clg_set_gate_arg). */
#define CLG_EMBEDDING_BAG_ARGS 26
cl_int clg_embedding_bag_set_args(cl_kernel k, const clg_embedding_bag_plan *p, const clg_buffer *buffers, cl_mem gate);

/* operation.h's launch: the reduction into buffers[4], gated on the gate's record. */
clg_status clg_embedding_bag_launch(clg_context *ctx, const void *plan, cl_command_queue queue,
                                    const clg_buffer *buffers, cl_mem gate, cl_uint num_events,
                                    const cl_event *wait_list, cl_event *done);

/* The build option that makes mean's one division correctly rounded for a table of type `table` ("" for
 * f64 tables, or where the device offers neither way). */
const char *clg_embedding_bag_division_options(const clg_context *ctx, clg_dtype table);

/* operation.h's device_supports: f64 tables need cl_khr_fp64. */
clg_status clg_embedding_bag_device_supports(const clg_context *ctx, const void *plan);

#endif
