#include "ops/embedding_bag/embedding_bag_tables_plan.h"

#include "core/index_value.h"
#include "core/plan_checks.h"
#include "core/status.h"
#include "ops/gather_quantized/gather_quantized_layout_rules.h"

#include <inttypes.h>
#include <string.h>

static bool is_float_table(clg_dtype t) { return t == CLG_F32 || t == CLG_F16 || t == CLG_BF16 || t == CLG_F64; }
static bool present(const clg_tensor_desc *t) { return t->type != CLG_DTYPE_INVALID; }

/* The block families of dequant_piece.h, each a program of its own. */
static const char *family_name(clg_ggml_format f)
{
    return clg_ggml_is_super(f)    ? "ggml's 256-value super-blocks"
           : clg_ggml_is_fbgemm(f) ? "FBGEMM's rows"
                                   : "ggml's 32-value blocks";
}
static int family_of(clg_ggml_format f) { return clg_ggml_is_super(f) ? 1 : clg_ggml_is_fbgemm(f) ? 2 : 0; }

/* A quantized table's layout, type and width. */
static clg_status check_quantized(const clg_embedding_bag_table *e, int32_t t, clg_row_layout *row)
{
    const clg_quant_layout layout = (clg_quant_layout)e->quant_layout;
    const bool known = e->quant_layout > 0 && e->quant_layout < (int32_t)CLG_QUANT_LAYOUT_COUNT;
    if (!known)
        return clg_fail(CLG_ERR_INVALID_LAYOUT, "tables[%d].quant_layout = %d is neither 0 (plain rows) nor a layout",
                        (int)t, (int)e->quant_layout);
    if (!clg_quant_row_layout(layout, row))
        return clg_fail(CLG_ERR_INVALID_LAYOUT,
                        "tables[%d].quant_layout = %s: its scales are a tensor of their own, which the table-batched "
                        "call has no place for (it takes layouts whose rows hold their scales: ggml's and FBGEMM's); "
                        "clg_embedding_bag_quantized takes it, a call a table",
                        (int)t, clg_quant_layout_name(layout));
    if (e->type != CLG_DTYPE_INVALID)
        return clg_fail(CLG_ERR_INVALID_DTYPE,
                        "tables[%d].type %s with quant_layout %s: leave type 0 (the layout gives it)", (int)t,
                        clg_dtype_name(e->type), clg_quant_layout_name(layout));
    if (e->rows < 0 || e->width < 0)
        return clg_fail(CLG_ERR_INVALID_DIMENSION,
                        "tables[%d] has rows = %" PRId64 ", width = %" PRId64 ": both must be >= 0", (int)t, e->rows,
                        e->width);
    if (row->block_values && (uint64_t)e->width % row->block_values != 0)
        return clg_fail(CLG_ERR_INVALID_DIMENSION,
                        "tables[%d].width = %" PRId64 " is not a multiple of %" PRIu64 " (a %s row is whole blocks)",
                        (int)t, e->width, row->block_values, clg_quant_layout_name(layout));
    if (!row->block_values && row->value_bits == 4 && e->width % 2 != 0)
        return clg_fail(CLG_ERR_INVALID_DIMENSION,
                        "tables[%d].width = %" PRId64 " is odd: an fbgemm-4bit-rowwise row holds two values a byte "
                        "(an odd-width table is stored padded: give its padded width)",
                        (int)t, e->width);
    return CLG_SUCCESS;
}

/* A plain table's type and extents. */
static clg_status check_plain(const clg_embedding_bag_table *e, int32_t t)
{
    if (!is_float_table(e->type))
        return clg_fail(CLG_ERR_INVALID_DTYPE, "tables[%d].type %s is not f32, f16, bf16 or f64", (int)t,
                        clg_dtype_name(e->type));
    if (e->rows < 0 || e->width < 0)
        return clg_fail(CLG_ERR_INVALID_DIMENSION,
                        "tables[%d] has rows = %" PRId64 ", width = %" PRId64 ": both must be >= 0", (int)t, e->rows,
                        e->width);
    const size_t size = clg_dtype_size(e->type);
    if (e->byte_offset % size != 0)
        return clg_fail(CLG_ERR_MISALIGNED_OFFSET,
                        "tables[%d].byte_offset = %" PRIu64 " is not a multiple of the %s size (%zu)", (int)t,
                        e->byte_offset, clg_dtype_name(e->type), size);
    return CLG_SUCCESS;
}

