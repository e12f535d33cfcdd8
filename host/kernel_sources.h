/* The .cl sources of kernels_cl/, embedded at build time by cmake/embed_kernel.cmake. */
#ifndef CLG_KERNEL_SOURCES_H
#define CLG_KERNEL_SOURCES_H

#include "program_cache.h"

extern const char clg_source_gather_cl[];
extern const char clg_source_gather_tree_cl[];

extern const clg_kernel_source clg_kernel_gather;
extern const clg_kernel_source clg_kernel_gather_tree;

#endif
