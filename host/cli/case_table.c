#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include "case_table.h"

#include "splitmix.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------------- */
/* Parsing                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

typedef struct table_place {
    const char *program, *where;
    int line;
} table_place;

#define TABLE_DIE(place, ...)                                                            \
    do {                                                                                 \
        fprintf(stderr, "%s: %s:%d: ", (place)->program, (place)->where, (place)->line); \
        fprintf(stderr, __VA_ARGS__);                                                    \
        fprintf(stderr, "\n");                                                           \
        exit(1);                                                                         \
    } while (0)

static int64_t parse_count(const char *s, const table_place *at)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end != '\0' || errno || v < 0) TABLE_DIE(at, "'%s' is not a count", s);
    return (int64_t)v;
}

/* TYPE[d0,d1,...] into a type, a rank and a shape. */
static void parse_tensor(char *text, clg_dtype *type, int32_t *rank, int64_t *shape, const table_place *at)
{
    char *open = strchr(text, '['), *close = strrchr(text, ']');
    if (!open || !close || close < open || close[1] != '\0') TABLE_DIE(at, "'%s' is not TYPE[d0,d1,...]", text);
    *open = '\0', *close = '\0';
    *type = clg_dtype_from_name(text);
    if (*type == CLG_DTYPE_INVALID) TABLE_DIE(at, "unknown element type '%s'", text);
    *rank = 0;
    for (char *save = NULL, *dim = strtok_r(open + 1, ",", &save); dim; dim = strtok_r(NULL, ",", &save)) {
        if (*rank == CLG_MAX_RANK) TABLE_DIE(at, "more than %d dimensions", CLG_MAX_RANK);
        shape[(*rank)++] = parse_count(dim, at);
    }
}

