/* libFuzzer target: descriptor validation and shape inference on fuzzer-chosen descriptors, valid or
 * not; where a descriptor is valid and small, the CPU reference runs over buffers of exactly the
 * sizes validation reported (AddressSanitizer catches any access past them). */
#include "fuzz_input.h"

#include <stdlib.h>
#include <string.h>

enum { LIMIT = 1 << 16 };

static void gather_case(fuzz_input *in)
{
    clg_gather_desc d;
    uint64_t axis_storage[2];
    fuzz_gather_desc(in, &d, axis_storage);
    int32_t rank = -1;
    int64_t shape[CLG_MAX_OUTPUT_RANK];
    uint64_t data_bytes, index_bytes, out_bytes;
    clg_status a = clg_gather_output_shape(&d, &rank, shape);
    clg_status b = clg_gather_sizes(&d, &data_bytes, &index_bytes, &out_bytes);
    if (a != b) abort(); /* one validation behind both */
    if (a != CLG_SUCCESS) {
        if (clg_last_error_message()[0] == '\0') abort(); /* every refusal explains itself */
        return;
    }
    if (rank < 0 || rank > CLG_MAX_OUTPUT_RANK) abort();
    uint64_t elems = 1;
    for (int32_t k = 0; k < rank; ++k) {
        if (shape[k] < 0) abort();
        elems = shape[k] == 0 ? 0 : (elems > UINT64_MAX / (uint64_t)shape[k] ? UINT64_MAX : elems * (uint64_t)shape[k]);
    }
    if (elems != UINT64_MAX && elems * clg_dtype_size(d.data.type) != out_bytes) abort();
    if (data_bytes > LIMIT || index_bytes > LIMIT || out_bytes > LIMIT) return;
    void *data = fuzz_alloc_filled(in, data_bytes), *idx = fuzz_alloc_filled(in, index_bytes);
    void *out = malloc(out_bytes ? out_bytes : 1);
    if (out_bytes &&
        clg_gather_reference(&d, data, data_bytes, idx, index_bytes, out, out_bytes - 1) != CLG_ERR_BUFFER_TOO_SMALL)
        abort();
    clg_status st = clg_gather_reference(&d, data, data_bytes, idx, index_bytes, out, out_bytes);
    if (st != CLG_SUCCESS && st != CLG_ERR_INDEX_OUT_OF_RANGE) abort();
    free(data);
    free(idx);
    free(out);
}

static void gather_tree_case(fuzz_input *in)
{
    fuzz_tree_inputs t;
    if (!fuzz_gather_tree_inputs(in, LIMIT, &t)) return;
    void *out = malloc(t.ids_bytes ? t.ids_bytes : 1);
    clg_status st =
        clg_gather_tree_reference(&t.desc, t.step_ids, t.ids_bytes, t.parent_ids, t.ids_bytes, t.max_seq_len,
                                  t.seq_len_bytes, t.end_token, t.end_token_bytes, out, t.ids_bytes);
    if (st != CLG_SUCCESS && st != CLG_ERR_INVALID_PARENT && st != CLG_ERR_INVALID_SEQ_LEN) abort();
    free(out);
    fuzz_gather_tree_inputs_free(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size};
    if (fuzz_u8(&in) & 1)
        gather_tree_case(&in);
    else
        gather_case(&in);
    return 0;
}
