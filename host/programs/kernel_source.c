#include "programs/kernel_source.h"

#include "kernel_table.h"

#include <string.h>

const clg_kernel_source *clg_kernel_source_named(const char *name)
{
    for (size_t k = 0; k < clg_kernel_table_size; ++k)
        if (strcmp(clg_kernel_table[k]->name, name) == 0) return clg_kernel_table[k];
    return NULL;
}
