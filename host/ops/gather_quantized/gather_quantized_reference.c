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
    const uint64_t line = p->Qd * p->QN; /* values of one x along the quantize axis */
    for (uint64_t m = 0; m < p->M; ++m)
        for (uint64_t n = 0; n < p->N; ++n) {
            const uint64_t first = (m * p->N + n) * p->I;
            uint64_t row;
            if (!select_row(p, clg_read_integer(indices, p->index_type, n), &row)) {
                memset(out + first * p->out_size, 0, p->I * p->out_size);
                continue;
            }
            for (uint64_t i = 0; i < p->I; ++i) {
                const uint64_t e = (m * p->A + row) * p->I + i;
                if (p->ggml != CLG_GGML_NONE) {
                    const unsigned char *block = data + (e / CLG_GGML_BLOCK_VALUES) * p->ggml_block_bytes;
                    store(p, out, first + i, ggml_value_bits(p, block, e % CLG_GGML_BLOCK_VALUES));
                    continue;
                }
                const uint64_t x = e / line, y = e % line / p->QN, z = e % p->QN;
                const uint64_t s = (x * p->nb + y / p->bs) * p->QN + z;
                store(p, out, first + i,
                      product_bits(value_at(p, data, e) - zero_point_at(p, zp, s), scale_at(p, scales, s)));
            }
        }
    return CLG_SUCCESS;
}
