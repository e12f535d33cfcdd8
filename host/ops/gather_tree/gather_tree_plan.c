#include "ops/gather_tree/gather_tree_plan.h"

#include "core/size_math.h"
#include "core/status.h"

#include <stdbool.h>

#include <inttypes.h>
#include <string.h>

/* The element types GatherTree reads as numbers. bool, bf16 and the complex types have no
 * meaning as beam indices or lengths here. */
static bool tree_type_allowed(clg_dtype t)
{
    switch (t) {
    case CLG_I8:
    case CLG_I16:
    case CLG_I32:
    case CLG_I64:
    case CLG_U8:
    case CLG_U16:
    case CLG_U32:
    case CLG_U64:
    case CLG_F16:
    case CLG_F32:
    case CLG_F64: return true;
    default: return false;
    }
}

static clg_status check_types(const clg_gather_tree_desc *desc)
{
    const clg_tensor_desc *inputs[] = {&desc->step_ids, &desc->parent_ids, &desc->max_seq_len, &desc->end_token};
    const char *names[] = {"step_ids", "parent_ids", "max_seq_len", "end_token"};
    for (int i = 0; i < 4; ++i)
        if (clg_dtype_size(inputs[i]->type) == 0)
            return clg_fail(CLG_ERR_INVALID_DTYPE, "%s type = %d is not a clg_dtype", names[i], (int)inputs[i]->type);
    if (!tree_type_allowed(desc->step_ids.type))
        return clg_fail(CLG_ERR_INVALID_DTYPE,
                        "step_ids type %s is not a GatherTree type (i8..i64, u8..u64, f16, f32, f64)",
                        clg_dtype_name(desc->step_ids.type));
    for (int i = 1; i < 4; ++i)
        if (inputs[i]->type != desc->step_ids.type)
            return clg_fail(CLG_ERR_TYPE_MISMATCH, "%s type %s differs from step_ids type %s", names[i],
                            clg_dtype_name(inputs[i]->type), clg_dtype_name(desc->step_ids.type));
    return CLG_SUCCESS;
}

static clg_status check_rank_and_dims(const clg_tensor_desc *t, const char *name, int32_t rank)
{
    if (t->rank != rank) return clg_fail(CLG_ERR_INVALID_RANK, "%s rank %d must be %d", name, (int)t->rank, (int)rank);
    for (int32_t d = 0; d < rank; ++d)
        if (t->shape[d] < 0)
            return clg_fail(CLG_ERR_INVALID_DIMENSION, "%s.shape[%d] = %" PRId64 " is negative", name, (int)d,
                            t->shape[d]);
    return CLG_SUCCESS;
}

static clg_status check_shapes(const clg_gather_tree_desc *desc)
{
    clg_status st = check_rank_and_dims(&desc->step_ids, "step_ids", 3);
    if (st == CLG_SUCCESS) st = check_rank_and_dims(&desc->parent_ids, "parent_ids", 3);
    if (st == CLG_SUCCESS) st = check_rank_and_dims(&desc->max_seq_len, "max_seq_len", 1);
    if (st == CLG_SUCCESS) st = check_rank_and_dims(&desc->end_token, "end_token", 0);
    if (st != CLG_SUCCESS) return st;
    const int64_t *s = desc->step_ids.shape, *p = desc->parent_ids.shape;
    for (int d = 0; d < 3; ++d)
        if (p[d] != s[d])
            return clg_fail(CLG_ERR_SHAPE_MISMATCH,
                            "parent_ids shape [%" PRId64 ", %" PRId64 ", %" PRId64
                            "] differs from step_ids shape [%" PRId64 ", %" PRId64 ", %" PRId64 "] (dimension %d)",
                            p[0], p[1], p[2], s[0], s[1], s[2], d);
    if (desc->max_seq_len.shape[0] != s[1])
        return clg_fail(CLG_ERR_SHAPE_MISMATCH, "max_seq_len length %" PRId64 " differs from BATCH_SIZE = %" PRId64,
                        desc->max_seq_len.shape[0], s[1]);
    return CLG_SUCCESS;
}

clg_status clg_gather_tree_plan_make(const clg_gather_tree_desc *desc, clg_gather_tree_plan *plan)
{
    if (!desc) return clg_fail(CLG_ERR_NULL_ARGUMENT, "desc is NULL");
    memset(plan, 0, sizeof *plan);
    clg_status st = check_types(desc);
    if (st == CLG_SUCCESS) st = check_shapes(desc);
    if (st != CLG_SUCCESS) return st;

    const int64_t *s = desc->step_ids.shape;
    const size_t es = clg_dtype_size(desc->step_ids.type);
    clg_size elems = clg_size_product(s, 0, 3);
    clg_size ids_bytes = clg_size_mul(elems, clg_size_of(es));
    clg_size seq_len_bytes = clg_size_mul(clg_size_of((uint64_t)s[1]), clg_size_of(es));
    if (ids_bytes.overflow)
        return clg_fail(CLG_ERR_SIZE_OVERFLOW,
                        "step_ids [%" PRId64 ", %" PRId64 ", %" PRId64 "] x %zu bytes overflows 64 bits", s[0], s[1],
                        s[2], es);
    if (seq_len_bytes.overflow)
        return clg_fail(CLG_ERR_SIZE_OVERFLOW, "max_seq_len [%" PRId64 "] x %zu bytes overflows 64 bits", s[1], es);

    plan->type = desc->step_ids.type;
    plan->elem_size = es;
    plan->T = (uint64_t)s[0];
    plan->B = (uint64_t)s[1];
    plan->W = (uint64_t)s[2];
    memcpy(plan->shape, s, sizeof plan->shape);
    plan->elems = elems.value;
    plan->ids_bytes = ids_bytes.value;
    plan->seq_len_bytes = seq_len_bytes.value;
    plan->end_token_bytes = es;
    return CLG_SUCCESS;
}

clg_status clg_gather_tree_sizes(const clg_gather_tree_desc *desc, uint64_t *output_bytes)
{
    clg_clear_error();
    clg_gather_tree_plan plan;
    clg_status st = clg_gather_tree_plan_make(desc, &plan);
    if (st != CLG_SUCCESS) return st;
    if (output_bytes) *output_bytes = plan.ids_bytes;
    return CLG_SUCCESS;
}
