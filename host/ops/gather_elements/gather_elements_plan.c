#include "ops/gather_elements/gather_elements_plan.h"

#include "core/plan_checks.h"
#include "core/status.h"

#include <inttypes.h>
#include <string.h>

static bool preset_is_onnx(clg_gather_elements_preset p)
{
    return p == CLG_ONNX_GATHER_ELEMENTS_11 || p == CLG_ONNX_GATHER_ELEMENTS_13;
}

static clg_status check_types(const clg_gather_elements_desc *desc)
{
    static const clg_dtype onnx_index_types[] = {CLG_I32, CLG_I64, CLG_DTYPE_INVALID};
    if ((int)desc->preset <= 0 || (int)desc->preset >= (int)CLG_GATHER_ELEMENTS_PRESET_COUNT)
        return clg_fail(CLG_ERR_INVALID_PRESET, "preset = %d is not a clg_gather_elements_preset", (int)desc->preset);
    const char *preset = clg_gather_elements_preset_name(desc->preset);
    clg_status st =
        clg_check_data_type(desc->data.type, desc->preset != CLG_ONNX_GATHER_ELEMENTS_11, "onnx-13", preset);
    if (st == CLG_SUCCESS)
        st = clg_check_index_type(desc->indices.type, preset_is_onnx(desc->preset) ? onnx_index_types : NULL,
                                  "i32 and i64", preset);
    return st == CLG_SUCCESS ? clg_check_policy(desc->oob_policy) : st;
}

/* Ranks, the axis, and the rule that only the axis of the indices may exceed the data's extent. */
static clg_status check_shapes(const clg_gather_elements_desc *desc, int32_t *axis_out)
{
    clg_status st = clg_check_tensor_shape(&desc->data, "data", 1);
    if (st == CLG_SUCCESS) st = clg_check_tensor_shape(&desc->indices, "indices", 0);
    if (st != CLG_SUCCESS) return st;
    const int64_t r = desc->data.rank;
    if (desc->indices.rank != r)
        return clg_fail(CLG_ERR_INVALID_RANK, "indices rank %d differs from data rank %d: they must be equal",
                        (int)desc->indices.rank, (int)r);
    int64_t axis = desc->axis;
    if (axis < -r || axis > r - 1)
        return clg_fail(CLG_ERR_INVALID_AXIS,
                        "axis = %" PRId64 " is outside [%" PRId64 ", %" PRId64 "] for data rank %" PRId64, axis, -r,
                        r - 1, r);
    if (axis < 0) axis += r;
    for (int32_t d = 0; d < r; ++d)
        if (d != axis && desc->indices.shape[d] > desc->data.shape[d])
            return clg_fail(CLG_ERR_SHAPE_MISMATCH,
                            "indices.shape[%d] = %" PRId64 " is larger than data.shape[%d] = %" PRId64
                            " (only the axis, %d, may be larger)",
                            (int)d, desc->indices.shape[d], (int)d, desc->data.shape[d], (int)axis);
    *axis_out = (int32_t)axis;
    return CLG_SUCCESS;
}

/* The walk of base(p) over the output (see the header): extent-1 dimensions dropped, neighbours that
 * step through the data contiguously merged. Strides of an empty data tensor may overflow 64 bits;
 * they are then never used (an empty output reads nothing, A == 0 reads no data), so they read 0. */
static void make_walk(const clg_gather_elements_desc *desc, clg_gather_elements_plan *p)
{
    uint64_t data_stride[CLG_MAX_RANK] = {0};
    clg_size stride = clg_size_of(1);
    for (int32_t d = p->rank - 1; d >= 0; --d) {
        data_stride[d] = stride.overflow ? 0 : stride.value;
        stride = clg_size_mul(stride, clg_size_of((uint64_t)desc->data.shape[d]));
    }
    p->axis_stride = data_stride[p->axis];
    int32_t k = 0;
    for (int32_t d = 0; d < p->rank; ++d) {
        const uint64_t extent = (uint64_t)desc->indices.shape[d];
        const uint64_t step = d == p->axis ? 0 : data_stride[d];
        if (extent == 1) continue;
        if (k > 0 && p->walk_stride[k - 1] == step * extent) { /* one step of the outer = extent of this */
            p->walk_extent[k - 1] *= extent;
            p->walk_stride[k - 1] = step;
            continue;
        }
        p->walk_extent[k] = extent;
        p->walk_stride[k] = step;
        ++k;
    }
    if (k == 0) { /* one output element (or none) */
        p->walk_extent[0] = 1;
        p->walk_stride[0] = 0;
        k = 1;
    }
    p->walk_rank = k;
}

clg_status clg_gather_elements_plan_make(const clg_gather_elements_desc *desc, clg_gather_elements_plan *p)
{
    if (!desc) return clg_fail(CLG_ERR_NULL_ARGUMENT, "desc is NULL");
    memset(p, 0, sizeof *p);
    clg_status st = check_types(desc);
    if (st == CLG_SUCCESS) st = check_shapes(desc, &p->axis);
    if (st != CLG_SUCCESS) return st;

    p->rank = desc->data.rank;
    clg_gather_io_types(&p->io, desc->data.type, desc->indices.type, desc->oob_policy, preset_is_onnx(desc->preset));
    const clg_size index_elems = clg_size_product(desc->indices.shape, 0, p->rank);
    st = clg_check_byte_sizes(clg_size_product(desc->data.shape, 0, p->rank), index_elems, index_elems, p->io.elem_size,
                              p->io.index_size, &p->io.size);
    if (st != CLG_SUCCESS) return st;
    p->A = (uint64_t)desc->data.shape[p->axis];
    memcpy(p->data_shape, desc->data.shape, sizeof p->data_shape);
    p->io.out_rank = p->rank;
    memcpy(p->io.out_shape, desc->indices.shape, (size_t)p->rank * sizeof p->io.out_shape[0]);
    make_walk(desc, p);
    p->bound = clg_index_bound_of(&desc->indices, p->io.size.index_elems, p->A, p->axis);
    return CLG_SUCCESS;
}
