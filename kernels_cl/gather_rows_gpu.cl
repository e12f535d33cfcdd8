/* Gather as row copies, the GPU mapping (row_copy_gpu.h): output row r of group g = bb*O + o reads
 * data row g*A + indices[bb*N + n], one index per row (row_source_index.h).
 *
 * Build options: those of index_rules.h and row_copy_gpu.h (row_stage_gpu.h shares them). */
#include "hints.h"
#include "row_source_index.h"

#include "row_copy_gpu.h"
#include "row_stage_gpu.h"
