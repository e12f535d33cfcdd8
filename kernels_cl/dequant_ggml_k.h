/* ggml's super-blocks of 256 values (QK_K, ggml-common.h) in the dequantizing gather's kernels: q2_K,
 * q3_K, q4_K, q5_K, q6_K and iq4_xs, each value computed in gguf.quants.dequantize's order of f32
 * operations: the sub-block's scale d * scale rounded to f32, times q rounded, and for q2_K, q4_K and
 * q5_K less dmin * min rounded (contraction is off), so that the results equal the CPU reference's
 * bits (host/ops/gather_quantized/gather_quantized_reference.c).
 *
 * The family has a program of its own (the host's -DGGML_SUPER=1 puts this header in place of
 * dequant_ggml.h, so the 32-value family's program is unchanged), one for all six formats: the format
 * is a kernel argument (dequant_params.ggml). The GPU mapping's pieces, the exact path and q2_K, q3_K
 * and q5_K read every format's eight values by one code path whose offsets, shifts and masks the format
 * picks (uniform branches); the runs mapping takes q4_K, q6_K and iq4_xs (a Q4_K_M file's formats and
 * the usual i-quant) a whole block at a time, one function each (below).
 * d and dmin are f16: a finite one widens to a normal f32 or zero, every scale, product and difference
 * of them is a multiple of 2^-24 below 2^30, never an f32 subnormal, so the hardware operations give
 * the reference's bits; an infinite or NaN d or dmin takes the exact integer path. Build options: those
 * of dequant.h and dequant_nibble_table.h. */
#ifndef CLG_DEQUANT_GGML_K_H
#define CLG_DEQUANT_GGML_K_H

#include "dequant_values.h"

/* The formats, numbered as the host's clg_ggml_format. */
#define GGML_Q2_K   7  /* scales[16] (4-bit scale, 4-bit min), qs[64] (2-bit), f16 d, f16 dmin */
#define GGML_Q3_K   8  /* hmask[32], qs[64] (2-bit), scales[12] (6-bit), f16 d */
#define GGML_Q4_K   9  /* f16 d, f16 dmin, scales[12] (6-bit scales and mins), qs[128] (nibbles) */
#define GGML_Q5_K   10 /* f16 d, f16 dmin, scales[12], qh[32] (fifth bits), qs[128] */
#define GGML_Q6_K   11 /* ql[128] (nibbles), qh[64] (2-bit), scales[16] (int8), f16 d */
#define GGML_IQ4_XS 12 /* f16 d, u16 scales_h, scales_l[4], qs[128] (nibbles indexing kvalues_iq4nl) */

/* The values of one block: a unit of the kernels' walk (dequant_units.h). */
#define GGML_BLOCK_VALUES 256

HOT_INLINE uint ggml_block_bytes(int format)
{
    switch (format) {
    case GGML_Q2_K: return 84u;
    case GGML_Q3_K: return 110u;
    case GGML_Q4_K: return 144u;
    case GGML_Q5_K: return 176u;
    case GGML_Q6_K: return 210u;
    default: return 136u; /* iq4_xs */
    }
}

HOT_INLINE int ggml_k_has_min(int format) { return format == GGML_Q2_K || format == GGML_Q4_K || format == GGML_Q5_K; }

/* Where d is; dmin follows it. */
HOT_INLINE uint ggml_k_d_at(int format)
{
    return format == GGML_Q2_K ? 80u : format == GGML_Q3_K ? 108u : format == GGML_Q6_K ? 208u : 0u;
}

/* ggml's kvalues_iq4nl: the value each iq4_xs nibble selects. */
#define IQ4_XS_VALUES (char16)(-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113)

