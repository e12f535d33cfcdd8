#include "ops/gather_quantized/gather_quantized_layout_rules.h"

#include "core/index_value.h"
#include "core/status.h"

#include <inttypes.h>
#include <string.h>

#define ORT_DEFAULT_BLOCK_SIZE 128
#define ORT_MIN_BLOCK_SIZE     16

/* ggml's blocks (ggml-common.h): the format, the block's bytes and values, and the bits of a value. */
typedef struct ggml_block_kind {
    clg_quant_layout layout;
    clg_ggml_format format;
    int block_bytes, block_values, value_bits;
} ggml_block_kind;

static const ggml_block_kind ggml_kinds[] = {
    {CLG_QUANT_GGML_Q4_0, CLG_GGML_Q4_0, 18, 32, 4},     /* f16 d, 16 bytes of nibbles */
    {CLG_QUANT_GGML_Q8_0, CLG_GGML_Q8_0, 34, 32, 8},     /* f16 d, 32 int8 */
    {CLG_QUANT_GGML_Q4_1, CLG_GGML_Q4_1, 20, 32, 4},     /* f16 d, f16 m, 16 bytes of nibbles */
    {CLG_QUANT_GGML_Q5_0, CLG_GGML_Q5_0, 22, 32, 5},     /* f16 d, 4 bytes of fifth bits, 16 of nibbles */
    {CLG_QUANT_GGML_Q5_1, CLG_GGML_Q5_1, 24, 32, 5},     /* f16 d, f16 m, fifth bits, nibbles */
    {CLG_QUANT_GGML_IQ4_NL, CLG_GGML_IQ4_NL, 18, 32, 4}, /* f16 d, 16 bytes of table indices */
    /* super-blocks of 256 values (QK_K) */
    {CLG_QUANT_GGML_Q2_K, CLG_GGML_Q2_K, 84, 256, 2},  /* 16 scale/min bytes, 64 of 2-bit q, f16 d, dmin */
    {CLG_QUANT_GGML_Q3_K, CLG_GGML_Q3_K, 110, 256, 3}, /* 32 of high bits, 64 of 2-bit q, 12 of scales, d */
    {CLG_QUANT_GGML_Q4_K, CLG_GGML_Q4_K, 144, 256, 4}, /* d, dmin, 12 of scales and mins, 128 of nibbles */
    {CLG_QUANT_GGML_Q5_K, CLG_GGML_Q5_K, 176, 256, 5}, /* q4_K's, 32 bytes of fifth bits before the nibbles */
    {CLG_QUANT_GGML_Q6_K, CLG_GGML_Q6_K, 210, 256, 6}, /* 128 of low nibbles, 64 of high pairs, 16 int8 scales, d */
    /* iq4_xs: d, 16 bits of high scale pairs, 4 bytes of low scale nibbles, 128 of nibbles */
    {CLG_QUANT_GGML_IQ4_XS, CLG_GGML_IQ4_XS, 136, 256, 4},
};

static const ggml_block_kind *ggml_kind(clg_quant_layout l)
{
    for (size_t k = 0; k < sizeof ggml_kinds / sizeof ggml_kinds[0]; ++k)
        if (ggml_kinds[k].layout == l) return &ggml_kinds[k];
    return NULL;
}

/* FBGEMM's fused rowwise rows: the format, the bytes of a row's scale and bias, the bits of a value. */
typedef struct fbgemm_row_kind {
    clg_quant_layout layout;
    clg_ggml_format format;
    int trailer_bytes, value_bits;
} fbgemm_row_kind;

static const fbgemm_row_kind fbgemm_kinds[] = {
    {CLG_QUANT_FBGEMM_8BIT_ROWWISE, CLG_GGML_FBGEMM_8BIT, 8, 8}, /* D bytes of q, f32 scale, f32 bias */
    {CLG_QUANT_FBGEMM_4BIT_ROWWISE, CLG_GGML_FBGEMM_4BIT, 4, 4}, /* D / 2 bytes of nibbles, f16 scale, f16 bias */
};

static const fbgemm_row_kind *fbgemm_kind(clg_quant_layout l)
{
    for (size_t k = 0; k < sizeof fbgemm_kinds / sizeof fbgemm_kinds[0]; ++k)
        if (fbgemm_kinds[k].layout == l) return &fbgemm_kinds[k];
    return NULL;
}

