/* GGUF files (llama.cpp's model format, versions 2 and 3): the header, the metadata (walked and
 * checked; general.alignment kept), the tensor table, and each tensor's type, shape and bytes, all
 * checked against the file's size before anything reads them. A file that lies (offsets past the end,
 * counts that overflow, a type this reader does not know, misalignment, a name twice) is refused with
 * a message naming what is wrong and where; nothing is read outside the file's bytes. */
#ifndef CLI_GGUF_H
#define CLI_GGUF_H

#include <stddef.h>
#include <stdint.h>

#include "gguf_types.h"

enum { CLI_GGUF_MAX_DIMS = 4 }; /* ggml's GGML_MAX_DIMS */

typedef struct cli_gguf_tensor {
    const char *name;
    const cli_gguf_type *type;
    int32_t rank;
    int64_t shape[CLI_GGUF_MAX_DIMS]; /* outermost first, as NumPy has it (GGUF stores the innermost first) */
    uint64_t offset;                  /* of its first byte in the file */
    uint64_t bytes;
} cli_gguf_tensor;

typedef struct cli_gguf {
    uint32_t version;
    uint64_t metadata_count;
    uint64_t alignment; /* of every tensor's data, from general.alignment (default 32) */
    uint64_t tensor_count;
    cli_gguf_tensor *tensors;
    char *names; /* the tensors' names, NUL-terminated one after another */
    const unsigned char *bytes;
    size_t size;
    void *mapping; /* cli_gguf_open's: the file mapped read-only */
} cli_gguf;

/* Parse a GGUF file's `size` bytes (path names it in messages). Returns 0, or CLI_EXIT_REFUSED with the
 * failure recorded (cli_error.h) and *out empty. The tensors point into `bytes`, which must outlive them. */
int cli_gguf_parse(const char *path, const unsigned char *bytes, size_t size, cli_gguf *out);

/* Map the file at path read-only and parse it. Returns 0 or CLI_EXIT_REFUSED. */
int cli_gguf_open(const char *path, cli_gguf *out);

/* Release what parse or open made (safe on a zeroed struct). */
void cli_gguf_close(cli_gguf *g);

/* The tensor named `name`, or NULL. */
const cli_gguf_tensor *cli_gguf_find(const cli_gguf *g, const char *name);

#endif
