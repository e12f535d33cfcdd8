/* An embedded OpenCL C source: the generated kernel table (kernel_table.h, made at build time from
 * kernels_cl/ by cmake/kernel_table.cmake) holds one per file. */
#ifndef CLG_KERNEL_SOURCE_H
#define CLG_KERNEL_SOURCE_H

#include <stddef.h>

typedef struct clg_kernel_source {
    const char *name; /* the file name in kernels_cl/, e.g. "gather_rows_cpu.cl" */
    const char *text; /* its text, includes inlined */
} clg_kernel_source;

/* The embedded source called name, or NULL. */
const clg_kernel_source *clg_kernel_source_named(const char *name);

#endif
