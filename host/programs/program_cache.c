#include "programs/program_cache.h"

#include "core/status.h"
#include "programs/binary_store.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLG_KERNEL_NAME_CAPACITY 64
#define CLG_BUILD_LOG_SHOWN      700
#define CLG_KEY_CAPACITY         4096

typedef struct kernel_pool {
    char name[CLG_KERNEL_NAME_CAPACITY];
    cl_kernel *idle;
    size_t idle_count, idle_capacity;
    size_t max_local_size; /* CL_KERNEL_WORK_GROUP_SIZE, 0 until a kernel has been created */
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
    char device_key[1024]; /* what, besides source and options, decides the binary */
    char directory[4096];  /* the persistent cache, "" when off */
    clg_program_origins origins;
};

clg_status clg_program_cache_create(cl_context context, cl_device_id device, int driver_caches_programs,
                                    clg_program_cache **out)
{
    clg_program_cache *cache = calloc(1, sizeof *cache);
    if (!cache) return clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "cannot allocate the program cache");
    if (pthread_mutex_init(&cache->lock, NULL) != 0) {
        free(cache);
        return clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "cannot create the program cache mutex");
    }
    cache->context = context;
    cache->device = device;
    char platform_version[256] = "", device_name[256] = "", driver[256] = "";
    cl_platform_id platform = NULL;
    clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
    clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof platform_version - 1, platform_version, NULL);
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof device_name - 1, device_name, NULL);
    clGetDeviceInfo(device, CL_DRIVER_VERSION, sizeof driver - 1, driver, NULL);
    snprintf(cache->device_key, sizeof cache->device_key, "clgather %s\ndevice %s\ndriver %s\nplatform %s\n",
             clg_version(), device_name, driver, platform_version);
    const char *dir = clg_cache_directory(cache->directory, sizeof cache->directory, driver_caches_programs);
    if (!dir) cache->directory[0] = '\0';
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

const char *clg_program_cache_device_key(const clg_program_cache *cache) { return cache->device_key; }

void clg_program_key(const clg_program_cache *cache, const clg_kernel_source *source, const char *options, char *key,
                     size_t size)
{
    size_t length = strlen(source->text);
    snprintf(key, size, "%ssource %s %016" PRIx64 " %zu\noptions %s\n", cache->device_key, source->name,
             clg_hash64(source->text, length, CLG_HASH_SEED), length, options);
}

/* A program from a binary; 0 on any failure (the caller then builds from source). */
static cl_program program_from_binary(clg_program_cache *cache, const unsigned char *binary, size_t size,
                                      const char *options)
{
    cl_int err = CL_SUCCESS, binary_status = CL_SUCCESS;
    cl_program program =
        clCreateProgramWithBinary(cache->context, 1, &cache->device, &size, &binary, &binary_status, &err);
    if (err != CL_SUCCESS || binary_status != CL_SUCCESS) {
        if (program) clReleaseProgram(program);
        return NULL;
    }
    if (clBuildProgram(program, 1, &cache->device, options, NULL, NULL) != CL_SUCCESS) {
        clReleaseProgram(program);
        return NULL;
    }
    return program;
}

static void store_binary(clg_program_cache *cache, cl_program program, const char *key)
{
    size_t size = 0;
    if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS || size == 0) return;
    unsigned char *binary = malloc(size);
    if (!binary) return;
    if (clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof binary, &binary, NULL) == CL_SUCCESS)
        clg_disk_cache_store(cache->directory, key, binary, size);
    free(binary);
}

static clg_status build_from_source(clg_program_cache *cache, const clg_kernel_source *source, const char *options,
                                    cl_program *out);

static clg_status build_program(clg_program_cache *cache, const clg_kernel_source *source, const char *options,
                                cl_program *out)
{
    char key[CLG_KEY_CAPACITY];
    clg_program_key(cache, source, options, key, sizeof key);
    if (cache->directory[0]) {
        unsigned char *binary = NULL;
        size_t size = 0;
        if (clg_disk_cache_load(cache->directory, key, &binary, &size)) {
            *out = program_from_binary(cache, binary, size, options);
            free(binary);
            if (*out) {
                cache->origins.from_disk++;
                return CLG_SUCCESS;
            }
        }
    }
    clg_status st = build_from_source(cache, source, options, out);
    if (st == CLG_SUCCESS && cache->directory[0]) store_binary(cache, *out, key);
    return st;
}

static clg_status build_from_source(clg_program_cache *cache, const clg_kernel_source *source, const char *options,
                                    cl_program *out)
{
    cl_int err = CL_SUCCESS;
    const char *text = source->text;
    cl_program program = clCreateProgramWithSource(cache->context, 1, &text, NULL, &err);
    if (err != CL_SUCCESS) return clg_fail_cl(err, "clCreateProgramWithSource");
    err = clBuildProgram(program, 1, &cache->device, options, NULL, NULL);
    if (err == CL_SUCCESS) {
        cache->origins.from_source++;
        *out = program;
        return CLG_SUCCESS;
    }
    char log[CLG_BUILD_LOG_SHOWN + 1];
    size_t got = 0;
    if (clGetProgramBuildInfo(program, cache->device, CL_PROGRAM_BUILD_LOG, CLG_BUILD_LOG_SHOWN, log, &got) !=
        CL_SUCCESS)
        got = 0;
    log[got < sizeof log ? got : sizeof log - 1] = '\0';
    clReleaseProgram(program);
    return clg_fail(CLG_ERR_KERNEL_BUILD, "building %s with options \"%s\" failed (%d): %s", source->name, options,
                    (int)err, log);
}

