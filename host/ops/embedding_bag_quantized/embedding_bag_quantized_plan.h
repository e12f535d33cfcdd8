/* Validation of an EmbeddingBag over a quantized table into two plans the rest reads unchanged: the
 * dequantizing gather's plan of the table (gather axis 0, f32 values), whose layout rules, messages,
 * reference decode and kernel arguments are the dequantizing gather's, and EmbeddingBag's plan over the
 * f32 table of the same logical shape that the dequantization gives, whose checks and reduction are
 * EmbeddingBag's. */
#ifndef CLG_EMBEDDING_BAG_QUANTIZED_PLAN_H
#define CLG_EMBEDDING_BAG_QUANTIZED_PLAN_H

#include "ops/embedding_bag/embedding_bag_plan.h"
#include "ops/gather_quantized/gather_quantized_plan.h"

typedef struct clg_embedding_bag_quantized_plan {
    clg_gather_quantized_plan table; /* A = N rows of I = D values */
    clg_embedding_bag_plan bag;      /* over an f32 table [N, ...]: its sizes of table and output are not used */
    clg_dtype out_type;
    size_t out_size;
    uint64_t out_bytes;
} clg_embedding_bag_quantized_plan;

/* Validate desc and fill plan. On failure the thread's message names the argument and value. */
clg_status clg_embedding_bag_quantized_plan_make(const clg_embedding_bag_quantized_desc *desc,
                                                 clg_embedding_bag_quantized_plan *plan);

#endif