/* Rows of blocks that hold their own scales: ggml's and FBGEMM's. */
static int is_ggml(clg_quant_layout l) { return ggml_kind(l) != NULL || fbgemm_kind(l) != NULL; }

int clg_quant_row_layout(clg_quant_layout layout, clg_row_layout *row)
{
    const ggml_block_kind *block = ggml_kind(layout);
    const fbgemm_row_kind *fbgemm = fbgemm_kind(layout);
    if (block)
        *row = (clg_row_layout){block->format, (uint64_t)block->block_values, (uint64_t)block->block_bytes, 0,
                                block->value_bits};
    else if (fbgemm)
        *row = (clg_row_layout){fbgemm->format, 0, 0, (uint64_t)fbgemm->trailer_bytes, fbgemm->value_bits};
    return block || fbgemm;
}

size_t clg_ggml_block_bytes(clg_ggml_format format)
{
    for (size_t k = 0; k < sizeof ggml_kinds / sizeof ggml_kinds[0]; ++k)
        if (ggml_kinds[k].format == format) return (size_t)ggml_kinds[k].block_bytes;
    return 0;
}

static int quant_bits(clg_quant_type t) { return t == CLG_QUANT_U4 || t == CLG_QUANT_I4 ? 4 : 8; }

static int is_float_output(clg_dtype t) { return t == CLG_F32 || t == CLG_F16 || t == CLG_BF16; }

uint64_t clg_quant_packed_bytes(clg_quant_type type, uint64_t count)
{
    return quant_bits(type) == 4 ? count / 2 + (count & 1) : count;
}

static clg_status check_data_type(const clg_gather_quantized_desc *desc)
{
    const clg_quant_type t = desc->data.type;
    const char *name = clg_quant_layout_name(desc->layout);
    if ((int)t <= 0 || (int)t >= (int)CLG_QUANT_TYPE_COUNT)
        return clg_fail(CLG_ERR_INVALID_DTYPE, "data type = %d is not a clg_quant_type", (int)t);
    int ok = 0;
    switch (desc->layout) {
    case CLG_QUANT_ORT_BLOCK: ok = t == CLG_QUANT_U4 || t == CLG_QUANT_I4 || t == CLG_QUANT_U8; break;
    case CLG_QUANT_OV_COMPRESSED: ok = 1; break;
    default: ok = t == CLG_QUANT_U8; break; /* ggml rows of blocks */
    }
    if (!ok)
        return clg_fail(CLG_ERR_INVALID_DTYPE, "data type %s: layout %s takes %s", clg_quant_type_name(t), name,
                        desc->layout == CLG_QUANT_ORT_BLOCK ? "u4, i4 and u8"
                        : fbgemm_kind(desc->layout)         ? "u8 rows"
                                                            : "u8 rows of blocks");
    return CLG_SUCCESS;
}

/* bits, and what one value is once unpacked. */
static clg_status check_bits(const clg_gather_quantized_desc *desc, clg_quant_view *v)
{
    const clg_quant_type t = desc->data.type;
    const int32_t bits = desc->bits;
    if (desc->layout == CLG_QUANT_ORT_BLOCK && t == CLG_QUANT_U8) {
        if (bits != 0 && bits != 2 && bits != 4 && bits != 8)
            return clg_fail(CLG_ERR_INVALID_BITS, "bits = %d: u8 data takes bits 2, 4 or 8 (0: 4)", (int)bits);
        v->value_bits = bits == 0 ? 4 : bits;
        /* 2-bit values have no clg_quant_type of their own: unsigned, value_bits says the width */
        v->value_type = v->value_bits == 4 ? CLG_QUANT_U4 : CLG_QUANT_U8;
        return CLG_SUCCESS;
    }
    const ggml_block_kind *kind = ggml_kind(desc->layout);
    if (kind) {
        const int width = kind->value_bits;
        if (bits != 0 && bits != width)
            return clg_fail(CLG_ERR_INVALID_BITS, "bits = %d: %s values have %d bits", (int)bits,
                            clg_quant_layout_name(desc->layout), width);
        v->value_bits = width;
        /* what the plan's unpacked values would be; the kernels and the reference read ggml blocks
         * by their format only */
        v->value_type = width == 8 ? CLG_QUANT_I8 : CLG_QUANT_U4;
        v->ggml = kind->format;
        return CLG_SUCCESS;
    }
    const fbgemm_row_kind *row_kind = fbgemm_kind(desc->layout);
    if (row_kind) {
        if (bits != 0 && bits != row_kind->value_bits)
            return clg_fail(CLG_ERR_INVALID_BITS, "bits = %d: %s values have %d bits", (int)bits,
                            clg_quant_layout_name(desc->layout), row_kind->value_bits);
        v->value_bits = row_kind->value_bits;
        v->value_type = row_kind->value_bits == 8 ? CLG_QUANT_U8 : CLG_QUANT_U4;
        v->ggml = row_kind->format;
        return CLG_SUCCESS;
    }
    const int width = quant_bits(t);
    if (bits != 0 && bits != width)
        return clg_fail(CLG_ERR_INVALID_BITS, "bits = %d: %s data has %d bits", (int)bits, clg_quant_type_name(t),
                        width);
    v->value_bits = width;
    v->value_type = t;
    return CLG_SUCCESS;
}

