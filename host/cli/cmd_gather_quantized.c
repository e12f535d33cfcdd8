/* clgather gather-quantized: one dequantizing gather over .npy files, or over a tensor of a GGUF file
 * (--gguf FILE --tensor NAME: its ggml type is the layout, its bytes are read where the file is
 * mapped). 4-bit tensors travel as uint8 arrays of their packed bytes (their logical shape given by a
 * flag), ONNX Runtime's 2-bit values as the uint8 bytes the model holds (--bits 2); bf16 scales and outputs as uint16 arrays of their bits, since NumPy has no bf16. */
#include "cli_args.h"
#include "cli_error.h"
#include "commands.h"
#include "gguf.h"
#include "npy.h"
#include "quant_table_args.h"

#include <stdio.h>
#include <string.h>

enum {
    OPT_LAYOUT,
    OPT_DATA,
    OPT_DATA_TYPE,
    OPT_DATA_SHAPE,
    OPT_INDICES,
    OPT_SCALES,
    OPT_SCALES_TYPE,
    OPT_ZERO_POINTS,
    OPT_ZERO_POINTS_SHAPE,
    OPT_BITS,
    OPT_BLOCK_SIZE,
    OPT_GATHER_AXIS,
    OPT_QUANTIZE_AXIS,
    OPT_OUTPUT_TYPE,
    OPT_OOB,
    OPT_DEVICE,
    OPT_VERIFY,
    OPT_OUT,
    OPT_GGUF,
    OPT_TENSOR,
    OPT_COUNT
};

enum { INPUT_DATA, INPUT_INDICES, INPUT_SCALES, INPUT_ZERO_POINTS, INPUT_COUNT };

static const char *const command = "gather-quantized";

/* Check that a file holds exactly the bytes the descriptor calls for. */
static int check_bytes(const char *what, const char *path, const cli_tensor *t, uint64_t want)
{
    if (t->byte_size != want)
        return cli_fail(CLI_EXIT_REFUSED, "%s '%s' holds %zu bytes; the descriptor calls for %llu", what, path,
                        t->byte_size, (unsigned long long)want);
    return 0;
}

static int build_desc(cli_option *o, cli_tensor in[INPUT_COUNT], clg_gather_quantized_desc *desc)
{
    memset(desc, 0, sizeof *desc);
    if (cli_parse_layout(command, o[OPT_LAYOUT].value, &desc->layout) != 0) return CLI_EXIT_USAGE;
    int64_t bits = 0, quantize_axis = 1;
    if (cli_parse_int64_option(command, "bits", o[OPT_BITS].value, &bits) != 0 ||
        cli_parse_int64_option(command, "block-size", o[OPT_BLOCK_SIZE].value, &desc->block_size) != 0 ||
        cli_parse_int64_option(command, "gather-axis", o[OPT_GATHER_AXIS].value, &desc->gather_axis) != 0 ||
        cli_parse_int64_option(command, "quantize-axis", o[OPT_QUANTIZE_AXIS].value, &quantize_axis) != 0 ||
        cli_parse_output_type(command, o[OPT_OUTPUT_TYPE].value, &desc->output_type) != 0 ||
        cli_parse_oob(command, o[OPT_OOB].value, &desc->oob_policy) != 0)
        return CLI_EXIT_USAGE;
    if (bits < 0 || bits > 64)
        return cli_fail(CLI_EXIT_USAGE, "%s: --bits %lld is not 2, 4 or 8", command, (long long)bits);
    desc->bits = (int32_t)bits;
    desc->quantize_axis = quantize_axis; /* ONNX Runtime's default, 1, when absent */
    const cli_quant_table_options table_options = {
        o[OPT_DATA].value,        o[OPT_DATA_TYPE].value,   o[OPT_DATA_SHAPE].value,       o[OPT_SCALES].value,
        o[OPT_SCALES_TYPE].value, o[OPT_ZERO_POINTS].value, o[OPT_ZERO_POINTS_SHAPE].value};
    const cli_quant_table table = {&in[INPUT_DATA], &in[INPUT_SCALES],  &in[INPUT_ZERO_POINTS],
                                   &desc->data,     &desc->zero_points, &desc->scales};
    const int rc = cli_read_quant_table(command, desc->layout, &table_options, &table);
    if (rc != 0) return rc;
    if (cli_npy_read("indices", o[OPT_INDICES].value, &in[INPUT_INDICES]) != 0) return CLI_EXIT_REFUSED;
    desc->indices = cli_tensor_desc(&in[INPUT_INDICES]);
    return 0;
}

