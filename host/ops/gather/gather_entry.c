/* Gather's public entry points: plan, then the runner (core/indexed_operation.h); its row copies move up
 * to 64 bytes at a time. */
#include "core/indexed_operation.h"
#include "ops/gather/gather_launch.h"
#include "ops/gather/gather_plan.h"
#include "ops/gather/gather_reference.h"

CLG_DEFINE_INDEXED_OPERATION(gather, clg_gather_desc, clg_gather_plan, clg_gather_plan_make, clg_gather_reference_run,
                             clg_gather_launch, 64)
