/* Compiled programs of one context, one per (source, build options), built on first use and kept
 * until the context is released. Kernels are lent out from per-program pools: clSetKernelArg on a
 * shared cl_kernel is not thread-safe, but arguments are captured at enqueue, so a kernel can go
 * back to the pool right after it is enqueued. */
#ifndef CLG_PROGRAM_CACHE_H
#define CLG_PROGRAM_CACHE_H

#include "clgather.h"
#include "programs/kernel_source.h"

typedef struct clg_program_cache clg_program_cache;

/* The longest build options a program may have, NUL included. */
#define CLG_OPTIONS_CAPACITY 2048

typedef struct clg_kernel_lease {
    cl_kernel kernel;
    size_t max_local_size; /* CL_KERNEL_WORK_GROUP_SIZE of this kernel on the cache's device */
    void *pool;            /* where it goes back */
} clg_kernel_lease;

/* driver_caches_programs: the driver keeps built programs itself, so the disk cache stays off unless
 * CLGATHER_CACHE=1 (binary_store.h). */
clg_status clg_program_cache_create(cl_context context, cl_device_id device, int driver_caches_programs,
                                    clg_program_cache **out);
void clg_program_cache_destroy(clg_program_cache *cache);

/* Lend a kernel `kernel_name` from the program built from source with options. */
clg_status clg_kernel_borrow(clg_program_cache *cache, const clg_kernel_source *source, const char *options,
                             const char *kernel_name, clg_kernel_lease *lease);
void clg_kernel_return(clg_program_cache *cache, clg_kernel_lease *lease);

/* How the programs of a cache came to be (for tests and the benchmark). */
typedef struct clg_program_origins {
    size_t from_source, from_disk, from_blob;
} clg_program_origins;
clg_program_origins clg_program_cache_origins(clg_program_cache *cache);

/* The text that identifies a program binary: library version, device, driver, platform version,
 * source name and hash, build options. */
/* What, besides source and options, decides a program's binary: the device, its driver and platform
 * versions and clgather's version (text lines). Tuning profiles are keyed by it too. */
const char *clg_program_cache_device_key(const clg_program_cache *cache);

void clg_program_key(const clg_program_cache *cache, const clg_kernel_source *source, const char *options, char *key,
                     size_t size);

/* Add a program from a binary if key is what this cache would compute for (source, options) and the
 * program is not there yet. Returns 1 if added. */
int clg_program_cache_preload(clg_program_cache *cache, const clg_kernel_source *source, const char *options,
                              const char *key, const unsigned char *binary, size_t size);

/* Serialize every built program (binary_store.h blob format); *blob_size gets the size needed. With
 * blob NULL only the size is computed. */
clg_status clg_program_cache_export(clg_program_cache *cache, void *blob, size_t capacity, size_t *blob_size);

/* Number of programs built so far (for tests of the cache). */
size_t clg_program_cache_size(clg_program_cache *cache);

#endif
