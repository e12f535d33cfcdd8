/* The table-batched EmbeddingBag's device and host parts around its plan: the per-table words its
 * kernels read, its checks and their messages, its launch and its CPU reference. The checks and the
 * reduction are the single-table call's (embedding_bag_check.c, kernels_cl/embedding_bag.cl), given the
 * per-table words. */
#ifndef CLG_EMBEDDING_BAG_TABLES_H
#define CLG_EMBEDDING_BAG_TABLES_H

#include "core/operation.h"
#include "ops/embedding_bag/embedding_bag_tables_plan.h"

/* The per-table words on the device (kernels_cl/embedding_bag.cl, META_*): 4 ulong a table. */
clg_status clg_embedding_bag_tables_meta(clg_context *ctx, const clg_embedding_bag_tables_plan *p, cl_mem *meta);

/* operation.h's callbacks. inputs: tables, indices, offsets, weights. */
clg_status clg_embedding_bag_tables_host_check(const void *plan, const void *const *inputs);
clg_status clg_embedding_bag_tables_check_enqueue(clg_context *ctx, const void *plan, cl_command_queue queue,
                                                  const clg_buffer *inputs, cl_mem record, cl_uint num_events,
                                                  const cl_event *wait_list, cl_event *done);
clg_status clg_embedding_bag_tables_locate_enqueue(clg_context *ctx, const void *plan, cl_command_queue queue,
                                                   const clg_buffer *inputs, cl_mem record, cl_uint num_events,
                                                   const cl_event *wait_list, cl_event *done);
clg_status clg_embedding_bag_tables_report(const void *plan, const clg_failure_record *record);
clg_status clg_embedding_bag_tables_launch(clg_context *ctx, const void *plan, cl_command_queue queue,
                                           const clg_buffer *buffers, cl_mem gate, cl_uint num_events,
                                           const cl_event *wait_list, cl_event *done);
clg_status clg_embedding_bag_tables_device_supports(const clg_context *ctx, const void *plan);
clg_status clg_embedding_bag_tables_reference_run(const void *plan, const void *const *inputs, void *output);

#endif
