/* clgather gather-elements: one GatherElements over .npy files. */
#include "cli_args.h"
#include "cli_error.h"
#include "commands.h"
#include "npy.h"

#include <string.h>

enum { OPT_OP, OPT_DATA, OPT_INDICES, OPT_AXIS, OPT_OOB, OPT_DEVICE, OPT_VERIFY, OPT_OUT, OPT_COUNT };

static int parse_desc(cli_option *o, clg_gather_elements_desc *desc)
{
    static const int required[] = {OPT_OP, OPT_DATA, OPT_INDICES, OPT_OUT};
    for (int i = 0; i < 4; ++i)
        if (!o[required[i]].value)
            return cli_fail(CLI_EXIT_USAGE, "gather-elements: --%s is required", o[required[i]].name);
    memset(desc, 0, sizeof *desc);
    desc->preset = clg_gather_elements_preset_from_name(o[OPT_OP].value);
    if (desc->preset == CLG_GATHER_ELEMENTS_PRESET_INVALID)
        return cli_fail(CLI_EXIT_USAGE, "gather-elements: unknown --op '%s' (onnx-11, onnx-13, ov-gather-elements-6)",
                        o[OPT_OP].value);
    if (cli_parse_int64_option("gather-elements", "axis", o[OPT_AXIS].value, &desc->axis) != 0) return CLI_EXIT_USAGE;
    return cli_parse_oob("gather-elements", o[OPT_OOB].value, &desc->oob_policy);
}

static int run_gather_elements(cli_option *o, clg_gather_elements_desc *desc, cli_tensor *data, cli_tensor *indices,
                               cli_tensor *output)
{
    if (cli_npy_read("data", o[OPT_DATA].value, data) != 0) return CLI_EXIT_REFUSED;
    if (cli_npy_read("indices", o[OPT_INDICES].value, indices) != 0) return CLI_EXIT_REFUSED;
    desc->data = cli_tensor_desc(data);
    desc->indices = cli_tensor_desc(indices);
    const char *preset = clg_gather_elements_preset_name(desc->preset);

    int32_t out_rank = 0;
    int64_t out_shape[CLG_MAX_OUTPUT_RANK];
    clg_status st = clg_gather_elements_output_shape(desc, &out_rank, out_shape);
    if (st != CLG_SUCCESS)
        return cli_fail_status(st, "gather-elements %s on data '%s' and indices '%s'", preset, o[OPT_DATA].value,
                               o[OPT_INDICES].value);
    if (cli_tensor_alloc(output, data->type, out_rank, out_shape, "output") != 0) return CLI_EXIT_REFUSED;

    clg_context *ctx = NULL;
    if (cli_open_context(o[OPT_DEVICE].value, o[OPT_VERIFY].value != NULL, &ctx) != 0) return CLI_EXIT_REFUSED;
    /* the device's name before the call: clg_context_device_info clears the error message it leaves */
    clg_device_info info;
    const char *device = clg_context_device_info(ctx, &info) == CLG_SUCCESS ? info.device_name : "?";
    st = clg_gather_elements(ctx, desc, data->bytes, data->byte_size, indices->bytes, indices->byte_size, output->bytes,
                             output->byte_size);
    int rc = 0;
    if (st != CLG_SUCCESS)
        rc = cli_fail_status(st, "gather-elements %s on data '%s' and indices '%s' (device %s)", preset,
                             o[OPT_DATA].value, o[OPT_INDICES].value, device);
    clg_context_release(ctx);
    if (rc != 0) return rc;
    return cli_npy_write(o[OPT_OUT].value, output);
}

int cmd_gather_elements(int argc, char **argv)
{
    cli_option options[OPT_COUNT] = {
        [OPT_OP] = {"op", 1, NULL},         [OPT_DATA] = {"data", 1, NULL}, [OPT_INDICES] = {"indices", 1, NULL},
        [OPT_AXIS] = {"axis", 1, NULL},     [OPT_OOB] = {"oob", 1, NULL},   [OPT_DEVICE] = {"device", 1, NULL},
        [OPT_VERIFY] = {"verify", 0, NULL}, [OPT_OUT] = {"out", 1, NULL},
    };
    int rc = cli_parse_options("gather-elements", argc, argv, options, OPT_COUNT, NULL, NULL, 0);
    if (rc != 0) return rc;
    clg_gather_elements_desc desc;
    rc = parse_desc(options, &desc);
    if (rc != 0) return rc;
    cli_tensor data = {0}, indices = {0}, output = {0};
    rc = run_gather_elements(options, &desc, &data, &indices, &output);
    cli_tensor_free(&output);
    cli_tensor_free(&indices);
    cli_tensor_free(&data);
    return rc;
}
