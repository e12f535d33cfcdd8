/* Validation and normalization of an EmbeddingBag descriptor into the plan that the reference, the
 * checks, the kernels and the messages read: a table of N rows of D values, L indices, B bags, each
 * bag a range of the indices (offsets), a row of K of them (packed), or a run of equal segment ids. */
#ifndef CLG_EMBEDDING_BAG_PLAN_H
#define CLG_EMBEDDING_BAG_PLAN_H

#include "clgather.h"

#include <stdbool.h>

/* No default row, no padding row. */
#define CLG_BAG_NO_ROW (-1)

typedef struct clg_embedding_bag_plan {
    clg_embedding_bag_preset preset;
    clg_bag_form form;
    clg_bag_mode mode;
    clg_dtype table_type, index_type, bags_type; /* bags_type: of the offsets or segment ids (packed: invalid) */
    size_t table_size, index_size, bags_size;
    bool has_weights;
    bool offsets_start_at_zero; /* torch: offsets[0] must be 0 */
    bool offsets_end_at_count;  /* the table-batched call with include_last_offset: the last offset must be L */
    const char *bags_name;      /* "offsets" or "segment_ids" in messages */
    uint64_t N, D;              /* table rows, values a row */
    uint64_t L;                 /* indices */
    uint64_t B;                 /* bags (output rows) */
    uint64_t K;                 /* packed: indices a bag */
    uint64_t bags_count;        /* offsets or segment ids held (packed: 0) */
    int64_t default_row;        /* the row of empty bags, or CLG_BAG_NO_ROW: zeros */
    int64_t padding_row;        /* the row that counts for nothing, or CLG_BAG_NO_ROW */
    int32_t out_rank;
    int64_t out_shape[CLG_MAX_OUTPUT_RANK];
    uint64_t out_elems;
    uint64_t table_bytes, index_bytes, bags_bytes, weights_bytes, out_bytes;
} clg_embedding_bag_plan;

/* Validate desc and fill plan. On failure the thread's message names the argument and value. */
clg_status clg_embedding_bag_plan_make(const clg_embedding_bag_desc *desc, clg_embedding_bag_plan *plan);

#endif
