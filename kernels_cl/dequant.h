/* Dequantization shared by the dequantizing-gather kernels: reading packed values, scales and zero
 * points, the product (q - zero_point) * scale in f32, and the round-to-nearest-even narrowing to the
 * output type, all bit-exact with the CPU reference (host/ops/gather_quantized) on any conformant
 * device: a scale that is a normal f32 (or zero) times an integer in [-255, 255] is a normal f32 (or
 * zero, or an overflow to infinity), which OpenCL's correctly rounded `*` gives whatever the device
 * does with denormals; subnormal, infinite and NaN scales take an exact integer path. Output
 * conversions are integer code, but for the f16 products of plain scales, which vstore_half rounds
 * (core OpenCL: no cl_khr_fp16). No fused multiply-add: nothing is added to
 * a product, and contraction is off.
 *
 * Build option: OUT_KIND 0 f32, 1 f16, 2 bf16 output. What varies less with the cost of a build than
 * with that of a branch once a unit (scale and zero-point encodings, signedness) is a kernel argument:
 * dequant_values.h. */
#ifndef CLG_DEQUANT_H
#define CLG_DEQUANT_H

#include "hints.h"

#pragma OPENCL FP_CONTRACT OFF

/* Vectors are 8 lanes wide: what AVX2 holds in one register, so that no function passes a wider
 * vector by value (an ABI change compilers warn about on targets without AVX-512). */
#if OUT_KIND == 0
typedef uint out_bits_t;
#define OUT_VEC8 uint8
#else
typedef ushort out_bits_t;
#define OUT_VEC8 ushort8
#endif

/* ---- f16 / bf16 / f32 bits ------------------------------------------------------------------- */

/* f16 bits widened to f32 bits, exactly (a NaN keeps sign and payload). */
HOT_INLINE uint f16_to_f32_bits(uint h)
{
    const uint sign = (h & 0x8000u) << 16, exponent = (h >> 10) & 0x1Fu, mantissa = h & 0x3FFu;
    if (exponent == 0x1Fu) return sign | 0x7F800000u | (mantissa << 13);
    if (exponent != 0) return sign | ((exponent + 112u) << 23) | (mantissa << 13);
    if (mantissa == 0) return sign;
    const uint top = 31u - clz(mantissa); /* a subnormal m * 2^-24: 2^(top - 24) * 1.f */
    return sign | ((top + 103u) << 23) | ((mantissa << (23u - top)) & 0x7FFFFFu);
}

/* Finite f16 bits (exponent below 0x1F) as an f32, exactly and without a branch: a normal one by its
 * exponent rebased, a subnormal one (or a zero) as its integer mantissa times 2^-24, a normal f32 (or
 * zero) whatever the device does with subnormals. */
HOT_INLINE float f16_finite_to_float(uint h)
{
    const uint sign = (h & 0x8000u) << 16, magnitude = h & 0x7FFFu;
    const uint normal = (magnitude << 13) + (112u << 23);
    const uint subnormal = as_uint((float)magnitude * 0x1p-24f);
    return as_float(sign | (magnitude >= 0x400u ? normal : subnormal));
}

/* v >> shift (1..31), rounded to nearest, ties to even. */
inline uint shift_right_rne(uint v, uint shift)
{
    const uint kept = v >> shift, rest = v & ((1u << shift) - 1u), halfway = 1u << (shift - 1u);
    return kept + (uint)(rest > halfway || (rest == halfway && (kept & 1u)));
}

/* Whether the hardware product is exact for this scale: a normal or zero f32. */
HOT_INLINE int scale_is_plain(uint s)
{
    const uint exponent = (s >> 23) & 0xFFu;
    return (exponent != 0 && exponent != 0xFFu) || (s & 0x7FFFFFFFu) == 0;
}

/* f32 bits of (float)d * scale in integers, any scale (subnormal, infinite, NaN): see the reference's
 * clg_f32_times_small_int for the rules. */
inline uint product_in_integers(int d, uint s)
{
    const uint magnitude_d = (uint)abs(d);
    const uint sign = (s ^ (d < 0 ? 0x80000000u : 0u)) & 0x80000000u;
    const uint exponent = (s >> 23) & 0xFFu, mantissa = s & 0x7FFFFFu;
    if (exponent == 0xFFu) {
        if (mantissa) return s | 0x400000u;
        return magnitude_d ? sign | 0x7F800000u : 0x7FC00000u;
    }
    if (magnitude_d == 0 || (exponent == 0 && mantissa == 0)) return sign;
    uint product = magnitude_d * (exponent ? (mantissa | 0x800000u) : mantissa);
    const int lsb = (int)(exponent ? exponent : 1u) - 150;
    const int top = 31 - (int)clz(product);
    int biased = lsb + top + 127;
    if (biased <= 0) return sign | (product << (uint)(lsb + 149)); /* subnormal: exact */
    if (top > 23) {
        product = shift_right_rne(product, (uint)(top - 23));
        if (product == 0x1000000u) {
            product >>= 1;
            ++biased;
        }
    } else {
        product <<= (uint)(23 - top);
    }
    if (biased >= 0xFF) return sign | 0x7F800000u;
    return sign | ((uint)biased << 23) | (product & 0x7FFFFFu);
}

/* f32 bits of product + m for any operands: the host reference's rules (sum_bits in
 * host/ops/gather_quantized/gather_quantized_reference.c); ggml's q4_1 and q5_1 and FBGEMM's rows. */
