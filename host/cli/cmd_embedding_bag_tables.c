/* clgather embedding-bag-tables: one table-batched EmbeddingBag (FBGEMM's TBE forward) over .npy files.
 * --tables lists the tables' files, comma-separated, each [N_t, ...] of a float type (trailing
 * dimensions flattened into rows of D_t); they are laid out one after the other in one buffer, as the
 * call takes them. --layouts names each table's layout, comma-separated in the same order: "plain" for a
 * float table, else a layout whose rows hold their scales (ggml's, FBGEMM's), the file then uint8
 * [N_t, bytes a row] as gather-quantized takes it; --output-type f32, f16 or bf16 (the call's rule where
 * absent). bf16 tables, weights and output travel as uint16 files of their bits (--table-type bf16: every
 * plain table), since NumPy has no bf16. */
#include "cli_args.h"
#include "cli_error.h"
#include "commands.h"
#include "npy.h"
#include "quant_table_args.h"

#include <stdlib.h>
#include <string.h>

enum {
    OPT_TABLES,
    OPT_TABLE_TYPE,
    OPT_LAYOUTS,
    OPT_OUTPUT_TYPE,
    OPT_INDICES,
    OPT_OFFSETS,
    OPT_INCLUDE_LAST_OFFSET,
    OPT_MODE,
    OPT_WEIGHTS,
    OPT_DEVICE,
    OPT_VERIFY,
    OPT_OUT,
    OPT_COUNT
};

enum { INPUT_INDICES, INPUT_OFFSETS, INPUT_WEIGHTS, INPUT_COUNT };

static const char *const command = "embedding-bag-tables";

/* The tables' files, read and laid out in one buffer (each at a multiple of 8 bytes). */
typedef struct table_set {
    int count;
    clg_embedding_bag_table *layout;
    unsigned char *bytes;
    size_t byte_size;
} table_set;

static void table_set_free(table_set *s)
{
    free(s->layout);
    free(s->bytes);
    memset(s, 0, sizeof *s);
}

/* Entry `t` of a comma-separated list (the whole text for t = 0 of a list without commas), into buf. */
static int list_entry(const char *list, int t, char *buf, size_t size)
{
    const char *p = list;
    for (int k = 0; k < t && p; ++k) {
        p = strchr(p, ',');
        if (p) ++p;
    }
    if (!p) return 0;
    const size_t n = strcspn(p, ",");
    if (n >= size) return 0;
    memcpy(buf, p, n);
    buf[n] = '\0';
    return 1;
}

/* Table t's layout from --layouts ("plain" or absent: a float table), its width for a quantized one: the
 * values a row the dequantizing gather finds in its u8 [N, bytes] rows. */
static int describe_table(const char *layouts, int t, const cli_tensor *table, const char *name,
                          clg_embedding_bag_table *e)
{
    char text[64] = "plain";
    if (layouts && !list_entry(layouts, t, text, sizeof text))
        return cli_fail(CLI_EXIT_USAGE, "%s: --layouts has no entry for table %d ('%s')", command, t, name);
    if (strcmp(text, "plain") == 0) return 0;
    clg_quant_layout layout;
    if (cli_parse_layout(command, text, &layout) != 0) return CLI_EXIT_USAGE;
    if (table->type != CLG_U8 || table->rank != 2)
        return cli_fail(CLI_EXIT_REFUSED, "table '%s' (%s) must be uint8 [rows, bytes a row], not %s of rank %d", name,
                        text, clg_dtype_name(table->type), (int)table->rank);
    clg_gather_quantized_desc g = {.layout = layout, .gather_axis = 0, .output_type = CLG_F32};
    g.data.type = CLG_QUANT_U8;
    g.data.rank = 2;
    g.data.shape[0] = table->shape[0];
    g.data.shape[1] = table->shape[1];
    g.indices.type = CLG_I64;
    g.indices.rank = 1;
    g.indices.shape[0] = 1;
    int32_t rank = 0;
    int64_t shape[CLG_MAX_OUTPUT_RANK];
    shape[1] = 0; /* ONNX Runtime's and OpenVINO's layouts: the call refuses them, naming why */
    if (cli_layout_is_ggml(layout)) {
        const clg_status st = clg_gather_quantized_output_shape(&g, &rank, shape, NULL);
        if (st != CLG_SUCCESS) return cli_fail_status(st, "%s: table '%s' as %s", command, name, text);
    }
    e->type = CLG_DTYPE_INVALID;
    e->quant_layout = (int32_t)layout;
    e->width = shape[1];
    return 0;
}

