/* EmbeddingBag over quantized tables: hand-checked bags of each layout family, refused descriptors,
 * hostile indices, offsets and segment ids (status, message, output untouched), and random cases over
 * every layout of the dequantizing gather x every preset, form and mode (weights, default_index,
 * padding_idx, include_last_offset, f32 / f16 / bf16 output), each through the reference, the
 * synchronous and the enqueue call on both mappings (tensors inside guarded cl_mem) and a deferring
 * context, bit for bit against the CPU reference; the register loops under pieces of 24 values and
 * under 16 lanes and pieces of 64. CLGATHER_TEST_SCALE scales the random cases,
 * CLGATHER_TEST_SEED replays a seed. Three programs: one for the 32-value ggml blocks, ONNX Runtime's and
 * OpenVINO's layouts, one for ggml's super-blocks, one for FBGEMM's rows (each built on the suite's
 * context and on the deferring one). */
#include "bag_support.h"
#include "core/float_bits.h"
#include "op_support.h"
#include "quantized_support.h"
#include "testing/testing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GUARD BAG_GUARD

typedef struct qbag_case {
    clg_embedding_bag_quantized_desc desc;
    unsigned char *data, *scales, *zero_points, *indices, *bags, *weights;
    size_t data_bytes, scale_bytes, zp_bytes, index_bytes, bags_bytes, weights_bytes, out_bytes;
} qbag_case;

static unsigned char *zeroed(size_t bytes)
{
    unsigned char *p = calloc(bytes ? bytes : 1, 1);
    ck_assert_ptr_nonnull(p);
    return p;
}

/* Zero-filled inputs of the sizes validation gives (it must succeed). */
static void qbag_alloc(qbag_case *c)
{
    uint64_t d, s, z, i, b, w, o;
    const clg_status st = clg_embedding_bag_quantized_sizes(&c->desc, &d, &s, &z, &i, &b, &w, &o);
    ck_assert_msg(st == CLG_SUCCESS, "sizes: %s: %s", clg_status_string(st), clg_last_error_message());
    c->data_bytes = d, c->scale_bytes = s, c->zp_bytes = z, c->index_bytes = i, c->bags_bytes = b;
    c->weights_bytes = w, c->out_bytes = o;
    c->data = zeroed(d), c->scales = zeroed(s), c->zero_points = zeroed(z);
    c->indices = zeroed(i), c->bags = zeroed(b), c->weights = zeroed(w);
}

static void qbag_free(qbag_case *c)
{
    unsigned char *all[] = {c->data, c->scales, c->zero_points, c->indices, c->bags, c->weights};
    for (int k = 0; k < 6; ++k) free(all[k]);
}

/* An absent input is NULL with 0 bytes. */
#define PRESENT(c, name, bytes) ((c)->bytes ? (const void *)(c)->name : NULL), (c)->bytes

static clg_status qbag_reference(const qbag_case *c, void *out)
{
    return clg_embedding_bag_quantized_reference(&c->desc, PRESENT(c, data, data_bytes),
                                                 PRESENT(c, scales, scale_bytes), PRESENT(c, zero_points, zp_bytes),
                                                 PRESENT(c, indices, index_bytes), PRESENT(c, bags, bags_bytes),
                                                 PRESENT(c, weights, weights_bytes), out, c->out_bytes);
}

static clg_status qbag_sync(clg_context *ctx, const qbag_case *c, void *out)
{
    return clg_embedding_bag_quantized(ctx, &c->desc, PRESENT(c, data, data_bytes), PRESENT(c, scales, scale_bytes),
                                       PRESENT(c, zero_points, zp_bytes), PRESENT(c, indices, index_bytes),
                                       PRESENT(c, bags, bags_bytes), PRESENT(c, weights, weights_bytes), out,
                                       c->out_bytes);
}

/* A cl_mem of GUARD + bytes + GUARD, the tensor between poison; NULL for an absent tensor. */
static cl_mem guarded(cl_context cl, const void *data, size_t bytes)
{
    if (!bytes) return NULL;
    unsigned char *region = support_poisoned(bytes + 2 * GUARD);
    memcpy(region + GUARD, data, bytes);
    cl_int err;
    cl_mem mem = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes + 2 * GUARD, region, &err);
    free(region);
    ck_assert_int_eq(err, CL_SUCCESS);
    return mem;
}

/* The enqueue call with every tensor at offset GUARD of a guarded cl_mem; out_region gets the whole
 * output cl_mem back. With `deferred`, the status clg_deferred_status gives. */
static clg_status qbag_enqueue(clg_context *ctx, const qbag_case *c, unsigned char *out_region, int deferred)
{
    cl_context cl = clg_context_cl_context(ctx);
    cl_command_queue queue = clg_context_cl_queue(ctx);
    cl_mem m[7] = {guarded(cl, c->data, c->data_bytes),
                   guarded(cl, c->scales, c->scale_bytes),
                   guarded(cl, c->zero_points, c->zp_bytes),
                   guarded(cl, c->indices, c->index_bytes),
                   guarded(cl, c->bags, c->bags_bytes),
                   guarded(cl, c->weights, c->weights_bytes),
                   NULL};
    memset(out_region, POISON_BYTE, c->out_bytes + 2 * GUARD);
    m[6] = guarded(cl, out_region + GUARD, c->out_bytes);
    cl_event done = NULL;
    clg_status st =
        clg_embedding_bag_quantized_enqueue(ctx, &c->desc, queue, m[0], GUARD, m[1], GUARD, m[2], GUARD, m[3], GUARD,
                                            m[4], GUARD, m[5], GUARD, m[6], GUARD, 0, NULL, &done);
    if (st == CLG_SUCCESS && deferred) st = clg_deferred_status(ctx, done);
    if (done) clReleaseEvent(done);
    ck_assert_int_eq(clFinish(queue), CL_SUCCESS);
    if (m[6])
        ck_assert_int_eq(
            clEnqueueReadBuffer(queue, m[6], CL_TRUE, 0, c->out_bytes + 2 * GUARD, out_region, 0, NULL, NULL),
            CL_SUCCESS);
    for (int k = 0; k < 7; ++k)
        if (m[k]) clReleaseMemObject(m[k]);
    return st;
}

/* One path's status and message against the reference's, and its output against the reference's
 * output (success) or poison (failure). */
