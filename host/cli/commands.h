/* The subcommands; each takes the arguments after its name and returns the exit status. */
#ifndef CLI_COMMANDS_H
#define CLI_COMMANDS_H

int cmd_gather(int argc, char **argv);
int cmd_gather_elements(int argc, char **argv);
int cmd_gather_nd(int argc, char **argv);
int cmd_embedding_bag(int argc, char **argv);
int cmd_embedding_bag_tables(int argc, char **argv);
int cmd_gather_tree(int argc, char **argv);
int cmd_gather_quantized(int argc, char **argv);
int cmd_devices(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_conformance(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_gguf(int argc, char **argv);

/* Open a context on a device spec (NULL: CLGATHER_DEVICE or the default). Returns 0 or
 * CLI_EXIT_REFUSED with the failure recorded. */
struct clg_context;
int cli_open_context(const char *device_spec, int verify, struct clg_context **out);

/* The name of the device a context runs on, for messages ("?" if unknown); info is its storage. Ask before
 * the failing call: clg_context_device_info clears the error message the call leaves. */
struct clg_device_info;
const char *cli_device_name(const struct clg_context *ctx, struct clg_device_info *info);

#endif
