/* clgather conformance: ONNX backend node-test directories (model.onnx + test_data_set_N/) of a Gather,
 * or of a com.microsoft GatherBlockQuantized (the dequantizing gather, ONNX Runtime's layout). */
#define _POSIX_C_SOURCE 200809L

#include "cli_args.h"
#include "cli_error.h"
#include "commands.h"
#include "file_io.h"
#include "onnx_proto.h"
#include "tensor_format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { CONFORMANCE_MAX_DATA_SETS = 1000 };

/* The preset of the node's operator at the model's opset, by name ("onnx-13", ...). */
static const char *preset_for_opset(onnx_gather_op op, int64_t opset)
{
    switch (op) {
    case ONNX_GATHER_ELEMENTS:
        return clg_gather_elements_preset_name(opset >= 13 ? CLG_ONNX_GATHER_ELEMENTS_13 : CLG_ONNX_GATHER_ELEMENTS_11);
    case ONNX_GATHER_ND:
        return clg_gather_nd_preset_name(opset >= 13   ? CLG_ONNX_GATHER_ND_13
                                         : opset >= 12 ? CLG_ONNX_GATHER_ND_12
                                                       : CLG_ONNX_GATHER_ND_11);
    default: return clg_preset_name(opset >= 13 ? CLG_ONNX_13 : opset >= 11 ? CLG_ONNX_11 : CLG_ONNX_1);
    }
}

/* Run the model's node on data and indices into a fresh output. */
static int run_node(clg_context *ctx, const char *set_dir, const onnx_gather_model *model, const char *preset,
                    const cli_tensor *data, const cli_tensor *indices, cli_tensor *output)
{
    int32_t out_rank = 0;
    int64_t out_shape[CLG_MAX_OUTPUT_RANK];
    clg_status st;
    clg_gather_desc gather;
    clg_gather_elements_desc elements;
    clg_gather_nd_desc nd;
    memset(&gather, 0, sizeof gather);
    memset(&elements, 0, sizeof elements);
    memset(&nd, 0, sizeof nd);
    switch (model->op) {
    case ONNX_GATHER_ELEMENTS:
        elements.preset = clg_gather_elements_preset_from_name(preset);
        elements.data = cli_tensor_desc(data);
        elements.indices = cli_tensor_desc(indices);
        elements.axis = model->axis;
        st = clg_gather_elements_output_shape(&elements, &out_rank, out_shape);
        break;
    case ONNX_GATHER_ND:
        nd.preset = clg_gather_nd_preset_from_name(preset);
        nd.data = cli_tensor_desc(data);
        nd.indices = cli_tensor_desc(indices);
        nd.batch_dims = model->batch_dims;
        st = clg_gather_nd_output_shape(&nd, &out_rank, out_shape);
        break;
    default:
        gather.preset = clg_preset_from_name(preset);
        gather.data = cli_tensor_desc(data);
        gather.indices = cli_tensor_desc(indices);
        gather.axis = model->axis;
        st = clg_gather_output_shape(&gather, &out_rank, out_shape);
        break;
    }
    const char *op = onnx_gather_op_name(model->op);
    if (st != CLG_SUCCESS) return cli_fail_status(st, "%s: %s %s", set_dir, op, preset);
    if (cli_tensor_alloc(output, data->type, out_rank, out_shape, "output") != 0) return CLI_EXIT_REFUSED;
    switch (model->op) {
    case ONNX_GATHER_ELEMENTS:
        st = clg_gather_elements(ctx, &elements, data->bytes, data->byte_size, indices->bytes, indices->byte_size,
                                 output->bytes, output->byte_size);
        break;
    case ONNX_GATHER_ND:
        st = clg_gather_nd(ctx, &nd, data->bytes, data->byte_size, indices->bytes, indices->byte_size, output->bytes,
                           output->byte_size);
        break;
    default:
        st = clg_gather(ctx, &gather, data->bytes, data->byte_size, indices->bytes, indices->byte_size, output->bytes,
                        output->byte_size);
        break;
    }
    return st == CLG_SUCCESS ? 0 : cli_fail_status(st, "%s: %s %s", set_dir, op, preset);
}

