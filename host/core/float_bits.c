#include "core/float_bits.h"

#define F32_SIGN      0x80000000u
#define F32_EXPONENT  0x7F800000u
#define F32_MANTISSA  0x007FFFFFu
#define F32_QUIET_BIT 0x00400000u

uint32_t clg_f16_to_f32_bits(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    const uint32_t exponent = (h >> 10) & 0x1Fu, mantissa = h & 0x3FFu;
    if (exponent == 0x1F) return sign | F32_EXPONENT | (mantissa << 13);
    if (exponent != 0) return sign | ((exponent + 112u) << 23) | (mantissa << 13);
    if (mantissa == 0) return sign;
    /* a subnormal m * 2^-24 whose highest set bit is bit p: 2^(p - 24) * 1.f */
    int p = 9;
    while (!(mantissa & (1u << p))) --p;
    return sign | ((uint32_t)(p + 103) << 23) | ((mantissa << (23 - p)) & F32_MANTISSA);
}

uint32_t clg_bf16_to_f32_bits(uint16_t b) { return (uint32_t)b << 16; }

/* v >> shift rounded to nearest, ties to even (shift in 1..31). */
static uint32_t shift_right_rounded(uint32_t v, unsigned shift)
{
    const uint32_t kept = v >> shift, rest = v & ((1u << shift) - 1), half = 1u << (shift - 1);
    return kept + (rest > half || (rest == half && (kept & 1u)));
}

uint16_t clg_f32_to_f16_bits(uint32_t x)
{
    const uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    const uint32_t magnitude = x & ~F32_SIGN;
    const uint32_t exponent = magnitude >> 23;
    if (exponent == 0xFF)
        return (uint16_t)(sign | 0x7C00u | ((magnitude & F32_MANTISSA) ? 0x200u | ((magnitude >> 13) & 0x3FFu) : 0u));
    if (exponent >= 113) { /* at least 2^-14, the smallest normal f16: rebias, round 13 bits away */
        const uint32_t rounded = shift_right_rounded(magnitude - (112u << 23), 13);
        return (uint16_t)(sign | (rounded >= 0x7C00u ? 0x7C00u : rounded)); /* a carry may reach infinity */
    }
    if (exponent < 102) return sign; /* below half the smallest subnormal, 2^-25: rounds to zero */
    /* an f16 subnormal: the value in units of 2^-24 is (1.f) * 2^(exponent - 126 + 23) */
    const uint32_t significand = (magnitude & F32_MANTISSA) | 0x800000u;
    return (uint16_t)(sign | shift_right_rounded(significand, 126u - exponent));
}

uint16_t clg_f32_to_bf16_bits(uint32_t x)
{
    if ((x & F32_EXPONENT) == F32_EXPONENT && (x & F32_MANTISSA)) return (uint16_t)((x >> 16) | 0x40u);
    return (uint16_t)((x + 0x7FFFu + ((x >> 16) & 1u)) >> 16); /* a carry past the exponent gives infinity */
}

uint32_t clg_f32_times_small_int(int32_t d, uint32_t scale_bits)
{
    const uint32_t magnitude_d = (uint32_t)(d < 0 ? -d : d);
    const uint32_t sign = (scale_bits ^ (d < 0 ? F32_SIGN : 0u)) & F32_SIGN;
    const uint32_t exponent = (scale_bits >> 23) & 0xFFu, mantissa = scale_bits & F32_MANTISSA;
    if (exponent == 0xFF) {
        if (mantissa) return scale_bits | F32_QUIET_BIT;
        return magnitude_d ? sign | F32_EXPONENT : CLG_F32_DEFAULT_NAN;
    }
    if (magnitude_d == 0 || (exponent == 0 && mantissa == 0)) return sign;
    /* |d| * significand * 2^(lsb) with lsb = max(exponent, 1) - 150; the product fits 32 bits */
    const uint32_t significand = exponent ? (mantissa | 0x800000u) : mantissa;
    uint32_t product = magnitude_d * significand;
    int lsb = (int)(exponent ? exponent : 1u) - 150;
    int top = 31;
    while (!(product & (1u << top))) --top;
    int biased = lsb + top + 127; /* of the product's highest bit */
    if (biased <= 0)              /* a subnormal: a multiple of 2^-149 below 2^-126, so exact */
        return sign | (product << (lsb + 149));
    if (top > 23) { /* more than 24 significant bits: round */
        product = shift_right_rounded(product, (unsigned)(top - 23));
        if (product == 0x1000000u) { /* the rounding carried into a new power of two */
            product >>= 1;
            ++biased;
        }
    } else {
        product <<= 23 - top;
    }
    if (biased >= 0xFF) return sign | F32_EXPONENT;
    return sign | ((uint32_t)biased << 23) | (product & F32_MANTISSA);
}
