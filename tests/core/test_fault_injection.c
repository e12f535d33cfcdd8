/* Fault injection (fault-injection builds only): for every k over a full call sequence, the k-th
 * OpenCL allocation, program build or enqueue the library makes fails. The call that hits it must
 * return a failure, leak no buffer or event, leave its output untouched, and the same context must
 * work on the next call. Programs come from source each round (the persistent program cache off) in
 * the plain sweep and the single faults; from the library's own binary cache in the verify-mode and
 * deferred-errors sweeps, filled by a run without faults first, so that a fault also hits the
 * cache-hit path (clCreateProgramWithBinary, the build of a binary). */
#define _DEFAULT_SOURCE                    /* setenv */
#define CLG_FAULT_INJECTION_IMPLEMENTATION /* this file's own OpenCL calls are not fault points */
#include "op_support.h"
#include "testing/fault_injection.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OUT_BYTES = 256 };

typedef struct step_result {
    clg_status status;
    int fired;     /* the armed fault fired during this step */
    int on_binary; /* ... in loading a cached binary, which the library may recover from (source) */
    int intact;    /* output untouched (poison) */
    int correct;   /* output as the reference says (for a success) */
    long leaked_buffers, leaked_events;
} step_result;

struct indexed_call;
typedef struct sequence_state {
    clg_context *ctx;
    uint32_t flags;
    const struct indexed_call *call; /* the call of the step running, for step_indexed */
} sequence_state;

static const float data[6 * 4] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23};
static const int64_t ds[] = {6, 4}, is[] = {5}, axis0 = 0;
static const int32_t good_idx[5] = {5, -1, 0, 3, 2};
static const int32_t bad_idx[5] = {5, -1, 0, 6, 2};

/* One call of the sequence; returns its status, output in out (OUT_BYTES, poisoned by the caller). */
typedef clg_status (*step_fn)(sequence_state *s, unsigned char *out, unsigned char *want);

static clg_status reference_gather(clg_preset preset, const int32_t *idx, unsigned char *want)
{
    clg_gather_desc d = preset <= CLG_ONNX_13 ? support_onnx_desc(preset, CLG_F32, 2, ds, CLG_I32, 1, is, 0)
                                              : support_ov_desc(preset, CLG_F32, 2, ds, CLG_I32, 1, is, &axis0, 0);
    return clg_gather_reference(&d, data, sizeof data, idx, 5 * 4, want, OUT_BYTES);
}

static clg_status sync_gather(sequence_state *s, clg_preset preset, const int32_t *idx, unsigned char *out)
{
    clg_gather_desc d = preset <= CLG_ONNX_13 ? support_onnx_desc(preset, CLG_F32, 2, ds, CLG_I32, 1, is, 0)
                                              : support_ov_desc(preset, CLG_F32, 2, ds, CLG_I32, 1, is, &axis0, 0);
    return clg_gather(s->ctx, &d, data, sizeof data, idx, 5 * 4, out, OUT_BYTES);
}

/* The status of an enqueue call: what it returned, or for a deferred context what
 * clg_deferred_status says of its event; the out-event is released. */
static clg_status settle(sequence_state *s, clg_status st, cl_event done)
{
    if (st != CLG_SUCCESS) return st;
    if (s->flags & CLG_CONTEXT_DEFER_ERRORS) st = clg_deferred_status(s->ctx, done);
    clg_fault_release_event(done);
    return st;
}

/* Enqueue on the context's queue with device buffers made here (not fault points: test code). */
static clg_status enqueue_op(sequence_state *s, const support_op *op, const void *desc, const void *idx,
                             size_t idx_bytes, unsigned char *out)
{
    cl_context cl = clg_context_cl_context(s->ctx);
    cl_command_queue q = clg_context_cl_queue(s->ctx);
    cl_int err;
    cl_mem bd = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof data, (void *)data, &err);
    cl_mem bi = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, idx_bytes, (void *)idx, &err);
    cl_mem bo = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, OUT_BYTES, out, &err);
    cl_event done = NULL;
    clg_status st = op->enqueue(s->ctx, desc, q, bd, 0, bi, 0, bo, 0, 0, NULL, &done);
    st = settle(s, st, done);
    clFinish(q);
    clEnqueueReadBuffer(q, bo, CL_TRUE, 0, OUT_BYTES, out, 0, NULL, NULL);
    clReleaseMemObject(bd);
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    return st;
}

static clg_status enqueue_gather(sequence_state *s, const clg_gather_desc *d, const int32_t *idx, unsigned char *out)
{
    return enqueue_op(s, &support_gather, d, idx, 5 * 4, out);
}

static clg_status step_sync_ov8(sequence_state *s, unsigned char *out, unsigned char *want)
{
    reference_gather(CLG_OV_GATHER_8, good_idx, want);
    return sync_gather(s, CLG_OV_GATHER_8, good_idx, out);
}

static clg_status step_sync_onnx(sequence_state *s, unsigned char *out, unsigned char *want)
{
    reference_gather(CLG_ONNX_13, good_idx, want);
    return sync_gather(s, CLG_ONNX_13, good_idx, out);
}

static clg_status step_enqueue_onnx_checked(sequence_state *s, unsigned char *out, unsigned char *want)
{
    reference_gather(CLG_ONNX_13, good_idx, want);
    clg_gather_desc d = support_onnx_desc(CLG_ONNX_13, CLG_F32, 2, ds, CLG_I32, 1, is, 0);
    return enqueue_gather(s, &d, good_idx, out);
}

static clg_status step_enqueue_onnx_bad_index(sequence_state *s, unsigned char *out, unsigned char *want)
{
    (void)want;
    clg_gather_desc d = support_onnx_desc(CLG_ONNX_13, CLG_F32, 2, ds, CLG_I32, 1, is, 0);
    return enqueue_gather(s, &d, bad_idx, out);
}

