#include "ops/embedding_bag/embedding_bag_plan.h"

#include "core/index_value.h"
#include "core/plan_checks.h"
#include "core/status.h"
#include "ops/embedding_bag/embedding_bag_presets.h"

#include <inttypes.h>
#include <string.h>

static bool is_float_table(clg_dtype t) { return t == CLG_F32 || t == CLG_F16 || t == CLG_BF16 || t == CLG_F64; }
static bool present(const clg_tensor_desc *t) { return t->type != CLG_DTYPE_INVALID; }

/* Preset, bag form and mode, in that order. */
static clg_status check_choices(const clg_embedding_bag_desc *desc, clg_embedding_bag_rules *rules)
{
    if ((int)desc->preset <= 0 || (int)desc->preset >= (int)CLG_EMBEDDING_BAG_PRESET_COUNT)
        return clg_fail(CLG_ERR_INVALID_PRESET, "preset = %d is not a clg_embedding_bag_preset", (int)desc->preset);
    *rules = clg_embedding_bag_rules_of(desc->preset);
    const char *preset = clg_embedding_bag_preset_name(desc->preset);
    const int form = (int)desc->bag_form, mode = (int)desc->mode;
    if (form <= 0 || form >= (int)CLG_BAG_FORM_COUNT || !(rules->forms & (1u << form)))
        return clg_fail(CLG_ERR_INVALID_BAG_FORM, "bag_form = %d: preset %s takes %s", form, preset, rules->form_names);
    if (mode < 0 || mode >= (int)CLG_BAG_MODE_COUNT || !(rules->modes & (1u << mode)))
        return clg_fail(CLG_ERR_INVALID_MODE, "mode = %d (%s): preset %s allows %s", mode,
                        clg_bag_mode_name(desc->mode), preset, rules->mode_names);
    return CLG_SUCCESS;
}

/* An optional tensor the form needs or refuses. */
static clg_status check_presence(const clg_tensor_desc *t, const char *name, bool needed, const char *form)
{
    if (needed && !present(t)) return clg_fail(CLG_ERR_INPUT_MISSING, "%s is absent: the %s form needs it", name, form);
    if (!needed && present(t))
        return clg_fail(CLG_ERR_INPUT_NOT_ALLOWED, "%s is given (type %s): the %s form takes none", name,
                        clg_dtype_name(t->type), form);
    if (needed && !clg_dtype_is_integer(t->type))
        return clg_fail(CLG_ERR_INVALID_INDEX_TYPE, "%s type %s is not an integer type", name, clg_dtype_name(t->type));
    return CLG_SUCCESS;
}

/* Element types, then which optional tensors are given. */
static clg_status check_types(const clg_embedding_bag_desc *desc)
{
    if (!is_float_table(desc->table.type))
        return clg_fail(CLG_ERR_INVALID_DTYPE, "table type %s is not f32, f16, bf16 or f64",
                        clg_dtype_name(desc->table.type));
    if (!clg_dtype_is_integer(desc->indices.type))
        return clg_fail(CLG_ERR_INVALID_INDEX_TYPE, "indices type %s is not an integer type",
                        clg_dtype_name(desc->indices.type));
    const char *form = desc->bag_form == CLG_BAG_OFFSETS  ? "offsets"
                       : desc->bag_form == CLG_BAG_PACKED ? "packed"
                                                          : "segments";
    clg_status st = check_presence(&desc->offsets, "offsets", desc->bag_form == CLG_BAG_OFFSETS, form);
    if (st == CLG_SUCCESS)
        st = check_presence(&desc->segment_ids, "segment_ids", desc->bag_form == CLG_BAG_SEGMENTS, form);
    if (st != CLG_SUCCESS || !present(&desc->per_sample_weights)) return st;
    if (desc->mode != CLG_BAG_SUM)
        return clg_fail(CLG_ERR_INVALID_MODE, "per_sample_weights are given with mode %s: they need sum",
                        clg_bag_mode_name(desc->mode));
    if (desc->per_sample_weights.type != desc->table.type)
        return clg_fail(CLG_ERR_TYPE_MISMATCH, "per_sample_weights type %s differs from the table's %s",
                        clg_dtype_name(desc->per_sample_weights.type), clg_dtype_name(desc->table.type));
    return CLG_SUCCESS;
}

