/* The CPU reference for the dequantizing gather: the rules of docs/semantics.md element by element in
 * plain C, with ONNX Runtime's index arithmetic (a value's flat position, then its scale's), written
 * independently of the kernels' unit-by-unit walk so that each can check the other. */
#include "ops/gather_quantized/gather_quantized_reference.h"

#include "core/float_bits.h"
#include "core/index_value.h"

#include <string.h>

/* The 4-bit value at nibble k of a packed tensor (low nibble first), sign-extended for signed types. */
static int32_t nibble_at(const unsigned char *packed, uint64_t k, int is_signed)
{
    const int32_t v = (packed[k / 2] >> (4 * (k % 2))) & 0xF;
    return is_signed ? v - ((v & 0x8) << 1) : v;
}

/* The 2-bit value at position k of packed bytes, four a byte, the lowest-indexed in the lowest bits. */
static int32_t two_bits_at(const unsigned char *packed, uint64_t k) { return (packed[k / 4] >> (2 * (k % 4))) & 0x3; }

static int32_t byte_at(const unsigned char *bytes, uint64_t k, int is_signed)
{
    return is_signed ? (int32_t)(int8_t)bytes[k] : (int32_t)bytes[k];
}

static int value_is_signed(clg_quant_type t) { return t == CLG_QUANT_I4 || t == CLG_QUANT_I8; }

/* The value at flat position e of the logical data (not ggml). */
static int32_t value_at(const clg_gather_quantized_plan *p, const unsigned char *data, uint64_t e)
{
    if (p->value_bits == 2) return two_bits_at(data, e);
    return p->value_bits == 4 ? nibble_at(data, e, value_is_signed(p->value_type))
                              : byte_at(data, e, value_is_signed(p->value_type));
}

/* ggml's kvalues_iq4nl: the 16 values an iq4_nl nibble selects. */
static const int8_t iq4_nl_values[16] = {-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113};

static uint32_t f16_field(const unsigned char *at) { return clg_f16_to_f32_bits((uint16_t)(at[0] | at[1] << 8)); }

static uint32_t scale_at(const clg_gather_quantized_plan *p, const unsigned char *scales, uint64_t s)
{
    if (p->scale_type == CLG_F32) {
        uint32_t bits;
        memcpy(&bits, scales + 4 * s, 4);
        return bits;
    }
    uint16_t half;
    memcpy(&half, scales + 2 * s, 2);
    return p->scale_type == CLG_F16 ? clg_f16_to_f32_bits(half) : clg_bf16_to_f32_bits(half);
}

static int32_t zero_point_at(const clg_gather_quantized_plan *p, const unsigned char *zp, uint64_t s)
{
    const int is_signed = value_is_signed(p->value_type);
    switch (p->zp_mode) {
    case CLG_ZP_NIBBLES: return nibble_at(zp, s, is_signed);
    case CLG_ZP_NIBBLE_ROWS: return nibble_at(zp + (s / p->nb) * p->zp_row_bytes, s % p->nb, 0);
    case CLG_ZP_2BIT_ROWS: return two_bits_at(zp + (s / p->nb) * p->zp_row_bytes, s % p->nb);
    case CLG_ZP_BYTES: return byte_at(zp, s, is_signed);
    case CLG_ZP_SCALAR: return p->value_bits == 4 ? nibble_at(zp, 0, is_signed) : byte_at(zp, 0, is_signed);
    default: return p->zp_constant;
    }
}

/* f32(d) * scale, rounded to f32: the hardware product where no operand or result can be subnormal
 * (a normal or zero scale times an integer), so that a flush-to-zero host gives the same bits. */
static uint32_t product_bits(int32_t d, uint32_t scale_bits)
{
    const uint32_t exponent = (scale_bits >> 23) & 0xFF;
    const int plain = (exponent != 0 && exponent != 0xFF) || (scale_bits & 0x7FFFFFFF) == 0;
    if (!plain) return clg_f32_times_small_int(d, scale_bits);
    float scale, product;
    memcpy(&scale, &scale_bits, 4);
    product = (float)d * scale;
    uint32_t bits;
    memcpy(&bits, &product, 4);
    return bits;
}

