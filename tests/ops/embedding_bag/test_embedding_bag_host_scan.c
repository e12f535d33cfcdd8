/* The host's fast screens of EmbeddingBag's inputs (host/ops/embedding_bag): clg_bag_first_index_outside,
 * which screens blocks of indices on 32-bit halves before it walks one, and
 * clg_bag_structure_surely_valid, which passes a bag structure without the judge. Each is held against
 * the plain rule, value by value, on edge values of every width, tables of more than 2^32 rows
 * included (where the screens can only say "maybe"), and on valid and broken structures. */
#include "ops/embedding_bag/embedding_bag_check.h"
#include "ops/embedding_bag/embedding_bag_values.h"
#include "test_support.h"

#include <stdlib.h>

/* ck_assert records its position on every call; in these loops that is most of the run time */
#define REQUIRE(cond, ...)                      \
    do {                                        \
        if (!(cond)) ck_abort_msg(__VA_ARGS__); \
    } while (0)

static support_rng rng = {0x9E3779B97F4A7C15u};

/* The rule, value by value: the first position in [from, to) whose value lies outside [0, N). */
static uint64_t plain_first_outside(const void *base, clg_dtype type, uint64_t from, uint64_t to, uint64_t N)
{
    for (uint64_t i = from; i < to; ++i) {
        const int64_t v = clg_bag_read_int(base, type, i);
        if (v < 0 || (uint64_t)v >= N) return i;
    }
    return to;
}

START_TEST(index_scan_agrees_with_the_rule)
{
    enum { LENGTH = 700 };
    const clg_dtype types[] = {CLG_I64, CLG_U64, CLG_I32, CLG_U32, CLG_I16};
    const uint64_t tables[] = {
        1, 5, 1000, (1u << 31) - 1, 1u << 31, UINT32_MAX, 1ull << 32, (1ull << 32) + 7, 1ull << 33, INT64_MAX};
    const uint64_t edges[] = {0,          1,         UINT32_MAX - 1, UINT32_MAX,          1ull << 32,  (1ull << 32) + 5,
                              1ull << 33, INT64_MAX, (uint64_t)-1,   (uint64_t)INT64_MIN, 0x80000000u, 0xFFFF8000u,
                              0x7FFF};
    uint64_t *values = malloc(LENGTH * sizeof *values);
    ck_assert_ptr_nonnull(values);
    for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t) {
        for (size_t n = 0; n < sizeof tables / sizeof tables[0]; ++n) {
            const uint64_t N = tables[n];
            for (int round = 0; round < 40; ++round) {
                /* values inside [0, N) at most places, an edge value (or N - 1, N, N + 1) at a few */
                const uint64_t count = support_below(&rng, LENGTH);
                for (uint64_t i = 0; i < count; ++i) {
                    support_store_int(values, types[t], i, (int64_t)support_below(&rng, N));
                    if (support_below(&rng, 97) != 0) continue;
                    const uint64_t pick = support_below(&rng, sizeof edges / sizeof edges[0] + 3);
                    const uint64_t edge = pick < sizeof edges / sizeof edges[0] ? edges[pick] : N - 1 + (pick % 3);
                    support_store_int(values, types[t], i, (int64_t)edge);
                }
                const uint64_t from = count ? support_below(&rng, count + 1) : 0;
                const uint64_t to = from + (count > from ? support_below(&rng, count - from + 1) : 0);
                const uint64_t want = plain_first_outside(values, types[t], from, to, N);
                const uint64_t got = clg_bag_first_index_outside(values, types[t], from, to, N);
                REQUIRE(got == want, "%s, N %llu, [%llu, %llu): first outside %llu, the rule says %llu",
                        clg_dtype_name(types[t]), (unsigned long long)N, (unsigned long long)from,
                        (unsigned long long)to, (unsigned long long)got, (unsigned long long)want);
            }
        }
    }
    /* no rows: every index is outside; an empty or reversed range holds none */
    for (int k = 0; k < 100; ++k) values[k] = (uint64_t)k;
    for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t) {
        ck_assert_uint_eq(clg_bag_first_index_outside(values, types[t], 3, 90, 0), 3);
        ck_assert_uint_eq(clg_bag_first_index_outside(values, types[t], 90, 3, 5), 3);
        ck_assert_uint_eq(clg_bag_first_index_outside(values, types[t], 7, 7, 0), 7);
    }
    free(values);
}
END_TEST

