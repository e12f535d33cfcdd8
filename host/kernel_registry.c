#include "kernel_registry.h"

#include "kernel_sources.h"

#include <string.h>

const clg_kernel_source *clg_kernel_source_named(const char *name)
{
    const clg_kernel_source *const all[] = {&clg_kernel_gather, &clg_kernel_gather_tree};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; ++k)
        if (strcmp(all[k]->name, name) == 0) return all[k];
    return NULL;
}
