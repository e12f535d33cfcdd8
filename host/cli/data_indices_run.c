#include "data_indices_run.h"

#include "cli_error.h"
#include "commands.h"
#include "npy.h"

int cli_run_data_indices(const cli_data_indices_call *call, const cli_data_indices_files *files, const cli_tensor *data,
                         const cli_tensor *indices, cli_tensor *output)
{
    int32_t out_rank = 0;
    int64_t out_shape[CLG_MAX_OUTPUT_RANK];
    clg_status st = call->output_shape(call->desc, &out_rank, out_shape);
    if (st != CLG_SUCCESS)
        return cli_fail_status(st, "%s %s on data '%s' and indices '%s'", call->command, call->preset, files->data,
                               files->indices);
    if (cli_tensor_alloc(output, data->type, out_rank, out_shape, "output") != 0) return CLI_EXIT_REFUSED;

    clg_context *ctx = NULL;
    if (cli_open_context(files->device, files->verify, &ctx) != 0) return CLI_EXIT_REFUSED;
    clg_device_info info;
    const char *device = cli_device_name(ctx, &info);
    st = call->run(ctx, call->desc, data, indices, output);
    int rc = 0;
    if (st != CLG_SUCCESS)
        rc = cli_fail_status(st, "%s %s on data '%s' and indices '%s' (device %s)", call->command, call->preset,
                             files->data, files->indices, device);
    clg_context_release(ctx);
    if (rc != 0) return rc;
    return cli_npy_write(files->out, output);
}
