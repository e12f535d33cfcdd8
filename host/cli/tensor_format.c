#include "tensor_format.h"

#include <math.h>
#include <string.h>

static double half_to_double(uint16_t bits)
{
    int sign = bits >> 15, exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
    double value;
    if (exponent == 0)
        value = ldexp(mantissa, -24);
    else if (exponent == 31)
        value = mantissa ? NAN : INFINITY;
    else
        value = ldexp(mantissa + 1024, exponent - 25);
    return sign ? -value : value;
}

static double bf16_to_double(uint16_t bits)
{
    uint32_t wide = (uint32_t)bits << 16;
    float value;
    memcpy(&value, &wide, sizeof value);
    return value;
}

void cli_format_element(const cli_tensor *t, uint64_t index, char *text, size_t capacity)
{
    const unsigned char *p = t->bytes + index * clg_dtype_size(t->type);
    union {
        int8_t i8;
        uint8_t u8;
        int16_t i16;
        uint16_t u16;
        int32_t i32;
        uint32_t u32;
        int64_t i64;
        uint64_t u64;
        float f32[2];
        double f64[2];
    } v;
    memcpy(&v, p, clg_dtype_size(t->type));
    switch (t->type) {
    case CLG_BOOL: snprintf(text, capacity, "%s", v.u8 ? "true" : "false"); break;
    case CLG_I8: snprintf(text, capacity, "%d", v.i8); break;
    case CLG_U8: snprintf(text, capacity, "%u", v.u8); break;
    case CLG_I16: snprintf(text, capacity, "%d", v.i16); break;
    case CLG_U16: snprintf(text, capacity, "%u", v.u16); break;
    case CLG_I32: snprintf(text, capacity, "%ld", (long)v.i32); break;
    case CLG_U32: snprintf(text, capacity, "%lu", (unsigned long)v.u32); break;
    case CLG_I64: snprintf(text, capacity, "%lld", (long long)v.i64); break;
    case CLG_U64: snprintf(text, capacity, "%llu", (unsigned long long)v.u64); break;
    case CLG_F16: snprintf(text, capacity, "%g", half_to_double(v.u16)); break;
    case CLG_BF16: snprintf(text, capacity, "%g", bf16_to_double(v.u16)); break;
    case CLG_F32: snprintf(text, capacity, "%g", (double)v.f32[0]); break;
    case CLG_F64: snprintf(text, capacity, "%g", v.f64[0]); break;
    case CLG_C64: snprintf(text, capacity, "(%g%+gj)", (double)v.f32[0], (double)v.f32[1]); break;
    case CLG_C128: snprintf(text, capacity, "(%g%+gj)", v.f64[0], v.f64[1]); break;
    default: snprintf(text, capacity, "?"); break;
    }
}

void cli_print_tensor(FILE *out, const cli_tensor *t, uint64_t max_values)
{
    char shape[256];
    cli_format_shape(t->rank, t->shape, shape, sizeof shape);
    fprintf(out, "%s %s", clg_dtype_name(t->type), shape);
    if (t->count > max_values) {
        fprintf(out, " (%llu values, not shown)", (unsigned long long)t->count);
        return;
    }
    fputc(' ', out);
    if (t->rank == 0) {
        char text[96];
        cli_format_element(t, 0, text, sizeof text);
        fputs(text, out);
        return;
    }
    if (t->count == 0) {
        fputs("[]", out);
        return;
    }
    /* open a bracket for every dimension whose index wraps to 0, close for every one that ends */
    int64_t position[CLG_MAX_OUTPUT_RANK] = {0};
    for (uint64_t e = 0; e < t->count; ++e) {
        int32_t opening = 0;
        for (int32_t d = t->rank - 1; d >= 0 && position[d] == 0; --d) ++opening;
        if (e > 0) fputs(", ", out);
        for (int32_t k = 0; k < opening; ++k) fputc('[', out);
        char text[96];
        cli_format_element(t, e, text, sizeof text);
        fputs(text, out);
        int32_t d = t->rank - 1;
        for (; d >= 0; --d) {
            if (++position[d] < t->shape[d]) break;
            position[d] = 0;
            fputc(']', out);
        }
    }
}
