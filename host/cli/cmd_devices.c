/* clgather devices: every OpenCL device the library sees, and the CPU reference. */
#include "cli_args.h"
#include "cli_error.h"
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>

static const char *device_type_name(cl_device_type type)
{
    if (type & CL_DEVICE_TYPE_GPU) return "GPU";
    if (type & CL_DEVICE_TYPE_CPU) return "CPU";
    if (type & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
    return "other";
}

static double mebibytes(uint64_t bytes) { return (double)bytes / (1024.0 * 1024.0); }

int cmd_devices(int argc, char **argv)
{
    int rc = cli_parse_options("devices", argc, argv, NULL, 0, NULL, NULL, 0);
    if (rc != 0) return rc;
    size_t count = 0;
    clg_status st = clg_list_devices(NULL, 0, &count);
    if (st != CLG_SUCCESS) return cli_fail_status(st, "devices: cannot list the OpenCL devices");
    clg_device_info *infos = calloc(count ? count : 1, sizeof *infos);
    if (!infos) return cli_fail(CLI_EXIT_REFUSED, "devices: out of memory");
    size_t listed = 0;
    st = clg_list_devices(infos, count, &listed);
    if (st != CLG_SUCCESS) {
        free(infos);
        return cli_fail_status(st, "devices: cannot list the OpenCL devices");
    }
    if (listed < count) count = listed; /* a device went away between the two calls */
    printf("clgather %s: %zu OpenCL device%s\n", clg_version(), count, count == 1 ? "" : "s");
    for (size_t i = 0; i < count; ++i) {
        const clg_device_info *d = &infos[i];
        printf("[%d]%s %s (%s)\n", (int)d->index, d->is_default ? " (default)" : "", d->device_name,
               device_type_name(d->type));
        printf("    platform:       %s, %s\n", d->platform_name, d->platform_version);
        printf("    vendor:         %s\n", d->vendor);
        printf("    driver:         %s\n", d->driver_version);
        printf("    OpenCL C:       %s\n", d->opencl_c_version);
        printf("    global memory:  %.0f MiB\n", mebibytes(d->global_mem_bytes));
        printf("    max allocation: %.0f MiB\n", mebibytes(d->max_alloc_bytes));
        printf("    fp16: %s, fp64: %s\n", d->has_fp16 ? "yes" : "no", d->has_fp64 ? "yes" : "no");
    }
    if (count == 0) printf("no OpenCL device found\n");
    printf("[cpu] CPU reference (plain C, no OpenCL; --device cpu)\n");
    printf("select with --device N, --device cpu, --device <name substring>, or CLGATHER_DEVICE\n");
    free(infos);
    return 0;
}
