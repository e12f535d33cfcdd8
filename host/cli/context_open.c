#include "cli_error.h"
#include "commands.h"

int cli_open_context(const char *device_spec, int verify, clg_context **out)
{
    clg_status st = clg_context_create_default(device_spec, verify ? CLG_CONTEXT_VERIFY : 0u, out);
    if (st != CLG_SUCCESS)
        return cli_fail_status(st, "cannot open device '%s'", device_spec ? device_spec : "(default)");
    return 0;
}

const char *cli_device_name(const clg_context *ctx, clg_device_info *info)
{
    return clg_context_device_info(ctx, info) == CLG_SUCCESS ? info->device_name : "?";
}