static void expect_same(clg_status st, clg_status want, const char *want_message, const void *out,
                        const void *reference, size_t bytes, const char *path, const char *name)
{
    ck_assert_msg(st == want, "%s, %s: %s (%s), the reference gives %s (%s)", name, path, clg_status_string(st),
                  clg_last_error_message(), clg_status_string(want), want_message);
    if (st != CLG_SUCCESS) {
        ck_assert_msg(strcmp(clg_last_error_message(), want_message) == 0, "%s, %s: message '%s', the reference's '%s'",
                      name, path, clg_last_error_message(), want_message);
        ck_assert_msg(support_all_poison(out, bytes), "%s, %s: the output was written on failure", name, path);
        return;
    }
    if (memcmp(out, reference, bytes) == 0) return;
    size_t k = 0;
    while (((const unsigned char *)out)[k] == ((const unsigned char *)reference)[k]) ++k;
    ck_abort_msg("%s, %s: output byte %zu is 0x%02x, the reference's 0x%02x", name, path, k,
                 ((const unsigned char *)out)[k], ((const unsigned char *)reference)[k]);
}

/* Every entry point on c agrees with the reference (which must give `want`); returns the reference's
 * output (the caller frees it). */
static unsigned char *check_all_paths(const qbag_case *c, clg_status want, const char *name)
{
    const size_t bytes = c->out_bytes;
    unsigned char *reference = support_poisoned(bytes + 1), *out = support_poisoned(bytes + 1);
    unsigned char *region = malloc(bytes + 2 * GUARD);
    ck_assert_ptr_nonnull(region);
    const clg_status ref = qbag_reference(c, reference);
    ck_assert_msg(ref == want, "%s, reference: %s (%s), expected %s", name, clg_status_string(ref),
                  clg_last_error_message(), clg_status_string(want));
    char message[512];
    snprintf(message, sizeof message, "%s", clg_last_error_message());
    if (ref != CLG_SUCCESS) ck_assert_msg(support_all_poison(reference, bytes), "%s: the reference wrote", name);
    clg_context *ctx = support_cl_context();
    for (int m = 0; m < 2; ++m) {
        char path[64];
        support_use_mapping(ctx, support_mappings[m]);
        memset(out, POISON_BYTE, bytes);
        snprintf(path, sizeof path, "synchronous call, %s mapping", support_mappings[m]);
        expect_same(qbag_sync(ctx, c, out), ref, message, out, reference, bytes, path, name);
        snprintf(path, sizeof path, "enqueue call, %s mapping", support_mappings[m]);
        clg_testing_forget_variant(ctx);
        expect_same(qbag_enqueue(ctx, c, region, 0), ref, message, region + GUARD, reference, bytes, path, name);
        /* the mapping's own kernel ran, where the values let one run */
        const char *variant = clg_testing_last_variant(ctx), *own = m ? "bag-quantized-columns" : "bag-quantized-runs";
        if (ref == CLG_SUCCESS && bytes > 0)
            ck_assert_msg(strcmp(variant, own) == 0, "%s, %s: variant '%s' ran, not '%s'", name, path, variant, own);
        ck_assert_msg(support_guards_intact(region, GUARD, bytes), "%s, %s: a guard byte was written", name, path);
    }
    support_use_mapping(ctx, NULL);
    expect_same(qbag_enqueue(bag_deferring_context(), c, region, 1), ref, message, region + GUARD, reference, bytes,
                "deferred enqueue call", name);
    ck_assert_msg(support_guards_intact(region, GUARD, bytes), "%s, deferred call: a guard byte was written", name);
    free(out);
    free(region);
    return reference;
}

static void set_quant(clg_quant_tensor_desc *t, clg_quant_type type, int32_t rank, int64_t d0, int64_t d1)
{
    memset(t, 0, sizeof *t);
    t->type = type;
    t->rank = rank;
    t->shape[0] = d0;
    t->shape[1] = d1;
}

static float output_value(clg_dtype type, const unsigned char *out, uint64_t k)
{
    uint32_t bits;
    if (type == CLG_F32) {
        memcpy(&bits, out + 4 * k, 4);
    } else {
        uint16_t h;
        memcpy(&h, out + 2 * k, 2);
        bits = type == CLG_F16 ? clg_f16_to_f32_bits(h) : clg_bf16_to_f32_bits(h);
    }
    float v;
    memcpy(&v, &bits, 4);
    return v;
}

static void put_f16(unsigned char *at, float v)
{
    uint32_t bits;
    memcpy(&bits, &v, 4);
    const uint16_t h = clg_f32_to_f16_bits(bits);
    memcpy(at, &h, 2);
}

/* ---- hand-checked bags ------------------------------------------------------------------------ */

/* ggml q8_0 rows of one block (d = 0.5, 1, 2; value j of row r is (j - 16 + r) * d), torch offsets, sum:
 * bag 0 = rows 0 and 2, 2.5 j - 36; bag 1 = row 1, j - 15. */
START_TEST(q8_0_offsets_sum)
{
    qbag_case c = {.desc = {.bag = {.preset = CLG_TORCH_EMBEDDING_BAG, .bag_form = CLG_BAG_OFFSETS}}};
    c.desc.layout = CLG_QUANT_GGML_Q8_0;
    set_quant(&c.desc.data, CLG_QUANT_U8, 2, 3, 34);
    c.desc.bag.indices = bag_tensor(CLG_I64, 1, 3, 0);
    c.desc.bag.offsets = bag_tensor(CLG_I32, 1, 2, 0);
    qbag_alloc(&c);
    static const float d[] = {0.5f, 1.f, 2.f};
    for (int r = 0; r < 3; ++r) {
        put_f16(c.data + 34 * r, d[r]);
        for (int j = 0; j < 32; ++j) c.data[34 * r + 2 + j] = (unsigned char)(int8_t)(j - 16 + r);
    }
    const int64_t indices[] = {0, 2, 1};
    const int32_t offsets[] = {0, 2};
    memcpy(c.indices, indices, sizeof indices);
    memcpy(c.bags, offsets, sizeof offsets);
    unsigned char *out = check_all_paths(&c, CLG_SUCCESS, "q8_0 sum");
    for (int j = 0; j < 32; ++j) {
        ck_assert_float_eq(output_value(CLG_F32, out, (uint64_t)j), 2.5f * (float)j - 36.f);
        ck_assert_float_eq(output_value(CLG_F32, out, 32u + (uint64_t)j), (float)j - 15.f);
    }
    free(out);
    qbag_free(&c);
}
END_TEST

/* ONNX Runtime u4 rows of 16 values, one block each (scales 0.25 and 4, zero points 8 and 3; value j of
 * row 0 is j, of row 1 15 - j), torch packed [1, 2], mean, f16 output: ((j - 8) / 4 + (12 - j) * 4) / 2
 * = 23 - 1.875 j. */