/* The lookup of kvalues_iq4nl. Where the compiler targets x86 with SSSE3 (PoCL's CPU devices) it is one
 * pshufb, asked for by name: PoCL lowers OpenCL's shuffle() lane by lane. Elsewhere a shuffle by a
 * variable mask becomes an indexed private array, which a GPU compiler puts in local (off-chip) memory,
 * so the table is four words in registers: a nibble's top two bits pick the word, its low two the byte.
 * IQ4_BY_SHUFFLE (a build option) overrides. */
#ifndef IQ4_BY_SHUFFLE
#if defined(__SSSE3__)
#define IQ4_BY_SHUFFLE 1
#else
#define IQ4_BY_SHUFFLE 0
#endif
#endif

#if IQ4_BY_SHUFFLE
HOT_INLINE char16 iq4_pshufb(uchar16 nibbles) { return __builtin_ia32_pshufb128(IQ4_XS_VALUES, as_char16(nibbles)); }
#endif

HOT_INLINE int8 iq4_values8(uchar8 nibbles)
{
#if IQ4_BY_SHUFFLE
    return convert_int8(iq4_pshufb((uchar16)(nibbles, nibbles)).lo);
#else
    const uint8 n = convert_uint8(nibbles);
    const int8 upper_pair = (n & 4u) != 0u;
    const uint8 low_words = select((uint8)(0xBFAD9881u), (uint8)(0xF6EADDCFu), upper_pair);  /* -127 .. -10 */
    const uint8 high_words = select((uint8)(0x26190D01u), (uint8)(0x71594535u), upper_pair); /* 1 .. 113 */
    const uint8 word = select(low_words, high_words, (n & 8u) != 0u);
    return as_int8(word << ((3u - (n & 3u)) * 8u)) >> 24; /* the byte to the top, sign-extended down */
#endif
}

HOT_INLINE char16 iq4_values16(uchar16 nibbles)
{
#if IQ4_BY_SHUFFLE
    return iq4_pshufb(nibbles);
#else
    return (char16)(convert_char8(iq4_values8(nibbles.lo)), convert_char8(iq4_values8(nibbles.hi)));
#endif
}

HOT_INLINE uint ggml_k_f16_at(__global const uchar *at) { return f16_to_f32_bits((uint)at[0] | ((uint)at[1] << 8)); }

/* Eight bytes of a block (blocks, and every field read 8 bytes at a time, start on even bytes). */
HOT_INLINE uchar8 ggml_k_bytes8(__global const uchar *at)
{
#if ALIGNED8 /* four 2-byte loads instead of eight */
    return as_uchar8(vload4(0, (__global const ushort *)at));
#else
    return vload8(0, at);
#endif
}

/* The integer scale (.x) and minimum (.y, 0 where none) of the sub-block that holds values 8g .. 8g + 7
 * (sub-blocks of 16 values for q2_K, q3_K, q6_K, of 32 for the others). */
HOT_INLINE int2 ggml_k_scale_min(int format, __global const uchar *block, int g)
{
    switch (format) {
    case GGML_Q2_K: {
        const int packed = block[g >> 1];
        return (int2)(packed & 15, packed >> 4);
    }
    case GGML_Q3_K: { /* 16 6-bit scales less 32: low nibbles in bytes 0..7, high pairs in 8..11 */
        const int s = g >> 1;
        const int low = (block[96 + (s & 7)] >> (4 * (s >> 3))) & 15,
                  high = (block[104 + (s & 3)] >> (2 * (s >> 2))) & 3;
        return (int2)((low | high << 4) - 32, 0);
    }
    case GGML_Q6_K: return (int2)((int)as_char(block[192 + (g >> 1)]), 0);
    case GGML_IQ4_XS: { /* 8 6-bit scales less 32: low nibbles in scales_l, high pairs in scales_h */
        const int s = g >> 2;
        const int low = (block[4 + (s >> 1)] >> (4 * (s & 1))) & 15;
        const int high = ((((int)block[3] << 8) | block[2]) >> (2 * s)) & 3;
        return (int2)((low | high << 4) - 32, 0);
    }
    default: { /* q4_K, q5_K: 8 6-bit scales and mins in 12 bytes */
        __global const uchar *packed = block + 4;
        const int j = g >> 2;
        if (j < 4) return (int2)(packed[j] & 63, packed[j + 4] & 63);
        return (int2)((packed[j + 4] & 15) | (packed[j - 4] >> 6) << 4, (packed[j + 4] >> 4) | (packed[j] >> 6) << 4);
    }
    }
}

