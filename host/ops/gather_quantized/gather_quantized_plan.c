#include "ops/gather_quantized/gather_quantized_plan.h"

#include "core/size_math.h"
#include "core/status.h"
#include "ops/gather_quantized/gather_quantized_layout_rules.h"

#include <inttypes.h>
#include <string.h>

static clg_status check_shape(const char *name, int32_t rank, const int64_t *shape, int32_t min_rank)
{
    if (rank < min_rank || rank > CLG_MAX_RANK)
        return clg_fail(CLG_ERR_INVALID_RANK, "%s rank %d is outside [%d, %d]", name, (int)rank, (int)min_rank,
                        CLG_MAX_RANK);
    for (int32_t d = 0; d < rank; ++d)
        if (shape[d] < 0)
            return clg_fail(CLG_ERR_INVALID_DIMENSION, "%s.shape[%d] = %" PRId64 " is negative", name, (int)d,
                            shape[d]);
    return CLG_SUCCESS;
}

static clg_status check_shapes(const clg_gather_quantized_desc *desc, const clg_quant_view *v)
{
    const int ggml = v->ggml != CLG_GGML_NONE;
    clg_status st = check_shape("data", desc->data.rank, desc->data.shape, ggml ? 2 : 1);
    if (st == CLG_SUCCESS) st = check_shape("indices", desc->indices.rank, desc->indices.shape, 0);
    if (st == CLG_SUCCESS && v->has_scales) st = check_shape("scales", desc->scales.rank, desc->scales.shape, 0);
    if (st == CLG_SUCCESS && v->has_zero_points)
        st = check_shape("zero_points", desc->zero_points.rank, desc->zero_points.shape, 0);
    return st;
}

/* The units of a slab and where its scales lie (gather_quantized_plan.h). */
static void decompose(const clg_quant_view *v, clg_gather_quantized_plan *p)
{
    const int64_t *L = v->logical_shape;
    const int32_t g = v->gather_axis, q = v->quantize_axis, r = v->rank;
    p->Qd = (uint64_t)L[q];
    p->QN = clg_size_product(L, q + 1, r).value;
    p->bs = v->block_size;
    p->nb = p->Qd / p->bs + (p->Qd % p->bs != 0);
    if (q > g) {
        p->placement = CLG_SCALES_IN_SLAB;
        p->P = clg_size_product(L, g + 1, q).value;
        p->U = p->P * p->nb;
    } else {
        p->placement = q < g ? CLG_SCALES_BEFORE : CLG_SCALES_ALONG;
        p->P = 1;
        p->U = 1;
        p->W = clg_size_product(L, q + 1, g).value;
    }
}

static clg_status overflow(const char *what) { return clg_fail(CLG_ERR_SIZE_OVERFLOW, "%s overflows 64 bits", what); }

static clg_status compute_sizes(const clg_gather_quantized_desc *desc, const clg_quant_view *v,
                                clg_gather_quantized_plan *p)
{
    const int64_t *L = v->logical_shape;
    const int32_t g = v->gather_axis, r = v->rank;
    const clg_size values = clg_size_product(L, 0, r);
    const clg_size stored = clg_size_product(desc->data.shape, 0, desc->data.rank);
    const clg_size index_elems = clg_size_product(desc->indices.shape, 0, desc->indices.rank);
    const clg_size index_bytes = clg_size_mul(index_elems, clg_size_of(p->index_size));
    const clg_size scale_elems =
        v->has_scales ? clg_size_product(desc->scales.shape, 0, desc->scales.rank) : clg_size_of(0);
    const clg_size scale_bytes = clg_size_mul(scale_elems, clg_size_of(p->scale_size));
    const clg_size zp_elems =
        v->has_zero_points ? clg_size_product(desc->zero_points.shape, 0, desc->zero_points.rank) : clg_size_of(0);
    const clg_size M = clg_size_product(L, 0, g), I = clg_size_product(L, g + 1, r);
    const clg_size out_elems = clg_size_mul(clg_size_mul(M, index_elems), I);
    const clg_size out_bytes = clg_size_mul(out_elems, clg_size_of(p->out_size));
    if (values.overflow || stored.overflow) return overflow("data size (values)");
    if (index_bytes.overflow) return overflow("indices size (elements x bytes)");
    if (scale_bytes.overflow) return overflow("scales size (elements x bytes)");
    if (zp_elems.overflow) return overflow("zero_points size");
    if (out_bytes.overflow) return overflow("output size (elements x bytes)");
    p->data_values = values.value;
    /* 4-bit tensors pack two values a byte; u8 data (ggml rows, u8 with bits 4) is counted in bytes */
    p->data_bytes = clg_quant_packed_bytes(desc->data.type, stored.value);
    p->index_elems = index_elems.value;
    p->index_bytes = index_bytes.value;
    p->scale_elems = scale_elems.value;
    p->scale_bytes = scale_bytes.value;
    p->zp_bytes = v->has_zero_points ? clg_quant_packed_bytes(desc->zero_points.type, zp_elems.value) : 0;
    p->out_elems = out_elems.value;
    p->out_bytes = out_bytes.value;
    /* the factors of a non-empty output cannot have overflowed; those of an empty one are never used */
    p->M = M.value;
    p->A = (uint64_t)L[g];
    p->N = index_elems.value;
    p->I = I.value;
    return CLG_SUCCESS;
}

