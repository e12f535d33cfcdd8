/* Randomized differential tests of the dequantizing gather: the OpenCL path against the CPU reference,
 * bit for bit, with poisoned outputs and guard bytes, over every layout, data type and bit width,
 * block size, scale type (with subnormal, infinite, NaN and zero scales), output type, with and
 * without zero points (per scale and per table), odd row lengths, every gather / quantize axis pair,
 * every policy and hostile index values; both kernel mappings, 32- and 64-bit offsets; and a
 * deterministic sweep of every layout, type, bit width, block size, scale, zero-point and output kind
 * the random cases reach only by chance. The seed is
 * fixed and printed; CLGATHER_TEST_SEED replays another, CLGATHER_TEST_SCALE scales the case count. */
#include "quantized_support.h"
#include "testing/testing.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t seed = 0xDE0A17ull;
static double scale = 1.0;

static const clg_dtype float_types[] = {CLG_F32, CLG_F16, CLG_BF16};
static const clg_dtype any_index_types[] = {CLG_I8, CLG_U8, CLG_I16, CLG_U16, CLG_I32, CLG_U32, CLG_I64, CLG_U64};

typedef struct random_case {
    quant_case c;
    char name[320];
} random_case;

static int64_t pick_dim(support_rng *rng, int allow_zero, int64_t most)
{
    const uint64_t r = support_below(rng, 16);
    if (allow_zero && r == 0) return 0;
    if (r < 4) return 1;
    return 1 + (int64_t)support_below(rng, (uint64_t)most);
}

/* An index value: mostly in range, some negative in range, some out of range, some hostile. */
static int64_t pick_index(support_rng *rng, int64_t A)
{
    const uint64_t r = support_below(rng, 100);
    if (r < 60 && A > 0) return (int64_t)support_below(rng, (uint64_t)A);
    if (r < 75 && A > 0) return -1 - (int64_t)support_below(rng, (uint64_t)A);
    if (r < 85) return A + (int64_t)support_below(rng, 3);
    if (r < 90) return -A - 1 - (int64_t)support_below(rng, 3);
    switch (support_below(rng, 3)) {
    case 0: return INT64_MIN;
    case 1: return INT64_MAX;
    default: return -1;
    }
}

/* A scale: mostly ordinary, sometimes one that takes the kernels' exact integer path or makes the
 * output overflow or underflow. */
static uint32_t pick_scale_bits(support_rng *rng)
{
    const uint64_t r = support_below(rng, 100);
    const uint32_t sign = support_below(rng, 2) ? 0x80000000u : 0u;
    if (r < 70)
        return sign | (uint32_t)((100 + support_below(rng, 56)) << 23) | (uint32_t)(support_next(rng) & 0x7FFFFF);
    if (r < 78) return sign | (uint32_t)(support_below(rng, 256) << 23) | (uint32_t)(support_next(rng) & 0x7FFFFF);
    if (r < 84) return sign | (uint32_t)(support_next(rng) & 0x7FFFFF);                   /* subnormal (or zero) */
    if (r < 88) return sign;                                                              /* +-0 */
    if (r < 91) return sign | 0x7F800000u;                                                /* infinity */
    if (r < 94) return sign | 0x7F800000u | (uint32_t)(1 + support_below(rng, 0x7FFFFF)); /* NaN */
    if (r < 97) return sign | (uint32_t)((250 + support_below(rng, 5)) << 23);            /* overflows */
    return sign | (uint32_t)((1 + support_below(rng, 8)) << 23);                          /* tiny products */
}

static void set_shape(clg_quant_tensor_desc *t, clg_quant_type type, int32_t rank, const int64_t *shape)
{
    memset(t, 0, sizeof *t);
    t->type = type;
    t->rank = rank;
    for (int32_t d = 0; d < rank; ++d) t->shape[d] = shape[d];
}

static void make_ort(support_rng *rng, clg_gather_quantized_desc *d, int allow_zero)
{
    static const clg_quant_type types[] = {CLG_QUANT_U4, CLG_QUANT_I4, CLG_QUANT_U8};
    const clg_quant_type t = types[support_below(rng, 3)];
    const int u8 = t == CLG_QUANT_U8;
    static const int32_t u8_bits[] = {8, 8, 4, 0, 2, 2};
    d->bits = u8 ? u8_bits[support_below(rng, 6)] : (support_below(rng, 2) ? 4 : 0);
    const int64_t per_byte = u8 ? 8 / (d->bits ? d->bits : 4) : 1; /* u8 values a byte */
    const int32_t r = u8 ? 2 + (int32_t)support_below(rng, 2) : 1 + (int32_t)support_below(rng, 4);
    int64_t shape[CLG_MAX_RANK];
    for (int32_t k = 0; k < r; ++k) shape[k] = pick_dim(rng, allow_zero, k == r - 1 ? 70 : 6);
    set_shape(&d->data, t, r, shape);
    const int32_t g = u8 ? 0 : (int32_t)support_below(rng, (uint64_t)r);
    const int32_t q = u8 ? r - 1 : (int32_t)support_below(rng, (uint64_t)r);
    d->gather_axis = support_below(rng, 3) == 0 ? g - r : g;
    d->quantize_axis = support_below(rng, 3) == 0 ? q - r : q;
    static const int64_t block_sizes[] = {16, 32, 64, 128, 256, 0};
    d->block_size = block_sizes[support_below(rng, 6)];
    const int64_t bs = d->block_size ? d->block_size : 128;
    const int64_t values_q = per_byte * shape[q];
    int64_t sshape[CLG_MAX_RANK];
    memcpy(sshape, shape, sizeof sshape);
    sshape[q] = (values_q + bs - 1) / bs;
    support_shape(&d->scales, float_types[support_below(rng, 3)], r, sshape);
    if (support_below(rng, 2)) {
        int64_t zshape[CLG_MAX_RANK];
        memcpy(zshape, sshape, sizeof zshape);
        if (per_byte > 1) zshape[r - 1] = (sshape[r - 1] + per_byte - 1) / per_byte;
        set_shape(&d->zero_points, t, r, zshape);
    }
}

