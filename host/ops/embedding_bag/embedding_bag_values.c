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
 * W and compared as unsigned: a negative value is out of range as a huge one is (N <= INT64_MAX). Blocks
 * of SCAN_BLOCK are screened first without a branch on each value (a loop the compiler vectorizes), then
 * the block that holds an index outside, if any, is walked to it. */
#define SCAN_BLOCK 64
#define SCAN_OUTSIDE(T, W)                                               \
    do {                                                                 \
        const unsigned char *at = indices;                               \
        uint64_t i = from;                                               \
        for (; i < to && to - i >= SCAN_BLOCK; i += SCAN_BLOCK) {        \
            unsigned outside = 0;                                        \
            for (int k = 0; k < SCAN_BLOCK; ++k) {                       \
                T v;                                                     \
                memcpy(&v, at + (i + (uint64_t)k) * sizeof v, sizeof v); \
                outside |= (uint64_t)(W)v >= N;                          \
            }                                                            \
            if (outside) break;                                          \
        }                                                                \
        for (; i < to; ++i) {                                            \
            T v;                                                         \
            memcpy(&v, at + i * sizeof v, sizeof v);                     \
            if ((uint64_t)(W)v >= N) return i;                           \
        }                                                                \
        return to;                                                       \
    } while (0)

uint64_t clg_bag_first_index_outside(const void *indices, clg_dtype type, uint64_t from, uint64_t to, uint64_t N)
{
    switch (type) {
    case CLG_I64: SCAN_OUTSIDE(int64_t, int64_t);
    case CLG_I32: SCAN_OUTSIDE(int32_t, int64_t);
    case CLG_U64: SCAN_OUTSIDE(uint64_t, uint64_t);
    case CLG_U32: SCAN_OUTSIDE(uint32_t, uint64_t);
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
