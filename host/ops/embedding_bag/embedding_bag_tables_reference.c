/* The table-batched call's CPU reference: its checks, then each (table, bag) reduced by the
 * single-table reference into its columns of the output row (a converting call's tables first widened or
 * dequantized to f32: embedding_bag_tables_quantized_reference.c). */
#include "ops/embedding_bag/embedding_bag_reference.h"
#include "ops/embedding_bag/embedding_bag_tables.h"
#include "ops/embedding_bag_quantized/embedding_bag_tables_quantized.h"

clg_status clg_embedding_bag_tables_reference_run(const void *plan, const void *const *inputs, void *output)
{
    const clg_embedding_bag_tables_plan *p = plan;
    if (p->bags.out_elems == 0) return CLG_SUCCESS; /* as on the device: empty work reads and checks nothing */
    const clg_status st = clg_embedding_bag_tables_host_check(p, inputs);
    if (st != CLG_SUCCESS) return st;
    if (p->converts) return clg_embedding_bag_tables_quantized_reduce(p, inputs, output);
    const size_t size = p->bags.table_size;
    uint64_t column = 0;
    for (uint64_t t = 0; t < p->T; ++t) {
        const clg_embedding_bag_plan view = clg_embedding_bag_table_view(p, t);
        const void *const table_inputs[] = {(const unsigned char *)inputs[0] + p->tables[t].byte_offset, inputs[1],
                                            inputs[2], inputs[3]};
        for (uint64_t b = 0; b < p->batch; ++b)
            clg_embedding_bag_reduce_bag(&view, table_inputs, t * p->batch + b,
                                         (unsigned char *)output + (b * p->total_D + column) * size);
        column += view.D;
    }
    return CLG_SUCCESS;
}
