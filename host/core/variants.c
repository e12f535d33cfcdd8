#include "core/variants.h"

#include <string.h>

static const clg_variant registry[CLG_VARIANT_COUNT] = {
    [CLG_VARIANT_ROW_RUNS] = {"row-runs", CLG_FAMILY_ROWS, CLG_MAPPING_RUNS,
                              "gather_rows_cpu.cl, gather_nd_rows_cpu.cl", "gather_row_runs",
                              "-DSTREAM=0|1 (the tuning's stream thresholds)",
                              "runs mapping: rows of several moves, or a data axis of length 0"},
    [CLG_VARIANT_ROW_RUNS_ONE_UNIT] = {"row-runs-one-unit", CLG_FAMILY_ROWS, CLG_MAPPING_RUNS,
                                       "gather_rows_cpu.cl, gather_nd_rows_cpu.cl", "gather_row_runs_u1",
                                       "-DSTREAM=0|1 (the tuning's stream thresholds)",
                                       "runs mapping: rows of one move, from a data axis longer than 0"},
    [CLG_VARIANT_ROW_UNITS] = {"row-units", CLG_FAMILY_ROWS, CLG_MAPPING_ADJACENT,
                               "gather_rows_gpu.cl, gather_nd_rows_gpu.cl", "gather_row_units", "",
                               "adjacent mapping: wherever staging does not pay"},
    [CLG_VARIANT_STAGED_UNITS] = {"staged-units", CLG_FAMILY_ROWS, CLG_MAPPING_ADJACENT,
                                  "gather_rows_gpu.cl, gather_nd_rows_gpu.cl", "gather_staged_units", "-DSLAB_WIDE=0|1",
                                  "adjacent mapping: rows of one move whose slab fits in on-chip local memory "
                                  "and repays loading it (core/local_staging.h)"},
    [CLG_VARIANT_ELEMENTS_RUNS] = {"elements-runs", CLG_FAMILY_ELEMENTS, CLG_MAPPING_RUNS, "gather_elements_cpu.cl",
                                   "gather_elements_runs", "", "runs mapping: wherever column blocks do not pay"},
    [CLG_VARIANT_ELEMENTS_COLUMN_BLOCKS] = {"elements-column-blocks", CLG_FAMILY_ELEMENTS, CLG_MAPPING_RUNS,
                                            "gather_elements_cpu.cl", "gather_elements_column_blocks", "",
                                            "runs mapping: an outer axis over contiguous lines, whose A rows of a "
                                            "block fit in local memory and repay staging"},
    [CLG_VARIANT_ELEMENTS_LINES] = {"elements-lines", CLG_FAMILY_ELEMENTS, CLG_MAPPING_ADJACENT,
                                    "gather_elements_gpu.cl", "gather_elements_lines", "",
                                    "adjacent mapping: wherever staging does not pay"},
    [CLG_VARIANT_ELEMENTS_STAGED_LINES] = {"elements-staged-lines", CLG_FAMILY_ELEMENTS, CLG_MAPPING_ADJACENT,
                                           "gather_elements_gpu.cl", "gather_elements_staged_lines", "-DSLAB_WIDE=0|1",
                                           "adjacent mapping: the innermost axis, elements of one move, whose data "
                                           "row fits in on-chip local memory and repays loading it"},
    [CLG_VARIANT_DEQUANT_RUNS] = {"dequant-runs", CLG_FAMILY_QUANTIZED, CLG_MAPPING_RUNS, "gather_quantized_cpu.cl",
                                  "dequant_runs", "", "runs mapping: each work-item dequant_run_bytes of output"},
    [CLG_VARIANT_DEQUANT_WHOLE_SLABS] = {"dequant-whole-slabs", CLG_FAMILY_QUANTIZED, CLG_MAPPING_RUNS,
                                         "gather_quantized_cpu.cl", "dequant_runs", "",
                                         "never chosen: each work-item exactly one whole slab, so that small "
                                         "tables take the slab loops that large ones take"},
    [CLG_VARIANT_DEQUANT_PIECES] = {"dequant-pieces", CLG_FAMILY_QUANTIZED, CLG_MAPPING_ADJACENT,
                                    "gather_quantized_gpu.cl", "dequant_pieces", "",
                                    "adjacent mapping: each work-item dequant_piece_values of a unit"},
    [CLG_VARIANT_TREE] = {"tree", CLG_FAMILY_TREE, CLG_MAPPING_RUNS, "gather_tree.cl", "gather_tree", "",
                          "always: one work-item per (batch, beam) on every mapping"},
    [CLG_VARIANT_BAG_RUNS] = {"bag-runs", CLG_FAMILY_EMBEDDING_BAG, CLG_MAPPING_RUNS, "embedding_bag.cl",
                              "embedding_bag_runs", "", "runs mapping: one work-item per bag, 8 columns at a time"},
    [CLG_VARIANT_BAG_COLUMNS] = {"bag-columns", CLG_FAMILY_EMBEDDING_BAG, CLG_MAPPING_ADJACENT, "embedding_bag.cl",
                                 "embedding_bag_columns", "",
                                 "adjacent mapping: one work-item per (column, bag), adjacent columns adjacent"},
    [CLG_VARIANT_BAG_QUANTIZED_RUNS] = {"bag-quantized-runs", CLG_FAMILY_EMBEDDING_BAG, CLG_MAPPING_RUNS,
                                        "embedding_bag_quantized.cl", "bag_quantized_runs", "",
                                        "runs mapping, a quantized table or a table-batched call that converts: "
                                        "one work-item per piece of QBAG_PIECE values, bags walked with a stride"},
    [CLG_VARIANT_BAG_QUANTIZED_COLUMNS] = {"bag-quantized-columns", CLG_FAMILY_EMBEDDING_BAG, CLG_MAPPING_ADJACENT,
                                           "embedding_bag_quantized.cl", "bag_quantized_columns", "",
                                           "adjacent mapping, a quantized table or a table-batched call that "
                                           "converts: one work-item per (piece, bag), bags grid-strided"},
};

static const char *const family_names[CLG_FAMILY_COUNT] = {
    [CLG_FAMILY_ROWS] = "gather and gather-nd",   [CLG_FAMILY_ELEMENTS] = "gather-elements",
    [CLG_FAMILY_QUANTIZED] = "gather-quantized",  [CLG_FAMILY_TREE] = "gather-tree",
    [CLG_FAMILY_EMBEDDING_BAG] = "embedding-bag",
};

const clg_variant *clg_variant_get(clg_variant_id id)
{
    return (int)id >= 0 && id < CLG_VARIANT_COUNT ? &registry[id] : NULL;
}

int clg_variant_find(const char *name)
{
    if (!name) return -1;
    for (int k = 0; k < CLG_VARIANT_COUNT; ++k)
        if (strcmp(registry[k].name, name) == 0) return k;
    return -1;
}

const char *clg_variant_family_name(clg_variant_family family)
{
    return (int)family >= 0 && family < CLG_FAMILY_COUNT ? family_names[family] : "unknown";
}