static int tensor_is_empty(const clg_tensor_desc *t)
{
    if (t->type != CLG_DTYPE_INVALID || t->rank != 0) return 0;
    return 1;
}

static clg_status check_scales_and_zero_points(const clg_gather_quantized_desc *desc, clg_quant_view *v)
{
    const char *name = clg_quant_layout_name(desc->layout);
    if (is_ggml(desc->layout)) {
        if (!tensor_is_empty(&desc->scales))
            return clg_fail(CLG_ERR_INPUT_NOT_ALLOWED,
                            "scales (type %s, rank %d) given: %s rows hold their own scales; leave scales empty",
                            clg_dtype_name(desc->scales.type), (int)desc->scales.rank, name);
        if (desc->zero_points.type != CLG_QUANT_TYPE_INVALID)
            return clg_fail(CLG_ERR_INPUT_NOT_ALLOWED, "zero_points (type %s) given: %s has no zero points",
                            clg_quant_type_name(desc->zero_points.type), name);
        v->scale_type = CLG_F16;
        return CLG_SUCCESS;
    }
    const clg_dtype s = desc->scales.type;
    if (s != CLG_F32 && s != CLG_F16 && s != CLG_BF16)
        return clg_fail(CLG_ERR_INVALID_DTYPE, "scales type %s: layout %s takes f32, f16 or bf16 scales",
                        clg_dtype_name(s), name);
    v->has_scales = 1;
    v->scale_type = s;
    const clg_quant_type z = desc->zero_points.type;
    if (z != CLG_QUANT_TYPE_INVALID) {
        if ((int)z < 0 || (int)z >= (int)CLG_QUANT_TYPE_COUNT)
            return clg_fail(CLG_ERR_INVALID_DTYPE, "zero_points type = %d is not a clg_quant_type", (int)z);
        if (z != desc->data.type)
            return clg_fail(CLG_ERR_TYPE_MISMATCH, "zero_points type %s differs from data type %s",
                            clg_quant_type_name(z), clg_quant_type_name(desc->data.type));
        v->has_zero_points = 1;
    }
    return CLG_SUCCESS;
}

clg_status clg_quant_check_types(const clg_gather_quantized_desc *desc, clg_quant_view *v)
{
    memset(v, 0, sizeof *v);
    if ((int)desc->layout <= 0 || (int)desc->layout >= (int)CLG_QUANT_LAYOUT_COUNT)
        return clg_fail(CLG_ERR_INVALID_LAYOUT, "layout = %d is not a clg_quant_layout", (int)desc->layout);
    clg_status st = check_data_type(desc);
    if (st == CLG_SUCCESS) st = check_bits(desc, v);
    if (st == CLG_SUCCESS) st = check_scales_and_zero_points(desc, v);
    if (st != CLG_SUCCESS) return st;
    const clg_dtype out = desc->output_type;
    if (out != CLG_DTYPE_INVALID && !is_float_output(out))
        return clg_fail(CLG_ERR_INVALID_DTYPE, "output_type %s: the output is f32, f16 or bf16 (0: %s)",
                        clg_dtype_name(out), is_ggml(desc->layout) ? "f32" : "the scales' type");
    v->out_type = out != CLG_DTYPE_INVALID ? out : is_ggml(desc->layout) ? CLG_F32 : v->scale_type;
    const clg_dtype it = desc->indices.type;
    if (!clg_dtype_is_integer(it))
        return clg_fail(CLG_ERR_INVALID_INDEX_TYPE, "indices type %s is not an integer type", clg_dtype_name(it));
    if (desc->layout != CLG_QUANT_OV_COMPRESSED && it != CLG_I32 && it != CLG_I64)
        return clg_fail(CLG_ERR_INVALID_INDEX_TYPE, "indices type %s: layout %s accepts i32 and i64 only",
                        clg_dtype_name(it), clg_quant_layout_name(desc->layout));
    if ((int)desc->oob_policy < 0 || (int)desc->oob_policy >= (int)CLG_OOB_COUNT)
        return clg_fail(CLG_ERR_INVALID_POLICY, "oob_policy = %d is not a clg_oob_policy", (int)desc->oob_policy);
    v->policy = desc->oob_policy != CLG_OOB_PRESET        ? desc->oob_policy
                : desc->layout == CLG_QUANT_OV_COMPRESSED ? CLG_OOB_ZERO
                                                          : CLG_OOB_ERROR;
    return CLG_SUCCESS;
}

