/* What the differential fuzz targets share: the OpenCL contexts they run on (the blocking error policy's
 * and the deferred one's), buffers with guard bytes around a tensor, and the checks of an output or an
 * input between its guards. */
#ifndef CLG_FUZZ_DEVICE_H
#define CLG_FUZZ_DEVICE_H

#include "clgather.h"

#include <stddef.h>

enum { FUZZ_GUARD_MAX = 64, FUZZ_POISON = 0xA5 };

/* The default device's context, created on first use (abort if there is none). */
clg_context *fuzz_device_context(void);

/* A context on the same OpenCL context and device under the deferred error policy
 * (CLG_CONTEXT_DEFER_ERRORS), created on first use: it takes the same buffers. */
clg_context *fuzz_deferred_context(void);

/* 1 if the n bytes at p all hold FUZZ_POISON. */
int fuzz_all_poison(const unsigned char *p, size_t n);

/* n rounded up to a multiple of unit: a guard that keeps the tensor after it aligned to its element. */
size_t fuzz_round_up(size_t n, size_t unit);

/* A device buffer of guard + bytes + guard bytes: content (or FUZZ_POISON where content is NULL)
 * between guards of FUZZ_POISON. */
cl_mem fuzz_guarded_buffer(const void *content, size_t bytes, size_t guard);

/* Read guard + bytes + guard of `buffer` into region (blocking), then check the guards: abort naming
 * `target` if a guard byte was written; 1 if the bytes between them all hold FUZZ_POISON. */
int fuzz_read_guarded(const char *target, cl_mem buffer, size_t bytes, size_t guard, unsigned char *region);

/* Read guard + bytes + guard of an input's `buffer` (blocking): abort naming `target` if a guard byte
 * was written or the bytes between them are no longer `content`. */
void fuzz_check_input(const char *target, cl_mem buffer, const void *content, size_t bytes, size_t guard);

/* A difference found: print the target, what differed and the library's last message, and abort. */
_Noreturn void fuzz_differ(const char *target, const char *what);

#endif