/* Called with the lock held: add a built program for (source, options). */
static void add_entry(clg_program_cache *cache, const clg_kernel_source *source, const char *options,
                      cl_program program, program_entry *e)
{
    e->source_name = source->name;
    strcpy(e->options, options);
    e->program = program;
    e->next = cache->programs;
    cache->programs = e;
    cache->program_count++;
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
    add_entry(cache, source, options, e->program, e);
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
    size_t max_local_size = 0;
    if (st == CLG_SUCCESS) {
        pool = find_or_add_pool(entry, kernel_name);
        if (!pool)
            st = clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "cannot allocate a kernel pool for %s", kernel_name);
        else if (pool->idle_count > 0)
            kernel = pool->idle[--pool->idle_count];
        if (pool) max_local_size = pool->max_local_size;
    }
    cl_program program = entry ? entry->program : NULL;
    pthread_mutex_unlock(&cache->lock);
    if (st != CLG_SUCCESS) return st;
    if (!kernel) {
        cl_int err = CL_SUCCESS;
        kernel = clCreateKernel(program, kernel_name, &err);
        if (err != CL_SUCCESS) return clg_fail_cl(err, "clCreateKernel");
    }
    if (max_local_size == 0) {
        /* what this kernel allows on the device, which may be less than the device's maximum */
        if (clGetKernelWorkGroupInfo(kernel, cache->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof max_local_size,
                                     &max_local_size, NULL) != CL_SUCCESS ||
            max_local_size == 0)
            max_local_size = 1;
        pthread_mutex_lock(&cache->lock);
        pool->max_local_size = max_local_size;
        pthread_mutex_unlock(&cache->lock);
    }
    lease->kernel = kernel;
    lease->max_local_size = max_local_size;
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

clg_program_origins clg_program_cache_origins(clg_program_cache *cache)
{
    pthread_mutex_lock(&cache->lock);
    clg_program_origins o = cache->origins;
    pthread_mutex_unlock(&cache->lock);
    return o;
}

int clg_program_cache_preload(clg_program_cache *cache, const clg_kernel_source *source, const char *options,
                              const char *key, const unsigned char *binary, size_t size)
{
    char expected[CLG_KEY_CAPACITY];
    if (strlen(options) >= CLG_OPTIONS_CAPACITY) return 0;
    clg_program_key(cache, source, options, expected, sizeof expected);
    if (strcmp(expected, key) != 0) return 0; /* another device, driver, version or source */
    program_entry *e = calloc(1, sizeof *e);
    if (!e) return 0;
    cl_program program = program_from_binary(cache, binary, size, options);
    if (!program) {
        free(e);
        return 0;
    }
    pthread_mutex_lock(&cache->lock);
    int present = 0;
    for (program_entry *x = cache->programs; x; x = x->next)
        present |= x->source_name == source->name && strcmp(x->options, options) == 0;
    if (!present) {
        add_entry(cache, source, options, program, e);
        cache->origins.from_blob++;
    }
    pthread_mutex_unlock(&cache->lock);
    if (present) {
        clReleaseProgram(program);
        free(e);
    }
    return !present;
}

clg_status clg_program_cache_export(clg_program_cache *cache, void *blob, size_t capacity, size_t *blob_size)
{
    pthread_mutex_lock(&cache->lock);
    size_t count = cache->program_count;
    clg_blob_record *records = calloc(count ? count : 1, sizeof *records);
    char(*keys)[CLG_KEY_CAPACITY] = calloc(count ? count : 1, CLG_KEY_CAPACITY);
    clg_status st =
        (records && keys) ? CLG_SUCCESS : clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "cannot allocate the export");
    size_t k = 0;
    for (program_entry *e = cache->programs; e && st == CLG_SUCCESS; e = e->next, ++k) {
        size_t size = 0;
        cl_int err = clGetProgramInfo(e->program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL);
        unsigned char *binary = err == CL_SUCCESS && size ? malloc(size) : NULL;
        if (binary) err = clGetProgramInfo(e->program, CL_PROGRAM_BINARIES, sizeof binary, &binary, NULL);
        if (!binary || err != CL_SUCCESS) {
            free(binary);
            st = err != CL_SUCCESS ? clg_fail_cl(err, "clGetProgramInfo(CL_PROGRAM_BINARIES)")
                                   : clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "cannot allocate a program binary");
            break;
        }
        const clg_kernel_source *source = clg_kernel_source_named(e->source_name);
        if (source) clg_program_key(cache, source, e->options, keys[k], CLG_KEY_CAPACITY);
        records[k] = (clg_blob_record){e->source_name, e->options, keys[k], binary, size};
    }
    pthread_mutex_unlock(&cache->lock);
    if (st == CLG_SUCCESS) {
        size_t need = clg_blob_size(records, count);
        *blob_size = need;
        if (blob && capacity >= need)
            clg_blob_write(records, count, blob);
        else if (blob)
            st = clg_fail(CLG_ERR_BUFFER_TOO_SMALL, "capacity = %zu is smaller than the %zu bytes the export needs",
                          capacity, need);
    }
    for (size_t i = 0; records && i < count; ++i) free((void *)records[i].binary);
    free(records);
    free(keys);
    return st;
}