/* ---- shapes ------------------------------------------------------------------------------------ */

static clg_status normalize_axis(int64_t axis, int32_t rank, const char *name, int32_t *out)
{
    if (axis < -(int64_t)rank || axis > (int64_t)rank - 1)
        return clg_fail(CLG_ERR_INVALID_AXIS, "%s = %" PRId64 " is outside [%d, %d] for data rank %d", name, axis,
                        -(int)rank, (int)rank - 1, (int)rank);
    *out = (int32_t)(axis < 0 ? axis + rank : axis);
    return CLG_SUCCESS;
}

/* The logical data: u8 with bits 4 (2) holds two (four) values a byte along the last axis; ggml rows K
 * values. */
static clg_status logical_shape(const clg_gather_quantized_desc *desc, clg_quant_view *v)
{
    const int32_t r = desc->data.rank;
    v->rank = r;
    memcpy(v->logical_shape, desc->data.shape, sizeof v->logical_shape);
    int64_t *last = &v->logical_shape[r - 1];
    const fbgemm_row_kind *row_kind = fbgemm_kind(desc->layout);
    if (row_kind) { /* the row is one block: its values, then the scale and bias */
        const int64_t trailer = row_kind->trailer_bytes;
        if (*last <= trailer)
            return clg_fail(CLG_ERR_INVALID_BLOCK_SIZE,
                            "data.shape[%d] = %" PRId64 " bytes cannot be a %s row: it needs at least %" PRId64
                            " (the %s scale and bias, then one value)",
                            (int)r - 1, *last, clg_quant_layout_name(desc->layout), trailer + 1,
                            trailer == 8 ? "f32" : "f16");
        const int64_t value_bytes = *last - trailer;
        if (row_kind->value_bits == 4 && value_bytes > INT64_MAX / 2)
            return clg_fail(CLG_ERR_SIZE_OVERFLOW, "data.shape[%d] = %" PRId64 " bytes hold more than INT64_MAX values",
                            (int)r - 1, *last);
        v->block_size = (uint64_t)(row_kind->value_bits == 4 ? 2 * value_bytes : value_bytes);
        *last = (int64_t)v->block_size;
    } else if (v->ggml) {
        const ggml_block_kind *kind = ggml_kind(desc->layout);
        const int64_t block_bytes = kind->block_bytes, block_values = kind->block_values;
        if (*last % block_bytes != 0)
            return clg_fail(CLG_ERR_INVALID_BLOCK_SIZE,
                            "data.shape[%d] = %" PRId64 " bytes is not a whole number of %" PRId64
                            "-byte %s blocks (%" PRId64 " values each)",
                            (int)r - 1, *last, block_bytes, clg_quant_layout_name(desc->layout), block_values);
        const int64_t blocks = *last / block_bytes;
        if (blocks > INT64_MAX / block_values)
            return clg_fail(CLG_ERR_SIZE_OVERFLOW, "data.shape[%d] = %" PRId64 " bytes hold more than INT64_MAX values",
                            (int)r - 1, *last);
        *last = blocks * block_values;
    } else if (desc->data.type == CLG_QUANT_U8 && v->value_bits < 8) {
        const int64_t per_byte = 8 / v->value_bits;
        if (*last > INT64_MAX / per_byte)
            return clg_fail(CLG_ERR_SIZE_OVERFLOW, "data.shape[%d] = %" PRId64 " bytes hold more than INT64_MAX values",
                            (int)r - 1, *last);
        *last *= per_byte;
    }
    return CLG_SUCCESS;
}

