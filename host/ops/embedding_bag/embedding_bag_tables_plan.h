/* Validation of a table-batched EmbeddingBag descriptor into its plan. The call is the single-table
 * offsets form over T*B bags (bag k = t*B + b uses table t), so the plan holds that form's plan (`bags`:
 * types, mode, L, the offsets, the weights) and the tables' totals; each table's N_t and D_t come from
 * the caller's array, read during the call only (a deferred call's copy of the plan never reads it). */
#ifndef CLG_EMBEDDING_BAG_TABLES_PLAN_H
#define CLG_EMBEDDING_BAG_TABLES_PLAN_H

#include "ops/embedding_bag/embedding_bag_plan.h"

typedef struct clg_embedding_bag_tables_plan {
    clg_embedding_bag_plan bags;           /* B = T * batch bags; N and D unset (each table has its own) */
    const clg_embedding_bag_table *tables; /* the caller's T tables */
    uint64_t T, batch;                     /* tables, bags a table (output rows) */
    uint64_t total_D, max_D;               /* output columns; the widest table */
    bool last_offset_ends;                 /* include_last_offset: offsets[T*B] must be L */
    int64_t out_shape[CLG_MAX_OUTPUT_RANK];
} clg_embedding_bag_tables_plan;

/* Validate desc and fill plan. On failure the thread's message names the argument, table and value. */
clg_status clg_embedding_bag_tables_plan_make(const clg_embedding_bag_tables_desc *desc,
                                              clg_embedding_bag_tables_plan *plan);

/* Table t's view as one table: the plan of bag structure with its N_t and D_t. */
clg_embedding_bag_plan clg_embedding_bag_table_view(const clg_embedding_bag_tables_plan *p, uint64_t t);

#endif
