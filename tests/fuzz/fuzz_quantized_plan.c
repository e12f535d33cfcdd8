/* libFuzzer target: the dequantizing gather's validation and shape inference on fuzzer-chosen
 * descriptors, valid or not (scales and zero points mostly shaped as their layout asks, sometimes
 * not); where a descriptor is valid and small, the CPU reference runs over inputs of exactly the sizes
 * validation reported, holding fuzzer bytes (AddressSanitizer catches any access past them). */
#include "fuzz_input.h"

#include <stdlib.h>
#include <string.h>

enum { LIMIT = 1 << 16 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size};
    clg_gather_quantized_desc d;
    fuzz_gather_quantized_desc(&in, &d);
    int32_t rank = -1;
    int64_t shape[CLG_MAX_OUTPUT_RANK];
    clg_dtype out_type = CLG_DTYPE_INVALID;
    uint64_t bytes[5];
    const clg_status a = clg_gather_quantized_output_shape(&d, &rank, shape, &out_type);
    const clg_status b = clg_gather_quantized_sizes(&d, &bytes[0], &bytes[1], &bytes[2], &bytes[3], &bytes[4]);
    if (a != b) abort(); /* one validation behind both */
    if (a != CLG_SUCCESS) {
        if (clg_last_error_message()[0] == '\0') abort(); /* every refusal explains itself */
        return 0;
    }
    if (rank < 0 || rank > CLG_MAX_OUTPUT_RANK) abort();
    if (out_type != CLG_F32 && out_type != CLG_F16 && out_type != CLG_BF16) abort();
    uint64_t elems = 1;
    for (int32_t k = 0; k < rank; ++k) {
        if (shape[k] < 0) abort();
        elems = shape[k] == 0 ? 0 : (elems > UINT64_MAX / (uint64_t)shape[k] ? UINT64_MAX : elems * (uint64_t)shape[k]);
    }
    if (elems != UINT64_MAX && elems * clg_dtype_size(out_type) != bytes[4]) abort();
    for (int k = 0; k < 5; ++k)
        if (bytes[k] > LIMIT) return 0;
    void *inputs[4];
    for (int k = 0; k < 4; ++k) inputs[k] = fuzz_alloc_filled(&in, (size_t)bytes[k]);
    void *out = malloc(bytes[4] ? bytes[4] : 1);
    const size_t n[5] = {(size_t)bytes[0], (size_t)bytes[1], (size_t)bytes[2], (size_t)bytes[3], (size_t)bytes[4]};
    if (n[4] && clg_gather_quantized_reference(&d, inputs[0], n[0], inputs[1], n[1], inputs[2], n[2], inputs[3], n[3],
                                               out, n[4] - 1) != CLG_ERR_BUFFER_TOO_SMALL)
        abort();
    const clg_status st = clg_gather_quantized_reference(&d, inputs[0], n[0], inputs[1], n[1], inputs[2], n[2],
                                                         inputs[3], n[3], out, n[4]);
    if (st != CLG_SUCCESS && st != CLG_ERR_INDEX_OUT_OF_RANGE) abort();
    for (int k = 0; k < 4; ++k) free(inputs[k]);
    free(out);
    return 0;
}
