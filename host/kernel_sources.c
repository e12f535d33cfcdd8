#include "kernel_sources.h"

const clg_kernel_source clg_kernel_gather = {"gather.cl", clg_source_gather_cl};
const clg_kernel_source clg_kernel_gather_tree = {"gather_tree.cl", clg_source_gather_tree_cl};