START_TEST(ort_u4_packed_mean_f16)
{
    qbag_case c = {
        .desc = {.bag = {.preset = CLG_TORCH_EMBEDDING_BAG, .bag_form = CLG_BAG_PACKED, .mode = CLG_BAG_MEAN}}};
    c.desc.layout = CLG_QUANT_ORT_BLOCK;
    set_quant(&c.desc.data, CLG_QUANT_U4, 2, 2, 16);
    c.desc.scales = bag_tensor(CLG_F32, 2, 2, 1);
    set_quant(&c.desc.zero_points, CLG_QUANT_U4, 2, 2, 1);
    c.desc.block_size = 16;
    c.desc.output_type = CLG_F16;
    c.desc.bag.indices = bag_tensor(CLG_I32, 2, 1, 2);
    qbag_alloc(&c);
    for (int j = 0; j < 16; ++j) {
        c.data[j / 2] |= (unsigned char)(j << (4 * (j % 2)));
        c.data[8 + j / 2] |= (unsigned char)((15 - j) << (4 * (j % 2)));
    }
    const float scales[] = {0.25f, 4.f};
    memcpy(c.scales, scales, sizeof scales);
    c.zero_points[0] = 8 | 3 << 4;
    const int32_t indices[] = {0, 1};
    memcpy(c.indices, indices, sizeof indices);
    ck_assert_uint_eq(c.out_bytes, 32);
    unsigned char *out = check_all_paths(&c, CLG_SUCCESS, "ort u4 mean f16");
    for (int j = 0; j < 16; ++j) ck_assert_float_eq(output_value(CLG_F16, out, (uint64_t)j), 23.f - 1.875f * (float)j);
    free(out);
    qbag_free(&c);
}
END_TEST

/* OpenVINO u8 rows [3, 4] with a scale per row (1, 2, 0.5) and one zero point (10) for the table; value
 * c of row r is 10 + 4r + c: rows {0, 1, 2, 3}, {8, 10, 12, 14}, {4, 4.5, 5, 5.5}. Offsets [0, 0, 1]
 * with weights {3, -1}: bag 0 is empty (default_index 1), bag 1 = 3 x row 2, bag 2 = -1 x row 0. */
START_TEST(ov_offsets_weights_default_index)
{
    qbag_case c = {.desc = {.bag = {.preset = CLG_OV_EMBEDDING_BAG_OFFSETS_15, .bag_form = CLG_BAG_OFFSETS}}};
    c.desc.layout = CLG_QUANT_OV_COMPRESSED;
    set_quant(&c.desc.data, CLG_QUANT_U8, 2, 3, 4);
    c.desc.scales = bag_tensor(CLG_F32, 2, 3, 1);
    set_quant(&c.desc.zero_points, CLG_QUANT_U8, 1, 1, 0);
    c.desc.bag.indices = bag_tensor(CLG_U16, 1, 2, 0);
    c.desc.bag.offsets = bag_tensor(CLG_I64, 1, 3, 0);
    c.desc.bag.per_sample_weights = bag_tensor(CLG_F32, 1, 2, 0);
    c.desc.bag.has_default_index = 1;
    c.desc.bag.default_index = 1;
    qbag_alloc(&c);
    for (int k = 0; k < 12; ++k) c.data[k] = (unsigned char)(10 + k);
    const float scales[] = {1.f, 2.f, 0.5f}, weights[] = {3.f, -1.f};
    memcpy(c.scales, scales, sizeof scales);
    memcpy(c.weights, weights, sizeof weights);
    c.zero_points[0] = 10;
    const uint16_t indices[] = {2, 0};
    const int64_t offsets[] = {0, 0, 1};
    memcpy(c.indices, indices, sizeof indices);
    memcpy(c.bags, offsets, sizeof offsets);
    unsigned char *out = check_all_paths(&c, CLG_SUCCESS, "ov offsets");
    static const float want[] = {8, 10, 12, 14, 12, 13.5f, 15, 16.5f, 0, -1, -2, -3};
    for (int k = 0; k < 12; ++k) ck_assert_float_eq(output_value(CLG_F32, out, (uint64_t)k), want[k]);
    free(out);
    qbag_free(&c);
}
END_TEST

/* ggml q4_K rows of one super-block (d = 0.5 in row 0, dmin 0, every sub-block's scale 1 and minimum
 * 0, so value v is 0.5 q for its nibble q), torch max, bf16 output, padding_idx -1 (row 1): bag 0 holds
 * rows 1 and 0 and counts row 0 only; bag 1 holds only padding and gives zeros. */
START_TEST(q4_K_max_padding_idx)
{
    qbag_case c = {.desc = {.bag = {.preset = CLG_TORCH_EMBEDDING_BAG,
                                    .bag_form = CLG_BAG_OFFSETS,
                                    .mode = CLG_BAG_MAX,
                                    .has_padding_idx = 1,
                                    .padding_idx = -1}}};
    c.desc.layout = CLG_QUANT_GGML_Q4_K;
    set_quant(&c.desc.data, CLG_QUANT_U8, 2, 2, 144);
    c.desc.output_type = CLG_BF16;
    c.desc.bag.indices = bag_tensor(CLG_I8, 1, 3, 0);
    c.desc.bag.offsets = bag_tensor(CLG_I64, 1, 2, 0);
    qbag_alloc(&c);
    for (int r = 0; r < 2; ++r) {
        unsigned char *block = c.data + 144 * r;
        put_f16(block, r ? 100.f : 0.5f);              /* d; dmin (bytes 2, 3) 0 */
        for (int j = 0; j < 4; ++j) block[4 + j] = 1;  /* sub-blocks 0..3: scale 1, min 0 */
        for (int j = 8; j < 12; ++j) block[4 + j] = 1; /* sub-blocks 4..7: scale 1 (low nibble), min 0 */
        for (int k = 0; k < 128; ++k) block[16 + k] = (unsigned char)((k % 16) | (15 - k % 16) << 4);
    }
    const int8_t indices[] = {1, 0, 1}; /* bag 0: padding, row 0; bag 1: padding only (zeros) */
    const int64_t offsets[] = {0, 2};
    memcpy(c.indices, indices, sizeof indices);
    memcpy(c.bags, offsets, sizeof offsets);
    unsigned char *out = check_all_paths(&c, CLG_SUCCESS, "q4_K max");
    /* value v: byte 32 (v / 64) + v % 32 of qs, its low nibble where v % 64 < 32, else its high one */
    for (int v = 0; v < 256; ++v) {
        const int k = (v / 64) * 32 + v % 32, q = (v % 64) < 32 ? k % 16 : 15 - k % 16;
        ck_assert_float_eq(output_value(CLG_BF16, out, (uint64_t)v), 0.5f * (float)q);
        ck_assert_float_eq(output_value(CLG_BF16, out, 256u + (uint64_t)v), 0.f);
    }
    free(out);
    qbag_free(&c);
}
END_TEST