static uint64_t blocks_of(uint64_t values, uint64_t block) { return values / block + (values % block != 0); }

static clg_status shape_mismatch(const char *tensor, int32_t d, int64_t got, uint64_t want, const char *why)
{
    return clg_fail(CLG_ERR_SHAPE_MISMATCH, "%s.shape[%d] = %" PRId64 " but %" PRIu64 " expected (%s)", tensor, (int)d,
                    got, want, why);
}

/* ONNX Runtime: axes, block size, scales with ceil(values / block_size) along quantize_axis. */
static clg_status resolve_ort(const clg_gather_quantized_desc *desc, clg_quant_view *v)
{
    const int32_t r = v->rank;
    clg_status st = normalize_axis(desc->quantize_axis, r, "quantize_axis", &v->quantize_axis);
    if (st != CLG_SUCCESS) return st;
    if (desc->data.type == CLG_QUANT_U8 && (v->gather_axis != 0 || v->quantize_axis != r - 1 || r < 2))
        return clg_fail(
            CLG_ERR_INVALID_AXIS,
            "u8 data needs gather_axis 0 and quantize_axis the last axis %d, distinct (gather_axis = %" PRId64
            ", quantize_axis = %" PRId64 ", data rank %d)",
            (int)r - 1, desc->gather_axis, desc->quantize_axis, (int)r);
    const int64_t bs = desc->block_size ? desc->block_size : ORT_DEFAULT_BLOCK_SIZE;
    if (bs < ORT_MIN_BLOCK_SIZE || (bs & (bs - 1)) != 0)
        return clg_fail(CLG_ERR_INVALID_BLOCK_SIZE, "block_size = %" PRId64 " is not a power of two >= 16",
                        desc->block_size);
    v->block_size = (uint64_t)bs;
    if (desc->scales.rank != r)
        return clg_fail(CLG_ERR_SHAPE_MISMATCH, "scales rank %d differs from data rank %d", (int)desc->scales.rank,
                        (int)r);
    for (int32_t d = 0; d < r; ++d) {
        const uint64_t want = d == v->quantize_axis ? blocks_of((uint64_t)v->logical_shape[d], v->block_size)
                                                    : (uint64_t)desc->data.shape[d];
        if ((uint64_t)desc->scales.shape[d] != want)
            return shape_mismatch("scales", d, desc->scales.shape[d], want,
                                  d == v->quantize_axis ? "ceil(values along quantize_axis / block_size)"
                                                        : "data's extent");
    }
    if (!v->has_zero_points) {
        v->zp_mode = CLG_ZP_CONSTANT;
        v->zp_constant = desc->data.type == CLG_QUANT_U8 ? 1 << (v->value_bits - 1) : 0;
        return CLG_SUCCESS;
    }
    if (desc->zero_points.rank != r)
        return clg_fail(CLG_ERR_SHAPE_MISMATCH, "zero_points rank %d differs from scales rank %d",
                        (int)desc->zero_points.rank, (int)r);
    const int packed_rows = desc->data.type == CLG_QUANT_U8 && v->value_bits < 8;
    const uint64_t per_byte = (uint64_t)(8 / v->value_bits);
    for (int32_t d = 0; d < r; ++d) {
        const uint64_t s = (uint64_t)desc->scales.shape[d];
        const uint64_t want = packed_rows && d == r - 1 ? blocks_of(s, per_byte) : s;
        if ((uint64_t)desc->zero_points.shape[d] != want)
            return shape_mismatch("zero_points", d, desc->zero_points.shape[d], want,
                                  !packed_rows || d != r - 1 ? "scales' extent"
                                  : per_byte == 2            ? "two 4-bit zero points a byte: ceil(scales / 2)"
                                                             : "four 2-bit zero points a byte: ceil(scales / 4)");
    }
    if (v->value_bits == 2) { /* rows of four a byte, padded or not: one arrangement, one build */
        v->zp_mode = CLG_ZP_2BIT_ROWS;
        return CLG_SUCCESS;
    }
    /* Rows of an even count of zero points have no padding nibble: they are the flat nibbles of the
     * 4-bit types, zero point s at nibble s, which every kernel path takes the fast way (the slab
     * walk of kernels_cl/dequant_units.h included). */
    const int padded_rows = packed_rows && desc->scales.shape[r - 1] % 2 != 0;
    v->zp_mode = padded_rows ? CLG_ZP_NIBBLE_ROWS : v->value_bits == 4 ? CLG_ZP_NIBBLES : CLG_ZP_BYTES;
    return CLG_SUCCESS;
}