/* The attributes only some presets or forms have. */
static clg_status check_attributes(const clg_embedding_bag_desc *desc, const clg_embedding_bag_rules *rules)
{
    const char *preset = clg_embedding_bag_preset_name(desc->preset);
    if (desc->include_last_offset && !(rules->torch && desc->bag_form == CLG_BAG_OFFSETS))
        return clg_fail(CLG_ERR_INPUT_NOT_ALLOWED,
                        "include_last_offset = %d: only torch-embedding-bag's offsets form has it (preset %s)",
                        (int)desc->include_last_offset, preset);
    if (desc->has_default_index && rules->torch)
        return clg_fail(CLG_ERR_INPUT_NOT_ALLOWED, "default_index is given: preset %s has none (empty bags are zeros)",
                        preset);
    if (desc->has_padding_idx && !rules->torch)
        return clg_fail(CLG_ERR_INPUT_NOT_ALLOWED, "padding_idx is given: preset %s has none", preset);
    if (desc->bag_form != CLG_BAG_SEGMENTS && desc->num_segments != 0)
        return clg_fail(CLG_ERR_INPUT_NOT_ALLOWED, "num_segments = %" PRId64 ": only the segments form has it",
                        desc->num_segments);
    if (desc->num_segments < 0)
        return clg_fail(CLG_ERR_INVALID_DIMENSION, "num_segments = %" PRId64 " is negative", desc->num_segments);
    return CLG_SUCCESS;
}

static clg_status check_rank(const clg_tensor_desc *t, const char *name, int32_t rank)
{
    if (t->rank != rank)
        return clg_fail(CLG_ERR_INVALID_RANK, "%s rank %d: this form needs rank %d", name, (int)t->rank, (int)rank);
    return clg_check_tensor_shape(t, name, rank);
}

static bool same_shape(const clg_tensor_desc *a, const clg_tensor_desc *b)
{
    if (a->rank != b->rank) return false;
    for (int32_t d = 0; d < a->rank; ++d)
        if (a->shape[d] != b->shape[d]) return false;
    return true;
}

/* Ranks and extents of every tensor. */
static clg_status check_shapes(const clg_embedding_bag_desc *desc)
{
    const bool packed = desc->bag_form == CLG_BAG_PACKED;
    clg_status st = clg_check_tensor_shape(&desc->table, "table", 1);
    if (st == CLG_SUCCESS) st = check_rank(&desc->indices, "indices", packed ? 2 : 1);
    if (st == CLG_SUCCESS && desc->bag_form == CLG_BAG_OFFSETS) st = check_rank(&desc->offsets, "offsets", 1);
    if (st == CLG_SUCCESS && desc->bag_form == CLG_BAG_SEGMENTS) st = check_rank(&desc->segment_ids, "segment_ids", 1);
    if (st != CLG_SUCCESS) return st;
    if (desc->bag_form == CLG_BAG_SEGMENTS && desc->segment_ids.shape[0] != desc->indices.shape[0])
        return clg_fail(CLG_ERR_SHAPE_MISMATCH,
                        "segment_ids.shape[0] = %" PRId64 " differs from indices.shape[0] = %" PRId64,
                        desc->segment_ids.shape[0], desc->indices.shape[0]);
    if (desc->include_last_offset && desc->offsets.shape[0] < 1)
        return clg_fail(CLG_ERR_SHAPE_MISMATCH,
                        "offsets.shape[0] = 0: include_last_offset needs at least the offset that ends the last bag");
    if (present(&desc->per_sample_weights) && !same_shape(&desc->per_sample_weights, &desc->indices))
        return clg_fail(CLG_ERR_SHAPE_MISMATCH, "per_sample_weights (rank %d) must have the indices' shape",
                        (int)desc->per_sample_weights.rank);
    return CLG_SUCCESS;
}

/* default_index and padding_idx against the table's N rows. */
static clg_status resolve_rows(const clg_embedding_bag_desc *desc, clg_embedding_bag_plan *p)
{
    const int64_t N = (int64_t)p->N;
    p->default_row = p->padding_row = CLG_BAG_NO_ROW;
    if (desc->has_default_index && desc->default_index >= 0) {
        if (desc->default_index >= N)
            return clg_fail(CLG_ERR_INDEX_OUT_OF_RANGE,
                            "default_index = %" PRId64 " is outside [0, %" PRId64 ") (table.shape[0])",
                            desc->default_index, N);
        p->default_row = desc->default_index;
    }
    if (desc->has_padding_idx) {
        const int64_t k = desc->padding_idx;
        if (k < -N || k >= N)
            return clg_fail(CLG_ERR_INDEX_OUT_OF_RANGE,
                            "padding_idx = %" PRId64 " is outside [-%" PRId64 ", %" PRId64 ") (table.shape[0])", k, N,
                            N);
        p->padding_row = k < 0 ? k + N : k;
    }
    return CLG_SUCCESS;
}

