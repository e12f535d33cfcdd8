/* libFuzzer target: the ONNX protobuf reader (a Gather model, and a TensorProto) on arbitrary bytes. */
#include "cli_error.h"
#include "onnx_proto.h"

#include <stdint.h>
#include <stdlib.h>

/* every byte of an accepted tensor is read, so ASan sees an allocation that is too short */
static volatile unsigned char sink;

static void check_tensor(proto_bytes message)
{
    cli_tensor t;
    proto_bytes name;
    if (onnx_parse_tensor("tensor", message, &t, &name) == 0) {
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