/* f32 bits of product + m, the f32 sum of ggml's q4_1 / q5_1. Finite operands: the hardware sum, which
 * is never subnormal (both are multiples of 2^-24, f16's least subnormal: d * q with an f16 d, and an
 * f16 m). Otherwise fixed rules, the kernels' too: a NaN operand (the product first) quieted, inf plus
 * inf of the other sign the default NaN 0x7FC00000 (as the product's rules give for inf * 0), else the
 * infinite operand. */
static uint32_t sum_bits(uint32_t product, uint32_t m)
{
    const int product_finite = (product & 0x7F800000u) != 0x7F800000u, m_finite = (m & 0x7F800000u) != 0x7F800000u;
    if (product_finite && m_finite) {
        float a, b;
        memcpy(&a, &product, 4);
        memcpy(&b, &m, 4);
        const float sum = a + b;
        uint32_t bits;
        memcpy(&bits, &sum, 4);
        return bits;
    }
    if (!product_finite && (product & 0x7FFFFFu)) return product | 0x400000u;
    if (!m_finite && (m & 0x7FFFFFu)) return m | 0x400000u;
    if (!product_finite && !m_finite) return product == m ? product : 0x7FC00000u;
    return product_finite ? m : product;
}

/* f32 bits of value j of a ggml block, as ggml-quants.c's dequantize_row_* computes it (ggml-common.h
 * gives the blocks): elements 0..15 come from the low nibbles of the 16 quant bytes, 16..31 from the
 * high ones; q5's fifth bit of element j is bit j of a little-endian 32-bit word. */
static uint32_t ggml_value_bits(const clg_gather_quantized_plan *p, const unsigned char *block, uint64_t j)
{
    const uint32_t d = f16_field(block);
    const int low = j < 16;
    switch (p->ggml) {
    case CLG_GGML_Q8_0: return product_bits((int8_t)block[2 + j], d);
    case CLG_GGML_Q4_0: return product_bits(((block[2 + j % 16] >> (low ? 0 : 4)) & 0xF) - 8, d);
    case CLG_GGML_IQ4_NL: return product_bits(iq4_nl_values[(block[2 + j % 16] >> (low ? 0 : 4)) & 0xF], d);
    case CLG_GGML_Q4_1:
        return sum_bits(product_bits((block[4 + j % 16] >> (low ? 0 : 4)) & 0xF, d), f16_field(block + 2));
    default: { /* q5_0, q5_1 */
        const int has_min = p->ggml == CLG_GGML_Q5_1;
        const unsigned char *high_bits = block + (has_min ? 4 : 2), *quants = high_bits + 4;
        const int32_t q = ((quants[j % 16] >> (low ? 0 : 4)) & 0xF) | ((high_bits[j / 8] >> (j % 8)) & 1) << 4;
        return has_min ? sum_bits(product_bits(q, d), f16_field(block + 2)) : product_bits(q - 16, d);
    }
    }
}

/* f32 bits of a - b, the f32 difference of ggml's q2_K, q4_K and q5_K. Finite operands: the hardware
 * difference (multiples of 2^-24 again, never subnormal). Otherwise sum_bits' rules with b negated:
 * a NaN operand (a first) quieted, keeping its sign; inf - inf of the same sign 0x7FC00000; else the
 * infinite operand, b's sign flipped. */
static uint32_t difference_bits(uint32_t a, uint32_t b)
{
    const int b_nan = (b & 0x7F800000u) == 0x7F800000u && (b & 0x7FFFFFu);
    return sum_bits(a, b_nan ? b : b ^ 0x80000000u);
}

/* The 6-bit scale and minimum of sub-block j (0..7) of q4_K and q5_K, packed in 12 bytes: j < 4 the
 * low 6 bits of bytes j and j + 4; j >= 4 a nibble of byte j + 4 and the top 2 bits of bytes j - 4
 * and j. */
static void k_scale_min(const unsigned char *packed, unsigned j, int32_t *scale, int32_t *min)
{
    if (j < 4) {
        *scale = packed[j] & 63;
        *min = packed[j + 4] & 63;
    } else {
        *scale = (packed[j + 4] & 15) | (packed[j - 4] >> 6) << 4;
        *min = (packed[j + 4] >> 4) | (packed[j] >> 6) << 4;
    }
}

/* Value j of a 256-value super-block (ggml-common.h) as its integer q, its sub-block's integer scale
 * and minimum (0 where the format has none), and the block's f16 d and dmin offsets: value =
 * (d * scale) * q - (dmin * min), as gguf.quants.dequantize orders it. */