uint64_t clg_embedding_bag_table_row_bytes(const clg_embedding_bag_table *e)
{
    clg_row_layout row;
    const uint64_t D = (uint64_t)e->width;
    if (e->quant_layout == 0 || !clg_quant_row_layout((clg_quant_layout)e->quant_layout, &row))
        return D * clg_dtype_size(e->type);
    return row.block_values ? D / row.block_values * row.block_bytes
                            : D * (uint64_t)row.value_bits / 8 + row.trailer_bytes;
}

clg_status clg_embedding_bag_table_quant_plan(const clg_embedding_bag_table *e, clg_gather_quantized_plan *plan)
{
    clg_gather_quantized_desc g;
    memset(&g, 0, sizeof g);
    g.layout = (clg_quant_layout)e->quant_layout;
    g.data.type = CLG_QUANT_U8;
    g.data.rank = 2;
    g.data.shape[0] = e->rows;
    g.data.shape[1] = (int64_t)clg_embedding_bag_table_row_bytes(e);
    g.indices.type = CLG_I64;
    g.indices.rank = 1;
    g.indices.shape[0] = 1;
    g.gather_axis = 0;
    g.quantize_axis = 1;
    g.output_type = CLG_F32;
    g.oob_policy = CLG_OOB_PRESET;
    return clg_gather_quantized_plan_make(&g, plan);
}

/* Table t: its layout, type, extents and placement; *end gets the byte after its last. */
static clg_status check_table(const clg_embedding_bag_table *tables, int32_t t, uint64_t *end)
{
    const clg_embedding_bag_table *e = &tables[t];
    clg_row_layout row;
    const clg_status st = e->quant_layout != 0 ? check_quantized(e, t, &row) : check_plain(e, t);
    if (st != CLG_SUCCESS) return st;
    /* a row's bytes: a plain row's D * size (its overflow tested here), a quantized one's at most 34 / 32 D + 8 */
    const uint64_t row_bytes = clg_embedding_bag_table_row_bytes(e);
    const clg_size bytes = clg_size_mul(clg_size_of((uint64_t)e->rows), clg_size_of(row_bytes));
    const bool plain_overflow = e->quant_layout == 0 && (uint64_t)e->width > UINT64_MAX / clg_dtype_size(e->type);
    if (plain_overflow || bytes.overflow || bytes.value > UINT64_MAX - e->byte_offset)
        return clg_fail(CLG_ERR_SIZE_OVERFLOW, "tables[%d] ends beyond 2^64 bytes", (int)t);
    *end = e->byte_offset + bytes.value;
    return CLG_SUCCESS;
}

/* Whether the call converts, the families of its quantized tables, its types; p's type fields. */
static clg_status check_types(const clg_embedding_bag_tables_desc *desc, clg_embedding_bag_tables_plan *p)
{
    const clg_embedding_bag_table *tables = desc->tables;
    int32_t mixed = -1, first_quantized = -1;
    for (int32_t t = 0; t < desc->num_tables; ++t) {
        if (tables[t].quant_layout != 0 && first_quantized < 0) first_quantized = t;
        if (tables[t].quant_layout == 0 && mixed < 0 && tables[t].type != tables[0].type) mixed = t;
        if (tables[t].quant_layout == 0) {
            const clg_dtype w = tables[t].type;
            if (p->widest_plain == CLG_DTYPE_INVALID || clg_dtype_size(w) > clg_dtype_size(p->widest_plain))
                p->widest_plain = w;
        }
    }
    const clg_dtype asked = desc->output_type;
    const bool one_plain_type = first_quantized < 0 && mixed < 0;
    if (one_plain_type && (asked == CLG_DTYPE_INVALID || asked == tables[0].type)) {
        p->out_type = tables[0].type; /* as before output_type: one type in, the same out */
        p->out_size = clg_dtype_size(p->out_type);
        return CLG_SUCCESS;
    }
    p->converts = true;
    p->out_type = asked == CLG_DTYPE_INVALID ? CLG_F32 : asked;
    if (p->out_type != CLG_F32 && p->out_type != CLG_F16 && p->out_type != CLG_BF16)
        return clg_fail(CLG_ERR_INVALID_DTYPE, "output_type %s is not f32, f16 or bf16%s", clg_dtype_name(asked),
                        one_plain_type ? " (nor the tables' type)" : "");
    p->out_size = clg_dtype_size(p->out_type);
    for (int32_t t = 0; t < desc->num_tables; ++t) {
        const clg_embedding_bag_table *e = &tables[t];
        if (e->quant_layout == 0 && e->type == CLG_F64)
            return clg_fail(CLG_ERR_INVALID_DTYPE,
                            "tables[%d].type f64 in a call that converts to f32 (%s): f64 tables need a call of "
                            "their own, of one type",
                            (int)t,
                            first_quantized >= 0 ? "it has quantized tables"
                            : mixed >= 0         ? "its tables' types differ"
                                                 : "output_type is given");
        if (e->quant_layout == 0) continue;
        clg_row_layout row;
        clg_quant_row_layout((clg_quant_layout)e->quant_layout, &row);
        if (p->family == CLG_GGML_NONE) {
            p->family = row.format;
        } else if (family_of(row.format) != family_of(p->family)) {
            return clg_fail(CLG_ERR_INVALID_LAYOUT,
                            "tables[%d] (%s) and tables[%d] (%s) are of different block families (%s, %s): the "
                            "quantized tables of one call share one (each family is a program of its own); plain "
                            "tables mix with any",
                            (int)first_quantized,
                            clg_quant_layout_name((clg_quant_layout)tables[first_quantized].quant_layout), (int)t,
                            clg_quant_layout_name((clg_quant_layout)e->quant_layout), family_name(p->family),
                            family_name(row.format));
        }
        if (e->width > 0) { /* the dequantizing gather's own rules for the table, which hold by now */
            clg_gather_quantized_plan g;
            const clg_status st = clg_embedding_bag_table_quant_plan(e, &g);
            if (st != CLG_SUCCESS) return st;
        }
    }
    return CLG_SUCCESS;
}

