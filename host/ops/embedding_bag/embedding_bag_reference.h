/* EmbeddingBag's CPU reference (operation.h's reference callback): the checks, then each bag reduced
 * in bag order, in f32 (f64 for f64 tables), as docs/semantics.md fixes it. */
#ifndef CLG_EMBEDDING_BAG_REFERENCE_H
#define CLG_EMBEDDING_BAG_REFERENCE_H

#include "ops/embedding_bag/embedding_bag_plan.h"

/* inputs: table, indices, bags (offsets or segment ids; NULL for packed), weights (NULL if absent). */
clg_status clg_embedding_bag_reference_run(const void *plan, const void *const *inputs, void *output);

/* Bag `bag` of the checked inputs reduced into the D values at out_row (the table's type); the table
 * is inputs[0], the bag structure inputs[2]. */
void clg_embedding_bag_reduce_bag(const clg_embedding_bag_plan *p, const void *const *inputs, uint64_t bag,
                                  void *out_row);

#endif
