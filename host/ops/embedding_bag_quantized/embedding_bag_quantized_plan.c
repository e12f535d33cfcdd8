#include "ops/embedding_bag_quantized/embedding_bag_quantized_plan.h"

#include "core/status.h"

#include <string.h>

/* The table as the dequantizing gather reads it: one index along axis 0 (its value unused), f32 out. */
static clg_gather_quantized_desc table_desc(const clg_embedding_bag_quantized_desc *desc)
{
    clg_gather_quantized_desc g;
    memset(&g, 0, sizeof g);
    g.layout = desc->layout;
    g.data = desc->data;
    g.indices.type = CLG_I64;
    g.indices.rank = 1;
    g.indices.shape[0] = 1;
    g.scales = desc->scales;
    g.zero_points = desc->zero_points;
    g.bits = desc->bits;
    g.block_size = desc->block_size;
    g.gather_axis = 0;
    g.quantize_axis = desc->data.rank - 1; /* ONNX Runtime's blocks run along a row; ignored elsewhere */
    g.output_type = CLG_F32;
    g.oob_policy = CLG_OOB_PRESET;
    return g;
}

static clg_status check_own_fields(const clg_embedding_bag_quantized_desc *desc, clg_dtype *out_type)
{
    if (desc->bag.table.type != CLG_DTYPE_INVALID)
        return clg_fail(CLG_ERR_INPUT_NOT_ALLOWED,
                        "bag.table is given (type %s): a quantized table is given by layout, data, scales and "
                        "zero_points; leave bag.table absent (type 0)",
                        clg_dtype_name(desc->bag.table.type));
    const clg_dtype t = desc->output_type == CLG_DTYPE_INVALID ? CLG_F32 : desc->output_type;
    if (t != CLG_F32 && t != CLG_F16 && t != CLG_BF16)
        return clg_fail(CLG_ERR_INVALID_DTYPE, "output_type %s is not f32, f16 or bf16", clg_dtype_name(t));
    const clg_tensor_desc *w = &desc->bag.per_sample_weights;
    if (w->type != CLG_DTYPE_INVALID && w->type != CLG_F32)
        return clg_fail(CLG_ERR_TYPE_MISMATCH, "per_sample_weights type %s: a quantized table's weights are f32",
                        clg_dtype_name(w->type));
    *out_type = t;
    return CLG_SUCCESS;
}

clg_status clg_embedding_bag_quantized_plan_make(const clg_embedding_bag_quantized_desc *desc,
                                                 clg_embedding_bag_quantized_plan *p)
{
    if (!desc) return clg_fail(CLG_ERR_NULL_ARGUMENT, "desc is NULL");
    memset(p, 0, sizeof *p);
    clg_status st = check_own_fields(desc, &p->out_type);
    if (st != CLG_SUCCESS) return st;
    const clg_gather_quantized_desc g = table_desc(desc);
    st = clg_gather_quantized_plan_make(&g, &p->table);
    if (st != CLG_SUCCESS) return st;

    /* EmbeddingBag over the f32 table [N, logical shape[1:]] */
    clg_embedding_bag_desc bag = desc->bag;
    bag.table.type = CLG_F32;
    bag.table.rank = p->table.out_rank;
    memcpy(bag.table.shape, p->table.out_shape, sizeof bag.table.shape);
    bag.table.shape[0] = (int64_t)p->table.A;
    st = clg_embedding_bag_plan_make(&bag, &p->bag);
    if (st != CLG_SUCCESS) return st;
    p->out_size = clg_dtype_size(p->out_type);
    p->out_bytes = p->bag.out_elems * p->out_size; /* no more than the f32 output's bytes */
    return CLG_SUCCESS;
}
