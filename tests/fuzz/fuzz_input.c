#include "fuzz_input.h"

#include <stdlib.h>
#include <string.h>

uint8_t fuzz_u8(fuzz_input *in)
{
    if (!in->left) return 0;
    in->left--;
    return *in->p++;
}

uint64_t fuzz_u64(fuzz_input *in)
{
    uint64_t v = 0;
    for (int k = 0; k < 8; ++k) v |= (uint64_t)fuzz_u8(in) << (8 * k);
    return v;
}

int64_t fuzz_dim(fuzz_input *in)
{
    uint8_t b = fuzz_u8(in);
    if (b < 200) return b % 5;
    if (b < 250) return b - 195; /* 5..54 */
    switch (b) {
    case 250: return -1;
    case 251: return INT64_MAX;
    case 252: return (int64_t)1 << 32;
    case 253: return (int64_t)(fuzz_u64(in) >> 1);
    default: return 1;
    }
}

void fuzz_bytes(fuzz_input *in, void *out, size_t n)
{
    if (n == 0) return; /* out may be NULL (an absent input) */
    size_t take = n < in->left ? n : in->left;
    memcpy(out, in->p, take);
    memset((uint8_t *)out + take, 0, n - take);
    in->p += take;
    in->left -= take;
}

static void fuzz_tensor(fuzz_input *in, clg_tensor_desc *t, clg_dtype type, int max_rank)
{
    memset(t, 0, sizeof *t);
    t->type = type;
    uint8_t r = fuzz_u8(in);
    t->rank = r == 255 ? (int32_t)CLG_MAX_RANK + 1 : (int32_t)(r % (uint8_t)(max_rank + 1));
    for (int32_t k = 0; k < t->rank && k < CLG_MAX_RANK; ++k) t->shape[k] = fuzz_dim(in);
}

static clg_dtype fuzz_type(fuzz_input *in)
{
    uint8_t b = fuzz_u8(in);
    return b == 255 ? (clg_dtype)77 : (clg_dtype)(b % CLG_DTYPE_COUNT);
}

void fuzz_gather_desc(fuzz_input *in, clg_gather_desc *d, uint64_t axis_storage[2])
{
    memset(d, 0, sizeof *d);
    uint8_t p = fuzz_u8(in);
    d->preset = p == 255 ? (clg_preset)99 : (clg_preset)(p % CLG_PRESET_COUNT);
    fuzz_tensor(in, &d->data, fuzz_type(in), 6);
    fuzz_tensor(in, &d->indices, fuzz_type(in), 6);
    /* share leading dimensions now and then, so that batch_dims can be valid */
    if (fuzz_u8(in) & 1)
        for (int k = 0; k < d->data.rank && k < d->indices.rank && k < CLG_MAX_RANK; ++k)
            d->indices.shape[k] = d->data.shape[k];
    d->axis = (int64_t)(int8_t)fuzz_u8(in);
    uint8_t a = fuzz_u8(in);
    if (a & 1) {
        d->axis_tensor.type = fuzz_type(in);
        d->axis_tensor.rank = (a >> 1) % 3;
        d->axis_tensor.shape[0] = 1 + ((a >> 3) & 1);
        d->axis_tensor.shape[1] = 1;
        axis_storage[0] = fuzz_u8(in) & 1 ? fuzz_u64(in) : (uint64_t)(int64_t)(int8_t)fuzz_u8(in);
        axis_storage[1] = 0;
        d->axis_value = axis_storage;
    }
    d->batch_dims = (int64_t)(int8_t)fuzz_u8(in) % 8;
    uint8_t policy = fuzz_u8(in);
    d->oob_policy = policy == 255 ? (clg_oob_policy)9 : (clg_oob_policy)(policy % CLG_OOB_COUNT);
}

static clg_oob_policy fuzz_policy(fuzz_input *in)
{
    uint8_t policy = fuzz_u8(in);
    return policy == 255 ? (clg_oob_policy)9 : (clg_oob_policy)(policy % CLG_OOB_COUNT);
}

