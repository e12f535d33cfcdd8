#include "ops/embedding_bag/embedding_bag_values.h"

#include "core/index_value.h"

int64_t clg_bag_read_int(const void *base, clg_dtype type, uint64_t pos)
{
    const clg_integer v = clg_read_integer(base, type, pos);
    if (!v.is_unsigned) return v.s;
    return v.u > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v.u;
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
