/* Gather evaluated straight from the specs' formula, element by element, as a third opinion
 * beside the OpenCL result and the library's CPU reference:
 *   out[p_0..p_{a-1}, i_b..i_{M-1}, p_{a+1}..] = data[p_0..p_{a-1}, indices[p_0..p_{b-1}, i_b..], p_{a+1}..]
 * A negative index wraps once; one still outside [0, A) gives zero bytes (the demo only runs the
 * ONNX presets on in-range indices). */
#ifndef CLI_DEMO_FORMULA_H
#define CLI_DEMO_FORMULA_H

#include "tensor.h"

/* output must already have the shape data.shape[:a] + indices.shape[b:] + data.shape[a+1:]
 * (axis and batch_dims normalized). Indices must be i32 or i64. Returns 0, -1 if the shapes disagree. */
int demo_formula_gather(const cli_tensor *data, const cli_tensor *indices, int32_t axis, int32_t batch_dims,
                        cli_tensor *output);

#endif