/* Mode, then the tables in order, then their types together; the tables' byte extent, total and widest
 * width into p. */
static clg_status check_tables(const clg_embedding_bag_tables_desc *desc, clg_embedding_bag_tables_plan *p)
{
    const int mode = (int)desc->mode;
    if (mode < 0 || mode >= (int)CLG_BAG_MODE_COUNT)
        return clg_fail(CLG_ERR_INVALID_MODE, "mode = %d is not sum, mean or max", mode);
    if (desc->num_tables < 1)
        return clg_fail(CLG_ERR_INVALID_DIMENSION, "num_tables = %d: the call needs at least one table",
                        (int)desc->num_tables);
    if (!desc->tables)
        return clg_fail(CLG_ERR_NULL_ARGUMENT, "tables is NULL (num_tables = %d)", (int)desc->num_tables);
    for (int32_t t = 0; t < desc->num_tables; ++t) {
        uint64_t end = 0;
        const clg_status st = check_table(desc->tables, t, &end);
        if (st != CLG_SUCCESS) return st;
        const uint64_t D = (uint64_t)desc->tables[t].width;
        if (D > UINT64_MAX - p->total_D)
            return clg_fail(CLG_ERR_SIZE_OVERFLOW, "the sum of the widths overflows 64 bits");
        p->total_D += D;
        p->max_D = clg_max_u64(p->max_D, D);
        p->bags.table_bytes = clg_max_u64(p->bags.table_bytes, end);
    }
    return check_types(desc, p);
}

/* Indices, offsets and weights: types, presence, ranks, extents. */
static clg_status check_tensors(const clg_embedding_bag_tables_desc *desc, const clg_embedding_bag_tables_plan *p)
{
    const clg_dtype type = p->converts ? CLG_F32 : desc->tables[0].type;
    if (!clg_dtype_is_integer(desc->indices.type))
        return clg_fail(CLG_ERR_INVALID_INDEX_TYPE, "indices type %s is not an integer type",
                        clg_dtype_name(desc->indices.type));
    if (!present(&desc->offsets)) return clg_fail(CLG_ERR_INPUT_MISSING, "offsets is absent: the call needs it");
    if (!clg_dtype_is_integer(desc->offsets.type))
        return clg_fail(CLG_ERR_INVALID_INDEX_TYPE, "offsets type %s is not an integer type",
                        clg_dtype_name(desc->offsets.type));
    if (present(&desc->per_sample_weights)) {
        if (desc->mode != CLG_BAG_SUM)
            return clg_fail(CLG_ERR_INVALID_MODE, "per_sample_weights are given with mode %s: they need sum",
                            clg_bag_mode_name(desc->mode));
        if (desc->per_sample_weights.type != type)
            return clg_fail(CLG_ERR_TYPE_MISMATCH, "per_sample_weights type %s differs from the %s%s",
                            clg_dtype_name(desc->per_sample_weights.type), p->converts ? "" : "tables' ",
                            p->converts ? "f32 of a call that converts its tables to f32" : clg_dtype_name(type));
    }
    const clg_tensor_desc *const t[] = {&desc->indices, &desc->offsets, &desc->per_sample_weights};
    const char *const names[] = {"indices", "offsets", "per_sample_weights"};
    for (int k = 0; k < 3; ++k) {
        if (k == 2 && !present(t[k])) break;
        if (t[k]->rank != 1)
            return clg_fail(CLG_ERR_INVALID_RANK, "%s rank %d: it must be 1", names[k], (int)t[k]->rank);
        const clg_status st = clg_check_tensor_shape(t[k], names[k], 1);
        if (st != CLG_SUCCESS) return st;
    }
    const int64_t count = desc->offsets.shape[0], T = desc->num_tables, last = desc->include_last_offset ? 1 : 0;
    if (count < last || (count - last) % T != 0)
        return clg_fail(CLG_ERR_SHAPE_MISMATCH, "offsets.shape[0] = %" PRId64 " is not num_tables (%" PRId64 ") * B%s",
                        count, T, last ? " + 1 (include_last_offset)" : "");
    if (present(&desc->per_sample_weights) && desc->per_sample_weights.shape[0] != desc->indices.shape[0])
        return clg_fail(CLG_ERR_SHAPE_MISMATCH,
                        "per_sample_weights.shape[0] = %" PRId64 " differs from indices.shape[0] = %" PRId64,
                        desc->per_sample_weights.shape[0], desc->indices.shape[0]);
    return CLG_SUCCESS;
}