void fuzz_gather_elements_desc(fuzz_input *in, clg_gather_elements_desc *d)
{
    memset(d, 0, sizeof *d);
    uint8_t p = fuzz_u8(in);
    d->preset =
        p == 255 ? (clg_gather_elements_preset)99 : (clg_gather_elements_preset)(p % CLG_GATHER_ELEMENTS_PRESET_COUNT);
    fuzz_tensor(in, &d->data, fuzz_type(in), 6);
    fuzz_tensor(in, &d->indices, fuzz_type(in), 6);
    /* mostly the data's rank, with each extent the data's or below it, so that shapes can be valid */
    uint8_t mix = fuzz_u8(in);
    if (mix & 1) {
        d->indices.rank = d->data.rank;
        for (int k = 0; k < d->data.rank && k < CLG_MAX_RANK; ++k)
            if (fuzz_u8(in) & 1 && d->data.shape[k] > 0) d->indices.shape[k] = d->data.shape[k] - (mix >> 1 & 1);
    }
    d->axis = (int64_t)(int8_t)fuzz_u8(in) % 9;
    d->oob_policy = fuzz_policy(in);
}

void fuzz_gather_nd_desc(fuzz_input *in, clg_gather_nd_desc *d)
{
    memset(d, 0, sizeof *d);
    uint8_t p = fuzz_u8(in);
    d->preset = p == 255 ? (clg_gather_nd_preset)99 : (clg_gather_nd_preset)(p % CLG_GATHER_ND_PRESET_COUNT);
    fuzz_tensor(in, &d->data, fuzz_type(in), 6);
    fuzz_tensor(in, &d->indices, fuzz_type(in), 6);
    d->batch_dims = (int64_t)(int8_t)fuzz_u8(in) % 8;
    uint8_t mix = fuzz_u8(in);
    if (mix & 1) /* share the batch dimensions */
        for (int64_t k = 0; k < d->batch_dims && k < d->data.rank && k < d->indices.rank && k < CLG_MAX_RANK; ++k)
            d->indices.shape[k] = d->data.shape[k];
    if (mix & 2 && d->indices.rank >= 1 && d->indices.rank <= CLG_MAX_RANK) /* a tuple length within the data rank */
        d->indices.shape[d->indices.rank - 1] = 1 + (mix >> 2) % (d->data.rank > 0 ? d->data.rank : 1);
    d->oob_policy = fuzz_policy(in);
}

void fuzz_gather_tree_desc(fuzz_input *in, clg_gather_tree_desc *d)
{
    memset(d, 0, sizeof *d);
    clg_dtype type = fuzz_type(in);
    uint8_t mix = fuzz_u8(in);
    fuzz_tensor(in, &d->step_ids, type, 4);
    if (mix & 1) {
        d->parent_ids = d->step_ids;
        d->max_seq_len.type = type;
        d->max_seq_len.rank = 1;
        d->max_seq_len.shape[0] = d->step_ids.rank > 1 ? d->step_ids.shape[1] : 1;
        d->end_token.type = type;
    } else {
        fuzz_tensor(in, &d->parent_ids, type, 4);
        fuzz_tensor(in, &d->max_seq_len, type, 2);
        fuzz_tensor(in, &d->end_token, type, 1);
    }
    if (mix & 2) d->parent_ids.type = fuzz_type(in);
}

void *fuzz_alloc_filled(fuzz_input *in, size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (p) fuzz_bytes(in, p, bytes);
    return p;
}

int fuzz_gather_tree_inputs(fuzz_input *in, size_t limit, fuzz_tree_inputs *t)
{
    memset(t, 0, sizeof *t);
    fuzz_gather_tree_desc(in, &t->desc);
    uint64_t out_bytes = 0;
    if (clg_gather_tree_sizes(&t->desc, &out_bytes) != CLG_SUCCESS || out_bytes > limit) return 0;
    const size_t es = clg_dtype_size(t->desc.step_ids.type);
    const uint64_t batch = (uint64_t)t->desc.max_seq_len.shape[0];
    if (batch > limit) return 0;
    t->ids_bytes = (size_t)out_bytes;
    t->seq_len_bytes = (size_t)batch * es;
    t->end_token_bytes = es;
    t->step_ids = fuzz_alloc_filled(in, t->ids_bytes);
    t->parent_ids = fuzz_alloc_filled(in, t->ids_bytes);
    t->max_seq_len = fuzz_alloc_filled(in, t->seq_len_bytes);
    t->end_token = fuzz_alloc_filled(in, t->end_token_bytes);
    return 1;
}