/* data:0,indices:1 into the case's scaled dimensions. */
static void parse_scale(char *text, case_spec *c, const table_place *at)
{
    if (!strcmp(text, "none")) return;
    for (char *save = NULL, *item = strtok_r(text, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        char *colon = strchr(item, ':');
        if (!colon || c->scaled_dims == MAX_SCALED_DIMS) TABLE_DIE(at, "bad scale item '%s'", item);
        *colon = '\0';
        if (strcmp(item, "data") && strcmp(item, "indices"))
            TABLE_DIE(at, "scale names data or indices, not '%s'", item);
        c->scaled_is_data[c->scaled_dims] = !strcmp(item, "data");
        c->scaled_dim[c->scaled_dims++] = (int)parse_count(colon + 1, at);
    }
}

static const char *const layout_names[] = {
    [LAYOUT_NONE] = NULL, [LAYOUT_ORT_U4] = "ort-u4", [LAYOUT_ORT_U8] = "ort-u8"};

/* layout=NAME: ort-u4, ort-u8, or the library's name of a ggml layout ("ggml-q4_K"), whose block the
 * GGUF type table gives. */
static void parse_layout(case_spec *c, const char *value, const table_place *at)
{
    c->layout = LAYOUT_NONE;
    for (int l = LAYOUT_ORT_U4; l <= LAYOUT_ORT_U8; ++l)
        if (!strcmp(value, layout_names[l])) c->layout = (quant_layout)l;
    const clg_quant_layout library = clg_quant_layout_from_name(value);
    const cli_gguf_type *type = !strncmp(value, "ggml-", 5) ? cli_gguf_type_named(value + 5) : NULL;
    if (c->layout == LAYOUT_NONE && library != CLG_QUANT_LAYOUT_INVALID && type) {
        c->layout = LAYOUT_GGML;
        c->ggml_layout = library;
        c->ggml_type = type;
    }
    if (c->layout == LAYOUT_NONE) TABLE_DIE(at, "unknown layout '%s'", value);
}

/* One key=value of a case line. A new field goes here. */
static void parse_case_field(case_spec *c, const char *key, char *value, const char *op, const table_place *at)
{
    if (!strcmp(key, "op")) {
        /* read first, by parse_case_line */
    } else if (!strcmp(key, "preset")) {
        c->preset = c->kind == KIND_GATHER     ? (int)clg_preset_from_name(value)
                    : c->kind == KIND_ELEMENTS ? (int)clg_gather_elements_preset_from_name(value)
                    : c->kind == KIND_ND       ? (int)clg_gather_nd_preset_from_name(value)
                    : c->kind == KIND_BAG      ? (int)clg_embedding_bag_preset_from_name(value)
                                               : -1;
        if (c->preset <= 0) TABLE_DIE(at, "no %s preset '%s'", op, value);
    } else if (!strcmp(key, "data")) {
        parse_tensor(value, &c->data_type, &c->data_rank, c->data_shape, at);
    } else if (!strcmp(key, "indices")) {
        parse_tensor(value, &c->index_type, &c->indices_rank, c->indices_shape, at);
    } else if (!strcmp(key, "axis")) {
        c->axis = parse_count(value, at);
    } else if (!strcmp(key, "batch_dims")) {
        c->batch_dims = parse_count(value, at);
    } else if (!strcmp(key, "seed")) {
        c->seed = (uint64_t)parse_count(value, at);
    } else if (!strcmp(key, "time")) {
        if (strcmp(value, "kernel") && strcmp(value, "wall")) TABLE_DIE(at, "time is kernel or wall");
        c->primary = !strcmp(value, "wall") ? PRIMARY_WALL : PRIMARY_KERNEL;
    } else if (!strcmp(key, "layout") && c->kind == KIND_BAG) {
        /* FBGEMM's rowwise layouts, or a ggml layout the library reads */
        c->bag_layout = clg_quant_layout_from_name(value);
        c->ggml_type = !strncmp(value, "ggml-", 5) ? cli_gguf_type_named(value + 5) : NULL;
        if (c->bag_layout != CLG_QUANT_FBGEMM_8BIT_ROWWISE && c->bag_layout != CLG_QUANT_FBGEMM_4BIT_ROWWISE &&
            !(c->bag_layout != CLG_QUANT_LAYOUT_INVALID && c->ggml_type))
            TABLE_DIE(at, "op=bag: layout is fbgemm-8bit-rowwise, fbgemm-4bit-rowwise or ggml-*, not '%s'", value);
    } else if (!strcmp(key, "tables") && c->kind == KIND_BAG) {
        const int64_t tables = parse_count(value, at);
        if (tables < 1 || tables > CASE_MAX_TABLES) TABLE_DIE(at, "tables is 1 to %d", CASE_MAX_TABLES);
        c->bag_tables = (int)tables;
    } else if (!strcmp(key, "layout")) {
        parse_layout(c, value, at);
    } else if (!strcmp(key, "scale")) {
        parse_scale(value, c, at);
    } else if (!strcmp(key, "form") && c->kind == KIND_BAG) {
        c->bag_form = !strcmp(value, "offsets") ? CLG_BAG_OFFSETS : !strcmp(value, "packed") ? CLG_BAG_PACKED : 0;
        if (!c->bag_form) TABLE_DIE(at, "form is offsets or packed, not '%s'", value);
    } else if (!strcmp(key, "mode") && c->kind == KIND_BAG) {
        c->bag_mode = clg_bag_mode_from_name(value);
        if (c->bag_mode == CLG_BAG_MODE_COUNT) TABLE_DIE(at, "no EmbeddingBag mode '%s'", value);
    } else {
        TABLE_DIE(at, "unknown field '%s'", key);
    }
}

static const char *const op_names[] = {[KIND_GATHER] = "gather", [KIND_ELEMENTS] = "elements", [KIND_ND] = "nd",
                                       [KIND_TREE] = "tree",     [KIND_QUANT] = "quantized",   [KIND_BAG] = "bag"};

static case_kind kind_of_op(const char *op, const table_place *at)
{
    for (int k = KIND_GATHER; k <= KIND_BAG; ++k)
        if (op && !strcmp(op, op_names[k])) return (case_kind)k;
    TABLE_DIE(at, "unknown op '%s'", op ? op : "(none)");
}

/* A case line: its name, then key=value fields (op first, whatever its place: the preset depends on it). */
static void parse_case_line(char *text, case_spec *c, const case_spec *earlier, size_t count, const table_place *at)
{
    memset(c, 0, sizeof *c);
    c->scale = 1;
    char *fields[32];
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(text, " \t\r", &save); tok; tok = strtok_r(NULL, " \t\r", &save)) {
        if (n == 32) TABLE_DIE(at, "too many fields");
        fields[n++] = tok;
    }
    if (n == 0) TABLE_DIE(at, "an empty case");
    if (strlen(fields[0]) >= sizeof c->name) TABLE_DIE(at, "name too long");
    strcpy(c->name, fields[0]);
    const char *op = NULL;
    for (int i = 1; i < n; ++i)
        if (!strncmp(fields[i], "op=", 3)) op = fields[i] + 3;
    c->kind = kind_of_op(op, at);
    for (int i = 1; i < n; ++i) {
        char *eq = strchr(fields[i], '=');
        if (!eq) TABLE_DIE(at, "'%s' is not key=value", fields[i]);
        *eq = '\0';
        parse_case_field(c, fields[i], eq + 1, op, at);
    }
    if (c->data_rank == 0) TABLE_DIE(at, "no data=");
    if (c->kind != KIND_TREE && c->indices_rank == 0) TABLE_DIE(at, "no indices=");
    if ((c->kind == KIND_QUANT) != (c->layout != LAYOUT_NONE)) TABLE_DIE(at, "layout= is for op=quantized");
    if (c->kind != KIND_TREE && c->kind != KIND_QUANT && c->preset == 0) TABLE_DIE(at, "no preset=");
    if (c->kind == KIND_BAG && c->indices_rank != 2) TABLE_DIE(at, "op=bag takes indices=TYPE[bags,rows a bag]");
    if (c->kind == KIND_BAG && c->bag_form == 0) c->bag_form = CLG_BAG_OFFSETS;
    if (c->kind == KIND_BAG && c->bag_tables == 0) c->bag_tables = 1;
    if (c->kind == KIND_BAG && c->data_type != CLG_F32 && c->data_type != CLG_F64)
        TABLE_DIE(at, "op=bag: the table is f32 or f64");
    if (c->kind == KIND_BAG && (c->bag_layout || c->bag_tables > 1) && c->bag_form != CLG_BAG_OFFSETS)
        TABLE_DIE(at, "op=bag: layout= and tables= take form=offsets");
    if (c->kind == KIND_BAG && c->bag_layout && c->data_type != CLG_F32)
        TABLE_DIE(at, "op=bag layout=: data=f32[rows,values a row]");
    if (c->kind == KIND_BAG && c->ggml_type && c->data_shape[1] % c->ggml_type->block_values)
        TABLE_DIE(at, "op=bag layout=ggml-%s: rows of whole %u-value blocks", c->ggml_type->name,
                  (unsigned)c->ggml_type->block_values);
    if (c->kind == KIND_BAG && c->bag_layout == CLG_QUANT_FBGEMM_4BIT_ROWWISE && c->data_shape[1] % 2)
        TABLE_DIE(at, "op=bag layout=fbgemm-4bit-rowwise: rows of an even number of values");
    for (int i = 0; i < c->scaled_dims; ++i)
        if (c->scaled_dim[i] >= (c->scaled_is_data[i] ? c->data_rank : c->indices_rank))
            TABLE_DIE(at, "scale names a dimension the tensor lacks");
    for (size_t k = 0; k < count; ++k)
        if (!strcmp(earlier[k].name, c->name)) TABLE_DIE(at, "a second case '%s'", c->name);
}

