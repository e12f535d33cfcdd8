/* libFuzzer target: EmbeddingBag's validation and shape inference on fuzzer-chosen descriptors, valid or
 * not; where a descriptor is valid and small, the CPU reference runs over inputs of exactly the sizes
 * validation reported (AddressSanitizer catches any access past them): the table and weights hold fuzzer
 * bytes, the indices, offsets and segment ids mostly small values in range (sorted where the form wants
 * them), sometimes fuzzer bytes. A failed call leaves the output as it was, and the synchronous call on a
 * CPU-reference context gives the reference's status and bytes. */
#include "fuzz_input.h"

#include <stdlib.h>
#include <string.h>

enum { LIMIT = 1 << 16, POISON = 0xA5 };

static clg_context *reference_context(void)
{
    static clg_context *ctx;
    if (!ctx && clg_context_create_default("cpu", 0, &ctx) != CLG_SUCCESS) abort();
    return ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size};
    clg_embedding_bag_desc d;
    fuzz_embedding_bag_desc(&in, &d);
    int32_t rank = -1;
    int64_t shape[CLG_MAX_OUTPUT_RANK];
    uint64_t bytes[5]; /* table, indices, bags, weights, output */
    const clg_status a = clg_embedding_bag_output_shape(&d, &rank, shape);
    const clg_status b = clg_embedding_bag_sizes(&d, &bytes[0], &bytes[1], &bytes[2], &bytes[3], &bytes[4]);
    if (a != b) abort(); /* one validation behind both */
    if (a != CLG_SUCCESS) {
        if (clg_last_error_message()[0] == '\0') abort(); /* every refusal explains itself */
        return 0;
    }
    if (rank < 1 || rank > CLG_MAX_OUTPUT_RANK || rank != d.table.rank) abort();
    uint64_t elems = 1;
    for (int32_t k = 0; k < rank; ++k) {
        if (shape[k] < 0) abort();
        elems = shape[k] == 0 ? 0 : (elems > UINT64_MAX / (uint64_t)shape[k] ? UINT64_MAX : elems * (uint64_t)shape[k]);
    }
    if (elems != UINT64_MAX && elems * clg_dtype_size(d.table.type) != bytes[4]) abort();
    if (d.bag_form == CLG_BAG_PACKED && bytes[2] != 0) abort();                   /* no bags input */
    if (d.per_sample_weights.type == CLG_DTYPE_INVALID && bytes[3] != 0) abort(); /* no weights */
    for (int k = 0; k < 5; ++k)
        if (bytes[k] > LIMIT) return 0;

    const size_t n[5] = {(size_t)bytes[0], (size_t)bytes[1], (size_t)bytes[2], (size_t)bytes[3], (size_t)bytes[4]};
    const int tame = fuzz_u8(&in) < 224; /* values mostly in range, so that the reduction runs */
    void *table = fuzz_alloc_filled(&in, n[0]);
    void *indices = malloc(n[1] ? n[1] : 1), *bags = malloc(n[2] ? n[2] : 1);
    void *weights = fuzz_alloc_filled(&in, n[3]);
    fuzz_bag_integers(&in, tame, &d, (uint64_t)d.table.shape[0], indices, n[1], bags, n[2]);
    uint8_t *out = malloc(n[4] ? n[4] : 1), *again = malloc(n[4] ? n[4] : 1);
    memset(out, POISON, n[4]);
    if (n[4] && clg_embedding_bag_reference(&d, table, n[0], indices, n[1], bags, n[2], weights, n[3], out, n[4] - 1) !=
                    CLG_ERR_BUFFER_TOO_SMALL)
        abort();
    const clg_status st =
        clg_embedding_bag_reference(&d, table, n[0], indices, n[1], bags, n[2], weights, n[3], out, n[4]);
    if (st != CLG_SUCCESS && st != CLG_ERR_INDEX_OUT_OF_RANGE && st != CLG_ERR_INVALID_OFFSETS &&
        st != CLG_ERR_INVALID_SEGMENT_IDS)
        abort();
    if (st != CLG_SUCCESS) {
        if (clg_last_error_message()[0] == '\0') abort();
        for (size_t i = 0; i < n[4]; ++i)
            if (out[i] != POISON) abort(); /* output untouched on failure */
    }
    memset(again, POISON, n[4]);
    const clg_status st2 =
        clg_embedding_bag(reference_context(), &d, table, n[0], indices, n[1], bags, n[2], weights, n[3], again, n[4]);
    if (st2 != st || memcmp(out, again, n[4]) != 0) abort();
    free(table);
    free(indices);
    free(bags);
    free(weights);
    free(out);
    free(again);
    return 0;
}
