#include "demo_quantized.h"

#include "cli_error.h"
#include "tensor.h"
#include "tensor_format.h"

#include <stdio.h>
#include <string.h>

/* a ggml super-block is up to 210 bytes of 256 values; the first 64 of an output are printed */
enum { DEMO_MAX_BYTES = 210, DEMO_MAX_VALUES = 256, DEMO_PRINT_VALUES = 64 };

typedef struct demo_quantized_case {
    const char *title;
    clg_gather_quantized_desc desc;
    unsigned char data[DEMO_MAX_BYTES];
    float scales[4];
    unsigned char zero_points[4];
    int64_t indices[4];
    double expected[DEMO_MAX_VALUES]; /* worked out by hand from the rule in the title */
} demo_quantized_case;

/* ONNX Runtime: u4 [3, 16], one block a row; row 0 holds 0..15, row 1 15..0, row 2 0,1,2,3 repeated. */
#define U4_ROW(a, b, c, d, e, f, g, h) a | b << 4, c | d << 4, e | f << 4, g | h << 4
/* ggml q4_0 row 0: d = 0.5 (f16 0x3800), nibble j low, 15 - j high; row 1: d = 2 (0x4000), all 0x79. */
#define Q4_0_ROW0_BYTES \
    0x00, 0x38, 0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87, 0x78, 0x69, 0x5A, 0x4B, 0x3C, 0x2D, 0x1E, 0x0F
#define Q4_0_ROW1_BYTES \
    0x00, 0x40, 0x79, 0x79, 0x79, 0x79, 0x79, 0x79, 0x79, 0x79, 0x79, 0x79, 0x79, 0x79, 0x79, 0x79, 0x79, 0x79
/* 16 quant bytes: byte j holds j in its low nibble and 15 - j in its high one. */
#define NIBBLES_UP_DOWN 0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87, 0x78, 0x69, 0x5A, 0x4B, 0x3C, 0x2D, 0x1E, 0x0F

