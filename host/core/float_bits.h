/* Floating-point encodings handled as bits, so that results do not depend on the host's floating-point
 * environment (flush-to-zero, denormals-are-zero) or on its NaN conventions: exact widening of f16 and
 * bf16 to f32, round-to-nearest-even narrowing of f32 to f16 and bf16, and the correctly rounded
 * product of a small integer and an f32. */
#ifndef CLG_FLOAT_BITS_H
#define CLG_FLOAT_BITS_H

#include <stdint.h>

/* The canonical quiet NaN, the product of a zero and an infinity. */
#define CLG_F32_DEFAULT_NAN 0x7FC00000u

/* f16 bits widened to f32 bits, exactly (subnormals normalized; a NaN keeps sign and payload). */
uint32_t clg_f16_to_f32_bits(uint16_t h);

/* bf16 bits widened to f32 bits (the high half of an f32). */
uint32_t clg_bf16_to_f32_bits(uint16_t b);

/* f32 bits to f16 bits, round to nearest even: overflow to infinity, f16 subnormals, and a NaN becomes
 * a quiet NaN keeping its sign and the high 9 bits of its payload. */
uint16_t clg_f32_to_f16_bits(uint32_t x);

/* f32 bits to bf16 bits, round to nearest even; a NaN becomes a quiet NaN keeping sign and high payload. */
uint16_t clg_f32_to_bf16_bits(uint32_t x);

/* The f32 bits of (float)d * scale, d in [-255, 255], correctly rounded to nearest even and computed in
 * integers: subnormal scales and products are kept, an infinite scale gives an infinity (the product of
 * 0 and an infinity is CLG_F32_DEFAULT_NAN), a NaN scale gives that NaN, quieted. */
uint32_t clg_f32_times_small_int(int32_t d, uint32_t scale_bits);

#endif
