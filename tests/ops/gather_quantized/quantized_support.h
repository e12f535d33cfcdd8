/* Helpers of the dequantizing-gather suites: a case (descriptor and host inputs of exactly the sizes
 * validation reports), packing 4-bit values, f16 / bf16 encodings, and the three ways to run a case
 * (reference, synchronous, enqueue inside guarded cl_mem buffers). */
#ifndef CLG_QUANTIZED_SUPPORT_H
#define CLG_QUANTIZED_SUPPORT_H

#include "test_support.h"

typedef struct quant_case {
    clg_gather_quantized_desc desc;
    unsigned char *data, *indices, *scales, *zero_points;
    size_t data_bytes, index_bytes, scale_bytes, zp_bytes, out_bytes;
} quant_case;

/* Allocate zero-filled inputs of the sizes clg_gather_quantized_sizes gives (it must succeed). */
void quant_case_alloc(quant_case *c);
void quant_case_free(quant_case *c);

/* Store the 4-bit value v (low 4 bits) at nibble k of packed bytes, low nibble first. */
void quant_put_nibble(unsigned char *packed, uint64_t k, int v);

/* Store scale k of the case's scales from f32 bits (converted to f16 / bf16 exactly where they can
 * be: callers pass values representable in the scales' type). */
void quant_put_scale_bits(quant_case *c, uint64_t k, uint32_t f32_bits);
void quant_put_scale(quant_case *c, uint64_t k, float value);

/* Output element k of an output buffer as f32 bits (f16 / bf16 widened exactly). */
uint32_t quant_output_bits(clg_dtype out_type, const void *out, uint64_t k);
float quant_output_value(clg_dtype out_type, const void *out, uint64_t k);

/* Bytes of a ggml layout's block (0: not a ggml layout). */
size_t quant_ggml_block_bytes(clg_quant_layout l);
/* Where a ggml block's f16 fields lie (d, and m or dmin where it has one): their count. */
int quant_ggml_f16_fields(clg_quant_layout l, size_t at[2]);

/* The reference, the synchronous call, and the enqueue call (each tensor inside a cl_mem with `guard`
 * bytes of POISON_BYTE before and after it, rounded up to the tensor's alignment; out_region gets the
 * whole output cl_mem, guards included: guard_out + out_bytes + guard_out bytes, see quant_out_guard). */
clg_status quant_reference(const quant_case *c, void *out);
clg_status quant_sync(clg_context *ctx, const quant_case *c, void *out);
clg_status quant_enqueue(clg_context *ctx, const quant_case *c, size_t guard, void *out_region);
/* The output guard quant_enqueue uses for `guard`. */
size_t quant_out_guard(const quant_case *c, size_t guard);

#endif
