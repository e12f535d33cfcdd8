/* Where the units of a gathered slab lie (host/ops/gather_quantized/gather_quantized_plan.h): a slab is
 * the I values data[m, row, ...] gathered for one index; it splits into U units of values that share a
 * run of scales. Placement "in slab" (the quantize axis after the gather axis): unit u = (p, b) holds
 * values [(p*Qd + b*bs)*QN, (p*Qd + min(Qd, (b+1)*bs))*QN) with scales u*QN + (0 .. QN-1) of the
 * slab's. "Before" (quantize axis before the gather axis) and "along" (the same axis): one unit, a
 * scale a value. ggml slabs are U blocks of GGML_UNIT_VALUES (32, or 256 for the super-blocks; FBGEMM's
 * rows: U rows of D values). Build options: those of dequant_piece.h. */
#ifndef CLG_DEQUANT_UNITS_H
#define CLG_DEQUANT_UNITS_H

#include "dequant_piece.h"

/* A slab: data row slab_row = m*A + row, its first value (ggml: block) and first scale. */
typedef struct slab {
    offset_t slab_row, first_value, first_scale;
} slab;

HOT_INLINE slab slab_at(const dequant_params *q, offset_t m, offset_t row)
{
    slab s;
    s.slab_row = m * (offset_t)q->A + row;
    s.first_value = s.slab_row * (GGML_BLOCKS(q) ? q->U : q->I); /* ggml: the slab's first block */
    s.first_scale = 0;
    if (GGML_BLOCKS(q)) {
        return s;
    } else if (q->placement == PLACEMENT_IN_SLAB) {
        s.first_scale = s.slab_row * q->U * q->QN;
    } else if (q->placement == PLACEMENT_BEFORE) {
        /* m = (x*Qd + y)*W + w over the axes before the gather axis; scales [x, y/bs, w, row, i] */
        const offset_t x = m / (q->Qd * q->W), w = m % q->W, y = m / q->W - x * q->Qd;
        s.first_scale = (((x * q->nb + y / q->bs) * q->W + w) * (offset_t)q->A + row) * q->I;
    } else {
        s.first_scale = (m * q->nb + row / q->bs) * q->I;
    }
    return s;
}

/* Ask for a slab's packed values and scales ahead of their use: the gathered rows are random, which
 * the hardware prefetcher cannot follow. At most SLAB_PREFETCH_BYTES of each (a tuning constant,
 * hints.h); prefetches never fault, so a range's last line reaching past a buffer is harmless. The CPU mapping
 * asks SLAB_PREFETCH_AHEAD slabs ahead (a build option the host sizes to the slabs). */
#ifndef SLAB_PREFETCH_AHEAD
#define SLAB_PREFETCH_AHEAD 1
#endif
HOT_INLINE void prefetch_range(__global const uchar *base, ulong first, ulong bytes)
{
    prefetch_span(base + first, min(bytes, (ulong)SLAB_PREFETCH_BYTES));
}

HOT_INLINE void prefetch_slab(const dequant_params *q, __global const uchar *data, __global const uchar *scales,
                              __global const uchar *zp, const slab *s)
{
    if (GGML_BLOCKS(q)) {
        const ulong block_bytes = GGML_UNIT_BYTES(q);
        prefetch_range(data, (ulong)s->first_value * block_bytes, (ulong)q->U * block_bytes);
        return;
    }
    prefetch_range(data, (ulong)s->first_value * (ulong)q->value_bits / 8, ((ulong)q->I * q->value_bits + 7) / 8);
    const ulong scale_bytes = q->scale_kind == SCALES_F32 ? 4 : 2;
    const ulong scale_count = q->placement == PLACEMENT_IN_SLAB ? (ulong)q->U * q->QN : (ulong)q->I;
    prefetch_range(scales, (ulong)s->first_scale * scale_bytes, scale_count * scale_bytes);
    /* zero points that follow the scales: a random row's are as far from the last row's as its scales */
    if (q->zp_mode == ZP_NIBBLES)
        prefetch_range(zp, (ulong)s->first_scale / 2, scale_count / 2 + 1);
    else if (q->zp_mode == ZP_BYTES)
        prefetch_range(zp, (ulong)s->first_scale, scale_count);
    else if (q->zp_mode == ZP_NIBBLE_ROWS || q->zp_mode == ZP_2BIT_ROWS)
        prefetch_range(zp, (ulong)s->slab_row * q->P * q->zp_row_bytes, (ulong)q->P * q->zp_row_bytes);
}

/* Where unit u = (p, b) starts in its slab, and how many values it holds. */
HOT_INLINE offset_t unit_start(const dequant_params *q, offset_t p, offset_t b)
{
    if (GGML_BLOCKS(q)) return (p * q->nb + b) * GGML_UNIT_VALUES(q);
    return q->placement == PLACEMENT_IN_SLAB ? (p * q->Qd + b * q->bs) * q->QN : 0;
}

HOT_INLINE offset_t unit_values(const dequant_params *q, offset_t b)
{
    if (GGML_BLOCKS(q)) return GGML_UNIT_VALUES(q);
    return q->placement == PLACEMENT_IN_SLAB ? min(q->bs, q->Qd - b * q->bs) * q->QN : q->I;
}

