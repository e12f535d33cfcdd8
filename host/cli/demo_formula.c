#include "demo_formula.h"

#include <string.h>

static int64_t index_at(const cli_tensor *indices, uint64_t flat)
{
    if (indices->type == CLG_I32) {
        int32_t v;
        memcpy(&v, indices->bytes + flat * 4, 4);
        return v;
    }
    int64_t v;
    memcpy(&v, indices->bytes + flat * 8, 8);
    return v;
}

int demo_formula_gather(const cli_tensor *data, const cli_tensor *indices, int32_t axis, int32_t batch_dims,
                        cli_tensor *output)
{
    int32_t r = data->rank, q = indices->rank, a = axis, b = batch_dims;
    if (output->rank != a + (q - b) + (r - a - 1)) return -1;
    for (int32_t d = 0; d < a; ++d)
        if (output->shape[d] != data->shape[d]) return -1;
    for (int32_t d = b; d < q; ++d)
        if (output->shape[a + d - b] != indices->shape[d]) return -1;
    for (int32_t d = a + 1; d < r; ++d)
        if (output->shape[a + q - b + d - a - 1] != data->shape[d]) return -1;

    size_t element = clg_dtype_size(data->type);
    int64_t position[CLG_MAX_OUTPUT_RANK] = {0};
    for (uint64_t o = 0; o < output->count; ++o) {
        /* the index element: batch coordinates p_0..p_{b-1}, then i_b..i_{q-1} */
        uint64_t index_flat = 0;
        for (int32_t d = 0; d < q; ++d) {
            int64_t coordinate = d < b ? position[d] : position[a + d - b];
            index_flat = index_flat * (uint64_t)indices->shape[d] + (uint64_t)coordinate;
        }
        int64_t axis_length = data->shape[a];
        int64_t k = index_at(indices, index_flat);
        if (k < 0) k += axis_length;
        unsigned char *target = output->bytes + o * element;
        if (k < 0 || k >= axis_length) {
            memset(target, 0, element);
        } else {
            uint64_t data_flat = 0;
            for (int32_t d = 0; d < r; ++d) {
                int64_t coordinate = d < a ? position[d] : d == a ? k : position[a + q - b + d - a - 1];
                data_flat = data_flat * (uint64_t)data->shape[d] + (uint64_t)coordinate;
            }
            memcpy(target, data->bytes + data_flat * element, element);
        }
        for (int32_t d = output->rank - 1; d >= 0; --d) {
            if (++position[d] < output->shape[d]) break;
            position[d] = 0;
        }
    }
    return 0;
}
