/* The CPU reference for GatherElements on a validated plan. */
#ifndef CLG_GATHER_ELEMENTS_REFERENCE_H
#define CLG_GATHER_ELEMENTS_REFERENCE_H

#include "ops/gather_elements/gather_elements_plan.h"

/* The operation's reference (operation.h): inputs are data and indices in host memory. */
clg_status clg_gather_elements_reference_run(const void *plan, const void *const *inputs, void *output);

#endif