static void make_ov(support_rng *rng, clg_gather_quantized_desc *d, int allow_zero)
{
    const clg_quant_type t = (clg_quant_type)(1 + support_below(rng, 4));
    const int32_t r = 1 + (int32_t)support_below(rng, 3);
    int64_t shape[CLG_MAX_RANK];
    for (int32_t k = 0; k < r - 1; ++k) shape[k] = pick_dim(rng, allow_zero, 6);
    /* K = groups x group size, both small, so that odd K and odd group sizes turn up */
    const int64_t groups = 1 + (int64_t)support_below(rng, 5), group = 1 + (int64_t)support_below(rng, 40);
    shape[r - 1] = support_below(rng, 12) == 0 && allow_zero ? 0 : groups * group;
    set_shape(&d->data, t, r, shape);
    d->gather_axis = (int64_t)support_below(rng, (uint64_t)r);
    int64_t sshape[CLG_MAX_RANK];
    memcpy(sshape, shape, sizeof sshape);
    sshape[r - 1] = shape[r - 1] ? groups : 0;
    support_shape(&d->scales, float_types[support_below(rng, 3)], r, sshape);
    if (support_below(rng, 4) == 0 && shape[r - 1]) d->block_size = group;
    const uint64_t zp = support_below(rng, 3);
    if (zp == 1) set_shape(&d->zero_points, t, r, sshape);
    if (zp == 2) {
        const int64_t ones[] = {1, 1, 1};
        set_shape(&d->zero_points, t, (int32_t)support_below(rng, 3), ones);
    }
}

/* ggml's layouts of 32-value blocks: one kernel program serves them all, so each costs no build; then
 * the 256-value super-blocks, whose one program serves the six of them. */
static const clg_quant_layout ggml_layouts[] = {CLG_QUANT_GGML_Q4_0, CLG_QUANT_GGML_Q8_0, CLG_QUANT_GGML_Q4_1,
                                                CLG_QUANT_GGML_Q5_0, CLG_QUANT_GGML_Q5_1, CLG_QUANT_GGML_IQ4_NL,
                                                CLG_QUANT_GGML_Q2_K, CLG_QUANT_GGML_Q3_K, CLG_QUANT_GGML_Q4_K,
                                                CLG_QUANT_GGML_Q5_K, CLG_QUANT_GGML_Q6_K, CLG_QUANT_GGML_IQ4_XS};
enum { GGML_LAYOUTS = sizeof ggml_layouts / sizeof ggml_layouts[0], GGML_32_LAYOUTS = 6 };

/* The bits of the values the x86 nibble lookups read: 4 for q4_0, q4_1 and iq4_nl; the super-blocks'
 * program has no lookups (0: the lookup sweeps leave them out). */
static int ggml_value_bits(clg_quant_layout l)
{
    if (l >= CLG_QUANT_GGML_Q2_K) return 0;
    return l == CLG_QUANT_GGML_Q8_0 ? 8 : l == CLG_QUANT_GGML_Q5_0 || l == CLG_QUANT_GGML_Q5_1 ? 5 : 4;
}

/* Random cases draw the 32-value layouts (as they always have, so the stream of cases, and the
 * programs it builds, stay the same) unless super_blocks_only is set (random_super_blocks). */
static int super_blocks_only;

static void make_ggml(support_rng *rng, clg_gather_quantized_desc *d, int allow_zero)
{
    d->layout = super_blocks_only ? ggml_layouts[GGML_32_LAYOUTS + support_below(rng, GGML_LAYOUTS - GGML_32_LAYOUTS)]
                                  : ggml_layouts[support_below(rng, GGML_32_LAYOUTS)];
    const int64_t block_bytes = (int64_t)quant_ggml_block_bytes(d->layout);
    const int32_t r = 2 + (int32_t)support_below(rng, 2);
    int64_t shape[CLG_MAX_RANK];
    for (int32_t k = 0; k < r - 1; ++k) shape[k] = pick_dim(rng, allow_zero, 8);
    shape[r - 1] = block_bytes * (1 + (int64_t)support_below(rng, super_blocks_only ? 2 : 4));
    set_shape(&d->data, CLG_QUANT_U8, r, shape);
    d->gather_axis = (int64_t)support_below(rng, (uint64_t)(r - 1));
    if (super_blocks_only && r == 3 && d->gather_axis == 0) {
        /* slabs of one or two rows of one block: every slab within 512 bytes, so the runs mapping
         * prefetches as many slabs ahead in every case (one build) */
        d->data.shape[1] = 1 + (int64_t)support_below(rng, 2);
        d->data.shape[2] = block_bytes;
    }
}

/* Random cases draw FBGEMM's rows only where fbgemm_only is set (random_fbgemm_rows), their output f32
 * or fbgemm_narrow_output (bf16 on the runs mapping, f16 on the adjacent one). */
static int fbgemm_only;
static clg_dtype fbgemm_narrow_output;

/* FBGEMM's output: f32, or the narrow type of the mapping, whose rows then hold no multiple of 8 values
 * (aligned 8-value stores, a build of their own, are f32's alone): a program or two a mapping. */
