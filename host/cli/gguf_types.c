/* ggml's tensor types (ggml.h's enum ggml_type, ggml-common.h's blocks). */
#include "gguf_types.h"

#include <stddef.h>
#include <string.h>

#define NONE CLI_GGUF_NO_FIELD

static const cli_gguf_type types[] = {
    {0, "f32", 1, 4, {NONE, NONE}},       {1, "f16", 1, 2, {NONE, NONE}},       {2, "q4_0", 32, 18, {0, NONE}},
    {3, "q4_1", 32, 20, {0, 2}},          {6, "q5_0", 32, 22, {0, NONE}},       {7, "q5_1", 32, 24, {0, 2}},
    {8, "q8_0", 32, 34, {0, NONE}},       {9, "q8_1", 32, 36, {0, 2}},          {10, "q2_K", 256, 84, {80, 82}},
    {11, "q3_K", 256, 110, {108, NONE}},  {12, "q4_K", 256, 144, {0, 2}},       {13, "q5_K", 256, 176, {0, 2}},
    {14, "q6_K", 256, 210, {208, NONE}},  {15, "q8_K", 256, 292, {NONE, NONE}}, {16, "iq2_xxs", 256, 66, {0, NONE}},
    {17, "iq2_xs", 256, 74, {0, NONE}},   {18, "iq3_xxs", 256, 98, {0, NONE}},  {19, "iq1_s", 256, 50, {0, NONE}},
    {20, "iq4_nl", 32, 18, {0, NONE}},    {21, "iq3_s", 256, 110, {0, NONE}},   {22, "iq2_s", 256, 82, {0, NONE}},
    {23, "iq4_xs", 256, 136, {0, NONE}},  {24, "i8", 1, 1, {NONE, NONE}},       {25, "i16", 1, 2, {NONE, NONE}},
    {26, "i32", 1, 4, {NONE, NONE}},      {27, "i64", 1, 8, {NONE, NONE}},      {28, "f64", 1, 8, {NONE, NONE}},
    {29, "iq1_m", 256, 56, {NONE, NONE}}, {30, "bf16", 1, 2, {NONE, NONE}},     {34, "tq1_0", 256, 54, {52, NONE}},
    {35, "tq2_0", 256, 66, {64, NONE}},   {39, "mxfp4", 32, 17, {NONE, NONE}},
};

const cli_gguf_type *cli_gguf_type_of(uint32_t id)
{
    for (size_t k = 0; k < sizeof types / sizeof types[0]; ++k)
        if (types[k].id == id) return &types[k];
    return NULL;
}

const cli_gguf_type *cli_gguf_type_named(const char *name)
{
    for (size_t k = 0; k < sizeof types / sizeof types[0]; ++k)
        if (!strcmp(types[k].name, name)) return &types[k];
    return NULL;
}
