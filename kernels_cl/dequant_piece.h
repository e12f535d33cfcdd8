/* Dequantizing a piece of one unit (values sharing a run of scales, dequant_units.h) into the output,
 * the work every mapping of the dequantizing gather hands its work-items. Three forms, chosen once a
 * call by the host (the choice is uniform, so a branch costs nothing beside a build per form):
 *   ggml             one ggml q4_0 / q8_0 block of 32 values, its f16 scale first
 *   fast             values along the last axis, one scale a unit, the unit starting on a whole byte:
 *                    16 values a step, read wide, scaled in float16, narrowed in integer vectors
 *   general          any unit: value by value, scale index s_unit + (k mod zcycle), any nibble parity
 * Build options: those of dequant.h and index_rules.h. */
#ifndef CLG_DEQUANT_PIECE_H
#define CLG_DEQUANT_PIECE_H

#include "dequant_values.h"

/* out[k] = 0 for k in [k0, k0 + count): the zero bits of every output type. */
inline void zero_piece(__global out_bits_t *out, offset_t k0, offset_t count)
{
    offset_t k = k0;
    const offset_t end = k0 + count;
    for (; end - k >= 16; k += 16) vstore16((OUT_VEC16)(0), 0, out + k);
    for (; k < end; ++k) out[k] = 0;
}

/* ggml formats (the plan's clg_ggml_format): 0 none, q4_0 and q8_0 blocks of 32 values. */
#define GGML_NONE 0
#define GGML_Q4_0 1
#define GGML_Q8_0 2

/* One ggml block: out[0 .. 31] from the block at `block`. */
inline void dequant_ggml_block(int format, __global const uchar *block, __global out_bits_t *out)
{
    const uint scale = f16_to_f32_bits((uint)block[0] | ((uint)block[1] << 8));
    int16 low, high;
    if (format == GGML_Q4_0) { /* values 0..15: the low nibbles of the 16 bytes, 16..31 the high ones, minus 8 */
        const uchar16 packed = vload16(0, block + 2);
        low = convert_int16(packed & (uchar16)(15)) - 8;
        high = convert_int16(packed >> (uchar16)(4)) - 8;
    } else {
        low = convert_int16(as_char16(vload16(0, block + 2)));
        high = convert_int16(as_char16(vload16(0, block + 18)));
    }
    if (scale_is_plain(scale)) {
        const float s = as_float(scale);
        vstore16(to_output_plain16(convert_float16(low) * s), 0, out);
        vstore16(to_output_plain16(convert_float16(high) * s), 0, out + 16);
        return;
    }
    for (int k = 0; k < 16; ++k) {
        out[k] = to_output_exact(product_in_integers(((const int *)&low)[k], scale));
        out[k + 16] = to_output_exact(product_in_integers(((const int *)&high)[k], scale));
    }
}

/* Values k0 .. k0 + count - 1 of a unit whose values share one scale, value by value. */
inline void dequant_values_one_scale(const dequant_params *q, __global const uchar *data, __global out_bits_t *out,
                                     offset_t e0, offset_t k0, offset_t count, uint scale, int zero_point)
{
    for (offset_t k = k0; k < k0 + count; ++k)
        out[k] = to_output_exact(product_bits(value_at(q, data, e0 + k) - zero_point, scale));
}

/* Sixteen values from data position e (even for 4-bit values). */
inline int16 load_values16(const dequant_params *q, __global const uchar *data, offset_t e)
{
    if (q->value_bits == 4) {
        const uchar8 packed = vload8(0, data + (e >> 1));
        const uchar16 nibbles = shuffle2(packed & (uchar8)(15), packed >> (uchar8)(4),
                                         (uchar16)(0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15));
        const int16 v = convert_int16(nibbles);
        return q->value_signed ? (v ^ 8) - 8 : v;
    }
    const uchar16 bytes = vload16(0, data + e);
    return q->value_signed ? convert_int16(as_char16(bytes)) : convert_int16(bytes);
}

/* Values k0 .. k0 + count - 1 of a unit with one scale, starting on a whole byte, 16 at a time. */
inline void dequant_piece_fast(const dequant_params *q, __global const uchar *data, __global out_bits_t *out,
                               offset_t e0, offset_t k0, offset_t count, uint scale, int zero_point)
{
    if (!scale_is_plain(scale)) {
        dequant_values_one_scale(q, data, out, e0, k0, count, scale, zero_point);
        return;
    }
    const float s = as_float(scale);
    offset_t k = k0;
    const offset_t end = k0 + count;
    for (; end - k >= 16; k += 16)
        vstore16(to_output_plain16(convert_float16(load_values16(q, data, e0 + k) - zero_point) * s), 0, out + k);
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