/* Values k0 .. k0 + count - 1 of unit u = p*nb + b of slab sl into out_unit (the unit's first output). */
HOT_INLINE void dequant_unit_piece(const dequant_params *q, const slab *sl, __global const uchar *data,
                                   __global const uchar *scales, __global const uchar *zp,
                                   __global out_bits_t *out_unit, offset_t u, offset_t p, offset_t b, offset_t k0,
                                   offset_t count)
{
    if (GGML_BLOCKS(q)) { /* the whole block, or (GPU mapping) eighths of it */
        GGML_UNIT_PIECE(q, data + (sl->first_value + u) * GGML_UNIT_BYTES(q), out_unit, k0, count);
        return;
    }
    const offset_t e0 = sl->first_value + unit_start(q, p, b);
    const int in_slab = q->placement == PLACEMENT_IN_SLAB;
    const offset_t s_unit = in_slab ? sl->first_scale + u * q->QN : sl->first_scale;
    const int zero_point = zero_point_of_unit(q, zp, s_unit, sl->slab_row, p, b);
    if (q->fast)
        dequant_piece_fast(q, data, out_unit, e0, k0, count, scale_at(q, scales, s_unit), zero_point);
    else
        dequant_piece_general(q, data, scales, zp, out_unit, e0, s_unit, in_slab ? q->QN : q->I, k0, count, zero_point);
}

/* Scales s .. s + 7 as f32 bits in *bits, decoded together: 1 where all eight are normal numbers,
 * else 0 (the caller then decodes each exactly with scale_at). */
HOT_INLINE int normal_scales8(const dequant_params *q, __global const uchar *scales, offset_t s, uint8 *bits)
{
    if (q->scale_kind == SCALES_F16) {
        const uint8 h = convert_uint8(vload8(0, (__global const ushort *)scales + s));
        const uint8 exponent = (h >> 10) & 0x1Fu;
        if (any(exponent == 0u || exponent == 0x1Fu)) return 0;
        *bits = ((h & 0x8000u) << 16) | (((h & 0x7FFFu) << 13) + (112u << 23));
        return 1;
    }
    const uint8 b = q->scale_kind == SCALES_F32 ? vload8(0, (__global const uint *)scales + s)
                                                : convert_uint8(vload8(0, (__global const ushort *)scales + s)) << 16;
    const uint8 exponent = (b >> 23) & 0xFFu;
    if (any(exponent == 0u || exponent == 0xFFu)) return 0;
    *bits = b;
    return 1;
}

/* Unit (p, b) of a slab of the fast form, its scale s given as f32 bits. */
HOT_INLINE void dequant_slab_unit(const dequant_params *q, const slab *sl, __global const uchar *data,
                                  __global const uchar *zp, __global out_bits_t *out_slab, offset_t p, offset_t b,
                                  offset_t s, uint scale)
{
    const offset_t start = unit_start(q, p, b);
    dequant_piece_fast(q, data, out_slab + start, sl->first_value + start, 0, unit_values(q, b), scale,
                       zero_point_of_unit(q, zp, s, sl->slab_row, p, b));
}

#if USE_NIBBLE_TABLES
/* The zero points of scales s .. s + 7 as floats: where they are nibbles and s is even, the four bytes
 * that hold them read together; otherwise one by one. */
HOT_INLINE float8 zero_points8(const dequant_params *q, __global const uchar *zp, offset_t s)
{
    if (q->zp_mode == ZP_NIBBLES && (s & 1) == 0) {
        const uint8 bytes = convert_uint8(vload4(0, zp + (s >> 1)).s00112233);
        const int8 v = as_int8((bytes >> (uint8)(0, 4, 0, 4, 0, 4, 0, 4)) & (uint8)(0xF));
        return convert_float8(q->value_signed ? v - ((v & (int8)(8)) << 1) : v);
    }
    float8 z;
    for (int j = 0; j < 8; ++j) z[j] = (float)zero_point_at(q, zp, s + j);
    return z;
}

/* The table of a unit whose values less its zero point are `values` - z (z a float, exact: a small
 * integer; none where the zero point is fixed), scaled by s. */
HOT_INLINE nibble_table unit_table(nibble_values values, int zero_point_fixed, float z, float s)
{
    if (!zero_point_fixed) {
        values.first -= z;
        values.second -= z;
    }
    return nibble_table_scaled(&values, s);
}

/* A slab of 4-bit values whose units are blocks of bs = 16 or a multiple of 32 values, bs dividing Qd,
 * and whose zero points follow their scales (not ZP_NIBBLE_ROWS): unit u is packed bytes
 * (bs/2)u .. (bs/2)(u + 1) - 1 of the slab, output values bs*u .. bs*(u + 1) - 1 and scale u. Eight
 * units a step share one decode of their scales, so the loop carries pointers only; blocks of 32 (the
 * usual size) are unrolled, blocks of 16 go two to a 32-value lookup, larger blocks a lookup per 32
 * values of one table. A step whose scales are not all normal goes unit by unit through the exact
 * path. stores_aligned32 (a constant at each call): the slab's output starts on 32 bytes, and so does
 * every 16 values of it, with no test a store. */