static clg_status step_enqueue_clamp(sequence_state *s, unsigned char *out, unsigned char *want)
{
    clg_gather_desc d = support_ov_desc(CLG_OV_GATHER_8, CLG_F32, 2, ds, CLG_I32, 1, is, &axis0, 0);
    d.oob_policy = CLG_OOB_CLAMP;
    clg_gather_reference(&d, data, sizeof data, bad_idx, 5 * 4, want, OUT_BYTES);
    return enqueue_gather(s, &d, bad_idx, out);
}

static clg_status step_enqueue_empty(sequence_state *s, unsigned char *out, unsigned char *want)
{
    (void)out;
    (void)want;
    const int64_t empty[] = {0};
    clg_gather_desc d = support_ov_desc(CLG_OV_GATHER_8, CLG_F32, 2, ds, CLG_I32, 1, empty, &axis0, 0);
    cl_event done = NULL;
    clg_status st =
        clg_gather_enqueue(s->ctx, &d, clg_context_cl_queue(s->ctx), NULL, 0, NULL, 0, NULL, 0, 0, NULL, &done);
    if (st == CLG_SUCCESS) clg_fault_release_event(done);
    return st;
}

/* GatherElements of data [6, 4] along axis 1 by indices [6, 2] (bad: indices[4, 1] = -5), and GatherND
 * of it by tuples [3, 2] (bad: component 1 of tuple 2 = 4). */
static const int64_t elements_shape[] = {6, 2}, tuples_shape[] = {3, 2};
static const int64_t good_elements[12] = {0, 3, -1, -4, 2, 2, 1, 0, 3, 1, 0, 0};
static const int64_t bad_elements[12] = {0, 3, -1, -4, 2, 2, 1, 0, 3, -5, 0, 0};
static const int64_t good_tuples[6] = {5, 3, -6, -4, 0, -1}, bad_tuples[6] = {5, 3, -6, -4, 0, 4};

static clg_gather_elements_desc elements_desc(clg_gather_elements_preset preset, clg_oob_policy policy)
{
    clg_gather_elements_desc d = support_elements_desc(preset, CLG_F32, 2, ds, CLG_I64, elements_shape, 1);
    d.oob_policy = policy;
    return d;
}

static clg_gather_nd_desc nd_desc(clg_gather_nd_preset preset, clg_oob_policy policy)
{
    clg_gather_nd_desc d = support_nd_desc(preset, CLG_F32, 2, ds, CLG_I64, 2, tuples_shape, 0);
    d.oob_policy = policy;
    return d;
}

/* The reference into want, then the call: synchronous, or enqueued on buffers made here. */
static clg_status indexed_step(sequence_state *s, const support_op *op, const void *desc, const int64_t *idx,
                               size_t idx_bytes, int enqueue, unsigned char *out, unsigned char *want)
{
    op->reference(desc, data, sizeof data, idx, idx_bytes, want, OUT_BYTES);
    return enqueue ? enqueue_op(s, op, desc, idx, idx_bytes, out)
                   : op->sync(s->ctx, desc, data, sizeof data, idx, idx_bytes, out, OUT_BYTES);
}

/* One call of GatherElements or GatherND in the sequence. */
typedef struct indexed_call {
    const support_op *op;
    int preset; /* a clg_gather_elements_preset or a clg_gather_nd_preset */
    clg_oob_policy policy;
    const int64_t *idx;
    size_t idx_bytes;
    int enqueue;
} indexed_call;

static clg_status step_indexed(sequence_state *s, unsigned char *out, unsigned char *want)
{
    const indexed_call *call = s->call;
    union {
        clg_gather_elements_desc elements;
        clg_gather_nd_desc nd;
    } d;
    if (call->op == &support_gather_nd)
        d.nd = nd_desc((clg_gather_nd_preset)call->preset, call->policy);
    else
        d.elements = elements_desc((clg_gather_elements_preset)call->preset, call->policy);
    return indexed_step(s, call->op, &d, call->idx, call->idx_bytes, call->enqueue, out, want);
}

static const indexed_call elements_sync = {
    &support_gather_elements, CLG_ONNX_GATHER_ELEMENTS_13, CLG_OOB_PRESET, good_elements, sizeof good_elements, 0};
static const indexed_call elements_enqueue = {
    &support_gather_elements, CLG_ONNX_GATHER_ELEMENTS_13, CLG_OOB_PRESET, good_elements, sizeof good_elements, 1};
static const indexed_call elements_bad = {
    &support_gather_elements, CLG_ONNX_GATHER_ELEMENTS_11, CLG_OOB_PRESET, bad_elements, sizeof bad_elements, 1};
static const indexed_call elements_clamp = {
    &support_gather_elements, CLG_OV_GATHER_ELEMENTS_6, CLG_OOB_CLAMP, bad_elements, sizeof bad_elements, 1};
static const indexed_call nd_sync = {&support_gather_nd, CLG_ONNX_GATHER_ND_13, CLG_OOB_PRESET,
                                     good_tuples,        sizeof good_tuples,    0};
static const indexed_call nd_enqueue = {&support_gather_nd, CLG_ONNX_GATHER_ND_12, CLG_OOB_PRESET,
                                        good_tuples,        sizeof good_tuples,    1};
static const indexed_call nd_bad = {&support_gather_nd, CLG_ONNX_GATHER_ND_13, CLG_OOB_PRESET,
                                    bad_tuples,         sizeof bad_tuples,     1};
static const indexed_call nd_zero = {&support_gather_nd, CLG_OV_GATHER_ND_8, CLG_OOB_PRESET,
                                     bad_tuples,         sizeof bad_tuples,  1};

