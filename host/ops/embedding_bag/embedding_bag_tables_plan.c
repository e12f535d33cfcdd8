#include "ops/embedding_bag/embedding_bag_tables_plan.h"

#include "core/index_value.h"
#include "core/plan_checks.h"
#include "core/status.h"

#include <inttypes.h>
#include <string.h>

static bool is_float_table(clg_dtype t) { return t == CLG_F32 || t == CLG_F16 || t == CLG_BF16 || t == CLG_F64; }
static bool present(const clg_tensor_desc *t) { return t->type != CLG_DTYPE_INVALID; }

/* Table t: its layout, type (that of table 0), extents and placement; *end gets the byte after its last. */
static clg_status check_table(const clg_embedding_bag_table *tables, int32_t t, uint64_t *end)
{
    const clg_embedding_bag_table *e = &tables[t];
    if (e->quant_layout != 0)
        return clg_fail(CLG_ERR_INVALID_LAYOUT,
                        "tables[%d].quant_layout = %d: the table-batched call takes plain float tables only (0)",
                        (int)t, (int)e->quant_layout);
    if (!is_float_table(e->type))
        return clg_fail(CLG_ERR_INVALID_DTYPE, "tables[%d].type %s is not f32, f16, bf16 or f64", (int)t,
                        clg_dtype_name(e->type));
    if (e->type != tables[0].type)
        return clg_fail(CLG_ERR_TYPE_MISMATCH, "tables[%d].type %s differs from tables[0].type %s: one call, one type",
                        (int)t, clg_dtype_name(e->type), clg_dtype_name(tables[0].type));
    if (e->rows < 0 || e->width < 0)
        return clg_fail(CLG_ERR_INVALID_DIMENSION,
                        "tables[%d] has rows = %" PRId64 ", width = %" PRId64 ": both must be >= 0", (int)t, e->rows,
                        e->width);
    const size_t size = clg_dtype_size(e->type);
    if (e->byte_offset % size != 0)
        return clg_fail(CLG_ERR_MISALIGNED_OFFSET,
                        "tables[%d].byte_offset = %" PRIu64 " is not a multiple of the %s size (%zu)", (int)t,
                        e->byte_offset, clg_dtype_name(e->type), size);
    const clg_size bytes =
        clg_size_mul(clg_size_mul(clg_size_of((uint64_t)e->rows), clg_size_of((uint64_t)e->width)), clg_size_of(size));
    if (bytes.overflow || bytes.value > UINT64_MAX - e->byte_offset)
        return clg_fail(CLG_ERR_SIZE_OVERFLOW, "tables[%d] ends beyond 2^64 bytes", (int)t);
    *end = e->byte_offset + bytes.value;
    return CLG_SUCCESS;
}

/* Mode, then the tables in order; the tables' byte extent, total and widest width into p. */
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
    return CLG_SUCCESS;
}

/* Indices, offsets and weights: types, presence, ranks, extents. */
static clg_status check_tensors(const clg_embedding_bag_tables_desc *desc)
{
    const clg_dtype type = desc->tables[0].type;
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
            return clg_fail(CLG_ERR_TYPE_MISMATCH, "per_sample_weights type %s differs from the tables' %s",
                            clg_dtype_name(desc->per_sample_weights.type), clg_dtype_name(type));
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
    if (st == CLG_SUCCESS) st = check_tensors(desc);
    if (st != CLG_SUCCESS) return st;
    clg_embedding_bag_plan *b = &p->bags;
    p->tables = desc->tables;
    p->T = (uint64_t)desc->num_tables;
    p->last_offset_ends = desc->include_last_offset != 0;
    b->preset = CLG_TORCH_EMBEDDING_BAG; /* its offsets form's rules: offsets[0] == 0, no default row */
    b->form = CLG_BAG_OFFSETS;
    b->mode = desc->mode;
    b->table_type = desc->tables[0].type;
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
        clg_size_mul(clg_size_mul(clg_size_of(p->batch), clg_size_of(p->total_D)), clg_size_of(b->table_size));
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
