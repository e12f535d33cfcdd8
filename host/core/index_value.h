/* What an index value means: integer reads of any integer element type, and the one-wrap rule
 * (a negative index i stands for A + i) used by the CPU reference and by error reporting. */
#ifndef CLG_INDEX_VALUE_H
#define CLG_INDEX_VALUE_H

#include "clgather.h"

#include <stdbool.h>

/* An integer of any clg integer type, kept exactly: either a signed value or an unsigned one. */
typedef struct clg_integer {
    bool is_unsigned;
    int64_t s;
    uint64_t u;
} clg_integer;

/* The bits of an element of `size` bytes (1, 2, 4 or 8) at p, which need not be aligned. */
uint64_t clg_load_bits(const void *p, size_t size);

/* Those bits read as a signed integer of `size` bytes. */
int64_t clg_sign_extend(uint64_t bits, size_t size);

bool clg_dtype_is_integer(clg_dtype type);
bool clg_dtype_is_signed_integer(clg_dtype type);

/* Read element pos of an integer tensor at base. The type must be an integer type. */
clg_integer clg_read_integer(const void *base, clg_dtype type, uint64_t pos);

/* Apply the one-wrap rule: true and *row in [0, A) if the index is in range. */
bool clg_index_in_range(clg_integer value, uint64_t A, uint64_t *row);

/* Print the value exactly ("-20", "18446744073709551615") into buf. */
void clg_integer_format(clg_integer value, char *buf, size_t size);

/* The build options of kernels_cl/index_rules.h for an index type: IDX_T, IDX_BYTES, IDX_SIGNED, and
 * OFF64 and CLAMP as given. */
void clg_index_rules_options(clg_dtype index_type, int offsets64, int clamp, char *buf, size_t size);

/* Print a flat position of a tensor as "[i, j, k]" (or "[]" for a scalar) into buf. */
void clg_format_position(const int64_t *shape, int32_t rank, uint64_t flat, char *buf, size_t size);

#endif
