#include "kernel_sources.h"

const clg_kernel_source clg_kernel_gather = {"gather.cl", clg_source_gather_cl};
