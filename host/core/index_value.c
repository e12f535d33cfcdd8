#include "core/index_value.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

bool clg_dtype_is_integer(clg_dtype type)
{
    switch (type) {
    case CLG_I8:
    case CLG_U8:
    case CLG_I16:
    case CLG_U16:
    case CLG_I32:
    case CLG_U32:
    case CLG_I64:
    case CLG_U64: return true;
    default: return false;
    }
}

bool clg_dtype_is_signed_integer(clg_dtype type)
{
    return type == CLG_I8 || type == CLG_I16 || type == CLG_I32 || type == CLG_I64;
}

uint64_t clg_load_bits(const void *p, size_t size)
{
    /* memcpy: the caller's buffer need not be aligned for the type */
    uint8_t b8;
    uint16_t b16;
    uint32_t b32;
    uint64_t b64;
    switch (size) {
    case 1: memcpy(&b8, p, 1); return b8;
    case 2: memcpy(&b16, p, 2); return b16;
    case 4: memcpy(&b32, p, 4); return b32;
    default: memcpy(&b64, p, 8); return b64;
    }
}

int64_t clg_sign_extend(uint64_t bits, size_t size)
{
    switch (size) {
    case 1: return (int8_t)(uint8_t)bits;
    case 2: return (int16_t)(uint16_t)bits;
    case 4: return (int32_t)(uint32_t)bits;
    default: return (int64_t)bits;
    }
}

clg_integer clg_read_integer(const void *base, clg_dtype type, uint64_t pos)
{
    const size_t size = clg_dtype_size(type);
    const uint64_t bits = clg_load_bits((const unsigned char *)base + pos * size, size);
    clg_integer v = {.is_unsigned = !clg_dtype_is_signed_integer(type), .s = 0, .u = 0};
    if (v.is_unsigned)
        v.u = bits;
    else
        v.s = clg_sign_extend(bits, size);
    return v;
}

bool clg_index_in_range(clg_integer value, uint64_t A, uint64_t *row)
{
    if (value.is_unsigned) {
        if (value.u >= A) return false;
        *row = value.u;
        return true;
    }
    if (value.s >= 0) {
        if ((uint64_t)value.s >= A) return false;
        *row = (uint64_t)value.s;
        return true;
    }
    /* one wrap: A + s, done in unsigned arithmetic so INT64_MIN cannot overflow */
    uint64_t magnitude = (uint64_t)0 - (uint64_t)value.s;
    if (magnitude > A) return false;
    *row = A - magnitude;
    return true;
}

void clg_integer_format(clg_integer value, char *buf, size_t size)
{
    if (value.is_unsigned)
        snprintf(buf, size, "%" PRIu64, value.u);
    else
        snprintf(buf, size, "%" PRId64, value.s);
}

void clg_format_position(const int64_t *shape, int32_t rank, uint64_t flat, char *buf, size_t size)
{
    uint64_t coords[CLG_MAX_OUTPUT_RANK];
    for (int32_t d = rank - 1; d >= 0; --d) {
        uint64_t extent = shape[d] > 0 ? (uint64_t)shape[d] : 1;
        coords[d] = flat % extent;
        flat /= extent;
    }
    size_t used = 0;
    used += (size_t)snprintf(buf, size, "[");
    for (int32_t d = 0; d < rank && used < size; ++d)
        used += (size_t)snprintf(buf + used, size - used, d ? ", %" PRIu64 : "%" PRIu64, coords[d]);
    if (used < size) snprintf(buf + used, size - used, "]");
}

static const char *opencl_index_type(clg_dtype t)
{
    switch (t) {
    case CLG_I8: return "char";
    case CLG_U8: return "uchar";
    case CLG_I16: return "short";
    case CLG_U16: return "ushort";
    case CLG_I32: return "int";
    case CLG_U32: return "uint";
    case CLG_I64: return "long";
    default: return "ulong";
    }
}

void clg_index_rules_options(clg_dtype index_type, int offsets64, int clamp, char *buf, size_t size)
{
    snprintf(buf, size, "-DIDX_T=%s -DIDX_BYTES=%zu -DIDX_SIGNED=%d -DOFF64=%d -DCLAMP=%d",
             opencl_index_type(index_type), clg_dtype_size(index_type), clg_dtype_is_signed_integer(index_type) ? 1 : 0,
             offsets64, clamp);
}
