#include "program_cache.h"

#include "status.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define CLG_OPTIONS_CAPACITY 512
#define CLG_KERNEL_NAME_CAPACITY 64
#define CLG_BUILD_LOG_SHOWN 700

typedef struct kernel_pool {
    char name[CLG_KERNEL_NAME_CAPACITY];
    cl_kernel *idle;
    size_t idle_count, idle_capacity;
    struct kernel_pool *next;
} kernel_pool;

typedef struct program_entry {
    const char *source_name;
    char options[CLG_OPTIONS_CAPACITY];
    cl_program program;
    kernel_pool *pools;
    struct program_entry *next;
} program_entry;

struct clg_program_cache {
    cl_context context;
    cl_device_id device;
    pthread_mutex_t lock;
    program_entry *programs;
    size_t program_count;
};

clg_status clg_program_cache_create(cl_context context, cl_device_id device, clg_program_cache **out)
{
    clg_program_cache *cache = calloc(1, sizeof *cache);
    if (!cache) return clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "cannot allocate the program cache");
    if (pthread_mutex_init(&cache->lock, NULL) != 0) {
        free(cache);
        return clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "cannot create the program cache mutex");
    }
    cache->context = context;
    cache->device = device;
    *out = cache;
    return CLG_SUCCESS;
}

void clg_program_cache_destroy(clg_program_cache *cache)
{
    if (!cache) return;
    for (program_entry *e = cache->programs; e;) {
        for (kernel_pool *p = e->pools; p;) {
            for (size_t i = 0; i < p->idle_count; ++i) clReleaseKernel(p->idle[i]);
            free(p->idle);
            kernel_pool *next_pool = p->next;
            free(p);
            p = next_pool;
        }
        clReleaseProgram(e->program);
        program_entry *next = e->next;
        free(e);
        e = next;
    }
    pthread_mutex_destroy(&cache->lock);
    free(cache);
}

static clg_status build_program(clg_program_cache *cache, const clg_kernel_source *source, const char *options,
                                cl_program *out)
{
    cl_int err = CL_SUCCESS;
    const char *text = source->text;
    cl_program program = clCreateProgramWithSource(cache->context, 1, &text, NULL, &err);
    if (err != CL_SUCCESS) return clg_fail_cl(err, "clCreateProgramWithSource");
    err = clBuildProgram(program, 1, &cache->device, options, NULL, NULL);
    if (err == CL_SUCCESS) {
        *out = program;
        return CLG_SUCCESS;
    }
    char log[CLG_BUILD_LOG_SHOWN + 1];
    size_t got = 0;
    if (clGetProgramBuildInfo(program, cache->device, CL_PROGRAM_BUILD_LOG, CLG_BUILD_LOG_SHOWN, log, &got) != CL_SUCCESS)
        got = 0;
    log[got < sizeof log ? got : sizeof log - 1] = '\0';
    clReleaseProgram(program);
    return clg_fail(CLG_ERR_KERNEL_BUILD, "building %s with options \"%s\" failed (%d): %s", source->name, options,
                    (int)err, log);
}

/* Called with the lock held. */
static clg_status find_or_build(clg_program_cache *cache, const clg_kernel_source *source, const char *options,
                                program_entry **out)
{
    for (program_entry *e = cache->programs; e; e = e->next)
        if (e->source_name == source->name && strcmp(e->options, options) == 0) {
            *out = e;
            return CLG_SUCCESS;
        }
    if (strlen(options) >= CLG_OPTIONS_CAPACITY)
        return clg_fail(CLG_ERR_INTERNAL, "build options too long: %s", options);
    program_entry *e = calloc(1, sizeof *e);
    if (!e) return clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "cannot allocate a program cache entry");
    clg_status st = build_program(cache, source, options, &e->program);
    if (st != CLG_SUCCESS) {
        free(e);
        return st;
    }
    e->source_name = source->name;
    strcpy(e->options, options);
    e->next = cache->programs;
    cache->programs = e;
    cache->program_count++;
    *out = e;
    return CLG_SUCCESS;
}

static kernel_pool *find_or_add_pool(program_entry *e, const char *kernel_name)
{
    for (kernel_pool *p = e->pools; p; p = p->next)
        if (strcmp(p->name, kernel_name) == 0) return p;
    if (strlen(kernel_name) >= CLG_KERNEL_NAME_CAPACITY) return NULL;
    kernel_pool *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    strcpy(p->name, kernel_name);
    p->next = e->pools;
    e->pools = p;
    return p;
}

clg_status clg_kernel_borrow(clg_program_cache *cache, const clg_kernel_source *source, const char *options,
                             const char *kernel_name, clg_kernel_lease *lease)
{
    /* Building under the lock keeps one build per specialization; later calls only take the lock
     * briefly to pop a kernel. */
    pthread_mutex_lock(&cache->lock);
    program_entry *entry = NULL;
    clg_status st = find_or_build(cache, source, options, &entry);
    kernel_pool *pool = NULL;
    cl_kernel kernel = NULL;
    if (st == CLG_SUCCESS) {
        pool = find_or_add_pool(entry, kernel_name);
        if (!pool)
            st = clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "cannot allocate a kernel pool for %s", kernel_name);
        else if (pool->idle_count > 0)
            kernel = pool->idle[--pool->idle_count];
    }
    cl_program program = entry ? entry->program : NULL;
    pthread_mutex_unlock(&cache->lock);
    if (st != CLG_SUCCESS) return st;
    if (!kernel) {
        cl_int err = CL_SUCCESS;
        kernel = clCreateKernel(program, kernel_name, &err);
        if (err != CL_SUCCESS) return clg_fail_cl(err, "clCreateKernel");
    }
    lease->kernel = kernel;
    lease->pool = pool;
    return CLG_SUCCESS;
}

void clg_kernel_return(clg_program_cache *cache, clg_kernel_lease *lease)
{
    if (!lease->kernel) return;
    kernel_pool *pool = lease->pool;
    pthread_mutex_lock(&cache->lock);
    if (pool->idle_count == pool->idle_capacity) {
        size_t capacity = pool->idle_capacity ? pool->idle_capacity * 2 : 4;
        cl_kernel *grown = realloc(pool->idle, capacity * sizeof *grown);
        if (grown) {
            pool->idle = grown;
            pool->idle_capacity = capacity;
        }
    }
    if (pool->idle_count < pool->idle_capacity) {
        pool->idle[pool->idle_count++] = lease->kernel;
        lease->kernel = NULL;
    }
    pthread_mutex_unlock(&cache->lock);
    if (lease->kernel) clReleaseKernel(lease->kernel); /* no room to keep it */
    lease->kernel = NULL;
}

size_t clg_program_cache_size(clg_program_cache *cache)
{
    pthread_mutex_lock(&cache->lock);
    size_t n = cache->program_count;
    pthread_mutex_unlock(&cache->lock);
    return n;
}
