/* The CPU reference for GatherND on a validated plan. */
#ifndef CLG_GATHER_ND_REFERENCE_H
#define CLG_GATHER_ND_REFERENCE_H

#include "ops/gather_nd/gather_nd_plan.h"

/* The operation's reference (operation.h): inputs are data and indices in host memory. */
clg_status clg_gather_nd_reference_run(const void *plan, const void *const *inputs, void *output);

#endif
