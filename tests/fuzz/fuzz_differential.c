/* libFuzzer target: the OpenCL path against the CPU reference (Gather, GatherElements, GatherND,
 * GatherTree, the dequantizing gather) on fuzzer-chosen shapes, types, policies, index values and (for
 * the dequantizing gather) layouts and scale bits, bit for bit, through the synchronous call and
 * through the enqueue call with guard bytes around every buffer. Any difference, a touched guard byte
 * or a written input aborts. */
#include "fuzz_device.h"
#include "fuzz_input.h"

#include <stdlib.h>
#include <string.h>

enum { LIMIT = 1 << 14, GUARD = FUZZ_GUARD_MAX, POISON = FUZZ_POISON };

static clg_context *ctx;

static void differ(const char *what) { fuzz_differ("fuzz_differential", what); }

/* Gather, GatherElements and GatherND through one comparison: their calls behind `const void *`
 * descriptors. */
typedef struct indexed_op {
    clg_status (*sizes)(const void *desc, uint64_t *data_bytes, uint64_t *index_bytes, uint64_t *out_bytes);
    clg_status (*reference)(const void *desc, const void *data, size_t data_bytes, const void *indices,
                            size_t index_bytes, void *out, size_t out_bytes);
    clg_status (*sync)(const void *desc, const void *data, size_t data_bytes, const void *indices, size_t index_bytes,
                       void *out, size_t out_bytes);
    clg_status (*enqueue)(const void *desc, cl_mem data, size_t data_offset, cl_mem indices, size_t index_offset,
                          cl_mem out, size_t out_offset, cl_event *done);
} indexed_op;

#define INDEXED_OP(name, desc_type)                                                                                   \
    static clg_status name##_sizes(const void *d, uint64_t *db, uint64_t *ib, uint64_t *ob)                           \
    {                                                                                                                 \
        return clg_##name##_sizes((const desc_type *)d, db, ib, ob);                                                  \
    }                                                                                                                 \
    static clg_status name##_reference(const void *d, const void *data, size_t db, const void *idx, size_t ib,        \
                                       void *out, size_t ob)                                                          \
    {                                                                                                                 \
        return clg_##name##_reference((const desc_type *)d, data, db, idx, ib, out, ob);                              \
    }                                                                                                                 \
    static clg_status name##_sync(const void *d, const void *data, size_t db, const void *idx, size_t ib, void *out,  \
                                  size_t ob)                                                                          \
    {                                                                                                                 \
        return clg_##name(ctx, (const desc_type *)d, data, db, idx, ib, out, ob);                                     \
    }                                                                                                                 \
    static clg_status name##_enqueue(const void *d, cl_mem data, size_t doff, cl_mem idx, size_t ioff, cl_mem out,    \
                                     size_t ooff, cl_event *done)                                                     \
    {                                                                                                                 \
        return clg_##name##_enqueue(ctx, (const desc_type *)d, clg_context_cl_queue(ctx), data, doff, idx, ioff, out, \
                                    ooff, 0, NULL, done);                                                             \
    }                                                                                                                 \
    static const indexed_op name##_op = {name##_sizes, name##_reference, name##_sync, name##_enqueue};

INDEXED_OP(gather, clg_gather_desc)
INDEXED_OP(gather_elements, clg_gather_elements_desc)
INDEXED_OP(gather_nd, clg_gather_nd_desc)

