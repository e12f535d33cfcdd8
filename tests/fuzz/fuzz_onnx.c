/* libFuzzer target: the ONNX protobuf reader (a Gather model, and a TensorProto) on arbitrary bytes,
 * 4-bit tensors and external data included: the latter read from a folder made at start-up holding
 * weights.bin (4 KiB), the name the seeds' external tensors give. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "cli_error.h"
#include "onnx_proto.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* every byte of an accepted tensor is read, so ASan sees an allocation that is too short */
static volatile unsigned char sink;
static char folder[64] = "/tmp/clgather-fuzz-onnx-XXXXXX";
static const char *external_folder; /* NULL: the folder could not be made; external data is refused */

static char weights[128];

static void remove_folder(void)
{
    unlink(weights);
    rmdir(folder);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (!mkdtemp(folder)) return 0;
    atexit(remove_folder);
    snprintf(weights, sizeof weights, "%s/weights.bin", folder);
    FILE *f = fopen(weights, "wb");
    if (!f) return 0;
    for (int k = 0; k < 4096; ++k) fputc(k * 37 & 0xFF, f);
    if (fclose(f) == 0) external_folder = folder;
    return 0;
}

static void check_tensor(proto_bytes message)
{
    cli_tensor t;
    proto_bytes name;
    onnx_packed_info packed;
    if (onnx_parse_tensor_packed("tensor", message, external_folder, &t, &name, &packed) == 0) {
        if (t.byte_size != t.count * clg_dtype_size(t.type)) abort();
        unsigned char sum = 0;
        for (size_t k = 0; k < t.byte_size; ++k) sum ^= t.bytes[k];
        sink = sum;
        cli_tensor_free(&t);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char message[512];
    onnx_gather_model model;
    if (onnx_parse_gather_model("model", data, size, &model) == 0)
        for (int k = 0; k < model.initializer_count; ++k) check_tensor(model.initializers[k]);
    cli_take_failure(message, sizeof message);
    proto_bytes whole = {data, size};
    check_tensor(whole);
    cli_take_failure(message, sizeof message);
    return 0;
}
