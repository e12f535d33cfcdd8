/* EmbeddingBag's examples for "clgather demo": the OpenVINO specifications' examples and PyTorch's
 * documented embedding_bag calls, each on the device, against the CPU reference and the values the spec
 * gives (or, for PyTorch's random table, a table whose row r is [3r + 1, 3r + 2, 3r + 3], checked by hand),
 * a table-batched call over both tables, and a bag over a quantized table, checked by hand. */
#ifndef CLI_DEMO_EMBEDDING_BAG_H
#define CLI_DEMO_EMBEDDING_BAG_H

#include "clgather.h"

/* Run every example on ctx from number first_number on, printing a block each. Adds to *runs and
 * *passed. Returns the number of examples. */
int demo_embedding_bag_run(clg_context *ctx, int first_number, int *runs, int *passed);

#endif
