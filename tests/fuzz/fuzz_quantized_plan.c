/* libFuzzer target: the dequantizing gather's validation and shape inference on fuzzer-chosen
 * descriptors, valid or not (scales and zero points mostly shaped as their layout asks, sometimes
 * not); where a descriptor is valid and small, the CPU reference runs over inputs of exactly the sizes
 * validation reported, holding fuzzer bytes (AddressSanitizer catches any access past them). */
#include "fuzz_input.h"

#include <stdlib.h>
#include <string.h>

enum { LIMIT = 1 << 16 };

static int64_t blocks_of(int64_t values, int64_t block)
{
    return block > 0 ? values / block + (values % block != 0) : 0;
}

static clg_quant_type fuzz_quant_type(fuzz_input *in)
{
    const uint8_t b = fuzz_u8(in);
    return b == 255 ? (clg_quant_type)33 : (clg_quant_type)(b % CLG_QUANT_TYPE_COUNT);
}

static void fuzz_quant_desc(fuzz_input *in, clg_gather_quantized_desc *d)
{
    memset(d, 0, sizeof *d);
    const uint8_t layout = fuzz_u8(in);
    d->layout = layout == 255 ? (clg_quant_layout)21 : (clg_quant_layout)(layout % CLG_QUANT_LAYOUT_COUNT);
    d->data.type = fuzz_quant_type(in);
    const uint8_t r = fuzz_u8(in);
    d->data.rank = r == 255 ? CLG_MAX_RANK + 1 : r % 5;
    for (int32_t k = 0; k < d->data.rank && k < CLG_MAX_RANK; ++k) d->data.shape[k] = fuzz_dim(in);
    d->indices.type = (clg_dtype)(fuzz_u8(in) % CLG_DTYPE_COUNT);
    d->indices.rank = fuzz_u8(in) % 3;
    for (int32_t k = 0; k < d->indices.rank; ++k) d->indices.shape[k] = fuzz_dim(in);
    d->bits = (int32_t)(int8_t)fuzz_u8(in) % 10;
    const uint8_t bs = fuzz_u8(in);
    d->block_size = bs < 100 ? 0 : bs < 200 ? (int64_t)16 << (bs % 4) : (int64_t)(int8_t)bs;
    d->gather_axis = (int64_t)(int8_t)fuzz_u8(in) % 6;
    d->quantize_axis = (int64_t)(int8_t)fuzz_u8(in) % 6;
    d->output_type = (clg_dtype)(fuzz_u8(in) % CLG_DTYPE_COUNT);
    const uint8_t policy = fuzz_u8(in);
    d->oob_policy = policy == 255 ? (clg_oob_policy)8 : (clg_oob_policy)(policy % CLG_OOB_COUNT);

    /* scales: as the layout asks (flags bit 0), with a zero-point tensor like them (bit 1) or of one
     * value (bit 2); otherwise fuzzer-chosen shapes */
    const uint8_t flags = fuzz_u8(in);
    const int ggml = d->layout == CLG_QUANT_GGML_Q4_0 || d->layout == CLG_QUANT_GGML_Q8_0;
    if (!ggml || (flags & 8)) d->scales.type = (clg_dtype)(fuzz_u8(in) % CLG_DTYPE_COUNT);
    const int32_t rank = d->data.rank >= 1 && d->data.rank <= CLG_MAX_RANK ? d->data.rank : 1;
    if (flags & 1) {
        d->scales.rank = rank;
        memcpy(d->scales.shape, d->data.shape, sizeof d->scales.shape);
        int32_t q = (int32_t)(d->quantize_axis < 0 ? d->quantize_axis + rank : d->quantize_axis);
        if (d->layout == CLG_QUANT_OV_COMPRESSED || q < 0 || q >= rank) q = rank - 1;
        const int64_t values = d->data.type == CLG_QUANT_U8 && d->bits != 8 && d->layout == CLG_QUANT_ORT_BLOCK &&
                                       d->data.shape[q] >= 0 && d->data.shape[q] < INT64_MAX / 2
                                   ? 2 * d->data.shape[q]
                                   : d->data.shape[q];
        const int64_t block = d->block_size ? d->block_size : 128;
        d->scales.shape[q] = d->layout == CLG_QUANT_OV_COMPRESSED ? 1 + fuzz_u8(in) % 4 : blocks_of(values, block);
    } else if (!ggml) {
        d->scales.rank = fuzz_u8(in) % 4;
        for (int32_t k = 0; k < d->scales.rank; ++k) d->scales.shape[k] = fuzz_dim(in);
    }
    if (flags & 6) {
        d->zero_points.type = flags & 16 ? fuzz_quant_type(in) : d->data.type;
        if (flags & 2) {
            d->zero_points.rank = d->scales.rank;
            memcpy(d->zero_points.shape, d->scales.shape, sizeof d->zero_points.shape);
            if (d->layout == CLG_QUANT_ORT_BLOCK && d->data.type == CLG_QUANT_U8 && d->bits != 8 && d->scales.rank > 0)
                d->zero_points.shape[d->scales.rank - 1] = blocks_of(d->scales.shape[d->scales.rank - 1], 2);
        } else {
            d->zero_points.rank = fuzz_u8(in) % 2;
            d->zero_points.shape[0] = 1;
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size};
    clg_gather_quantized_desc d;
    fuzz_quant_desc(&in, &d);
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
