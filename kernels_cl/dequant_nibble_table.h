/* 4-bit values to 16-bit outputs by table: a unit's values share one scale and one zero point, so
 * its nibbles can take only 16 output values. The unit computes those 16 (with the same product and
 * narrowing as every other path, so the results are the same bits), splits them into a table of low
 * bytes and one of high bytes, and looks each nibble up with a byte shuffle: on x86 one pshufb per 16
 * values replaces the widening, conversion, product and f16 narrowing of every value
 * (bench/RESULTS.md, "Nibble tables").
 *
 * The lookup is x86's pshufb, so the tables are on where the compiler itself says it targets x86
 * with SSSE3 (__SSSE3__: PoCL's CPU devices); elsewhere a lookup lane by lane costs more than the
 * arithmetic it replaces, and the arithmetic path stays. They serve 16-bit outputs (OUT_KIND 1 or 2).
 * Build options: those of dequant.h. */
#ifndef CLG_DEQUANT_NIBBLE_TABLE_H
#define CLG_DEQUANT_NIBBLE_TABLE_H

#include "dequant.h"

#if defined(__SSSE3__) && OUT_KIND != 0
#define USE_NIBBLE_TABLES 1
#else
#define USE_NIBBLE_TABLES 0
#endif

#if USE_NIBBLE_TABLES

/* The output bits of the 16 nibble values, as low bytes and high bytes. */
typedef struct nibble_table {
    uchar16 low, high;
} nibble_table;

/* Nibble n holds value n (unsigned) or n - 16 for n >= 8 (signed); its output is
 * (value - zero_point) * s for a plain scale s. */
HOT_INLINE nibble_table nibble_table_of(int value_signed, int zero_point, float s)
{
    const int8 first = (int8)(0, 1, 2, 3, 4, 5, 6, 7), second = first + 8;
    const int8 first_values = value_signed ? (first ^ 8) - 8 : first;
    const int8 second_values = value_signed ? (second ^ 8) - 8 : second;
    const ushort16 bits = (ushort16)(plain8_bits(convert_float8(first_values - zero_point) * s),
                                     plain8_bits(convert_float8(second_values - zero_point) * s));
    nibble_table t;
    t.low = convert_uchar16(bits);
    t.high = convert_uchar16(bits >> (ushort16)(8));
    return t;
}

/* table[n[i]] for each lane i (n[i] < 16): x86's pshufb. */
HOT_INLINE uchar16 lookup16(uchar16 table, uchar16 n)
{
    return as_uchar16(__builtin_ia32_pshufb128(as_char16(table), as_char16(n)));
}

/* out[0 .. 15] = the outputs of nibbles n[0 .. 15] (x86 is little-endian: a 16-bit value is its low
 * byte, then its high byte). */
HOT_INLINE void store_nibbles16(const nibble_table *t, uchar16 n, __global out_bits_t *out)
{
    const uchar16 low = lookup16(t->low, n), high = lookup16(t->high, n);
    store_bits8(upsample(high.lo, low.lo), out);
    store_bits8(upsample(high.hi, low.hi), out + 8);
}

/* The nibbles of 8 bytes in order, low nibble first (a widening, two masks, a shift). */
HOT_INLINE uchar16 nibbles_in_order(uchar8 packed)
{
    const ushort8 wide = convert_ushort8(packed);
    return as_uchar16((wide & (ushort8)(15)) | ((wide >> (ushort8)(4)) << (ushort8)(8)));
}

/* 32 values packed two a byte in ONNX Runtime's order (value 2i in byte i's low nibble). */
HOT_INLINE void store_packed_pairs32(const nibble_table *t, uchar16 packed, __global out_bits_t *out)
{
    store_nibbles16(t, nibbles_in_order(packed.lo), out);
    store_nibbles16(t, nibbles_in_order(packed.hi), out + 16);
}

/* 32 values of a ggml q4_0 block's quants (values i and 16 + i in byte i's low and high nibble). */
HOT_INLINE void store_ggml_nibbles32(const nibble_table *t, uchar16 packed, __global out_bits_t *out)
{
    store_nibbles16(t, packed & (uchar16)(15), out);
    store_nibbles16(t, packed >> (uchar16)(4), out + 16);
}

#endif /* USE_NIBBLE_TABLES */

#endif /* CLG_DEQUANT_NIBBLE_TABLE_H */
