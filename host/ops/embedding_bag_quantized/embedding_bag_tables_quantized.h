/* The table-batched EmbeddingBag where it converts (quantized tables, plain tables of several types, or
 * another output type): its kernels are bag_quantized_tables_runs and _columns of the block family's
 * program (kernels_cl/embedding_bag_tables_quantized.h, built into embedding_bag_quantized.cl), which
 * holds the check kernels too, and its reference composes the quantized single-table call's: each table's
 * rows widened or dequantized to f32, each bag reduced by EmbeddingBag's reference, rounded to the output
 * type. The plan, the host check and the messages are the table-batched call's. */
#ifndef CLG_EMBEDDING_BAG_TABLES_QUANTIZED_H
#define CLG_EMBEDDING_BAG_TABLES_QUANTIZED_H

#include "core/operation.h"
#include "ops/embedding_bag/embedding_bag_tables_plan.h"

/* operation.h's launch: buffers tables, indices, offsets, weights and the output. */
clg_status clg_embedding_bag_tables_quantized_launch(clg_context *ctx, const clg_embedding_bag_tables_plan *p,
                                                     cl_command_queue queue, const clg_buffer *buffers, cl_mem gate,
                                                     cl_uint num_events, const cl_event *wait_list, cl_event *done);

/* check_bags (locate 0) or locate_bad_bag (locate 1) of the family's program, with the per-table words. */
clg_status clg_embedding_bag_tables_quantized_check(clg_context *ctx, const clg_embedding_bag_tables_plan *p,
                                                    int locate, cl_command_queue queue, const clg_buffer *inputs,
                                                    cl_mem record, cl_uint num_events, const cl_event *wait_list,
                                                    cl_event *done);

/* The reference's reduction (the inputs checked): inputs tables, indices, offsets, weights. */
clg_status clg_embedding_bag_tables_quantized_reduce(const clg_embedding_bag_tables_plan *p, const void *const *inputs,
                                                     void *output);

#endif