/* Read each comma-separated file of `list` and append it to the set. */
static int read_tables(const char *list, const char *layouts, int bf16, table_set *s)
{
    int count = 1;
    for (const char *p = list; *p; ++p) count += *p == ',';
    char *names = malloc(strlen(list) + 1);
    s->layout = calloc((size_t)count, sizeof *s->layout);
    if (!names || !s->layout) {
        free(names);
        return cli_fail(CLI_EXIT_REFUSED, "%s: out of host memory for %d tables", command, count);
    }
    strcpy(names, list);
    int rc = 0;
    char *name = names;
    for (int t = 0; t < count && rc == 0; ++t) {
        char *comma = strchr(name, ',');
        if (comma) *comma = '\0';
        cli_tensor table = {0};
        clg_embedding_bag_table *e = &s->layout[t];
        rc = cli_npy_read("table", name, &table);
        if (rc == 0 && table.rank < 1)
            rc = cli_fail(CLI_EXIT_REFUSED, "table '%s' is a scalar: a table has rows", name);
        if (rc == 0) rc = describe_table(layouts, t, &table, name, e);
        if (rc == 0 && bf16 && !e->quant_layout && table.type != CLG_U16)
            rc = cli_fail(CLI_EXIT_REFUSED, "table '%s' holds %s; a bf16 table is stored as u16 bits", name,
                          clg_dtype_name(table.type));
        const size_t at = (s->byte_size + 7) / 8 * 8;
        unsigned char *grown = rc == 0 ? realloc(s->bytes, at + table.byte_size + 1) : NULL;
        if (rc == 0 && !grown) rc = cli_fail(CLI_EXIT_REFUSED, "%s: out of host memory for table '%s'", command, name);
        if (rc == 0) {
            s->bytes = grown;
            memset(s->bytes + s->byte_size, 0, at - s->byte_size);
            memcpy(s->bytes + at, table.bytes, table.byte_size);
            s->byte_size = at + table.byte_size;
            e->rows = table.shape[0];
            if (!e->quant_layout) {
                e->type = bf16 ? CLG_BF16 : table.type;
                e->width = 1;
                for (int32_t d = 1; d < table.rank; ++d) e->width *= table.shape[d];
            }
            e->byte_offset = at;
            s->count = t + 1;
        }
        cli_tensor_free(&table);
        name = comma ? comma + 1 : name + strlen(name);
    }
    free(names);
    return rc;
}