/* The integers q of values 8g .. 8g + 7 of a block. Every format is low bits from eight consecutive
 * bytes, shifted and masked, then (q3_K, q5_K, q6_K) high bits from eight others, shifted, masked and
 * placed above them, less a bias; iq4_xs's nibbles index kvalues_iq4nl. */
HOT_INLINE int8 ggml_k_values8(int format, __global const uchar *block, int g)
{
    uint low_at, low_shift, low_mask = 15u, high_at = 0u, high_shift = 0u, high_mask = 0u, high_place = 4u;
    int bias = 0;
    const uint quarter = (uint)(g & 3) * 8u; /* 2-bit and bit-plane fields: 32-byte rows, 8 bytes a quarter */
    switch (format) {
    case GGML_Q2_K:
    case GGML_Q3_K: /* value v: bits 2((v / 32) % 4) of byte 32(v / 128) + v % 32 */
        low_at = (format == GGML_Q2_K ? 16u : 32u) + (uint)(g >> 4) * 32u + quarter;
        low_shift = 2u * (uint)((g >> 2) & 3);
        low_mask = 3u;
        if (format == GGML_Q3_K) { /* bit v / 32 of hmask[v % 32]; a clear bit subtracts 4 */
            high_at = quarter;
            high_shift = (uint)(g >> 2);
            high_mask = 1u;
            high_place = 2u;
            bias = 4;
        }
        break;
    case GGML_Q6_K: /* low nibble of ql[64(v / 128) + v % 64], high for v % 128 >= 64; 2-bit high parts */
        low_at = (uint)(g >> 4) * 64u + (uint)(g & 7) * 8u;
        low_shift = 4u * (uint)((g >> 3) & 1);
        high_at = 128u + (uint)(g >> 4) * 32u + quarter;
        high_shift = 2u * (uint)((g >> 2) & 3);
        high_mask = 3u;
        bias = 32;
        break;
    case GGML_IQ4_XS: /* sub-block s = v / 32: low nibbles of qs[16s ..] then the high ones */
        low_at = 8u + (uint)(g >> 2) * 16u + (uint)(g & 1) * 8u;
        low_shift = 4u * (uint)((g >> 1) & 1);
        break;
    default: /* q4_K, q5_K: low nibble of qs[32(v / 64) + v % 32], high for v % 64 >= 32 */
        low_at = (format == GGML_Q4_K ? 16u : 48u) + (uint)(g >> 3) * 32u + quarter;
        low_shift = 4u * (uint)((g >> 2) & 1);
        if (format == GGML_Q5_K) { /* bit v / 32 of qh[v % 32] */
            high_at = 16u + quarter;
            high_shift = (uint)(g >> 2);
            high_mask = 1u;
        }
        break;
    }
    const uchar8 low = (ggml_k_bytes8(block + low_at) >> (uchar8)((uchar)low_shift)) & (uchar8)((uchar)low_mask);
    if (format == GGML_IQ4_XS) return iq4_values8(low);
    uchar8 q = low;
    if (high_mask)
        q |= ((ggml_k_bytes8(block + high_at) >> (uchar8)((uchar)high_shift)) & (uchar8)((uchar)high_mask))
             << (uchar8)((uchar)high_place);
    return convert_int8(q) - bias;
}

/* f32 bits of a - b for any operands: the host reference's rules (difference_bits in
 * host/ops/gather_quantized/gather_quantized_reference.c): finite operands the hardware difference;
 * a NaN operand (a first) quieted; inf - inf of one sign 0x7FC00000; else the infinite operand, b's
 * sign flipped. */
