/* clgather gather: one Gather over .npy files. */
#include "cli_args.h"
#include "cli_error.h"
#include "commands.h"
#include "data_indices_run.h"
#include "npy.h"

#include <string.h>

enum {
    OPT_OP,
    OPT_DATA,
    OPT_INDICES,
    OPT_AXIS,
    OPT_AXIS_FILE,
    OPT_BATCH_DIMS,
    OPT_OOB,
    OPT_DEVICE,
    OPT_VERIFY,
    OPT_OUT,
    OPT_COUNT
};

static int is_onnx_preset(clg_preset preset)
{
    return preset == CLG_ONNX_1 || preset == CLG_ONNX_11 || preset == CLG_ONNX_13;
}

/* The parsed command line. */
typedef struct gather_request {
    clg_preset preset;
    int64_t axis;
    int has_axis;
    int64_t batch_dims;
    clg_oob_policy oob;
} gather_request;

static int parse_request(cli_option *o, gather_request *req)
{
    static const char *const required[] = {"op", "data", "indices", "out"};
    const int required_index[] = {OPT_OP, OPT_DATA, OPT_INDICES, OPT_OUT};
    for (int i = 0; i < 4; ++i)
        if (!o[required_index[i]].value) return cli_fail(CLI_EXIT_USAGE, "gather: --%s is required", required[i]);
    req->preset = clg_preset_from_name(o[OPT_OP].value);
    if (req->preset == CLG_PRESET_INVALID)
        return cli_fail(CLI_EXIT_USAGE,
                        "gather: unknown --op '%s' (onnx-1, onnx-11, onnx-13, ov-gather-1, ov-gather-7, ov-gather-8)",
                        o[OPT_OP].value);
    if (o[OPT_AXIS].value && o[OPT_AXIS_FILE].value)
        return cli_fail(CLI_EXIT_USAGE, "gather: give --axis or --axis-file, not both");
    if (o[OPT_AXIS_FILE].value && is_onnx_preset(req->preset))
        return cli_fail(CLI_EXIT_USAGE, "gather: --axis-file is for the OpenVINO presets; %s takes --axis N",
                        o[OPT_OP].value);
    req->axis = 0;
    req->has_axis = o[OPT_AXIS].value != NULL;
    req->batch_dims = 0;
    if (cli_parse_int64_option("gather", "axis", o[OPT_AXIS].value, &req->axis) != 0 ||
        cli_parse_int64_option("gather", "batch-dims", o[OPT_BATCH_DIMS].value, &req->batch_dims) != 0)
        return CLI_EXIT_USAGE;
    return cli_parse_oob("gather", o[OPT_OOB].value, &req->oob);
}

static clg_status output_shape(const void *desc, int32_t *rank, int64_t *shape)
{
    return clg_gather_output_shape(desc, rank, shape);
}

static clg_status run(clg_context *ctx, const void *desc, const cli_tensor *data, const cli_tensor *indices,
                      cli_tensor *output)
{
    return clg_gather(ctx, desc, data->bytes, data->byte_size, indices->bytes, indices->byte_size, output->bytes,
                      output->byte_size);
}

static int run_gather(cli_option *o, const gather_request *req, cli_tensor *data, cli_tensor *indices,
                      cli_tensor *axis_tensor, cli_tensor *output)
{
    if (cli_npy_read("data", o[OPT_DATA].value, data) != 0) return CLI_EXIT_REFUSED;
    if (cli_npy_read("indices", o[OPT_INDICES].value, indices) != 0) return CLI_EXIT_REFUSED;

    clg_gather_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.preset = req->preset;
    desc.data = cli_tensor_desc(data);
    desc.indices = cli_tensor_desc(indices);
    desc.batch_dims = req->batch_dims;
    desc.oob_policy = req->oob;
    if (is_onnx_preset(req->preset)) {
        desc.axis = req->axis;
    } else {
        if (o[OPT_AXIS_FILE].value) {
            if (cli_npy_read("axis", o[OPT_AXIS_FILE].value, axis_tensor) != 0) return CLI_EXIT_REFUSED;
        } else {
            /* --axis N (default 0) is an i64 scalar */
            if (cli_tensor_alloc(axis_tensor, CLG_I64, 0, NULL, "axis") != 0) return CLI_EXIT_REFUSED;
            memcpy(axis_tensor->bytes, &req->axis, sizeof req->axis);
        }
        desc.axis_tensor = cli_tensor_desc(axis_tensor);
        desc.axis_value = axis_tensor->bytes;
    }

    const cli_data_indices_call call = {"gather", clg_preset_name(req->preset), &desc, output_shape, run};
    const cli_data_indices_files files = {o[OPT_DATA].value, o[OPT_INDICES].value, o[OPT_OUT].value,
                                          o[OPT_DEVICE].value, o[OPT_VERIFY].value != NULL};
    return cli_run_data_indices(&call, &files, data, indices, output);
}

int cmd_gather(int argc, char **argv)
{
    cli_option options[OPT_COUNT] = {
        [OPT_OP] = {"op", 1, NULL},
        [OPT_DATA] = {"data", 1, NULL},
        [OPT_INDICES] = {"indices", 1, NULL},
        [OPT_AXIS] = {"axis", 1, NULL},
        [OPT_AXIS_FILE] = {"axis-file", 1, NULL},
        [OPT_BATCH_DIMS] = {"batch-dims", 1, NULL},
        [OPT_OOB] = {"oob", 1, NULL},
        [OPT_DEVICE] = {"device", 1, NULL},
        [OPT_VERIFY] = {"verify", 0, NULL},
        [OPT_OUT] = {"out", 1, NULL},
    };
    int rc = cli_parse_options("gather", argc, argv, options, OPT_COUNT, NULL, NULL, 0);
    if (rc != 0) return rc;
    gather_request req;
    rc = parse_request(options, &req);
    if (rc != 0) return rc;

    cli_tensor data = {0}, indices = {0}, axis_tensor = {0}, output = {0};
    rc = run_gather(options, &req, &data, &indices, &axis_tensor, &output);
    cli_tensor_free(&output);
    cli_tensor_free(&axis_tensor);
    cli_tensor_free(&indices);
    cli_tensor_free(&data);
    return rc;
}