static int is_directory(const char *path)
{
    struct stat info;
    return stat(path, &info) == 0 && S_ISDIR(info.st_mode);
}

/* The folder a file is in ("." for a bare name), in folder (CLI_PATH_CAPACITY bytes). */
static const char *folder_of(const char *path, char *folder)
{
    snprintf(folder, CLI_PATH_CAPACITY, "%s", path);
    char *slash = strrchr(folder, '/');
    if (!slash) return ".";
    *slash = '\0';
    return folder;
}

/* Load the TensorProto of a .pb file (4-bit tensors packed, their logical type in *packed). */
static int load_pb_tensor_packed(const char *path, cli_tensor *out, onnx_packed_info *packed)
{
    unsigned char *file = NULL;
    size_t len = 0;
    if (cli_read_file("tensor", path, &file, &len) != 0) return CLI_EXIT_REFUSED;
    char where[CLI_PATH_CAPACITY + 16];
    snprintf(where, sizeof where, "tensor '%s'", path);
    proto_bytes message = {file, len};
    /* a .pb's external data lies beside it, in the data set's folder */
    char folder[CLI_PATH_CAPACITY];
    int rc = onnx_parse_tensor_packed(where, message, folder_of(path, folder), out, NULL, packed);
    free(file);
    return rc;
}

static int load_pb_tensor(const char *path, cli_tensor *out) { return load_pb_tensor_packed(path, out, NULL); }

/* A node input is an initializer of the graph, or the k-th fed input: input_k.pb of the data set. 4-bit
 * tensors stay packed (their logical type and shape in *packed, which may be NULL where they are refused). */
static int load_node_input(const char *model_path, const char *set_dir, const onnx_gather_model *model,
                           proto_bytes name, cli_tensor *out, onnx_packed_info *packed)
{
    for (int i = 0; i < model->initializer_count; ++i)
        if (model->initializer_names[i].len == name.len &&
            memcmp(model->initializer_names[i].data, name.data, name.len) == 0) {
            char where[CLI_PATH_CAPACITY + 300];
            snprintf(where, sizeof where, "model '%s': initializer '%.*s'", model_path,
                     (int)(name.len > 200 ? 200 : name.len), (const char *)name.data);
            /* external data lies beside the model */
            char folder[CLI_PATH_CAPACITY];
            return onnx_parse_tensor_packed(where, model->initializers[i], folder_of(model_path, folder), out, NULL,
                                            packed);
        }
    for (int k = 0; k < model->feed_count; ++k)
        if (model->feeds[k].len == name.len && memcmp(model->feeds[k].data, name.data, name.len) == 0) {
            char path[CLI_PATH_CAPACITY];
            if (cli_path_format(path, sizeof path, "%s/input_%d.pb", set_dir, k) != 0) return CLI_EXIT_REFUSED;
            return load_pb_tensor_packed(path, out, packed);
        }
    return cli_fail(CLI_EXIT_REFUSED, "model '%s': node input '%.*s' is neither a graph input nor an initializer",
                    model_path, (int)(name.len > 200 ? 200 : name.len), (const char *)name.data);
}

static int expected_output_index(const onnx_gather_model *model)
{
    for (int i = 0; i < model->graph_output_count; ++i)
        if (model->graph_outputs[i].len == model->output_name.len &&
            memcmp(model->graph_outputs[i].data, model->output_name.data, model->output_name.len) == 0)
            return i;
    return 0; /* a single-node graph whose output list is missing: output_0.pb */
}

static int same_shape(const cli_tensor *a, const cli_tensor *b)
{
    if (a->rank != b->rank) return 0;
    for (int32_t i = 0; i < a->rank; ++i)
        if (a->shape[i] != b->shape[i]) return 0;
    return 1;
}

