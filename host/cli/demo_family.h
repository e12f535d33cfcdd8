/* The worked examples of GatherElements (ONNX 11/13, OpenVINO GatherElements-6) and GatherND (ONNX
 * 11/12/13, OpenVINO GatherND-5/8) for "clgather demo": each run on the device under every preset the
 * example allows, and checked against the CPU reference and the values and shape the spec states. */
#ifndef CLI_DEMO_FAMILY_H
#define CLI_DEMO_FAMILY_H

#include "clgather.h"

/* What the demo counts: runs, and those that passed. */
typedef struct demo_family_tally {
    int runs, passed;
} demo_family_tally;

/* Run every example, numbering them from *number on (advanced past them); prints a block each. */
void demo_family_run(clg_context *ctx, int *number, demo_family_tally *tally);

#endif
