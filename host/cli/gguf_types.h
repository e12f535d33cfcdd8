/* ggml's tensor types as GGUF numbers them: each type's block (values and bytes) and, for the block
 * formats the dequantizing gather reads, where a block keeps its f16 scale fields. Shared by the GGUF
 * reader and the benchmark's case table, which makes tables of any ggml layout. */
#ifndef CLI_GGUF_TYPES_H
#define CLI_GGUF_TYPES_H

#include <stdint.h>

enum { CLI_GGUF_NO_FIELD = 0xFFFF };

typedef struct cli_gguf_type {
    uint32_t id;
    const char *name; /* ggml's: "q4_0", "q6_K", "iq4_xs", "f16", ... */
    uint32_t block_values;
    uint32_t block_bytes;
    /* byte offsets of the block's f16 fields (d, then dmin or m) where it has them, else CLI_GGUF_NO_FIELD */
    uint16_t f16_fields[2];
} cli_gguf_type;

/* The type GGUF numbers `id`, or NULL for a number this reader does not know. */
const cli_gguf_type *cli_gguf_type_of(uint32_t id);

/* The type ggml names `name` ("q4_K"), or NULL. */
const cli_gguf_type *cli_gguf_type_named(const char *name);

#endif /* CLI_GGUF_TYPES_H */
