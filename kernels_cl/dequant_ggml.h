/* ggml's blocks of 32 values (ggml-common.h) in the dequantizing gather's kernels: q4_0, q8_0, q4_1,
 * q5_0, q5_1 and iq4_nl, each value computed as ggml-quants.c's dequantize_row_* computes it: q * d, or
 * (q4_1, q5_1) q * d + m, the product and then the sum each rounded to f32 (contraction is off), so
 * that the results equal the CPU reference's and gguf.quants.dequantize's bits.
 *
 * One program serves every format: the format is a kernel argument (dequant_params.ggml), whose
 * uniform branches cost less than a build per format and keep the program near the size of one
 * format's (per-format copies of this code everywhere doubled a cold build, bench/RESULTS.md); only
 * the runs mapping's loop over blocks keeps a copy each for q4_0 and q8_0. A block's d and m are f16:
 * widened, a finite one is a normal f32 or zero, and every product and sum of them is a multiple of
 * 2^-24, never an f32 subnormal; an infinite or NaN d or m takes the exact integer path. Build
 * options: those of dequant.h and dequant_nibble_table.h. */
#ifndef CLG_DEQUANT_GGML_H
#define CLG_DEQUANT_GGML_H

#include "dequant_nibble_table.h"
#include "dequant_values.h"

/* The formats, numbered as the host's clg_ggml_format. */
#define GGML_NONE   0
#define GGML_Q4_0   1 /* f16 d, 16 bytes of nibbles: (q - 8) * d */
#define GGML_Q8_0   2 /* f16 d, 32 int8: q * d */
#define GGML_Q4_1   3 /* f16 d, f16 m, 16 bytes of nibbles: q * d + m */
#define GGML_Q5_0   4 /* f16 d, 4 bytes of fifth bits, 16 of nibbles: (q - 16) * d */
#define GGML_Q5_1   5 /* f16 d, f16 m, fifth bits, nibbles: q * d + m */
#define GGML_IQ4_NL 6 /* f16 d, 16 bytes of nibbles indexing kvalues_iq4nl: kvalue * d */

/* The values of one block: a unit of the kernels' walk (dequant_units.h). */
#define GGML_BLOCK_VALUES 32

HOT_INLINE uint ggml_block_bytes(int format)
{
    switch (format) {
    case GGML_Q8_0: return 34u;
    case GGML_Q4_1: return 20u;
    case GGML_Q5_0: return 22u;
    case GGML_Q5_1: return 24u;
    default: return 18u; /* q4_0, iq4_nl */
    }
}

HOT_INLINE int ggml_has_min(int format) { return format == GGML_Q4_1 || format == GGML_Q5_1; }

/* Where a block's quants start: they end the block (32 int8 for q8_0, 16 bytes of nibbles else), and
 * q5's four bytes of fifth bits come just before them. */
HOT_INLINE uint ggml_quants_at(int format) { return ggml_block_bytes(format) - (format == GGML_Q8_0 ? 32u : 16u); }

/* ggml's kvalues_iq4nl: the value each iq4_nl nibble selects. */
#define IQ4_NL_VALUES (char16)(-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113)

/* An f16 field of a block (d at 0, m at 2) as f32 bits. */
HOT_INLINE uint ggml_f16_at(__global const uchar *at) { return f16_to_f32_bits((uint)at[0] | ((uint)at[1] << 8)); }

/* Eight bytes of a ggml block's quants. */
HOT_INLINE uchar8 ggml_bytes8(__global const uchar *at)
{
#if ALIGNED8 /* blocks and their quants start on even bytes: four 2-byte loads instead of eight */
    return as_uchar8(vload4(0, (__global const ushort *)at));
#else
    return vload8(0, at);
#endif
}

/* The integers q of values 8*eighth .. 8*eighth + 7 of a block, before d (and m): values 8h .. 8h + 7
 * (h < 2) are the low nibbles of quant bytes 8h .. 8h + 7 and values 16 + 8h .. the high ones; q5's
 * fifth bit of value j is bit j of its little-endian 32-bit word, so byte `eighth` holds those of the
 * eight. */
HOT_INLINE int8 ggml_values8(int format, __global const uchar *block, int eighth)
{
    __global const uchar *quants = block + ggml_quants_at(format);
    if (format == GGML_Q8_0) return convert_int8(as_char8(ggml_bytes8(quants + 8 * eighth)));
    const uchar8 packed = ggml_bytes8(quants + 8 * (eighth & 1));
    const uchar8 nibbles = eighth < 2 ? packed & (uchar8)(15) : packed >> (uchar8)(4);
    switch (format) {
    case GGML_Q4_0: return convert_int8(nibbles) - 8;
    case GGML_Q4_1: return convert_int8(nibbles);
    case GGML_IQ4_NL: return convert_int8(shuffle(IQ4_NL_VALUES, nibbles));
    default: { /* q5_0, q5_1 */
        const uchar8 fifth = ((uchar8)(quants[eighth - 4]) >> (uchar8)(0, 1, 2, 3, 4, 5, 6, 7)) & (uchar8)(1);
        const int8 v = convert_int8(nibbles | (fifth << (uchar8)(4)));
        return format == GGML_Q5_0 ? v - 16 : v;
    }
    }
}

