#include "index_check.h"

#include "index_value.h"
#include "status.h"

#include <inttypes.h>

clg_status clg_check_indices_host(const clg_gather_desc *desc, const clg_gather_plan *plan, const void *indices,
                                  uint64_t first, uint64_t count)
{
    for (uint64_t k = 0; k < count; ++k) {
        clg_integer v = clg_read_integer(indices, plan->index_type, k);
        uint64_t row;
        if (clg_index_in_range(v, plan->A, &row)) continue;
        char value[32], where[256];
        clg_integer_format(v, value, sizeof value);
        clg_format_position(desc->indices.shape, desc->indices.rank, first + k, where, sizeof where);
        return clg_fail(CLG_ERR_INDEX_OUT_OF_RANGE,
                        "indices%s (flat position %" PRIu64 ") = %s is outside [-%" PRIu64 ", %" PRId64
                        "] for axis %d of size %" PRIu64,
                        where, first + k, value, plan->A, (int64_t)plan->A - 1, (int)plan->axis, plan->A);
    }
    return CLG_SUCCESS;
}

static clg_status check_one(const char *name, const void *ptr, size_t have, uint64_t need)
{
    if (have < need)
        return clg_fail(CLG_ERR_BUFFER_TOO_SMALL, "%s_bytes = %zu is smaller than the %" PRIu64 " bytes %s needs",
                        name, have, need, name);
    if (!ptr && need > 0) return clg_fail(CLG_ERR_NULL_ARGUMENT, "%s is NULL but needs %" PRIu64 " bytes", name, need);
    return CLG_SUCCESS;
}

clg_status clg_check_gather_host_buffers(const clg_gather_plan *plan, const void *data, size_t data_bytes,
                                         const void *indices, size_t indices_bytes, const void *output,
                                         size_t output_bytes)
{
    clg_status st = check_one("data", data, data_bytes, plan->data_bytes);
    if (st == CLG_SUCCESS) st = check_one("indices", indices, indices_bytes, plan->index_bytes);
    if (st == CLG_SUCCESS) st = check_one("output", output, output_bytes, plan->out_bytes);
    return st;
}
