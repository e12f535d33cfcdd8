/* clgather embedding-bag: one EmbeddingBag over .npy files. The bag form follows from the files given:
 * --offsets (offsets form), --segment-ids with --num-segments (segments form), neither (packed: 2-D
 * indices). Tables of f32, f16 or f64; bf16 tables, weights and outputs travel as uint16 files of their
 * bits (--table-type bf16), since NumPy has no bf16. With --layout L the table is quantized: --table is
 * its data, with --data-type, --data-shape, --scales, --scales-type, --zero-points, --zero-points-shape,
 * --bits and --block-size as gather-quantized takes them, weights f32, and --output-type f32 (the
 * default), f16 or bf16 (written as uint16 bits). */
#include "cli_args.h"
#include "cli_error.h"
#include "commands.h"
#include "npy.h"
#include "quant_table_args.h"

#include <string.h>

enum {
    OPT_OP,
    OPT_TABLE,
    OPT_TABLE_TYPE,
    OPT_INDICES,
    OPT_OFFSETS,
    OPT_SEGMENT_IDS,
    OPT_NUM_SEGMENTS,
    OPT_MODE,
    OPT_WEIGHTS,
    OPT_DEFAULT_INDEX,
    OPT_PADDING_IDX,
    OPT_INCLUDE_LAST_OFFSET,
    OPT_DEVICE,
    OPT_VERIFY,
    OPT_OUT,
    OPT_LAYOUT,
    OPT_DATA_TYPE,
    OPT_DATA_SHAPE,
    OPT_SCALES,
    OPT_SCALES_TYPE,
    OPT_ZERO_POINTS,
    OPT_ZERO_POINTS_SHAPE,
    OPT_BITS,
    OPT_BLOCK_SIZE,
    OPT_OUTPUT_TYPE,
    OPT_COUNT
};

enum { INPUT_TABLE, INPUT_INDICES, INPUT_BAGS, INPUT_WEIGHTS, INPUT_SCALES, INPUT_ZERO_POINTS, INPUT_COUNT };

static const char *const command = "embedding-bag";

/* Preset, mode, bag form and the scalar options. */
static int parse_desc(cli_option *o, clg_embedding_bag_desc *desc)
{
    static const int required[] = {OPT_OP, OPT_TABLE, OPT_INDICES, OPT_OUT};
    for (int i = 0; i < 4; ++i)
        if (!o[required[i]].value)
            return cli_fail(CLI_EXIT_USAGE, "%s: --%s is required", command, o[required[i]].name);
    memset(desc, 0, sizeof *desc);
    desc->preset = clg_embedding_bag_preset_from_name(o[OPT_OP].value);
    if (desc->preset == CLG_EMBEDDING_BAG_PRESET_INVALID)
        return cli_fail(CLI_EXIT_USAGE,
                        "%s: unknown --op '%s' (ov-embedding-bag-offsets-3, ov-embedding-bag-offsets-15, "
                        "ov-embedding-bag-packed-3, ov-embedding-bag-packed-15, ov-embedding-segments-sum-3, "
                        "torch-embedding-bag)",
                        command, o[OPT_OP].value);
    if (o[OPT_MODE].value) {
        desc->mode = clg_bag_mode_from_name(o[OPT_MODE].value);
        if (desc->mode == CLG_BAG_MODE_COUNT)
            return cli_fail(CLI_EXIT_USAGE, "%s: --mode must be sum, mean or max, not '%s'", command,
                            o[OPT_MODE].value);
    }
    if (o[OPT_OFFSETS].value && o[OPT_SEGMENT_IDS].value)
        return cli_fail(CLI_EXIT_USAGE, "%s: --offsets and --segment-ids exclude each other", command);
    if (!o[OPT_SEGMENT_IDS].value != !o[OPT_NUM_SEGMENTS].value)
        return cli_fail(CLI_EXIT_USAGE, "%s: --segment-ids and --num-segments go together", command);
    desc->bag_form = o[OPT_OFFSETS].value       ? CLG_BAG_OFFSETS
                     : o[OPT_SEGMENT_IDS].value ? CLG_BAG_SEGMENTS
                                                : CLG_BAG_PACKED;
    desc->include_last_offset = o[OPT_INCLUDE_LAST_OFFSET].value != NULL;
    desc->has_default_index = o[OPT_DEFAULT_INDEX].value != NULL;
    desc->has_padding_idx = o[OPT_PADDING_IDX].value != NULL;
    if (cli_parse_int64_option(command, "num-segments", o[OPT_NUM_SEGMENTS].value, &desc->num_segments) != 0 ||
        cli_parse_int64_option(command, "default-index", o[OPT_DEFAULT_INDEX].value, &desc->default_index) != 0 ||
        cli_parse_int64_option(command, "padding-idx", o[OPT_PADDING_IDX].value, &desc->padding_idx) != 0)
        return CLI_EXIT_USAGE;
    return 0;
}

