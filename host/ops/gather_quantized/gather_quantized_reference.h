/* The CPU reference for the dequantizing gather on a validated plan. */
#ifndef CLG_GATHER_QUANTIZED_REFERENCE_H
#define CLG_GATHER_QUANTIZED_REFERENCE_H

#include "ops/gather_quantized/gather_quantized_plan.h"

/* The operation's reference (operation.h): inputs are data, indices, scales and zero_points in host
 * memory (absent ones NULL). */
clg_status clg_gather_quantized_reference_run(const void *plan, const void *const *inputs, void *output);

/* f32 bits of value e (a flat position in the logical data) of a table the plan describes: the rule
 * every layout's value follows (docs/semantics.md), the one the reference stores (EmbeddingBag over
 * quantized tables reduces these). */
uint32_t clg_gather_quantized_value_bits(const clg_gather_quantized_plan *p, const unsigned char *data,
                                         const unsigned char *scales, const unsigned char *zp, uint64_t e);

#endif