void fuzz_gather_tree_inputs_free(fuzz_tree_inputs *t)
{
    free(t->step_ids);
    free(t->parent_ids);
    free(t->max_seq_len);
    free(t->end_token);
}

static int64_t blocks_of(int64_t values, int64_t block)
{
    return block > 0 ? values / block + (values % block != 0) : 0;
}

static clg_quant_type fuzz_quant_type(fuzz_input *in)
{
    const uint8_t b = fuzz_u8(in);
    return b == 255 ? (clg_quant_type)33 : (clg_quant_type)(b % CLG_QUANT_TYPE_COUNT);
}

void fuzz_gather_quantized_desc(fuzz_input *in, clg_gather_quantized_desc *d)
{
    memset(d, 0, sizeof *d);
    /* layout bytes 0..249 choose among the first five values as they did when there were five (so the
     * corpus keeps its meaning), 250..253 the four 32-value ggml layouts appended next, 254 one past the
     * last layout; 255 reads one more byte: below 240 one of the six 256-value super-block layouts
     * appended after them, 255 reads a third byte (its parity one of FBGEMM's two row layouts appended
     * last), else one far out */
    const uint8_t layout = fuzz_u8(in);
    if (layout == 255) {
        const uint8_t super = fuzz_u8(in);
        d->layout = super < 240    ? (clg_quant_layout)(CLG_QUANT_GGML_Q2_K + super % 6)
                    : super == 255 ? (clg_quant_layout)(CLG_QUANT_FBGEMM_8BIT_ROWWISE + fuzz_u8(in) % 2)
                                   : (clg_quant_layout)21;
    } else {
        d->layout = layout < 250   ? (clg_quant_layout)(layout % 5)
                    : layout < 254 ? (clg_quant_layout)(CLG_QUANT_GGML_Q4_1 + (layout - 250))
                                   : CLG_QUANT_LAYOUT_COUNT;
    }
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
    const int ggml = d->layout == CLG_QUANT_GGML_Q4_0 || d->layout == CLG_QUANT_GGML_Q8_0 ||
                     (d->layout >= CLG_QUANT_GGML_Q4_1 && d->layout < CLG_QUANT_LAYOUT_COUNT);
    /* ONNX Runtime's u8 packs four values a byte with bits 2, two with bits 4 (or 0), along the last axis */
    const int64_t per_byte =
        d->layout == CLG_QUANT_ORT_BLOCK && d->data.type == CLG_QUANT_U8 && d->bits != 8 ? (d->bits == 2 ? 4 : 2) : 1;
    if (!ggml || (flags & 8)) d->scales.type = (clg_dtype)(fuzz_u8(in) % CLG_DTYPE_COUNT);
    const int32_t rank = d->data.rank >= 1 && d->data.rank <= CLG_MAX_RANK ? d->data.rank : 1;
    if (flags & 1) {
        d->scales.rank = rank;
        memcpy(d->scales.shape, d->data.shape, sizeof d->scales.shape);
        int32_t q = (int32_t)(d->quantize_axis < 0 ? d->quantize_axis + rank : d->quantize_axis);
        if (d->layout == CLG_QUANT_OV_COMPRESSED || q < 0 || q >= rank) q = rank - 1;
        const int64_t values = d->data.shape[q] >= 0 && d->data.shape[q] < INT64_MAX / per_byte
                                   ? per_byte * d->data.shape[q]
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
            if (per_byte > 1 && d->scales.rank > 0)
                d->zero_points.shape[d->scales.rank - 1] = blocks_of(d->scales.shape[d->scales.rank - 1], per_byte);
        } else {
            d->zero_points.rank = fuzz_u8(in) % 2;
            d->zero_points.shape[0] = 1;
        }
    }
}

/* An integer type (now and then any type, or none). */
static clg_dtype fuzz_index_type(fuzz_input *in)
{
    uint8_t b = fuzz_u8(in);
    return b >= 240 ? fuzz_type(in) : (clg_dtype)(CLG_I8 + b % (CLG_U64 - CLG_I8 + 1));
}

/* A small number, now and then a hostile one. */
static int64_t fuzz_option(fuzz_input *in)
{
    uint8_t b = fuzz_u8(in);
    if (b < 230) return (int64_t)(b % 12) - 4;
    if (b < 240) return INT64_MIN;
    if (b < 250) return INT64_MAX;
    return (int64_t)fuzz_u64(in);
}