static const demo_quantized_case demo_cases[] = {
    {"ort-block (com.microsoft.GatherBlockQuantized): u4 [3, 16], block 16, zero points 8, 0, 15, f32 scales "
     "0.5, 2, -1; indices [2, 0]: (q - zp) * scale",
     {.layout = CLG_QUANT_ORT_BLOCK,
      .data = {CLG_QUANT_U4, 2, {3, 16}},
      .indices = {CLG_I64, 1, {2}},
      .scales = {CLG_F32, 2, {3, 1}},
      .zero_points = {CLG_QUANT_U4, 2, {3, 1}},
      .bits = 4,
      .block_size = 16,
      .quantize_axis = 1},
     {U4_ROW(0, 1, 2, 3, 4, 5, 6, 7), U4_ROW(8, 9, 10, 11, 12, 13, 14, 15), U4_ROW(15, 14, 13, 12, 11, 10, 9, 8),
      U4_ROW(7, 6, 5, 4, 3, 2, 1, 0), U4_ROW(0, 1, 2, 3, 0, 1, 2, 3), U4_ROW(0, 1, 2, 3, 0, 1, 2, 3)},
     {0.5f, 2.0f, -1.0f},
     {8 | 0 << 4, 15},
     {2, 0},
     {15, 14,   13, 12,   15, 14,   13, 12,   15, 14,  13,  12,  15,  14,  13,  12,
      -4, -3.5, -3, -2.5, -2, -1.5, -1, -0.5, 0,  0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5}},
    {"ggml-q4_0: rows of one block (f16 d, 16 bytes: elements 0..15 low nibbles, 16..31 high); row 0 d 0.5, "
     "row 1 d 2 and bytes 0x79; indices [1, 0]: (nibble - 8) * d",
     {.layout = CLG_QUANT_GGML_Q4_0, .data = {CLG_QUANT_U8, 2, {2, 18}}, .indices = {CLG_I64, 1, {2}}},
     {Q4_0_ROW0_BYTES, Q4_0_ROW1_BYTES},
     {0},
     {0},
     {1, 0},
     {2,  2,   2,  2,   2,   2,  2,   2,  2,   2,  2,   2,    2,    2,    2,    2,    -2,   -2,   -2,   -2,  -2, -2,
      -2, -2,  -2, -2,  -2,  -2, -2,  -2, -2,  -2, -4,  -3.5, -3,   -2.5, -2,   -1.5, -1,   -0.5, 0,    0.5, 1,  1.5,
      2,  2.5, 3,  3.5, 3.5, 3,  2.5, 2,  1.5, 1,  0.5, 0,    -0.5, -1,   -1.5, -2,   -2.5, -3,   -3.5, -4}},
    {"ggml-q8_0: one row of one block, d 0.25 (f16 0x3400), int8 values -16..15; indices [0]: q * d",
     {.layout = CLG_QUANT_GGML_Q8_0, .data = {CLG_QUANT_U8, 2, {1, 34}}, .indices = {CLG_I64, 1, {1}}},
     {0x00, 0x34, 0xF0, 0xF1, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xF8, 0xF9, 0xFA, 0xFB, 0xFC, 0xFD, 0xFE,
      0xFF, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F},
     {0},
     {0},
     {0},
     {-4, -3.75, -3.5, -3.25, -3, -2.75, -2.5, -2.25, -2, -1.75, -1.5, -1.25, -1, -0.75, -0.5, -0.25,
      0,  0.25,  0.5,  0.75,  1,  1.25,  1.5,  1.75,  2,  2.25,  2.5,  2.75,  3,  3.25,  3.5,  3.75}},
    {"ggml-q4_1: one block (f16 d 0.5, f16 m -4, 16 bytes: byte j holds j low, 15 - j high); indices [0]: "
     "nibble * d + m",
     {.layout = CLG_QUANT_GGML_Q4_1, .data = {CLG_QUANT_U8, 2, {1, 20}}, .indices = {CLG_I64, 1, {1}}},
     {0x00, 0x38, 0x00, 0xC4, NIBBLES_UP_DOWN},
     {0},
     {0},
     {0},
     {-4,  -3.5, -3,  -2.5, -2,  -1.5, -1,  -0.5, 0,    0.5, 1,    1.5, 2,    2.5, 3,    3.5,
      3.5, 3,    2.5, 2,    1.5, 1,    0.5, 0,    -0.5, -1,  -1.5, -2,  -2.5, -3,  -3.5, -4}},
    {"ggml-q5_0: one block (f16 d 0.25, fifth bits 0x FFFF0000: elements 16..31, byte j holds j in both nibbles); "
     "indices [0]: (nibble + 16 * fifth bit - 16) * d",
     {.layout = CLG_QUANT_GGML_Q5_0, .data = {CLG_QUANT_U8, 2, {1, 22}}, .indices = {CLG_I64, 1, {1}}},
     {0x00, 0x34, 0x00, 0x00, 0xFF, 0xFF, 0x00, 0x11, 0x22, 0x33, 0x44,
      0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF},
     {0},
     {0},
     {0},
     {-4, -3.75, -3.5, -3.25, -3, -2.75, -2.5, -2.25, -2, -1.75, -1.5, -1.25, -1, -0.75, -0.5, -0.25,
      0,  0.25,  0.5,  0.75,  1,  1.25,  1.5,  1.75,  2,  2.25,  2.5,  2.75,  3,  3.25,  3.5,  3.75}},
    {"ggml-q5_1: one block (f16 d 1, f16 m 0.5, fifth bits 0x8000000F: elements 0..3 and 31, byte j = j); "
     "indices [0]: (nibble + 16 * fifth bit) * d + m",
     {.layout = CLG_QUANT_GGML_Q5_1, .data = {CLG_QUANT_U8, 2, {1, 24}}, .indices = {CLG_I64, 1, {1}}},
     {0x00, 0x3C, 0x00, 0x38, 0x0F, 0x00, 0x00, 0x80, 0x00, 0x01, 0x02, 0x03,
      0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F},
     {0},
     {0},
     {0},
     {16.5, 17.5, 18.5, 19.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5, 11.5, 12.5, 13.5, 14.5, 15.5,
      0.5,  0.5,  0.5,  0.5,  0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5,  0.5,  0.5,  0.5,  0.5,  16.5}},
    {"ggml-iq4_nl: one block (f16 d 0.5, byte j holds j low, 15 - j high), kvalues_iq4nl -127 -104 -83 -65 -49 "
     "-35 -22 -10 1 13 25 38 53 69 89 113; indices [0]: kvalue[nibble] * d",
     {.layout = CLG_QUANT_GGML_IQ4_NL, .data = {CLG_QUANT_U8, 2, {1, 18}}, .indices = {CLG_I64, 1, {1}}},
     {0x00, 0x38, NIBBLES_UP_DOWN},
     {0},
     {0},
     {0},
     {-63.5, -52,  -41.5, -32.5, -24.5, -17.5, -11, -5,  0.5, 6.5, 12.5,  19,    26.5,  34.5,  44.5, 56.5,
      56.5,  44.5, 34.5,  26.5,  19,    12.5,  6.5, 0.5, -5,  -11, -17.5, -24.5, -32.5, -41.5, -52,  -63.5}},
    {"ggml-q4_K: one super-block of 256 (f16 d 0.5, dmin 0.25; 6-bit scales 1..8 and mins 0..7 of the "
     "eight sub-blocks of 32; quant byte i holds i % 16 low, 15 - i % 16 high: value 64c + 32k + l is "
     "nibble k of byte 32c + l); indices [0]: (d * scale) * q - dmin * min",
     {.layout = CLG_QUANT_GGML_Q4_K, .data = {CLG_QUANT_U8, 2, {1, 144}}, .indices = {CLG_I64, 1, {1}}},
     {0x00, 0x38, 0x00, 0x34, 0x01, 0x02, 0x03, 0x04, 0x00, 0x01, 0x02, 0x03, 0x45, 0x56, 0x67, 0x78, 0xF0, 0xE1,
      0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87, 0x78, 0x69, 0x5A, 0x4B, 0x3C, 0x2D, 0x1E, 0x0F, 0xF0, 0xE1, 0xD2, 0xC3,
      0xB4, 0xA5, 0x96, 0x87, 0x78, 0x69, 0x5A, 0x4B, 0x3C, 0x2D, 0x1E, 0x0F, 0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5,
      0x96, 0x87, 0x78, 0x69, 0x5A, 0x4B, 0x3C, 0x2D, 0x1E, 0x0F, 0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87,
      0x78, 0x69, 0x5A, 0x4B, 0x3C, 0x2D, 0x1E, 0x0F, 0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87, 0x78, 0x69,
      0x5A, 0x4B, 0x3C, 0x2D, 0x1E, 0x0F, 0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87, 0x78, 0x69, 0x5A, 0x4B,
      0x3C, 0x2D, 0x1E, 0x0F, 0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87, 0x78, 0x69, 0x5A, 0x4B, 0x3C, 0x2D,
      0x1E, 0x0F, 0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87, 0x78, 0x69, 0x5A, 0x4B, 0x3C, 0x2D, 0x1E, 0x0F},
     {0},
     {0},
     {0},
     {0,     0.5,   1,     1.5,   2,     2.5,   3,     3.5,   4,     4.5,   5,     5.5,   6,     6.5,  7,    7.5,
      0,     0.5,   1,     1.5,   2,     2.5,   3,     3.5,   4,     4.5,   5,     5.5,   6,     6.5,  7,    7.5,
      14.75, 13.75, 12.75, 11.75, 10.75, 9.75,  8.75,  7.75,  6.75,  5.75,  4.75,  3.75,  2.75,  1.75, 0.75, -0.25,
      14.75, 13.75, 12.75, 11.75, 10.75, 9.75,  8.75,  7.75,  6.75,  5.75,  4.75,  3.75,  2.75,  1.75, 0.75, -0.25,
      -0.5,  1,     2.5,   4,     5.5,   7,     8.5,   10,    11.5,  13,    14.5,  16,    17.5,  19,   20.5, 22,
      -0.5,  1,     2.5,   4,     5.5,   7,     8.5,   10,    11.5,  13,    14.5,  16,    17.5,  19,   20.5, 22,
      29.25, 27.25, 25.25, 23.25, 21.25, 19.25, 17.25, 15.25, 13.25, 11.25, 9.25,  7.25,  5.25,  3.25, 1.25, -0.75,
      29.25, 27.25, 25.25, 23.25, 21.25, 19.25, 17.25, 15.25, 13.25, 11.25, 9.25,  7.25,  5.25,  3.25, 1.25, -0.75,
      -1,    1.5,   4,     6.5,   9,     11.5,  14,    16.5,  19,    21.5,  24,    26.5,  29,    31.5, 34,   36.5,
      -1,    1.5,   4,     6.5,   9,     11.5,  14,    16.5,  19,    21.5,  24,    26.5,  29,    31.5, 34,   36.5,
      43.75, 40.75, 37.75, 34.75, 31.75, 28.75, 25.75, 22.75, 19.75, 16.75, 13.75, 10.75, 7.75,  4.75, 1.75, -1.25,
      43.75, 40.75, 37.75, 34.75, 31.75, 28.75, 25.75, 22.75, 19.75, 16.75, 13.75, 10.75, 7.75,  4.75, 1.75, -1.25,
      -1.5,  2,     5.5,   9,     12.5,  16,    19.5,  23,    26.5,  30,    33.5,  37,    40.5,  44,   47.5, 51,
      -1.5,  2,     5.5,   9,     12.5,  16,    19.5,  23,    26.5,  30,    33.5,  37,    40.5,  44,   47.5, 51,
      58.25, 54.25, 50.25, 46.25, 42.25, 38.25, 34.25, 30.25, 26.25, 22.25, 18.25, 14.25, 10.25, 6.25, 2.25, -1.75,
      58.25, 54.25, 50.25, 46.25, 42.25, 38.25, 34.25, 30.25, 26.25, 22.25, 18.25, 14.25, 10.25, 6.25, 2.25, -1.75}},
    {"ggml-q5_K: q4_K's block with dmin 1 and fifth-bit bytes 0xAA (bit j of byte l: value 32j + l, set "
     "for odd sub-blocks j); indices [0]: (d * scale) * (q + 16 * fifth bit) - dmin * min",
     {.layout = CLG_QUANT_GGML_Q5_K, .data = {CLG_QUANT_U8, 2, {1, 176}}, .indices = {CLG_I64, 1, {1}}},
     {0x00, 0x38, 0x00, 0x3C, 0x01, 0x02, 0x03, 0x04, 0x00, 0x01, 0x02, 0x03, 0x45, 0x56, 0x67, 0x78, 0xAA, 0xAA,
      0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA,
      0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5,
      0x96, 0x87, 0x78, 0x69, 0x5A, 0x4B, 0x3C, 0x2D, 0x1E, 0x0F, 0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87,
      0x78, 0x69, 0x5A, 0x4B, 0x3C, 0x2D, 0x1E, 0x0F, 0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87, 0x78, 0x69,
      0x5A, 0x4B, 0x3C, 0x2D, 0x1E, 0x0F, 0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87, 0x78, 0x69, 0x5A, 0x4B,
      0x3C, 0x2D, 0x1E, 0x0F, 0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87, 0x78, 0x69, 0x5A, 0x4B, 0x3C, 0x2D,
      0x1E, 0x0F, 0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87, 0x78, 0x69, 0x5A, 0x4B, 0x3C, 0x2D, 0x1E, 0x0F,
      0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87, 0x78, 0x69, 0x5A, 0x4B, 0x3C, 0x2D, 0x1E, 0x0F, 0xF0, 0xE1,
      0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87, 0x78, 0x69, 0x5A, 0x4B, 0x3C, 0x2D, 0x1E, 0x0F},
     {0},
     {0},
     {0},
     {0,   0.5,  1,   1.5,  2,   2.5,  3,   3.5,  4,   4.5,  5,  5.5,  6,  6.5,  7,  7.5,  0,  0.5,  1,  1.5,
      2,   2.5,  3,   3.5,  4,   4.5,  5,   5.5,  6,   6.5,  7,  7.5,  30, 29,   28, 27,   26, 25,   24, 23,
      22,  21,   20,  19,   18,  17,   16,  15,   30,  29,   28, 27,   26, 25,   24, 23,   22, 21,   20, 19,
      18,  17,   16,  15,   -2,  -0.5, 1,   2.5,  4,   5.5,  7,  8.5,  10, 11.5, 13, 14.5, 16, 17.5, 19, 20.5,
      -2,  -0.5, 1,   2.5,  4,   5.5,  7,   8.5,  10,  11.5, 13, 14.5, 16, 17.5, 19, 20.5, 59, 57,   55, 53,
      51,  49,   47,  45,   43,  41,   39,  37,   35,  33,   31, 29,   59, 57,   55, 53,   51, 49,   47, 45,
      43,  41,   39,  37,   35,  33,   31,  29,   -4,  -1.5, 1,  3.5,  6,  8.5,  11, 13.5, 16, 18.5, 21, 23.5,
      26,  28.5, 31,  33.5, -4,  -1.5, 1,   3.5,  6,   8.5,  11, 13.5, 16, 18.5, 21, 23.5, 26, 28.5, 31, 33.5,
      88,  85,   82,  79,   76,  73,   70,  67,   64,  61,   58, 55,   52, 49,   46, 43,   88, 85,   82, 79,
      76,  73,   70,  67,   64,  61,   58,  55,   52,  49,   46, 43,   -6, -2.5, 1,  4.5,  8,  11.5, 15, 18.5,
      22,  25.5, 29,  32.5, 36,  39.5, 43,  46.5, -6,  -2.5, 1,  4.5,  8,  11.5, 15, 18.5, 22, 25.5, 29, 32.5,
      36,  39.5, 43,  46.5, 117, 113,  109, 105,  101, 97,   93, 89,   85, 81,   77, 73,   69, 65,   61, 57,
      117, 113,  109, 105,  101, 97,   93,  89,   85,  81,   77, 73,   69, 65,   61, 57}},
    {"ggml-q6_K: one super-block (low nibbles as q4_K's, high pairs 0xE4: pair (v / 32) % 4, int8 scales "
     "-8..7 for the sixteen sub-blocks of 16, f16 d 0.25); indices [0]: (d * scale) * (q - 32)",
     {.layout = CLG_QUANT_GGML_Q6_K, .data = {CLG_QUANT_U8, 2, {1, 210}}, .indices = {CLG_I64, 1, {1}}},
     {0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87, 0x78, 0x69, 0x5A, 0x4B, 0x3C, 0x2D, 0x1E, 0x0F, 0xF0, 0xE1,
      0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87, 0x78, 0x69, 0x5A, 0x4B, 0x3C, 0x2D, 0x1E, 0x0F, 0xF0, 0xE1, 0xD2, 0xC3,
      0xB4, 0xA5, 0x96, 0x87, 0x78, 0x69, 0x5A, 0x4B, 0x3C, 0x2D, 0x1E, 0x0F, 0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5,
      0x96, 0x87, 0x78, 0x69, 0x5A, 0x4B, 0x3C, 0x2D, 0x1E, 0x0F, 0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87,
      0x78, 0x69, 0x5A, 0x4B, 0x3C, 0x2D, 0x1E, 0x0F, 0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87, 0x78, 0x69,
      0x5A, 0x4B, 0x3C, 0x2D, 0x1E, 0x0F, 0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87, 0x78, 0x69, 0x5A, 0x4B,
      0x3C, 0x2D, 0x1E, 0x0F, 0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87, 0x78, 0x69, 0x5A, 0x4B, 0x3C, 0x2D,
      0x1E, 0x0F, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4,
      0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4,
      0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4,
      0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xF8, 0xF9, 0xFA, 0xFB, 0xFC, 0xFD,
      0xFE, 0xFF, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x00, 0x34},
     {0},
     {0},
     {0},
     {64,     62,     60,    58,    56,    54,    52,    50,    48,    46,    44,    42,    40,    38,    36,    34,
      56,     54.25,  52.5,  50.75, 49,    47.25, 45.5,  43.75, 42,    40.25, 38.5,  36.75, 35,    33.25, 31.5,  29.75,
      24,     22.5,   21,    19.5,  18,    16.5,  15,    13.5,  12,    10.5,  9,     7.5,   6,     4.5,   3,     1.5,
      20,     18.75,  17.5,  16.25, 15,    13.75, 12.5,  11.25, 10,    8.75,  7.5,   6.25,  5,     3.75,  2.5,   1.25,
      -15,    -14,    -13,   -12,   -11,   -10,   -9,    -8,    -7,    -6,    -5,    -4,    -3,    -2,    -1,    -0.0,
      -11.25, -10.5,  -9.75, -9,    -8.25, -7.5,  -6.75, -6,    -5.25, -4.5,  -3.75, -3,    -2.25, -1.5,  -0.75, -0.0,
      -15.5,  -15,    -14.5, -14,   -13.5, -13,   -12.5, -12,   -11.5, -11,   -10.5, -10,   -9.5,  -9,    -8.5,  -8,
      -7.75,  -7.5,   -7.25, -7,    -6.75, -6.5,  -6.25, -6,    -5.75, -5.5,  -5.25, -5,    -4.75, -4.5,  -4.25, -4,
      -0.0,   -0.0,   -0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,
      -8,     -7.75,  -7.5,  -7.25, -7,    -6.75, -6.5,  -6.25, -6,    -5.75, -5.5,  -5.25, -5,    -4.75, -4.5,  -4.25,
      -8,     -7.5,   -7,    -6.5,  -6,    -5.5,  -5,    -4.5,  -4,    -3.5,  -3,    -2.5,  -2,    -1.5,  -1,    -0.5,
      -12,    -11.25, -10.5, -9.75, -9,    -8.25, -7.5,  -6.75, -6,    -5.25, -4.5,  -3.75, -3,    -2.25, -1.5,  -0.75,
      15,     14,     13,    12,    11,    10,    9,     8,     7,     6,     5,     4,     3,     2,     1,     0,
      18.75,  17.5,   16.25, 15,    13.75, 12.5,  11.25, 10,    8.75,  7.5,   6.25,  5,     3.75,  2.5,   1.25,  0,
      46.5,   45,     43.5,  42,    40.5,  39,    37.5,  36,    34.5,  33,    31.5,  30,    28.5,  27,    25.5,  24,
      54.25,  52.5,   50.75, 49,    47.25, 45.5,  43.75, 42,    40.25, 38.5,  36.75, 35,    33.25, 31.5,  29.75, 28}},
    {"ggml-iq4_xs: one super-block (f16 d 1; 6-bit scales 28..35 less 32 for the eight sub-blocks of 32, "
     "low nibbles in 0xDC 0xFE 0x10 0x32, high pairs in 0xAA55; byte 16j + t holds t low, 15 - t high); "
     "indices [0]: (d * scale) * kvalues_iq4nl[nibble]",
     {.layout = CLG_QUANT_GGML_IQ4_XS, .data = {CLG_QUANT_U8, 2, {1, 136}}, .indices = {CLG_I64, 1, {1}}},
     {0x00, 0x3C, 0x55, 0xAA, 0xDC, 0xFE, 0x10, 0x32, 0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87, 0x78,
      0x69, 0x5A, 0x4B, 0x3C, 0x2D, 0x1E, 0x0F, 0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87, 0x78, 0x69,
      0x5A, 0x4B, 0x3C, 0x2D, 0x1E, 0x0F, 0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87, 0x78, 0x69, 0x5A,
      0x4B, 0x3C, 0x2D, 0x1E, 0x0F, 0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87, 0x78, 0x69, 0x5A, 0x4B,
      0x3C, 0x2D, 0x1E, 0x0F, 0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87, 0x78, 0x69, 0x5A, 0x4B, 0x3C,
      0x2D, 0x1E, 0x0F, 0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87, 0x78, 0x69, 0x5A, 0x4B, 0x3C, 0x2D,
      0x1E, 0x0F, 0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87, 0x78, 0x69, 0x5A, 0x4B, 0x3C, 0x2D, 0x1E,
      0x0F, 0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87, 0x78, 0x69, 0x5A, 0x4B, 0x3C, 0x2D, 0x1E, 0x0F},
     {0},
     {0},
     {0},
     {508,  416,  332,  260,  196,  140,  88,   40,   -4,   -52,  -100, -152, -212, -276, -356, -452, -452, -356, -276,
      -212, -152, -100, -52,  -4,   40,   88,   140,  196,  260,  332,  416,  508,  381,  312,  249,  195,  147,  105,
      66,   30,   -3,   -39,  -75,  -114, -159, -207, -267, -339, -339, -267, -207, -159, -114, -75,  -39,  -3,   30,
      66,   105,  147,  195,  249,  312,  381,  254,  208,  166,  130,  98,   70,   44,   20,   -2,   -26,  -50,  -76,
      -106, -138, -178, -226, -226, -178, -138, -106, -76,  -50,  -26,  -2,   20,   44,   70,   98,   130,  166,  208,
      254,  127,  104,  83,   65,   49,   35,   22,   10,   -1,   -13,  -25,  -38,  -53,  -69,  -89,  -113, -113, -89,
      -69,  -53,  -38,  -25,  -13,  -1,   10,   22,   35,   49,   65,   83,   104,  127,  -0.0, -0.0, -0.0, -0.0, -0.0,
      -0.0, -0.0, -0.0, 0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
      -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -127, -104, -83,  -65,  -49,  -35,  -22,  -10,  1,    13,   25,
      38,   53,   69,   89,   113,  113,  89,   69,   53,   38,   25,   13,   1,    -10,  -22,  -35,  -49,  -65,  -83,
      -104, -127, -254, -208, -166, -130, -98,  -70,  -44,  -20,  2,    26,   50,   76,   106,  138,  178,  226,  226,
      178,  138,  106,  76,   50,   26,   2,    -20,  -44,  -70,  -98,  -130, -166, -208, -254, -381, -312, -249, -195,
      -147, -105, -66,  -30,  3,    39,   75,   114,  159,  207,  267,  339,  339,  267,  207,  159,  114,  75,   39,
      3,    -30,  -66,  -105, -147, -195, -249, -312, -381}},
    {"ggml-q2_K: one super-block (scale byte j: scale j low, min 15 - j high, for sub-blocks of 16; quant "
     "bytes 0xE4: q = (v / 32) % 4; f16 d 0.5, dmin 0.125); indices [0]: (d * scale) * q - dmin * min",
     {.layout = CLG_QUANT_GGML_Q2_K, .data = {CLG_QUANT_U8, 2, {1, 84}}, .indices = {CLG_I64, 1, {1}}},
     {0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87, 0x78, 0x69, 0x5A, 0x4B, 0x3C, 0x2D, 0x1E, 0x0F, 0xE4,
      0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4,
      0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4,
      0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4,
      0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0x00, 0x38, 0x00, 0x30},
     {0},
     {0},
     {0},
     {-1.875, -1.875, -1.875, -1.875, -1.875, -1.875, -1.875, -1.875, -1.875, -1.875, -1.875, -1.875, -1.875, -1.875,
      -1.875, -1.875, -1.75,  -1.75,  -1.75,  -1.75,  -1.75,  -1.75,  -1.75,  -1.75,  -1.75,  -1.75,  -1.75,  -1.75,
      -1.75,  -1.75,  -1.75,  -1.75,  -0.625, -0.625, -0.625, -0.625, -0.625, -0.625, -0.625, -0.625, -0.625, -0.625,
      -0.625, -0.625, -0.625, -0.625, -0.625, -0.625, 0,      0,      0,      0,      0,      0,      0,      0,
      0,      0,      0,      0,      0,      0,      0,      0,      2.625,  2.625,  2.625,  2.625,  2.625,  2.625,
      2.625,  2.625,  2.625,  2.625,  2.625,  2.625,  2.625,  2.625,  2.625,  2.625,  3.75,   3.75,   3.75,   3.75,
      3.75,   3.75,   3.75,   3.75,   3.75,   3.75,   3.75,   3.75,   3.75,   3.75,   3.75,   3.75,   7.875,  7.875,
      7.875,  7.875,  7.875,  7.875,  7.875,  7.875,  7.875,  7.875,  7.875,  7.875,  7.875,  7.875,  7.875,  7.875,
      9.5,    9.5,    9.5,    9.5,    9.5,    9.5,    9.5,    9.5,    9.5,    9.5,    9.5,    9.5,    9.5,    9.5,
      9.5,    9.5,    -0.875, -0.875, -0.875, -0.875, -0.875, -0.875, -0.875, -0.875, -0.875, -0.875, -0.875, -0.875,
      -0.875, -0.875, -0.875, -0.875, -0.75,  -0.75,  -0.75,  -0.75,  -0.75,  -0.75,  -0.75,  -0.75,  -0.75,  -0.75,
      -0.75,  -0.75,  -0.75,  -0.75,  -0.75,  -0.75,  4.375,  4.375,  4.375,  4.375,  4.375,  4.375,  4.375,  4.375,
      4.375,  4.375,  4.375,  4.375,  4.375,  4.375,  4.375,  4.375,  5,      5,      5,      5,      5,      5,
      5,      5,      5,      5,      5,      5,      5,      5,      5,      5,      11.625, 11.625, 11.625, 11.625,
      11.625, 11.625, 11.625, 11.625, 11.625, 11.625, 11.625, 11.625, 11.625, 11.625, 11.625, 11.625, 12.75,  12.75,
      12.75,  12.75,  12.75,  12.75,  12.75,  12.75,  12.75,  12.75,  12.75,  12.75,  12.75,  12.75,  12.75,  12.75,
      20.875, 20.875, 20.875, 20.875, 20.875, 20.875, 20.875, 20.875, 20.875, 20.875, 20.875, 20.875, 20.875, 20.875,
      20.875, 20.875, 22.5,   22.5,   22.5,   22.5,   22.5,   22.5,   22.5,   22.5,   22.5,   22.5,   22.5,   22.5,
      22.5,   22.5,   22.5,   22.5}},
    {"ggml-q3_K: one super-block (high-bit bytes 0x0F: set for v < 128; low pairs 0xE4: (v / 32) % 4; "
     "6-bit scales 16 + j less 32 for sub-blocks of 16; f16 d 0.25); indices [0]: (d * scale) * (low pair "
     "- 4 * (1 - high bit))",
     {.layout = CLG_QUANT_GGML_Q3_K, .data = {CLG_QUANT_U8, 2, {1, 110}}, .indices = {CLG_I64, 1, {1}}},
     {0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F,
      0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4,
      0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4,
      0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4,
      0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4,
      0xE4, 0x80, 0x91, 0xA2, 0xB3, 0xC4, 0xD5, 0xE6, 0xF7, 0x55, 0x55, 0x55, 0x55, 0x00, 0x34},
     {0},
     {0},
     {0},
     {-0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,
      -0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,  -0.0,
      -3.5,  -3.5,  -3.5,  -3.5,  -3.5,  -3.5,  -3.5,  -3.5,  -3.5,  -3.5,  -3.5,  -3.5,  -3.5,  -3.5,  -3.5,  -3.5,
      -3.25, -3.25, -3.25, -3.25, -3.25, -3.25, -3.25, -3.25, -3.25, -3.25, -3.25, -3.25, -3.25, -3.25, -3.25, -3.25,
      -6,    -6,    -6,    -6,    -6,    -6,    -6,    -6,    -6,    -6,    -6,    -6,    -6,    -6,    -6,    -6,
      -5.5,  -5.5,  -5.5,  -5.5,  -5.5,  -5.5,  -5.5,  -5.5,  -5.5,  -5.5,  -5.5,  -5.5,  -5.5,  -5.5,  -5.5,  -5.5,
      -7.5,  -7.5,  -7.5,  -7.5,  -7.5,  -7.5,  -7.5,  -7.5,  -7.5,  -7.5,  -7.5,  -7.5,  -7.5,  -7.5,  -7.5,  -7.5,
      -6.75, -6.75, -6.75, -6.75, -6.75, -6.75, -6.75, -6.75, -6.75, -6.75, -6.75, -6.75, -6.75, -6.75, -6.75, -6.75,
      8,     8,     8,     8,     8,     8,     8,     8,     8,     8,     8,     8,     8,     8,     8,     8,
      7,     7,     7,     7,     7,     7,     7,     7,     7,     7,     7,     7,     7,     7,     7,     7,
      4.5,   4.5,   4.5,   4.5,   4.5,   4.5,   4.5,   4.5,   4.5,   4.5,   4.5,   4.5,   4.5,   4.5,   4.5,   4.5,
      3.75,  3.75,  3.75,  3.75,  3.75,  3.75,  3.75,  3.75,  3.75,  3.75,  3.75,  3.75,  3.75,  3.75,  3.75,  3.75,
      2,     2,     2,     2,     2,     2,     2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
      1.5,   1.5,   1.5,   1.5,   1.5,   1.5,   1.5,   1.5,   1.5,   1.5,   1.5,   1.5,   1.5,   1.5,   1.5,   1.5,
      0.5,   0.5,   0.5,   0.5,   0.5,   0.5,   0.5,   0.5,   0.5,   0.5,   0.5,   0.5,   0.5,   0.5,   0.5,   0.5,
      0.25,  0.25,  0.25,  0.25,  0.25,  0.25,  0.25,  0.25,  0.25,  0.25,  0.25,  0.25,  0.25,  0.25,  0.25,  0.25}},
    {"ov-compressed (OpenVINO): u8 [2, 8], groups of 4, f32 scales [[1, 0.5], [-2, 0.25]], one zero point 128; "
     "indices [1, 2, 0], 2 out of range: (q - zp) * scale, zeros",
     {.layout = CLG_QUANT_OV_COMPRESSED,
      .data = {CLG_QUANT_U8, 2, {2, 8}},
      .indices = {CLG_I64, 1, {3}},
      .scales = {CLG_F32, 2, {2, 2}},
      .zero_points = {CLG_QUANT_U8, 1, {1}}},
     {128, 129, 130, 131, 120, 124, 128, 132, 127, 128, 129, 130, 0, 4, 255, 128},
     {1.0f, 0.5f, -2.0f, 0.25f},
     {128},
     {1, 2, 0},
     {2, -0.0, -2, -4, -32, -31, 31.75, 0, 0,  0,  0, 0,
      0, 0,    0,  0,  0,   1,   2,     3, -4, -2, 0, 2}}, /* (128 - 128) * -2 is -0 */
    {"fbgemm-8bit-rowwise (PyTorch's embedding_bag_byte_prepack rows): u8 [2, 12], D 4: q bytes, f32 scale, f32 "
     "bias; row 0 q 0 1 2 255, scale 0.5, bias -1; row 1 q 10 20 30 40, scale 0.25, bias 2; indices [1, 0]: "
     "q * scale + bias, the product rounded, then the sum",
     {.layout = CLG_QUANT_FBGEMM_8BIT_ROWWISE, .data = {CLG_QUANT_U8, 2, {2, 12}}, .indices = {CLG_I64, 1, {2}}},
     {0,  1,  2,  255, 0x00, 0x00, 0x00, 0x3F, 0x00, 0x00, 0x80, 0xBF,  /* 0.5f, -1.0f little-endian */
      10, 20, 30, 40,  0x00, 0x00, 0x80, 0x3E, 0x00, 0x00, 0x00, 0x40}, /* 0.25f, 2.0f */
     {0},
     {0},
     {1, 0},
     {4.5, 7, 9.5, 12, -1, -0.5, 0, 126.5}},
    {"fbgemm-4bit-rowwise (PyTorch's embedding_bag_4bit_prepack rows): u8 [1, 7], D 6: bytes 0x10 0x32 0xF7 "
     "(q 0 1 2 3 7 15, low nibble first), f16 scale 0.5, f16 bias -2; indices [0]: q * scale + bias",
     {.layout = CLG_QUANT_FBGEMM_4BIT_ROWWISE, .data = {CLG_QUANT_U8, 2, {1, 7}}, .indices = {CLG_I64, 1, {1}}},
     {0x10, 0x32, 0xF7, 0x00, 0x38, 0x00, 0xC0}, /* f16 0.5 = 0x3800, -2 = 0xC000 */
     {0},
     {0},
     {0},
     {-2, -1.5, -1, -0.5, 1.5, 5.5}},
};

