/* Finding an embedded kernel source by name (imported binaries name the source they came from). */
#ifndef CLG_KERNEL_REGISTRY_H
#define CLG_KERNEL_REGISTRY_H

#include "program_cache.h"

/* The embedded source called name ("gather.cl", ...), or NULL. */
const clg_kernel_source *clg_kernel_source_named(const char *name);

#endif