/* A plan for a bag structure of `count` values of `type`. */
static clg_embedding_bag_plan structure_plan(clg_bag_form form, clg_dtype type, uint64_t count, uint64_t L, uint64_t B)
{
    clg_embedding_bag_plan p = {.form = form, .bags_type = type, .bags_count = count, .L = L, .B = B};
    p.bags_size = clg_dtype_size(type);
    return p;
}

/* Whether the judge finds every position valid. */
static bool judge_passes(const clg_embedding_bag_plan *p, const void *bags)
{
    const void *inputs[3] = {NULL, NULL, bags};
    for (uint64_t pos = 0; pos < p->bags_count; ++pos)
        if (clg_bag_judge(p, inputs, pos) != CLG_BAG_VALID) return false;
    return true;
}

START_TEST(structure_screen_never_passes_what_the_judge_fails)
{
    enum { COUNT = 300 };
    const clg_dtype types[] = {CLG_I64, CLG_I32, CLG_U64};
    int64_t *bags = malloc(COUNT * sizeof *bags);
    ck_assert_ptr_nonnull(bags);
    int screened = 0;
    for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t) {
        for (int round = 0; round < 2000; ++round) {
            const bool offsets = round % 2 == 0;
            const uint64_t count = 1 + support_below(&rng, COUNT), L = 4 * count, B = count;
            /* non-decreasing values in range, then perhaps one broken */
            clg_embedding_bag_plan p =
                structure_plan(offsets ? CLG_BAG_OFFSETS : CLG_BAG_SEGMENTS, types[t], count, L, B);
            p.offsets_start_at_zero = offsets && support_below(&rng, 2);
            p.offsets_end_at_count = offsets && support_below(&rng, 2);
            uint64_t v = 0; /* from 0, at most 4 a step: the offsets stay below L, the ids below B */
            for (uint64_t i = 0; i < count; ++i) {
                if (i > 0) v += support_below(&rng, 5);
                support_store_int(bags, types[t], i, (int64_t)(offsets ? v : v / 4));
            }
            if (p.offsets_end_at_count) support_store_int(bags, types[t], count - 1, (int64_t)L);
            /* half the time one value broken: negative, past either end, the smallest i64, or 0 late */
            const uint64_t breaks = support_below(&rng, 10);
            const uint64_t at = support_below(&rng, count);
            const uint64_t broken[] = {(uint64_t)-1, L + 1, B, (uint64_t)INT64_MIN, 0};
            if (breaks < 5) support_store_int(bags, types[t], at, (int64_t)broken[breaks]);
            const bool surely = clg_bag_structure_surely_valid(&p, bags);
            const bool judged = judge_passes(&p, bags);
            REQUIRE(!surely || judged, "%s %s of %llu, value %llu at %llu: screened valid, the judge fails it",
                    clg_dtype_name(types[t]), offsets ? "offsets" : "segment ids", (unsigned long long)count,
                    (unsigned long long)(breaks < 5 ? broken[breaks] : 0), (unsigned long long)at);
            /* the common types' valid structures pass the screen itself */
            if (judged && types[t] != CLG_U64) {
                REQUIRE(surely, "%s %s of %llu: valid, but not screened so", clg_dtype_name(types[t]),
                        offsets ? "offsets" : "segment ids", (unsigned long long)count);
                ++screened;
            }
        }
    }
    ck_assert_int_gt(screened, 1000);
    free(bags);
}
END_TEST

int main(void)
{
    return support_run_tests(
        "embedding_bag_host_scan", 300,
        SUPPORT_TESTS(index_scan_agrees_with_the_rule, structure_screen_never_passes_what_the_judge_fails));
}
