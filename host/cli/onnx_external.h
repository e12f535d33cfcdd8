/* A TensorProto's external data (onnx.proto: data_location EXTERNAL, external_data entries "location",
 * "offset", "length", "checksum"): the tensor's bytes are a range of a file beside the model. The
 * location must be a relative path that stays inside the model's folder; the range must lie inside the
 * file; nothing is read before the tensor's shape has said how many bytes it needs. */
#ifndef CLI_ONNX_EXTERNAL_H
#define CLI_ONNX_EXTERNAL_H

#include "proto_wire.h"

#include <stdint.h>

typedef struct onnx_external {
    int entries;          /* external_data entries seen */
    proto_bytes location; /* the file, relative to the model's folder */
    uint64_t offset;      /* where the bytes start in it (default 0) */
    uint64_t length;      /* how many (default: to the end of the file, once resolved) */
    int has_length;
    char path[4096]; /* resolved: the folder and the location */
} onnx_external;

/* Take one external_data entry (a StringStringEntryProto message). Returns NULL, or why it is refused. */
const char *onnx_external_entry(onnx_external *e, proto_bytes entry);

/* Check the location against base_dir (NULL: the tensor has no folder to read from) and the range
 * against the file's size, and fill path and length. Returns NULL, or why it is refused (in reason). */
const char *onnx_external_resolve(onnx_external *e, const char *base_dir, char *reason, size_t reason_capacity);

/* Read the resolved range into dst (e->length bytes). Returns NULL, or why it failed. */
const char *onnx_external_read(const onnx_external *e, unsigned char *dst);

#endif
