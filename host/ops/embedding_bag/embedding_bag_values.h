/* How EmbeddingBag reads its inputs on the host, exactly as its kernels do (kernels_cl/embedding_bag.cl):
 * integers of any type as int64 with unsigned values above INT64_MAX held at INT64_MAX (out of every
 * range, so the checks fail on them as on the value itself), and each bag's range of indices. */
#ifndef CLG_EMBEDDING_BAG_VALUES_H
#define CLG_EMBEDDING_BAG_VALUES_H

#include "ops/embedding_bag/embedding_bag_plan.h"

/* Element pos of an integer tensor, unsigned values above INT64_MAX held at INT64_MAX. */
int64_t clg_bag_read_int(const void *base, clg_dtype type, uint64_t pos);

/* The first of positions [from, to) of an integer tensor whose value lies outside [0, N), else `to`
 * (N <= INT64_MAX, a table's rows): the checks' rule for an index, in a loop of each common index type's
 * own (a host-memory call scans every index before its kernel runs). */
uint64_t clg_bag_first_index_outside(const void *indices, clg_dtype type, uint64_t from, uint64_t to, uint64_t N);

/* The indices [*start, *end) of bag b, the inputs having passed the checks. */
void clg_bag_range(const clg_embedding_bag_plan *p, const void *bags, uint64_t b, uint64_t *start, uint64_t *end);

#endif