inline uint sum_exact(uint product, uint m)
{
    const int product_finite = (product & 0x7F800000u) != 0x7F800000u, m_finite = (m & 0x7F800000u) != 0x7F800000u;
    if (product_finite && m_finite) return as_uint(as_float(product) + as_float(m));
    if (!product_finite && (product & 0x7FFFFFu)) return product | 0x400000u;
    if (!m_finite && (m & 0x7FFFFFu)) return m | 0x400000u;
    if (!product_finite && !m_finite) return product == m ? product : 0x7FC00000u;
    return product_finite ? m : product;
}

/* f32 bits of (float)d * scale for one value, exact on every device. */
inline uint product_bits(int d, uint s)
{
    return scale_is_plain(s) ? as_uint((float)d * as_float(s)) : product_in_integers(d, s);
}

/* f32 bits to f16 bits, rounded to nearest even, any f32 (subnormals and NaN included). */
inline ushort f32_bits_to_f16_bits(uint x)
{
    const uint sign = (x >> 16) & 0x8000u, magnitude = x & 0x7FFFFFFFu, exponent = magnitude >> 23;
    uint h;
    if (exponent == 0xFFu)
        h = 0x7C00u | ((magnitude & 0x7FFFFFu) ? 0x200u | ((magnitude >> 13) & 0x3FFu) : 0u);
    else if (exponent >= 113u)
        h = min(shift_right_rne(magnitude - (112u << 23), 13u), 0x7C00u);
    else if (exponent < 102u)
        h = 0;
    else
        h = shift_right_rne((magnitude & 0x7FFFFFu) | 0x800000u, 126u - exponent);
    return (ushort)(sign | h);
}

/* f32 bits to bf16 bits, rounded to nearest even; a NaN stays a (quiet) NaN. */
inline ushort f32_bits_to_bf16_bits(uint x)
{
    if ((x & 0x7F800000u) == 0x7F800000u && (x & 0x7FFFFFu)) return (ushort)((x >> 16) | 0x40u);
    return (ushort)((x + 0x7FFFu + ((x >> 16) & 1u)) >> 16);
}

/* f32 bits to the output's bits, any f32 (subnormals and NaN included). */
inline out_bits_t to_output_exact(uint x)
{
#if OUT_KIND == 0
    return x;
#elif OUT_KIND == 1
    return f32_bits_to_f16_bits(x);
#else
    return f32_bits_to_bf16_bits(x);
#endif
}

/* Eight products of a plain scale (never NaN, never an f32 subnormal) to output bits. */
HOT_INLINE OUT_VEC8 to_output_plain8(float8 v)
{
    const uint8 x = as_uint8(v);
#if OUT_KIND == 0
    return x;
#elif OUT_KIND == 1
    const uint8 magnitude = x & 0x7FFFFFFFu;
    const uint8 sign = (x >> 16) & 0x8000u;
    /* at least 2^-14 (an f16 normal): rebias and round 13 bits away; a carry may reach infinity */
    const uint8 normal = (magnitude - (112u << 23) + 0xFFFu + ((magnitude >> 13) & 1u)) >> 13;
    /* below it: adding 0.5 rounds to the f16 subnormal unit 2^-24, the spacing of f32 in [0.5, 1) */
    const uint8 subnormal = as_uint8(as_float8(magnitude) + 0.5f) - 0x3F000000u;
    uint8 h = select(normal, subnormal, magnitude < 0x38800000u);
    h = select(h, (uint8)0x7C00u, magnitude >= 0x47800000u);
    return convert_ushort8(h | sign);
#else
    return convert_ushort8((x + 0x7FFFu + ((x >> 16) & 1u)) >> 16);
#endif
}

/* Eight products of a plain scale as output bits. f16: vstore_half rounds to nearest even (core
 * OpenCL, no cl_khr_fp16), correctly for every f16 result, subnormals included; CPUs with F16C do it in
 * one instruction. */
HOT_INLINE OUT_VEC8 plain8_bits(float8 v)
{
#if OUT_KIND == 1
    ushort8 bits;
    vstore_half8(v, 0, (__private half *)&bits);
    return bits;
#else
    return to_output_plain8(v);
#endif
}

/* Build option ALIGNED8 (GPU mapping): the host sets it only where every 8-value store is aligned to
 * the vector's size and the packed values of every 8-value step to 4 (4-bit) or 8 bytes (8-bit). A
 * GPU compiler splits vload/vstore, which promise only the element's alignment, into one access per
 * element; through a typed pointer it issues 8- or 16-byte accesses. */
#ifndef ALIGNED8
#define ALIGNED8 0
#endif

/* out[0 .. 7] = bits. With STREAM (the host sets it only where every such store is aligned to the
 * vector's size) and HINT_STREAM the stores bypass the caches: the output is written once, never read. */
HOT_INLINE void store_bits8(OUT_VEC8 bits, __global out_bits_t *out)
{
#if defined(STREAM) && STREAM && HINT_STREAM
    __builtin_nontemporal_store(bits, (__global OUT_VEC8 *)out);
#elif ALIGNED8
    *(__global OUT_VEC8 *)out = bits;
#else
    vstore8(bits, 0, out);
#endif
}

/* out[0 .. 7] = eight products of a plain scale. */
HOT_INLINE void store_plain8(float8 v, __global out_bits_t *out)
{
#if OUT_KIND == 1 && !(defined(STREAM) && STREAM && HINT_STREAM) && !ALIGNED8
    vstore_half8(v, 0, (__global half *)out); /* straight to memory: no round trip through registers */
#else
    store_bits8(plain8_bits(v), out);
#endif
}

#endif /* CLG_DEQUANT_H */