/* Byte sizes of the bags tensor and the weights, after those of table, indices and output. */
static clg_status extra_sizes(const clg_embedding_bag_desc *desc, clg_embedding_bag_plan *p)
{
    const clg_size bags = clg_size_mul(clg_size_of(p->bags_count), clg_size_of(p->bags_size));
    if (bags.overflow) return clg_fail(CLG_ERR_SIZE_OVERFLOW, "%s size overflows 64 bits", p->bags_name);
    p->bags_bytes = bags.value;
    p->weights_bytes = p->has_weights ? p->L * p->table_size : 0; /* no larger than the indices' bytes x 8 */
    if (p->has_weights && p->L > UINT64_MAX / p->table_size)
        return clg_fail(CLG_ERR_SIZE_OVERFLOW, "per_sample_weights size overflows 64 bits");
    (void)desc;
    return CLG_SUCCESS;
}

clg_status clg_embedding_bag_plan_make(const clg_embedding_bag_desc *desc, clg_embedding_bag_plan *p)
{
    if (!desc) return clg_fail(CLG_ERR_NULL_ARGUMENT, "desc is NULL");
    memset(p, 0, sizeof *p);
    clg_embedding_bag_rules rules = {0};
    clg_status st = check_choices(desc, &rules);
    if (st == CLG_SUCCESS) st = check_types(desc);
    if (st == CLG_SUCCESS) st = check_attributes(desc, &rules);
    if (st == CLG_SUCCESS) st = check_shapes(desc);
    if (st != CLG_SUCCESS) return st;

    p->preset = desc->preset;
    p->form = desc->bag_form;
    p->mode = desc->mode;
    p->table_type = desc->table.type;
    p->index_type = desc->indices.type;
    p->table_size = clg_dtype_size(p->table_type);
    p->index_size = clg_dtype_size(p->index_type);
    p->has_weights = present(&desc->per_sample_weights);
    p->offsets_start_at_zero = rules.torch;
    const int64_t *ts = desc->table.shape, *is = desc->indices.shape;
    p->N = (uint64_t)ts[0];
    const clg_size D = clg_size_product(ts, 1, desc->table.rank);
    const clg_size L = clg_size_product(is, 0, desc->indices.rank);
    clg_size B;
    if (p->form == CLG_BAG_PACKED) {
        B = clg_size_of((uint64_t)is[0]);
        p->K = (uint64_t)is[1];
        p->bags_name = "";
    } else {
        const clg_tensor_desc *bags = p->form == CLG_BAG_OFFSETS ? &desc->offsets : &desc->segment_ids;
        p->bags_type = bags->type;
        p->bags_size = clg_dtype_size(bags->type);
        p->bags_count = (uint64_t)bags->shape[0];
        p->bags_name = p->form == CLG_BAG_OFFSETS ? "offsets" : "segment_ids";
        B = clg_size_of(p->form == CLG_BAG_SEGMENTS ? (uint64_t)desc->num_segments
                                                    : p->bags_count - (desc->include_last_offset ? 1 : 0));
    }
    clg_byte_sizes sizes;
    st = clg_check_byte_sizes(clg_size_product(ts, 0, desc->table.rank), L, clg_size_mul(B, D), p->table_size,
                              p->index_size, &sizes);
    if (st != CLG_SUCCESS) return st;
    p->D = D.value;
    p->L = L.value;
    p->B = B.value;
    p->table_bytes = sizes.data_bytes;
    p->index_bytes = sizes.index_bytes;
    p->out_bytes = sizes.out_bytes;
    p->out_elems = sizes.out_elems;
    st = extra_sizes(desc, p);
    if (st == CLG_SUCCESS) st = resolve_rows(desc, p);
    if (st != CLG_SUCCESS) return st;
    p->out_rank = desc->table.rank;
    p->out_shape[0] = (int64_t)p->B;
    for (int32_t d = 1; d < desc->table.rank; ++d) p->out_shape[d] = ts[d];
    return CLG_SUCCESS;
}
