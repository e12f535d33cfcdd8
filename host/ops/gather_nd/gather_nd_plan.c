#include "ops/gather_nd/gather_nd_plan.h"

#include "core/plan_checks.h"
#include "core/status.h"

#include <inttypes.h>
#include <string.h>

static bool preset_is_onnx(clg_gather_nd_preset p)
{
    return p == CLG_ONNX_GATHER_ND_11 || p == CLG_ONNX_GATHER_ND_12 || p == CLG_ONNX_GATHER_ND_13;
}

static clg_status check_types(const clg_gather_nd_desc *desc)
{
    static const clg_dtype onnx_index_types[] = {CLG_I64, CLG_DTYPE_INVALID};
    if ((int)desc->preset <= 0 || (int)desc->preset >= (int)CLG_GATHER_ND_PRESET_COUNT)
        return clg_fail(CLG_ERR_INVALID_PRESET, "preset = %d is not a clg_gather_nd_preset", (int)desc->preset);
    const char *preset = clg_gather_nd_preset_name(desc->preset);
    const bool bf16 = desc->preset != CLG_ONNX_GATHER_ND_11 && desc->preset != CLG_ONNX_GATHER_ND_12;
    clg_status st = clg_check_data_type(desc->data.type, bf16, "onnx-13", preset);
    if (st == CLG_SUCCESS)
        st = clg_check_index_type(desc->indices.type, preset_is_onnx(desc->preset) ? onnx_index_types : NULL, "i64",
                                  preset);
    return st == CLG_SUCCESS ? clg_check_policy(desc->oob_policy) : st;
}

/* Ranks, batch_dims, the batch extents and the tuple length. */
static clg_status check_shapes(const clg_gather_nd_desc *desc)
{
    clg_status st = clg_check_tensor_shape(&desc->data, "data", 1);
    if (st == CLG_SUCCESS) st = clg_check_tensor_shape(&desc->indices, "indices", 1);
    if (st != CLG_SUCCESS) return st;
    const int64_t r = desc->data.rank, q = desc->indices.rank, b = desc->batch_dims;
    if (desc->preset == CLG_ONNX_GATHER_ND_11 && b != 0)
        return clg_fail(CLG_ERR_INVALID_BATCH_DIMS, "batch_dims = %" PRId64 ": preset onnx-11 has no batch_dims", b);
    const int64_t most = (q < r ? q : r) - 1;
    if (b < 0 || b > most)
        return clg_fail(CLG_ERR_INVALID_BATCH_DIMS,
                        "batch_dims = %" PRId64 " is outside [0, %" PRId64 "] (data rank %" PRId64
                        ", indices rank %" PRId64 ")",
                        b, most, r, q);
    st = clg_check_batch_shapes(&desc->data, &desc->indices, b);
    if (st != CLG_SUCCESS) return st;
    const int64_t m = desc->indices.shape[q - 1];
    if (m < 1 || m > r - b)
        return clg_fail(CLG_ERR_SHAPE_MISMATCH,
                        "indices.shape[%" PRId64 "] = %" PRId64 ", the tuple length, is outside [1, %" PRId64
                        "] (data rank %" PRId64 " minus batch_dims %" PRId64 ")",
                        q - 1, m, r - b, r, b);
    return CLG_SUCCESS;
}

/* The output shape: indices.shape[:-1] + data.shape[b+m:], the batch dimensions flattened into one
 * for ov-gather-nd-5 (b > 0). */
static void output_shape(const clg_gather_nd_desc *desc, clg_gather_nd_plan *p)
{
    const int32_t b = p->batch_dims, q = desc->indices.rank;
    int32_t r = 0;
    if (desc->preset == CLG_OV_GATHER_ND_5 && b > 0) {
        p->io.out_shape[r++] = (int64_t)p->B;
    } else {
        for (int32_t d = 0; d < b; ++d) p->io.out_shape[r++] = desc->indices.shape[d];
    }
    for (int32_t d = b; d < q - 1; ++d) p->io.out_shape[r++] = desc->indices.shape[d];
    for (int32_t d = b + p->tuple_len; d < desc->data.rank; ++d) p->io.out_shape[r++] = desc->data.shape[d];
    p->io.out_rank = r;
}

clg_status clg_gather_nd_plan_make(const clg_gather_nd_desc *desc, clg_gather_nd_plan *p)
{
    if (!desc) return clg_fail(CLG_ERR_NULL_ARGUMENT, "desc is NULL");
    memset(p, 0, sizeof *p);
    clg_status st = check_types(desc);
    if (st == CLG_SUCCESS) st = check_shapes(desc);
    if (st != CLG_SUCCESS) return st;

    const int64_t *ds = desc->data.shape, *is = desc->indices.shape;
    const int32_t b = (int32_t)desc->batch_dims, q = desc->indices.rank, r = desc->data.rank;
    p->batch_dims = b;
    p->tuple_len = (int32_t)is[q - 1];
    memcpy(p->tuple_extents, ds + b, (size_t)p->tuple_len * sizeof p->tuple_extents[0]);
    clg_gather_io_types(&p->io, desc->data.type, desc->indices.type, desc->oob_policy, preset_is_onnx(desc->preset));
    const clg_size B = clg_size_product(ds, 0, b), A = clg_size_product(ds, b, b + p->tuple_len),
                   N = clg_size_product(is, b, q - 1), I = clg_size_product(ds, b + p->tuple_len, r);
    st = clg_check_byte_sizes(clg_size_product(ds, 0, r), clg_size_product(is, 0, q),
                              clg_size_mul(clg_size_mul(B, N), I), p->io.elem_size, p->io.index_size, &p->io.size);
    if (st != CLG_SUCCESS) return st;
    /* ov-gather-nd-5 reports the batch dimensions' product as one output extent, even for an empty
     * output (another extent 0): it must be an int64_t. */
    if (desc->preset == CLG_OV_GATHER_ND_5 && b > 0 && (B.overflow || B.value > (uint64_t)INT64_MAX))
        return clg_fail(CLG_ERR_SIZE_OVERFLOW,
                        "ov-gather-nd-5 flattens batch_dims = %d dimensions into one output extent, and the "
                        "product of data.shape[0 .. %d] (%" PRId64 " x %" PRId64 " x ...) overflows int64",
                        (int)b, (int)b - 1, ds[0], ds[1]);
    /* Factors of a non-empty output cannot have overflowed; those of an empty one are never used. */
    p->B = B.value;
    p->A = A.value;
    p->N = N.value;
    p->I = I.value;
    output_shape(desc, p);
    p->bound = clg_index_bound_of_tuples(&desc->indices, p->io.size.index_elems, p->tuple_extents, b);
    return CLG_SUCCESS;
}
