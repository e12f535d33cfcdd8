#include "quantized_support.h"

#include "core/float_bits.h"

#include <stdlib.h>

static unsigned char *zeroed(size_t bytes)
{
    unsigned char *p = calloc(bytes ? bytes : 1, 1);
    ck_assert_ptr_nonnull(p);
    return p;
}

void quant_case_alloc(quant_case *c)
{
    uint64_t d, i, s, z, o;
    clg_status st = clg_gather_quantized_sizes(&c->desc, &d, &i, &s, &z, &o);
    ck_assert_msg(st == CLG_SUCCESS, "sizes: %s: %s", clg_status_string(st), clg_last_error_message());
    c->data_bytes = (size_t)d;
    c->index_bytes = (size_t)i;
    c->scale_bytes = (size_t)s;
    c->zp_bytes = (size_t)z;
    c->out_bytes = (size_t)o;
    c->data = zeroed(c->data_bytes);
    c->indices = zeroed(c->index_bytes);
    c->scales = zeroed(c->scale_bytes);
    c->zero_points = zeroed(c->zp_bytes);
}

void quant_case_free(quant_case *c)
{
    free(c->data);
    free(c->indices);
    free(c->scales);
    free(c->zero_points);
    c->data = c->indices = c->scales = c->zero_points = NULL;
}

void quant_put_nibble(unsigned char *packed, uint64_t k, int v)
{
    const int shift = (int)(k % 2) * 4;
    packed[k / 2] = (unsigned char)((packed[k / 2] & ~(0xF << shift)) | ((v & 0xF) << shift));
}

void quant_put_scale_bits(quant_case *c, uint64_t k, uint32_t bits)
{
    switch (c->desc.scales.type) {
    case CLG_F32: memcpy(c->scales + 4 * k, &bits, 4); break;
    case CLG_F16: {
        uint16_t h = clg_f32_to_f16_bits(bits);
        memcpy(c->scales + 2 * k, &h, 2);
        break;
    }
    default: {
        uint16_t b = clg_f32_to_bf16_bits(bits);
        memcpy(c->scales + 2 * k, &b, 2);
        break;
    }
    }
}

void quant_put_scale(quant_case *c, uint64_t k, float value)
{
    uint32_t bits;
    memcpy(&bits, &value, 4);
    quant_put_scale_bits(c, k, bits);
}

uint32_t quant_output_bits(clg_dtype out_type, const void *out, uint64_t k)
{
    const unsigned char *o = out;
    if (out_type == CLG_F32) {
        uint32_t bits;
        memcpy(&bits, o + 4 * k, 4);
        return bits;
    }
    uint16_t h;
    memcpy(&h, o + 2 * k, 2);
    return out_type == CLG_F16 ? clg_f16_to_f32_bits(h) : clg_bf16_to_f32_bits(h);
}

float quant_output_value(clg_dtype out_type, const void *out, uint64_t k)
{
    const uint32_t bits = quant_output_bits(out_type, out, k);
    float v;
    memcpy(&v, &bits, 4);
    return v;
}

clg_status quant_reference(const quant_case *c, void *out)
{
    return clg_gather_quantized_reference(&c->desc, c->data, c->data_bytes, c->indices, c->index_bytes, c->scales,
                                          c->scale_bytes, c->zero_points, c->zp_bytes, out, c->out_bytes);
}

clg_status quant_sync(clg_context *ctx, const quant_case *c, void *out)
{
    return clg_gather_quantized(ctx, &c->desc, c->data, c->data_bytes, c->indices, c->index_bytes, c->scales,
                                c->scale_bytes, c->zero_points, c->zp_bytes, out, c->out_bytes);
}

static size_t round_up(size_t v, size_t unit) { return unit > 1 ? (v + unit - 1) / unit * unit : v; }

static cl_mem guarded(cl_context cl, const void *content, size_t bytes, size_t guard)
{
    const size_t total = guard + bytes + guard;
    unsigned char *staging = malloc(total ? total : 1);
    ck_assert_ptr_nonnull(staging);
    memset(staging, POISON_BYTE, total ? total : 1);
    if (content && bytes) memcpy(staging + guard, content, bytes);
    cl_int err = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, total ? total : 1, staging, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    free(staging);
    return mem;
}

