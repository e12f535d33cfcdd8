/* 4-bit values to 16-bit outputs by table: a unit's values share one scale and one zero point, so
 * its nibbles can take only 16 output values. The unit computes those 16 (with the same product and
 * narrowing as every other path, so the results are the same bits), splits them into a table of low
 * bytes and one of high bytes, and looks each nibble up with a byte shuffle: on x86 one pshufb per 16
 * values replaces the widening, conversion, product and f16 narrowing of every value.
 *
 * The lookup is x86's pshufb, so the tables are on where the compiler itself says it targets x86
 * with SSSE3 (__SSSE3__: PoCL's CPU devices); elsewhere a lookup lane by lane costs more than the
 * arithmetic it replaces, and the arithmetic path stays. With AVX2 (__AVX2__) one 32-byte pshufb
 * looks up 32 values and they go out in 32-byte stores; with
 * AVX-512BW (__AVX512BW__) one vpermw looks 32 values up in a table of words. They serve 16-bit
 * outputs (OUT_KIND 1 or 2). Build options: those of dequant.h, and NIBBLE_TABLES_LIMIT, which the
 * host sets from the tuning's nibble_lookups (or a test's switch) to hold the lookups below what the
 * target allows (2: AVX2's byte tables, 1: SSSE3's 16 values a lookup, 0: no tables), so that every
 * form runs on the machines the tests run on. */
#ifndef CLG_DEQUANT_NIBBLE_TABLE_H
#define CLG_DEQUANT_NIBBLE_TABLE_H

#include "dequant.h"

#ifndef NIBBLE_TABLES_LIMIT
#define NIBBLE_TABLES_LIMIT 3
#endif

#if defined(__SSSE3__) && OUT_KIND != 0 && NIBBLE_TABLES_LIMIT >= 1
#define USE_NIBBLE_TABLES 1
#else
#define USE_NIBBLE_TABLES 0
#endif

#if USE_NIBBLE_TABLES

/* With AVX-512BW one vpermw looks 32 nibbles up in a table of their 16 output values as words: no
 * splitting of the table into byte halves and no interleave after. */
#if defined(__AVX512BW__) && NIBBLE_TABLES_LIMIT >= 3
#define NIBBLE_WORD_TABLES 1
#else
#define NIBBLE_WORD_TABLES 0
#endif

#if NIBBLE_WORD_TABLES
/* The output bits of the 16 nibble values. */
typedef struct nibble_table {
    ushort16 bits;
} nibble_table;
#else
/* The output bits of the 16 nibble values, as low bytes and high bytes. */
typedef struct nibble_table {
    uchar16 low, high;
} nibble_table;
#endif

/* value - zero_point for the 16 nibbles: nibble n holds value n (unsigned) or n - 16 for n >= 8
 * (signed). The same for every unit that shares the zero point. */
typedef struct nibble_values {
    float8 first, second;
} nibble_values;

HOT_INLINE nibble_values nibble_values_of(int value_signed, int zero_point)
{
    const int8 first = (int8)(0, 1, 2, 3, 4, 5, 6, 7), second = first + 8;
    const int8 first_values = value_signed ? (first ^ 8) - 8 : first;
    const int8 second_values = value_signed ? (second ^ 8) - 8 : second;
    nibble_values v;
    v.first = convert_float8(first_values - zero_point);
    v.second = convert_float8(second_values - zero_point);
    return v;
}

/* The table of 16 output bits. */
HOT_INLINE nibble_table nibble_table_of_bits(ushort16 bits)
{
    nibble_table t;
#if NIBBLE_WORD_TABLES
    t.bits = bits;
#else
    t.low = convert_uchar16(bits);
    t.high = convert_uchar16(bits >> (ushort16)(8));
#endif
    return t;
}

