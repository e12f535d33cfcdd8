#include "ops/embedding_bag/embedding_bag_values.h"

#include "core/index_value.h"

#include <string.h>

int64_t clg_bag_read_int(const void *base, clg_dtype type, uint64_t pos)
{
    const clg_integer v = clg_read_integer(base, type, pos);
    if (!v.is_unsigned) return v.s;
    return v.u > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v.u;
}

/* Element type T read at each position (memcpy: the caller's memory need not be aligned to it), widened to
 * W and compared as unsigned: a negative value is out of range as a huge one is (N <= INT64_MAX). Each
 * block of SCAN_BLOCK positions is first screened by MAYBE_OUTSIDE(v), an expression on 32-bit halves
 * that the compiler vectorizes even without 64-bit vector compares (n32: N held to 32 bits), nonzero for
 * every value outside and perhaps for some inside; only a block it flags is walked value by value. */
#define SCAN_BLOCK 64
#define SCAN_OUTSIDE(T, W, MAYBE_OUTSIDE)                                                        \
    do {                                                                                         \
        const unsigned char *at = indices;                                                       \
        const uint32_t n32 = N > UINT32_MAX ? UINT32_MAX : (uint32_t)N;                          \
        for (uint64_t i = from; i < to;) {                                                       \
            if (to - i >= SCAN_BLOCK) {                                                          \
                unsigned maybe = 0;                                                              \
                for (int k = 0; k < SCAN_BLOCK; ++k) {                                           \
                    T v;                                                                         \
                    memcpy(&v, at + (i + (uint64_t)k) * sizeof v, sizeof v);                     \
                    maybe |= MAYBE_OUTSIDE(v);                                                   \
                }                                                                                \
                if (!maybe) {                                                                    \
                    i += SCAN_BLOCK;                                                             \
                    continue;                                                                    \
                }                                                                                \
            }                                                                                    \
            for (const uint64_t end = to - i > SCAN_BLOCK ? i + SCAN_BLOCK : to; i < end; ++i) { \
                T v;                                                                             \
                memcpy(&v, at + i * sizeof v, sizeof v);                                         \
                if ((uint64_t)(W)v >= N) return i;                                               \
            }                                                                                    \
        }                                                                                        \
        return to;                                                                               \
    } while (0)

/* The screens, each nonzero for every value outside [0, N) and perhaps for some inside: a 64-bit value
 * with a high half (outside where N <= 2^32), a 32-bit one where negative, and either whose low half is
 * at least n32 (outside where N < 2^32). */
#define WIDE_MAYBE_OUTSIDE(v)   (((uint32_t)((uint64_t)(v) >> 32) != 0) | ((uint32_t)(v) >= n32))
#define SIGNED_MAYBE_OUTSIDE(v) (((v) < 0) | ((uint32_t)(v) >= n32))
#define NARROW_MAYBE_OUTSIDE(v) ((uint32_t)(v) >= n32)

uint64_t clg_bag_first_index_outside(const void *indices, clg_dtype type, uint64_t from, uint64_t to, uint64_t N)
{
    switch (type) {
    case CLG_I64: SCAN_OUTSIDE(int64_t, int64_t, WIDE_MAYBE_OUTSIDE);
    case CLG_I32: SCAN_OUTSIDE(int32_t, int64_t, SIGNED_MAYBE_OUTSIDE);
    case CLG_U64: SCAN_OUTSIDE(uint64_t, uint64_t, WIDE_MAYBE_OUTSIDE);
    case CLG_U32: SCAN_OUTSIDE(uint32_t, uint64_t, NARROW_MAYBE_OUTSIDE);
    default:
        for (uint64_t i = from; i < to; ++i) {
            const int64_t v = clg_bag_read_int(indices, type, i);
            if (v < 0 || (uint64_t)v >= N) return i;
        }
        return to;
    }
}

/* The first position of sorted segment ids holding an id >= s. */
static uint64_t first_segment_at_least(const clg_embedding_bag_plan *p, const void *ids, uint64_t s)
{
    uint64_t lo = 0, hi = p->L;
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo) / 2;
        if ((uint64_t)clg_bag_read_int(ids, p->bags_type, mid) < s)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void clg_bag_range(const clg_embedding_bag_plan *p, const void *bags, uint64_t b, uint64_t *start, uint64_t *end)
{
    switch (p->form) {
    case CLG_BAG_PACKED:
        *start = b * p->K;
        *end = *start + p->K;
        break;
    case CLG_BAG_SEGMENTS:
        *start = first_segment_at_least(p, bags, b);
        *end = first_segment_at_least(p, bags, b + 1);
        break;
    default:
        *start = (uint64_t)clg_bag_read_int(bags, p->bags_type, b);
        *end = b + 1 < p->bags_count ? (uint64_t)clg_bag_read_int(bags, p->bags_type, b + 1) : p->L;
        break;
    }
}