static void indexed_case(fuzz_input *in, const indexed_op *op, const void *d, clg_dtype index_type)
{
    uint64_t data_bytes, index_bytes, out_bytes;
    if (op->sizes(d, &data_bytes, &index_bytes, &out_bytes) != CLG_SUCCESS) return;
    if (data_bytes > LIMIT || index_bytes > LIMIT || out_bytes > LIMIT) return;
    unsigned char *data = fuzz_alloc_filled(in, data_bytes), *idx = fuzz_alloc_filled(in, index_bytes);
    unsigned char *want = malloc(out_bytes + 1), *got = malloc(out_bytes + 1);
    memset(want, POISON, out_bytes + 1);
    memset(got, POISON, out_bytes + 1);
    clg_status ref = op->reference(d, data, data_bytes, idx, index_bytes, want, out_bytes);
    clg_status sync = op->sync(d, data, data_bytes, idx, index_bytes, got, out_bytes);
    if (sync != ref) differ("sync status");
    if (memcmp(got, want, out_bytes) != 0) differ("sync output");

    /* enqueue: offsets chosen by the fuzzer (indices aligned to their element size) */
    const size_t guard = fuzz_u8(in) % GUARD, iguard = fuzz_round_up(guard, clg_dtype_size(index_type));
    cl_mem bd = fuzz_guarded_buffer(data, data_bytes, guard), bi = fuzz_guarded_buffer(idx, index_bytes, iguard),
           bo = fuzz_guarded_buffer(NULL, out_bytes, guard);
    cl_event done = NULL;
    clg_status enq = op->enqueue(d, bd, guard, bi, iguard, bo, guard, &done);
    if (enq != ref) differ("enqueue status");
    if (done) clReleaseEvent(done);
    unsigned char *region = malloc(guard + out_bytes + guard + 1);
    const int untouched = fuzz_read_guarded("fuzz_differential", bo, out_bytes, guard, region);
    if (ref == CLG_SUCCESS ? memcmp(region + guard, want, out_bytes) != 0 : !untouched) differ("enqueue output");
    fuzz_check_input("fuzz_differential", bd, data, data_bytes, guard);
    fuzz_check_input("fuzz_differential", bi, idx, index_bytes, iguard);
    clReleaseMemObject(bd);
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    free(region);
    free(data);
    free(idx);
    free(want);
    free(got);
}

static void gather_case(fuzz_input *in)
{
    clg_gather_desc d;
    uint64_t axis_storage[2];
    fuzz_gather_desc(in, &d, axis_storage);
    indexed_case(in, &gather_op, &d, d.indices.type);
}

static void gather_elements_case(fuzz_input *in)
{
    clg_gather_elements_desc d;
    fuzz_gather_elements_desc(in, &d);
    indexed_case(in, &gather_elements_op, &d, d.indices.type);
}

static void gather_nd_case(fuzz_input *in)
{
    clg_gather_nd_desc d;
    fuzz_gather_nd_desc(in, &d);
    indexed_case(in, &gather_nd_op, &d, d.indices.type);
}

static void gather_tree_case(fuzz_input *in)
{
    fuzz_tree_inputs t;
    if (!fuzz_gather_tree_inputs(in, LIMIT, &t)) return;
    unsigned char *want = malloc(t.ids_bytes + 1), *got = malloc(t.ids_bytes + 1);
    memset(want, POISON, t.ids_bytes + 1);
    memset(got, POISON, t.ids_bytes + 1);
    clg_status ref =
        clg_gather_tree_reference(&t.desc, t.step_ids, t.ids_bytes, t.parent_ids, t.ids_bytes, t.max_seq_len,
                                  t.seq_len_bytes, t.end_token, t.end_token_bytes, want, t.ids_bytes);
    clg_status dev = clg_gather_tree(ctx, &t.desc, t.step_ids, t.ids_bytes, t.parent_ids, t.ids_bytes, t.max_seq_len,
                                     t.seq_len_bytes, t.end_token, t.end_token_bytes, got, t.ids_bytes);
    /* every type on every device: f16 and f64 need no extension */
    if (dev != ref) differ("gather-tree status");
    if (memcmp(got, want, t.ids_bytes) != 0) differ("gather-tree output");
    free(want);
    free(got);
    fuzz_gather_tree_inputs_free(&t);
}

/* The dequantizing gather's four inputs (absent ones NULL) and output, each between guard bytes;
 * returns the enqueue's status, leaves the output region (guards included) in `region` (aborting if a
 * guard byte was written) and sets *untouched if the output between the guards is all poison. */