static int run_tables(cli_option *o, table_set *tables, cli_tensor in[INPUT_COUNT], cli_tensor *output)
{
    static const int required[] = {OPT_TABLES, OPT_INDICES, OPT_OFFSETS, OPT_OUT};
    for (int i = 0; i < 4; ++i)
        if (!o[required[i]].value)
            return cli_fail(CLI_EXIT_USAGE, "%s: --%s is required", command, o[required[i]].name);
    clg_embedding_bag_tables_desc desc = {0};
    if (o[OPT_MODE].value) {
        desc.mode = clg_bag_mode_from_name(o[OPT_MODE].value);
        if (desc.mode == CLG_BAG_MODE_COUNT)
            return cli_fail(CLI_EXIT_USAGE, "%s: --mode must be sum, mean or max, not '%s'", command,
                            o[OPT_MODE].value);
    }
    const int bf16 = o[OPT_TABLE_TYPE].value != NULL;
    if (bf16 && strcmp(o[OPT_TABLE_TYPE].value, "bf16") != 0)
        return cli_fail(CLI_EXIT_USAGE, "%s: --table-type takes only bf16 (uint16 bits), not '%s'", command,
                        o[OPT_TABLE_TYPE].value);
    if (cli_parse_output_type(command, o[OPT_OUTPUT_TYPE].value, &desc.output_type) != 0) return CLI_EXIT_USAGE;
    const int read = read_tables(o[OPT_TABLES].value, o[OPT_LAYOUTS].value, bf16, tables);
    if (read != 0) return read;
    if (cli_npy_read("indices", o[OPT_INDICES].value, &in[INPUT_INDICES]) != 0 ||
        cli_npy_read("offsets", o[OPT_OFFSETS].value, &in[INPUT_OFFSETS]) != 0 ||
        (o[OPT_WEIGHTS].value && cli_npy_read("weights", o[OPT_WEIGHTS].value, &in[INPUT_WEIGHTS]) != 0))
        return CLI_EXIT_REFUSED;
    desc.num_tables = tables->count;
    desc.tables = tables->layout;
    desc.indices = cli_tensor_desc(&in[INPUT_INDICES]);
    desc.offsets = cli_tensor_desc(&in[INPUT_OFFSETS]);
    desc.include_last_offset = o[OPT_INCLUDE_LAST_OFFSET].value != NULL;
    if (o[OPT_WEIGHTS].value) desc.per_sample_weights = cli_tensor_desc(&in[INPUT_WEIGHTS]);
    if (bf16 && o[OPT_WEIGHTS].value && in[INPUT_WEIGHTS].type == CLG_U16) desc.per_sample_weights.type = CLG_BF16;
    int32_t out_rank = 0;
    int64_t out_shape[CLG_MAX_OUTPUT_RANK];
    clg_status st = clg_embedding_bag_tables_output_shape(&desc, &out_rank, out_shape);
    if (st != CLG_SUCCESS)
        return cli_fail_status(st, "%s on tables '%s' and indices '%s'", command, o[OPT_TABLES].value,
                               o[OPT_INDICES].value);
    clg_dtype type = CLG_F32;
    clg_embedding_bag_tables_output_type(&desc, &type);           /* validated by output_shape above */
    const clg_dtype out_type = type == CLG_BF16 ? CLG_U16 : type; /* bf16 results as their uint16 bits */
    if (cli_tensor_alloc(output, out_type, out_rank, out_shape, "output") != 0) return CLI_EXIT_REFUSED;
    clg_context *ctx = NULL;
    if (cli_open_context(o[OPT_DEVICE].value, o[OPT_VERIFY].value != NULL, &ctx) != 0) return CLI_EXIT_REFUSED;
    clg_device_info info;
    const char *device = cli_device_name(ctx, &info);
    st = clg_embedding_bag_tables(ctx, &desc, tables->bytes, tables->byte_size, in[INPUT_INDICES].bytes,
                                  in[INPUT_INDICES].byte_size, in[INPUT_OFFSETS].bytes, in[INPUT_OFFSETS].byte_size,
                                  in[INPUT_WEIGHTS].bytes, in[INPUT_WEIGHTS].byte_size, output->bytes,
                                  output->byte_size);
    int rc = 0;
    if (st != CLG_SUCCESS)
        rc = cli_fail_status(st, "%s on tables '%s' and indices '%s' (device %s)", command, o[OPT_TABLES].value,
                             o[OPT_INDICES].value, device);
    clg_context_release(ctx);
    if (rc != 0) return rc;
    return cli_npy_write(o[OPT_OUT].value, output);
}

int cmd_embedding_bag_tables(int argc, char **argv)
{
    cli_option options[OPT_COUNT] = {
        [OPT_TABLES] = {"tables", 1, NULL},
        [OPT_TABLE_TYPE] = {"table-type", 1, NULL},
        [OPT_LAYOUTS] = {"layouts", 1, NULL},
        [OPT_OUTPUT_TYPE] = {"output-type", 1, NULL},
        [OPT_INDICES] = {"indices", 1, NULL},
        [OPT_OFFSETS] = {"offsets", 1, NULL},
        [OPT_INCLUDE_LAST_OFFSET] = {"include-last-offset", 0, NULL},
        [OPT_MODE] = {"mode", 1, NULL},
        [OPT_WEIGHTS] = {"weights", 1, NULL},
        [OPT_DEVICE] = {"device", 1, NULL},
        [OPT_VERIFY] = {"verify", 0, NULL},
        [OPT_OUT] = {"out", 1, NULL},
    };
    int rc = cli_parse_options(command, argc, argv, options, OPT_COUNT, NULL, NULL, 0);
    if (rc != 0) return rc;
    table_set tables = {0};
    cli_tensor in[INPUT_COUNT] = {{0}}, output = {0};
    rc = run_tables(options, &tables, in, &output);
    cli_tensor_free(&output);
    for (int i = INPUT_COUNT - 1; i >= 0; --i) cli_tensor_free(&in[i]);
    table_set_free(&tables);
    return rc;
}
