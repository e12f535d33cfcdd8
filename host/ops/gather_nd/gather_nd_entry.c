/* GatherND's public entry points: plan, then the runner (core/indexed_operation.h); its row copies move
 * up to 64 bytes at a time. */
#include "core/indexed_operation.h"
#include "ops/gather_nd/gather_nd_launch.h"
#include "ops/gather_nd/gather_nd_plan.h"
#include "ops/gather_nd/gather_nd_reference.h"

CLG_DEFINE_INDEXED_OPERATION(gather_nd, clg_gather_nd_desc, clg_gather_nd_plan, clg_gather_nd_plan_make,
                             clg_gather_nd_reference_run, clg_gather_nd_launch, 64)