/* Input bytes of a case, each with its size from the descriptor. */
typedef struct demo_quantized_sizes {
    uint64_t data, indices, scales, zero_points, output;
} demo_quantized_sizes;

static int run_case(clg_context *ctx, int number, const demo_quantized_case *c)
{
    printf("[%2d] dequantizing gather: %s\n", number, c->title);
    demo_quantized_sizes n;
    int32_t rank = 0;
    int64_t shape[CLG_MAX_OUTPUT_RANK];
    clg_dtype type = CLG_DTYPE_INVALID;
    cli_tensor output = {0}, reference = {0}, expected = {0};
    char problem[1024] = "";
    clg_status st = clg_gather_quantized_output_shape(&c->desc, &rank, shape, &type);
    if (st == CLG_SUCCESS)
        st = clg_gather_quantized_sizes(&c->desc, &n.data, &n.indices, &n.scales, &n.zero_points, &n.output);
    if (st != CLG_SUCCESS) cli_fail_status(st, "clg_gather_quantized_sizes");
    if (st == CLG_SUCCESS && cli_tensor_alloc(&output, type, rank, shape, "output") == 0 &&
        cli_tensor_alloc(&reference, type, rank, shape, "reference output") == 0 &&
        cli_tensor_alloc(&expected, type, rank, shape, "expected output") == 0) {
        const void *zero_points = c->desc.zero_points.type ? c->zero_points : NULL;
        st = clg_gather_quantized(ctx, &c->desc, c->data, n.data, c->indices, n.indices, c->scales, n.scales,
                                  zero_points, n.zero_points, output.bytes, output.byte_size);
        if (st != CLG_SUCCESS) cli_fail_status(st, "clg_gather_quantized");
        clg_status ref_st =
            clg_gather_quantized_reference(&c->desc, c->data, n.data, c->indices, n.indices, c->scales, n.scales,
                                           zero_points, n.zero_points, reference.bytes, reference.byte_size);
        if (st == CLG_SUCCESS && ref_st != CLG_SUCCESS) cli_fail_status(ref_st, "clg_gather_quantized_reference");
        for (uint64_t i = 0; i < expected.count; ++i) { /* every expected value is exact in f32 */
            const float v = (float)c->expected[i];
            memcpy(expected.bytes + i * sizeof v, &v, sizeof v);
        }
    }
    cli_take_failure(problem, sizeof problem);
    if (!problem[0] && memcmp(output.bytes, reference.bytes, output.byte_size) != 0)
        snprintf(problem, sizeof problem, "differs from the CPU reference");
    else if (!problem[0] && memcmp(output.bytes, expected.bytes, output.byte_size) != 0)
        snprintf(problem, sizeof problem, "differs from the hand-checked values");
    if (output.bytes) {
        printf("     %-9s", "output");
        cli_print_tensor(stdout, &output, DEMO_PRINT_VALUES);
        printf("\n");
    }
    if (!problem[0]) {
        printf("     %-12s PASS  = reference = hand-checked values\n", clg_quant_layout_name(c->desc.layout));
    } else {
        printf("     %-12s FAIL  %s\n", clg_quant_layout_name(c->desc.layout), problem);
    }
    cli_tensor_free(&expected);
    cli_tensor_free(&reference);
    cli_tensor_free(&output);
    return problem[0] == '\0';
}

int demo_quantized_run(clg_context *ctx, int first_number, int *runs, int *passed)
{
    const int count = (int)(sizeof demo_cases / sizeof demo_cases[0]);
    for (int i = 0; i < count; ++i) {
        *runs += 1;
        *passed += run_case(ctx, first_number + i, &demo_cases[i]);
    }
    return count;
}
