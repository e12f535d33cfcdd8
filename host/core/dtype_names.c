/* Names and sizes of element types. */
#include "clgather.h"

#include <string.h>

static const struct {
    const char *name;
    size_t size;
} dtype_table[CLG_DTYPE_COUNT] = {
    [CLG_DTYPE_INVALID] = {"invalid", 0},
    [CLG_BOOL] = {"bool", 1},
    [CLG_I8] = {"i8", 1},
    [CLG_U8] = {"u8", 1},
    [CLG_I16] = {"i16", 2},
    [CLG_U16] = {"u16", 2},
    [CLG_I32] = {"i32", 4},
    [CLG_U32] = {"u32", 4},
    [CLG_I64] = {"i64", 8},
    [CLG_U64] = {"u64", 8},
    [CLG_F16] = {"f16", 2},
    [CLG_BF16] = {"bf16", 2},
    [CLG_F32] = {"f32", 4},
    [CLG_F64] = {"f64", 8},
    [CLG_C64] = {"c64", 8},
    [CLG_C128] = {"c128", 16},
};

static int dtype_valid(clg_dtype type) { return (int)type > 0 && (int)type < (int)CLG_DTYPE_COUNT; }

size_t clg_dtype_size(clg_dtype type) { return dtype_valid(type) ? dtype_table[type].size : 0; }

const char *clg_dtype_name(clg_dtype type) { return dtype_valid(type) ? dtype_table[type].name : "invalid"; }

clg_dtype clg_dtype_from_name(const char *name)
{
    if (!name) return CLG_DTYPE_INVALID;
    for (int t = 1; t < (int)CLG_DTYPE_COUNT; ++t)
        if (strcmp(dtype_table[t].name, name) == 0) return (clg_dtype)t;
    return CLG_DTYPE_INVALID;
}