/* ---- refused descriptors and hostile values ----------------------------------------------------- */

static qbag_case small_q4_0(void)
{
    qbag_case c = {
        .desc = {.bag = {.preset = CLG_OV_EMBEDDING_SEGMENTS_SUM_3, .bag_form = CLG_BAG_SEGMENTS, .num_segments = 3}}};
    c.desc.layout = CLG_QUANT_GGML_Q4_0;
    set_quant(&c.desc.data, CLG_QUANT_U8, 2, 4, 36);
    c.desc.bag.indices = bag_tensor(CLG_I32, 1, 4, 0);
    c.desc.bag.segment_ids = bag_tensor(CLG_I64, 1, 4, 0);
    return c;
}

static void expect_refused(const clg_embedding_bag_quantized_desc *desc, clg_status want, const char *fragment)
{
    int32_t rank = -1;
    int64_t shape[CLG_MAX_OUTPUT_RANK];
    uint64_t bytes = 0;
    clg_status st = clg_embedding_bag_quantized_output_shape(desc, &rank, shape, NULL);
    ck_assert_msg(st == want, "output_shape: %s (%s), expected %s", clg_status_string(st), clg_last_error_message(),
                  clg_status_string(want));
    ck_assert_msg(strstr(clg_last_error_message(), fragment), "message '%s' lacks '%s'", clg_last_error_message(),
                  fragment);
    ck_assert_int_eq(rank, -1);
    ck_assert_int_eq(clg_embedding_bag_quantized_sizes(desc, &bytes, NULL, NULL, NULL, NULL, NULL, NULL), want);
    unsigned char big[512] = {0}, *out = support_poisoned(256);
    ck_assert_int_eq(clg_embedding_bag_quantized_reference(desc, big, 512, big, 512, big, 512, big, 512, big, 512, big,
                                                           512, out, 256),
                     want);
    ck_assert_int_eq(clg_embedding_bag_quantized(support_cl_context(), desc, big, 512, big, 512, big, 512, big, 512,
                                                 big, 512, big, 512, out, 256),
                     want);
    ck_assert_msg(strstr(clg_last_error_message(), fragment), "message '%s' lacks '%s'", clg_last_error_message(),
                  fragment);
    ck_assert(support_all_poison(out, 256));
    free(out);
}

START_TEST(refused_descriptors)
{
    qbag_case c = small_q4_0();
    c.desc.bag.table = bag_tensor(CLG_F32, 2, 4, 32);
    expect_refused(&c.desc, CLG_ERR_INPUT_NOT_ALLOWED, "bag.table is given");
    c = small_q4_0();
    c.desc.output_type = CLG_F64;
    expect_refused(&c.desc, CLG_ERR_INVALID_DTYPE, "output_type f64");
    c = small_q4_0();
    c.desc.bag.per_sample_weights = bag_tensor(CLG_F16, 1, 4, 0);
    expect_refused(&c.desc, CLG_ERR_TYPE_MISMATCH, "per_sample_weights type f16");
    c = small_q4_0();
    c.desc.layout = CLG_QUANT_LAYOUT_COUNT;
    expect_refused(&c.desc, CLG_ERR_INVALID_LAYOUT, "layout");
    c = small_q4_0();
    c.desc.data.shape[1] = 35; /* not whole blocks */
    expect_refused(&c.desc, CLG_ERR_INVALID_BLOCK_SIZE, "35");
    c = small_q4_0();
    c.desc.scales = bag_tensor(CLG_F32, 2, 4, 1);
    expect_refused(&c.desc, CLG_ERR_INPUT_NOT_ALLOWED, "scales");
    c = small_q4_0();
    c.desc.bag.mode = CLG_BAG_MEAN;
    expect_refused(&c.desc, CLG_ERR_INVALID_MODE, "mode");
    c = small_q4_0();
    c.desc.bag.segment_ids.type = CLG_DTYPE_INVALID;
    expect_refused(&c.desc, CLG_ERR_INPUT_MISSING, "segment_ids");
    c = small_q4_0();
    c.desc.bag.has_default_index = 1, c.desc.bag.default_index = 4;
    expect_refused(&c.desc, CLG_ERR_INDEX_OUT_OF_RANGE, "default_index = 4");
}
END_TEST

/* A bad index, segment id or offset: every path names the same one, the output untouched. */
START_TEST(hostile_values)
{
    qbag_case c = small_q4_0();
    qbag_alloc(&c);
    const int32_t indices[] = {0, 3, 4, 1};
    const int64_t ids[] = {0, 0, 2, 2};
    memcpy(c.indices, indices, sizeof indices);
    memcpy(c.bags, ids, sizeof ids);
    free(check_all_paths(&c, CLG_ERR_INDEX_OUT_OF_RANGE, "index 4"));
    ck_assert(strstr(clg_last_error_message(), "indices[2] = 4 is outside [0, 4)"));
    ((int32_t *)c.indices)[2] = INT32_MIN;
    free(check_all_paths(&c, CLG_ERR_INDEX_OUT_OF_RANGE, "index INT32_MIN"));
    ((int32_t *)c.indices)[2] = 2;
    ((int64_t *)c.bags)[3] = 1; /* decreases */
    free(check_all_paths(&c, CLG_ERR_INVALID_SEGMENT_IDS, "segment id decreases"));
    ((int64_t *)c.bags)[3] = 3; /* outside [0, 3) */
    free(check_all_paths(&c, CLG_ERR_INVALID_SEGMENT_IDS, "segment id 3"));
    ck_assert(strstr(clg_last_error_message(), "segment_ids[3] = 3"));
    qbag_free(&c);

    qbag_case o = {.desc = {.bag = {.preset = CLG_TORCH_EMBEDDING_BAG, .bag_form = CLG_BAG_OFFSETS}}};
    o.desc.layout = CLG_QUANT_GGML_Q4_0;
    set_quant(&o.desc.data, CLG_QUANT_U8, 2, 2, 18);
    o.desc.bag.indices = bag_tensor(CLG_I64, 1, 2, 0);
    o.desc.bag.offsets = bag_tensor(CLG_I64, 1, 2, 0);
    qbag_alloc(&o);
    const int64_t offsets[] = {0, INT64_MAX};
    memcpy(o.bags, offsets, sizeof offsets);
    free(check_all_paths(&o, CLG_ERR_INVALID_OFFSETS, "offset INT64_MAX"));
    ((int64_t *)o.bags)[0] = 1;
    ((int64_t *)o.bags)[1] = 1;
    free(check_all_paths(&o, CLG_ERR_INVALID_OFFSETS, "offsets[0] = 1"));
    ck_assert(strstr(clg_last_error_message(), "offsets[0] = 1"));
    qbag_free(&o);
}
END_TEST