typedef struct k_parts {
    int32_t q, scale, min;
    unsigned d_at, dmin_at; /* dmin_at 0: no minimum */
} k_parts;

static k_parts ggml_k_parts(clg_ggml_format format, const unsigned char *block, unsigned j)
{
    k_parts k = {0, 0, 0, 0, 0};
    /* 2-bit fields: value j is bits 2*((j / 32) % 4) of byte (j / 128) * 32 + j % 32 */
    const unsigned pair_byte = (j / 128) * 32 + j % 32, pair_shift = 2 * ((j / 32) % 4);
    /* nibbles of q4_K, q5_K: value j is the low (j % 64 < 32) or high nibble of byte (j / 64) * 32 + j % 32 */
    const unsigned nibble_byte = (j / 64) * 32 + j % 32, nibble_shift = (j % 64) < 32 ? 0 : 4;
    switch (format) {
    case CLG_GGML_Q2_K: /* scales[16], qs[64], d, dmin */
        k.q = (block[16 + pair_byte] >> pair_shift) & 3;
        k.scale = block[j / 16] & 15;
        k.min = block[j / 16] >> 4;
        k.d_at = 80;
        k.dmin_at = 82;
        break;
    case CLG_GGML_Q3_K: { /* hmask[32], qs[64], scales[12], d; a clear high bit subtracts 4 */
        const int high = (block[j % 32] >> (j / 32)) & 1;
        k.q = ((block[32 + pair_byte] >> pair_shift) & 3) - (high ? 0 : 4);
        const unsigned s = j / 16;
        const int32_t low4 = (block[96 + s % 8] >> (4 * (s / 8))) & 15,
                      high2 = (block[104 + s % 4] >> (2 * (s / 4))) & 3;
        k.scale = (low4 | high2 << 4) - 32;
        k.d_at = 108;
        break;
    }
    case CLG_GGML_Q4_K: /* d, dmin, scales[12], qs[128] */
    case CLG_GGML_Q5_K: /* d, dmin, scales[12], qh[32], qs[128] */
        if (format == CLG_GGML_Q4_K)
            k.q = (block[16 + nibble_byte] >> nibble_shift) & 15;
        else
            k.q = ((block[48 + nibble_byte] >> nibble_shift) & 15) | ((block[16 + j % 32] >> (j / 32)) & 1) << 4;
        k_scale_min(block + 4, j / 32, &k.scale, &k.min);
        k.d_at = 0;
        k.dmin_at = 2;
        break;
    case CLG_GGML_Q6_K: { /* ql[128], qh[64], scales[16] int8, d */
        const int32_t low = (block[(j / 128) * 64 + j % 64] >> ((j % 128) < 64 ? 0 : 4)) & 15;
        const int32_t high = (block[128 + pair_byte] >> pair_shift) & 3;
        k.q = (low | high << 4) - 32;
        k.scale = (int8_t)block[192 + j / 16];
        k.d_at = 208;
        break;
    }
    default: { /* iq4_xs: d, scales_h (u16), scales_l[4], qs[128] indexing kvalues_iq4nl */
        const unsigned s = j / 32, at = j % 32;
        k.q = iq4_nl_values[(block[8 + 16 * s + at % 16] >> (at < 16 ? 0 : 4)) & 15];
        const uint32_t scales_high = (uint32_t)block[2] | (uint32_t)block[3] << 8;
        k.scale = (((block[4 + s / 2] >> (4 * (s % 2))) & 15) | ((scales_high >> (2 * s)) & 3) << 4) - 32;
        k.d_at = 0;
        break;
    }
    }
    return k;
}

/* f32 bits of value j of a super-block: the sub-block's scale d * scale rounded to f32, times q
 * rounded, less dmin * min rounded, each step by product_bits and difference_bits (exact for any d,
 * dmin: a finite f16 widens to a normal f32 or zero, so the hardware steps never meet a subnormal). */
static uint32_t ggml_k_value_bits(const clg_gather_quantized_plan *p, const unsigned char *block, uint64_t j)
{
    const k_parts k = ggml_k_parts(p->ggml, block, (unsigned)j);
    const uint32_t product = product_bits(k.q, product_bits(k.scale, f16_field(block + k.d_at)));
    if (!k.dmin_at) return product;
    return difference_bits(product, product_bits(k.min, f16_field(block + k.dmin_at)));
}