/* Compare an output with the expected tensor, bit for bit. */
static int compare_output(const char *set_dir, const cli_tensor *output, const cli_tensor *expected)
{
    char got_shape[256], want_shape[256];
    cli_format_shape(output->rank, output->shape, got_shape, sizeof got_shape);
    cli_format_shape(expected->rank, expected->shape, want_shape, sizeof want_shape);
    if (output->type != expected->type || !same_shape(output, expected))
        return cli_fail(CLI_EXIT_REFUSED, "%s: output is %s %s, expected %s %s", set_dir, clg_dtype_name(output->type),
                        got_shape, clg_dtype_name(expected->type), want_shape);
    if (output->byte_size && memcmp(output->bytes, expected->bytes, output->byte_size) != 0) {
        size_t element = clg_dtype_size(output->type);
        uint64_t first = 0;
        while (memcmp(output->bytes + first * element, expected->bytes + first * element, element) == 0) ++first;
        char got[96], want[96];
        cli_format_element(output, first, got, sizeof got);
        cli_format_element(expected, first, want, sizeof want);
        return cli_fail(CLI_EXIT_REFUSED, "%s: output element %llu is %s, expected %s (bit for bit)", set_dir,
                        (unsigned long long)first, got, want);
    }
    return 0;
}

/* A quantized tensor's description: a 4-bit tensor's logical type and shape, else u8 / i8 and its own. */
static clg_quant_tensor_desc quant_desc_of(const cli_tensor *t, const onnx_packed_info *packed)
{
    clg_quant_tensor_desc desc;
    memset(&desc, 0, sizeof desc);
    if (packed->type != CLG_QUANT_TYPE_INVALID) {
        desc.type = packed->type;
        desc.rank = packed->rank;
        memcpy(desc.shape, packed->shape, sizeof desc.shape);
        return desc;
    }
    desc.type = t->type == CLG_U8 ? CLG_QUANT_U8 : t->type == CLG_I8 ? CLG_QUANT_I8 : CLG_QUANT_TYPE_INVALID;
    desc.rank = t->rank;
    for (int32_t i = 0; i < t->rank && i < CLG_MAX_RANK; ++i) desc.shape[i] = t->shape[i];
    return desc;
}