inline uint difference_exact(uint a, uint b)
{
    const int a_finite = (a & 0x7F800000u) != 0x7F800000u, b_finite = (b & 0x7F800000u) != 0x7F800000u;
    if (a_finite && b_finite) return as_uint(as_float(a) - as_float(b));
    if (!a_finite && (a & 0x7FFFFFu)) return a | 0x400000u;
    if (!b_finite && (b & 0x7FFFFFu)) return b | 0x400000u;
    if (!a_finite && !b_finite) return a == b ? 0x7FC00000u : a;
    return a_finite ? b ^ 0x80000000u : a;
}

/* Values 8g .. 8g + 7 for g in [g0, g_end) of the block at `block` into out[8(g - g0) ..]. */
HOT_INLINE void dequant_ggml_k_groups(int format, __global const uchar *block, int g0, int g_end,
                                      __global out_bits_t *out)
{
    const uint d_at = ggml_k_d_at(format), d = ggml_k_f16_at(block + d_at);
    const int has_min = ggml_k_has_min(format);
    const uint dmin = has_min ? ggml_k_f16_at(block + d_at + 2u) : 0u;
    if ((d & 0x7F800000u) != 0x7F800000u && (dmin & 0x7F800000u) != 0x7F800000u) {
        const float df = as_float(d), dminf = as_float(dmin);
        for (int g = g0; g < g_end; ++g, out += 8) {
            const int2 scale_min = ggml_k_scale_min(format, block, g);
            const float8 product = convert_float8(ggml_k_values8(format, block, g)) * (df * (float)scale_min.x);
            store_plain8(has_min ? product - dminf * (float)scale_min.y : product, out);
        }
        return;
    }
    for (int g = g0; g < g_end; ++g, out += 8) {
        const int2 scale_min = ggml_k_scale_min(format, block, g);
        const uint scale = product_in_integers(scale_min.x, d), min = product_in_integers(scale_min.y, dmin);
        const int8 q = ggml_k_values8(format, block, g);
        for (int k = 0; k < 8; ++k) {
            const uint product = product_in_integers(((const int *)&q)[k], scale);
            out[k] = to_output_exact(has_min ? difference_exact(product, min) : product);
        }
    }
}

/* Values k0 .. k0 + count - 1 (multiples of 8) of the block at `block` into out[k0 ..]. */
HOT_INLINE void dequant_ggml_piece(int format, __global const uchar *block, __global out_bits_t *out, offset_t k0,
                                   offset_t count)
{
    dequant_ggml_k_groups(format, block, (int)(k0 / 8), (int)((k0 + count) / 8), out + k0);
}

/* ---- Whole blocks, one format each (the runs mapping's loops) ------------------------------------
 * A block's scales are decoded together, once, and its values go 16 at a time, a sub-block's scale (and
 * minimum) held in registers: the same products and differences as dequant_ggml_k_groups, so the same
 * bits, with none of its per-8-value scale unpacking or format-picked shifts. A block whose d or dmin is
 * infinite or NaN goes through dequant_ggml_k_groups' exact path. */

/* out[0 .. 15] = q * scale (- min where has_min) for 16 small integers q. */
HOT_INLINE void store_scaled16(char16 q, float scale, float min, int has_min, __global out_bits_t *out)
{
    const float8 first = convert_float8(q.lo) * scale, second = convert_float8(q.hi) * scale;
    store_plain8(has_min ? first - min : first, out);
    store_plain8(has_min ? second - min : second, out + 8);
}

/* A q4_K block's eight 6-bit scales and minimums (12 bytes from byte 4, in three runs of four):
 * sub-blocks 0..3 take the low six bits of the first run (scales) and of the second (minimums),
 * sub-blocks 4..7 a nibble of the third run below the top two bits of the first (scales) or second. */