static clg_dtype output_type_of(const quant_case *c)
{
    int32_t rank;
    int64_t shape[CLG_MAX_OUTPUT_RANK];
    clg_dtype type = CLG_F32;
    if (clg_gather_quantized_output_shape(&c->desc, &rank, shape, &type) != CLG_SUCCESS) return CLG_F32;
    return type;
}

size_t quant_out_guard(const quant_case *c, size_t guard) { return round_up(guard, clg_dtype_size(output_type_of(c))); }

clg_status quant_enqueue(clg_context *ctx, const quant_case *c, size_t guard, void *out_region)
{
    cl_context cl = clg_context_cl_context(ctx);
    cl_command_queue queue = clg_context_cl_queue(ctx);
    const size_t index_guard = round_up(guard, clg_dtype_size(c->desc.indices.type));
    const size_t scale_guard = round_up(guard, c->desc.scales.type ? clg_dtype_size(c->desc.scales.type) : 1);
    const size_t out_guard = quant_out_guard(c, guard);
    cl_mem d = guarded(cl, c->data, c->data_bytes, guard);
    cl_mem i = guarded(cl, c->indices, c->index_bytes, index_guard);
    cl_mem s = c->scale_bytes ? guarded(cl, c->scales, c->scale_bytes, scale_guard) : NULL;
    cl_mem z = c->zp_bytes ? guarded(cl, c->zero_points, c->zp_bytes, guard) : NULL;
    cl_mem o = guarded(cl, NULL, c->out_bytes, out_guard);
    cl_event done = NULL;
    clg_status st = clg_gather_quantized_enqueue(ctx, &c->desc, queue, d, guard, i, index_guard, s, s ? scale_guard : 0,
                                                 z, z ? guard : 0, o, out_guard, 0, NULL, &done);
    if (st == CLG_SUCCESS) {
        ck_assert_ptr_nonnull(done);
        ck_assert_int_eq(clWaitForEvents(1, &done), CL_SUCCESS);
        clReleaseEvent(done);
    }
    ck_assert_int_eq(
        clEnqueueReadBuffer(queue, o, CL_TRUE, 0, out_guard + c->out_bytes + out_guard, out_region, 0, NULL, NULL),
        CL_SUCCESS);
    clReleaseMemObject(d);
    clReleaseMemObject(i);
    if (s) clReleaseMemObject(s);
    if (z) clReleaseMemObject(z);
    clReleaseMemObject(o);
    return st;
}

size_t quant_ggml_block_bytes(clg_quant_layout l)
{
    switch (l) {
    case CLG_QUANT_GGML_Q4_0:
    case CLG_QUANT_GGML_IQ4_NL: return 18;
    case CLG_QUANT_GGML_Q8_0: return 34;
    case CLG_QUANT_GGML_Q4_1: return 20;
    case CLG_QUANT_GGML_Q5_0: return 22;
    case CLG_QUANT_GGML_Q5_1: return 24;
    case CLG_QUANT_GGML_Q2_K: return 84;
    case CLG_QUANT_GGML_Q3_K: return 110;
    case CLG_QUANT_GGML_Q4_K: return 144;
    case CLG_QUANT_GGML_Q5_K: return 176;
    case CLG_QUANT_GGML_Q6_K: return 210;
    case CLG_QUANT_GGML_IQ4_XS: return 136;
    default: return 0;
    }
}

int quant_ggml_f16_fields(clg_quant_layout l, size_t at[2])
{
    switch (l) {
    case CLG_QUANT_GGML_Q4_1:
    case CLG_QUANT_GGML_Q5_1:
    case CLG_QUANT_GGML_Q4_K:
    case CLG_QUANT_GGML_Q5_K: at[0] = 0, at[1] = 2; return 2;
    case CLG_QUANT_GGML_Q2_K: at[0] = 80, at[1] = 82; return 2;
    case CLG_QUANT_GGML_Q3_K: at[0] = 108; return 1;
    case CLG_QUANT_GGML_Q6_K: at[0] = 208; return 1;
    default: at[0] = 0; return 1;
    }
}
