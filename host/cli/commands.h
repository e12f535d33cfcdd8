/* The subcommands; each takes the arguments after its name and returns the exit status. */
#ifndef CLI_COMMANDS_H
#define CLI_COMMANDS_H

int cmd_gather(int argc, char **argv);
int cmd_gather_elements(int argc, char **argv);
int cmd_gather_nd(int argc, char **argv);
int cmd_gather_tree(int argc, char **argv);
int cmd_devices(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_conformance(int argc, char **argv);

/* Open a context on a device spec (NULL: CLGATHER_DEVICE or the default). Returns 0 or
 * CLI_EXIT_REFUSED with the failure recorded. */
struct clg_context;
int cli_open_context(const char *device_spec, int verify, struct clg_context **out);

#endif
