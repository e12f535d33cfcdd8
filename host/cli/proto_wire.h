/* A reader of the protobuf wire format over an untrusted byte buffer: every varint and length is
 * checked against the bytes that remain, nothing recurses, and nothing is copied. */
#ifndef CLI_PROTO_WIRE_H
#define CLI_PROTO_WIRE_H

#include <stddef.h>
#include <stdint.h>

enum { PROTO_VARINT = 0, PROTO_FIXED64 = 1, PROTO_BYTES = 2, PROTO_FIXED32 = 5 };

/* A span of bytes inside the buffer being read. */
typedef struct proto_bytes {
    const unsigned char *data;
    size_t len;
} proto_bytes;

typedef struct proto_reader {
    const unsigned char *data;
    size_t len;
    size_t pos;
    const char *error; /* static text describing the first failure, NULL while none */
} proto_reader;

/* One field: its number, wire type and value (varint/fixed in .number, bytes in .bytes). */
typedef struct proto_field {
    uint32_t number;
    int wire_type;
    uint64_t number_value;
    proto_bytes bytes;
} proto_field;

static inline proto_reader proto_reader_over(proto_bytes span)
{
    proto_reader r = {span.data, span.len, 0, NULL};
    return r;
}

/* Read the next field of a message. Returns 1 when a field was read, 0 at the clean end of the
 * message, -1 on malformed input (r->error says why, the offset is r->pos). */
int proto_next_field(proto_reader *r, proto_field *field);

/* Read a varint from a packed span; same returns as proto_next_field. */
int proto_read_varint(proto_reader *r, uint64_t *value);

/* Whether a span equals a NUL-terminated string. */
int proto_bytes_equal(proto_bytes span, const char *text);

#endif