/* Read the files given into in[] and describe them in desc. */
static int read_inputs(cli_option *o, clg_embedding_bag_desc *desc, cli_tensor in[INPUT_COUNT])
{
    const int bags_option = desc->bag_form == CLG_BAG_SEGMENTS ? OPT_SEGMENT_IDS : OPT_OFFSETS;
    if ((!o[OPT_LAYOUT].value && cli_npy_read("table", o[OPT_TABLE].value, &in[INPUT_TABLE]) != 0) ||
        cli_npy_read("indices", o[OPT_INDICES].value, &in[INPUT_INDICES]) != 0 ||
        (o[bags_option].value && cli_npy_read(o[bags_option].name, o[bags_option].value, &in[INPUT_BAGS]) != 0) ||
        (o[OPT_WEIGHTS].value && cli_npy_read("weights", o[OPT_WEIGHTS].value, &in[INPUT_WEIGHTS]) != 0))
        return CLI_EXIT_REFUSED;
    if (!o[OPT_LAYOUT].value) desc->table = cli_tensor_desc(&in[INPUT_TABLE]);
    desc->indices = cli_tensor_desc(&in[INPUT_INDICES]);
    if (desc->bag_form == CLG_BAG_OFFSETS) desc->offsets = cli_tensor_desc(&in[INPUT_BAGS]);
    if (desc->bag_form == CLG_BAG_SEGMENTS) desc->segment_ids = cli_tensor_desc(&in[INPUT_BAGS]);
    if (o[OPT_WEIGHTS].value) desc->per_sample_weights = cli_tensor_desc(&in[INPUT_WEIGHTS]);
    if (!o[OPT_TABLE_TYPE].value) return 0;
    if (o[OPT_LAYOUT].value)
        return cli_fail(CLI_EXIT_USAGE,
                        "%s: --table-type is for float tables; a quantized table's data is read as "
                        "--data-type gives it",
                        command);
    if (strcmp(o[OPT_TABLE_TYPE].value, "bf16") != 0)
        return cli_fail(CLI_EXIT_USAGE, "%s: --table-type takes only bf16 (uint16 bits), not '%s'", command,
                        o[OPT_TABLE_TYPE].value);
    if (in[INPUT_TABLE].type != CLG_U16)
        return cli_fail(CLI_EXIT_REFUSED, "table '%s' holds %s; a bf16 table is stored as u16 bits", o[OPT_TABLE].value,
                        clg_dtype_name(in[INPUT_TABLE].type));
    desc->table.type = CLG_BF16;
    if (o[OPT_WEIGHTS].value && in[INPUT_WEIGHTS].type == CLG_U16) desc->per_sample_weights.type = CLG_BF16;
    return 0;
}