case_spec *case_table_parse(const char *text, const char *where, const char *program, size_t *count)
{
    table_place at = {program, where, 0};
    char *copy = strdup(text);
    if (!copy) TABLE_DIE(&at, "cannot copy the table");
    case_spec *cases = NULL;
    *count = 0;
    for (char *next = copy; next;) {
        char *line = next;
        char *nl = strchr(next, '\n');
        next = nl ? nl + 1 : NULL;
        if (nl) *nl = '\0';
        ++at.line;
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        if (strspn(line, " \t\r") == strlen(line)) continue;
        case_spec *grown = realloc(cases, (*count + 1) * sizeof *cases);
        if (!grown) TABLE_DIE(&at, "cannot allocate the case table");
        cases = grown;
        case_spec parsed;
        parse_case_line(line, &parsed, cases, *count, &at);
        cases[(*count)++] = parsed;
    }
    free(copy);
    if (!*count) TABLE_DIE(&at, "no cases");
    return cases;
}

case_spec case_scaled(const case_spec *c, int64_t factor)
{
    case_spec s = *c;
    for (int i = 0; i < c->scaled_dims; ++i) {
        int64_t *shape = c->scaled_is_data[i] ? s.data_shape : s.indices_shape;
        shape[c->scaled_dim[i]] *= factor;
    }
    s.scale = c->scaled_dims ? factor : 1;
    return s;
}

const char *case_op_name(case_kind kind) { return op_names[kind]; }

const char *case_layout_name(const case_spec *c)
{
    if (c->kind == KIND_BAG) return c->bag_layout ? clg_quant_layout_name(c->bag_layout) : NULL;
    return c->layout == LAYOUT_GGML ? clg_quant_layout_name(c->ggml_layout) : layout_names[c->layout];
}

