/* Reading what the dequantizing gather's kernels dequantize: packed values, scales of three
 * encodings and zero points of five arrangements, as the host's plan describes them
 * (host/ops/gather_quantized/gather_quantized_plan.h). The encodings are kernel arguments, gathered in
 * dequant_params: a branch once a unit costs less than a program build for each combination. */
#ifndef CLG_DEQUANT_VALUES_H
#define CLG_DEQUANT_VALUES_H

#include "dequant.h"
#include "index_rules.h"

/* Scale encodings and zero-point arrangements (the plan's clg_zero_point_mode). */
#define SCALES_F32     0
#define SCALES_F16     1
#define SCALES_BF16    2
#define ZP_CONSTANT    0 /* zp_constant for every value */
#define ZP_NIBBLES     1 /* nibble s of a packed tensor */
#define ZP_NIBBLE_ROWS 2 /* two a byte along each row of nb scales, rows padded to whole bytes */
#define ZP_BYTES       3 /* byte s */
#define ZP_SCALAR      4 /* one value for the whole table */
#define ZP_2BIT_ROWS   5 /* four a byte along each row of nb scales, lowest bits first, rows padded to whole bytes */

/* Where unit scales lie (dequant_units.h). */
#define PLACEMENT_IN_SLAB 0
#define PLACEMENT_BEFORE  1
#define PLACEMENT_ALONG   2

/* The shape of the work and the encodings, as the host's plan gives them. */
typedef struct dequant_params {
    offset_t N, I, U, nb, bs, Qd, QN, P, W, zp_row_bytes;
    long A;
    int value_bits, value_signed, scale_kind, zp_mode, zp_constant, placement;
    int ggml, fast; /* the ggml format (dequant_ggml.h) and whether the fast form applies */
} dequant_params;

/* Whether slabs are ggml blocks: where SPEC is set a build-time constant (SPEC_GGML 1 for every ggml
 * format, whose number stays an argument: one program for the family), else the argument. */
#if SPEC
#define GGML_BLOCKS(q) (SPEC_GGML)
#else
#define GGML_BLOCKS(q) ((q)->ggml != 0)
#endif

/* The 4-bit value at nibble k of packed bytes, sign-extended for signed values. */
inline int nibble_at(__global const uchar *packed, offset_t k, int is_signed)
{
    const int v = (packed[k >> 1] >> ((k & 1) * 4)) & 0xF;
    return is_signed ? v - ((v & 0x8) << 1) : v;
}

/* The 2-bit value at position k of packed bytes, four a byte, the lowest-indexed in the lowest bits. */
inline int two_bits_at(__global const uchar *packed, offset_t k) { return (packed[k >> 2] >> ((k & 3) * 2)) & 0x3; }

inline int byte_at(__global const uchar *bytes, offset_t k, int is_signed)
{
    return is_signed ? (int)as_char(bytes[k]) : (int)bytes[k];
}

/* The value at flat position e of packed data (not ggml). */
inline int value_at(const dequant_params *q, __global const uchar *data, offset_t e)
{
    if (q->value_bits == 2) return two_bits_at(data, e);
    return q->value_bits == 4 ? nibble_at(data, e, q->value_signed) : byte_at(data, e, q->value_signed);
}

/* Scale s as f32 bits (f16 widened exactly, bf16 the high half of an f32). */
HOT_INLINE uint scale_at(const dequant_params *q, __global const uchar *scales, offset_t s)
{
    if (q->scale_kind == SCALES_F32) return ((__global const uint *)scales)[s];
    const uint h = ((__global const ushort *)scales)[s];
    return q->scale_kind == SCALES_F16 ? f16_to_f32_bits(h) : h << 16;
}

/* The zero point of scale s, for the arrangements with a flat rule (not ZP_NIBBLE_ROWS). */
HOT_INLINE int zero_point_at(const dequant_params *q, __global const uchar *zp, offset_t s)
{
    switch (q->zp_mode) {
    case ZP_NIBBLES: return nibble_at(zp, s, q->value_signed);
    case ZP_BYTES: return byte_at(zp, s, q->value_signed);
    case ZP_SCALAR: return value_at(q, zp, 0);
    default: return q->zp_constant;
    }
}

/* The zero point of a unit whose values share scale s: unit (p, b) of data row slab_row (m*A + row).
 * Rows padded to whole bytes (4-bit or 2-bit) hold P rows of nb zero points for each data row. */
HOT_INLINE int zero_point_of_unit(const dequant_params *q, __global const uchar *zp, offset_t s, offset_t slab_row,
                                  offset_t p, offset_t b)
{
    if (q->zp_mode == ZP_NIBBLE_ROWS) return nibble_at(zp + (slab_row * q->P + p) * q->zp_row_bytes, b, 0);
    if (q->zp_mode == ZP_2BIT_ROWS) return two_bits_at(zp + (slab_row * q->P + p) * q->zp_row_bytes, b);
    return zero_point_at(q, zp, s);
}

#endif /* CLG_DEQUANT_VALUES_H */