/* OpenVINO: a scale per K / G values of the last axis; zero points like scales, or one. */
static clg_status resolve_ov(const clg_gather_quantized_desc *desc, clg_quant_view *v)
{
    const int32_t r = v->rank;
    v->quantize_axis = r - 1;
    if (desc->scales.rank != r)
        return clg_fail(CLG_ERR_SHAPE_MISMATCH, "scales rank %d differs from data rank %d", (int)desc->scales.rank,
                        (int)r);
    for (int32_t d = 0; d < r - 1; ++d)
        if (desc->scales.shape[d] != desc->data.shape[d])
            return shape_mismatch("scales", d, desc->scales.shape[d], (uint64_t)desc->data.shape[d], "data's extent");
    const uint64_t K = (uint64_t)v->logical_shape[r - 1], G = (uint64_t)desc->scales.shape[r - 1];
    if (K == 0 ? G != 0 : (G == 0 || K % G != 0))
        return clg_fail(CLG_ERR_SHAPE_MISMATCH,
                        "scales.shape[%d] = %" PRIu64 " does not divide data.shape[%d] = %" PRIu64
                        " (a scale per row or per group of equal size)",
                        (int)r - 1, G, (int)r - 1, K);
    const uint64_t group = K ? K / G : 1;
    if (desc->block_size != 0 && (uint64_t)desc->block_size != group)
        return clg_fail(CLG_ERR_INVALID_BLOCK_SIZE,
                        "block_size = %" PRId64 " but scales give %" PRIu64 " values a scale (0: take it from them)",
                        desc->block_size, group);
    v->block_size = group;
    if (!v->has_zero_points) {
        v->zp_mode = CLG_ZP_CONSTANT;
        v->zp_constant = 0;
        return CLG_SUCCESS;
    }
    const clg_quant_tensor_desc *z = &desc->zero_points;
    int one = 1, same = z->rank == r;
    for (int32_t d = 0; d < z->rank; ++d) one &= z->shape[d] == 1;
    for (int32_t d = 0; same && d < r; ++d) same = z->shape[d] == desc->scales.shape[d];
    if (!same && !one)
        return clg_fail(CLG_ERR_SHAPE_MISMATCH,
                        "zero_points (rank %d) must have the scales' shape or hold one value for the whole table",
                        (int)z->rank);
    v->zp_mode = !same ? CLG_ZP_SCALAR : v->value_bits == 4 ? CLG_ZP_NIBBLES : CLG_ZP_BYTES;
    return CLG_SUCCESS;
}

clg_status clg_quant_resolve_shapes(const clg_gather_quantized_desc *desc, clg_quant_view *v)
{
    clg_status st = logical_shape(desc, v);
    if (st == CLG_SUCCESS) st = normalize_axis(desc->gather_axis, v->rank, "gather_axis", &v->gather_axis);
    if (st != CLG_SUCCESS) return st;
    if (v->ggml) {
        if (v->gather_axis == v->rank - 1)
            return clg_fail(CLG_ERR_INVALID_AXIS,
                            "gather_axis = %" PRId64 " is the last axis, the bytes of a %s row; gather along [%d, %d]",
                            desc->gather_axis, clg_quant_layout_name(desc->layout), -(int)v->rank, (int)v->rank - 2);
        /* FBGEMM: the row's D, logical_shape's */
        const int64_t block_values =
            fbgemm_kind(desc->layout) ? (int64_t)v->block_size : ggml_kind(desc->layout)->block_values;
        if (desc->block_size != 0 && desc->block_size != block_values)
            return clg_fail(CLG_ERR_INVALID_BLOCK_SIZE,
                            "block_size = %" PRId64 ": %s blocks hold %" PRId64 " values (0: %" PRId64 ")",
                            desc->block_size, clg_quant_layout_name(desc->layout), block_values, block_values);
        v->quantize_axis = v->rank - 1;
        v->block_size = (uint64_t)block_values;
        v->zp_mode = CLG_ZP_CONSTANT;
        v->zp_constant = v->ggml == CLG_GGML_Q4_0 ? 8 : 0; /* read by neither the kernels nor the reference */
        return CLG_SUCCESS;
    }
    return desc->layout == CLG_QUANT_ORT_BLOCK ? resolve_ort(desc, v) : resolve_ov(desc, v);
}