/* The table of the outputs (value - zero_point) * s, for a plain scale s. */
HOT_INLINE nibble_table nibble_table_scaled(const nibble_values *v, float s)
{
    return nibble_table_of_bits((ushort16)(plain8_bits(v->first * s), plain8_bits(v->second * s)));
}

/* The table of the outputs value * s + m (the product rounded, then the sum: ggml's q4_1), for a plain
 * scale s and a finite m whose sums are never f32 subnormals. */
HOT_INLINE nibble_table nibble_table_scaled_plus(const nibble_values *v, float s, float m)
{
    return nibble_table_of_bits((ushort16)(plain8_bits(v->first * s + m), plain8_bits(v->second * s + m)));
}

HOT_INLINE nibble_table nibble_table_of(int value_signed, int zero_point, float s)
{
    const nibble_values v = nibble_values_of(value_signed, zero_point);
    return nibble_table_scaled(&v, s);
}

#if defined(__AVX2__) && NIBBLE_TABLES_LIMIT >= 2
/* 16 output values, 32 bytes: where aligned to that, one store (streaming where the host allows).
 * aligned32: the caller knows out is (a constant, so that the test folds away). */
HOT_INLINE void store_bits16(ushort16 bits, __global out_bits_t *out, int aligned32)
{
#if defined(STREAM) && STREAM && HINT_STREAM
    if (aligned32 || ((ulong)out & 31) == 0) {
        __builtin_nontemporal_store(bits, (__global ushort16 *)out);
        return;
    }
#endif
    store_bits8(bits.lo, out);
    store_bits8(bits.hi, out + 8);
}
#endif

#if NIBBLE_WORD_TABLES
typedef ushort nibble_words32 __attribute__((ext_vector_type(32)));
typedef short x86_words32 __attribute__((vector_size(64)));

/* out[0 .. 31] = table[n[i]] (words, in value order): vpermw over a table of 32 words, then two
 * 32-byte stores (one 64-byte streaming store measured slower). */
HOT_INLINE void store_words_looked_up32(nibble_words32 table, nibble_words32 n, __global out_bits_t *out, int aligned32)
{
    const nibble_words32 found = __builtin_astype(
        __builtin_ia32_permvarhi512(__builtin_astype(table, x86_words32), __builtin_astype(n, x86_words32)),
        nibble_words32);
    store_bits16(__builtin_shufflevector(found, found, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), out,
                 aligned32);
    store_bits16(__builtin_shufflevector(found, found, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31),
                 out + 16, aligned32);
}

