/* The kernel variants of every operation, in one registry: the name that tests, the benchmark
 * (`clgather-bench --kernel NAME`) and messages use, the mapping it belongs to, the program and kernel
 * it runs, the build options that select it, and when its launcher picks it. Launchers pick among the
 * variants of their family by these rules; a test or the benchmark may force one by name (test builds
 * only): the family then runs on the variant's mapping, and on the variant wherever it applies. */
#ifndef CLG_VARIANTS_H
#define CLG_VARIANTS_H

#include "core/tuning.h"

#include <stddef.h>

/* Operations that share their variants. */
typedef enum clg_variant_family {
    CLG_FAMILY_ROWS = 0,      /* Gather and GatherND: whole rows (core/row_gather.h) */
    CLG_FAMILY_ELEMENTS,      /* GatherElements */
    CLG_FAMILY_QUANTIZED,     /* the dequantizing gather */
    CLG_FAMILY_TREE,          /* GatherTree */
    CLG_FAMILY_EMBEDDING_BAG, /* EmbeddingBag */
    CLG_FAMILY_COUNT
} clg_variant_family;

typedef enum clg_variant_id {
    CLG_VARIANT_ROW_RUNS = 0,
    CLG_VARIANT_ROW_RUNS_ONE_UNIT,
    CLG_VARIANT_ROW_UNITS,
    CLG_VARIANT_STAGED_UNITS,
    CLG_VARIANT_ELEMENTS_RUNS,
    CLG_VARIANT_ELEMENTS_COLUMN_BLOCKS,
    CLG_VARIANT_ELEMENTS_LINES,
    CLG_VARIANT_ELEMENTS_STAGED_LINES,
    CLG_VARIANT_DEQUANT_RUNS,
    CLG_VARIANT_DEQUANT_WHOLE_SLABS,
    CLG_VARIANT_DEQUANT_PIECES,
    CLG_VARIANT_TREE,
    CLG_VARIANT_BAG_RUNS,
    CLG_VARIANT_BAG_COLUMNS,
    CLG_VARIANT_BAG_QUANTIZED_RUNS,
    CLG_VARIANT_BAG_QUANTIZED_COLUMNS,
    CLG_VARIANT_COUNT
} clg_variant_id;

typedef struct clg_variant {
    const char *name; /* what tests and the benchmark call it */
    clg_variant_family family;
    clg_mapping mapping;
    const char *program; /* kernels_cl/ source it is built from */
    const char *kernel;  /* the kernel function */
    const char *options; /* build options that select it, beyond those of the shape and the tuning */
    const char *applies; /* when its launcher picks it */
} clg_variant;

/* Entry `id` of the registry. */
const clg_variant *clg_variant_get(clg_variant_id id);

/* The variant named `name`, or -1. */
int clg_variant_find(const char *name);

/* The family's name ("gather and gather-nd", "gather-elements", ...). */
const char *clg_variant_family_name(clg_variant_family family);

#endif