void fuzz_embedding_bag_desc(fuzz_input *in, clg_embedding_bag_desc *d)
{
    memset(d, 0, sizeof *d);
    const uint8_t mix = fuzz_u8(in);
    uint8_t b = fuzz_u8(in);
    d->preset =
        b == 255 ? (clg_embedding_bag_preset)77 : (clg_embedding_bag_preset)(b % CLG_EMBEDDING_BAG_PRESET_COUNT);
    b = fuzz_u8(in);
    d->bag_form = b == 255 ? (clg_bag_form)-1 : (clg_bag_form)(b % CLG_BAG_FORM_COUNT);
    b = fuzz_u8(in);
    d->mode = b == 255 ? (clg_bag_mode)9 : (clg_bag_mode)(b % (CLG_BAG_MODE_COUNT + 1));
    b = fuzz_u8(in);
    /* the table's types mostly: f32, f16, bf16, f64 */
    const clg_dtype table_type = b < 200 ? (clg_dtype)(CLG_F16 + b % 4) : fuzz_type(in);
    if (mix & 1) { /* shapes as the form asks */
        fuzz_tensor(in, &d->table, table_type, 3);
        if (d->table.rank == 0) d->table.rank = 1;
        const int packed = d->bag_form == CLG_BAG_PACKED;
        d->indices.type = fuzz_index_type(in);
        d->indices.rank = packed ? 2 : 1;
        d->indices.shape[0] = fuzz_dim(in);
        if (packed) d->indices.shape[1] = fuzz_dim(in);
        if (d->bag_form == CLG_BAG_OFFSETS) {
            d->offsets.type = fuzz_index_type(in);
            d->offsets.rank = 1;
            d->offsets.shape[0] = fuzz_dim(in);
        } else if (d->bag_form == CLG_BAG_SEGMENTS) {
            d->segment_ids = d->indices;
            d->segment_ids.type = fuzz_index_type(in);
            d->num_segments = fuzz_dim(in);
        }
        if (mix & 2) {
            d->per_sample_weights = d->indices;
            d->per_sample_weights.type = (mix & 4) ? fuzz_type(in) : table_type;
        }
    } else { /* anything */
        fuzz_tensor(in, &d->table, table_type, 4);
        fuzz_tensor(in, &d->indices, fuzz_index_type(in), 3);
        if (mix & 8) fuzz_tensor(in, &d->offsets, fuzz_index_type(in), 2);
        if (mix & 16) fuzz_tensor(in, &d->segment_ids, fuzz_index_type(in), 2);
        if (mix & 2) fuzz_tensor(in, &d->per_sample_weights, fuzz_type(in), 3);
        d->num_segments = fuzz_dim(in);
    }
    d->include_last_offset = (mix & 32) != 0;
    d->has_default_index = (mix & 64) != 0;
    d->has_padding_idx = (mix & 128) != 0;
    if (d->has_default_index) d->default_index = fuzz_option(in);
    if (d->has_padding_idx) d->padding_idx = fuzz_option(in);
}

void fuzz_integers(fuzz_input *in, void *buf, clg_dtype type, size_t count, uint64_t bound, int sorted)
{
    const size_t size = clg_dtype_size(type);
    if (type < CLG_I8 || type > CLG_U64) {
        fuzz_bytes(in, buf, count * size);
        return;
    }
    uint64_t value = 0, next = 0;
    for (size_t i = 0; i < count; ++i) {
        const uint8_t b = fuzz_u8(in);
        if (sorted) { /* from 0, each the one before or one more */
            value = next;
            next += b % 3 == 0 && next < bound ? 1 : 0;
        } else {
            value = b >= 250 ? bound + (b - 250) : (bound ? b % bound : 0); /* now and then out of range */
        }
        fuzz_store_integer(buf, i, type, value);
    }
}

void fuzz_store_integer(void *buf, size_t i, clg_dtype type, uint64_t value)
{
    const size_t size = clg_dtype_size(type);
    memcpy((uint8_t *)buf + i * size, &value, size); /* little-endian: the low bytes */
}