clg_status clg_gather_quantized_plan_make(const clg_gather_quantized_desc *desc, clg_gather_quantized_plan *p)
{
    if (!desc) return clg_fail(CLG_ERR_NULL_ARGUMENT, "desc is NULL");
    memset(p, 0, sizeof *p);
    clg_quant_view v;
    clg_status st = clg_quant_check_types(desc, &v);
    if (st == CLG_SUCCESS) st = check_shapes(desc, &v);
    if (st == CLG_SUCCESS) st = clg_quant_resolve_shapes(desc, &v);
    if (st != CLG_SUCCESS) return st;

    p->layout = desc->layout;
    p->value_type = v.value_type;
    p->value_bits = v.value_bits;
    p->ggml = v.ggml;
    /* an FBGEMM row is one block, data's last extent in bytes */
    p->ggml_block_bytes =
        clg_ggml_is_fbgemm(v.ggml) ? (size_t)desc->data.shape[desc->data.rank - 1] : clg_ggml_block_bytes(v.ggml);
    p->ggml_block_values = v.ggml == CLG_GGML_NONE ? 0 : v.block_size;
    p->scale_type = v.scale_type;
    p->scale_size = v.has_scales ? clg_dtype_size(v.scale_type) : 0;
    p->out_type = v.out_type;
    p->out_size = clg_dtype_size(v.out_type);
    p->index_type = desc->indices.type;
    p->index_size = clg_dtype_size(desc->indices.type);
    p->policy = v.policy;
    p->gather_axis = v.gather_axis;
    p->quantize_axis = v.quantize_axis;
    p->zp_mode = v.zp_mode;
    p->zp_constant = v.zp_constant;
    st = compute_sizes(desc, &v, p);
    if (st != CLG_SUCCESS) return st;
    if (p->out_elems) decompose(&v, p);
    p->zp_row_bytes = p->zp_mode == CLG_ZP_NIBBLE_ROWS ? p->nb / 2 + (p->nb & 1)
                      : p->zp_mode == CLG_ZP_2BIT_ROWS ? p->nb / 4 + (p->nb % 4 != 0)
                                                       : 0;

    int32_t r = 0;
    for (int32_t d = 0; d < v.gather_axis; ++d) p->out_shape[r++] = v.logical_shape[d];
    for (int32_t d = 0; d < desc->indices.rank; ++d) p->out_shape[r++] = desc->indices.shape[d];
    for (int32_t d = v.gather_axis + 1; d < v.rank; ++d) p->out_shape[r++] = v.logical_shape[d];
    p->out_rank = r;
    p->bound = (clg_index_bound){.index_type = p->index_type,
                                 .index_size = p->index_size,
                                 .count = p->index_elems,
                                 .A = p->A,
                                 .axis = p->gather_axis,
                                 .indices_rank = desc->indices.rank};
    memcpy(p->bound.indices_shape, desc->indices.shape, sizeof p->bound.indices_shape);
    return CLG_SUCCESS;
}

clg_status clg_gather_quantized_output_shape(const clg_gather_quantized_desc *desc, int32_t *out_rank,
                                             int64_t out_shape[CLG_MAX_OUTPUT_RANK], clg_dtype *out_type)
{
    clg_clear_error();
    if (!out_rank || !out_shape) return clg_fail(CLG_ERR_NULL_ARGUMENT, "out_rank or out_shape is NULL");
    clg_gather_quantized_plan plan;
    clg_status st = clg_gather_quantized_plan_make(desc, &plan);
    if (st != CLG_SUCCESS) return st;
    *out_rank = plan.out_rank;
    memcpy(out_shape, plan.out_shape, sizeof plan.out_shape);
    if (out_type) *out_type = plan.out_type;
    return CLG_SUCCESS;
}

clg_status clg_gather_quantized_sizes(const clg_gather_quantized_desc *desc, uint64_t *data_bytes,
                                      uint64_t *indices_bytes, uint64_t *scales_bytes, uint64_t *zero_points_bytes,
                                      uint64_t *output_bytes)
{
    clg_clear_error();
    clg_gather_quantized_plan plan;
    clg_status st = clg_gather_quantized_plan_make(desc, &plan);
    if (st != CLG_SUCCESS) return st;
    if (data_bytes) *data_bytes = plan.data_bytes;
    if (indices_bytes) *indices_bytes = plan.index_bytes;
    if (scales_bytes) *scales_bytes = plan.scale_bytes;
    if (zero_points_bytes) *zero_points_bytes = plan.zp_bytes;
    if (output_bytes) *output_bytes = plan.out_bytes;
    return CLG_SUCCESS;
}