static void choose_fbgemm_output(support_rng *rng, clg_gather_quantized_desc *d)
{
    d->output_type = support_below(rng, 2) ? CLG_F32 : fbgemm_narrow_output;
    int64_t *row_bytes = &d->data.shape[d->data.rank - 1];
    const int eight = d->layout == CLG_QUANT_FBGEMM_8BIT_ROWWISE;
    const int64_t D = eight ? *row_bytes - 8 : 2 * (*row_bytes - 4);
    if (d->output_type != CLG_F32 && D % 8 == 0) {
        ++*row_bytes; /* D + 1, or D + 2 */
        if (d->block_size) d->block_size = 0;
    }
}

/* FBGEMM's rows: 8-bit rows of 1..40 values (9..48 bytes), 4-bit rows of 2..40 (5..24 bytes), rank 2
 * or 3, any axis but the last; a slab of at most three rows, within 512 bytes, so that the runs mapping
 * prefetches as many slabs ahead in every case (one build). */
static void make_fbgemm(support_rng *rng, clg_gather_quantized_desc *d, int allow_zero)
{
    d->layout = support_below(rng, 2) ? CLG_QUANT_FBGEMM_8BIT_ROWWISE : CLG_QUANT_FBGEMM_4BIT_ROWWISE;
    const int eight = d->layout == CLG_QUANT_FBGEMM_8BIT_ROWWISE;
    const int32_t r = 2 + (int32_t)support_below(rng, 2);
    int64_t shape[CLG_MAX_RANK];
    for (int32_t k = 0; k < r - 1; ++k) shape[k] = pick_dim(rng, allow_zero, 6);
    if (r == 3) shape[1] = 1 + (int64_t)support_below(rng, 3);
    shape[r - 1] = eight ? 9 + (int64_t)support_below(rng, 40) : 5 + (int64_t)support_below(rng, 20);
    set_shape(&d->data, CLG_QUANT_U8, r, shape);
    d->gather_axis = (int64_t)support_below(rng, (uint64_t)(r - 1));
    if (support_below(rng, 4) == 0) d->block_size = eight ? shape[r - 1] - 8 : 2 * (shape[r - 1] - 4);
}

/* An f16 field of a super-block: as the 32-value blocks' (below), but infinities and NaNs an eighth of
 * the time each, so that every case meets the exact path. */
static uint16_t pick_super_block_field(support_rng *rng)
{
    const uint16_t sign = (uint16_t)(0x8000u * support_below(rng, 2));
    switch (support_below(rng, 8)) {
    case 0: return (uint16_t)(sign | 0x7C00u);
    case 1: return (uint16_t)(sign | 0x7C00u | (1u + support_below(rng, 0x3FF)));
    case 2: return (uint16_t)support_next(rng);
    default: return (uint16_t)(sign | (0x2000u + support_below(rng, 0x3000)));
    }
}

static void fill_inputs(support_rng *rng, quant_case *c)
{
    for (size_t k = 0; k < c->data_bytes; ++k) c->data[k] = (unsigned char)support_next(rng);
    for (size_t k = 0; k < c->zp_bytes; ++k) c->zero_points[k] = (unsigned char)support_next(rng);
    const size_t scale_size = c->desc.scales.type ? clg_dtype_size(c->desc.scales.type) : 0;
    for (size_t k = 0; scale_size && k < c->scale_bytes / scale_size; ++k)
        quant_put_scale_bits(c, k, pick_scale_bits(rng));
    const clg_quant_layout layout = c->desc.layout;
    if (layout == CLG_QUANT_FBGEMM_8BIT_ROWWISE || layout == CLG_QUANT_FBGEMM_4BIT_ROWWISE) {
        /* each row's scale and bias after its values: f32 ones as the scales above (subnormal,
         * infinite, NaN, overflowing), f16 ones as the super-blocks' fields */
        const int32_t r = c->desc.data.rank;
        const size_t row = (size_t)c->desc.data.shape[r - 1];
        for (size_t at = row; at <= c->data_bytes; at += row)
            for (int f = 0; f < 2; ++f) {
                if (layout == CLG_QUANT_FBGEMM_8BIT_ROWWISE) {
                    const uint32_t bits = pick_scale_bits(rng);
                    memcpy(c->data + at - 8 + 4 * f, &bits, 4);
                } else {
                    const uint16_t h = pick_super_block_field(rng);
                    memcpy(c->data + at - 4 + 2 * f, &h, 2);
                }
            }
        return;
    }
    const size_t block_bytes = quant_ggml_block_bytes(layout);
    if (block_bytes) {
        /* the f16 fields of each block (d, and m or dmin): mostly ordinary, of either sign, some random
         * bits (subnormal, infinite, NaN) */
        size_t at[2];
        const int fields = quant_ggml_f16_fields(c->desc.layout, at);
        for (size_t b = 0; b + block_bytes <= c->data_bytes; b += block_bytes)
            for (int f = 0; f < fields; ++f) {
                const uint16_t h = super_blocks_only
                                       ? pick_super_block_field(rng)
                                       : (uint16_t)(support_below(rng, 4) ? 0x2000u + support_below(rng, 0x3000) +
                                                                                0x8000u * support_below(rng, 2)
                                                                          : support_next(rng));
                memcpy(c->data + b + at[f], &h, 2);
            }
    }
}