/* A GatherTree case: T=3, B=1, W=2 i32, valid parents (valid = 1) or one invalid one; through the
 * synchronous call, or (enqueue = 1) through clg_gather_tree_enqueue on buffers made here. */
static clg_status tree(sequence_state *s, int valid, int enqueue, unsigned char *out, unsigned char *want)
{
    clg_gather_tree_desc d;
    memset(&d, 0, sizeof d);
    const int64_t tbw[] = {3, 1, 2}, b[] = {1};
    support_shape(&d.step_ids, CLG_I32, 3, tbw);
    support_shape(&d.parent_ids, CLG_I32, 3, tbw);
    support_shape(&d.max_seq_len, CLG_I32, 1, b);
    support_shape(&d.end_token, CLG_I32, 0, NULL);
    const int32_t step[6] = {1, 2, 3, 4, 5, 6}, parents[6] = {0, 0, 1, 0, 1, valid ? 1 : 2}, len[1] = {3}, end = 9;
    clg_gather_tree_reference(&d, step, sizeof step, parents, sizeof parents, len, sizeof len, &end, 4, want, 24);
    if (!enqueue)
        return clg_gather_tree(s->ctx, &d, step, sizeof step, parents, sizeof parents, len, sizeof len, &end, 4, out,
                               24);
    cl_context cl = clg_context_cl_context(s->ctx);
    cl_command_queue q = clg_context_cl_queue(s->ctx);
    cl_int err;
    const cl_mem_flags in_flags = CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR;
    cl_mem bs = clCreateBuffer(cl, in_flags, sizeof step, (void *)step, &err);
    cl_mem bp = clCreateBuffer(cl, in_flags, sizeof parents, (void *)parents, &err);
    cl_mem bl = clCreateBuffer(cl, in_flags, sizeof len, (void *)len, &err);
    cl_mem be = clCreateBuffer(cl, in_flags, sizeof end, (void *)&end, &err);
    cl_mem bo = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 24, out, &err);
    cl_event done = NULL;
    clg_status st = clg_gather_tree_enqueue(s->ctx, &d, q, bs, 0, bp, 0, bl, 0, be, 0, bo, 0, 0, NULL, &done);
    st = settle(s, st, done);
    clFinish(q);
    clEnqueueReadBuffer(q, bo, CL_TRUE, 0, 24, out, 0, NULL, NULL);
    clReleaseMemObject(bs);
    clReleaseMemObject(bp);
    clReleaseMemObject(bl);
    clReleaseMemObject(be);
    clReleaseMemObject(bo);
    return st;
}

static clg_status step_tree(sequence_state *s, unsigned char *out, unsigned char *want)
{
    return tree(s, 1, 0, out, want);
}
static clg_status step_tree_invalid(sequence_state *s, unsigned char *out, unsigned char *want)
{
    return tree(s, 0, 0, out, want);
}
static clg_status step_tree_enqueue(sequence_state *s, unsigned char *out, unsigned char *want)
{
    return tree(s, 1, 1, out, want);
}
static clg_status step_tree_enqueue_invalid(sequence_state *s, unsigned char *out, unsigned char *want)
{
    return tree(s, 0, 1, out, want);
}

/* A dequantizing gather: ONNX Runtime u4 [4, 16] (one f32 scale a row) through the synchronous call,
 * or through the enqueue call on buffers made here with one index out of range (valid = 0). */
static clg_status quantized(sequence_state *s, int valid, int enqueue, unsigned char *out, unsigned char *want)
{
    clg_gather_quantized_desc d;
    memset(&d, 0, sizeof d);
    const int64_t qs[] = {4, 16}, ss[] = {4, 1}, qi[] = {3};
    d.layout = CLG_QUANT_ORT_BLOCK;
    d.data.type = CLG_QUANT_U4;
    d.data.rank = 2;
    memcpy(d.data.shape, qs, sizeof qs);
    support_shape(&d.indices, CLG_I32, 1, qi);
    support_shape(&d.scales, CLG_F32, 2, ss);
    d.block_size = 16;
    d.quantize_axis = 1;
    unsigned char table[32];
    for (int k = 0; k < 32; ++k) table[k] = (unsigned char)(k * 37);
    const float scales[4] = {0.5f, -1, 2, 0.25f};
    const int32_t idx[3] = {3, valid ? 0 : 4, -2};
    clg_gather_quantized_reference(&d, table, sizeof table, idx, sizeof idx, scales, sizeof scales, NULL, 0, want,
                                   OUT_BYTES);
    if (!enqueue)
        return clg_gather_quantized(s->ctx, &d, table, sizeof table, idx, sizeof idx, scales, sizeof scales, NULL, 0,
                                    out, OUT_BYTES);
    cl_context cl = clg_context_cl_context(s->ctx);
    cl_command_queue q = clg_context_cl_queue(s->ctx);
    cl_int err;
    const cl_mem_flags in_flags = CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR;
    cl_mem bd = clCreateBuffer(cl, in_flags, sizeof table, table, &err);
    cl_mem bi = clCreateBuffer(cl, in_flags, sizeof idx, (void *)idx, &err);
    cl_mem bs = clCreateBuffer(cl, in_flags, sizeof scales, (void *)scales, &err);
    cl_mem bo = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, OUT_BYTES, out, &err);
    cl_event done = NULL;
    clg_status st = clg_gather_quantized_enqueue(s->ctx, &d, q, bd, 0, bi, 0, bs, 0, NULL, 0, bo, 0, 0, NULL, &done);
    st = settle(s, st, done);
    clFinish(q);
    clEnqueueReadBuffer(q, bo, CL_TRUE, 0, OUT_BYTES, out, 0, NULL, NULL);
    clReleaseMemObject(bd);
    clReleaseMemObject(bi);
    clReleaseMemObject(bs);
    clReleaseMemObject(bo);
    return st;
}

