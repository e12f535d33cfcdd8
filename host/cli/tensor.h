/* A host tensor: element type, shape (C order) and the bytes, owned. */
#ifndef CLI_TENSOR_H
#define CLI_TENSOR_H

#include "clgather.h"

#include <stddef.h>
#include <stdint.h>

typedef struct cli_tensor {
    clg_dtype type;
    int32_t rank; /* 0..CLG_MAX_OUTPUT_RANK (outputs may exceed CLG_MAX_RANK) */
    int64_t shape[CLG_MAX_OUTPUT_RANK];
    uint64_t count;       /* number of elements */
    size_t byte_size;     /* count * element size */
    unsigned char *bytes; /* malloc'ed, never NULL after cli_tensor_alloc succeeds */
} cli_tensor;

/* Element count and byte size of a shape; returns 0, -1 for a negative dimension (its position in
 * *bad_dim) or -2 when the product overflows 63 bits or size_t. */
int cli_shape_size(int32_t rank, const int64_t *shape, size_t element_size, uint64_t *count, uint64_t *bytes,
                   int32_t *bad_dim);

/* Allocate a zero-filled tensor. On failure records "<what>: <reason>" and returns CLI_EXIT_REFUSED. */
int cli_tensor_alloc(cli_tensor *t, clg_dtype type, int32_t rank, const int64_t *shape, const char *what);

/* Free the bytes and reset (safe on a zeroed or already freed tensor). */
void cli_tensor_free(cli_tensor *t);

/* The library's description of a tensor (rank must be at most CLG_MAX_RANK). */
clg_tensor_desc cli_tensor_desc(const cli_tensor *t);

/* Write "[2, 3]" into text. */
void cli_format_shape(int32_t rank, const int64_t *shape, char *text, size_t capacity);

#endif