/* Run one data set of a GatherBlockQuantized model; on success *summary describes it. */
static int run_quantized_data_set(clg_context *ctx, const char *model_path, const char *set_dir,
                                  const onnx_gather_model *model, char *summary, size_t summary_cap)
{
    enum { DATA, INDICES, SCALES, ZERO_POINTS, INPUTS };
    cli_tensor in[INPUTS], expected = {0}, output = {0};
    onnx_packed_info packed[INPUTS];
    memset(in, 0, sizeof in);
    memset(packed, 0, sizeof packed);
    const proto_bytes names[INPUTS] = {model->data_name, model->indices_name, model->scales_name,
                                       model->zero_points_name};
    const int has_zero_points = model->zero_points_name.len > 0;
    int rc = 0;
    for (int i = 0; i < INPUTS && rc == 0; ++i)
        if (i != ZERO_POINTS || has_zero_points)
            rc = load_node_input(model_path, set_dir, model, names[i], &in[i], &packed[i]);
    char expected_path[CLI_PATH_CAPACITY];
    if (rc == 0)
        rc = cli_path_format(expected_path, sizeof expected_path, "%s/output_%d.pb", set_dir,
                             expected_output_index(model));
    if (rc == 0) rc = load_pb_tensor(expected_path, &expected);
    clg_gather_quantized_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.layout = CLG_QUANT_ORT_BLOCK;
    desc.data = quant_desc_of(&in[DATA], &packed[DATA]);
    desc.indices = cli_tensor_desc(&in[INDICES]);
    desc.scales = cli_tensor_desc(&in[SCALES]);
    if (has_zero_points) desc.zero_points = quant_desc_of(&in[ZERO_POINTS], &packed[ZERO_POINTS]);
    desc.bits = (int32_t)(model->bits < INT32_MIN ? INT32_MIN : model->bits > INT32_MAX ? INT32_MAX : model->bits);
    desc.block_size = model->block_size;
    desc.gather_axis = model->gather_axis;
    desc.quantize_axis = model->quantize_axis;
    if (rc == 0 && desc.data.type == CLG_QUANT_TYPE_INVALID)
        rc = cli_fail(CLI_EXIT_REFUSED, "%s: data is %s; GatherBlockQuantized takes uint4, int4 or uint8", set_dir,
                      clg_dtype_name(in[DATA].type));
    if (rc == 0) {
        int32_t out_rank = 0;
        int64_t out_shape[CLG_MAX_OUTPUT_RANK];
        clg_dtype out_type = CLG_DTYPE_INVALID;
        clg_status st = clg_gather_quantized_output_shape(&desc, &out_rank, out_shape, &out_type);
        if (st != CLG_SUCCESS) rc = cli_fail_status(st, "%s: GatherBlockQuantized", set_dir);
        if (rc == 0) rc = cli_tensor_alloc(&output, out_type, out_rank, out_shape, "output");
        if (rc == 0) {
            st = clg_gather_quantized(ctx, &desc, in[DATA].bytes, in[DATA].byte_size, in[INDICES].bytes,
                                      in[INDICES].byte_size, in[SCALES].bytes, in[SCALES].byte_size,
                                      has_zero_points ? in[ZERO_POINTS].bytes : NULL, in[ZERO_POINTS].byte_size,
                                      output.bytes, output.byte_size);
            if (st != CLG_SUCCESS) rc = cli_fail_status(st, "%s: GatherBlockQuantized", set_dir);
        }
    }
    if (rc == 0) rc = compare_output(set_dir, &output, &expected);
    if (rc == 0) {
        char data_shape[256], got_shape[256];
        cli_format_shape(desc.data.rank, desc.data.shape, data_shape, sizeof data_shape);
        cli_format_shape(output.rank, output.shape, got_shape, sizeof got_shape);
        snprintf(summary, summary_cap, "data %s %s, bits %d, block %lld, %s scales%s -> %s %s",
                 clg_quant_type_name(desc.data.type), data_shape, (int)desc.bits, (long long)desc.block_size,
                 clg_dtype_name(desc.scales.type), has_zero_points ? ", zero points" : "", clg_dtype_name(output.type),
                 got_shape);
    }
    cli_tensor_free(&output);
    cli_tensor_free(&expected);
    for (int i = 0; i < INPUTS; ++i) cli_tensor_free(&in[i]);
    return rc;
}

/* Run one data set of a Gather model; on success *summary describes it. */
static int run_data_set(clg_context *ctx, const char *model_path, const char *set_dir, const onnx_gather_model *model,
                        const char *preset, char *summary, size_t summary_cap)
{
    cli_tensor data = {0}, indices = {0}, expected = {0}, output = {0};
    int rc = load_node_input(model_path, set_dir, model, model->data_name, &data, NULL);
    if (rc == 0) rc = load_node_input(model_path, set_dir, model, model->indices_name, &indices, NULL);
    char expected_path[CLI_PATH_CAPACITY];
    if (rc == 0)
        rc = cli_path_format(expected_path, sizeof expected_path, "%s/output_%d.pb", set_dir,
                             expected_output_index(model));
    if (rc == 0) rc = load_pb_tensor(expected_path, &expected);
    if (rc == 0) rc = run_node(ctx, set_dir, model, preset, &data, &indices, &output);
    if (rc == 0) rc = compare_output(set_dir, &output, &expected);
    if (rc == 0) {
        char data_shape[256], indices_shape[256], got_shape[256];
        cli_format_shape(data.rank, data.shape, data_shape, sizeof data_shape);
        cli_format_shape(indices.rank, indices.shape, indices_shape, sizeof indices_shape);
        cli_format_shape(output.rank, output.shape, got_shape, sizeof got_shape);
        snprintf(summary, summary_cap, "data %s %s, indices %s %s -> %s %s", clg_dtype_name(data.type), data_shape,
                 clg_dtype_name(indices.type), indices_shape, clg_dtype_name(output.type), got_shape);
    }
    cli_tensor_free(&output);
    cli_tensor_free(&expected);
    cli_tensor_free(&indices);
    cli_tensor_free(&data);
    return rc;
}

