/* libFuzzer target: the GGUF reader of the command-line tool on arbitrary bytes. */
#include "cli_error.h"
#include "gguf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* every byte of every accepted tensor is read, so ASan sees a tensor that reaches past the input */
static volatile unsigned char sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cli_gguf g;
    if (cli_gguf_parse("fuzz.gguf", data, size, &g) == 0) {
        unsigned char sum = 0;
        for (uint64_t k = 0; k < g.tensor_count; ++k) {
            const cli_gguf_tensor *t = &g.tensors[k];
            /* what the reader accepted must be self-consistent */
            if (t->offset > size || t->bytes > size - t->offset || t->offset % g.alignment != 0) abort();
            if (t->rank < 1 || t->rank > CLI_GGUF_MAX_DIMS || !t->type || !t->name[0]) abort();
            if (cli_gguf_find(&g, t->name) != t) abort(); /* names are unique */
            for (uint64_t b = 0; b < t->bytes; ++b) sum ^= data[t->offset + b];
        }
        sink = sum;
        cli_gguf_close(&g);
    }
    char message[512];
    cli_take_failure(message, sizeof message);
    return 0;
}
