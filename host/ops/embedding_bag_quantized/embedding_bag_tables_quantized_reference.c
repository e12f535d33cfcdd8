/* The converting table-batched call's CPU reference, composed as the quantized single-table call's is: table
 * by table, the rows its bags read widened (plain tables) or dequantized (the dequantizing gather's
 * reference decode) to f32, each bag reduced by EmbeddingBag's reference over that f32 table, and each
 * result rounded once to the output type in the bag's columns. */
#include "core/float_bits.h"
#include "core/index_value.h"
#include "core/status.h"
#include "ops/embedding_bag/embedding_bag_reference.h"
#include "ops/embedding_bag/embedding_bag_values.h"
#include "ops/embedding_bag_quantized/embedding_bag_tables_quantized.h"
#include "ops/gather_quantized/gather_quantized_reference.h"

#include <stdlib.h>
#include <string.h>

/* f32 bits of value c of row `row` of table e at `base`: widened exactly, or dequantized by g. */
static uint32_t value_bits(const clg_embedding_bag_table *e, const clg_gather_quantized_plan *g,
                           const unsigned char *base, uint64_t row, uint64_t c)
{
    const uint64_t k = row * (uint64_t)e->width + c;
    if (e->quant_layout != 0) return clg_gather_quantized_value_bits(g, base, NULL, NULL, k);
    if (e->type == CLG_F32) return (uint32_t)clg_load_bits(base + 4 * k, 4);
    const uint16_t h = (uint16_t)clg_load_bits(base + 2 * k, 2);
    return e->type == CLG_F16 ? clg_f16_to_f32_bits(h) : clg_bf16_to_f32_bits(h);
}

/* Table t's bags into their columns of the output. */
static clg_status reduce_table(const clg_embedding_bag_tables_plan *p, const void *const *inputs, uint64_t t,
                               uint64_t column, void *output)
{
    const clg_embedding_bag_table *e = &p->tables[t];
    const uint64_t N = (uint64_t)e->rows, D = (uint64_t)e->width;
    if (D == 0) return CLG_SUCCESS;
    clg_gather_quantized_plan g;
    if (e->quant_layout != 0) {
        const clg_status st = clg_embedding_bag_table_quant_plan(e, &g);
        if (st != CLG_SUCCESS) return st;
    }
    if (N && D > SIZE_MAX / sizeof(uint32_t) / N)
        return clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "the reference's f32 copy of tables[%llu] exceeds memory",
                        (unsigned long long)t);
    /* the f32 table, only the rows the bags read filled (calloc leaves the others' pages unused) */
    uint32_t *table = calloc(N * D > 0 ? N * D : 1, sizeof *table);
    unsigned char *done = calloc(N ? N : 1, 1);
    uint32_t *sums = malloc(D * sizeof *sums);
    if (!table || !done || !sums) {
        free(table);
        free(done);
        free(sums);
        return clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "the reference's f32 copy of tables[%llu] could not be allocated",
                        (unsigned long long)t);
    }
    const unsigned char *base = (const unsigned char *)inputs[0] + e->byte_offset;
    clg_embedding_bag_plan view = p->bags; /* over f32 tables, f32 weights */
    view.N = N;
    view.D = D;
    const void *const f32_inputs[] = {table, inputs[1], inputs[2], inputs[3]};
    for (uint64_t b = 0; b < p->batch; ++b) {
        const uint64_t k = t * p->batch + b;
        uint64_t start, end;
        clg_bag_range(&view, inputs[2], k, &start, &end);
        for (uint64_t i = start; i < end; ++i) {
            const uint64_t row = (uint64_t)clg_bag_read_int(inputs[1], view.index_type, i); /* checked: in [0, N) */
            if (done[row]) continue;
            done[row] = 1;
            for (uint64_t c = 0; c < D; ++c) table[row * D + c] = value_bits(e, &g, base, row, c);
        }
        clg_embedding_bag_reduce_bag(&view, f32_inputs, k, sums);
        unsigned char *out = (unsigned char *)output + (b * p->total_D + column) * p->out_size;
        for (uint64_t c = 0; c < D; ++c) {
            if (p->out_type == CLG_F32) {
                memcpy(out + 4 * c, &sums[c], 4);
                continue;
            }
            const uint16_t h = p->out_type == CLG_F16 ? clg_f32_to_f16_bits(sums[c]) : clg_f32_to_bf16_bits(sums[c]);
            memcpy(out + 2 * c, &h, 2);
        }
    }
    free(table);
    free(done);
    free(sums);
    return CLG_SUCCESS;
}

clg_status clg_embedding_bag_tables_quantized_reduce(const clg_embedding_bag_tables_plan *p, const void *const *inputs,
                                                     void *output)
{
    uint64_t column = 0;
    for (uint64_t t = 0; t < p->T; ++t) {
        const clg_status st = reduce_table(p, inputs, t, column, output);
        if (st != CLG_SUCCESS) return st;
        column += (uint64_t)p->tables[t].width;
    }
    return CLG_SUCCESS;
}