static clg_status quantized_enqueue(const clg_gather_quantized_desc *d, void *const inputs[4], const uint64_t bytes[5],
                                    size_t guard, unsigned char *region, size_t out_guard, int *untouched)
{
    const size_t scale_unit = d->scales.type ? clg_dtype_size(d->scales.type) : 1;
    const size_t guards[4] = {guard, fuzz_round_up(guard, clg_dtype_size(d->indices.type)),
                              fuzz_round_up(guard, scale_unit), guard};
    cl_mem mems[4] = {NULL, NULL, NULL, NULL};
    for (int k = 0; k < 4; ++k)
        if (k < 2 || bytes[k]) mems[k] = fuzz_guarded_buffer(inputs[k], (size_t)bytes[k], guards[k]);
    cl_mem bo = fuzz_guarded_buffer(NULL, (size_t)bytes[4], out_guard);
    cl_event done = NULL;
    const clg_status st = clg_gather_quantized_enqueue(ctx, d, clg_context_cl_queue(ctx), mems[0], guards[0], mems[1],
                                                       guards[1], mems[2], mems[2] ? guards[2] : 0, mems[3],
                                                       mems[3] ? guards[3] : 0, bo, out_guard, 0, NULL, &done);
    if (done) clReleaseEvent(done);
    *untouched = fuzz_read_guarded("fuzz_differential", bo, (size_t)bytes[4], out_guard, region);
    for (int k = 0; k < 4; ++k)
        if (mems[k]) fuzz_check_input("fuzz_differential", mems[k], inputs[k], (size_t)bytes[k], guards[k]);
    for (int k = 0; k < 4; ++k)
        if (mems[k]) clReleaseMemObject(mems[k]);
    clReleaseMemObject(bo);
    return st;
}

static void gather_quantized_case(fuzz_input *in)
{
    clg_gather_quantized_desc d;
    fuzz_gather_quantized_desc(in, &d);
    uint64_t bytes[5];
    if (clg_gather_quantized_sizes(&d, &bytes[0], &bytes[1], &bytes[2], &bytes[3], &bytes[4]) != CLG_SUCCESS) return;
    for (int k = 0; k < 5; ++k)
        if (bytes[k] > LIMIT) return;
    void *inputs[4];
    for (int k = 0; k < 4; ++k) inputs[k] = fuzz_alloc_filled(in, (size_t)bytes[k]);
    const size_t out_bytes = (size_t)bytes[4];
    unsigned char *want = malloc(out_bytes + 1), *got = malloc(out_bytes + 1);
    memset(want, POISON, out_bytes + 1);
    memset(got, POISON, out_bytes + 1);
    const size_t n[4] = {(size_t)bytes[0], (size_t)bytes[1], (size_t)bytes[2], (size_t)bytes[3]};
    const clg_status ref = clg_gather_quantized_reference(&d, inputs[0], n[0], inputs[1], n[1], inputs[2], n[2],
                                                          inputs[3], n[3], want, out_bytes);
    const clg_status sync = clg_gather_quantized(ctx, &d, inputs[0], n[0], inputs[1], n[1], inputs[2], n[2], inputs[3],
                                                 n[3], got, out_bytes);
    if (sync != ref) differ("quantized sync status");
    if (memcmp(got, want, out_bytes) != 0) differ("quantized sync output");

    int32_t rank;
    int64_t shape[CLG_MAX_OUTPUT_RANK];
    clg_dtype out_type;
    if (clg_gather_quantized_output_shape(&d, &rank, shape, &out_type) != CLG_SUCCESS) abort();
    const size_t guard = fuzz_u8(in) % GUARD, out_guard = fuzz_round_up(guard, clg_dtype_size(out_type));
    unsigned char *region = malloc(out_guard + out_bytes + out_guard + 1);
    int untouched;
    const clg_status enq = quantized_enqueue(&d, inputs, bytes, guard, region, out_guard, &untouched);
    if (enq != ref) differ("quantized enqueue status");
    if (ref == CLG_SUCCESS ? memcmp(region + out_guard, want, out_bytes) != 0 : !untouched)
        differ("quantized enqueue output");
    for (int k = 0; k < 4; ++k) free(inputs[k]);
    free(region);
    free(want);
    free(got);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ctx = fuzz_device_context();
    fuzz_input in = {data, size};
    /* odd: GatherTree, or the dequantizing gather where bit 1 is set too; even: Gather, GatherElements
     * or GatherND by the next bits (as fuzz_plan) */
    const uint8_t which = fuzz_u8(&in);
    if ((which & 3) == 3)
        gather_quantized_case(&in);
    else if (which & 1)
        gather_tree_case(&in);
    else if ((which >> 1) % 3 == 1)
        gather_elements_case(&in);
    else if ((which >> 1) % 3 == 2)
        gather_nd_case(&in);
    else
        gather_case(&in);
    return 0;
}
