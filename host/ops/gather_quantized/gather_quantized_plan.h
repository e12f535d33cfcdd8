/* Validation and normalization of a dequantizing-gather descriptor into one plan that every layout
 * shares, which is all the reference, the kernels and the messages read:
 *
 *   out[m, n, i] = round_out(f32(value(e) - zero_point(s)) * scale(s)),  e = (m*A + row(n))*I + i
 *
 * over the logical data (one value an element, whatever the packing): M outer slabs, A the gathered
 * axis, N indices, I values a slab. The values' scale and zero point index s follows from e by the
 * quantize axis: e = (x*Qd + y)*QN + z, s = (x*nb + y/bs)*QN + z (nb = ceil(Qd / bs)). ggml rows are
 * the same with Qd = K, QN = 1, bs = 32 (256 for the super-blocks), their scales held inside the
 * blocks. */
#ifndef CLG_GATHER_QUANTIZED_PLAN_H
#define CLG_GATHER_QUANTIZED_PLAN_H

#include "clgather.h"
#include "core/index_check.h"

/* Where a value's zero point comes from. */
typedef enum clg_zero_point_mode {
    CLG_ZP_CONSTANT = 0, /* no zero_points tensor: zp_constant for every value */
    CLG_ZP_NIBBLES,      /* 4-bit, nibble s of a tensor packed like u4 data (two a byte over the whole tensor) */
    CLG_ZP_NIBBLE_ROWS, /* 4-bit, two a byte along rows of nb scales, each row padded to whole bytes (ORT u8, bits 4) */
    CLG_ZP_BYTES,       /* 8-bit, byte s */
    CLG_ZP_SCALAR,      /* one value for the whole table, element 0 (OpenVINO) */
    CLG_ZP_2BIT_ROWS, /* 2-bit, four a byte along rows of nb scales, lowest bits first, rows padded (ORT u8, bits 2) */
} clg_zero_point_mode;

/* Where the scales of one gathered slab lie, by the order of the quantize and gather axes: the kernels
 * find a slab's first scale from (m, row) with it, once a slab. */
typedef enum clg_scale_placement {
    CLG_SCALES_IN_SLAB = 0, /* quantize axis after the gather axis: a slab's scales are contiguous, P*nb*QN of them */
    CLG_SCALES_BEFORE,      /* quantize axis before it: one scale a value, the slab's I scales contiguous */
    CLG_SCALES_ALONG,       /* quantize axis is the gather axis: one scale a value, scale row row/bs */
} clg_scale_placement;

/* ggml block formats (0: none, the values are packed as value_type): blocks of 32 values up to
 * iq4_nl, then the super-blocks of 256 (QK_K); the kernels number them the same
 * (kernels_cl/dequant_ggml.h, kernels_cl/dequant_ggml_k.h). */
typedef enum clg_ggml_format {
    CLG_GGML_NONE = 0,
    CLG_GGML_Q4_0,
    CLG_GGML_Q8_0,
    CLG_GGML_Q4_1,
    CLG_GGML_Q5_0,
    CLG_GGML_Q5_1,
    CLG_GGML_IQ4_NL,
    CLG_GGML_Q2_K,
    CLG_GGML_Q3_K,
    CLG_GGML_Q4_K,
    CLG_GGML_Q5_K,
    CLG_GGML_Q6_K,
    CLG_GGML_IQ4_XS,
    /* FBGEMM's fused rowwise rows: a row is one block of D values (bs = D), its scale and bias after its
     * values; their kernels are a program of their own (kernels_cl/dequant_fbgemm.h) */
    CLG_GGML_FBGEMM_8BIT,
    CLG_GGML_FBGEMM_4BIT,
} clg_ggml_format;

#define CLG_GGML_BLOCK_VALUES       32
#define CLG_GGML_SUPER_BLOCK_VALUES 256

/* Whether a format is one of the 256-value super-blocks, which have a program of their own. */
static inline int clg_ggml_is_super(clg_ggml_format f) { return f >= CLG_GGML_Q2_K && f <= CLG_GGML_IQ4_XS; }

/* Whether a format is one of FBGEMM's rows, whose block is a whole row of the table's D values. */
static inline int clg_ggml_is_fbgemm(clg_ggml_format f)
{
    return f == CLG_GGML_FBGEMM_8BIT || f == CLG_GGML_FBGEMM_4BIT;
}

typedef struct clg_gather_quantized_plan {
    clg_quant_layout layout;
    clg_quant_type value_type; /* of one value after unpacking: u8 data with bits 4 holds u4 values, with bits 2
                                  u8 (unsigned) of value_bits 2 */
    int value_bits;            /* 2, 4 or 8 */
    clg_ggml_format ggml;
    size_t ggml_block_bytes;    /* 18 to 210; FBGEMM: the row's bytes */
    uint64_t ggml_block_values; /* 32, or 256 for the super-blocks; FBGEMM: the row's D */
    clg_dtype scale_type, out_type, index_type;
    size_t scale_size, out_size, index_size;
    clg_oob_policy policy;              /* resolved: ERROR, ZERO or CLAMP */
    int32_t gather_axis, quantize_axis; /* normalized, over the logical data */

    /* the gather: M slabs of I values before each of A rows, N indices */
    uint64_t M, A, N, I;
    /* the quantization: the logical data as [X, Qd, QN], a scale per bs values along Qd */
    uint64_t Qd, QN, bs, nb;
    /* a slab by units (the kernels' work): U = P*nb units, unit (p, b) holds values
     * [(p*Qd + b*bs)*QN, (p*Qd + min(Qd, (b+1)*bs))*QN) of the slab, scales u*QN .. u*QN + QN - 1 */
    clg_scale_placement placement;
    uint64_t P, U;
    uint64_t W; /* CLG_SCALES_BEFORE: prod(shape[q+1:g]), so that m = (x*Qd + y)*W + w */

    clg_zero_point_mode zp_mode;
    int32_t zp_constant;   /* CLG_ZP_CONSTANT */
    uint64_t zp_row_bytes; /* CLG_ZP_NIBBLE_ROWS: ceil(nb / 2); CLG_ZP_2BIT_ROWS: ceil(nb / 4) */

    clg_index_bound bound; /* the indices against A, for the error policy */
    int32_t out_rank;
    int64_t out_shape[CLG_MAX_OUTPUT_RANK];
    uint64_t data_values, index_elems, scale_elems, out_elems;
    uint64_t data_bytes, index_bytes, scale_bytes, zp_bytes, out_bytes;
} clg_gather_quantized_plan;

/* Validate desc and fill plan. On failure the thread's message names the argument and value. */
clg_status clg_gather_quantized_plan_make(const clg_gather_quantized_desc *desc, clg_gather_quantized_plan *plan);

#endif