static void make_case(support_rng *rng, random_case *rc, int number)
{
    memset(rc, 0, sizeof *rc);
    clg_gather_quantized_desc *d = &rc->c.desc;
    const int allow_zero = support_below(rng, 10) == 0;
    const uint64_t which = super_blocks_only ? 2 : fbgemm_only ? 3 : support_below(rng, 3);
    if (which == 3) {
        make_fbgemm(rng, d, allow_zero);
    } else if (which == 0) {
        d->layout = CLG_QUANT_ORT_BLOCK;
        make_ort(rng, d, allow_zero);
    } else if (which == 1) {
        d->layout = CLG_QUANT_OV_COMPRESSED;
        make_ov(rng, d, allow_zero);
    } else {
        make_ggml(rng, d, allow_zero);
    }
    const int ov = d->layout == CLG_QUANT_OV_COMPRESSED;
    /* every integer type for OpenVINO now and then (each one is a kernel build; Gather's suites cover
     * the index rules of every type) */
    /* the super-blocks' stream keeps to i64 indices and the error and zero policies: the index rules
     * are the 32-value blocks' (covered above), and each other choice would be builds of their own */
    const clg_dtype it = super_blocks_only || fbgemm_only   ? CLG_I64
                         : ov && support_below(rng, 8) == 0 ? any_index_types[support_below(rng, 8)]
                         : support_below(rng, 2)            ? CLG_I64
                                                            : CLG_I32;
    const int32_t qr = (int32_t)support_below(rng, 3);
    int64_t ishape[CLG_MAX_RANK] = {0};
    for (int32_t k = 0; k < qr; ++k) ishape[k] = pick_dim(rng, allow_zero, 5);
    support_shape(&d->indices, it, qr, ishape);
    static const clg_dtype outs[] = {CLG_DTYPE_INVALID, CLG_F32, CLG_F16, CLG_BF16};
    d->output_type = outs[support_below(rng, 4)];
    if (fbgemm_only) choose_fbgemm_output(rng, d);
    d->oob_policy = super_blocks_only || fbgemm_only ? (support_below(rng, 2) ? CLG_OOB_ZERO : CLG_OOB_PRESET)
                                                     : (clg_oob_policy)support_below(rng, CLG_OOB_COUNT);
    quant_case_alloc(&rc->c);
    fill_inputs(rng, &rc->c);
    int32_t rank;
    int64_t shape[CLG_MAX_OUTPUT_RANK];
    ck_assert_int_eq(clg_gather_quantized_output_shape(d, &rank, shape, NULL), CLG_SUCCESS);
    const int32_t g = (int32_t)(d->gather_axis < 0 ? d->gather_axis + d->data.rank : d->gather_axis);
    int64_t A = d->data.shape[g];
    const int keep_valid = support_below(rng, 4) != 0;
    const int is_signed = it == CLG_I8 || it == CLG_I16 || it == CLG_I32 || it == CLG_I64;
    for (uint64_t k = 0; k < rc->c.index_bytes / clg_dtype_size(it); ++k) {
        int64_t v = pick_index(rng, A);
        if (keep_valid && A > 0 && (v >= A || v < -A)) v = (int64_t)support_below(rng, (uint64_t)A);
        if (keep_valid && A > 0 && !is_signed && v < 0) v = -v - 1;
        support_store_int(rc->c.indices, it, (size_t)k, v);
    }
    snprintf(rc->name, sizeof rc->name,
             "case %d: %s %s r%d [%" PRId64 ", %" PRId64 ", ...] bits %d bs %" PRId64 " g %" PRId64 " q %" PRId64
             " scales %s zp %s out %s idx %s r%d oob %d",
             number, clg_quant_layout_name(d->layout), clg_quant_type_name(d->data.type), (int)d->data.rank,
             d->data.shape[0], d->data.rank > 1 ? d->data.shape[1] : 0, (int)d->bits, d->block_size, d->gather_axis,
             d->quantize_axis, clg_dtype_name(d->scales.type), clg_quant_type_name(d->zero_points.type),
             clg_dtype_name(d->output_type), clg_dtype_name(it), (int)qr, (int)d->oob_policy);
}

static void compare_case(random_case *rc, int use_enqueue, size_t guard)
{
    quant_case *c = &rc->c;
    char ref_message[1024];
    unsigned char *want = support_poisoned(c->out_bytes);
    const clg_status want_st = quant_reference(c, want);
    snprintf(ref_message, sizeof ref_message, "%s", clg_last_error_message());
    clg_context *ctx = support_cl_context();
    clg_status got_st;
    unsigned char *got = support_poisoned(c->out_bytes);
    if (use_enqueue) {
        const size_t out_guard = quant_out_guard(c, guard);
        unsigned char *region = support_poisoned(out_guard + c->out_bytes + out_guard);
        got_st = quant_enqueue(ctx, c, guard, region);
        ck_assert_msg(support_guards_intact(region, out_guard, c->out_bytes), "%s: guard bytes overwritten", rc->name);
        memcpy(got, region + out_guard, c->out_bytes);
        free(region);
    } else {
        got_st = quant_sync(ctx, c, got);
    }
    ck_assert_msg(got_st == want_st, "%s (enqueue %d): OpenCL %s (%s) vs reference %s (%s)", rc->name, use_enqueue,
                  clg_status_string(got_st), clg_last_error_message(), clg_status_string(want_st), ref_message);
    if (want_st == CLG_SUCCESS) {
        if (memcmp(got, want, c->out_bytes) != 0) {
            size_t k = 0;
            while (got[k] == want[k]) ++k;
            ck_abort_msg("%s (enqueue %d, guard %zu): outputs differ first at byte %zu of %zu (0x%02x vs 0x%02x)",
                         rc->name, use_enqueue, guard, k, c->out_bytes, got[k], want[k]);
        }
    } else {
        ck_assert_msg(support_all_poison(got, c->out_bytes), "%s: output written on failure", rc->name);
        ck_assert_msg(strcmp(clg_last_error_message(), ref_message) == 0, "%s: messages differ:\n  %s\n  %s", rc->name,
                      clg_last_error_message(), ref_message);
    }
    free(got);
    free(want);
}