static int run_gather_quantized(cli_option *o, cli_tensor in[INPUT_COUNT], cli_tensor *output)
{
    clg_gather_quantized_desc desc;
    int rc = build_desc(o, in, &desc);
    if (rc != 0) return rc;

    int32_t out_rank = 0;
    int64_t out_shape[CLG_MAX_OUTPUT_RANK];
    clg_dtype out_type = CLG_DTYPE_INVALID;
    uint64_t sizes[INPUT_COUNT] = {0}, output_bytes = 0;
    clg_status st = clg_gather_quantized_output_shape(&desc, &out_rank, out_shape, &out_type);
    if (st == CLG_SUCCESS)
        st = clg_gather_quantized_sizes(&desc, &sizes[INPUT_DATA], &sizes[INPUT_INDICES], &sizes[INPUT_SCALES],
                                        &sizes[INPUT_ZERO_POINTS], &output_bytes);
    if (st != CLG_SUCCESS)
        return cli_fail_status(st, "%s %s on data '%s' and indices '%s'", command, o[OPT_LAYOUT].value,
                               o[OPT_DATA].value, o[OPT_INDICES].value);
    static const char *const what[INPUT_COUNT] = {"data", "indices", "scales", "zero_points"};
    const int option_of[INPUT_COUNT] = {OPT_DATA, OPT_INDICES, OPT_SCALES, OPT_ZERO_POINTS};
    for (int i = 0; i < INPUT_COUNT; ++i)
        if (o[option_of[i]].value && check_bytes(what[i], o[option_of[i]].value, &in[i], sizes[i]) != 0)
            return CLI_EXIT_REFUSED;
    /* bf16 results are written as their uint16 bits */
    if (cli_tensor_alloc(output, out_type == CLG_BF16 ? CLG_U16 : out_type, out_rank, out_shape, "output") != 0)
        return CLI_EXIT_REFUSED;
    if (output->byte_size != output_bytes)
        return cli_fail(CLI_EXIT_REFUSED, "%s: the library reports an output of %llu bytes, expected %zu", command,
                        (unsigned long long)output_bytes, output->byte_size);

    clg_context *ctx = NULL;
    if (cli_open_context(o[OPT_DEVICE].value, o[OPT_VERIFY].value != NULL, &ctx) != 0) return CLI_EXIT_REFUSED;
    clg_device_info info;
    const char *device = cli_device_name(ctx, &info);
    const int has_zero_points = o[OPT_ZERO_POINTS].value != NULL;
    st = clg_gather_quantized(ctx, &desc, in[INPUT_DATA].bytes, in[INPUT_DATA].byte_size, in[INPUT_INDICES].bytes,
                              in[INPUT_INDICES].byte_size, in[INPUT_SCALES].bytes, in[INPUT_SCALES].byte_size,
                              has_zero_points ? in[INPUT_ZERO_POINTS].bytes : NULL, in[INPUT_ZERO_POINTS].byte_size,
                              output->bytes, output->byte_size);
    if (st != CLG_SUCCESS)
        rc = cli_fail_status(st, "%s %s on data '%s' and indices '%s' (device %s)", command, o[OPT_LAYOUT].value,
                             o[OPT_DATA].value, o[OPT_INDICES].value, device);
    clg_context_release(ctx);
    if (rc != 0) return rc;
    return cli_npy_write(o[OPT_OUT].value, output);
}

/* --gguf FILE --tensor NAME: the tensor as the data, uint8 [outer dimensions..., bytes a row] where the
 * file is mapped, its layout "ggml-" and its ggml type; o[OPT_LAYOUT] and o[OPT_DATA] then name them
 * (label holds the data's name, "FILE:NAME"). */
static int gguf_data(cli_option *o, const cli_gguf *g, cli_tensor *data, char layout[32], char *label,
                     size_t label_capacity)
{
    const cli_gguf_tensor *t = cli_gguf_find(g, o[OPT_TENSOR].value);
    if (!t)
        return cli_fail(CLI_EXIT_REFUSED, "%s: GGUF file '%s' has no tensor named '%s' (clgather gguf FILE lists them)",
                        command, o[OPT_GGUF].value, o[OPT_TENSOR].value);
    snprintf(layout, 32, "ggml-%s", t->type->name);
    if (clg_quant_layout_from_name(layout) == CLG_QUANT_LAYOUT_INVALID)
        return cli_fail(CLI_EXIT_REFUSED, "%s: tensor '%s' of '%s' is %s, which the dequantizing gather does not read",
                        command, t->name, o[OPT_GGUF].value, t->type->name);
    snprintf(label, label_capacity, "%s:%s", o[OPT_GGUF].value, t->name);
    memset(data, 0, sizeof *data);
    data->type = CLG_U8;
    data->rank = t->rank;
    memcpy(data->shape, t->shape, sizeof(int64_t) * (size_t)t->rank);
    /* the innermost dimension in bytes: whole blocks, checked by the reader */
    data->shape[t->rank - 1] = t->shape[t->rank - 1] / t->type->block_values * t->type->block_bytes;
    data->count = data->byte_size = (size_t)t->bytes;
    data->bytes = (unsigned char *)(g->bytes + t->offset); /* read only: the mapping is PROT_READ */
    o[OPT_LAYOUT].value = layout;
    o[OPT_DATA].value = label;
    return 0;
}