static clg_status step_quantized(sequence_state *s, unsigned char *out, unsigned char *want)
{
    return quantized(s, 1, 0, out, want);
}
static clg_status step_quantized_enqueue(sequence_state *s, unsigned char *out, unsigned char *want)
{
    return quantized(s, 1, 1, out, want);
}
static clg_status step_quantized_enqueue_bad_index(sequence_state *s, unsigned char *out, unsigned char *want)
{
    return quantized(s, 0, 1, out, want);
}

/* An EmbeddingBag: PyTorch's preset, mean of two bags of the 6 x 4 f32 table (its division is the
 * program's build option), through the synchronous call, or through the enqueue call on buffers made here
 * with an offset past the indices (valid = 0). */
static clg_status bag(sequence_state *s, int valid, int enqueue, unsigned char *out, unsigned char *want)
{
    clg_embedding_bag_desc d;
    memset(&d, 0, sizeof d);
    const int64_t bi_shape[] = {5}, bo_shape[] = {2};
    d.preset = CLG_TORCH_EMBEDDING_BAG;
    d.bag_form = CLG_BAG_OFFSETS;
    d.mode = CLG_BAG_MEAN;
    support_shape(&d.table, CLG_F32, 2, ds);
    support_shape(&d.indices, CLG_I32, 1, bi_shape);
    support_shape(&d.offsets, CLG_I64, 1, bo_shape);
    const int32_t idx[5] = {5, 1, 0, 3, 2};
    const int64_t offsets[2] = {0, valid ? 2 : 6};
    clg_embedding_bag_reference(&d, data, sizeof data, idx, sizeof idx, offsets, sizeof offsets, NULL, 0, want,
                                OUT_BYTES);
    if (!enqueue)
        return clg_embedding_bag(s->ctx, &d, data, sizeof data, idx, sizeof idx, offsets, sizeof offsets, NULL, 0, out,
                                 OUT_BYTES);
    cl_context cl = clg_context_cl_context(s->ctx);
    cl_command_queue q = clg_context_cl_queue(s->ctx);
    cl_int err;
    const cl_mem_flags in_flags = CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR;
    cl_mem bt = clCreateBuffer(cl, in_flags, sizeof data, (void *)data, &err);
    cl_mem bi = clCreateBuffer(cl, in_flags, sizeof idx, (void *)idx, &err);
    cl_mem bb = clCreateBuffer(cl, in_flags, sizeof offsets, (void *)offsets, &err);
    cl_mem bo = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, OUT_BYTES, out, &err);
    cl_event done = NULL;
    clg_status st = clg_embedding_bag_enqueue(s->ctx, &d, q, bt, 0, bi, 0, bb, 0, NULL, 0, bo, 0, 0, NULL, &done);
    st = settle(s, st, done);
    clFinish(q);
    clEnqueueReadBuffer(q, bo, CL_TRUE, 0, OUT_BYTES, out, 0, NULL, NULL);
    clReleaseMemObject(bt);
    clReleaseMemObject(bi);
    clReleaseMemObject(bb);
    clReleaseMemObject(bo);
    return st;
}

static clg_status step_bag(sequence_state *s, unsigned char *out, unsigned char *want)
{
    return bag(s, 1, 0, out, want);
}
static clg_status step_bag_enqueue(sequence_state *s, unsigned char *out, unsigned char *want)
{
    return bag(s, 1, 1, out, want);
}
static clg_status step_bag_enqueue_bad_offset(sequence_state *s, unsigned char *out, unsigned char *want)
{
    return bag(s, 0, 1, out, want);
}

static const struct {
    const char *name;
    step_fn run;
    clg_status normal;        /* the status without faults */
    const indexed_call *call; /* step_indexed's call */
} steps[] = {
    {"sync ov-gather-8", step_sync_ov8, CLG_SUCCESS, NULL},
    {"sync onnx-13", step_sync_onnx, CLG_SUCCESS, NULL},
    {"enqueue onnx-13 (device index check)", step_enqueue_onnx_checked, CLG_SUCCESS, NULL},
    {"enqueue onnx-13 with a bad index", step_enqueue_onnx_bad_index, CLG_ERR_INDEX_OUT_OF_RANGE, NULL},
    {"enqueue clamp", step_enqueue_clamp, CLG_SUCCESS, NULL},
    {"enqueue empty (marker)", step_enqueue_empty, CLG_SUCCESS, NULL},
    {"sync gather-elements onnx-13", step_indexed, CLG_SUCCESS, &elements_sync},
    {"enqueue gather-elements onnx-13 (device index check)", step_indexed, CLG_SUCCESS, &elements_enqueue},
    {"enqueue gather-elements onnx-11 with a bad index", step_indexed, CLG_ERR_INDEX_OUT_OF_RANGE, &elements_bad},
    {"enqueue gather-elements clamp", step_indexed, CLG_SUCCESS, &elements_clamp},
    {"sync gather-nd onnx-13", step_indexed, CLG_SUCCESS, &nd_sync},
    {"enqueue gather-nd onnx-12 (device tuple check)", step_indexed, CLG_SUCCESS, &nd_enqueue},
    {"enqueue gather-nd onnx-13 with a bad component", step_indexed, CLG_ERR_INDEX_OUT_OF_RANGE, &nd_bad},
    {"enqueue gather-nd zero (ov-gather-nd-8)", step_indexed, CLG_SUCCESS, &nd_zero},
    {"gather-tree", step_tree, CLG_SUCCESS, NULL},
    {"gather-tree invalid parent", step_tree_invalid, CLG_ERR_INVALID_PARENT, NULL},
    {"enqueue gather-tree", step_tree_enqueue, CLG_SUCCESS, NULL},
    {"enqueue gather-tree invalid parent", step_tree_enqueue_invalid, CLG_ERR_INVALID_PARENT, NULL},
    {"dequantizing gather", step_quantized, CLG_SUCCESS, NULL},
    {"enqueue dequantizing gather (device index check)", step_quantized_enqueue, CLG_SUCCESS, NULL},
    {"enqueue dequantizing gather with a bad index", step_quantized_enqueue_bad_index, CLG_ERR_INDEX_OUT_OF_RANGE,
     NULL},
    {"embedding-bag mean", step_bag, CLG_SUCCESS, NULL},
    {"enqueue embedding-bag mean (device offset and index check)", step_bag_enqueue, CLG_SUCCESS, NULL},
    {"enqueue embedding-bag with an offset past the indices", step_bag_enqueue_bad_offset, CLG_ERR_INVALID_OFFSETS,
     NULL},
};
enum { STEPS = sizeof steps / sizeof steps[0] };