void fuzz_bag_integers(fuzz_input *in, int tame, const clg_embedding_bag_desc *d, uint64_t rows, void *indices,
                       size_t index_bytes, void *bags, size_t bag_bytes)
{
    if (!tame) {
        fuzz_bytes(in, indices, index_bytes);
        fuzz_bytes(in, bags, bag_bytes);
        return;
    }
    const clg_tensor_desc *bag_desc = d->bag_form == CLG_BAG_SEGMENTS ? &d->segment_ids : &d->offsets;
    const size_t index_size = clg_dtype_size(d->indices.type), bag_size = clg_dtype_size(bag_desc->type);
    const size_t count = index_size ? index_bytes / index_size : 0;
    fuzz_integers(in, indices, d->indices.type, count, rows, 0);
    const uint64_t bag_bound =
        d->bag_form == CLG_BAG_SEGMENTS ? (uint64_t)d->num_segments - (d->num_segments > 0) : (uint64_t)count;
    if (bag_bytes && bag_size) fuzz_integers(in, bags, bag_desc->type, bag_bytes / bag_size, bag_bound, 1);
}

/* The values a block of a self-contained quantized layout holds (FBGEMM's rows: 2, the 4-bit width's step). */
static int64_t layout_block_values(int32_t layout)
{
    if (layout >= CLG_QUANT_GGML_Q2_K && layout <= CLG_QUANT_GGML_IQ4_XS) return 256;
    if (layout == CLG_QUANT_FBGEMM_8BIT_ROWWISE || layout == CLG_QUANT_FBGEMM_4BIT_ROWWISE) return 2;
    return 32;
}

/* The bytes of a row of `width` values in a self-contained layout, as the table-batched call sizes a table
 * of one row; 0 where it refuses the width. */
static uint64_t layout_row_bytes(int32_t layout, int64_t width)
{
    const clg_embedding_bag_table one = {.quant_layout = layout, .rows = 1, .width = width};
    clg_embedding_bag_tables_desc probe = {.num_tables = 1, .tables = &one};
    probe.indices = (clg_tensor_desc){.type = CLG_I64, .rank = 1};
    probe.offsets = (clg_tensor_desc){.type = CLG_I64, .rank = 1};
    uint64_t bytes = 0;
    return clg_embedding_bag_tables_sizes(&probe, &bytes, NULL, NULL, NULL, NULL) == CLG_SUCCESS ? bytes : 0;
}

void fuzz_embedding_bag_quantized_desc(fuzz_input *in, clg_embedding_bag_quantized_desc *d)
{
    memset(d, 0, sizeof *d);
    fuzz_embedding_bag_desc(in, &d->bag);
    clg_gather_quantized_desc g;
    fuzz_gather_quantized_desc(in, &g);
    const uint8_t mix = fuzz_u8(in);
    if (!(mix & 1)) memset(&d->bag.table, 0, sizeof d->bag.table); /* absent, as the call asks, mostly */
    if (d->bag.per_sample_weights.type != CLG_DTYPE_INVALID && !(mix & 2)) d->bag.per_sample_weights.type = CLG_F32;
    d->layout = g.layout;
    d->data = g.data;
    d->scales = g.scales;
    d->zero_points = g.zero_points;
    d->bits = g.bits;
    d->block_size = g.block_size;
    /* the output type: the gather descriptor's pick (any type), f16, bf16, or the default (f32) */
    const int out = (mix >> 2) % 4;
    d->output_type = out == 0 ? g.output_type : out == 1 ? CLG_F16 : out == 2 ? CLG_BF16 : CLG_DTYPE_INVALID;
    if (mix & 16) { /* a table of whole rows of a self-contained layout (ggml's, FBGEMM's), which the gather's
                       descriptor seldom makes */
        const int32_t layout = CLG_QUANT_GGML_Q4_0 + fuzz_u8(in) % (CLG_QUANT_LAYOUT_COUNT - CLG_QUANT_GGML_Q4_0);
        const uint8_t w = fuzz_u8(in);
        /* widths up to 320 values: whole pieces of the register loops (128 values a piece on some devices) */
        const int64_t block = layout_block_values(layout);
        const int64_t width = block == 256 ? (w % 3 + 1) * 256 : block == 32 ? (w % 10 + 1) * 32 : 2 * (w % 160 + 1);
        const uint64_t row_bytes = layout == CLG_QUANT_OV_COMPRESSED ? 0 : layout_row_bytes(layout, width);
        if (row_bytes) {
            d->layout = (clg_quant_layout)layout;
            memset(&d->data, 0, sizeof d->data);
            d->data.type = CLG_QUANT_U8;
            d->data.rank = 2;
            d->data.shape[0] = fuzz_dim(in);
            d->data.shape[1] = (int64_t)row_bytes;
            memset(&d->scales, 0, sizeof d->scales);
            memset(&d->zero_points, 0, sizeof d->zero_points);
            d->bits = 0;
            d->block_size = 0;
        }
    }
}

