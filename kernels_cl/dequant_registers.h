/* A unit's values eight at a time as f32 in registers, for kernels that reduce the values instead of
 * storing them (the quantized EmbeddingBag): the unit's fields are decoded once (unit_registers_of),
 * then any eight of its values (unit_values8) by the same operations as the unit code's plain paths
 * (dequant_units.h's dequant_unit_piece), so to the same bits. Where that code would take its exact
 * path (a field that is subnormal, infinite or NaN) or its general form, unit_registers_of says no and
 * the caller goes through dequant_unit_piece and a stage in global memory.
 *
 * Each program's family: FBGEMM's rows (GGML_FBGEMM), ggml's super-blocks (GGML_SUPER), or ggml's
 * 32-value blocks beside the fast form of ONNX Runtime's and OpenVINO's layouts. Build options: those
 * of dequant_units.h. */
#ifndef CLG_DEQUANT_REGISTERS_H
#define CLG_DEQUANT_REGISTERS_H

#include "dequant_units.h"

/* A unit's fields, decoded: where its bytes are, and its scale and offset as floats (ggml: d and m or
 * dmin; FBGEMM: scale and bias; the fast form: scale and zero point). */
typedef struct unit_registers {
    __global const uchar *at; /* the block or row (ggml, FBGEMM); the table's packed values (fast form) */
    offset_t first;           /* the fast form: the unit's first value in the packed values */
    float scale, offset;
    int zero_point;
#if GGML_SUPER
    float8 sub_scales, sub_mins; /* q4_K: its eight sub-blocks' scales and minimums, decoded together */
#endif
} unit_registers;

/* The formats each program's callers may pass as constants (REGISTER_FORMAT_FIRST, _SECOND), so that
 * their loops carry no branch on the format: FBGEMM's two, q4_K and q6_K (a Q4_K_M file's), q8_0 and
 * q4_0 (what most ggml tables ship). */
#if GGML_FBGEMM
#define REGISTER_FORMAT_FIRST  GGML_FBGEMM_8BIT
#define REGISTER_FORMAT_SECOND GGML_FBGEMM_4BIT
#elif GGML_SUPER
#define REGISTER_FORMAT_FIRST  GGML_Q4_K
#define REGISTER_FORMAT_SECOND GGML_Q6_K
#else
#define REGISTER_FORMAT_FIRST  GGML_Q8_0
#define REGISTER_FORMAT_SECOND GGML_Q4_0
#endif

/* The fields of the block or row at `at` (format a block format: ggml's, FBGEMM's) into *r; 1 where
 * unit_values8 gives its values, 0 where the caller must take dequant_unit_piece. */
HOT_INLINE int block_registers_at(const dequant_params *q, const int format, __global const uchar *at,
                                  unit_registers *r)
{
    r->at = at;
    uint scale, offset;
#if GGML_FBGEMM
    if (format == GGML_FBGEMM_4BIT) { /* f16 fields: a finite one widens to a normal f32 or zero */
        uint s16, b16;
        fbgemm_4bit_f16_fields(at, q->bs, &s16, &b16);
        r->scale = f16_finite_to_float(s16);
        r->offset = f16_finite_to_float(b16);
        return (s16 & 0x7C00u) != 0x7C00u && (b16 & 0x7C00u) != 0x7C00u;
    }
    fbgemm_fields(format, at, q->bs, &scale, &offset);
    const int plain = scale_is_plain(scale) && (offset & 0x7F800000u) != 0x7F800000u;
#elif GGML_SUPER
    (void)q;
    const uint d_at = ggml_k_d_at(format);
    scale = ggml_k_f16_at(at + d_at);
    offset = ggml_k_has_min(format) ? ggml_k_f16_at(at + d_at + 2u) : 0u;
    const int plain = (scale & 0x7F800000u) != 0x7F800000u && (offset & 0x7F800000u) != 0x7F800000u;
    if (format == GGML_Q4_K && plain)
        q4_k_scales_mins(at, as_float(scale), as_float(offset), &r->sub_scales, &r->sub_mins);
#else
    (void)q;
    scale = ggml_f16_at(at);
    offset = ggml_has_min(format) ? ggml_f16_at(at + 2) : 0u;
    const int plain = ggml_fields_plain(format, scale, offset);
#endif
    r->scale = as_float(scale);
    r->offset = as_float(offset);
    return plain;
}

/* Unit u = (p, b) of slab sl into *r; 1 where unit_values8 gives its values, 0 where the caller must
 * take dequant_unit_piece. `format` is q->ggml (0 for the layouts that are not ggml's), a constant
 * where the caller knows it. */
HOT_INLINE int unit_registers_of(const dequant_params *q, const int format, const slab *sl, __global const uchar *data,
                                 __global const uchar *scales, __global const uchar *zp, offset_t u, offset_t p,
                                 offset_t b, unit_registers *r)
{
    if (format != 0) /* ggml's blocks, FBGEMM's rows */
        return block_registers_at(q, format, data + (sl->first_value + u) * GGML_FORMAT_UNIT_BYTES(q, format), r);
#if GGML_FBGEMM || GGML_SUPER
    return 0; /* these programs read only their blocks */
#else
    if (!q->fast) return 0;
    r->at = data;
    r->first = sl->first_value + unit_start(q, p, b);
    const offset_t s = q->placement == PLACEMENT_IN_SLAB ? sl->first_scale + u * q->QN : sl->first_scale;
    const uint scale = scale_at(q, scales, s);
    r->scale = as_float(scale);
    r->zero_point = zero_point_of_unit(q, zp, s, sl->slab_row, p, b);
    return scale_is_plain(scale);
#endif
}

/* Values k .. k + 7 of the unit (k a multiple of 8, k + 8 at most its values). */
HOT_INLINE float8 unit_values8(const dequant_params *q, const int format, const unit_registers *r, offset_t k)
{
#if GGML_FBGEMM
    return fbgemm_scaled8(fbgemm_q8(format, r->at, k), r->scale, r->offset);
#elif GGML_SUPER
    const int g = (int)(k / 8);
    if (format == GGML_Q4_K) { /* the same products as below: d * scale and dmin * min rounded, once */
        const float8 values = convert_float8(ggml_k_values8(format, r->at, g));
        return values * ((const float *)&r->sub_scales)[g >> 2] - ((const float *)&r->sub_mins)[g >> 2];
    }
    const int2 scale_min = ggml_k_scale_min(format, r->at, g);
    const float8 product = convert_float8(ggml_k_values8(format, r->at, g)) * (r->scale * (float)scale_min.x);
    return ggml_k_has_min(format) ? product - r->offset * (float)scale_min.y : product;
#else
    if (format != 0) return ggml_scaled8(format, ggml_values8(format, r->at, (int)(k / 8)), r->scale, r->offset);
    return convert_float8(load_values8(q, r->at, r->first + k) - r->zero_point) * r->scale;
#endif
}

#endif /* CLG_DEQUANT_REGISTERS_H */
