/* GatherElements' public entry points: plan, then the runner (core/indexed_operation.h); its kernels
 * move at most an element, 16 bytes, at a time. */
#include "core/indexed_operation.h"
#include "ops/gather_elements/gather_elements_launch.h"
#include "ops/gather_elements/gather_elements_plan.h"
#include "ops/gather_elements/gather_elements_reference.h"

CLG_DEFINE_INDEXED_OPERATION(gather_elements, clg_gather_elements_desc, clg_gather_elements_plan,
                             clg_gather_elements_plan_make, clg_gather_elements_reference_run,
                             clg_gather_elements_launch, 16)
