/* Size arithmetic: the smaller and larger of two sizes, and overflow-aware products. A product
 * overflows only if it is really larger than 2^64 - 1, so a zero factor makes any product zero (an
 * empty tensor is never "too large"). */
#ifndef CLG_SIZE_MATH_H
#define CLG_SIZE_MATH_H

#include <stdbool.h>
#include <stdint.h>

typedef struct clg_size {
    uint64_t value; /* meaningful when !overflow */
    bool overflow;
} clg_size;

static inline uint64_t clg_min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }
static inline uint64_t clg_max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

static inline clg_size clg_size_of(uint64_t v) { return (clg_size){v, false}; }

static inline bool clg_size_is_zero(clg_size s) { return !s.overflow && s.value == 0; }

static inline clg_size clg_size_mul(clg_size a, clg_size b)
{
    if (clg_size_is_zero(a) || clg_size_is_zero(b)) return clg_size_of(0);
    if (a.overflow || b.overflow) return (clg_size){0, true};
    uint64_t r;
    if (__builtin_mul_overflow(a.value, b.value, &r)) return (clg_size){0, true};
    return clg_size_of(r);
}

/* Product of shape[from..to) (dimensions already checked non-negative). */
static inline clg_size clg_size_product(const int64_t *shape, int32_t from, int32_t to)
{
    clg_size p = clg_size_of(1);
    for (int32_t d = from; d < to; ++d) p = clg_size_mul(p, clg_size_of((uint64_t)shape[d]));
    return p;
}

#endif
