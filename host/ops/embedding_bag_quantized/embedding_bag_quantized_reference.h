/* The CPU reference for EmbeddingBag over a quantized table (operation.h's reference callback): the
 * dequantizing gather's reference decode of the rows the bags read, then EmbeddingBag's reference
 * reduction over them, in f32, each result rounded once to the output type. */
#ifndef CLG_EMBEDDING_BAG_QUANTIZED_REFERENCE_H
#define CLG_EMBEDDING_BAG_QUANTIZED_REFERENCE_H

#include "clgather.h"

/* inputs: data, scales, zero_points, indices, bags (NULL for packed), weights (NULL if absent). */
clg_status clg_embedding_bag_quantized_reference_run(const void *plan, const void *const *inputs, void *output);

#endif
