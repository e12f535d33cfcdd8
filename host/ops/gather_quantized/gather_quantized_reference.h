/* The CPU reference for the dequantizing gather on a validated plan. */
#ifndef CLG_GATHER_QUANTIZED_REFERENCE_H
#define CLG_GATHER_QUANTIZED_REFERENCE_H

#include "ops/gather_quantized/gather_quantized_plan.h"

/* The operation's reference (operation.h): inputs are data, indices, scales and zero_points in host
 * memory (absent ones NULL). */
clg_status clg_gather_quantized_reference_run(const void *plan, const void *const *inputs, void *output);

#endif