clg_status clg_embedding_bag_tables_plan_make(const clg_embedding_bag_tables_desc *desc,
                                              clg_embedding_bag_tables_plan *p)
{
    if (!desc) return clg_fail(CLG_ERR_NULL_ARGUMENT, "desc is NULL");
    memset(p, 0, sizeof *p);
    clg_status st = check_tables(desc, p);
    if (st == CLG_SUCCESS) st = check_tensors(desc, p);
    if (st != CLG_SUCCESS) return st;
    clg_embedding_bag_plan *b = &p->bags;
    p->tables = desc->tables;
    p->T = (uint64_t)desc->num_tables;
    p->last_offset_ends = desc->include_last_offset != 0;
    b->preset = CLG_TORCH_EMBEDDING_BAG; /* its offsets form's rules: offsets[0] == 0, no default row */
    b->form = CLG_BAG_OFFSETS;
    b->mode = desc->mode;
    b->table_type = p->converts ? CLG_F32 : desc->tables[0].type; /* the values reduced, and the weights */
    b->index_type = desc->indices.type;
    b->bags_type = desc->offsets.type;
    b->table_size = clg_dtype_size(b->table_type);
    b->index_size = clg_dtype_size(b->index_type);
    b->bags_size = clg_dtype_size(b->bags_type);
    b->has_weights = present(&desc->per_sample_weights);
    b->offsets_start_at_zero = true;
    b->offsets_end_at_count = p->last_offset_ends;
    b->bags_name = "offsets";
    b->L = (uint64_t)desc->indices.shape[0];
    b->bags_count = (uint64_t)desc->offsets.shape[0];
    b->B = b->bags_count - (p->last_offset_ends ? 1 : 0);
    p->batch = b->B / p->T;
    b->default_row = b->padding_row = CLG_BAG_NO_ROW;
    const clg_size out =
        clg_size_mul(clg_size_mul(clg_size_of(p->batch), clg_size_of(p->total_D)), clg_size_of(p->out_size));
    if (out.overflow) return clg_fail(CLG_ERR_SIZE_OVERFLOW, "output size overflows 64 bits");
    if (b->L > UINT64_MAX / 8) return clg_fail(CLG_ERR_SIZE_OVERFLOW, "indices size overflows 64 bits");
    b->out_bytes = out.value;
    b->out_elems = p->batch * p->total_D;
    b->index_bytes = b->L * b->index_size;
    if (b->bags_count > UINT64_MAX / 8) return clg_fail(CLG_ERR_SIZE_OVERFLOW, "offsets size overflows 64 bits");
    b->bags_bytes = b->bags_count * b->bags_size;
    b->weights_bytes = b->has_weights ? b->L * b->table_size : 0;
    b->out_rank = 2;
    p->out_shape[0] = b->out_shape[0] = (int64_t)p->batch;
    p->out_shape[1] = b->out_shape[1] = (int64_t)p->total_D;
    return CLG_SUCCESS;
}

clg_embedding_bag_plan clg_embedding_bag_table_view(const clg_embedding_bag_tables_plan *p, uint64_t t)
{
    clg_embedding_bag_plan view = p->bags;
    view.N = (uint64_t)p->tables[t].rows;
    view.D = (uint64_t)p->tables[t].width;
    return view;
}