static step_result run_step(sequence_state *s, int k)
{
    step_result r;
    unsigned char *out = support_poisoned(OUT_BYTES), *want = support_poisoned(OUT_BYTES);
    long buffers = clg_fault_live_buffers(), events = clg_fault_live_events();
    int fired_before = clg_fault_fired();
    s->call = steps[k].call;
    r.status = steps[k].run(s, out, want);
    r.fired = clg_fault_fired() && !fired_before;
    r.on_binary = r.fired && clg_fault_fired_on_binary();
    r.intact = support_all_poison(out, OUT_BYTES);
    r.correct = memcmp(out, want, OUT_BYTES) == 0;
    r.leaked_buffers = clg_fault_live_buffers() - buffers;
    r.leaked_events = clg_fault_live_events() - events;
    free(out);
    free(want);
    return r;
}

/* The whole sequence on a fresh context; returns the number of fault points it passed. *recovered
 * counts the steps whose fault, in loading a cached binary, the library recovered from. */
static long run_sequence(uint32_t flags, int mask, long k, int *failures, int *recovered)
{
    sequence_state s = {NULL, flags, NULL};
    clg_fault_arm(mask, k);
    clg_status st = clg_context_create_default(NULL, flags, &s.ctx);
    if (st != CLG_SUCCESS) {
        if (!clg_fault_fired()) {
            printf("fault %ld: context creation failed without a fault: %s\n", k, clg_last_error_message());
            (*failures)++;
        }
        ck_assert_ptr_null(s.ctx);
        long points = clg_fault_points();
        clg_fault_arm(0, 0);
        ck_assert_int_eq(clg_context_create_default(NULL, flags, &s.ctx), CLG_SUCCESS); /* works next time */
        clg_fault_arm(mask, 0);
        clg_context_release(s.ctx);
        return points;
    }
    for (int i = 0; i < STEPS; ++i) {
        step_result r = run_step(&s, i);
        const char *why = NULL;
        if (r.leaked_buffers || r.leaked_events)
            why = "leaked buffers or events";
        else if (r.fired && r.status == steps[i].normal && !r.on_binary)
            why = "a fault fired but the call reported its normal status";
        else if (!r.fired && r.status != steps[i].normal)
            why = "failed without a fault";
        else if (r.status != CLG_SUCCESS && !r.intact)
            why = "output written by a failing call";
        else if (r.status == CLG_SUCCESS && !r.correct)
            why = "wrong output";
        if (why) {
            printf("fault %ld (flags %u), step '%s': %s (status %s, %s; leaked %ld buffers, %ld events)\n", k,
                   (unsigned)flags, steps[i].name, why, clg_status_string(r.status), clg_last_error_message(),
                   r.leaked_buffers, r.leaked_events);
            (*failures)++;
        } else if (r.on_binary && r.status == steps[i].normal) {
            (*recovered)++; /* the program built from source instead, and the output is right */
        }
    }
    long points = clg_fault_points();
    clg_fault_arm(0, 0);
    clg_context_release(s.ctx);
    return points;
}

/* from_binary_cache: programs from the library's binary cache (CLGATHER_CACHE=1: it is off by default
 * on drivers that cache programs themselves, as PoCL does), else built from source each round. */
static void every_fault_point(uint32_t flags, int from_binary_cache)
{
    setenv("CLGATHER_CACHE", from_binary_cache ? "1" : "0", 1);
    int failures = 0, recovered = 0;
    if (from_binary_cache) run_sequence(flags, CLG_FAULT_ALL, 0, &failures, &recovered); /* fills the cache */
    const long total = run_sequence(flags, CLG_FAULT_ALL, 0, &failures, &recovered);
    ck_assert_int_eq(failures, 0);
    printf("test_fault_injection: flags %u: %ld fault points in the sequence (programs %s)\n", (unsigned)flags, total,
           from_binary_cache ? "from the binary cache" : "built from source");
    ck_assert_int_gt(total, 20);
    for (long k = 1; k <= total; ++k) run_sequence(flags, CLG_FAULT_ALL, k, &failures, &recovered);
    ck_assert_int_eq(failures, 0);
    printf("test_fault_injection: flags %u: %d faults in loading a cached binary recovered from\n", (unsigned)flags,
           recovered);
    if (from_binary_cache)
        ck_assert_int_gt(recovered, 0); /* the cache-hit path was taken, and its faults hit */
    else
        ck_assert_int_eq(recovered, 0);
    ck_assert_int_eq(clg_fault_live_buffers(), 0);
    ck_assert_int_eq(clg_fault_live_events(), 0);
}

