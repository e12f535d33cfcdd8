/* libFuzzer target: descriptor validation and shape inference of Gather, GatherElements, GatherND and
 * GatherTree on fuzzer-chosen descriptors, valid or not; where a descriptor is valid and small, the CPU
 * reference runs over buffers of exactly the sizes validation reported (AddressSanitizer catches any
 * access past them). */
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

/* GatherElements and GatherND through one check: their calls behind `const void *` descriptors. */
typedef struct planned_op {
    clg_status (*output_shape)(const void *desc, int32_t *rank, int64_t *shape);
    clg_status (*sizes)(const void *desc, uint64_t *data_bytes, uint64_t *index_bytes, uint64_t *out_bytes);
    clg_status (*reference)(const void *desc, const void *data, size_t data_bytes, const void *indices,
                            size_t index_bytes, void *out, size_t out_bytes);
} planned_op;

#define PLANNED_OP(name, desc_type)                                                                            \
    static clg_status name##_shape(const void *d, int32_t *rank, int64_t *shape)                               \
    {                                                                                                          \
        return clg_##name##_output_shape((const desc_type *)d, rank, shape);                                   \
    }                                                                                                          \
    static clg_status name##_sizes(const void *d, uint64_t *db, uint64_t *ib, uint64_t *ob)                    \
    {                                                                                                          \
        return clg_##name##_sizes((const desc_type *)d, db, ib, ob);                                           \
    }                                                                                                          \
    static clg_status name##_reference(const void *d, const void *data, size_t db, const void *idx, size_t ib, \
                                       void *out, size_t ob)                                                   \
    {                                                                                                          \
        return clg_##name##_reference((const desc_type *)d, data, db, idx, ib, out, ob);                       \
    }                                                                                                          \
    static const planned_op name##_op = {name##_shape, name##_sizes, name##_reference};

PLANNED_OP(gather_elements, clg_gather_elements_desc)
PLANNED_OP(gather_nd, clg_gather_nd_desc)

/* The checks of gather_case on any planned operation whose output has the data's type. */
static void planned_case(fuzz_input *in, const planned_op *op, const void *d, clg_dtype data_type)
{
    int32_t rank = -1;
    int64_t shape[CLG_MAX_OUTPUT_RANK];
    uint64_t data_bytes, index_bytes, out_bytes;
    clg_status a = op->output_shape(d, &rank, shape);
    clg_status b = op->sizes(d, &data_bytes, &index_bytes, &out_bytes);
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
    if (elems != UINT64_MAX && elems * clg_dtype_size(data_type) != out_bytes) abort();
    if (data_bytes > LIMIT || index_bytes > LIMIT || out_bytes > LIMIT) return;
    void *data = fuzz_alloc_filled(in, data_bytes), *idx = fuzz_alloc_filled(in, index_bytes);
    void *out = malloc(out_bytes ? out_bytes : 1);
    if (out_bytes &&
        op->reference(d, data, data_bytes, idx, index_bytes, out, out_bytes - 1) != CLG_ERR_BUFFER_TOO_SMALL)
        abort();
    clg_status st = op->reference(d, data, data_bytes, idx, index_bytes, out, out_bytes);
    if (st != CLG_SUCCESS && st != CLG_ERR_INDEX_OUT_OF_RANGE) abort();
    free(data);
    free(idx);
    free(out);
}

static void gather_elements_case(fuzz_input *in)
{
    clg_gather_elements_desc d;
    fuzz_gather_elements_desc(in, &d);
    planned_case(in, &gather_elements_op, &d, d.data.type);
}

static void gather_nd_case(fuzz_input *in)
{
    clg_gather_nd_desc d;
    fuzz_gather_nd_desc(in, &d);
    planned_case(in, &gather_nd_op, &d, d.data.type);
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
    /* odd: GatherTree; even: Gather, GatherElements or GatherND by the next bits */
    const uint8_t which = fuzz_u8(&in);
    if (which & 1)
        gather_tree_case(&in);
    else if ((which >> 1) % 3 == 1)
        gather_elements_case(&in);
    else if ((which >> 1) % 3 == 2)
        gather_nd_case(&in);
    else
        gather_case(&in);
    return 0;
}