/* Whether d and m take the vector path: d normal or zero (a finite f16), m finite. */
HOT_INLINE int ggml_fields_plain(int format, uint d, uint m)
{
    return scale_is_plain(d) && (!ggml_has_min(format) || (m & 0x7F800000u) != 0x7F800000u);
}

/* Eight values q * d (+ m) of a block whose fields are plain. */
HOT_INLINE float8 ggml_scaled8(int format, int8 q, float d, float m)
{
    const float8 product = convert_float8(q) * d;
    return ggml_has_min(format) ? product + m : product;
}

/* f32 bits of one value, any d and m. */
inline uint ggml_value_exact(int format, int q, uint d, uint m)
{
    const uint product = product_in_integers(q, d);
    return ggml_has_min(format) ? sum_exact(product, m) : product;
}

/* Values 8*eighth .. 8*eighth + 7 of the block at `block` into out[0 .. 7]. */
HOT_INLINE void dequant_ggml_eighth(int format, __global const uchar *block, int eighth, __global out_bits_t *out)
{
    const uint d = ggml_f16_at(block), m = ggml_has_min(format) ? ggml_f16_at(block + 2) : 0u;
    const int8 q = ggml_values8(format, block, eighth);
    if (ggml_fields_plain(format, d, m)) {
        store_plain8(ggml_scaled8(format, q, as_float(d), as_float(m)), out);
        return;
    }
    for (int k = 0; k < 8; ++k) out[k] = to_output_exact(ggml_value_exact(format, ((const int *)&q)[k], d, m));
}

#if USE_NIBBLE_TABLES
/* The 16 outputs of a nibble format's nibbles (q4_0, q4_1, iq4_nl), for plain fields: the same product
 * and sum as ggml_scaled8, so the same bits. */
HOT_INLINE nibble_table ggml_nibble_table(int format, float d, float m)
{
    nibble_values v;
    if (format == GGML_IQ4_NL) {
        const char16 values = IQ4_NL_VALUES;
        v.first = convert_float8(values.lo);
        v.second = convert_float8(values.hi);
    } else {
        v = nibble_values_of(0, format == GGML_Q4_0 ? 8 : 0);
    }
    if (format == GGML_Q4_1) return nibble_table_scaled_plus(&v, d, m);
    return nibble_table_scaled(&v, d);
}
#endif

/* One block: out[0 .. 31] from the block at `block`. */
HOT_INLINE void dequant_ggml_block(int format, __global const uchar *block, __global out_bits_t *out)
{
    const uint d = ggml_f16_at(block), m = ggml_has_min(format) ? ggml_f16_at(block + 2) : 0u;
    if (ggml_fields_plain(format, d, m)) {
        const float df = as_float(d), mf = as_float(m);
#if USE_NIBBLE_TABLES
        if (format == GGML_Q4_0 || format == GGML_Q4_1 || format == GGML_IQ4_NL) {
            const nibble_table t = ggml_nibble_table(format, df, mf);
            store_ggml_nibbles32(&t, vload16(0, block + ggml_quants_at(format)), out, 0);
            return;
        }
#endif
        for (int eighth = 0; eighth < 4; ++eighth)
            store_plain8(ggml_scaled8(format, ggml_values8(format, block, eighth), df, mf), out + 8 * eighth);
        return;
    }
    for (int eighth = 0; eighth < 4; ++eighth) {
        const int8 q = ggml_values8(format, block, eighth);
        for (int k = 0; k < 8; ++k)
            out[8 * eighth + k] = to_output_exact(ggml_value_exact(format, ((const int *)&q)[k], d, m));
    }
}

/* Values k0 .. k0 + count - 1 (multiples of 8) of the block at `block` into out[k0 ..]. */
HOT_INLINE void dequant_ggml_piece(int format, __global const uchar *block, __global out_bits_t *out, offset_t k0,
                                   offset_t count)
{
    if (count == 32) {
        dequant_ggml_block(format, block, out);
        return;
    }
    for (offset_t k = k0; k < k0 + count; k += 8) dequant_ggml_eighth(format, block, (int)(k / 8), out + k);
}

/* `count` consecutive blocks from block `first` of data into out; a constant format where inlined. */
HOT_INLINE void dequant_ggml_blocks(int format, offset_t first, offset_t count, __global const uchar *data,
                                    __global out_bits_t *out)
{
    const uint block_bytes = ggml_block_bytes(format);
    __global const uchar *block = data + first * block_bytes;
    for (offset_t u = 0; u < count; ++u, block += block_bytes, out += 32) dequant_ggml_block(format, block, out);
}

/* The same, the format an argument: q4_0 and q8_0 (the formats most tables ship) each have their own
 * loop, the other formats share one that tests the format as it goes. */
HOT_INLINE void dequant_ggml_run(int format, offset_t first, offset_t count, __global const uchar *data,
                                 __global out_bits_t *out)
{
    if (format == GGML_Q4_0)
        dequant_ggml_blocks(GGML_Q4_0, first, count, data, out);
    else if (format == GGML_Q8_0)
        dequant_ggml_blocks(GGML_Q8_0, first, count, data, out);
    else
        dequant_ggml_blocks(format, first, count, data, out);
}

#endif /* CLG_DEQUANT_GGML_H */