HOT_INLINE void q4_k_scales_mins(__global const uchar *block, float d, float dmin, float8 *scales, float8 *mins)
{
    const uchar4 first = vload4(1, block), second = vload4(2, block), third = vload4(3, block);
    const uchar8 scale = (uchar8)(first & (uchar4)(63), (third & (uchar4)(15)) | (first >> (uchar4)(6)) << (uchar4)(4));
    const uchar8 min = (uchar8)(second & (uchar4)(63), (third >> (uchar4)(4)) | (second >> (uchar4)(6)) << (uchar4)(4));
    *scales = d * convert_float8(scale);
    *mins = dmin * convert_float8(min);
}

/* q4_K: each 32 bytes of nibbles hold two sub-blocks, the low nibbles' and then the high ones'. */
HOT_INLINE void dequant_q4_k_block(__global const uchar *block, __global out_bits_t *out)
{
    const uint d = ggml_k_f16_at(block), dmin = ggml_k_f16_at(block + 2);
    if ((d & 0x7F800000u) == 0x7F800000u || (dmin & 0x7F800000u) == 0x7F800000u) {
        dequant_ggml_k_groups(GGML_Q4_K, block, 0, GGML_BLOCK_VALUES / 8, out);
        return;
    }
    float8 scales, mins;
    q4_k_scales_mins(block, as_float(d), as_float(dmin), &scales, &mins);
#pragma unroll
    for (int c = 0; c < 4; ++c) {
        const uchar16 first = vload16(0, block + 16 + 32 * c), second = vload16(0, block + 32 + 32 * c);
        const uchar16 low = (uchar16)(15);
        store_scaled16(as_char16(first & low), scales[2 * c], mins[2 * c], 1, out + 64 * c);
        store_scaled16(as_char16(second & low), scales[2 * c], mins[2 * c], 1, out + 64 * c + 16);
        store_scaled16(as_char16(first >> (uchar16)(4)), scales[2 * c + 1], mins[2 * c + 1], 1, out + 64 * c + 32);
        store_scaled16(as_char16(second >> (uchar16)(4)), scales[2 * c + 1], mins[2 * c + 1], 1, out + 64 * c + 48);
    }
}

/* q6_K: two halves of 128 values, each 64 bytes of nibbles (ql) and 32 of 2-bit high parts (qh); value
 * t of a half is a nibble of ql[t % 64] (the high one for t >= 64) with bits 2(t / 32) of qh[t % 32]
 * above it, less 32, and its scale is int8 scales[8 * half + t / 16]. */
HOT_INLINE void dequant_q6_k_block(__global const uchar *block, __global out_bits_t *out)
{
    const uint d = ggml_k_f16_at(block + 208);
    if ((d & 0x7F800000u) == 0x7F800000u) {
        dequant_ggml_k_groups(GGML_Q6_K, block, 0, GGML_BLOCK_VALUES / 8, out);
        return;
    }
    const float df = as_float(d);
    const uchar16 low = (uchar16)(15), two = (uchar16)(3), bias = (uchar16)(32);
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const float8 scales = df * convert_float8(as_char8(vload8(0, block + 192 + 8 * h)));
#pragma unroll
        for (int l = 0; l < 2; ++l) { /* values 16l .. 16l + 15 of each quarter of the half */
            const uchar16 ql_first = vload16(0, block + 64 * h + 16 * l);
            const uchar16 ql_second = vload16(0, block + 64 * h + 32 + 16 * l);
            const uchar16 qh = vload16(0, block + 128 + 32 * h + 16 * l);
            __global out_bits_t *at = out + 128 * h + 16 * l;
            store_scaled16(as_char16(((ql_first & low) | (qh & two) << (uchar16)(4)) - bias), scales[l], 0.0f, 0, at);
            store_scaled16(as_char16(((ql_second & low) | (qh >> (uchar16)(2) & two) << (uchar16)(4)) - bias),
                           scales[l + 2], 0.0f, 0, at + 32);
            store_scaled16(as_char16(((ql_first >> (uchar16)(4)) | (qh >> (uchar16)(4) & two) << (uchar16)(4)) - bias),
                           scales[l + 4], 0.0f, 0, at + 64);
            store_scaled16(as_char16(((ql_second >> (uchar16)(4)) | (qh >> (uchar16)(6)) << (uchar16)(4)) - bias),
                           scales[l + 6], 0.0f, 0, at + 96);
        }
    }
}