/* f32 bits of value j of an FBGEMM row of D values (the plan's block): 8-bit, byte j and the f32 scale
 * and bias at bytes D and D + 4; 4-bit, nibble j (the low nibble first) and the f16 scale and bias at
 * bytes D / 2 and D / 2 + 2. Both q * scale + bias not fused (the project's rule, though FBGEMM and
 * PyTorch fuse: docs/semantics.md 8.8): the product rounded to f32 (product_bits, any scale), then
 * the sum rounded (sum_bits), as ggml q4_1. A 4-bit row's product is exact (4 bits times 11). */
static uint32_t fbgemm_value_bits(const clg_gather_quantized_plan *p, const unsigned char *row, uint64_t j)
{
    const uint64_t D = p->ggml_block_values;
    if (p->ggml == CLG_GGML_FBGEMM_4BIT) {
        const unsigned char *fields = row + D / 2;
        const int32_t q = (row[j / 2] >> (4 * (j % 2))) & 0xF;
        return sum_bits(product_bits(q, f16_field(fields)), f16_field(fields + 2));
    }
    uint32_t scale, bias;
    memcpy(&scale, row + D, 4);
    memcpy(&bias, row + D + 4, 4);
    return sum_bits(product_bits(row[j], scale), bias);
}

uint32_t clg_gather_quantized_value_bits(const clg_gather_quantized_plan *p, const unsigned char *data,
                                         const unsigned char *scales, const unsigned char *zp, uint64_t e)
{
    if (p->ggml != CLG_GGML_NONE) {
        const uint64_t values = p->ggml_block_values;
        const unsigned char *block = data + (e / values) * p->ggml_block_bytes;
        return clg_ggml_is_fbgemm(p->ggml)  ? fbgemm_value_bits(p, block, e % values)
               : clg_ggml_is_super(p->ggml) ? ggml_k_value_bits(p, block, e % values)
                                            : ggml_value_bits(p, block, e % values);
    }
    const uint64_t line = p->Qd * p->QN; /* values of one x along the quantize axis */
    const uint64_t x = e / line, y = e % line / p->QN, z = e % p->QN;
    const uint64_t s = (x * p->nb + y / p->bs) * p->QN + z;
    return product_bits(value_at(p, data, e) - zero_point_at(p, zp, s), scale_at(p, scales, s));
}

static void store(const clg_gather_quantized_plan *p, unsigned char *out, uint64_t k, uint32_t bits)
{
    if (p->out_type == CLG_F32) {
        memcpy(out + 4 * k, &bits, 4);
        return;
    }
    const uint16_t half = p->out_type == CLG_F16 ? clg_f32_to_f16_bits(bits) : clg_f32_to_bf16_bits(bits);
    memcpy(out + 2 * k, &half, 2);
}

/* The data row an index selects under the plan's policy; false means "write zeros". */
static bool select_row(const clg_gather_quantized_plan *p, clg_integer v, uint64_t *row)
{
    if (clg_index_in_range(v, p->A, row)) return true;
    if (p->policy != CLG_OOB_CLAMP || p->A == 0) return false;
    *row = (!v.is_unsigned && v.s < 0) ? 0 : p->A - 1;
    return true;
}

clg_status clg_gather_quantized_reference_run(const void *plan, const void *const *inputs, void *output)
{
    const clg_gather_quantized_plan *p = plan;
    if (p->out_elems == 0) return CLG_SUCCESS;
    const unsigned char *data = inputs[0], *scales = inputs[2], *zp = inputs[3];
    const void *indices = inputs[1];
    if (p->policy == CLG_OOB_ERROR) {
        clg_status st = clg_index_check_host(&p->bound, indices, 0, p->index_elems);
        if (st != CLG_SUCCESS) return st;
    }
    unsigned char *out = output;
    for (uint64_t m = 0; m < p->M; ++m)
        for (uint64_t n = 0; n < p->N; ++n) {
            const uint64_t first = (m * p->N + n) * p->I;
            uint64_t row;
            if (!select_row(p, clg_read_integer(indices, p->index_type, n), &row)) {
                memset(out + first * p->out_size, 0, p->I * p->out_size);
                continue;
            }
            for (uint64_t i = 0; i < p->I; ++i)
                store(p, out, first + i,
                      clg_gather_quantized_value_bits(p, data, scales, zp, (m * p->A + row) * p->I + i));
        }
    return CLG_SUCCESS;
}
