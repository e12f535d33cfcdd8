#include "fuzz_device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

clg_context *fuzz_device_context(void)
{
    static clg_context *ctx;
    if (!ctx && clg_context_create_default(NULL, 0, &ctx) != CLG_SUCCESS) abort();
    return ctx;
}

clg_context *fuzz_deferred_context(void)
{
    static clg_context *ctx;
    clg_context *device = fuzz_device_context();
    if (!ctx && clg_context_create(clg_context_cl_context(device), clg_context_cl_device(device),
                                   CLG_CONTEXT_DEFER_ERRORS, &ctx) != CLG_SUCCESS)
        abort();
    return ctx;
}

int fuzz_all_poison(const unsigned char *p, size_t n)
{
    for (size_t k = 0; k < n; ++k)
        if (p[k] != FUZZ_POISON) return 0;
    return 1;
}

size_t fuzz_round_up(size_t n, size_t unit) { return (n + unit - 1) / unit * unit; }

cl_mem fuzz_guarded_buffer(const void *content, size_t bytes, size_t guard)
{
    size_t total = guard + bytes + guard;
    if (total == 0) total = 1; /* OpenCL has no empty buffers */
    unsigned char *staging = malloc(total);
    memset(staging, FUZZ_POISON, total);
    if (content) memcpy(staging + guard, content, bytes);
    cl_int err;
    cl_mem m = clCreateBuffer(clg_context_cl_context(fuzz_device_context()), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              total, staging, &err);
    free(staging);
    if (err != CL_SUCCESS) abort();
    return m;
}

int fuzz_read_guarded(const char *target, cl_mem buffer, size_t bytes, size_t guard, unsigned char *region)
{
    if (clEnqueueReadBuffer(clg_context_cl_queue(fuzz_device_context()), buffer, CL_TRUE, 0, guard + bytes + guard,
                            region, 0, NULL, NULL))
        abort();
    if (!fuzz_all_poison(region, guard) || !fuzz_all_poison(region + guard + bytes, guard))
        fuzz_differ(target, "guard bytes touched");
    return fuzz_all_poison(region + guard, bytes);
}

void fuzz_check_input(const char *target, cl_mem buffer, const void *content, size_t bytes, size_t guard)
{
    unsigned char *region = malloc(guard + bytes + guard + 1);
    (void)fuzz_read_guarded(target, buffer, bytes, guard, region);
    if (bytes && memcmp(region + guard, content, bytes) != 0) fuzz_differ(target, "an input buffer written");
    free(region);
}

void fuzz_differ(const char *target, const char *what)
{
    fprintf(stderr, "%s: %s (%s)\n", target, what, clg_last_error_message());
    abort();
}
