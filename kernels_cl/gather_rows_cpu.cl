/* Gather as row copies, the CPU mapping (row_copy_cpu.h): output row r of group g = bb*O + o reads
 * data row g*A + indices[bb*N + n], one index per row (row_source_index.h).
 *
 * Build options: those of index_rules.h, hints.h and row_copy_cpu.h. */
#include "hints.h"
#include "row_source_index.h"

#include "row_copy_cpu.h"