HOT_INLINE void walk_nibble_blocks(const dequant_params *q, const slab *sl, __global const uchar *data,
                                   __global const uchar *scales, __global const uchar *zp,
                                   __global out_bits_t *out_slab, const int stores_aligned32)
{
    __global const uchar *packed = data + (sl->first_value >> 1);
    __global out_bits_t *out_block = out_slab;
    const offset_t bs = q->bs;
    offset_t s = sl->first_scale, u = 0;
    const int zero_point_fixed = q->zp_mode == ZP_CONSTANT || q->zp_mode == ZP_SCALAR;
    const int zero_point_all = zero_point_fixed ? zero_point_at(q, zp, 0) : 0;
    const nibble_values values_all = nibble_values_of(q->value_signed, zero_point_all);
    while (u < q->U) {
        uint8 bits;
        if (q->U - u >= 8 && normal_scales8(q, scales, s, &bits)) {
            const float8 f = as_float8(bits);
            /* a block's value - zero point, as floats (exact: small integers) */
            const float8 z = zero_point_fixed ? (float8)(0.0f) : zero_points8(q, zp, s);
            if (bs == 32) {
#pragma unroll
                for (int j = 0; j < 8; ++j) {
                    const nibble_table t = unit_table(values_all, zero_point_fixed, z[j], f[j]);
                    store_packed_pairs32(&t, vload16(0, packed + 16 * j), out_block + 32 * j, stores_aligned32);
                }
            } else if (bs == 16) {
#pragma unroll
                for (int j = 0; j < 8; j += 2) {
                    const nibble_table first = unit_table(values_all, zero_point_fixed, z[j], f[j]);
                    const nibble_table second = unit_table(values_all, zero_point_fixed, z[j + 1], f[j + 1]);
                    store_packed_pairs32_two(&first, &second, vload16(0, packed + 8 * j), out_block + 16 * j,
                                             stores_aligned32);
                }
            } else {
                for (int j = 0; j < 8; ++j) {
                    const nibble_table t = unit_table(values_all, zero_point_fixed, z[j], f[j]);
                    for (offset_t k = 0; k < bs; k += 32)
                        store_packed_pairs32(&t, vload16(0, packed + (bs / 2) * j + k / 2), out_block + bs * j + k,
                                             stores_aligned32);
                }
            }
            u += 8;
            s += 8;
            packed += 4 * bs;
            out_block += 8 * bs;
            continue;
        }
        dequant_piece_fast(q, data, out_block, sl->first_value + bs * u, 0, bs, scale_at(q, scales, s),
                           zero_point_at(q, zp, s));
        ++u;
        ++s;
        packed += bs / 2;
        out_block += bs;
    }
}

HOT_INLINE void dequant_slab_nibble_blocks(const dequant_params *q, const slab *sl, __global const uchar *data,
                                           __global const uchar *scales, __global const uchar *zp,
                                           __global out_bits_t *out_slab)
{
    if (((ulong)out_slab & 31) == 0)
        walk_nibble_blocks(q, sl, data, scales, zp, out_slab, 1);
    else
        walk_nibble_blocks(q, sl, data, scales, zp, out_slab, 0);
}
#endif

/* A whole slab of the fast form into out_slab (the CPU mapping, where a work-item's run covers whole
 * slabs): ggml blocks with their pointers stepped (dequant_ggml.h), 4-bit blocks of 16 or of a
 * multiple of 32 values by nibble tables, or P lines of nb units along the last axis (QN = 1), their
 * scales decoded eight at a time. */
HOT_INLINE void dequant_slab_fast(const dequant_params *q, const slab *sl, __global const uchar *data,
                                  __global const uchar *scales, __global const uchar *zp, __global out_bits_t *out_slab)
{
    if (GGML_BLOCKS(q)) {
        GGML_UNIT_RUN(q, sl->first_value, q->U, data, out_slab);
        return;
    }
#if USE_NIBBLE_TABLES
    if (q->value_bits == 4 && (q->bs == 16 || q->bs % 32 == 0) && q->nb * q->bs == q->Qd &&
        q->zp_mode != ZP_NIBBLE_ROWS) {
        dequant_slab_nibble_blocks(q, sl, data, scales, zp, out_slab);
        return;
    }
#endif
    offset_t s = sl->first_scale;
    for (offset_t p = 0; p < q->P; ++p) {
        offset_t b = 0;
        for (; q->nb - b >= 8; b += 8, s += 8) {
            uint8 bits;
            const int decoded = normal_scales8(q, scales, s, &bits);
            for (int j = 0; j < 8; ++j)
                dequant_slab_unit(q, sl, data, zp, out_slab, p, b + j, s + j,
                                  decoded ? ((const uint *)&bits)[j] : scale_at(q, scales, s + j));
        }
        for (; b < q->nb; ++b, ++s) dequant_slab_unit(q, sl, data, zp, out_slab, p, b, s, scale_at(q, scales, s));
    }
}

#endif /* CLG_DEQUANT_UNITS_H */
