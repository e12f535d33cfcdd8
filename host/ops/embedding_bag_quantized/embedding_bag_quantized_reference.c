#include "ops/embedding_bag_quantized/embedding_bag_quantized_reference.h"

#include "core/float_bits.h"
#include "core/status.h"
#include "ops/embedding_bag/embedding_bag_check.h"
#include "ops/embedding_bag/embedding_bag_reference.h"
#include "ops/embedding_bag/embedding_bag_values.h"
#include "ops/embedding_bag_quantized/embedding_bag_quantized_plan.h"
#include "ops/gather_quantized/gather_quantized_reference.h"

#include <stdlib.h>
#include <string.h>

/* Row `row` of the table dequantized into table[row * D ..] (f32 bits), once. */
static void dequantize_row(const clg_embedding_bag_quantized_plan *p, const void *const *inputs, uint64_t row,
                           uint32_t *table, unsigned char *done)
{
    if (done[row]) return;
    done[row] = 1;
    const uint64_t D = p->bag.D;
    for (uint64_t c = 0; c < D; ++c)
        table[row * D + c] = clg_gather_quantized_value_bits(&p->table, inputs[0], inputs[1], inputs[2], row * D + c);
}

clg_status clg_embedding_bag_quantized_reference_run(const void *plan, const void *const *inputs, void *output)
{
    const clg_embedding_bag_quantized_plan *p = plan;
    const clg_embedding_bag_plan *bag = &p->bag;
    if (bag->out_elems == 0) return CLG_SUCCESS; /* as on the device: empty work reads and checks nothing */
    const void *bag_inputs[4] = {NULL, inputs[3], inputs[4], inputs[5]};
    clg_status st = clg_embedding_bag_host_check(bag, bag_inputs);
    if (st != CLG_SUCCESS) return st;

    /* The f32 table, only the rows the bags read dequantized (calloc leaves the others' pages unused). */
    if (bag->N && bag->D > SIZE_MAX / sizeof(uint32_t) / bag->N)
        return clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "the reference's f32 table (%llu x %llu values) exceeds memory",
                        (unsigned long long)bag->N, (unsigned long long)bag->D);
    const uint64_t table_values = bag->N * bag->D;
    uint32_t *table = calloc(table_values > 0 ? table_values : 1, sizeof *table);
    unsigned char *done = calloc(bag->N ? bag->N : 1, 1);
    const int f32_out = p->out_type == CLG_F32;
    uint32_t *sums = f32_out ? output : malloc(bag->out_elems * sizeof *sums);
    if (!table || !done || !sums) {
        free(table);
        free(done);
        if (!f32_out) free(sums);
        return clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "the reference's f32 table or output could not be allocated");
    }
    for (uint64_t i = 0; i < bag->L; ++i) {
        const int64_t row = clg_bag_read_int(inputs[3], bag->index_type, i); /* checked: in [0, N) */
        dequantize_row(p, inputs, (uint64_t)row, table, done);
    }
    if (bag->default_row != CLG_BAG_NO_ROW) dequantize_row(p, inputs, (uint64_t)bag->default_row, table, done);
    bag_inputs[0] = table;
    st = clg_embedding_bag_reference_run(bag, bag_inputs, sums);
    if (st == CLG_SUCCESS && !f32_out) {
        uint16_t *out = output;
        for (uint64_t k = 0; k < bag->out_elems; ++k)
            out[k] = p->out_type == CLG_F16 ? clg_f32_to_f16_bits(sums[k]) : clg_f32_to_bf16_bits(sums[k]);
    }
    free(table);
    free(done);
    if (!f32_out) free(sums);
    return st;
}