/* mapping: "runs", "adjacent" or NULL (the suite's own) */
static void run_random_cases(int count, const char *mapping, int offsets64, uint64_t stream)
{
    clg_context *ctx = support_cl_context();
    support_use_mapping(ctx, mapping);
    clg_testing_force_offsets64(ctx, offsets64);
    support_rng rng = {seed ^ (stream * 0x9E3779B97F4A7C15ull)};
    count = (int)(count * scale) > 10 ? (int)(count * scale) : 10;
    for (int k = 0; k < count; ++k) {
        random_case rc;
        make_case(&rng, &rc, k);
        compare_case(&rc, (int)support_below(&rng, 2), (size_t)support_below(&rng, 40));
        quant_case_free(&rc.c);
    }
    support_use_mapping(ctx, NULL);
    clg_testing_force_offsets64(ctx, 0);
}

/* ---- a deterministic sweep: every combination the random cases only reach by chance ------------- */

static void finish_sweep_case(support_rng *rng, random_case *rc, const char *what, clg_dtype out, int number)
{
    clg_gather_quantized_desc *d = &rc->c.desc;
    const int64_t ishape[] = {7};
    support_shape(&d->indices, number % 2 ? CLG_I64 : CLG_I32, 1, ishape);
    d->output_type = out;
    d->oob_policy = CLG_OOB_ZERO;
    quant_case_alloc(&rc->c);
    fill_inputs(rng, &rc->c);
    const int32_t g = (int32_t)(d->gather_axis < 0 ? d->gather_axis + d->data.rank : d->gather_axis);
    const int64_t A = d->data.shape[g];
    for (size_t k = 0; k < (size_t)ishape[0]; ++k) /* one out of range: a slab of zeros */
        support_store_int(rc->c.indices, d->indices.type, k, k == 3 ? A : (int64_t)support_below(rng, (uint64_t)A));
    snprintf(rc->name, sizeof rc->name, "sweep %d: %s out %s", number, what, clg_dtype_name(out));
}

/* Below a scale of 1, the sweeps that hold the nibble lookups back take every held_back_stride()-th of
 * their cases, from an offset the seed picks: each case there is mostly kernel builds of its own (the
 * held-back form builds everything again), and the sweeps at the target's own lookups stay whole. */
static int held_back_stride(void) { return scale >= 1.0 ? 1 : (int)(1.0 / scale + 0.5); }

static int held_back_skips(int number)
{
    const int stride = held_back_stride();
    return number % stride != (int)(seed % (uint64_t)stride);
}

/* Whether a sweep that only exercises the x86 nibble lookups skips a case: they serve 4-bit values
 * and 16-bit outputs (kernels_cl/dequant_nibble_table.h); of those, it takes the share above. */
static int skipped_for_lookups(int lookups_only, int value_bits, clg_dtype out)
{
    static int served;
    return lookups_only && (value_bits != 4 || out == CLG_F32 || held_back_skips(served++));
}

/* On the adjacent mapping, the whole blocks of the ONNX Runtime sweeps' rows: 768 values' worth at
 * every block size, so that the rows' pieces (98 to 128 of the default 8 values) take one work-group
 * shape (host/core/launch.c, clg_launch_rows_grid), and a program one compile on PoCL, which compiles
 * a kernel again for every work-group shape. The narrow shapes stay with the OpenVINO and ggml rows of
 * the sweep and the random cases. */
static int64_t adjacent_row_blocks(int64_t block_size) { return 768 / block_size; }

/* ONNX Runtime blocks: u4, i4, u8 with bits 4 and 8, every block size 16..256, scale and output type,
 * with and without zero points; rows of 3 whole blocks (adjacent_row_blocks on that mapping) and a short
 * one of 7 values (6 for u8 with bits 4, two a byte). mapping: 0 runs, 1 adjacent. */
static int sweep_ort(support_rng *rng, int number, int mapping, int lookups_only)
{
    static const clg_quant_type types[] = {CLG_QUANT_U4, CLG_QUANT_I4, CLG_QUANT_U8, CLG_QUANT_U8};
    static const int bits[] = {4, 4, 4, 8};
    static const int64_t block_sizes[] = {16, 32, 64, 128, 256};
    for (int t = 0; t < 4; ++t)
        for (int b = 0; b < 5; ++b)
            for (int sc = 0; sc < 3; ++sc)
                for (int zp = 0; zp < 2; ++zp) {
                    const clg_dtype out = float_types[(number + mapping + 1) % 3];
                    if (skipped_for_lookups(lookups_only, bits[t], out)) {
                        ++number;
                        continue;
                    }
                    random_case rc;
                    memset(&rc, 0, sizeof rc);
                    clg_gather_quantized_desc *d = &rc.c.desc;
                    d->layout = CLG_QUANT_ORT_BLOCK;
                    d->bits = bits[t];
                    d->block_size = block_sizes[b];
                    const int u8 = types[t] == CLG_QUANT_U8, packed = u8 && bits[t] == 4;
                    const int64_t values =
                        (mapping == 1 ? adjacent_row_blocks(d->block_size) : 3) * d->block_size + (packed ? 6 : 7);
                    const int64_t shape[] = {5, packed ? values / 2 : values};
                    set_shape(&d->data, types[t], 2, shape);
                    d->quantize_axis = 1;
                    const int64_t sshape[] = {5, (values + d->block_size - 1) / d->block_size};
                    support_shape(&d->scales, float_types[sc], 2, sshape);
                    if (zp) {
                        const int64_t zshape[] = {5, packed ? (sshape[1] + 1) / 2 : sshape[1]};
                        set_shape(&d->zero_points, types[t], 2, zshape);
                    }
                    char what[160];
                    snprintf(what, sizeof what, "ort %s bits %d bs %" PRId64 " scales %s zp %d",
                             clg_quant_type_name(types[t]), bits[t], d->block_size, clg_dtype_name(float_types[sc]),
                             zp);
                    finish_sweep_case(rng, &rc, what, out, number);
                    compare_case(&rc, number % 2, (size_t)(number % 3) * 8);
                    quant_case_free(&rc.c);
                    ++number;
                }
    return number;
}