/* Run one test directory: every test_data_set_N in it. Prints its line. Returns 0 if it passed. */
static int run_directory(clg_context *ctx, const char *dir)
{
    char model_path[CLI_PATH_CAPACITY];
    int rc = cli_path_format(model_path, sizeof model_path, "%s/model.onnx", dir);
    unsigned char *file = NULL;
    size_t len = 0;
    onnx_gather_model model;
    char where[CLI_PATH_CAPACITY + 16];
    snprintf(where, sizeof where, "model '%s'", model_path);
    if (rc == 0) rc = cli_read_file("model", model_path, &file, &len);
    if (rc == 0) rc = onnx_parse_gather_model(where, file, len, &model);
    const char *preset = "";
    int sets = 0;
    char summary[1024] = "";
    if (rc == 0) {
        preset = preset_for_opset(model.op, model.opset);
        for (; sets < CONFORMANCE_MAX_DATA_SETS && rc == 0; ++sets) {
            char set_dir[CLI_PATH_CAPACITY];
            rc = cli_path_format(set_dir, sizeof set_dir, "%s/test_data_set_%d", dir, sets);
            if (rc != 0 || !is_directory(set_dir)) break;
            rc = model.quantized ? run_quantized_data_set(ctx, model_path, set_dir, &model, summary, sizeof summary)
                                 : run_data_set(ctx, model_path, set_dir, &model, preset, summary, sizeof summary);
        }
        if (rc == 0 && sets == 0) rc = cli_fail(CLI_EXIT_REFUSED, "%s: no test_data_set_0 directory", dir);
    }
    free(file);
    if (rc == 0 && model.quantized) {
        printf(
            "PASS  %s  (com.microsoft GatherBlockQuantized, gather_axis %lld, quantize_axis %lld, %d data set%s; %s)\n",
            dir, (long long)model.gather_axis, (long long)model.quantize_axis, sets, sets == 1 ? "" : "s", summary);
        return 0;
    }
    if (rc == 0) {
        const int nd = model.op == ONNX_GATHER_ND;
        printf("PASS  %s  (%s opset %lld -> %s, %s %lld, %d data set%s; %s)\n", dir, onnx_gather_op_name(model.op),
               (long long)model.opset, preset, nd ? "batch_dims" : "axis",
               (long long)(nd ? model.batch_dims : model.axis), sets, sets == 1 ? "" : "s", summary);
        return 0;
    }
    char reason[2048];
    cli_take_failure(reason, sizeof reason);
    printf("FAIL  %s  %s\n", dir, reason);
    return 1;
}

int cmd_conformance(int argc, char **argv)
{
    cli_option options[] = {{"device", 1, NULL}};
    const char **dirs = calloc((size_t)(argc > 0 ? argc : 1), sizeof *dirs);
    if (!dirs) return cli_fail(CLI_EXIT_REFUSED, "conformance: out of memory");
    int dir_count = 0;
    int rc = cli_parse_options("conformance", argc, argv, options, 1, dirs, &dir_count, argc);
    if (rc == 0 && dir_count == 0) rc = cli_fail(CLI_EXIT_USAGE, "conformance: give at least one test directory");
    clg_context *ctx = NULL;
    if (rc == 0) rc = cli_open_context(options[0].value, 0, &ctx);
    if (rc != 0) {
        free(dirs);
        return rc;
    }
    clg_device_info info;
    if (clg_context_device_info(ctx, &info) == CLG_SUCCESS)
        printf("ONNX conformance on %s (%s, driver %s)\n", info.device_name, info.platform_name, info.driver_version);
    int failed = 0;
    for (int i = 0; i < dir_count; ++i) {
        failed += run_directory(ctx, dirs[i]);
        fflush(stdout);
    }
    printf("%d of %d passed, %d failed\n", dir_count - failed, dir_count, failed);
    clg_context_release(ctx);
    free(dirs);
    if (failed) return cli_fail(CLI_EXIT_REFUSED, "conformance: %d of %d directories failed", failed, dir_count);
    return 0;
}