static int run_embedding_bag(cli_option *o, cli_tensor in[INPUT_COUNT], cli_tensor *output)
{
    clg_embedding_bag_desc desc;
    int rc = parse_desc(o, &desc);
    if (rc == 0) rc = read_inputs(o, &desc, in);
    if (rc != 0) return rc;
    int32_t out_rank = 0;
    int64_t out_shape[CLG_MAX_OUTPUT_RANK];
    clg_status st = clg_embedding_bag_output_shape(&desc, &out_rank, out_shape);
    if (st != CLG_SUCCESS)
        return cli_fail_status(st, "%s %s on table '%s' and indices '%s'", command, o[OPT_OP].value, o[OPT_TABLE].value,
                               o[OPT_INDICES].value);
    /* bf16 results are written as their uint16 bits */
    const clg_dtype out_type = desc.table.type == CLG_BF16 ? CLG_U16 : desc.table.type;
    if (cli_tensor_alloc(output, out_type, out_rank, out_shape, "output") != 0) return CLI_EXIT_REFUSED;
    clg_context *ctx = NULL;
    if (cli_open_context(o[OPT_DEVICE].value, o[OPT_VERIFY].value != NULL, &ctx) != 0) return CLI_EXIT_REFUSED;
    clg_device_info info;
    const char *device = cli_device_name(ctx, &info);
    st = clg_embedding_bag(ctx, &desc, in[INPUT_TABLE].bytes, in[INPUT_TABLE].byte_size, in[INPUT_INDICES].bytes,
                           in[INPUT_INDICES].byte_size, in[INPUT_BAGS].bytes, in[INPUT_BAGS].byte_size,
                           in[INPUT_WEIGHTS].bytes, in[INPUT_WEIGHTS].byte_size, output->bytes, output->byte_size);
    if (st != CLG_SUCCESS)
        rc = cli_fail_status(st, "%s %s on table '%s' and indices '%s' (device %s)", command, o[OPT_OP].value,
                             o[OPT_TABLE].value, o[OPT_INDICES].value, device);
    clg_context_release(ctx);
    if (rc != 0) return rc;
    return cli_npy_write(o[OPT_OUT].value, output);
}

/* The options only a quantized table takes. */
static const int quantized_only[] = {OPT_DATA_TYPE,   OPT_DATA_SHAPE,  OPT_SCALES,
                                     OPT_SCALES_TYPE, OPT_ZERO_POINTS, OPT_ZERO_POINTS_SHAPE,
                                     OPT_BITS,        OPT_BLOCK_SIZE,  OPT_OUTPUT_TYPE};

/* --layout: the quantized table's part of the descriptor, its files read into in[]. */
static int read_quantized_table(cli_option *o, cli_tensor in[INPUT_COUNT], clg_embedding_bag_quantized_desc *q)
{
    if (cli_parse_layout(command, o[OPT_LAYOUT].value, &q->layout) != 0) return CLI_EXIT_USAGE;
    int64_t bits = 0;
    if (cli_parse_int64_option(command, "bits", o[OPT_BITS].value, &bits) != 0 ||
        cli_parse_int64_option(command, "block-size", o[OPT_BLOCK_SIZE].value, &q->block_size) != 0 ||
        cli_parse_output_type(command, o[OPT_OUTPUT_TYPE].value, &q->output_type) != 0)
        return CLI_EXIT_USAGE;
    if (bits < 0 || bits > 64)
        return cli_fail(CLI_EXIT_USAGE, "%s: --bits %lld is not 2, 4 or 8", command, (long long)bits);
    q->bits = (int32_t)bits;
    const cli_quant_table_options table_options = {
        o[OPT_TABLE].value,       o[OPT_DATA_TYPE].value,   o[OPT_DATA_SHAPE].value,       o[OPT_SCALES].value,
        o[OPT_SCALES_TYPE].value, o[OPT_ZERO_POINTS].value, o[OPT_ZERO_POINTS_SHAPE].value};
    const cli_quant_table table = {&in[INPUT_TABLE], &in[INPUT_SCALES], &in[INPUT_ZERO_POINTS],
                                   &q->data,         &q->zero_points,   &q->scales};
    return cli_read_quant_table(command, q->layout, &table_options, &table);
}

