#define _POSIX_C_SOURCE 200809L /* pread */
#include "onnx_external.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { ENTRY_KEY = 1, ENTRY_VALUE = 2, MAX_LOCATION_BYTES = 1024 };

/* A decimal count as ONNX writes offset and length: digits only, no sign, at most UINT64_MAX. */
static int parse_count(proto_bytes text, uint64_t *out)
{
    if (text.len == 0 || text.len > 20) return -1;
    uint64_t v = 0;
    for (size_t k = 0; k < text.len; ++k) {
        const unsigned char c = text.data[k];
        if (c < '0' || c > '9' || v > (UINT64_MAX - (uint64_t)(c - '0')) / 10) return -1;
        v = v * 10 + (uint64_t)(c - '0');
    }
    *out = v;
    return 0;
}

const char *onnx_external_entry(onnx_external *e, proto_bytes entry)
{
    proto_reader r = proto_reader_over(entry);
    proto_field f;
    proto_bytes key = {NULL, 0}, value = {NULL, 0};
    int got;
    while ((got = proto_next_field(&r, &f)) > 0) {
        if (f.number != ENTRY_KEY && f.number != ENTRY_VALUE) continue;
        if (f.wire_type != PROTO_BYTES) return "an external_data entry's key or value is not a string";
        if (f.number == ENTRY_KEY)
            key = f.bytes;
        else
            value = f.bytes;
    }
    if (got < 0) return r.error;
    ++e->entries;
    if (proto_bytes_equal(key, "location")) {
        e->location = value;
    } else if (proto_bytes_equal(key, "offset")) {
        if (parse_count(value, &e->offset) != 0) return "external_data offset is not a decimal count";
    } else if (proto_bytes_equal(key, "length")) {
        if (parse_count(value, &e->length) != 0) return "external_data length is not a decimal count";
        e->has_length = 1;
    }
    /* checksum, and keys onnx.proto may add later, say nothing about where the bytes are */
    return NULL;
}

/* A relative path of plain components: no leading '/', no "..", no backslash or NUL. */
static const char *check_location(proto_bytes location)
{
    if (location.len == 0) return "external data without a location";
    if (location.len > MAX_LOCATION_BYTES) return "an external data location longer than 1024 bytes";
    if (memchr(location.data, 0, location.len) || memchr(location.data, '\\', location.len))
        return "an external data location with a NUL or a backslash";
    if (location.data[0] == '/') return "an absolute external data location (it must be relative to the model)";
    for (size_t start = 0; start < location.len;) {
        size_t end = start;
        while (end < location.len && location.data[end] != '/') ++end;
        if (end - start == 2 && location.data[start] == '.' && location.data[start + 1] == '.')
            return "an external data location with a '..' component (it must stay beside the model)";
        start = end + 1;
    }
    return NULL;
}

const char *onnx_external_resolve(onnx_external *e, const char *base_dir, char *reason, size_t reason_capacity)
{
    const char *why = check_location(e->location);
    if (why) return why;
    if (!base_dir) return "external data where no model folder is known to read it from";
    const int n =
        snprintf(e->path, sizeof e->path, "%s/%.*s", base_dir, (int)e->location.len, (const char *)e->location.data);
    if (n < 0 || (size_t)n >= sizeof e->path) return "an external data path longer than 4096 bytes";
    struct stat info;
    if (stat(e->path, &info) != 0 || !S_ISREG(info.st_mode)) {
        snprintf(reason, reason_capacity, "external data file '%s' is not a readable file", e->path);
        return reason;
    }
    const uint64_t size = (uint64_t)info.st_size;
    if (e->offset > size || (e->has_length && e->length > size - e->offset)) {
        snprintf(reason, reason_capacity, "external data range [%llu, +%llu) lies past the end of '%s' (%llu bytes)",
                 (unsigned long long)e->offset, (unsigned long long)e->length, e->path, (unsigned long long)size);
        return reason;
    }
    if (!e->has_length) e->length = size - e->offset;
    return NULL;
}

const char *onnx_external_read(const onnx_external *e, unsigned char *dst)
{
    const int fd = open(e->path, O_RDONLY);
    if (fd < 0) return "the external data file cannot be opened";
    uint64_t done = 0;
    while (done < e->length) {
        const ssize_t got = pread(fd, dst + done, (size_t)(e->length - done), (off_t)(e->offset + done));
        if (got <= 0) break; /* a file that shrank since it was resolved */
        done += (uint64_t)got;
    }
    close(fd);
    return done == e->length ? NULL : "the external data file ended before its range did";
}
