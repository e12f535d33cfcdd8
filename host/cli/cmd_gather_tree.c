/* clgather gather-tree: one GatherTree-1 over .npy files. */
#include "cli_args.h"
#include "cli_error.h"
#include "commands.h"
#include "npy.h"

#include <string.h>

enum { OPT_STEP_IDS, OPT_PARENT_IDS, OPT_MAX_SEQ_LEN, OPT_END_TOKEN, OPT_DEVICE, OPT_VERIFY, OPT_OUT, OPT_COUNT };

static int run_gather_tree(cli_option *o, cli_tensor inputs[4], cli_tensor *output)
{
    static const char *const what[4] = {"step_ids", "parent_ids", "max_seq_len", "end_token"};
    for (int i = 0; i < 4; ++i)
        if (cli_npy_read(what[i], o[OPT_STEP_IDS + i].value, &inputs[i]) != 0) return CLI_EXIT_REFUSED;

    clg_gather_tree_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.step_ids = cli_tensor_desc(&inputs[0]);
    desc.parent_ids = cli_tensor_desc(&inputs[1]);
    desc.max_seq_len = cli_tensor_desc(&inputs[2]);
    desc.end_token = cli_tensor_desc(&inputs[3]);
    uint64_t output_bytes = 0;
    clg_status st = clg_gather_tree_sizes(&desc, &output_bytes);
    if (st != CLG_SUCCESS)
        return cli_fail_status(st, "gather-tree on step_ids '%s' and parent_ids '%s'", o[OPT_STEP_IDS].value,
                               o[OPT_PARENT_IDS].value);
    /* the output has the shape and type of step_ids */
    if (cli_tensor_alloc(output, inputs[0].type, inputs[0].rank, inputs[0].shape, "output") != 0)
        return CLI_EXIT_REFUSED;
    if (output->byte_size != output_bytes)
        return cli_fail(CLI_EXIT_REFUSED, "gather-tree: the library reports an output of %llu bytes, expected %zu",
                        (unsigned long long)output_bytes, output->byte_size);

    clg_context *ctx = NULL;
    if (cli_open_context(o[OPT_DEVICE].value, o[OPT_VERIFY].value != NULL, &ctx) != 0) return CLI_EXIT_REFUSED;
    /* the device's name before the call: clg_context_device_info clears the error message it leaves */
    clg_device_info info;
    const char *device = clg_context_device_info(ctx, &info) == CLG_SUCCESS ? info.device_name : "?";
    st = clg_gather_tree(ctx, &desc, inputs[0].bytes, inputs[0].byte_size, inputs[1].bytes, inputs[1].byte_size,
                         inputs[2].bytes, inputs[2].byte_size, inputs[3].bytes, inputs[3].byte_size, output->bytes,
                         output->byte_size);
    int rc = 0;
    if (st != CLG_SUCCESS) {
        rc = cli_fail_status(st, "gather-tree on step_ids '%s' and parent_ids '%s' (device %s)", o[OPT_STEP_IDS].value,
                             o[OPT_PARENT_IDS].value, device);
    }
    clg_context_release(ctx);
    if (rc != 0) return rc;
    return cli_npy_write(o[OPT_OUT].value, output);
}

int cmd_gather_tree(int argc, char **argv)
{
    cli_option options[OPT_COUNT] = {
        [OPT_STEP_IDS] = {"step-ids", 1, NULL},
        [OPT_PARENT_IDS] = {"parent-ids", 1, NULL},
        [OPT_MAX_SEQ_LEN] = {"max-seq-len", 1, NULL},
        [OPT_END_TOKEN] = {"end-token", 1, NULL},
        [OPT_DEVICE] = {"device", 1, NULL},
        [OPT_VERIFY] = {"verify", 0, NULL},
        [OPT_OUT] = {"out", 1, NULL},
    };
    int rc = cli_parse_options("gather-tree", argc, argv, options, OPT_COUNT, NULL, NULL, 0);
    if (rc != 0) return rc;
    for (int i = 0; i < OPT_COUNT; ++i)
        if (i != OPT_DEVICE && i != OPT_VERIFY && !options[i].value)
            return cli_fail(CLI_EXIT_USAGE, "gather-tree: --%s is required", options[i].name);

    cli_tensor inputs[4] = {{0}, {0}, {0}, {0}}, output = {0};
    rc = run_gather_tree(options, inputs, &output);
    cli_tensor_free(&output);
    for (int i = 0; i < 4; ++i) cli_tensor_free(&inputs[i]);
    return rc;
}