static int run_quantized(cli_option *o, cli_tensor in[INPUT_COUNT], cli_tensor *output)
{
    clg_embedding_bag_quantized_desc q;
    memset(&q, 0, sizeof q);
    int rc = parse_desc(o, &q.bag);
    if (rc == 0) rc = read_quantized_table(o, in, &q);
    if (rc == 0) rc = read_inputs(o, &q.bag, in);
    if (rc != 0) return rc;
    int32_t out_rank = 0;
    int64_t out_shape[CLG_MAX_OUTPUT_RANK];
    clg_dtype out_type = CLG_DTYPE_INVALID;
    clg_status st = clg_embedding_bag_quantized_output_shape(&q, &out_rank, out_shape, &out_type);
    if (st != CLG_SUCCESS)
        return cli_fail_status(st, "%s %s on %s table '%s' and indices '%s'", command, o[OPT_OP].value,
                               o[OPT_LAYOUT].value, o[OPT_TABLE].value, o[OPT_INDICES].value);
    /* bf16 results are written as their uint16 bits */
    if (cli_tensor_alloc(output, out_type == CLG_BF16 ? CLG_U16 : out_type, out_rank, out_shape, "output") != 0)
        return CLI_EXIT_REFUSED;
    clg_context *ctx = NULL;
    if (cli_open_context(o[OPT_DEVICE].value, o[OPT_VERIFY].value != NULL, &ctx) != 0) return CLI_EXIT_REFUSED;
    clg_device_info info;
    const char *device = cli_device_name(ctx, &info);
    const cli_tensor *zp = &in[INPUT_ZERO_POINTS];
    st = clg_embedding_bag_quantized(ctx, &q, in[INPUT_TABLE].bytes, in[INPUT_TABLE].byte_size, in[INPUT_SCALES].bytes,
                                     in[INPUT_SCALES].byte_size, o[OPT_ZERO_POINTS].value ? zp->bytes : NULL,
                                     zp->byte_size, in[INPUT_INDICES].bytes, in[INPUT_INDICES].byte_size,
                                     in[INPUT_BAGS].bytes, in[INPUT_BAGS].byte_size, in[INPUT_WEIGHTS].bytes,
                                     in[INPUT_WEIGHTS].byte_size, output->bytes, output->byte_size);
    if (st != CLG_SUCCESS)
        rc = cli_fail_status(st, "%s %s on %s table '%s' and indices '%s' (device %s)", command, o[OPT_OP].value,
                             o[OPT_LAYOUT].value, o[OPT_TABLE].value, o[OPT_INDICES].value, device);
    clg_context_release(ctx);
    if (rc != 0) return rc;
    return cli_npy_write(o[OPT_OUT].value, output);
}

int cmd_embedding_bag(int argc, char **argv)
{
    cli_option options[OPT_COUNT] = {
        [OPT_OP] = {"op", 1, NULL},
        [OPT_TABLE] = {"table", 1, NULL},
        [OPT_TABLE_TYPE] = {"table-type", 1, NULL},
        [OPT_INDICES] = {"indices", 1, NULL},
        [OPT_OFFSETS] = {"offsets", 1, NULL},
        [OPT_SEGMENT_IDS] = {"segment-ids", 1, NULL},
        [OPT_NUM_SEGMENTS] = {"num-segments", 1, NULL},
        [OPT_MODE] = {"mode", 1, NULL},
        [OPT_WEIGHTS] = {"weights", 1, NULL},
        [OPT_DEFAULT_INDEX] = {"default-index", 1, NULL},
        [OPT_PADDING_IDX] = {"padding-idx", 1, NULL},
        [OPT_INCLUDE_LAST_OFFSET] = {"include-last-offset", 0, NULL},
        [OPT_DEVICE] = {"device", 1, NULL},
        [OPT_VERIFY] = {"verify", 0, NULL},
        [OPT_OUT] = {"out", 1, NULL},
        [OPT_LAYOUT] = {"layout", 1, NULL},
        [OPT_DATA_TYPE] = {"data-type", 1, NULL},
        [OPT_DATA_SHAPE] = {"data-shape", 1, NULL},
        [OPT_SCALES] = {"scales", 1, NULL},
        [OPT_SCALES_TYPE] = {"scales-type", 1, NULL},
        [OPT_ZERO_POINTS] = {"zero-points", 1, NULL},
        [OPT_ZERO_POINTS_SHAPE] = {"zero-points-shape", 1, NULL},
        [OPT_BITS] = {"bits", 1, NULL},
        [OPT_BLOCK_SIZE] = {"block-size", 1, NULL},
        [OPT_OUTPUT_TYPE] = {"output-type", 1, NULL},
    };
    int rc = cli_parse_options(command, argc, argv, options, OPT_COUNT, NULL, NULL, 0);
    if (rc != 0) return rc;
    if (!options[OPT_LAYOUT].value)
        for (size_t i = 0; i < sizeof quantized_only / sizeof quantized_only[0]; ++i)
            if (options[quantized_only[i]].value)
                return cli_fail(CLI_EXIT_USAGE, "%s: --%s is for a quantized table (--layout)", command,
                                options[quantized_only[i]].name);
    cli_tensor in[INPUT_COUNT] = {{0}}, output = {0};
    rc = options[OPT_LAYOUT].value ? run_quantized(options, in, &output) : run_embedding_bag(options, in, &output);
    cli_tensor_free(&output);
    for (int i = INPUT_COUNT - 1; i >= 0; --i) cli_tensor_free(&in[i]);
    return rc;
}
