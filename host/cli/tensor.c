#include "tensor.h"

#include "cli_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_shape_size(int32_t rank, const int64_t *shape, size_t element_size, uint64_t *count, uint64_t *bytes,
                   int32_t *bad_dim)
{
    /* The bytes of the non-zero dimensions are bounded too: a shape like (0, 2^62, 2^62) holds no
     * element, but its sizes would overflow as soon as anything multiplies them. */
    uint64_t nonzero_bytes = element_size ? element_size : 1;
    uint64_t elements = 1;
    for (int32_t i = 0; i < rank; ++i) {
        if (shape[i] < 0) {
            if (bad_dim) *bad_dim = i;
            return -1;
        }
        if (shape[i] == 0) {
            elements = 0;
            continue;
        }
        if (nonzero_bytes > (uint64_t)INT64_MAX / (uint64_t)shape[i]) {
            if (bad_dim) *bad_dim = i;
            return -2;
        }
        nonzero_bytes *= (uint64_t)shape[i];
        elements *= (uint64_t)shape[i]; /* bounded by nonzero_bytes */
    }
    if (nonzero_bytes > (uint64_t)SIZE_MAX) {
        if (bad_dim) *bad_dim = rank > 0 ? rank - 1 : 0;
        return -2;
    }
    if (count) *count = elements;
    if (bytes) *bytes = elements * element_size;
    return 0;
}

int cli_tensor_alloc(cli_tensor *t, clg_dtype type, int32_t rank, const int64_t *shape, const char *what)
{
    memset(t, 0, sizeof *t);
    size_t element_size = clg_dtype_size(type);
    if (element_size == 0) return cli_fail(CLI_EXIT_REFUSED, "%s: invalid element type", what);
    if (rank < 0 || rank > CLG_MAX_OUTPUT_RANK)
        return cli_fail(CLI_EXIT_REFUSED, "%s: rank %d is outside [0, %d]", what, (int)rank, CLG_MAX_OUTPUT_RANK);
    uint64_t count = 0, bytes = 0;
    int32_t bad = 0;
    int rc = cli_shape_size(rank, shape, element_size, &count, &bytes, &bad);
    if (rc == -1)
        return cli_fail(CLI_EXIT_REFUSED, "%s: dimension %d is negative (%lld)", what, (int)bad, (long long)shape[bad]);
    if (rc != 0) return cli_fail(CLI_EXIT_REFUSED, "%s: the shape's byte size overflows", what);
    t->bytes = calloc(bytes ? (size_t)bytes : 1, 1);
    if (!t->bytes) return cli_fail(CLI_EXIT_REFUSED, "%s: cannot allocate %llu bytes", what, (unsigned long long)bytes);
    t->type = type;
    t->rank = rank;
    for (int32_t i = 0; i < rank; ++i) t->shape[i] = shape[i];
    t->count = count;
    t->byte_size = (size_t)bytes;
    return 0;
}

void cli_tensor_free(cli_tensor *t)
{
    if (!t) return;
    free(t->bytes);
    memset(t, 0, sizeof *t);
}

clg_tensor_desc cli_tensor_desc(const cli_tensor *t)
{
    clg_tensor_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.type = t->type;
    desc.rank = t->rank;
    for (int32_t i = 0; i < t->rank && i < CLG_MAX_RANK; ++i) desc.shape[i] = t->shape[i];
    return desc;
}

void cli_format_shape(int32_t rank, const int64_t *shape, char *text, size_t capacity)
{
    size_t used = 0;
    if (capacity == 0) return;
    text[0] = '\0';
    used += (size_t)snprintf(text, capacity, "[");
    for (int32_t i = 0; i < rank && used < capacity; ++i)
        used += (size_t)snprintf(text + used, capacity - used, "%s%lld", i ? ", " : "", (long long)shape[i]);
    if (used < capacity) snprintf(text + used, capacity - used, "]");
}
