/* host/core/float_bits: the conversions and the product the dequantizing gather's reference computes in
 * integers, held against the host's own floating point as the outside oracle: GCC's _Float16
 * conversion for f16, the FPU's correctly rounded multiply for the product (this process runs with
 * the default environment: no flush-to-zero), and nearest-neighbour checks in double for bf16. */
#include "core/float_bits.h"
#include "test_support.h"

#include <math.h>

/* ck_assert records its position on every call; in loops of millions that is most of the run time */
#define REQUIRE(cond, ...)                      \
    do {                                        \
        if (!(cond)) ck_abort_msg(__VA_ARGS__); \
    } while (0)

static float as_f32(uint32_t b)
{
    float f;
    memcpy(&f, &b, 4);
    return f;
}

static uint32_t bits_of(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

static int is_nan_bits(uint32_t b) { return (b & 0x7F800000u) == 0x7F800000u && (b & 0x7FFFFFu); }

/* Every f16 widens exactly and narrows back to itself (NaNs: quiet, payload kept). */
START_TEST(f16_round_trip_of_every_value)
{
    for (uint32_t h = 0; h <= 0xFFFF; ++h) {
        const uint32_t wide = clg_f16_to_f32_bits((uint16_t)h);
        _Float16 hardware;
        uint16_t hb = (uint16_t)h;
        memcpy(&hardware, &hb, 2);
        if ((h & 0x7C00) == 0x7C00 && (h & 0x3FF)) {
            REQUIRE(is_nan_bits(wide) && clg_f32_to_f16_bits(wide) == (h | 0x200u), "NaN 0x%04x", h);
            continue;
        }
        REQUIRE(wide == bits_of((float)hardware), "f16 0x%04x widens to 0x%08x", h, wide);
        REQUIRE(clg_f32_to_f16_bits(wide) == h, "0x%04x round trip", h);
    }
}
END_TEST

/* f32 to f16 against GCC's conversion (round to nearest even) over a sweep of every exponent with
 * random and boundary mantissas; NaNs keep sign and the high payload bits, quieted. */
START_TEST(f32_to_f16_matches_the_compiler)
{
    support_rng rng = {0xF16};
    for (uint32_t exponent = 0; exponent < 255; ++exponent)
        for (int k = 0; k < 20000; ++k) {
            uint32_t mantissa = (uint32_t)support_next(&rng) & 0x7FFFFF;
            if (k < 8) mantissa = (uint32_t[]){0, 1, 0x1000, 0x1FFF, 0x2000, 0x3000, 0x7FF000, 0x7FFFFF}[k];
            const uint32_t x = (uint32_t)(support_next(&rng) & 1) << 31 | exponent << 23 | mantissa;
            const _Float16 h = (_Float16)as_f32(x);
            uint16_t want;
            memcpy(&want, &h, 2);
            REQUIRE(clg_f32_to_f16_bits(x) == want, "0x%08x: 0x%04x, want 0x%04x", x, clg_f32_to_f16_bits(x), want);
        }
    ck_assert_uint_eq(clg_f32_to_f16_bits(0x7F800001u), 0x7E00u);
    ck_assert_uint_eq(clg_f32_to_f16_bits(0xFFC12345u), 0xFE00u | (0x412345u >> 13));
    ck_assert_uint_eq(clg_f32_to_f16_bits(0x7F800000u), 0x7C00u);
}
END_TEST

/* bf16: the result is the nearest bf16 (ties to the even one), checked in double; NaNs quieted. */
START_TEST(f32_to_bf16_is_the_nearest_even)
{
    support_rng rng = {0xBF16};
    for (int k = 0; k < 4000000; ++k) {
        uint32_t x = (uint32_t)support_next(&rng);
        if (k % 4 == 0) x = (x & 0xFFFF0000u) | 0x8000u; /* exact ties */
        const uint16_t b = clg_f32_to_bf16_bits(x);
        if (is_nan_bits(x)) {
            REQUIRE(b == ((x >> 16) | 0x40u), "NaN 0x%08x", x);
            continue;
        }
        const double v = as_f32(x), got = as_f32((uint32_t)b << 16);
        if (isinf(got) && !isinf(v)) { /* overflow: only above the largest bf16's half-way point */
            REQUIRE(fabs(v) >= 0x1.FFp127 - 0x1p119, "0x%08x overflows", x);
            continue;
        }
        for (int step = -1; step <= 1; step += 2) {
            const uint32_t other_bits = (uint32_t)(uint16_t)(b + step) << 16;
            if (is_nan_bits(other_bits) || ((b + step) & 0x7FFF) == 0 || (((b ^ (b + step)) & 0x8000))) continue;
            const double other = as_f32(other_bits);
            const double dg = fabs(v - got), dother = fabs(v - other);
            REQUIRE(dg < dother || (dg == dother && (b & 1) == 0), "0x%08x -> 0x%04x", x, b);
        }
    }
}
END_TEST

/* The integer product against the FPU's multiply, for every d in [-255, 255] and scales of every class
 * (subnormal, tiny normal, ordinary, huge, infinite, NaN, zero). */
START_TEST(integer_product_matches_the_fpu)
{
    support_rng rng = {0x9D0C7};
    for (int k = 0; k < 60000; ++k) {
        uint32_t s = (uint32_t)support_next(&rng);
        const int kind = k % 6;
        if (kind == 0) s &= 0x807FFFFFu;                                       /* subnormal or zero */
        if (kind == 1) s = (s & 0x807FFFFFu) | (uint32_t)(1 + k % 12) << 23;   /* tiny normal */
        if (kind == 2) s = (s & 0x807FFFFFu) | (uint32_t)(240 + k % 15) << 23; /* huge */
        for (int32_t d = -255; d <= 255; ++d) {
            const uint32_t got = clg_f32_times_small_int(d, s);
            if (is_nan_bits(s)) {
                REQUIRE(got == (s | 0x400000u), "NaN 0x%08x", s);
                continue;
            }
            if ((s & 0x7FFFFFFFu) == 0x7F800000u && d == 0) {
                REQUIRE(got == CLG_F32_DEFAULT_NAN, "0 * inf");
                continue;
            }
            const uint32_t want = bits_of((float)d * as_f32(s));
            REQUIRE(got == want, "%d * 0x%08x: 0x%08x, want 0x%08x", d, s, got, want);
        }
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("float_bits");
    TCase *tc = tcase_create("conversions");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, f16_round_trip_of_every_value);
    tcase_add_test(tc, f32_to_f16_matches_the_compiler);
    tcase_add_test(tc, f32_to_bf16_is_the_nearest_even);
    tcase_add_test(tc, integer_product_matches_the_fpu);
    suite_add_tcase(s, tc);
    return support_run_suite(s);
}