START_TEST(device_out_of_memory_is_a_specific_status)
{
    setenv("CLGATHER_CACHE", "0", 1);
    sequence_state st = {NULL, 0, NULL};
    ck_assert_int_eq(clg_context_create_default(NULL, 0, &st.ctx), CLG_SUCCESS);
    const long held = clg_fault_live_buffers(); /* the context's own (its open gate) */
    unsigned char *out = support_poisoned(OUT_BYTES);
    clg_fault_arm(CLG_FAULT_ALLOCATION, 1); /* the first device buffer the call makes: data */
    ck_assert_int_eq(sync_gather(&st, CLG_OV_GATHER_8, good_idx, out), CLG_ERR_DEVICE_OUT_OF_MEMORY);
    ck_assert_msg(strstr(clg_last_error_message(), "for data"), "%s", clg_last_error_message());
    clg_fault_arm(0, 0);
    ck_assert(support_all_poison(out, OUT_BYTES));
    ck_assert_int_eq(clg_fault_live_buffers(), held);
    free(out);
    clg_context_release(st.ctx);
    ck_assert_int_eq(clg_fault_live_buffers(), 0);
}
END_TEST

START_TEST(every_fault_point_plain) { every_fault_point(0, 0); }
END_TEST
START_TEST(every_fault_point_verify_mode) { every_fault_point(CLG_CONTEXT_VERIFY, 1); }
END_TEST
START_TEST(every_fault_point_deferred_errors) { every_fault_point(CLG_CONTEXT_DEFER_ERRORS, 1); }
END_TEST

/* The deferred policy's promise: an enqueue call that checks its inputs on the device makes no host
 * wait (no blocking read, clFinish or clWaitForEvents) between check and kernel; the blocking policy
 * makes one, which shows the count works. Each call is made twice, the first time to build its
 * kernels outside the count; its inputs are bad, and the output must stay untouched either way. */
typedef clg_status (*enqueue_fn)(clg_context *ctx, int good, cl_mem output, cl_event *done);

