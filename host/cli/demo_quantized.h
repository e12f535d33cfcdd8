/* The dequantizing gather's examples for "clgather demo": one small hand-checked case per layout. */
#ifndef CLI_DEMO_QUANTIZED_H
#define CLI_DEMO_QUANTIZED_H

#include "clgather.h"

/* Run every example on ctx from number first_number on, printing a block each. Adds to *runs and
 * *passed. Returns the number of examples. */
int demo_quantized_run(clg_context *ctx, int first_number, int *runs, int *passed);

#endif
