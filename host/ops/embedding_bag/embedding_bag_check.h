/* EmbeddingBag's error policy: the bag structure (offsets or segment ids) and then the indices, each
 * in position order, are checked on the host (the reference and the synchronous calls) or on the
 * device by check_bags and locate_bad_bag (kernels_cl/embedding_bag.cl); the first bad value names the
 * call's status and message. The checks read positions [0, bags_count + L): the bag structure first,
 * then the indices. */
#ifndef CLG_EMBEDDING_BAG_CHECK_H
#define CLG_EMBEDDING_BAG_CHECK_H

#include "core/operation.h"
#include "ops/embedding_bag/embedding_bag_plan.h"
#include <stdbool.h>

/* What is wrong with a checked position; the kernels number them the same. */
typedef enum clg_bag_failure {
    CLG_BAG_VALID = 0,
    CLG_BAG_OFFSET_OUT_OF_RANGE,  /* outside [0, L] */
    CLG_BAG_OFFSET_NOT_ZERO,      /* torch: offsets[0] != 0 */
    CLG_BAG_OFFSET_DECREASES,     /* below the offset before it */
    CLG_BAG_SEGMENT_OUT_OF_RANGE, /* outside [0, num_segments) */
    CLG_BAG_SEGMENT_DECREASES,    /* below the id before it */
    CLG_BAG_INDEX_OUT_OF_RANGE,   /* outside [0, N) */
    CLG_BAG_OFFSET_NOT_END,       /* the table-batched call with include_last_offset: the last offset is not L */
} clg_bag_failure;

/* The failure at position pos < p->bags_count of the bag structure (offsets or segment ids); the indices'
 * rule is clg_bag_first_index_outside's (embedding_bag_values.h). */
clg_bag_failure clg_bag_judge(const clg_embedding_bag_plan *p, const void *const *inputs, uint64_t pos);

/* Whether every position of the bag structure `bags` is valid, decided without the judge where the type
 * is a common one, in one loop without a branch on each value (a host-memory call checks them on the
 * caller's thread); false: ask clg_bag_judge, which finds the first failure, if any. */
bool clg_bag_structure_surely_valid(const clg_embedding_bag_plan *p, const void *bags);

/* The first position of the bag structure (inputs[2]) the judge fails, its failure in *failure; p->bags_count
 * where none fails (screened first by clg_bag_structure_surely_valid). */
uint64_t clg_bag_first_structure_failure(const clg_embedding_bag_plan *p, const void *const *inputs,
                                         clg_bag_failure *failure);

/* Enqueue check kernel `name` (check_bags over chunks, or locate_bad_bag on one item) over p's positions:
 * the table-batched call's per-table words `meta` (NULL for one table) and its T, bags a table in p->B. */
clg_status clg_embedding_bag_enqueue_check(clg_context *ctx, const clg_embedding_bag_plan *p, const char *name,
                                           cl_command_queue queue, const clg_buffer *inputs, cl_mem record, cl_mem meta,
                                           uint64_t T, cl_uint num_events, const cl_event *wait_list, cl_event *done);

/* inputs: table, indices, bags, weights (operation.h's host_check). */
clg_status clg_embedding_bag_host_check(const void *plan, const void *const *inputs);

/* Enqueue check_bags, which lowers the record's flag to the first chunk of positions holding a bad value. */
clg_status clg_embedding_bag_check_enqueue(clg_context *ctx, const void *plan, cl_command_queue queue,
                                           const clg_buffer *inputs, cl_mem record, cl_uint num_events,
                                           const cl_event *wait_list, cl_event *done);

/* Enqueue locate_bad_bag: the flagged chunk's first bad position, its failure and values. */
clg_status clg_embedding_bag_locate_enqueue(clg_context *ctx, const void *plan, cl_command_queue queue,
                                            const clg_buffer *inputs, cl_mem record, cl_uint num_events,
                                            const cl_event *wait_list, cl_event *done);

/* Lends a kernel of the program that holds check_bags and locate_bad_bag for a plan. */
typedef clg_status (*clg_bag_program)(clg_context *ctx, const void *program_plan, const char *name,
                                      clg_kernel_lease *lease);

/* check_bags (locate 0) or locate_bad_bag (locate 1) of the program `program` lends for program_plan
 * (EmbeddingBag over quantized tables has the checks in its own programs): inputs as above. */
clg_status clg_embedding_bag_check_in(clg_context *ctx, const clg_embedding_bag_plan *p, clg_bag_program program,
                                      const void *program_plan, int locate, cl_command_queue queue,
                                      const clg_buffer *inputs, cl_mem record, cl_uint num_events,
                                      const cl_event *wait_list, cl_event *done);

/* clg_embedding_bag_check_in for a table-batched call: its per-table words `meta` and T (bags a table in
 * p->B). */
clg_status clg_embedding_bag_check_tables_in(clg_context *ctx, const clg_embedding_bag_plan *p, clg_bag_program program,
                                             const void *program_plan, int locate, cl_command_queue queue,
                                             const clg_buffer *inputs, cl_mem record, cl_mem meta, uint64_t T,
                                             cl_uint num_events, const cl_event *wait_list, cl_event *done);

/* Name the recorded failure. */
clg_status clg_embedding_bag_report(const void *plan, const clg_failure_record *record);

#endif