/* ---- random cases ------------------------------------------------------------------------------- */

static const clg_dtype float_types[] = {CLG_F32, CLG_F16, CLG_BF16};

/* Every layout of the dequantizing gather, ggml's super-blocks and FBGEMM's rows last. */
static const clg_quant_layout layouts[] = {
    CLG_QUANT_ORT_BLOCK, CLG_QUANT_OV_COMPRESSED, CLG_QUANT_GGML_Q4_0,   CLG_QUANT_GGML_Q8_0,  CLG_QUANT_GGML_Q4_1,
    CLG_QUANT_GGML_Q5_0, CLG_QUANT_GGML_Q5_1,     CLG_QUANT_GGML_IQ4_NL, CLG_QUANT_GGML_Q2_K,  CLG_QUANT_GGML_Q3_K,
    CLG_QUANT_GGML_Q4_K, CLG_QUANT_GGML_Q5_K,     CLG_QUANT_GGML_Q6_K,   CLG_QUANT_GGML_IQ4_XS};
enum { LAYOUTS = sizeof layouts / sizeof layouts[0] };

/* A scale or block field: mostly ordinary, now and then zero, subnormal, infinite or NaN. */
static uint32_t pick_scale_bits(support_rng *rng)
{
    const uint64_t r = support_below(rng, 100);
    const uint32_t sign = support_below(rng, 2) ? 0x80000000u : 0u;
    if (r < 88)
        return sign | (uint32_t)((118 + support_below(rng, 14)) << 23) | (uint32_t)(support_next(rng) & 0x7FFFFF);
    if (r < 91) return sign;
    if (r < 94) return sign | (uint32_t)(support_next(rng) & 0x7FFFFF);
    if (r < 97) return sign | 0x7F800000u;
    return sign | 0x7FC00000u | (uint32_t)support_below(rng, 0x3FFFFF);
}

/* An f16 field: pick_scale_bits's mix narrowed to f16, where an f32 subnormal becomes a zero, and one in
 * eight an f16 subnormal (a normal f32 once widened, which the register loops take). */
static uint16_t pick_f16_bits(support_rng *rng)
{
    if (support_below(rng, 8) == 0)
        return (uint16_t)((support_below(rng, 2) ? 0x8000u : 0u) | (1u + (uint32_t)support_below(rng, 0x3FF)));
    return clg_f32_to_f16_bits(pick_scale_bits(rng));
}

/* The table part of a random case: N rows of the layout, small rows. */
static void make_table(support_rng *rng, clg_quant_layout layout, clg_embedding_bag_quantized_desc *d, int64_t N)
{
    d->layout = layout;
    if (layout == CLG_QUANT_FBGEMM_8BIT_ROWWISE || layout == CLG_QUANT_FBGEMM_4BIT_ROWWISE) {
        const int64_t D = 1 + (int64_t)support_below(rng, 70);
        set_quant(&d->data, CLG_QUANT_U8, 2, N, layout == CLG_QUANT_FBGEMM_8BIT_ROWWISE ? D + 8 : (D + 1) / 2 + 4);
        return;
    }
    const size_t block_bytes = quant_ggml_block_bytes(layout);
    if (block_bytes) {
        const int64_t blocks = 1 + (int64_t)support_below(rng, layout >= CLG_QUANT_GGML_Q2_K ? 2 : 3);
        set_quant(&d->data, CLG_QUANT_U8, 2, N, blocks * (int64_t)block_bytes);
        return;
    }
    const clg_dtype scale_type = float_types[support_below(rng, 3)];
    if (layout == CLG_QUANT_OV_COMPRESSED) {
        const clg_quant_type t = (clg_quant_type)(1 + support_below(rng, 4));
        const int64_t groups = 1 + (int64_t)support_below(rng, 4), group = 1 + (int64_t)support_below(rng, 20);
        set_quant(&d->data, t, 2, N, groups * group);
        d->scales = bag_tensor(scale_type, 2, N, groups);
        const uint64_t zp = support_below(rng, 3);
        if (zp == 1) set_quant(&d->zero_points, t, 2, N, groups);
        if (zp == 2) set_quant(&d->zero_points, t, 1, 1, 0);
        return;
    }
    /* ONNX Runtime: u4 / i4 [N, K] or [N, M, K]; u8 with bits 8, 4 or 2 [N, bytes] */
    static const clg_quant_type types[] = {CLG_QUANT_U4, CLG_QUANT_I4, CLG_QUANT_U8};
    const clg_quant_type t = types[support_below(rng, 3)];
    static const int32_t u8_bits[] = {8, 4, 2};
    d->bits = t == CLG_QUANT_U8 ? u8_bits[support_below(rng, 3)] : 4;
    const int64_t per_byte = t == CLG_QUANT_U8 ? 8 / d->bits : 1;
    static const int64_t block_sizes[] = {16, 32, 64};
    d->block_size = block_sizes[support_below(rng, 3)];
    const int32_t rank = t != CLG_QUANT_U8 && support_below(rng, 3) == 0 ? 3 : 2;
    const int64_t middle = 1 + (int64_t)support_below(rng, 3), last = 1 + (int64_t)support_below(rng, 70);
    memset(&d->data, 0, sizeof d->data);
    d->data.type = t;
    d->data.rank = rank;
    d->data.shape[0] = N;
    d->data.shape[1] = middle;
    d->data.shape[rank - 1] = last;
    memset(&d->scales, 0, sizeof d->scales);
    d->scales.type = scale_type;
    d->scales.rank = rank;
    memcpy(d->scales.shape, d->data.shape, sizeof d->scales.shape);
    d->scales.shape[rank - 1] = (per_byte * last + d->block_size - 1) / d->block_size;
    if (support_below(rng, 2)) {
        d->zero_points.type = t;
        d->zero_points.rank = rank;
        memcpy(d->zero_points.shape, d->scales.shape, sizeof d->zero_points.shape);
        if (per_byte > 1) d->zero_points.shape[rank - 1] = (d->scales.shape[rank - 1] + per_byte - 1) / per_byte;
    }
}