/* ONNX Runtime u8 with bits 2: every block size, rows of 2 or 3 whole blocks (adjacent_row_blocks on
 * that mapping) and a short one of 8 values, with and without zero points (four a byte: 3 or 4 a row on
 * the runs mapping, the row's byte padded or not; 49, 25, 13, 7 and 4 on the adjacent one). Scales,
 * output type, index type and the call vary with the zero points and the mapping, not case by case:
 * the fast form builds a program for each output and index type (two a mapping here), and 2-bit values
 * share every scale, output and offset path with the others. mapping: 0 runs, 1 adjacent. */
static int sweep_ort_two_bits(support_rng *rng, int number, int mapping)
{
    static const int64_t block_sizes[] = {16, 32, 64, 128, 256};
    number += number % 2;
    for (int b = 0; b < 5; ++b)
        for (int zp = 0; zp < 2; ++zp) {
            const clg_dtype scales = float_types[(zp + 2 * mapping) % 3], out = float_types[(2 * zp + mapping) % 3];
            random_case rc;
            memset(&rc, 0, sizeof rc);
            clg_gather_quantized_desc *d = &rc.c.desc;
            d->layout = CLG_QUANT_ORT_BLOCK;
            d->bits = 2;
            d->block_size = block_sizes[b];
            const int64_t blocks = mapping == 1 ? adjacent_row_blocks(d->block_size) : 2 + b % 2;
            const int64_t values = blocks * d->block_size + 8;
            const int64_t shape[] = {5, values / 4};
            set_shape(&d->data, CLG_QUANT_U8, 2, shape);
            d->quantize_axis = 1;
            const int64_t sshape[] = {5, (values + d->block_size - 1) / d->block_size};
            support_shape(&d->scales, scales, 2, sshape);
            if (zp) {
                const int64_t zshape[] = {5, (sshape[1] + 3) / 4};
                set_shape(&d->zero_points, CLG_QUANT_U8, 2, zshape);
            }
            char what[160];
            snprintf(what, sizeof what, "ort u8 bits 2 bs %" PRId64 " scales %s zp %d", d->block_size,
                     clg_dtype_name(scales), zp);
            finish_sweep_case(rng, &rc, what, out, number); /* number % 2 == zp: i32 indices, or i64 */
            compare_case(&rc, zp, zp ? 8 : 0);              /* with zero points enqueued at an offset of 8 bytes */
            quant_case_free(&rc.c);
            ++number;
        }
    return number;
}

/* OpenVINO: u8, i8, u4, i4, per row and grouped (odd group sizes), zero points none, per group or one
 * for the table; every ggml layout; each with every output type. */
static int sweep_ov_ggml(support_rng *rng, int number, int mapping, int lookups_only)
{
    for (int t = 1; t <= 4; ++t)
        for (int grouped = 0; grouped < 2; ++grouped)
            for (int zp = 0; zp < 3; ++zp)
                for (int o = 0; o < 3; ++o) {
                    const int bits = t == CLG_QUANT_U4 || t == CLG_QUANT_I4 ? 4 : 8;
                    if (skipped_for_lookups(lookups_only, bits, float_types[(o + mapping) % 3])) {
                        ++number;
                        continue;
                    }
                    random_case rc;
                    memset(&rc, 0, sizeof rc);
                    clg_gather_quantized_desc *d = &rc.c.desc;
                    d->layout = CLG_QUANT_OV_COMPRESSED;
                    const int64_t groups = grouped ? 3 : 1, K = grouped ? 3 * 9 : 35;
                    const int64_t shape[] = {6, K}, sshape[] = {6, groups}, one[] = {1, 1};
                    set_shape(&d->data, (clg_quant_type)t, 2, shape);
                    support_shape(&d->scales, float_types[(number + o) % 3], 2, sshape);
                    if (zp == 1) set_shape(&d->zero_points, (clg_quant_type)t, 2, sshape);
                    if (zp == 2) set_shape(&d->zero_points, (clg_quant_type)t, 2, one);
                    char what[160];
                    snprintf(what, sizeof what, "ov %s groups %" PRId64 " zp %d",
                             clg_quant_type_name((clg_quant_type)t), groups, zp);
                    finish_sweep_case(rng, &rc, what, float_types[(o + mapping) % 3], number);
                    compare_case(&rc, number % 2, (size_t)(number % 3) * 8);
                    quant_case_free(&rc.c);
                    ++number;
                }
    for (int l = 0; l < GGML_LAYOUTS; ++l)
        for (int o = 0; o < 3; ++o) {
            const clg_quant_layout layout = ggml_layouts[l];
            if (skipped_for_lookups(lookups_only, ggml_value_bits(layout), float_types[o])) {
                ++number;
                continue;
            }
            random_case rc;
            memset(&rc, 0, sizeof rc);
            clg_gather_quantized_desc *d = &rc.c.desc;
            d->layout = layout;
            /* the super-blocks: rows of two (every slab within 512 bytes), i64 indices and aligned buffers
             * for all six, so that they share one program per output type and mapping, the programs of
             * the random super-block cases (whose other choices cover the rest) */
            const int super = layout >= CLG_QUANT_GGML_Q2_K;
            const int64_t shape[] = {9, (int64_t)quant_ggml_block_bytes(layout) * (super ? 2 : 3)};
            set_shape(&d->data, CLG_QUANT_U8, 2, shape);
            char what[64];
            snprintf(what, sizeof what, "%s (case %d)", clg_quant_layout_name(layout), number);
            finish_sweep_case(rng, &rc, super ? what : clg_quant_layout_name(layout), float_types[o],
                              super ? 1 : number); /* odd: i64 indices */
            compare_case(&rc, super ? 1 : number % 2, super ? 0 : (size_t)(number % 3) * 8);
            quant_case_free(&rc.c);
            ++number;
        }
    return number;
}

