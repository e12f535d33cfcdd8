/* FBGEMM's fused rowwise rows (PyTorch's quantized EmbeddingBag tables) in the dequantizing gather's
 * kernels: a row of D values is one block of the walk (dequant_units.h, bs = D), its scale and bias
 * after its values.
 * Both formats: value = q * scale + bias in f32, not fused: the product rounded to f32, then the sum
 * rounded (the project's binding rule; FBGEMM's vector code and PyTorch fuse, docs/semantics.md 8.8).
 *   8-bit: D bytes of q, an f32 scale, an f32 bias.
 *   4-bit: D / 2 bytes of two nibbles (value 2k the low nibble of byte k), an f16 scale, an f16 bias.
 *          The product of a 4-bit q and an f16 scale is exact in f32; every product and sum is a
 *          multiple of 2^-24, never an f32 subnormal (ggml q4_1's arithmetic).
 * The fields may lie at any byte: they are read a byte at a time. Any scale or bias takes the exact
 * rules of the host reference (fbgemm_value_bits in host/ops/gather_quantized/gather_quantized_reference.c):
 * product_bits then sum_exact. An 8-bit row's f32 fields, products and sums may be f32 subnormals; a
 * subnormal scale takes the per-value integer product, sums are exact where the device keeps
 * subnormals (every CPU runtime; docs/semantics.md says so).
 *
 * The family has a program of its own (the host's -DGGML_FBGEMM=1 puts this header in place of
 * dequant_ggml.h): both formats share it, the format a kernel argument (dequant_params.ggml), the
 * row's D too (dequant_params.bs). Build options: those of dequant.h. */
#ifndef CLG_DEQUANT_FBGEMM_H
#define CLG_DEQUANT_FBGEMM_H

#include "dequant_values.h"

/* The formats, numbered as the host's clg_ggml_format. */
#define GGML_FBGEMM_8BIT 13
#define GGML_FBGEMM_4BIT 14

HOT_INLINE offset_t fbgemm_row_bytes(int format, offset_t D) { return format == GGML_FBGEMM_8BIT ? D + 8 : D / 2 + 4; }

/* Where a row's scale is; the bias follows it. */
HOT_INLINE offset_t fbgemm_fields_at(int format, offset_t D) { return format == GGML_FBGEMM_8BIT ? D : D / 2; }

HOT_INLINE uint fbgemm_u32_at(__global const uchar *at)
{
    return (uint)at[0] | ((uint)at[1] << 8) | ((uint)at[2] << 16) | ((uint)at[3] << 24);
}

/* A 4-bit row's scale and bias as the f16 bits it holds. */
HOT_INLINE void fbgemm_4bit_f16_fields(__global const uchar *row, offset_t D, uint *scale, uint *bias)
{
    __global const uchar *at = row + fbgemm_fields_at(GGML_FBGEMM_4BIT, D);
    *scale = (uint)at[0] | ((uint)at[1] << 8);
    *bias = (uint)at[2] | ((uint)at[3] << 8);
}

/* A row's scale and bias as f32 bits. */
HOT_INLINE void fbgemm_fields(int format, __global const uchar *row, offset_t D, uint *scale, uint *bias)
{
    if (format == GGML_FBGEMM_8BIT) {
        __global const uchar *at = row + fbgemm_fields_at(format, D);
        *scale = fbgemm_u32_at(at);
        *bias = fbgemm_u32_at(at + 4);
    } else {
        fbgemm_4bit_f16_fields(row, D, scale, bias);
        *scale = f16_to_f32_bits(*scale);
        *bias = f16_to_f32_bits(*bias);
    }
}

/* The integer q of value k of a row. */
HOT_INLINE int fbgemm_q(int format, __global const uchar *row, offset_t k)
{
    return format == GGML_FBGEMM_8BIT ? (int)row[k] : (row[k >> 1] >> ((k & 1) * 4)) & 0xF;
}

/* The q of values k .. k + 7 (k even) as floats (exact: small integers). 4-bit: value k + j is nibble j
 * of the little-endian word at byte k / 2, shifted out lane by lane (one variable shift, where a
 * shuffle of nibbles becomes lane-by-lane code on PoCL). */
HOT_INLINE float8 fbgemm_q8(int format, __global const uchar *row, offset_t k)
{
    if (format == GGML_FBGEMM_8BIT) return convert_float8(vload8(0, row + k));
    const uint word = fbgemm_u32_at(row + (k >> 1));
    return convert_float8(as_int8(((uint8)(word) >> (uint8)(0, 4, 8, 12, 16, 20, 24, 28)) & (uint8)(15)));
}

/* Eight values of a plain scale (scale_is_plain) and a finite bias: the product rounded, then the sum
 * (contraction is off, dequant.h: two roundings). */
HOT_INLINE float8 fbgemm_scaled8(float8 q, float scale, float bias) { return q * scale + bias; }

/* Values k .. k + 15 of an 8-bit row, as fbgemm_scaled8 computes eight: lane for lane the same
 * operations, so the same bits. */
HOT_INLINE float16 fbgemm_8bit_values16(__global const uchar *row, offset_t k, float scale, float bias)
{
    return convert_float16(vload16(0, row + k)) * scale + bias;
}