static void fill_table(support_rng *rng, qbag_case *c)
{
    for (size_t k = 0; k < c->data_bytes; ++k) c->data[k] = (unsigned char)support_next(rng);
    for (size_t k = 0; k < c->zp_bytes; ++k) c->zero_points[k] = (unsigned char)support_next(rng);
    const clg_dtype st = c->desc.scales.type;
    const size_t scale_size = st ? clg_dtype_size(st) : 0;
    for (size_t k = 0; scale_size && k < c->scale_bytes / scale_size; ++k) {
        const uint32_t bits = pick_scale_bits(rng);
        if (st == CLG_F32) {
            memcpy(c->scales + 4 * k, &bits, 4);
        } else {
            const uint16_t h = st == CLG_F16 ? clg_f32_to_f16_bits(bits) : clg_f32_to_bf16_bits(bits);
            memcpy(c->scales + 2 * k, &h, 2);
        }
    }
    const clg_quant_layout layout = c->desc.layout;
    if (layout == CLG_QUANT_FBGEMM_8BIT_ROWWISE || layout == CLG_QUANT_FBGEMM_4BIT_ROWWISE) {
        /* each row's scale and bias: f32 at bytes D and D + 4, or f16 at bytes D / 2 and D / 2 + 2 */
        const size_t row = (size_t)c->desc.data.shape[1], eight = layout == CLG_QUANT_FBGEMM_8BIT_ROWWISE;
        for (size_t r = 0; r + row <= c->data_bytes; r += row)
            for (size_t f = 0; f < 2; ++f) {
                if (eight) {
                    const uint32_t bits = pick_scale_bits(rng);
                    memcpy(c->data + r + row - 8 + 4 * f, &bits, 4);
                } else {
                    const uint16_t h = pick_f16_bits(rng);
                    memcpy(c->data + r + row - 4 + 2 * f, &h, 2);
                }
            }
        return;
    }
    const size_t block_bytes = quant_ggml_block_bytes(c->desc.layout);
    size_t at[2];
    const int fields = block_bytes ? quant_ggml_f16_fields(c->desc.layout, at) : 0;
    for (size_t b = 0; fields && b + block_bytes <= c->data_bytes; b += block_bytes)
        for (int f = 0; f < fields; ++f) {
            const uint16_t h = pick_f16_bits(rng);
            memcpy(c->data + b + at[f], &h, 2);
        }
}

static const clg_dtype index_types[] = {CLG_I32, CLG_I64, CLG_U8, CLG_I16, CLG_U32};

/* A hostile integer: out of every range the checks know (as the type holds it). */
static int64_t hostile(support_rng *rng, int64_t limit)
{
    static const int64_t values[] = {INT64_MIN, INT64_MAX, -1, -2};
    const int64_t k = (int64_t)support_below(rng, 5);
    return k < 4 ? values[k] : limit + 1;
}

/* The bag part of a random case over a table of N rows, its inputs filled; now and then a hostile value. */
static void make_bags(support_rng *rng, qbag_case *c, int64_t N, char *name, size_t name_size)
{
    clg_embedding_bag_desc *b = &c->desc.bag;
    b->preset = (clg_embedding_bag_preset)(1 + support_below(rng, CLG_EMBEDDING_BAG_PRESET_COUNT - 1));
    const int torch = b->preset == CLG_TORCH_EMBEDDING_BAG;
    const int packed = b->preset == CLG_OV_EMBEDDING_BAG_PACKED_3 || b->preset == CLG_OV_EMBEDDING_BAG_PACKED_15 ||
                       (torch && support_below(rng, 3) == 0);
    b->bag_form = b->preset == CLG_OV_EMBEDDING_SEGMENTS_SUM_3 ? CLG_BAG_SEGMENTS
                  : packed                                     ? CLG_BAG_PACKED
                                                               : CLG_BAG_OFFSETS;
    const int means = b->preset == CLG_OV_EMBEDDING_BAG_OFFSETS_15 || b->preset == CLG_OV_EMBEDDING_BAG_PACKED_15;
    b->mode = torch ? (clg_bag_mode)support_below(rng, 3) : means ? (clg_bag_mode)support_below(rng, 2) : CLG_BAG_SUM;
    const clg_dtype index_type = index_types[support_below(rng, 5)];
    const int64_t B = (int64_t)support_below(rng, 5), K = (int64_t)support_below(rng, 4);
    const int64_t L = packed ? B * K : (int64_t)support_below(rng, 9);
    b->indices = packed ? bag_tensor(index_type, 2, B, K) : bag_tensor(index_type, 1, L, 0);
    if (b->mode == CLG_BAG_SUM && support_below(rng, 2))
        b->per_sample_weights = b->indices, b->per_sample_weights.type = CLG_F32;
    if (!torch && support_below(rng, 2)) {
        b->has_default_index = 1;
        b->default_index = support_below(rng, 4) == 0 ? -1 : (int64_t)support_below(rng, (uint64_t)N);
    }
    if (torch && support_below(rng, 3) == 0)
        b->has_padding_idx = 1, b->padding_idx = (int64_t)support_below(rng, (uint64_t)N);
    const clg_dtype bags_type = support_below(rng, 2) ? CLG_I32 : CLG_I64;
    if (b->bag_form == CLG_BAG_OFFSETS) {
        b->include_last_offset = torch && support_below(rng, 2);
        b->offsets = bag_tensor(bags_type, 1, B + b->include_last_offset, 0);
    } else if (b->bag_form == CLG_BAG_SEGMENTS) {
        b->segment_ids = bag_tensor(bags_type, 1, L, 0);
        b->num_segments = B;
    }
    qbag_alloc(c);
    for (int64_t i = 0; i < L; ++i)
        support_store_int(c->indices, index_type, (size_t)i, (int64_t)support_below(rng, (uint64_t)N));
    for (int64_t i = 0; i < L && c->weights_bytes; ++i) {
        const float w = (float)((int64_t)support_below(rng, 9) - 4) * 0.5f;
        memcpy(c->weights + 4 * i, &w, 4);
    }
    if (b->bag_form == CLG_BAG_OFFSETS) {
        const int64_t count = b->offsets.shape[0];
        int64_t at = 0;
        for (int64_t k = 0; k < count; ++k) {
            if (k > 0 && at < L) at += (int64_t)support_below(rng, (uint64_t)(L - at + 1));
            if (b->include_last_offset && k == count - 1) at = L;
            support_store_int(c->bags, bags_type, (size_t)k, at);
        }
    } else if (b->bag_form == CLG_BAG_SEGMENTS) {
        int64_t s = 0;
        for (int64_t i = 0; i < L; ++i) {
            if (s < B - 1 && support_below(rng, 2)) s += 1 + (int64_t)support_below(rng, (uint64_t)(B - 1 - s));
            support_store_int(c->bags, bags_type, (size_t)i, s);
        }
    }
    const char *hostile_what = "";
    if (support_below(rng, 8) == 0 && L > 0) {
        const size_t at = (size_t)support_below(rng, (uint64_t)L);
        support_store_int(c->indices, index_type, at, hostile(rng, N));
        hostile_what = ", a hostile index";
    } else if (support_below(rng, 8) == 0 && c->bags_bytes) {
        const clg_dtype t = bags_type;
        const size_t count = c->bags_bytes / clg_dtype_size(t);
        support_store_int(c->bags, t, (size_t)support_below(rng, count), hostile(rng, L));
        hostile_what = ", a hostile offset or segment id";
    }
    snprintf(name, name_size, "%s %s %s, B %lld, L %lld, N %lld%s%s%s", clg_embedding_bag_preset_name(b->preset),
             b->bag_form == CLG_BAG_OFFSETS  ? "offsets"
             : b->bag_form == CLG_BAG_PACKED ? "packed"
                                             : "segments",
             clg_bag_mode_name(b->mode), (long long)B, (long long)L, (long long)N, c->weights_bytes ? ", weights" : "",
             b->has_padding_idx ? ", padding_idx" : "", hostile_what);
}