/* The tuning that holds the nibble lookups to `lookups` (the tuning's nibble_lookups: "target",
 * "ssse3", "avx2" or "none"), on the suite's own tuning otherwise. */
static void use_lookups(const char *lookups)
{
    char line[64];
    snprintf(line, sizeof line, "nibble_lookups = %s", lookups);
    support_use_tuning(line);
}

/* m: 0 the runs mapping, 1 the adjacent one (support_mappings). With lookups "target" the whole sweep
 * with the lookups the target allows; otherwise only the cases the lookups serve, held to those. */
static void run_sweep(int m, const char *lookups)
{
    clg_context *ctx = support_cl_context();
    use_lookups(lookups);
    support_use_mapping(ctx, support_mappings[m]);
    const int salt = m + 1;
    support_rng rng = {seed ^ (0x5EEDull + (uint64_t)salt)};
    const int lookups_only = strcmp(lookups, "target") != 0;
    int number = sweep_ort(&rng, 0, m, lookups_only);
    if (!lookups_only) number = sweep_ort_two_bits(&rng, number, m); /* no nibbles: no lookups */
    sweep_ov_ggml(&rng, number, salt, lookups_only);
    support_use_tuning(NULL);
}

START_TEST(sweep_runs) { run_sweep(0, "target"); }
END_TEST
START_TEST(sweep_pieces) { run_sweep(1, "target"); }
END_TEST
/* The x86 nibble lookups a machine with AVX2 or AVX-512BW would otherwise never run: SSSE3's 16
 * values a lookup, AVX2's byte tables (where the target has AVX-512BW's word tables), and none (the
 * arithmetic every other target runs). Where the compiler does not target what the form holds back
 * there is nothing to hold back, and sweep_runs has run what the target takes already. */
static const char *lookup_limit_macro(const char *lookups)
{
    return strcmp(lookups, "avx2") == 0 ? "__AVX512BW__" : "__SSSE3__";
}

static void run_lookup_sweep(const char *lookups)
{
    const char *macro = lookup_limit_macro(lookups);
    if (!support_compiler_defines(macro)) {
        printf("skipped: the device's compiler does not define %s, so the kernels have no nibble lookups "
               "to hold back to %s\n",
               macro, lookups);
        return;
    }
    run_sweep(0, lookups);
}

/* Slabs of blocks of 32, 16 and 64 values with each work-item given one whole slab, so that these
 * small tables take the runs mapping's slab loops, which large tables take (kernels_cl/dequant_units.h):
 * lines of 1, 8, 12 and 19 blocks (no step of eight, one, one and a remainder, two and a remainder;
 * blocks of 64 up to 12); ONNX Runtime u4, i4 and u8 with bits 4 (zero points none or per block),
 * OpenVINO u4 and i4 grouped by the block size (zero points none, per group or one for the table);
 * scales of every type, a few not normal. */
static void sweep_whole_slabs(const char *lookups)
{
    clg_context *ctx = support_cl_context();
    use_lookups(lookups);
    ck_assert_int_eq(clg_testing_force_variant(ctx, "dequant-whole-slabs"), CLG_SUCCESS);
    /* the seeds the sweeps have always had */
    const uint64_t salt = strcmp(lookups, "none") == 0    ? 0
                          : strcmp(lookups, "ssse3") == 0 ? 2
                          : strcmp(lookups, "avx2") == 0  ? 3
                                                          : 1;
    support_rng rng = {seed ^ (0x51AB5ull + salt)};
    static const int64_t line_blocks[] = {1, 8, 12, 19}, block_sizes[] = {32, 16, 64};
    static const clg_quant_type types[] = {CLG_QUANT_U4, CLG_QUANT_I4, CLG_QUANT_U8, CLG_QUANT_U4, CLG_QUANT_I4};
    for (int b = 0; b < 3; ++b) {
        /* The same types for every block size, and blocks of 64 no longer than 12 blocks: the kernels
         * the other sizes need are those of blocks of 32 (a slab of more bytes prefetches fewer slabs
         * ahead, a build of its own), which keeps the sweep's compiles to those of one size. */
        int number = 0;
        for (int l = 0; l < (block_sizes[b] == 64 ? 3 : 4); ++l)
            for (int t = 0; t < 5; ++t)
                for (int zp = 0; zp < (t < 3 ? 2 : 3); ++zp, ++number) {
                    if (strcmp(lookups, "target") != 0 && held_back_skips(number)) continue;
                    random_case rc;
                    memset(&rc, 0, sizeof rc);
                    clg_gather_quantized_desc *d = &rc.c.desc;
                    const int64_t block_size = block_sizes[b], blocks = line_blocks[l], values = block_size * blocks;
                    const clg_dtype scale_type = float_types[(number / 3) % 3];
                    if (t < 3) {
                        const int packed = types[t] == CLG_QUANT_U8;
                        d->layout = CLG_QUANT_ORT_BLOCK;
                        d->bits = 4;
                        d->block_size = block_size;
                        d->quantize_axis = 1;
                        const int64_t shape[] = {5, packed ? values / 2 : values}, sshape[] = {5, blocks};
                        const int64_t zshape[] = {5, packed ? (blocks + 1) / 2 : blocks};
                        set_shape(&d->data, types[t], 2, shape);
                        support_shape(&d->scales, scale_type, 2, sshape);
                        if (zp) set_shape(&d->zero_points, types[t], 2, zshape);
                    } else {
                        d->layout = CLG_QUANT_OV_COMPRESSED;
                        const int64_t shape[] = {6, values}, sshape[] = {6, blocks}, one[] = {1, 1};
                        set_shape(&d->data, types[t], 2, shape);
                        support_shape(&d->scales, scale_type, 2, sshape);
                        if (zp) set_shape(&d->zero_points, types[t], 2, zp == 1 ? sshape : one);
                    }
                    char what[160];
                    snprintf(what, sizeof what,
                             "whole slabs (lookups %s): %s %s blocks %" PRId64 " of %" PRId64 " scales %s zp %d",
                             lookups, t < 3 ? "ort" : "ov", clg_quant_type_name(types[t]), blocks, block_size,
                             clg_dtype_name(scale_type), zp);
                    finish_sweep_case(&rng, &rc, what, float_types[number % 3], number);
                    compare_case(&rc, number % 2, (size_t)(number % 3) * 8);
                    quant_case_free(&rc.c);
                }
    }
    ck_assert_int_eq(clg_testing_force_variant(ctx, NULL), CLG_SUCCESS);
    support_use_tuning(NULL);
}

