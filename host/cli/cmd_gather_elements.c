/* clgather gather-elements: one GatherElements over .npy files. */
#include "cli_args.h"
#include "cli_error.h"
#include "commands.h"
#include "data_indices_run.h"
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

static clg_status output_shape(const void *desc, int32_t *rank, int64_t *shape)
{
    return clg_gather_elements_output_shape(desc, rank, shape);
}

static clg_status run(clg_context *ctx, const void *desc, const cli_tensor *data, const cli_tensor *indices,
                      cli_tensor *output)
{
    return clg_gather_elements(ctx, desc, data->bytes, data->byte_size, indices->bytes, indices->byte_size,
                               output->bytes, output->byte_size);
}

static int run_gather_elements(cli_option *o, clg_gather_elements_desc *desc, cli_tensor *data, cli_tensor *indices,
                               cli_tensor *output)
{
    if (cli_npy_read("data", o[OPT_DATA].value, data) != 0) return CLI_EXIT_REFUSED;
    if (cli_npy_read("indices", o[OPT_INDICES].value, indices) != 0) return CLI_EXIT_REFUSED;
    desc->data = cli_tensor_desc(data);
    desc->indices = cli_tensor_desc(indices);
    const cli_data_indices_call call = {"gather-elements", clg_gather_elements_preset_name(desc->preset), desc,
                                        output_shape, run};
    const cli_data_indices_files files = {o[OPT_DATA].value, o[OPT_INDICES].value, o[OPT_OUT].value,
                                          o[OPT_DEVICE].value, o[OPT_VERIFY].value != NULL};
    return cli_run_data_indices(&call, &files, data, indices, output);
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