static uint64_t seed_value(void)
{
    const char *s = getenv("CLGATHER_TEST_SEED");
    return s && *s ? strtoull(s, NULL, 0) : 0xBA60ull;
}

START_TEST(random_cases)
{
    support_rng rng = {seed_value()};
    const int per_layout = support_scaled(6);
    for (int l = 0; l < LAYOUTS; ++l)
        for (int n = 0; n < per_layout; ++n) {
            qbag_case c;
            memset(&c, 0, sizeof c);
            const int64_t N = 1 + (int64_t)support_below(&rng, 6);
            make_table(&rng, layouts[l], &c.desc, N);
            c.desc.output_type = support_below(&rng, 3) == 0 ? float_types[support_below(&rng, 3)] : CLG_DTYPE_INVALID;
            char bags[200], name[300];
            make_bags(&rng, &c, N, bags, sizeof bags);
            fill_table(&rng, &c);
            snprintf(name, sizeof name, "case %d of %s (%s data, %s out): %s", n, clg_quant_layout_name(layouts[l]),
                     clg_quant_type_name(c.desc.data.type), clg_dtype_name(c.desc.output_type), bags);
            unsigned char *out = support_poisoned(c.out_bytes + 1);
            const clg_status want = qbag_reference(&c, out);
            free(out);
            free(check_all_paths(&c, want, name));
            qbag_free(&c);
        }
}
END_TEST

/* The tuning of the two tests below: pieces of 24 values, small groups, and each bag's rows prefetched
 * as it starts beside those of the bag ahead (one set of programs for both). */
#define WIDE_TUNING                                                         \
    "grid_groups_per_cu = 1\nruns_groups_per_cu = 1\nruns_local_size = 2\n" \
    "adjacent_local_size = 16\nbag_quantized_piece_values = 24\n"           \
    "bag_quantized_prefetch_current = 1\n"

/* Rows of 1024 values (at least 43 pieces of the 24 values the tuning below sets, a size that divides no
 * unit: each unit ends in a shorter piece; more pieces than the work-group's width of 16) and more bags
 * than the work-items it gives either mapping, so that both walk a row's pieces past their first group
 * and the bags with a stride; a layout of each family. The indices scale with CLGATHER_TEST_SCALE. */
START_TEST(wide_rows_many_bags)
{
    support_use_tuning(WIDE_TUNING);
    support_rng rng = {seed_value() ^ 0x51DEull};
    static const clg_quant_layout wide[] = {CLG_QUANT_GGML_Q4_0, CLG_QUANT_GGML_Q6_K, CLG_QUANT_ORT_BLOCK,
                                            CLG_QUANT_OV_COMPRESSED, CLG_QUANT_FBGEMM_4BIT_ROWWISE};
    const int64_t N = 6, B = 40, L = support_scaled(100), D = 1024;
    for (size_t l = 0; l < sizeof wide / sizeof wide[0]; ++l) {
        qbag_case c;
        memset(&c, 0, sizeof c);
        c.desc.layout = wide[l];
        if (wide[l] == CLG_QUANT_ORT_BLOCK) {
            set_quant(&c.desc.data, CLG_QUANT_I4, 2, N, D);
            c.desc.scales = bag_tensor(CLG_F16, 2, N, D / 32);
            set_quant(&c.desc.zero_points, CLG_QUANT_I4, 2, N, D / 32);
            c.desc.block_size = 32;
        } else if (wide[l] == CLG_QUANT_OV_COMPRESSED) {
            set_quant(&c.desc.data, CLG_QUANT_I8, 2, N, D);
            c.desc.scales = bag_tensor(CLG_BF16, 2, N, 4);
        } else if (wide[l] == CLG_QUANT_FBGEMM_4BIT_ROWWISE) {
            set_quant(&c.desc.data, CLG_QUANT_U8, 2, N, D / 2 + 4);
        } else {
            const int64_t blocks = D / (wide[l] == CLG_QUANT_GGML_Q4_0 ? 32 : 256);
            set_quant(&c.desc.data, CLG_QUANT_U8, 2, N, blocks * (int64_t)quant_ggml_block_bytes(wide[l]));
        }
        c.desc.bag = (clg_embedding_bag_desc){.preset = CLG_TORCH_EMBEDDING_BAG,
                                              .bag_form = CLG_BAG_OFFSETS,
                                              .mode = l % 2 ? CLG_BAG_MEAN : CLG_BAG_SUM,
                                              .indices = bag_tensor(CLG_I64, 1, L, 0),
                                              .offsets = bag_tensor(CLG_I64, 1, B, 0)};
        if (l % 2 == 0) c.desc.bag.per_sample_weights = bag_tensor(CLG_F32, 1, L, 0);
        c.desc.output_type = l == 1 ? CLG_F16 : CLG_DTYPE_INVALID;
        qbag_alloc(&c);
        fill_table(&rng, &c);
        for (int64_t i = 0; i < L; ++i) ((int64_t *)c.indices)[i] = (int64_t)support_below(&rng, (uint64_t)N);
        for (int64_t i = 0; i < L && c.weights_bytes; ++i) ((float *)c.weights)[i] = 0.25f * (float)(i % 7) - 0.5f;
        for (int64_t b = 0; b < B; ++b) ((int64_t *)c.bags)[b] = b / 2 * 2 * L / B; /* even bags empty */
        char name[96];
        snprintf(name, sizeof name, "wide rows of %s", clg_quant_layout_name(wide[l]));
        free(check_all_paths(&c, CLG_SUCCESS, name));
        qbag_free(&c);
    }
    support_use_tuning(NULL);
}
END_TEST

/* One register-loop case: N = 40 rows of `layout` holding `values` values (ggml: whole blocks), 60 bags
 * of 3 random i64 indices, sum or mean, through every path against the reference. */