/* out[0 .. 31] = the outputs of nibbles n (one a word, in value order), all from one table. */
HOT_INLINE void store_nibble_words32(const nibble_table *t, nibble_words32 n, __global out_bits_t *out, int aligned32)
{
    store_words_looked_up32(__builtin_shufflevector(t->bits, t->bits, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
                                                    15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                            n, out, aligned32);
}

/* 32 values packed two a byte in ONNX Runtime's order (value 2i in byte i's low nibble) as words in
 * value order: each byte b widened to a 32-bit lane, (b | b << 12) & 0x000F000F puts its low nibble in
 * the lane's low word and its high nibble in the high word. */
HOT_INLINE nibble_words32 packed_pairs_words(uchar16 packed)
{
    const uint16 wide = convert_uint16(packed);
    return __builtin_astype((wide | (wide << (uint16)(12))) & (uint16)(0x000F000Fu), nibble_words32);
}

HOT_INLINE void store_packed_pairs32(const nibble_table *t, uchar16 packed, __global out_bits_t *out, int aligned32)
{
    store_nibble_words32(t, packed_pairs_words(packed), out, aligned32);
}

/* The same 32 values as two units of 16 (blocks of 16): values 0 .. 15 by `first`'s table and 16 .. 31
 * by `second`'s, one vpermw over the two tables side by side (nibbles of the second unit + 16). */
HOT_INLINE void store_packed_pairs32_two(const nibble_table *first, const nibble_table *second, uchar16 packed,
                                         __global out_bits_t *out, int aligned32)
{
    const nibble_words32 second_half = (nibble_words32)(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 16, 16, 16, 16,
                                                        16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16);
    const nibble_words32 table =
        __builtin_shufflevector(first->bits, second->bits, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
                                18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
    store_words_looked_up32(table, packed_pairs_words(packed) | second_half, out, aligned32);
}

/* 32 values of a ggml nibble block's quants (values i and 16 + i in byte i's low and high nibble). */
HOT_INLINE void store_ggml_nibbles32(const nibble_table *t, uchar16 packed, __global out_bits_t *out, int aligned32)
{
    const ushort16 wide = convert_ushort16(packed);
    const ushort16 low = wide & (ushort16)(15), high = wide >> (ushort16)(4);
    store_nibble_words32(t,
                         __builtin_shufflevector(low, high, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                                 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31),
                         out, aligned32);
}

#elif defined(__AVX2__) && NIBBLE_TABLES_LIMIT >= 2
/* With AVX2 a lookup takes 32 nibbles: vpshufb on 32 bytes looks each 16-byte lane up in its own
 * copy of the table. The nibbles go in as values [0 .. 7, 16 .. 23 | 8 .. 15, 24 .. 31], so that the
 * in-lane interleave of low and high bytes gives values 0 .. 15, then 16 .. 31, with no lane-crossing
 * shuffle; where the output is aligned to 32 bytes each half goes out in one store. */
typedef uchar lane_pair_bytes __attribute__((ext_vector_type(32)));
typedef char x86_bytes32 __attribute__((vector_size(32)));

HOT_INLINE lane_pair_bytes in_both_lanes(uchar16 t)
{
    return __builtin_shufflevector(t, t, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7,
                                   8, 9, 10, 11, 12, 13, 14, 15);
}

HOT_INLINE lane_pair_bytes lookup32(uchar16 table, lane_pair_bytes n)
{
    const x86_bytes32 found =
        __builtin_ia32_pshufb256(__builtin_astype(in_both_lanes(table), x86_bytes32), __builtin_astype(n, x86_bytes32));
    return __builtin_astype(found, lane_pair_bytes);
}

/* out[0 .. 31] from the low and high bytes of the outputs of values [0 .. 7, 16 .. 23 | 8 .. 15, 24 .. 31]. */
HOT_INLINE void store_looked_up32(lane_pair_bytes low, lane_pair_bytes high, __global out_bits_t *out, int aligned32)
{
    const lane_pair_bytes first =
        __builtin_shufflevector(low, high, 0, 32, 1, 33, 2, 34, 3, 35, 4, 36, 5, 37, 6, 38, 7, 39, 16, 48, 17, 49, 18,
                                50, 19, 51, 20, 52, 21, 53, 22, 54, 23, 55);
    const lane_pair_bytes second =
        __builtin_shufflevector(low, high, 8, 40, 9, 41, 10, 42, 11, 43, 12, 44, 13, 45, 14, 46, 15, 47, 24, 56, 25, 57,
                                26, 58, 27, 59, 28, 60, 29, 61, 30, 62, 31, 63);
    store_bits16(__builtin_astype(first, ushort16), out, aligned32);
    store_bits16(__builtin_astype(second, ushort16), out + 16, aligned32);
}

/* out[0 .. 31] = the outputs of nibbles n, which holds values [0 .. 7, 16 .. 23 | 8 .. 15, 24 .. 31]. */
HOT_INLINE void store_nibbles32(const nibble_table *t, lane_pair_bytes n, __global out_bits_t *out, int aligned32)
{
    store_looked_up32(lookup32(t->low, n), lookup32(t->high, n), out, aligned32);
}

/* A lookup of the same nibbles in two tables, values 0 .. 15 in `first` and 16 .. 31 in `second`: the
 * two lookups blended by 8-byte halves of each lane. */
HOT_INLINE lane_pair_bytes lookup32_two(uchar16 first, uchar16 second, lane_pair_bytes n)
{
    return __builtin_shufflevector(lookup32(first, n), lookup32(second, n), 0, 1, 2, 3, 4, 5, 6, 7, 40, 41, 42, 43, 44,
                                   45, 46, 47, 16, 17, 18, 19, 20, 21, 22, 23, 56, 57, 58, 59, 60, 61, 62, 63);
}

/* 32 values packed two a byte in ONNX Runtime's order (value 2i in byte i's low nibble): bytes
 * 0 .. 3 and 8 .. 11 to the first lane, 4 .. 7 and 12 .. 15 to the second, each widened to its low
 * nibble, then its high one. */
HOT_INLINE lane_pair_bytes packed_pairs_lanes(uchar16 packed)
{
    const ushort16 wide = as_ushort16(as_ulong4(convert_ushort16(packed)).s0213);
    return __builtin_astype((wide & (ushort16)(15)) | ((wide >> (ushort16)(4)) << (ushort16)(8)), lane_pair_bytes);
}

HOT_INLINE void store_packed_pairs32(const nibble_table *t, uchar16 packed, __global out_bits_t *out, int aligned32)
{
    store_nibbles32(t, packed_pairs_lanes(packed), out, aligned32);
}

/* The same 32 values as two units of 16 (blocks of 16): values 0 .. 15 by `first`'s table and 16 .. 31
 * by `second`'s. */
HOT_INLINE void store_packed_pairs32_two(const nibble_table *first, const nibble_table *second, uchar16 packed,
                                         __global out_bits_t *out, int aligned32)
{
    const lane_pair_bytes n = packed_pairs_lanes(packed);
    store_looked_up32(lookup32_two(first->low, second->low, n), lookup32_two(first->high, second->high, n), out,
                      aligned32);
}

/* 32 values of a ggml nibble block's quants (values i and 16 + i in byte i's low and high nibble). */
HOT_INLINE void store_ggml_nibbles32(const nibble_table *t, uchar16 packed, __global out_bits_t *out, int aligned32)
{
    const uchar16 low = packed & (uchar16)(15), high = packed >> (uchar16)(4);
    store_nibbles32(t,
                    __builtin_shufflevector(low, high, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8, 9, 10,
                                            11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31),
                    out, aligned32);
}

#else /* SSSE3: 16 nibbles a lookup */

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
HOT_INLINE void store_packed_pairs32(const nibble_table *t, uchar16 packed, __global out_bits_t *out, int aligned32)
{
    (void)aligned32; /* 16-byte stores: the host's STREAM promises their alignment */
    store_nibbles16(t, nibbles_in_order(packed.lo), out);
    store_nibbles16(t, nibbles_in_order(packed.hi), out + 16);
}

/* The same 32 values as two units of 16 (blocks of 16): values 0 .. 15 by `first`'s table and 16 .. 31
 * by `second`'s. */
HOT_INLINE void store_packed_pairs32_two(const nibble_table *first, const nibble_table *second, uchar16 packed,
                                         __global out_bits_t *out, int aligned32)
{
    (void)aligned32;
    store_nibbles16(first, nibbles_in_order(packed.lo), out);
    store_nibbles16(second, nibbles_in_order(packed.hi), out + 16);
}

/* 32 values of a ggml nibble block's quants (values i and 16 + i in byte i's low and high nibble). */
HOT_INLINE void store_ggml_nibbles32(const nibble_table *t, uchar16 packed, __global out_bits_t *out, int aligned32)
{
    (void)aligned32;
    store_nibbles16(t, packed & (uchar16)(15), out);
    store_nibbles16(t, packed >> (uchar16)(4), out + 16);
}

#endif /* word tables, __AVX2__, SSSE3 */

#endif /* USE_NIBBLE_TABLES */

#endif /* CLG_DEQUANT_NIBBLE_TABLE_H */
