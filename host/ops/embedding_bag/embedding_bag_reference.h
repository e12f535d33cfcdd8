/* EmbeddingBag's CPU reference (operation.h's reference callback): the checks, then each bag reduced
 * in bag order, in f32 (f64 for f64 tables), as docs/semantics.md fixes it. */
#ifndef CLG_EMBEDDING_BAG_REFERENCE_H
#define CLG_EMBEDDING_BAG_REFERENCE_H

#include "clgather.h"

/* inputs: table, indices, bags (offsets or segment ids; NULL for packed), weights (NULL if absent). */
clg_status clg_embedding_bag_reference_run(const void *plan, const void *const *inputs, void *output);

#endif