static void register_loop_case(support_rng *rng, clg_quant_layout layout, int64_t values, clg_bag_mode mode,
                               const char *what)
{
    const int64_t N = 40, B = 60, L = 3 * B;
    qbag_case c;
    memset(&c, 0, sizeof c);
    c.desc.layout = layout;
    if (layout == CLG_QUANT_FBGEMM_8BIT_ROWWISE)
        set_quant(&c.desc.data, CLG_QUANT_U8, 2, N, values + 8);
    else if (layout == CLG_QUANT_FBGEMM_4BIT_ROWWISE)
        set_quant(&c.desc.data, CLG_QUANT_U8, 2, N, values / 2 + 4);
    else /* ggml: super-blocks of 256 values from q2_K on, blocks of 32 before */
        set_quant(&c.desc.data, CLG_QUANT_U8, 2, N,
                  values / (layout >= CLG_QUANT_GGML_Q2_K ? 256 : 32) * (int64_t)quant_ggml_block_bytes(layout));
    c.desc.bag = (clg_embedding_bag_desc){.preset = CLG_TORCH_EMBEDDING_BAG,
                                          .bag_form = CLG_BAG_OFFSETS,
                                          .mode = mode,
                                          .indices = bag_tensor(CLG_I64, 1, L, 0),
                                          .offsets = bag_tensor(CLG_I64, 1, B, 0)};
    qbag_alloc(&c);
    fill_table(rng, &c);
    for (int64_t i = 0; i < L; ++i) ((int64_t *)c.indices)[i] = (int64_t)support_below(rng, (uint64_t)N);
    for (int64_t b = 0; b < B; ++b) ((int64_t *)c.bags)[b] = 3 * b;
    char name[96];
    snprintf(name, sizeof name, "%s, %s", what, clg_quant_layout_name(layout));
    free(check_all_paths(&c, CLG_SUCCESS, name));
    qbag_free(&c);
}

/* The register loops of each family's two register formats (q8_0 and q4_0, q4_K and q6_K, FBGEMM's two):
 * a plain sum or mean over i64 indices, where the loop for whole pieces (of the 24 values WIDE_TUNING
 * sets) runs, a unit's last shorter piece takes the loop for any, and a bag holding a row whose fields
 * the registers cannot take (about one in four: zero, subnormal, infinite or NaN scales) starts over on
 * the unit code. Rows of 96 values (FBGEMM), 128 in 32-value blocks, or one super-block of 256. */
START_TEST(register_loops_whole_pieces)
{
    support_use_tuning(WIDE_TUNING);
    support_rng rng = {seed_value() ^ 0x4E61ull};
    static const clg_quant_layout formats[] = {CLG_QUANT_GGML_Q8_0,           CLG_QUANT_GGML_Q4_0,
                                               CLG_QUANT_GGML_Q4_K,           CLG_QUANT_GGML_Q6_K,
                                               CLG_QUANT_FBGEMM_8BIT_ROWWISE, CLG_QUANT_FBGEMM_4BIT_ROWWISE};
    static const int64_t values[] = {128, 128, 256, 256, 96, 96};
    for (size_t l = 0; l < sizeof formats / sizeof formats[0]; ++l)
        register_loop_case(&rng, formats[l], values[l], l % 2 ? CLG_BAG_MEAN : CLG_BAG_SUM, "register loops");
    support_use_tuning(NULL);
}
END_TEST

/* The tuning of the two tests below: small groups, and pieces of 64 values summed in vectors of `lanes`. */
static void use_pieces_of_64(int lanes)
{
    char tuning[200];
    snprintf(tuning, sizeof tuning,
             "grid_groups_per_cu = 1\nruns_groups_per_cu = 1\nruns_local_size = 2\n"
             "adjacent_local_size = 16\nbag_quantized_piece_values = 64\nbag_quantized_lanes = %d\n",
             lanes);
    support_use_tuning(tuning);
}

/* The register loops under 16 lanes and pieces of 64 values. FBGEMM's rows of 96 values are a whole
 * piece (64) and a half piece (32), each its own loop; rows of 80, a whole piece and a last one of 16
 * (the loop for any count). FBGEMM's 8-bit rows are summed 16 values a vector in all three, its 4-bit
 * rows 32 values a step by nibble parity in the whole and the half piece and eight at a time in the
 * last; q8_0's 32-value units (128 values a row) take the half-piece loop in groups of eight. Rows
 * whose fields the registers cannot take start the bag over on the unit code, as above. */
START_TEST(register_loops_sixteen_lanes)
{
    use_pieces_of_64(16);
    support_rng rng = {seed_value() ^ 0x16E5ull};
    register_loop_case(&rng, CLG_QUANT_FBGEMM_8BIT_ROWWISE, 96, CLG_BAG_SUM, "16 lanes");
    register_loop_case(&rng, CLG_QUANT_FBGEMM_8BIT_ROWWISE, 80, CLG_BAG_MEAN, "16 lanes");
    register_loop_case(&rng, CLG_QUANT_GGML_Q8_0, 128, CLG_BAG_MEAN, "16 lanes");
    register_loop_case(&rng, CLG_QUANT_FBGEMM_4BIT_ROWWISE, 96, CLG_BAG_SUM, "16 lanes");
    register_loop_case(&rng, CLG_QUANT_FBGEMM_4BIT_ROWWISE, 80, CLG_BAG_SUM, "16 lanes");
    support_use_tuning(NULL);
}
END_TEST

/* FBGEMM's 4-bit rows under 8 lanes and pieces of 64 values: 16 values a step by nibble parity in the
 * whole piece (64) and the half piece (32) of a 96-value row, and the last one (16) of an 80-value row,
 * sum and mean. */
START_TEST(register_loops_eight_lane_nibbles)
{
    use_pieces_of_64(8);
    support_rng rng = {seed_value() ^ 0x8E16ull};
    register_loop_case(&rng, CLG_QUANT_FBGEMM_4BIT_ROWWISE, 96, CLG_BAG_SUM, "8 lanes");
    register_loop_case(&rng, CLG_QUANT_FBGEMM_4BIT_ROWWISE, 80, CLG_BAG_MEAN, "8 lanes");
    support_use_tuning(NULL);
}
END_TEST

int main(void)
{
    return support_run_tests("embedding_bag_quantized", 900,
                             SUPPORT_TESTS(q8_0_offsets_sum, ort_u4_packed_mean_f16, ov_offsets_weights_default_index,
                                           q4_K_max_padding_idx, refused_descriptors, hostile_values, random_cases,
                                           wide_rows_many_bags, register_loops_whole_pieces,
                                           register_loops_sixteen_lanes, register_loops_eight_lane_nibbles));
}
