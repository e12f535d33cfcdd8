/* The benchmark's cases (bench/cases.txt, compiled in): what each case is, its deterministic inputs,
 * and one call of it on a queue. clgather-bench times them; `clgather tune` tunes on them. A client of
 * the public API only (include/clgather.h). */
#ifndef CLI_CASE_TABLE_H
#define CLI_CASE_TABLE_H

#include "clgather.h"
#include "gguf_types.h"

#include <stddef.h>
#include <stdint.h>

typedef enum case_kind { KIND_GATHER, KIND_ELEMENTS, KIND_ND, KIND_TREE, KIND_QUANT, KIND_BAG } case_kind;
typedef enum primary_time { PRIMARY_KERNEL, PRIMARY_WALL } primary_time;
/* ggml: any of ggml's block layouts the library reads, named in case_spec.ggml */
typedef enum quant_layout { LAYOUT_NONE, LAYOUT_ORT_U4, LAYOUT_ORT_U8, LAYOUT_GGML } quant_layout;

#define MAX_SCALED_DIMS 4

/* One line of bench/cases.txt (its header says what each field means). */
typedef struct case_spec {
    char name[64];
    case_kind kind;
    int preset;                  /* the kind's preset: clg_preset, clg_gather_elements_preset, clg_gather_nd_preset or
                 * clg_embedding_bag_preset */
    clg_bag_form bag_form;       /* EmbeddingBag: form= (indices [B, K]: B bags of K; offsets flattens them) */
    clg_bag_mode bag_mode;       /* EmbeddingBag: mode= */
    int bag_tables;              /* EmbeddingBag: tables= (1: one table; more: one table-batched call) */
    clg_quant_layout bag_layout; /* EmbeddingBag: layout= (the quantized call; CLG_QUANT_LAYOUT_INVALID: none) */
    quant_layout layout;
    clg_quant_layout ggml_layout;   /* LAYOUT_GGML: the library's layout */
    const cli_gguf_type *ggml_type; /* LAYOUT_GGML, or a bag's ggml layout: its block */
    clg_dtype data_type;
    int32_t data_rank;
    int64_t data_shape[CLG_MAX_RANK];
    clg_dtype index_type;
    int32_t indices_rank;
    int64_t indices_shape[CLG_MAX_RANK];
    int64_t axis, batch_dims; /* Gather: both; GatherElements: the axis; GatherND: batch_dims */
    uint64_t seed;            /* indices: seed, data: seed + 1 (tree: step ids, parents, lengths: +0, +1, +2) */
    primary_time primary;
    int scaled_dims;                     /* how many dimensions a scale multiplies */
    int scaled_is_data[MAX_SCALED_DIMS]; /* 1: a data dimension, 0: an indices dimension */
    int scaled_dim[MAX_SCALED_DIMS];     /* which */
    int64_t scale;                       /* the factor applied (1: the table's sizes) */
} case_spec;

/* The built-in table's text (bench/cases.txt). */
extern const char case_table_builtin[];

/* Parse a table (blank lines and '#' comments skipped) into a malloc'd array. A line that is not a
 * case exits the program with "PROGRAM: WHERE:LINE: what is wrong" on stderr: tables are the
 * program's own input, not a library caller's. */
case_spec *case_table_parse(const char *text, const char *where, const char *program, size_t *count);

/* The case with each dimension its scale= names multiplied by factor. */
case_spec case_scaled(const case_spec *c, int64_t factor);

/* What a case moves (the bytes its GB/s counts) and the device memory it takes: its largest buffer and
 * all of them together. block_size: the ONNX Runtime dequantizing cases' block (0: their own, 32). */
typedef struct case_footprint {
    uint64_t moved, largest, total;
} case_footprint;
clg_status case_footprint_of(const case_spec *c, int64_t block_size, case_footprint *f);

#define CASE_MAX_INPUTS 4
#define CASE_MAX_TABLES 64 /* tables= of a table-batched EmbeddingBag case */

/* A case's descriptor and deterministic host inputs, in the order its call takes them. */
typedef struct case_inputs {
    case_kind kind;
    clg_gather_desc gather;
    int64_t axis_value; /* the gather descriptor's axis tensor */
    clg_gather_elements_desc elements;
    clg_gather_nd_desc nd;
    clg_gather_quantized_desc quant;
    clg_gather_tree_desc tree;
    clg_embedding_bag_desc bag;
    /* EmbeddingBag's other calls (bag_layout, bag_tables > 1); their inputs take the plain call's order:
     * table(s), indices, offsets, weights (absent) */
    clg_embedding_bag_quantized_desc bag_quant;
    clg_embedding_bag_tables_desc bag_batched; /* its tables pointer set at each call, to tables below */
    clg_embedding_bag_table tables[CASE_MAX_TABLES];
    int bag_call;                /* 0: clg_embedding_bag, 1: the quantized call, 2: the table-batched call */
    int count;                   /* inputs */
    void *host[CASE_MAX_INPUTS]; /* NULL where an input is absent (a ggml table has no scales) */
    uint64_t bytes[CASE_MAX_INPUTS];
    uint64_t out_bytes;
    uint64_t index_fnv; /* FNV-1a of the indices (GatherTree: the parent ids): peers.py checks it */
} case_inputs;

/* Make a case's inputs: data from stream seed + 1, indices uniform over what they index from stream
 * seed (the case table's header says the rest). Returns the status of the descriptor's size query. */
clg_status case_inputs_make(const case_spec *c, int64_t block_size, case_inputs *in);
void case_inputs_free(case_inputs *in);

/* The CPU reference's output for the inputs (out_bytes into out). */
clg_status case_reference(const case_inputs *in, void *out);

/* One call on queue: buffers[0 .. count) hold the inputs (NULL where absent), buffers[count] the output. */
clg_status case_enqueue(clg_context *ctx, const case_inputs *in, cl_command_queue queue, const cl_mem *buffers,
                        cl_event *done);

/* The copy the benchmark holds cases against: kernel copy16(src, dst) moves 16 bytes a work-item. */
extern const char case_copy_kernel_source[];

/* The op's name in the table ("gather", "elements", ...) and the case's preset or layout name. */
const char *case_op_name(case_kind kind);
const char *case_preset_name(const case_spec *c);
const char *case_layout_name(const case_spec *c);

#endif
