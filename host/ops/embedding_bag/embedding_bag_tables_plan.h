/* Validation of a table-batched EmbeddingBag descriptor into its plan. The call is the single-table
 * offsets form over T*B bags (bag k = t*B + b uses table t), so the plan holds that form's plan (`bags`:
 * types, mode, L, the offsets, the weights) and the tables' totals; each table's N_t, D_t and layout come
 * from the caller's array, read during the call only (a deferred call's copy of the plan never reads it).
 * A call converts (quantized tables, plain tables of several types, or another output type): its values
 * are f32 (`bags` is planned over f32 tables, f32 weights) and its output is out_type. */
#ifndef CLG_EMBEDDING_BAG_TABLES_PLAN_H
#define CLG_EMBEDDING_BAG_TABLES_PLAN_H

#include "ops/embedding_bag/embedding_bag_plan.h"
#include "ops/gather_quantized/gather_quantized_plan.h"

typedef struct clg_embedding_bag_tables_plan {
    clg_embedding_bag_plan bags;           /* B = T * batch bags; N and D unset (each table has its own) */
    const clg_embedding_bag_table *tables; /* the caller's T tables */
    uint64_t T, batch;                     /* tables, bags a table (output rows) */
    uint64_t total_D, max_D;               /* output columns; the widest table */
    bool last_offset_ends;                 /* include_last_offset: offsets[T*B] must be L */
    bool converts;                         /* each table widened or dequantized to f32, output out_type */
    clg_dtype out_type;                    /* the output's type */
    size_t out_size;
    clg_ggml_format family; /* a quantized table's format, naming the call's block family (or NONE) */
    clg_dtype widest_plain; /* the largest plain table type (the buffer's alignment), or invalid */
    int64_t out_shape[CLG_MAX_OUTPUT_RANK];
} clg_embedding_bag_tables_plan;

/* Validate desc and fill plan. On failure the thread's message names the argument, table and value. */
clg_status clg_embedding_bag_tables_plan_make(const clg_embedding_bag_tables_desc *desc,
                                              clg_embedding_bag_tables_plan *plan);

/* Table t's view as one table: the plan of bag structure with its N_t and D_t. */
clg_embedding_bag_plan clg_embedding_bag_table_view(const clg_embedding_bag_tables_plan *p, uint64_t t);

/* Bytes of one row of table e (validated). */
uint64_t clg_embedding_bag_table_row_bytes(const clg_embedding_bag_table *e);

/* Quantized table e (validated, width > 0) as the dequantizing gather plans it: data u8 [N_t, row bytes],
 * gather axis 0, f32 values. */
clg_status clg_embedding_bag_table_quant_plan(const clg_embedding_bag_table *e, clg_gather_quantized_plan *plan);

#endif
