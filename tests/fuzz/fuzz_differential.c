/* libFuzzer target: the OpenCL path against the CPU reference on fuzzer-chosen shapes, types,
 * policies and index values, bit for bit, through the synchronous call and through the enqueue call
 * with guard bytes around every buffer. Any difference, or a touched guard byte, aborts. */
#include "fuzz_input.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LIMIT = 1 << 14, GUARD = 64, POISON = 0xA5 };

static clg_context *ctx;

static int all_poison(const unsigned char *p, size_t n)
{
    for (size_t k = 0; k < n; ++k)
        if (p[k] != POISON) return 0;
    return 1;
}

static cl_mem guarded(const void *content, size_t bytes, size_t guard)
{
    size_t total = guard + bytes + guard;
    if (total == 0) total = 1; /* OpenCL has no empty buffers */
    unsigned char *staging = malloc(total);
    memset(staging, POISON, total);
    if (content) memcpy(staging + guard, content, bytes);
    cl_int err;
    cl_mem m =
        clCreateBuffer(clg_context_cl_context(ctx), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, total, staging, &err);
    free(staging);
    if (err != CL_SUCCESS) abort();
    return m;
}

static void differ(const char *what)
{
    fprintf(stderr, "fuzz_differential: %s (%s)\n", what, clg_last_error_message());
    abort();
}

static void gather_case(fuzz_input *in)
{
    clg_gather_desc d;
    uint64_t axis_storage[2];
    fuzz_gather_desc(in, &d, axis_storage);
    uint64_t data_bytes, index_bytes, out_bytes;
    if (clg_gather_sizes(&d, &data_bytes, &index_bytes, &out_bytes) != CLG_SUCCESS) return;
    if (data_bytes > LIMIT || index_bytes > LIMIT || out_bytes > LIMIT) return;
    unsigned char *data = fuzz_alloc_filled(in, data_bytes), *idx = fuzz_alloc_filled(in, index_bytes);
    unsigned char *want = malloc(out_bytes + 1), *got = malloc(out_bytes + 1);
    memset(want, POISON, out_bytes + 1);
    memset(got, POISON, out_bytes + 1);
    clg_status ref = clg_gather_reference(&d, data, data_bytes, idx, index_bytes, want, out_bytes);
    clg_status sync = clg_gather(ctx, &d, data, data_bytes, idx, index_bytes, got, out_bytes);
    if (sync != ref) differ("sync status");
    if (memcmp(got, want, out_bytes) != 0) differ("sync output");

    /* enqueue: offsets chosen by the fuzzer (indices aligned to their element size) */
    size_t guard = fuzz_u8(in) % GUARD, isize = clg_dtype_size(d.indices.type);
    size_t iguard = (guard + isize - 1) / isize * isize;
    cl_mem bd = guarded(data, data_bytes, guard), bi = guarded(idx, index_bytes, iguard),
           bo = guarded(NULL, out_bytes, guard);
    cl_event done = NULL;
    clg_status enq =
        clg_gather_enqueue(ctx, &d, clg_context_cl_queue(ctx), bd, guard, bi, iguard, bo, guard, 0, NULL, &done);
    if (enq != ref) differ("enqueue status");
    if (done) clReleaseEvent(done);
    unsigned char *region = malloc(guard + out_bytes + guard + 1);
    if (clEnqueueReadBuffer(clg_context_cl_queue(ctx), bo, CL_TRUE, 0, guard + out_bytes + guard, region, 0, NULL,
                            NULL))
        abort();
    if (!all_poison(region, guard) || !all_poison(region + guard + out_bytes, guard)) differ("guard bytes touched");
    if (ref == CLG_SUCCESS ? memcmp(region + guard, want, out_bytes) != 0 : !all_poison(region + guard, out_bytes))
        differ("enqueue output");
    clReleaseMemObject(bd);
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    free(region);
    free(data);
    free(idx);
    free(want);
    free(got);
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
    if (dev != CLG_ERR_UNSUPPORTED_BY_DEVICE) { /* f16 or f64 the device lacks */
        if (dev != ref) differ("gather-tree status");
        if (memcmp(got, want, t.ids_bytes) != 0) differ("gather-tree output");
    }
    free(want);
    free(got);
    fuzz_gather_tree_inputs_free(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ctx && clg_context_create_default(NULL, 0, &ctx) != CLG_SUCCESS) abort();
    fuzz_input in = {data, size};
    if (fuzz_u8(&in) & 1)
        gather_tree_case(&in);
    else
        gather_case(&in);
    return 0;
}
