#include "proto_wire.h"

#include "byte_order.h"

#include <string.h>

int proto_read_varint(proto_reader *r, uint64_t *value)
{
    uint64_t result = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        if (r->pos >= r->len) {
            r->error = "truncated varint";
            return -1;
        }
        unsigned char byte = r->data[r->pos++];
        /* the tenth byte may only carry the top bit of a 64-bit value */
        if (shift == 63 && (byte & 0x7e)) {
            r->error = "varint overflows 64 bits";
            return -1;
        }
        result |= (uint64_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80)) {
            *value = result;
            return 1;
        }
    }
    r->error = "varint longer than 10 bytes";
    return -1;
}

int proto_next_field(proto_reader *r, proto_field *field)
{
    if (r->pos >= r->len) return 0;
    uint64_t key = 0;
    if (proto_read_varint(r, &key) < 0) return -1;
    uint64_t number = key >> 3;
    if (number == 0 || number > 0x1fffffff) {
        r->error = "invalid field number";
        return -1;
    }
    memset(field, 0, sizeof *field);
    field->number = (uint32_t)number;
    field->wire_type = (int)(key & 7);
    switch (field->wire_type) {
    case PROTO_VARINT: return proto_read_varint(r, &field->number_value) < 0 ? -1 : 1;
    case PROTO_FIXED64:
        if (r->len - r->pos < 8) {
            r->error = "truncated fixed64 field";
            return -1;
        }
        field->number_value = cli_load_le64(r->data + r->pos);
        r->pos += 8;
        return 1;
    case PROTO_FIXED32:
        if (r->len - r->pos < 4) {
            r->error = "truncated fixed32 field";
            return -1;
        }
        field->number_value = cli_load_le32(r->data + r->pos);
        r->pos += 4;
        return 1;
    case PROTO_BYTES: {
        uint64_t length = 0;
        if (proto_read_varint(r, &length) < 0) return -1;
        if (length > r->len - r->pos) {
            r->error = "length-delimited field runs past the end of its message";
            return -1;
        }
        field->bytes.data = r->data + r->pos;
        field->bytes.len = (size_t)length;
        r->pos += (size_t)length;
        return 1;
    }
    default:
        /* groups (3, 4) are deprecated and never used by ONNX; 6 and 7 do not exist */
        r->error = "unsupported wire type";
        return -1;
    }
}

int proto_bytes_equal(proto_bytes span, const char *text)
{
    size_t n = strlen(text);
    return span.len == n && (n == 0 || memcmp(span.data, text, n) == 0);
}
