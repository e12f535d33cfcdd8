/* What the commands over data and indices .npy files (gather, gather-elements, gather-nd) share once
 * their descriptor holds the two tensors: shape the output (data's element type), run the operation on
 * the chosen device, and write the output file, none on failure. */
#ifndef CLI_DATA_INDICES_RUN_H
#define CLI_DATA_INDICES_RUN_H

#include "tensor.h"

typedef struct cli_data_indices_call {
    const char *command, *preset; /* for messages: "gather-nd", "onnx-13" */
    const void *desc;             /* the operation's descriptor, its tensors set */
    clg_status (*output_shape)(const void *desc, int32_t *rank, int64_t *shape);
    clg_status (*run)(clg_context *ctx, const void *desc, const cli_tensor *data, const cli_tensor *indices,
                      cli_tensor *output);
} cli_data_indices_call;

typedef struct cli_data_indices_files {
    const char *data, *indices, *out; /* paths */
    const char *device;               /* a device spec, or NULL for the default */
    int verify;
} cli_data_indices_files;

/* Run call on data and indices (read from files->data and files->indices) into output, and write it
 * to files->out. Returns 0 or an exit status with the failure recorded. */
int cli_run_data_indices(const cli_data_indices_call *call, const cli_data_indices_files *files, const cli_tensor *data,
                         const cli_tensor *indices, cli_tensor *output);

#endif