int cmd_gather_quantized(int argc, char **argv)
{
    cli_option options[OPT_COUNT] = {
        [OPT_LAYOUT] = {"layout", 1, NULL},
        [OPT_DATA] = {"data", 1, NULL},
        [OPT_DATA_TYPE] = {"data-type", 1, NULL},
        [OPT_DATA_SHAPE] = {"data-shape", 1, NULL},
        [OPT_INDICES] = {"indices", 1, NULL},
        [OPT_SCALES] = {"scales", 1, NULL},
        [OPT_SCALES_TYPE] = {"scales-type", 1, NULL},
        [OPT_ZERO_POINTS] = {"zero-points", 1, NULL},
        [OPT_ZERO_POINTS_SHAPE] = {"zero-points-shape", 1, NULL},
        [OPT_BITS] = {"bits", 1, NULL},
        [OPT_BLOCK_SIZE] = {"block-size", 1, NULL},
        [OPT_GATHER_AXIS] = {"gather-axis", 1, NULL},
        [OPT_QUANTIZE_AXIS] = {"quantize-axis", 1, NULL},
        [OPT_OUTPUT_TYPE] = {"output-type", 1, NULL},
        [OPT_OOB] = {"oob", 1, NULL},
        [OPT_DEVICE] = {"device", 1, NULL},
        [OPT_VERIFY] = {"verify", 0, NULL},
        [OPT_OUT] = {"out", 1, NULL},
        [OPT_GGUF] = {"gguf", 1, NULL},
        [OPT_TENSOR] = {"tensor", 1, NULL},
    };
    int rc = cli_parse_options(command, argc, argv, options, OPT_COUNT, NULL, NULL, 0);
    if (rc != 0) return rc;
    const int from_gguf = options[OPT_GGUF].value != NULL;
    static const char *const required[] = {"layout", "data", "tensor", "indices", "out"};
    const int required_index[] = {OPT_LAYOUT, OPT_DATA, OPT_TENSOR, OPT_INDICES, OPT_OUT};
    for (int i = 0; i < 5; ++i)
        if (!options[required_index[i]].value && (from_gguf ? i >= 2 : i != 2))
            return cli_fail(CLI_EXIT_USAGE, "%s: --%s is required%s", command, required[i],
                            from_gguf ? " with --gguf" : "");
    /* a GGUF tensor is its own layout and data, and ggml blocks hold their own scales */
    static const int not_with_gguf[] = {OPT_LAYOUT, OPT_DATA,        OPT_DATA_TYPE,    OPT_DATA_SHAPE,
                                        OPT_SCALES, OPT_SCALES_TYPE, OPT_ZERO_POINTS,  OPT_ZERO_POINTS_SHAPE,
                                        OPT_BITS,   OPT_BLOCK_SIZE,  OPT_QUANTIZE_AXIS};
    for (size_t i = 0; i < sizeof not_with_gguf / sizeof not_with_gguf[0]; ++i)
        if (from_gguf && options[not_with_gguf[i]].value)
            return cli_fail(CLI_EXIT_USAGE, "%s: --%s does not go with --gguf (the tensor gives it)", command,
                            options[not_with_gguf[i]].name);
    if (!from_gguf && options[OPT_TENSOR].value)
        return cli_fail(CLI_EXIT_USAGE, "%s: --tensor needs --gguf FILE", command);
    cli_tensor inputs[INPUT_COUNT], output;
    memset(inputs, 0, sizeof inputs);
    memset(&output, 0, sizeof output);
    cli_gguf gguf;
    memset(&gguf, 0, sizeof gguf);
    char layout[32], label[1200];
    if (from_gguf) {
        rc = cli_gguf_open(options[OPT_GGUF].value, &gguf);
        if (rc == 0) rc = gguf_data(options, &gguf, &inputs[INPUT_DATA], layout, label, sizeof label);
    }
    if (rc == 0) rc = run_gather_quantized(options, inputs, &output);
    if (from_gguf) inputs[INPUT_DATA].bytes = NULL; /* the mapping's, not the heap's */
    cli_gguf_close(&gguf);
    cli_tensor_free(&output);
    for (int i = 0; i < INPUT_COUNT; ++i) cli_tensor_free(&inputs[i]);
    return rc;
}