/* An input of a call, copied into a buffer of its own (this file's OpenCL calls are no fault points). */
static cl_mem input_buffer(clg_context *ctx, const void *host, size_t bytes)
{
    cl_int err;
    cl_mem m =
        clCreateBuffer(clg_context_cl_context(ctx), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, (void *)host, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    return m;
}

/* Enqueue a call with the given indices on buffers made here; the fault counters start from zero. */
static clg_status enqueue_indexed(clg_context *ctx, const support_op *op, const void *desc, const void *idx,
                                  size_t idx_bytes, cl_mem output, cl_event *done)
{
    cl_mem bd = input_buffer(ctx, data, sizeof data), bi = input_buffer(ctx, idx, idx_bytes);
    clg_fault_arm(0, 0); /* resets the count */
    clg_status st = op->enqueue(ctx, desc, clg_context_cl_queue(ctx), bd, 0, bi, 0, output, 0, 0, NULL, done);
    clReleaseMemObject(bd); /* OpenCL keeps them until the commands using them complete */
    clReleaseMemObject(bi);
    return st;
}

static clg_status enqueue_gather_call(clg_context *ctx, int good, cl_mem output, cl_event *done)
{
    clg_gather_desc d = support_onnx_desc(CLG_ONNX_13, CLG_F32, 2, ds, CLG_I32, 1, is, 0);
    return enqueue_indexed(ctx, &support_gather, &d, good ? good_idx : bad_idx, sizeof bad_idx, output, done);
}

static clg_status enqueue_elements_call(clg_context *ctx, int good, cl_mem output, cl_event *done)
{
    clg_gather_elements_desc d = elements_desc(CLG_ONNX_GATHER_ELEMENTS_13, CLG_OOB_PRESET);
    return enqueue_indexed(ctx, &support_gather_elements, &d, good ? good_elements : bad_elements, sizeof bad_elements,
                           output, done);
}

static clg_status enqueue_nd_call(clg_context *ctx, int good, cl_mem output, cl_event *done)
{
    clg_gather_nd_desc d = nd_desc(CLG_ONNX_GATHER_ND_13, CLG_OOB_PRESET);
    return enqueue_indexed(ctx, &support_gather_nd, &d, good ? good_tuples : bad_tuples, sizeof bad_tuples, output,
                           done);
}

static clg_status enqueue_tree_call(clg_context *ctx, int good, cl_mem output, cl_event *done)
{
    clg_gather_tree_desc d;
    memset(&d, 0, sizeof d);
    const int64_t tbw[] = {3, 1, 2}, b[] = {1};
    support_shape(&d.step_ids, CLG_I32, 3, tbw);
    support_shape(&d.parent_ids, CLG_I32, 3, tbw);
    support_shape(&d.max_seq_len, CLG_I32, 1, b);
    support_shape(&d.end_token, CLG_I32, 0, NULL);
    /* beam width 2: a parent id of 2 is invalid */
    const int32_t step[6] = {1, 2, 3, 4, 5, 6}, parents[6] = {0, 0, 1, 0, 1, good ? 1 : 2}, len[1] = {3}, end = 9;
    cl_mem bs = input_buffer(ctx, step, sizeof step), bp = input_buffer(ctx, parents, sizeof parents);
    cl_mem bl = input_buffer(ctx, len, sizeof len), be = input_buffer(ctx, &end, sizeof end);
    clg_fault_arm(0, 0);
    clg_status st = clg_gather_tree_enqueue(ctx, &d, clg_context_cl_queue(ctx), bs, 0, bp, 0, bl, 0, be, 0, output, 0,
                                            0, NULL, done);
    clReleaseMemObject(bs);
    clReleaseMemObject(bp);
    clReleaseMemObject(bl);
    clReleaseMemObject(be);
    return st;
}

/* EmbeddingBag calls: bags {0, 5} and {2, 3} of data's six rows of 4 (torch-embedding-bag, offsets, sum); the
 * bad call's second bag holds row 6. */
static const int64_t bag_offsets[2] = {0, 2}, good_bag_rows[4] = {0, 5, 2, 3}, bad_bag_rows[4] = {0, 5, 6, 3};
static const int64_t bag_index_count = 4, bag_count = 2;

static clg_embedding_bag_desc bag_part(void)
{
    clg_embedding_bag_desc d;
    memset(&d, 0, sizeof d);
    d.preset = CLG_TORCH_EMBEDDING_BAG;
    d.bag_form = CLG_BAG_OFFSETS;
    d.mode = CLG_BAG_SUM;
    support_shape(&d.indices, CLG_I64, 1, &bag_index_count);
    support_shape(&d.offsets, CLG_I64, 1, &bag_count);
    return d;
}

static clg_status enqueue_bag_call(clg_context *ctx, int good, cl_mem output, cl_event *done)
{
    clg_embedding_bag_desc d = bag_part();
    support_shape(&d.table, CLG_F32, 2, ds);
    cl_mem table = input_buffer(ctx, data, sizeof data), offsets = input_buffer(ctx, bag_offsets, sizeof bag_offsets);
    cl_mem rows = input_buffer(ctx, good ? good_bag_rows : bad_bag_rows, sizeof good_bag_rows);
    clg_fault_arm(0, 0);
    clg_status st = clg_embedding_bag_enqueue(ctx, &d, clg_context_cl_queue(ctx), table, 0, rows, 0, offsets, 0, NULL,
                                              0, output, 0, 0, NULL, done);
    clReleaseMemObject(table);
    clReleaseMemObject(rows);
    clReleaseMemObject(offsets);
    return st;
}

/* The same bags over six FBGEMM 8-bit rows of 4 values (then an f32 scale and bias), f32 out. */
static clg_status enqueue_quantized_bag_call(clg_context *ctx, int good, cl_mem output, cl_event *done)
{
    clg_embedding_bag_quantized_desc d;
    memset(&d, 0, sizeof d);
    d.bag = bag_part();
    d.layout = CLG_QUANT_FBGEMM_8BIT_ROWWISE;
    d.data.type = CLG_QUANT_U8;
    d.data.rank = 2;
    d.data.shape[0] = 6;
    d.data.shape[1] = 4 + 8;
    unsigned char table[6 * 12];
    const float scale = 0.5f, bias = -1.0f;
    for (int r = 0; r < 6; ++r) {
        for (int k = 0; k < 4; ++k) table[12 * r + k] = (unsigned char)(4 * r + k);
        memcpy(table + 12 * r + 4, &scale, 4);
        memcpy(table + 12 * r + 8, &bias, 4);
    }
    cl_mem tb = input_buffer(ctx, table, sizeof table), offsets = input_buffer(ctx, bag_offsets, sizeof bag_offsets);
    cl_mem rows = input_buffer(ctx, good ? good_bag_rows : bad_bag_rows, sizeof good_bag_rows);
    clg_fault_arm(0, 0);
    clg_status st = clg_embedding_bag_quantized_enqueue(ctx, &d, clg_context_cl_queue(ctx), tb, 0, NULL, 0, NULL, 0,
                                                        rows, 0, offsets, 0, NULL, 0, output, 0, 0, NULL, done);
    clReleaseMemObject(tb);
    clReleaseMemObject(rows);
    clReleaseMemObject(offsets);
    return st;
}

/* A table-batched call over data as two tables of three rows of 4 (rows 0-2 and 3-5), one bag each (B 1):
 * indices {0, 2} in the first and {1, 2} in the second; the bad call's second bag holds row 3. */
static clg_status enqueue_tables_call(clg_context *ctx, int good, cl_mem output, cl_event *done)
{
    const clg_embedding_bag_table tables[2] = {{CLG_F32, 0, 3, 4, 0}, {CLG_F32, 0, 3, 4, 3 * 4 * sizeof(float)}};
    static const int64_t good_rows[4] = {0, 2, 1, 2}, bad_rows[4] = {0, 2, 3, 2}, table_offsets[2] = {0, 2};
    clg_embedding_bag_tables_desc d;
    memset(&d, 0, sizeof d);
    d.mode = CLG_BAG_SUM;
    d.num_tables = 2;
    d.tables = tables;
    support_shape(&d.indices, CLG_I64, 1, &bag_index_count);
    support_shape(&d.offsets, CLG_I64, 1, &bag_count);
    cl_mem tb = input_buffer(ctx, data, sizeof data), offsets = input_buffer(ctx, table_offsets, sizeof table_offsets);
    cl_mem rows = input_buffer(ctx, good ? good_rows : bad_rows, sizeof good_rows);
    clg_fault_arm(0, 0);
    clg_status st = clg_embedding_bag_tables_enqueue(ctx, &d, clg_context_cl_queue(ctx), tb, 0, rows, 0, offsets, 0,
                                                     NULL, 0, output, 0, 0, NULL, done);
    clReleaseMemObject(tb);
    clReleaseMemObject(rows);
    clReleaseMemObject(offsets);
    return st;
}

static long host_waits_of(uint32_t flags, enqueue_fn enqueue, clg_status failure)
{
    clg_context *ctx = NULL;
    ck_assert_int_eq(clg_context_create_default(NULL, flags, &ctx), CLG_SUCCESS);
    cl_command_queue q = clg_context_cl_queue(ctx);
    unsigned char *out = support_poisoned(OUT_BYTES);
    cl_int err;
    cl_mem bo =
        clCreateBuffer(clg_context_cl_context(ctx), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, OUT_BYTES, out, &err);
    long waits = 0;
    for (int round = 0; round < 2; ++round) {
        cl_event done = NULL;
        clg_status st = enqueue(ctx, 0, bo, &done);
        waits = clg_fault_host_waits();
        if (flags & CLG_CONTEXT_DEFER_ERRORS) {
            ck_assert_int_eq(st, CLG_SUCCESS);
            ck_assert_int_eq(clg_deferred_status(ctx, done), failure);
            clg_fault_release_event(done);
        } else {
            ck_assert_int_eq(st, failure);
        }
    }
    clFinish(q);
    clEnqueueReadBuffer(q, bo, CL_TRUE, 0, OUT_BYTES, out, 0, NULL, NULL);
    ck_assert(support_all_poison(out, OUT_BYTES));
    clReleaseMemObject(bo);
    free(out);
    clg_context_release(ctx);
    return waits;
}

START_TEST(deferred_enqueue_makes_no_host_wait)
{
    setenv("CLGATHER_CACHE", "0", 1);
    ck_assert_int_eq(host_waits_of(CLG_CONTEXT_DEFER_ERRORS, enqueue_gather_call, CLG_ERR_INDEX_OUT_OF_RANGE), 0);
    ck_assert_int_gt(host_waits_of(0, enqueue_gather_call, CLG_ERR_INDEX_OUT_OF_RANGE), 0);
    ck_assert_int_eq(host_waits_of(CLG_CONTEXT_DEFER_ERRORS, enqueue_elements_call, CLG_ERR_INDEX_OUT_OF_RANGE), 0);
    ck_assert_int_gt(host_waits_of(0, enqueue_elements_call, CLG_ERR_INDEX_OUT_OF_RANGE), 0);
    ck_assert_int_eq(host_waits_of(CLG_CONTEXT_DEFER_ERRORS, enqueue_nd_call, CLG_ERR_INDEX_OUT_OF_RANGE), 0);
    ck_assert_int_gt(host_waits_of(0, enqueue_nd_call, CLG_ERR_INDEX_OUT_OF_RANGE), 0);
    ck_assert_int_eq(host_waits_of(CLG_CONTEXT_DEFER_ERRORS, enqueue_tree_call, CLG_ERR_INVALID_PARENT), 0);
    ck_assert_int_gt(host_waits_of(0, enqueue_tree_call, CLG_ERR_INVALID_PARENT), 0);
    const enqueue_fn bag_calls[] = {enqueue_bag_call, enqueue_quantized_bag_call, enqueue_tables_call};
    for (size_t k = 0; k < sizeof bag_calls / sizeof bag_calls[0]; ++k) {
        ck_assert_int_eq(host_waits_of(CLG_CONTEXT_DEFER_ERRORS, bag_calls[k], CLG_ERR_INDEX_OUT_OF_RANGE), 0);
        ck_assert_int_gt(host_waits_of(0, bag_calls[k], CLG_ERR_INDEX_OUT_OF_RANGE), 0);
    }
}
END_TEST

/* The blocking policy's one wait comes after the check and the kernels it gates are all on the queue,
 * so that the kernels start as the check ends, not a host round trip later. Each call is made twice,
 * the first time to build its kernels outside the count; its inputs are good. */
static void blocking_call_waits_once_after_its_kernels(enqueue_fn enqueue, const char *what)
{
    clg_context *ctx = NULL;
    ck_assert_int_eq(clg_context_create_default(NULL, 0, &ctx), CLG_SUCCESS);
    unsigned char *out = support_poisoned(OUT_BYTES);
    cl_int err;
    cl_mem bo =
        clCreateBuffer(clg_context_cl_context(ctx), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, OUT_BYTES, out, &err);
    long waits = 0, kernels = 0;
    for (int round = 0; round < 2; ++round) {
        cl_event done = NULL;
        ck_assert_int_eq(enqueue(ctx, 1, bo, &done), CLG_SUCCESS);
        waits = clg_fault_host_waits();
        kernels = clg_fault_kernels_before_first_wait();
        clWaitForEvents(1, &done);
        clg_fault_release_event(done);
    }
    ck_assert_msg(waits == 1, "%s: %ld host waits", what, waits);
    ck_assert_msg(kernels >= 2, "%s: %ld kernels (check and gather) on the queue at the wait", what, kernels);
    clReleaseMemObject(bo);
    free(out);
    clg_context_release(ctx);
}

START_TEST(blocking_enqueue_waits_after_its_kernels)
{
    setenv("CLGATHER_CACHE", "0", 1);
    blocking_call_waits_once_after_its_kernels(enqueue_gather_call, "gather");
    blocking_call_waits_once_after_its_kernels(enqueue_elements_call, "gather elements");
    blocking_call_waits_once_after_its_kernels(enqueue_nd_call, "gather nd");
    blocking_call_waits_once_after_its_kernels(enqueue_bag_call, "embedding bag");
    blocking_call_waits_once_after_its_kernels(enqueue_quantized_bag_call, "embedding bag, quantized table");
    blocking_call_waits_once_after_its_kernels(enqueue_tables_call, "embedding bag, table-batched");
}
END_TEST

int main(void)
{
    /* one case a sweep, so CTest can run them side by side (CK_RUN_CASE, tests/CMakeLists.txt) */
    Suite *s = suite_create("fault_injection");
    TCase *single = tcase_create("single_faults");
    tcase_add_test(single, device_out_of_memory_is_a_specific_status);
    tcase_add_test(single, deferred_enqueue_makes_no_host_wait);
    tcase_add_test(single, blocking_enqueue_waits_after_its_kernels);
    suite_add_tcase(s, single);
    TCase *plain = tcase_create("sweep_plain"), *verify = tcase_create("sweep_verify_mode"),
          *deferred = tcase_create("sweep_deferred_errors");
    tcase_add_test(plain, every_fault_point_plain);
    tcase_add_test(verify, every_fault_point_verify_mode);
    tcase_add_test(deferred, every_fault_point_deferred_errors);
    TCase *sweeps[] = {plain, verify, deferred};
    for (int i = 0; i < 3; ++i) {
        tcase_set_timeout(sweeps[i], 1800);
        suite_add_tcase(s, sweeps[i]);
    }
    return support_run_suite(s);
}
