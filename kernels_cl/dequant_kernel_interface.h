/* The dequantizing gather's kernel interface, the same for both mappings (gather_quantized_cpu.cl,
 * gather_quantized_gpu.cl; the host's set_args fills it): the buffers with their offsets, the plan's
 * sizes and the encodings, then each mapping's own parameters. DEQUANT_KERNEL_SETUP declares the
 * buffers at their offsets and `q`, the dequant_params, in a kernel with these parameters.
 *
 * Build options: SPEC 1 with SPEC_BITS, SPEC_SIGNED, SPEC_PLACEMENT, SPEC_GGML, SPEC_FAST makes those
 * encodings build-time constants (the host sets it for the fast form, whose inner loops then carry no
 * branch on them; the arguments carry the same values). The scale type and the zero points'
 * arrangement, read once a block, are always arguments: one program for all of them. SPEC_GGML is 1 for
 * every ggml format, the format itself an argument (dequant_ggml.h); GGML_SUPER 1 builds the 256-value
 * super-blocks' program instead (dequant_ggml_k.h). */
#ifndef CLG_DEQUANT_KERNEL_INTERFACE_H
#define CLG_DEQUANT_KERNEL_INTERFACE_H

#include "dequant_values.h"

#define DEQUANT_KERNEL_PARAMETERS                                                                                \
    __global const uchar *data_base, ulong data_offset, __global const IDX_T *indices, ulong indices_offset,     \
        __global const uchar *scales_base, ulong scales_offset, __global const uchar *zp_base, ulong zp_offset,  \
        __global uchar *out_base, ulong out_offset, offset_t R, offset_t N, long A, offset_t I, offset_t U,      \
        offset_t nb, offset_t bs, offset_t Qd, offset_t QN, offset_t P, offset_t W, offset_t zp_row_bytes,       \
        int value_bits, int value_signed, int scale_kind, int zp_mode, int zp_constant, int placement, int ggml, \
        int fast

#if SPEC
#define DEQUANT_ENCODING(constant, argument) (constant)
#else
#define DEQUANT_ENCODING(constant, argument) (argument)
#endif

#define DEQUANT_KERNEL_SETUP(q)                                                \
    __global const uchar *data = data_base + data_offset;                      \
    __global const uchar *scales = scales_base + scales_offset;                \
    __global const uchar *zp = zp_base + zp_offset;                            \
    __global out_bits_t *out = (__global out_bits_t *)(out_base + out_offset); \
    indices += indices_offset;                                                 \
    const dequant_params q = {N,                                               \
                              I,                                               \
                              U,                                               \
                              nb,                                              \
                              bs,                                              \
                              Qd,                                              \
                              QN,                                              \
                              P,                                               \
                              W,                                               \
                              zp_row_bytes,                                    \
                              A,                                               \
                              DEQUANT_ENCODING(SPEC_BITS, value_bits),         \
                              DEQUANT_ENCODING(SPEC_SIGNED, value_signed),     \
                              scale_kind,                                      \
                              zp_mode,                                         \
                              zp_constant,                                     \
                              DEQUANT_ENCODING(SPEC_PLACEMENT, placement),     \
                              ggml,                                            \
                              DEQUANT_ENCODING(SPEC_FAST, fast)}

#endif /* CLG_DEQUANT_KERNEL_INTERFACE_H */