int32_t fuzz_embedding_bag_tables_desc(fuzz_input *in, clg_embedding_bag_tables_desc *d,
                                       clg_embedding_bag_table tables[FUZZ_MAX_TABLES])
{
    memset(d, 0, sizeof *d);
    memset(tables, 0, FUZZ_MAX_TABLES * sizeof tables[0]);
    const uint8_t mix = fuzz_u8(in);
    uint8_t b = fuzz_u8(in);
    d->mode = b == 255 ? (clg_bag_mode)9 : (clg_bag_mode)(b % (CLG_BAG_MODE_COUNT + 1));
    b = fuzz_u8(in);
    const int32_t count = b == 255 ? -1 : b % (FUZZ_MAX_TABLES + 1);
    d->num_tables = count;
    d->tables = tables;
    for (int32_t t = 0; t < count; ++t) {
        clg_embedding_bag_table *tb = &tables[t];
        b = fuzz_u8(in);
        /* plain tables of the four float types mostly, else a layout (self-contained or not), now and then
         * a type or layout that is neither */
        if (b < 150) {
            tb->type = (clg_dtype)(CLG_F16 + b % 4);
        } else if (b < 250) {
            tb->quant_layout = 1 + b % (CLG_QUANT_LAYOUT_COUNT - 1);
        } else {
            tb->type = fuzz_type(in);
            tb->quant_layout = b == 254 ? CLG_QUANT_LAYOUT_COUNT : 0;
        }
        tb->rows = fuzz_dim(in);
        const uint8_t w = fuzz_u8(in);
        tb->width = w < 100                             ? w % 20
                    : w >= 200 && tb->quant_layout == 0 ? 8 * (w - 199) /* up to 448 values */
                    : tb->quant_layout                  ? (w % 4 + 1) * layout_block_values(tb->quant_layout)
                                                        : fuzz_dim(in);
        /* after the tables before it (their sizes, as the call reports them), with a little slack */
        uint64_t end = 0;
        clg_embedding_bag_tables_desc prefix = *d;
        prefix.num_tables = t;
        prefix.indices = (clg_tensor_desc){.type = CLG_I64, .rank = 1};
        prefix.offsets = (clg_tensor_desc){.type = CLG_I64, .rank = 1};
        if (t == 0 || clg_embedding_bag_tables_sizes(&prefix, &end, NULL, NULL, NULL, NULL) != CLG_SUCCESS) end = 0;
        const uint8_t slack = fuzz_u8(in);
        tb->byte_offset = slack == 255 ? fuzz_u64(in) : end + (slack % 4) * 8 + (slack >= 192 ? slack % 8 : 0);
    }
    d->indices = (clg_tensor_desc){.type = fuzz_index_type(in), .rank = 1};
    d->indices.shape[0] = fuzz_dim(in);
    d->offsets = (clg_tensor_desc){.type = fuzz_index_type(in), .rank = 1};
    const int64_t bags = fuzz_dim(in);
    d->include_last_offset = (mix & 1) != 0;
    d->offsets.shape[0] = count > 0 && bags >= 0 && bags < (1 << 20) ? count * bags + d->include_last_offset : bags;
    if (mix & 2) {
        d->per_sample_weights = d->indices;
        d->per_sample_weights.type = (mix & 4) ? fuzz_type(in) : count > 0 && tables[0].type ? tables[0].type : CLG_F32;
    }
    if (mix & 8) d->output_type = fuzz_type(in);
    if (mix & 16) { /* hostile shapes */
        d->indices.rank = fuzz_u8(in) % 3;
        d->offsets.rank = fuzz_u8(in) % 3;
    }
    return count;
}
