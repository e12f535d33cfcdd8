/* What the EmbeddingBag suites share: a case (descriptor and host inputs), and every entry point run on
 * it and compared: the CPU reference, the synchronous call and the enqueue call (each tensor inside a
 * larger cl_mem, guard bytes around it) under both kernel mappings, and the enqueue call on a context
 * that defers errors. */
#ifndef CLG_BAG_SUPPORT_H
#define CLG_BAG_SUPPORT_H

#include "test_support.h"

typedef struct bag_case {
    clg_embedding_bag_desc desc;
    const void *table, *indices, *bags, *weights; /* bags: offsets or segment ids; NULL where absent */
    size_t table_bytes, index_bytes, bags_bytes, weights_bytes, out_bytes;
} bag_case;

/* Guard bytes around every tensor of bag_enqueue: a multiple of every element size. */
#define BAG_GUARD 64

/* The enqueue call on ctx, each tensor inside a cl_mem between BAG_GUARD poison bytes; out_region
 * (BAG_GUARD + out_bytes + BAG_GUARD) gets the output buffer back. With `deferred`, the status is the
 * one clg_deferred_status then gives. */
clg_status bag_enqueue(clg_context *ctx, const bag_case *c, unsigned char *out_region, int deferred);

/* Random finite values of moderate exponent (sums stay far from subnormals), with `specials` now and then an
 * infinity or a quiet NaN, as the bits of `count` values of a float type. */
void bag_fill_values(support_rng *rng, clg_dtype type, void *base, uint64_t count, int specials);

/* A context on the suite's device that defers errors (created once). */
clg_context *bag_deferring_context(void);

/* A 1-D or 2-D shape into a tensor descriptor. */
clg_tensor_desc bag_tensor(clg_dtype type, int32_t rank, int64_t d0, int64_t d1);

/* Every entry point on c gives status `want`: on success the output equals `expected` (NULL: the
 * reference's output) bit for bit, and the enqueue calls leave their guard bytes alone; on failure the
 * message holds `fragment` (NULL: any) and every output stays poisoned, the deferred call included.
 * `name` describes the case in failures. */
void bag_check_all_paths(const bag_case *c, const void *expected, clg_status want, const char *fragment,
                         const char *name);

/* Only the descriptor is refused: shape inference, sizes, the reference and the synchronous call return
 * `want` (before any buffer is looked at), the message holds fragment, the output stays poisoned. */
void bag_expect_refused(const clg_embedding_bag_desc *desc, clg_status want, const char *fragment);

/* A table-batched case: descriptor (its tables array included) and host inputs. */
typedef struct tables_case {
    clg_embedding_bag_tables_desc desc;
    const void *tables, *indices, *offsets, *weights; /* weights NULL where absent */
    size_t tables_bytes, index_bytes, offsets_bytes, weights_bytes, out_bytes;
} tables_case;

/* bag_check_all_paths for a table-batched case: the reference, the synchronous and enqueue calls on both
 * mappings (guarded buffers), and the deferred enqueue call. */
void tables_check_all_paths(const tables_case *c, const void *expected, clg_status want, const char *fragment,
                            const char *name);

/* bag_expect_refused for a table-batched descriptor. */
void tables_expect_refused(const clg_embedding_bag_tables_desc *desc, clg_status want, const char *fragment);

/* Random offsets starting at 0 (empty bags now and then), count of them over L indices, the last L where
 * last_is_L asks it. */
void bag_random_offsets(support_rng *rng, clg_dtype type, void *offsets, uint64_t count, uint64_t L, int last_is_L);
/* Offset pos of an offsets array of `type` (read unsigned below 8 bytes: offsets are never negative). */
int64_t bag_load_offset(const void *base, clg_dtype type, uint64_t pos);

#endif
