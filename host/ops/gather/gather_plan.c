#include "ops/gather/gather_plan.h"

#include "core/index_value.h"
#include "core/plan_checks.h"
#include "core/status.h"

#include <inttypes.h>
#include <string.h>

static bool preset_is_onnx(clg_preset p) { return p == CLG_ONNX_1 || p == CLG_ONNX_11 || p == CLG_ONNX_13; }
static bool preset_has_batch_dims(clg_preset p) { return p == CLG_OV_GATHER_7 || p == CLG_OV_GATHER_8; }

/* The axis before normalization: the ONNX attribute or the OpenVINO input tensor. */
static clg_status read_axis(const clg_gather_desc *desc, int64_t *axis)
{
    const clg_tensor_desc *t = &desc->axis_tensor;
    if (preset_is_onnx(desc->preset)) {
        if (t->type != CLG_DTYPE_INVALID || desc->axis_value != NULL)
            return clg_fail(CLG_ERR_INVALID_AXIS_TENSOR,
                            "axis_tensor is given (type %s) but preset %s takes the axis attribute",
                            clg_dtype_name(t->type), clg_preset_name(desc->preset));
        *axis = desc->axis;
        return CLG_SUCCESS;
    }
    if (desc->axis_value == NULL)
        return clg_fail(CLG_ERR_INVALID_AXIS_TENSOR, "axis_value is NULL: preset %s needs the axis input tensor",
                        clg_preset_name(desc->preset));
    if (!clg_dtype_is_integer(t->type))
        return clg_fail(CLG_ERR_INVALID_AXIS_TENSOR, "axis_tensor type %s is not an integer type",
                        clg_dtype_name(t->type));
    bool one_element = t->rank == 0 || (t->rank == 1 && t->shape[0] == 1);
    if (!one_element)
        return clg_fail(CLG_ERR_INVALID_AXIS_TENSOR,
                        "axis_tensor must be a scalar or a 1-D tensor of one element (rank %d, shape[0] = %" PRId64 ")",
                        (int)t->rank, t->rank > 0 ? t->shape[0] : (int64_t)0);
    clg_integer v = clg_read_integer(desc->axis_value, t->type, 0);
    if (v.is_unsigned && v.u > (uint64_t)INT64_MAX)
        return clg_fail(CLG_ERR_INVALID_AXIS, "axis = %" PRIu64 " is outside [-%d, %d]", v.u, (int)desc->data.rank,
                        (int)desc->data.rank - 1);
    *axis = v.is_unsigned ? (int64_t)v.u : v.s;
    return CLG_SUCCESS;
}

static clg_status check_types(const clg_gather_desc *desc)
{
    static const clg_dtype onnx_index_types[] = {CLG_I32, CLG_I64, CLG_DTYPE_INVALID};
    if ((int)desc->preset <= 0 || (int)desc->preset >= (int)CLG_PRESET_COUNT)
        return clg_fail(CLG_ERR_INVALID_PRESET, "preset = %d is not a clg_preset", (int)desc->preset);
    const char *preset = clg_preset_name(desc->preset);
    const bool onnx = preset_is_onnx(desc->preset);
    clg_status st = clg_check_data_type(desc->data.type, desc->preset != CLG_ONNX_1 && desc->preset != CLG_ONNX_11,
                                        "onnx-13", preset);
    if (st == CLG_SUCCESS)
        st = clg_check_index_type(desc->indices.type, onnx ? onnx_index_types : NULL, "i32 and i64", preset);
    return st == CLG_SUCCESS ? clg_check_policy(desc->oob_policy) : st;
}