/* iq4_xs: eight sub-blocks of 32, each 16 bytes of nibbles (the low nibbles' values, then the high
 * ones'), its 6-bit scale a nibble of scales_l below two bits of scales_h, less 32. */
HOT_INLINE void dequant_iq4_xs_block(__global const uchar *block, __global out_bits_t *out)
{
    const uint d = ggml_k_f16_at(block);
    if ((d & 0x7F800000u) == 0x7F800000u) {
        dequant_ggml_k_groups(GGML_IQ4_XS, block, 0, GGML_BLOCK_VALUES / 8, out);
        return;
    }
    const uint high_bits = (uint)block[2] | (uint)block[3] << 8;
    const uint8 low_parts = (convert_uint8(vload4(1, block).s00112233) >> (uint8)(0, 4, 0, 4, 0, 4, 0, 4)) & 15u;
    const uint8 high_parts = ((uint8)(high_bits) >> (uint8)(0, 2, 4, 6, 8, 10, 12, 14)) & 3u;
    const float8 scales = as_float(d) * convert_float8(as_int8(low_parts | high_parts << 4u) - 32);
#pragma unroll
    for (int s = 0; s < 8; ++s) {
        const uchar16 packed = vload16(0, block + 8 + 16 * s);
        store_scaled16(iq4_values16(packed & (uchar16)(15)), scales[s], 0.0f, 0, out + 32 * s);
        store_scaled16(iq4_values16(packed >> (uchar16)(4)), scales[s], 0.0f, 0, out + 32 * s + 16);
    }
}

/* `count` consecutive blocks from block `first` of data into out: q4_K, q6_K (a Q4_K_M file's formats)
 * and iq4_xs block by whole block; q2_K, q3_K and q5_K share one loop of 8-value groups that tests the
 * format as it goes. */
#ifndef GGML_K_WHOLE_BLOCKS
#define GGML_K_WHOLE_BLOCKS 1 /* Oclgrind: 0 (the host; docs/drivers.md) */
#endif

HOT_INLINE void dequant_ggml_run(int format, offset_t first, offset_t count, __global const uchar *data,
                                 __global out_bits_t *out)
{
    const uint block_bytes = ggml_block_bytes(format);
    __global const uchar *block = data + first * block_bytes;
    const offset_t end = first + count;
    if (!GGML_K_WHOLE_BLOCKS) {
        for (offset_t u = first; u < end; ++u, block += block_bytes, out += GGML_BLOCK_VALUES)
            dequant_ggml_k_groups(format, block, 0, GGML_BLOCK_VALUES / 8, out);
    } else if (format == GGML_Q4_K) {
        for (offset_t u = first; u < end; ++u, block += 144u, out += GGML_BLOCK_VALUES) dequant_q4_k_block(block, out);
    } else if (format == GGML_Q6_K) {
        for (offset_t u = first; u < end; ++u, block += 210u, out += GGML_BLOCK_VALUES) dequant_q6_k_block(block, out);
    } else if (format == GGML_IQ4_XS) {
        for (offset_t u = first; u < end; ++u, block += 136u, out += GGML_BLOCK_VALUES)
            dequant_iq4_xs_block(block, out);
    } else {
        for (offset_t u = first; u < end; ++u, block += block_bytes, out += GGML_BLOCK_VALUES)
            dequant_ggml_k_groups(format, block, 0, GGML_BLOCK_VALUES / 8, out);
    }
}

#endif /* CLG_DEQUANT_GGML_K_H */