const char *case_preset_name(const case_spec *c)
{
    switch (c->kind) {
    case KIND_GATHER: return clg_preset_name((clg_preset)c->preset);
    case KIND_ELEMENTS: return clg_gather_elements_preset_name((clg_gather_elements_preset)c->preset);
    case KIND_ND: return clg_gather_nd_preset_name((clg_gather_nd_preset)c->preset);
    case KIND_BAG: return clg_embedding_bag_preset_name((clg_embedding_bag_preset)c->preset);
    default: return NULL;
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* Descriptors                                                                                    */
/* ---------------------------------------------------------------------------------------------- */

static void tensor_of(clg_tensor_desc *t, clg_dtype type, int32_t rank, const int64_t *shape)
{
    memset(t, 0, sizeof *t);
    t->type = type;
    t->rank = rank;
    for (int i = 0; i < rank; ++i) t->shape[i] = shape[i];
}

static void gather_desc_of(const case_spec *c, clg_gather_desc *desc, int64_t *axis_value)
{
    memset(desc, 0, sizeof *desc);
    desc->preset = (clg_preset)c->preset;
    tensor_of(&desc->data, c->data_type, c->data_rank, c->data_shape);
    tensor_of(&desc->indices, c->index_type, c->indices_rank, c->indices_shape);
    *axis_value = c->axis;
    if (c->preset >= CLG_OV_GATHER_1) {
        desc->axis_tensor.type = CLG_I64;
        desc->axis_tensor.rank = 0;
        desc->batch_dims = c->batch_dims;
    } else {
        desc->axis = c->axis;
    }
}

/* ort-u4 is ONNX Runtime's u4 with f16 scales per block of 32 values (block_size: another size); ort-u8
 * the same table in ONNX Runtime's usual form, u8 with bits 4 and u8 zero points two a byte; a ggml
 * layout is rows of its blocks. data_type is the output type. */
static void quant_desc_of(const case_spec *c, int64_t block_size, clg_gather_quantized_desc *desc)
{
    memset(desc, 0, sizeof *desc);
    const int64_t rows = c->data_shape[0], values = c->data_shape[1];
    tensor_of(&desc->indices, c->index_type, c->indices_rank, c->indices_shape);
    desc->output_type = c->data_type;
    desc->data.rank = 2;
    desc->data.shape[0] = rows;
    if (c->layout == LAYOUT_ORT_U4 || c->layout == LAYOUT_ORT_U8) {
        const int u8 = c->layout == LAYOUT_ORT_U8;
        desc->layout = CLG_QUANT_ORT_BLOCK;
        desc->data.type = u8 ? CLG_QUANT_U8 : CLG_QUANT_U4;
        desc->bits = u8 ? 4 : 0;
        desc->data.shape[1] = u8 ? values / 2 : values;
        const int64_t bs = block_size ? block_size : 32;
        desc->block_size = bs;
        desc->quantize_axis = 1;
        desc->scales.type = CLG_F16;
        desc->scales.rank = 2;
        desc->scales.shape[0] = rows;
        desc->scales.shape[1] = values / bs;
        if (u8) {
            desc->zero_points.type = CLG_QUANT_U8;
            desc->zero_points.rank = 2;
            desc->zero_points.shape[0] = rows;
            desc->zero_points.shape[1] = (values / bs + 1) / 2;
        }
    } else {
        desc->layout = c->ggml_layout;
        desc->data.type = CLG_QUANT_U8;
        desc->data.shape[1] = values / c->ggml_type->block_values * c->ggml_type->block_bytes;
    }
}

static void tree_desc_of(const case_spec *c, clg_gather_tree_desc *desc)
{
    memset(desc, 0, sizeof *desc);
    desc->step_ids.type = desc->parent_ids.type = desc->max_seq_len.type = desc->end_token.type = CLG_I32;
    tensor_of(&desc->step_ids, CLG_I32, 3, c->data_shape);
    tensor_of(&desc->parent_ids, CLG_I32, 3, c->data_shape);
    desc->max_seq_len.rank = 1;
    desc->max_seq_len.shape[0] = c->data_shape[1];
    desc->end_token.rank = 0;
}

/* B bags of K rows each (indices [B, K]): packed as they are, or flattened to [B * K] with offsets
 * 0, K, 2K, ... of the indices' type. */
static void bag_desc_of(const case_spec *c, clg_embedding_bag_desc *desc)
{
    memset(desc, 0, sizeof *desc);
    desc->preset = (clg_embedding_bag_preset)c->preset;
    desc->bag_form = c->bag_form;
    desc->mode = c->bag_mode;
    tensor_of(&desc->table, c->data_type, c->data_rank, c->data_shape);
    const int64_t B = c->indices_shape[0], K = c->indices_shape[1];
    if (c->bag_form == CLG_BAG_PACKED) {
        tensor_of(&desc->indices, c->index_type, 2, c->indices_shape);
        return;
    }
    const int64_t flat = B * K;
    tensor_of(&desc->indices, c->index_type, 1, &flat);
    tensor_of(&desc->offsets, c->index_type, 1, &B);
}

/* The bytes of a quantized bag table's row of D values in the case's layout. */
static int64_t bag_quant_row_bytes(const case_spec *c)
{
    const int64_t D = c->data_shape[1];
    return c->bag_layout == CLG_QUANT_FBGEMM_8BIT_ROWWISE ? D + 8
           : c->bag_layout == CLG_QUANT_FBGEMM_4BIT_ROWWISE
               ? D / 2 + 4
               : D / c->ggml_type->block_values * c->ggml_type->block_bytes;
}

/* The quantized case: the bag part as a plain case's, its table rows of the layout (FBGEMM's fused rows:
 * D u8, f32 scale, f32 bias), f32 output. */
static void bag_quant_desc_of(const case_spec *c, clg_embedding_bag_quantized_desc *desc)
{
    memset(desc, 0, sizeof *desc);
    bag_desc_of(c, &desc->bag);
    memset(&desc->bag.table, 0, sizeof desc->bag.table);
    desc->layout = c->bag_layout;
    desc->data.type = CLG_QUANT_U8;
    desc->data.rank = 2;
    desc->data.shape[0] = c->data_shape[0];
    desc->data.shape[1] = bag_quant_row_bytes(c);
    desc->output_type = CLG_F32;
}

/* tables=T: T tables of data's shape back to back in one buffer (with layout=, T tables of its rows), indices
 * [T * B * K] (table t's bags after table t - 1's), offsets [T * B] table-major, output [B, T * D] (FBGEMM's
 * TBE forward; f32 where the tables are quantized). */
static void bag_batched_desc_of(const case_spec *c, case_inputs *in)
{
    clg_embedding_bag_tables_desc *desc = &in->bag_batched;
    memset(desc, 0, sizeof *desc);
    const int64_t T = c->bag_tables, N = c->data_shape[0], D = c->data_shape[1];
    const int64_t B = c->indices_shape[0], K = c->indices_shape[1];
    for (int64_t t = 0; t < T; ++t) {
        memset(&in->tables[t], 0, sizeof in->tables[t]);
        in->tables[t].rows = N;
        in->tables[t].width = D;
        if (c->bag_layout) {
            in->tables[t].quant_layout = (int32_t)c->bag_layout;
            in->tables[t].byte_offset = (uint64_t)(t * N * bag_quant_row_bytes(c));
        } else {
            in->tables[t].type = c->data_type;
            in->tables[t].byte_offset = (uint64_t)(t * N * D) * clg_dtype_size(c->data_type);
        }
    }
    desc->mode = c->bag_mode;
    desc->num_tables = (int32_t)T;
    desc->tables = in->tables;
    const int64_t flat = T * B * K, bags = T * B;
    tensor_of(&desc->indices, c->index_type, 1, &flat);
    tensor_of(&desc->offsets, c->index_type, 1, &bags);
}

/* The table-batched descriptor, its tables read from these inputs (a copy of them may outlive the original). */
static clg_embedding_bag_tables_desc batched_desc(const case_inputs *in)
{
    clg_embedding_bag_tables_desc d = in->bag_batched;
    d.tables = in->tables;
    return d;
}

/* The descriptors of a case (in->kind's own), and the byte sizes of its inputs and output. */
static clg_status describe(const case_spec *c, int64_t block_size, case_inputs *in)
{
    memset(in, 0, sizeof *in);
    in->kind = c->kind;
    clg_status st = CLG_SUCCESS;
    switch (c->kind) {
    case KIND_GATHER:
        gather_desc_of(c, &in->gather, &in->axis_value);
        if (in->gather.axis_tensor.type) in->gather.axis_value = &in->axis_value;
        in->count = 2;
        st = clg_gather_sizes(&in->gather, &in->bytes[0], &in->bytes[1], &in->out_bytes);
        break;
    case KIND_ELEMENTS:
    case KIND_ND:
        tensor_of(&in->elements.data, c->data_type, c->data_rank, c->data_shape);
        tensor_of(&in->elements.indices, c->index_type, c->indices_rank, c->indices_shape);
        in->elements.preset = (clg_gather_elements_preset)c->preset;
        in->elements.axis = c->axis;
        in->nd.data = in->elements.data;
        in->nd.indices = in->elements.indices;
        in->nd.preset = (clg_gather_nd_preset)c->preset;
        in->nd.batch_dims = c->batch_dims;
        in->count = 2;
        st = c->kind == KIND_ELEMENTS
                 ? clg_gather_elements_sizes(&in->elements, &in->bytes[0], &in->bytes[1], &in->out_bytes)
                 : clg_gather_nd_sizes(&in->nd, &in->bytes[0], &in->bytes[1], &in->out_bytes);
        break;
    case KIND_QUANT:
        quant_desc_of(c, block_size, &in->quant);
        in->count = 4;
        st = clg_gather_quantized_sizes(&in->quant, &in->bytes[0], &in->bytes[1], &in->bytes[2], &in->bytes[3],
                                        &in->out_bytes);
        break;
    case KIND_TREE: {
        tree_desc_of(c, &in->tree);
        const uint64_t ids = (uint64_t)(c->data_shape[0] * c->data_shape[1] * c->data_shape[2]) * 4;
        in->count = 4;
        in->bytes[0] = in->bytes[1] = ids;
        in->bytes[2] = (uint64_t)c->data_shape[1] * 4;
        in->bytes[3] = 4;
        in->out_bytes = ids;
        break;
    }
    case KIND_BAG:
        in->count = 4; /* table(s), indices, offsets (packed: none), per_sample_weights (none) */
        if (c->bag_tables > 1) {
            in->bag_call = 2;
            bag_batched_desc_of(c, in);
            const clg_embedding_bag_tables_desc d = batched_desc(in);
            st = clg_embedding_bag_tables_sizes(&d, &in->bytes[0], &in->bytes[1], &in->bytes[2], &in->bytes[3],
                                                &in->out_bytes);
        } else if (c->bag_layout) {
            in->bag_call = 1;
            bag_quant_desc_of(c, &in->bag_quant);
            st = clg_embedding_bag_quantized_sizes(&in->bag_quant, &in->bytes[0], NULL, NULL, &in->bytes[1],
                                                   &in->bytes[2], &in->bytes[3], &in->out_bytes);
        } else {
            bag_desc_of(c, &in->bag);
            st = clg_embedding_bag_sizes(&in->bag, &in->bytes[0], &in->bytes[1], &in->bytes[2], &in->bytes[3],
                                         &in->out_bytes);
        }
        break;
    }
    return st;
}

clg_status case_footprint_of(const case_spec *c, int64_t block_size, case_footprint *f)
{
    case_inputs in;
    const clg_status st = describe(c, block_size, &in);
    if (st != CLG_SUCCESS) return st;
    memset(f, 0, sizeof *f);
    for (int i = 0; i < in.count; ++i) {
        f->largest = in.bytes[i] > f->largest ? in.bytes[i] : f->largest;
        f->total += in.bytes[i];
    }
    f->largest = in.out_bytes > f->largest ? in.out_bytes : f->largest;
    f->total += in.out_bytes;
    switch (c->kind) {
    case KIND_QUANT: {
        /* indices read + the gathered rows' packed bytes, scales and zero points read + output written */
        const uint64_t index_count = in.bytes[1] / clg_dtype_size(c->index_type);
        const uint64_t row_bytes = (in.bytes[0] + in.bytes[2] + in.bytes[3]) / (uint64_t)c->data_shape[0];
        f->moved = in.bytes[1] + row_bytes * index_count + in.out_bytes;
        break;
    }
    case KIND_TREE: f->moved = 3 * in.bytes[0] + in.bytes[2] + 4; break; /* step ids + parents read, output written */
    case KIND_BAG: {
        /* indices and offsets read + every gathered row read (quantized: with its fields) + output written */
        const uint64_t index_count = in.bytes[1] / clg_dtype_size(c->index_type);
        const uint64_t row_bytes = in.bytes[0] / ((uint64_t)c->data_shape[0] * (uint64_t)c->bag_tables);
        f->moved = in.bytes[1] + in.bytes[2] + row_bytes * index_count + in.out_bytes;
        break;
    }
    default: f->moved = in.bytes[1] + 2 * in.out_bytes; /* indices read + gathered elements read + output written */
    }
    return CLG_SUCCESS;
}

/* ---------------------------------------------------------------------------------------------- */
/* Inputs                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* Fill bytes with the little-endian words of stream seed. */
static void fill_bytes(void *dst, size_t bytes, uint64_t seed)
{
    unsigned char *p = dst;
    const size_t words = bytes / 8;
    for (size_t i = 0; i < words; ++i) {
        const uint64_t v = splitmix_value(seed, i);
        for (int b = 0; b < 8; ++b) p[i * 8 + b] = (unsigned char)(v >> (8 * b));
    }
    if (bytes % 8) {
        const uint64_t v = splitmix_value(seed, words);
        for (size_t b = 0; b < bytes % 8; ++b) p[words * 8 + b] = (unsigned char)(v >> (8 * b));
    }
}

/* Index value v at element pos, as an integer of t's width (v is below the extent it indexes). */
static void store_index(void *base, clg_dtype t, size_t pos, uint64_t v)
{
    switch (clg_dtype_size(t)) {
    case 1: ((uint8_t *)base)[pos] = (uint8_t)v; break;
    case 2: ((uint16_t *)base)[pos] = (uint16_t)v; break;
    case 4: ((uint32_t *)base)[pos] = (uint32_t)v; break;
    default: ((uint64_t *)base)[pos] = v; break;
    }
}

static uint64_t fnv1a(const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

/* Finite f16 scales (random bits could be NaN, whose payload nothing promises to keep). */
static void finite_f16(unsigned char *p, size_t count, size_t stride)
{
    for (size_t i = 0; i < count; ++i) {
        const uint16_t bits = (uint16_t)(0x2000u | (splitmix_value(77, i) & 0x8FFFu));
        memcpy(p + i * stride, &bits, 2);
    }
}

/* The extent index i draws from: Gather the axis, GatherElements the axis, GatherND component i % m
 * against data.shape[batch_dims + i % m], the dequantizing gather the table's rows. */
static uint64_t index_extent(const case_spec *c, size_t i)
{
    if (c->kind == KIND_ND) {
        const int64_t m = c->indices_shape[c->indices_rank - 1];
        return (uint64_t)c->data_shape[c->batch_dims + (int64_t)(i % (size_t)m)];
    }
    return (uint64_t)c->data_shape[c->kind == KIND_QUANT ? 0 : c->axis];
}

static void fill_tree(const case_spec *c, case_inputs *in)
{
    const int64_t T = c->data_shape[0], B = c->data_shape[1], W = c->data_shape[2];
    const size_t n = (size_t)(T * B * W);
    int32_t *steps = in->host[0], *parents = in->host[1], *lens = in->host[2], *end_token = in->host[3];
    /* step ids in [0, 1000) (so end_token 0 appears now and then), parents in [0, W), lengths in [T/2, T] */
    for (size_t i = 0; i < n; ++i) steps[i] = (int32_t)(splitmix_value(c->seed, i) % 1000);
    for (size_t i = 0; i < n; ++i) parents[i] = (int32_t)(splitmix_value(c->seed + 1, i) % (uint64_t)W);
    for (int64_t b = 0; b < B; ++b)
        lens[b] = (int32_t)(T / 2 + (int64_t)(splitmix_value(c->seed + 2, (uint64_t)b) % (uint64_t)(T / 2 + 1)));
    *end_token = 0;
    in->index_fnv = fnv1a(parents, n * 4);
}

/* f16 bits of k / 64 (k in [-128, 127]): exact, a normal f16 or zero. */
static uint16_t f16_bits_of_64ths(int k)
{
    if (k == 0) return 0;
    const unsigned m = (unsigned)(k < 0 ? -k : k);
    int top = 0;
    while ((m >> (top + 1)) != 0) ++top;
    const unsigned exponent = (unsigned)(top - 6 + 15), mantissa = (m << (10 - top)) & 0x3FFu;
    return (uint16_t)((k < 0 ? 0x8000u : 0u) | (exponent << 10) | mantissa);
}

/* FBGEMM's rowwise tables (tables=T: T * N rows, table t's after table t - 1's): a row's packed values
 * (8-bit: D bytes; 4-bit: D / 2 bytes of two nibbles) from stream seed + 1's bytes, row r's at r times
 * their count, then its scale and bias (8-bit: f32; 4-bit: f16) from stream seed + 2's value v of row r:
 * scale 2^-(7 + (v & 3)), bias (int8)(v >> 8) / 64, both exact in f16, so that q * scale + bias and every
 * bag's sum are exact in f32. */
static void fill_bag_fbgemm_rows(const case_spec *c, unsigned char *rows)
{
    const int eight = c->bag_layout == CLG_QUANT_FBGEMM_8BIT_ROWWISE;
    const size_t N = (size_t)(c->data_shape[0] * c->bag_tables), D = (size_t)c->data_shape[1];
    const size_t packed = eight ? D : D / 2, row = packed + (eight ? 8 : 4);
    for (size_t i = 0; i < N * packed; ++i)
        rows[i / packed * row + i % packed] = (unsigned char)(splitmix_value(c->seed + 1, i / 8) >> (8 * (i % 8)));
    for (size_t r = 0; r < N; ++r) {
        const uint64_t v = splitmix_value(c->seed + 2, r);
        const int exponent = 7 + (int)(v & 3), bias_64ths = (int8_t)(uint8_t)(v >> 8);
        unsigned char *fields = rows + r * row + packed;
        if (eight) {
            const uint32_t scale_bits = (uint32_t)(127 - exponent) << 23;
            const float bias = (float)bias_64ths / 64.0f;
            memcpy(fields, &scale_bits, 4);
            memcpy(fields + 4, &bias, 4);
        } else {
            const uint16_t scale_bits = (uint16_t)((15 - exponent) << 10), bias_bits = f16_bits_of_64ths(bias_64ths);
            memcpy(fields, &scale_bits, 2);
            memcpy(fields + 2, &bias_bits, 2);
        }
    }
}

/* A ggml table: stream seed + 1's bytes, then every f16 field finite (d and m or dmin), as the
 * dequantizing gather's cases have them. */
static void fill_bag_ggml_rows(const case_spec *c, unsigned char *rows, size_t bytes)
{
    fill_bytes(rows, bytes, c->seed + 1);
    const size_t block = c->ggml_type->block_bytes;
    for (int f = 0; f < 2; ++f)
        if (c->ggml_type->f16_fields[f] != CLI_GGUF_NO_FIELD)
            finite_f16(rows + c->ggml_type->f16_fields[f], bytes / block, block);
}

/* An EmbeddingBag table (f32 or f64): value i is the 16-bit signed integer in the low bits of stream
 * seed + 1's value i, divided by 256. Every sum of up to 2^8 of them is exact in f32, so a bag's sum
 * comes out the same in any order and every peer's output can be compared bit for bit. */
static void fill_bag_table(const case_spec *c, case_inputs *in)
{
    if (c->bag_layout == CLG_QUANT_FBGEMM_8BIT_ROWWISE || c->bag_layout == CLG_QUANT_FBGEMM_4BIT_ROWWISE) {
        fill_bag_fbgemm_rows(c, in->host[0]);
        return;
    }
    if (c->bag_layout) {
        fill_bag_ggml_rows(c, in->host[0], (size_t)in->bytes[0]);
        return;
    }
    const size_t count = (size_t)in->bytes[0] / clg_dtype_size(c->data_type);
    for (size_t i = 0; i < count; ++i) {
        const float v = (float)(int16_t)(uint16_t)splitmix_value(c->seed + 1, i) / 256.0f;
        if (c->data_type == CLG_F64)
            ((double *)in->host[0])[i] = v;
        else
            ((float *)in->host[0])[i] = v;
    }
}

clg_status case_inputs_make(const case_spec *c, int64_t block_size, case_inputs *in)
{
    clg_status st = describe(c, block_size, in);
    if (st != CLG_SUCCESS) return st;
    for (int i = 0; i < in->count; ++i) {
        if (in->bytes[i] == 0) continue;
        in->host[i] = malloc((size_t)in->bytes[i]);
        if (!in->host[i]) {
            case_inputs_free(in);
            return CLG_ERR_OUT_OF_HOST_MEMORY;
        }
    }
    if (c->kind == KIND_TREE) {
        fill_tree(c, in);
        return CLG_SUCCESS;
    }
    if (c->kind == KIND_BAG)
        fill_bag_table(c, in);
    else
        fill_bytes(in->host[0], (size_t)in->bytes[0], c->seed + 1);
    if (c->kind == KIND_QUANT) {
        if (in->host[3]) fill_bytes(in->host[3], (size_t)in->bytes[3], c->seed + 2);
        if (c->layout == LAYOUT_GGML) { /* each block's d (and its dmin or m): finite */
            const size_t block = c->ggml_type->block_bytes;
            for (int f = 0; f < 2; ++f)
                if (c->ggml_type->f16_fields[f] != CLI_GGUF_NO_FIELD)
                    finite_f16((unsigned char *)in->host[0] + c->ggml_type->f16_fields[f], (size_t)in->bytes[0] / block,
                               block);
        } else
            finite_f16(in->host[2], (size_t)in->bytes[2] / 2, 2);
    }
    const size_t index_count = (size_t)in->bytes[1] / clg_dtype_size(c->index_type);
    for (size_t i = 0; i < index_count; ++i)
        store_index(in->host[1], c->index_type, i, splitmix_value(c->seed, i) % index_extent(c, i));
    if (c->kind == KIND_BAG && in->host[2]) /* offsets 0, K, 2K, ... (tables=T: T * B of them) */
        for (uint64_t b = 0; b < in->bytes[2] / clg_dtype_size(c->index_type); ++b)
            store_index(in->host[2], c->index_type, (size_t)b, b * (uint64_t)c->indices_shape[1]);
    in->index_fnv = fnv1a(in->host[1], (size_t)in->bytes[1]);
    return CLG_SUCCESS;
}

void case_inputs_free(case_inputs *in)
{
    for (int i = 0; i < CASE_MAX_INPUTS; ++i) {
        free(in->host[i]);
        in->host[i] = NULL;
    }
}

/* The gather descriptor, its axis tensor read from these inputs (a copy of them may outlive the original). */
static clg_gather_desc gather_desc(const case_inputs *in)
{
    clg_gather_desc d = in->gather;
    if (d.axis_tensor.type) d.axis_value = &in->axis_value;
    return d;
}

clg_status case_reference(const case_inputs *in, void *out)
{
    void *const *h = in->host;
    const uint64_t *n = in->bytes;
    const clg_gather_desc gather = gather_desc(in);
    switch (in->kind) {
    case KIND_GATHER: return clg_gather_reference(&gather, h[0], n[0], h[1], n[1], out, in->out_bytes);
    case KIND_ELEMENTS: return clg_gather_elements_reference(&in->elements, h[0], n[0], h[1], n[1], out, in->out_bytes);
    case KIND_ND: return clg_gather_nd_reference(&in->nd, h[0], n[0], h[1], n[1], out, in->out_bytes);
    case KIND_QUANT:
        return clg_gather_quantized_reference(&in->quant, h[0], n[0], h[1], n[1], h[2], n[2], h[3], n[3], out,
                                              in->out_bytes);
    case KIND_TREE:
        return clg_gather_tree_reference(&in->tree, h[0], n[0], h[1], n[1], h[2], n[2], h[3], n[3], out, in->out_bytes);
    case KIND_BAG:
        if (in->bag_call == 1)
            return clg_embedding_bag_quantized_reference(&in->bag_quant, h[0], n[0], NULL, 0, NULL, 0, h[1], n[1], h[2],
                                                         n[2], h[3], n[3], out, in->out_bytes);
        if (in->bag_call == 2) {
            const clg_embedding_bag_tables_desc d = batched_desc(in);
            return clg_embedding_bag_tables_reference(&d, h[0], n[0], h[1], n[1], h[2], n[2], h[3], n[3], out,
                                                      in->out_bytes);
        }
        return clg_embedding_bag_reference(&in->bag, h[0], n[0], h[1], n[1], h[2], n[2], h[3], n[3], out,
                                           in->out_bytes);
    }
    return CLG_ERR_INTERNAL;
}

clg_status case_enqueue(clg_context *ctx, const case_inputs *in, cl_command_queue queue, const cl_mem *b,
                        cl_event *done)
{
    const clg_gather_desc gather = gather_desc(in);
    switch (in->kind) {
    case KIND_GATHER: return clg_gather_enqueue(ctx, &gather, queue, b[0], 0, b[1], 0, b[2], 0, 0, NULL, done);
    case KIND_ELEMENTS:
        return clg_gather_elements_enqueue(ctx, &in->elements, queue, b[0], 0, b[1], 0, b[2], 0, 0, NULL, done);
    case KIND_ND: return clg_gather_nd_enqueue(ctx, &in->nd, queue, b[0], 0, b[1], 0, b[2], 0, 0, NULL, done);
    case KIND_QUANT:
        return clg_gather_quantized_enqueue(ctx, &in->quant, queue, b[0], 0, b[1], 0, b[2], 0, b[3], 0, b[4], 0, 0,
                                            NULL, done);
    case KIND_TREE:
        return clg_gather_tree_enqueue(ctx, &in->tree, queue, b[0], 0, b[1], 0, b[2], 0, b[3], 0, b[4], 0, 0, NULL,
                                       done);
    case KIND_BAG:
        if (in->bag_call == 1)
            return clg_embedding_bag_quantized_enqueue(ctx, &in->bag_quant, queue, b[0], 0, NULL, 0, NULL, 0, b[1], 0,
                                                       b[2], 0, b[3], 0, b[4], 0, 0, NULL, done);
        if (in->bag_call == 2) {
            const clg_embedding_bag_tables_desc d = batched_desc(in);
            return clg_embedding_bag_tables_enqueue(ctx, &d, queue, b[0], 0, b[1], 0, b[2], 0, b[3], 0, b[4], 0, 0,
                                                    NULL, done);
        }
        return clg_embedding_bag_enqueue(ctx, &in->bag, queue, b[0], 0, b[1], 0, b[2], 0, b[3], 0, b[4], 0, 0, NULL,
                                         done);
    }
    return CLG_ERR_INTERNAL;
}

const char case_copy_kernel_source[] =
    "__kernel void copy16(__global const uint4 *restrict src, __global uint4 *restrict dst)\n"
    "{ size_t i = get_global_id(0); dst[i] = src[i]; }\n";

/* case_table_builtin, generated from bench/cases.txt */
#include "case_table_text.h"