static clg_status normalize_axes(const clg_gather_desc *desc, int32_t *axis_out, int32_t *batch_dims_out)
{
    const int64_t r = desc->data.rank, q = desc->indices.rank;
    int64_t axis = 0;
    clg_status st = read_axis(desc, &axis);
    if (st != CLG_SUCCESS) return st;
    if (axis < -r || axis > r - 1)
        return clg_fail(CLG_ERR_INVALID_AXIS,
                        "axis = %" PRId64 " is outside [%" PRId64 ", %" PRId64 "] for data rank %" PRId64, axis, -r,
                        r - 1, r);
    if (axis < 0) axis += r;

    int64_t b = desc->batch_dims;
    if (!preset_has_batch_dims(desc->preset)) {
        if (b != 0)
            return clg_fail(CLG_ERR_INVALID_BATCH_DIMS, "batch_dims = %" PRId64 ": preset %s has no batch_dims", b,
                            clg_preset_name(desc->preset));
    } else {
        if (b < -q || b > q)
            return clg_fail(CLG_ERR_INVALID_BATCH_DIMS,
                            "batch_dims = %" PRId64 " is outside [%" PRId64 ", %" PRId64 "] for indices rank %" PRId64,
                            b, -q, q, q);
        if (b < 0) b += q;
        if (b > axis)
            return clg_fail(CLG_ERR_INVALID_BATCH_DIMS,
                            "batch_dims = %" PRId64 " (normalized) is greater than axis = %" PRId64 " (normalized)", b,
                            axis);
    }
    st = clg_check_batch_shapes(&desc->data, &desc->indices, b);
    if (st != CLG_SUCCESS) return st;
    *axis_out = (int32_t)axis;
    *batch_dims_out = (int32_t)b;
    return CLG_SUCCESS;
}

static clg_status compute_sizes(const clg_gather_desc *desc, clg_gather_plan *p)
{
    const int64_t *ds = desc->data.shape, *is = desc->indices.shape;
    const int32_t a = p->axis, b = p->batch_dims;
    clg_size B = clg_size_product(ds, 0, b), O = clg_size_product(ds, b, a),
             N = clg_size_product(is, b, desc->indices.rank), I = clg_size_product(ds, a + 1, desc->data.rank);
    clg_status st = clg_check_byte_sizes(
        clg_size_product(ds, 0, desc->data.rank), clg_size_product(is, 0, desc->indices.rank),
        clg_size_mul(clg_size_mul(B, O), clg_size_mul(N, I)), p->io.elem_size, p->io.index_size, &p->io.size);
    if (st != CLG_SUCCESS) return st;
    /* Factors of a non-empty output cannot have overflowed; those of an empty one are never used. */
    p->B = B.value;
    p->O = O.value;
    p->A = (uint64_t)ds[a];
    p->N = N.value;
    p->I = I.value;
    return CLG_SUCCESS;
}

clg_status clg_gather_plan_make(const clg_gather_desc *desc, clg_gather_plan *p)
{
    if (!desc) return clg_fail(CLG_ERR_NULL_ARGUMENT, "desc is NULL");
    memset(p, 0, sizeof *p);
    clg_status st = check_types(desc);
    if (st == CLG_SUCCESS) st = clg_check_tensor_shape(&desc->data, "data", 1);
    if (st == CLG_SUCCESS) st = clg_check_tensor_shape(&desc->indices, "indices", 0);
    if (st == CLG_SUCCESS) st = normalize_axes(desc, &p->axis, &p->batch_dims);
    if (st != CLG_SUCCESS) return st;

    clg_gather_io_types(&p->io, desc->data.type, desc->indices.type, desc->oob_policy, preset_is_onnx(desc->preset));

    st = compute_sizes(desc, p);
    if (st != CLG_SUCCESS) return st;

    int32_t r = 0;
    for (int32_t d = 0; d < p->axis; ++d) p->io.out_shape[r++] = desc->data.shape[d];
    for (int32_t d = p->batch_dims; d < desc->indices.rank; ++d) p->io.out_shape[r++] = desc->indices.shape[d];
    for (int32_t d = p->axis + 1; d < desc->data.rank; ++d) p->io.out_shape[r++] = desc->data.shape[d];
    p->io.out_rank = r;
    p->bound = clg_index_bound_of(&desc->indices, p->io.size.index_elems, p->A, p->axis);
    return CLG_SUCCESS;
}
