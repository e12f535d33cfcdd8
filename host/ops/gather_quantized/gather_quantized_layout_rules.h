/* What each layout accepts (ONNX Runtime's GatherBlockQuantized, ggml's rows of 32-value blocks, OpenVINO's
 * compressed embedding) and what it means: the types, bits, axes, block size and the shapes of scales
 * and zero points, resolved into the logical view the plan is built on. docs/semantics.md states the
 * same rules in the same order. */
#ifndef CLG_GATHER_QUANTIZED_LAYOUT_RULES_H
#define CLG_GATHER_QUANTIZED_LAYOUT_RULES_H

#include "ops/gather_quantized/gather_quantized_plan.h"

/* A descriptor as its layout reads it. */
typedef struct clg_quant_view {
    int32_t rank;                        /* of the data */
    int64_t logical_shape[CLG_MAX_RANK]; /* in values: packed u8 and ggml rows unpacked */
    clg_quant_type value_type;
    int value_bits;
    clg_ggml_format ggml;
    int has_scales, has_zero_points;
    clg_dtype scale_type, out_type;
    int32_t gather_axis, quantize_axis; /* normalized */
    uint64_t block_size;
    clg_zero_point_mode zp_mode;
    int32_t zp_constant;
    clg_oob_policy policy; /* resolved */
} clg_quant_view;

/* Element types, bits, the presence of scales and zero points, the output type, the index type and
 * the policy: the checks that need no shape. */
clg_status clg_quant_check_types(const clg_gather_quantized_desc *desc, clg_quant_view *view);

/* Axes, block size, the logical shape, and the shapes of scales and zero points (ranks and extents
 * already checked). */
clg_status clg_quant_resolve_shapes(const clg_gather_quantized_desc *desc, clg_quant_view *view);

/* A layout whose rows hold their own scales (ggml's blocks, FBGEMM's rows), as the table-batched
 * EmbeddingBag reads it: block_values 32 or 256 values a block of block_bytes (ggml), or 0 for FBGEMM,
 * whose row of D values is D * value_bits / 8 bytes and then trailer_bytes of scale and bias. */
typedef struct clg_row_layout {
    clg_ggml_format format;
    uint64_t block_values, block_bytes, trailer_bytes;
    int value_bits;
} clg_row_layout;

/* 1 and *row filled where layout's rows are self-contained, else 0. */
int clg_quant_row_layout(clg_quant_layout layout, clg_row_layout *row);

/* Bytes of one block of a ggml format (0 for CLG_GGML_NONE). */
size_t clg_ggml_block_bytes(clg_ggml_format format);

/* Bytes a quantized tensor of `count` values of `type` occupies (4-bit: two a byte, rounded up). */
uint64_t clg_quant_packed_bytes(clg_quant_type type, uint64_t count);

#endif
