/* libFuzzer target: the .npy reader of the command-line tool on arbitrary bytes. */
#include "cli_error.h"
#include "npy.h"

#include <stdint.h>
#include <stdlib.h>

/* every byte of an accepted tensor is read, so ASan sees an allocation that is too short */
static volatile unsigned char sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cli_tensor t;
    if (cli_npy_parse("data", "fuzz.npy", data, size, &t) == 0) {
        /* what the reader accepted must be self-consistent and fully readable */
        if (t.byte_size != t.count * clg_dtype_size(t.type)) abort();
        unsigned char sum = 0;
        for (size_t k = 0; k < t.byte_size; ++k) sum ^= t.bytes[k];
        sink = sum;
        cli_tensor_free(&t);
    }
    char message[512];
    cli_take_failure(message, sizeof message);
    return 0;
}