START_TEST(whole_slabs)
{
    sweep_whole_slabs("target");
    static const char *const held_back[] = {"ssse3", "avx2", "none"}; /* as in run_lookup_sweep */
    for (int h = 0; h < 3; ++h)
        if (support_compiler_defines(lookup_limit_macro(held_back[h]))) sweep_whole_slabs(held_back[h]);
}
END_TEST

START_TEST(sweep_runs_ssse3_lookups) { run_lookup_sweep("ssse3"); }
END_TEST
START_TEST(sweep_runs_avx2_lookups) { run_lookup_sweep("avx2"); }
END_TEST
START_TEST(sweep_runs_no_lookups) { run_lookup_sweep("none"); }
END_TEST

START_TEST(random_runs_offsets32) { run_random_cases(200, "runs", 0, 1); }
END_TEST
START_TEST(random_pieces_offsets32) { run_random_cases(200, "adjacent", 0, 2); }
END_TEST
START_TEST(random_runs_offsets64) { run_random_cases(100, "runs", 1, 3); }
END_TEST
START_TEST(random_pieces_offsets64) { run_random_cases(100, "adjacent", 1, 4); }
END_TEST
START_TEST(random_automatic_choice) { run_random_cases(100, NULL, 0, 5); }
END_TEST

/* The super-blocks, a stream of their own (random bytes, every f16 d and dmin, shapes, axes, policies
 * and outputs) on each mapping. */
static void run_random_super_blocks(const char *mapping, uint64_t stream)
{
    super_blocks_only = 1;
    run_random_cases(60, mapping, 0, stream);
    super_blocks_only = 0;
}

START_TEST(random_super_blocks_runs) { run_random_super_blocks("runs", 6); }
END_TEST
START_TEST(random_super_blocks_pieces) { run_random_super_blocks("adjacent", 7); }
END_TEST

/* FBGEMM's rows, a stream of their own (random values, scales and biases of every kind, shapes, axes,
 * policies and outputs) on each mapping; i64 indices and the error and zero policies, as the
 * super-blocks' (their program is one of its own). */
static void run_random_fbgemm_rows(const char *mapping, uint64_t stream)
{
    fbgemm_only = 1;
    fbgemm_narrow_output = strcmp(mapping, "runs") == 0 ? CLG_BF16 : CLG_F16;
    run_random_cases(40, mapping, 0, stream);
    fbgemm_only = 0;
}

START_TEST(random_fbgemm_rows_runs) { run_random_fbgemm_rows("runs", 8); }
END_TEST
START_TEST(random_fbgemm_rows_pieces) { run_random_fbgemm_rows("adjacent", 9); }
END_TEST

int main(void)
{
    const char *env = getenv("CLGATHER_TEST_SEED");
    if (env && *env) seed = strtoull(env, NULL, 0);
    const char *scale_env = getenv("CLGATHER_TEST_SCALE");
    if (scale_env && atof(scale_env) > 0) scale = atof(scale_env);
    printf("test_gather_quantized_differential: seed 0x%" PRIx64 " (set CLGATHER_TEST_SEED to replay another), "
           "scale %.2f\n",
           seed, scale);
    /* five test cases, so that CTest can run them side by side (CK_RUN_CASE: tests/CMakeLists.txt):
     * most of their time is kernel builds, each on one core */
    Suite *s = suite_create("gather_quantized_differential");
    TCase *random = tcase_create("random"), *sweeps = tcase_create("sweeps"), *lookups = tcase_create("lookups");
    TCase *super_blocks = tcase_create("super_blocks"), *fbgemm = tcase_create("fbgemm");
    tcase_add_test(random, random_runs_offsets32);
    tcase_add_test(random, random_pieces_offsets32);
    tcase_add_test(random, random_runs_offsets64);
    tcase_add_test(random, random_pieces_offsets64);
    tcase_add_test(random, random_automatic_choice);
    tcase_add_test(sweeps, sweep_runs);
    tcase_add_test(sweeps, sweep_pieces);
    tcase_add_test(lookups, sweep_runs_ssse3_lookups);
    tcase_add_test(lookups, sweep_runs_avx2_lookups);
    tcase_add_test(lookups, sweep_runs_no_lookups);
    tcase_add_test(lookups, whole_slabs);
    tcase_add_test(super_blocks, random_super_blocks_runs);
    tcase_add_test(super_blocks, random_super_blocks_pieces);
    tcase_add_test(fbgemm, random_fbgemm_rows_runs);
    tcase_add_test(fbgemm, random_fbgemm_rows_pieces);
    TCase *const cases[] = {random, sweeps, lookups, super_blocks, fbgemm};
    for (int i = 0; i < 5; ++i) {
        tcase_set_timeout(cases[i], 1200);
        suite_add_tcase(s, cases[i]);
    }
    return support_run_suite(s);
}
