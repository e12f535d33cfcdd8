/* Names of the dequantizing gather's layouts and quantized types. */
#include "clgather.h"

#include <string.h>

static const char *const layout_names[CLG_QUANT_LAYOUT_COUNT] = {
    [CLG_QUANT_LAYOUT_INVALID] = "invalid",
    [CLG_QUANT_ORT_BLOCK] = "ort-block",
    [CLG_QUANT_GGML_Q4_0] = "ggml-q4_0",
    [CLG_QUANT_GGML_Q8_0] = "ggml-q8_0",
    [CLG_QUANT_OV_COMPRESSED] = "ov-compressed",
    [CLG_QUANT_GGML_Q4_1] = "ggml-q4_1",
    [CLG_QUANT_GGML_Q5_0] = "ggml-q5_0",
    [CLG_QUANT_GGML_Q5_1] = "ggml-q5_1",
    [CLG_QUANT_GGML_IQ4_NL] = "ggml-iq4_nl",
    [CLG_QUANT_GGML_Q2_K] = "ggml-q2_K",
    [CLG_QUANT_GGML_Q3_K] = "ggml-q3_K",
    [CLG_QUANT_GGML_Q4_K] = "ggml-q4_K",
    [CLG_QUANT_GGML_Q5_K] = "ggml-q5_K",
    [CLG_QUANT_GGML_Q6_K] = "ggml-q6_K",
    [CLG_QUANT_GGML_IQ4_XS] = "ggml-iq4_xs",
    [CLG_QUANT_FBGEMM_8BIT_ROWWISE] = "fbgemm-8bit-rowwise",
    [CLG_QUANT_FBGEMM_4BIT_ROWWISE] = "fbgemm-4bit-rowwise",
};

static const char *const type_names[CLG_QUANT_TYPE_COUNT] = {
    [CLG_QUANT_TYPE_INVALID] = "invalid",
    [CLG_QUANT_U4] = "u4",
    [CLG_QUANT_I4] = "i4",
    [CLG_QUANT_U8] = "u8",
    [CLG_QUANT_I8] = "i8",
};

static int lookup(const char *const *names, int count, const char *name)
{
    if (!name) return 0;
    for (int k = 1; k < count; ++k)
        if (strcmp(names[k], name) == 0) return k;
    return 0;
}

const char *clg_quant_layout_name(clg_quant_layout layout)
{
    return (int)layout > 0 && (int)layout < (int)CLG_QUANT_LAYOUT_COUNT ? layout_names[layout] : "invalid";
}

clg_quant_layout clg_quant_layout_from_name(const char *name)
{
    return (clg_quant_layout)lookup(layout_names, CLG_QUANT_LAYOUT_COUNT, name);
}

const char *clg_quant_type_name(clg_quant_type type)
{
    return (int)type > 0 && (int)type < (int)CLG_QUANT_TYPE_COUNT ? type_names[type] : "invalid";
}

clg_quant_type clg_quant_type_from_name(const char *name)
{
    return (clg_quant_type)lookup(type_names, CLG_QUANT_TYPE_COUNT, name);
}