/* q * scale + bias of a 4-bit q and a scale widened from f16: the product is exact in f32, so fused or
 * not the value is rounded once, to the bits fbgemm_scaled8 gives. Fused where the host says the
 * device's f32 fma is its hardware's (-DHARDWARE_FMA=1), else mad (which a compiler may fuse). */
#if HARDWARE_FMA
#define FBGEMM_4BIT_SCALED(q, scale, bias) fma(q, scale, bias)
#else
#define FBGEMM_4BIT_SCALED(q, scale, bias) mad(q, scale, bias)
#endif

/* Values k .. k + 15 (k even) of a 4-bit row with plain fields added to two sums of eight: *even takes the
 * low nibbles of bytes k / 2 .. k / 2 + 7 (values k, k + 2, ..., k + 14), *odd the high ones. */
HOT_INLINE void fbgemm_4bit_add16(__global const uchar *row, offset_t k, float scale, float bias, float8 *even,
                                  float8 *odd)
{
    const int8 bytes = convert_int8(vload8(0, row + (k >> 1)));
    *even += FBGEMM_4BIT_SCALED(convert_float8(bytes & 15), (float8)(scale), (float8)(bias));
    *odd += FBGEMM_4BIT_SCALED(convert_float8(bytes >> 4), (float8)(scale), (float8)(bias));
}

/* The same for values k .. k + 31, in sums of sixteen. */
HOT_INLINE void fbgemm_4bit_add32(__global const uchar *row, offset_t k, float scale, float bias, float16 *even,
                                  float16 *odd)
{
    const int16 bytes = convert_int16(vload16(0, row + (k >> 1)));
    *even += FBGEMM_4BIT_SCALED(convert_float16(bytes & 15), (float16)(scale), (float16)(bias));
    *odd += FBGEMM_4BIT_SCALED(convert_float16(bytes >> 4), (float16)(scale), (float16)(bias));
}

/* f32 bits of one value, any fields, both formats: the host reference's product_bits then sum_bits. */
inline uint fbgemm_value_exact(int q, uint scale, uint bias) { return sum_exact(product_bits(q, scale), bias); }

/* Values k0 .. k0 + count - 1 of the row at `row` (D values) into out[k0 ..]. A plain scale and a
 * finite bias: eight a step (a product or sum that overflows is an infinity, which the plain stores
 * narrow right), the rest one by one. A 4-bit row's f16 scale widens to a normal f32 or zero. */
HOT_INLINE void dequant_fbgemm_piece(int format, __global const uchar *row, offset_t D, __global out_bits_t *out,
                                     offset_t k0, offset_t count)
{
    uint scale, bias;
    fbgemm_fields(format, row, D, &scale, &bias);
    offset_t k = k0;
    const offset_t end = k0 + count;
    const int plain = scale_is_plain(scale) && (bias & 0x7F800000u) != 0x7F800000u;
    if (plain && (format == GGML_FBGEMM_8BIT || (k0 & 1) == 0)) {
        const float s = as_float(scale), b = as_float(bias);
        for (; end - k >= 8; k += 8) store_plain8(fbgemm_scaled8(fbgemm_q8(format, row, k), s, b), out + k);
    }
    for (; k < end; ++k) out[k] = to_output_exact(fbgemm_value_exact(fbgemm_q(format, row, k), scale, bias));
}

/* `count` consecutive rows from row `first` of data into out; a constant format where inlined. */
HOT_INLINE void dequant_fbgemm_rows(int format, offset_t D, offset_t first, offset_t count, __global const uchar *data,
                                    __global out_bits_t *out)
{
    const offset_t row_bytes = fbgemm_row_bytes(format, D);
    __global const uchar *row = data + first * row_bytes;
    for (offset_t u = 0; u < count; ++u, row += row_bytes, out += D) dequant_fbgemm_piece(format, row, D, out, 0, D);
}

HOT_INLINE void dequant_fbgemm_run(int format, offset_t D, offset_t first, offset_t count, __global const uchar *data,
                                   __global out_bits_t *out)
{
    if (format == GGML_FBGEMM_8BIT)
        dequant_fbgemm_rows(GGML_FBGEMM_8BIT, D, first, count, data, out);
    else
        dequant_fbgemm_rows(GGML_FBGEMM_4BIT, D, first, count, data, out);
}

/* The walk's block interface (dequant_piece.h): a block is a row of D = bs values. */
#define GGML_UNIT_VALUES(q)                       ((q)->bs)
#define GGML_FORMAT_UNIT_BYTES(q, format)         fbgemm_row_bytes(format, (q)->bs)
#define GGML_UNIT_BYTES(q)                        GGML_FORMAT_UNIT_BYTES(q, (q)->ggml)
#define GGML_UNIT_PIECE(q, block, out, k0, count) dequant_fbgemm_piece((q)->ggml, block, (q)->bs, out, k0, count)
#define GGML_UNIT_RUN(q, first, count, data, out) dequant_fbgemm_run((q)->ggml, (q)->bs, first, count, data, out)

#endif /* CLG_DEQUANT_FBGEMM_H */
