/* Dequantizing a piece of one unit (values sharing a run of scales, dequant_units.h) into the output,
 * the work every mapping of the dequantizing gather hands its work-items. Three forms, chosen once a
 * call by the host (the choice is uniform, so a branch costs nothing beside a build per form):
 *   ggml             one ggml block of 32 values (dequant_ggml.h), or with GGML_SUPER one
 *                    super-block of 256 (dequant_ggml_k.h), or with GGML_FBGEMM one FBGEMM row of D
 *                    values (dequant_fbgemm.h)
 *   fast             values along the last axis, one scale a unit, the unit starting on a whole byte:
 *                    8 values a step, read wide, scaled in float8, narrowed in integer vectors
 *   general          any unit: value by value, scale index s_unit + (k mod zcycle), any nibble parity
 * Build options: those of dequant.h and index_rules.h. */
#ifndef CLG_DEQUANT_PIECE_H
#define CLG_DEQUANT_PIECE_H

#if GGML_FBGEMM /* FBGEMM's rows' program (the host's choice): a row of D values a block */
#include "dequant_fbgemm.h"
#elif GGML_SUPER /* the 256-value super-blocks' program (the host's choice): their blocks in place of the 32-value ones */
#include "dequant_ggml_k.h"
#else
#include "dequant_ggml.h"
#endif
#if !GGML_FBGEMM
/* A block of the walk (dequant_units.h): its values and bytes, a piece of it, a run of blocks. FBGEMM's
 * rows, whose size is the table's, define the same from dequant_params (dequant_fbgemm.h). */
#define GGML_UNIT_VALUES(q)                       GGML_BLOCK_VALUES
#define GGML_FORMAT_UNIT_BYTES(q, format)         ggml_block_bytes(format)
#define GGML_UNIT_BYTES(q)                        GGML_FORMAT_UNIT_BYTES(q, (q)->ggml)
#define GGML_UNIT_PIECE(q, block, out, k0, count) dequant_ggml_piece((q)->ggml, block, out, k0, count)
#define GGML_UNIT_RUN(q, first, count, data, out) dequant_ggml_run((q)->ggml, first, count, data, out)
#endif
#include "dequant_nibble_table.h"
#include "dequant_values.h"

/* out[k] = 0 for k in [k0, k0 + count): the zero bits of every output type. */
inline void zero_piece(__global out_bits_t *out, offset_t k0, offset_t count)
{
    offset_t k = k0;
    const offset_t end = k0 + count;
    for (; end - k >= 8; k += 8) vstore8((OUT_VEC8)(0), 0, out + k);
    for (; k < end; ++k) out[k] = 0;
}

/* Values k0 .. k0 + count - 1 of a unit whose values share one scale, value by value. */
inline void dequant_values_one_scale(const dequant_params *q, __global const uchar *data, __global out_bits_t *out,
                                     offset_t e0, offset_t k0, offset_t count, uint scale, int zero_point)
{
    for (offset_t k = k0; k < k0 + count; ++k)
        out[k] = to_output_exact(product_bits(value_at(q, data, e0 + k) - zero_point, scale));
}

/* Eight values from data position e (even for 4-bit values, a multiple of 4 for 2-bit ones). */
HOT_INLINE int8 load_values8(const dequant_params *q, __global const uchar *data, offset_t e)
{
    if (q->value_bits == 2) { /* value k of the eight is bits 2k .. 2k + 1 of the little-endian 16 bits */
        const uchar2 packed = vload2(0, data + (e >> 2));
        const uint word = (uint)packed.s0 | (uint)packed.s1 << 8;
        return as_int8(((uint8)(word) >> (uint8)(0, 2, 4, 6, 8, 10, 12, 14)) & (uint8)(3));
    }
    if (q->value_bits == 4) {
#if ALIGNED8 /* value k of the eight is bits 4k .. 4k + 3 of the little-endian word */
        const uint word = *(__global const uint *)(data + (e >> 1));
        const int8 v = convert_int8(((uint8)(word) >> (uint8)(0, 4, 8, 12, 16, 20, 24, 28)) & (uint8)(15));
#else
        const uchar4 packed = vload4(0, data + (e >> 1));
        const uchar8 nibbles = shuffle2(packed & (uchar4)(15), packed >> (uchar4)(4), (uchar8)(0, 4, 1, 5, 2, 6, 3, 7));
        const int8 v = convert_int8(nibbles);
#endif
        return q->value_signed ? (v ^ 8) - 8 : v;
    }
#if ALIGNED8
    const uchar8 bytes = *(__global const uchar8 *)(data + e);
#else
    const uchar8 bytes = vload8(0, data + e);
#endif
    return q->value_signed ? convert_int8(as_char8(bytes)) : convert_int8(bytes);
}

/* Values k0 .. k0 + count - 1 of a unit with one scale, starting on a whole byte, 8 at a time. */
HOT_INLINE void dequant_piece_fast(const dequant_params *q, __global const uchar *data, __global out_bits_t *out,
                                   offset_t e0, offset_t k0, offset_t count, uint scale, int zero_point)
{
    if (!scale_is_plain(scale)) {
        dequant_values_one_scale(q, data, out, e0, k0, count, scale, zero_point);
        return;
    }
    const float s = as_float(scale);
    offset_t k = k0;
    const offset_t end = k0 + count;
#if USE_NIBBLE_TABLES
    if (q->value_bits == 4 && end - k >= 32) { /* e0 + k stays even: k0 is a multiple of 8 */
        const nibble_table t = nibble_table_of(q->value_signed, zero_point, s);
        if (count == 32) { /* the common block of 32: straight-line code, no loop or tail */
            store_packed_pairs32(&t, vload16(0, data + ((e0 + k) >> 1)), out + k, 0);
            return;
        }
        for (; end - k >= 32; k += 32) store_packed_pairs32(&t, vload16(0, data + ((e0 + k) >> 1)), out + k, 0);
    }
#endif
    for (; end - k >= 8; k += 8) store_plain8(convert_float8(load_values8(q, data, e0 + k) - zero_point) * s, out + k);
    dequant_values_one_scale(q, data, out, e0, k, end - k, scale, zero_point);
}

/* Values k0 .. k0 + count - 1 of any unit: value k has scale s_unit + (k mod zcycle); a zero point per
 * scale, or the unit's. */
inline void dequant_piece_general(const dequant_params *q, __global const uchar *data, __global const uchar *scales,
                                  __global const uchar *zp, __global out_bits_t *out, offset_t e0, offset_t s_unit,
                                  offset_t zcycle, offset_t k0, offset_t count, int zero_point_of_unit)
{
    const int per_scale = q->zp_mode == ZP_NIBBLES || q->zp_mode == ZP_BYTES;
    offset_t z = k0 % zcycle;
    for (offset_t k = k0; k < k0 + count; ++k) {
        const offset_t s = s_unit + z;
        const int zero_point = per_scale ? zero_point_at(q, zp, s) : zero_point_of_unit;
        out[k] = to_output_exact(product_bits(value_at(q, data, e0 + k) - zero_point, scale_at(q, scales, s)));
        if (++z == zcycle) z = 0;
    }
}

#endif /* CLG_DEQUANT_PIECE_H */
