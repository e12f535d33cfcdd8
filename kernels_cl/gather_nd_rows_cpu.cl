/* GatherND as row copies, the CPU mapping (row_copy_cpu.h): the slice data.shape[b+m:] is a row, and
 * output row n of batch bb reads data row bb*A + row(tuple), the m = TUPLE components of the tuple at
 * indices[(bb*N + n)*TUPLE ..] combined over the data extents they index (row_source_tuple.h), A
 * their product.
 *
 * Build options: those of index_rules.h, hints.h, row_copy_cpu.h, and TUPLE. */
#include "hints.h"
#include "row_source_tuple.h"

#include "row_copy_cpu.h"
