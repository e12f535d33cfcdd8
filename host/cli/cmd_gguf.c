/* clgather gguf FILE: a GGUF file's tensors (name, type, shape, bytes), each as clgather
 * gather-quantized --gguf FILE --tensor NAME would read it. */
#include "cli_args.h"
#include "cli_error.h"
#include "commands.h"
#include "gguf.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

int cmd_gguf(int argc, char **argv)
{
    const char *file = NULL;
    int positional_count = 0;
    int rc = cli_parse_options("gguf", argc, argv, NULL, 0, &file, &positional_count, 1);
    if (rc != 0) return rc;
    if (positional_count != 1) return cli_fail(CLI_EXIT_USAGE, "gguf: give one GGUF file (clgather gguf FILE)");
    cli_gguf g;
    if (cli_gguf_open(file, &g) != 0) return CLI_EXIT_REFUSED;
    printf("%s: GGUF version %u, %" PRIu64 " tensor%s, %" PRIu64 " metadata entr%s, alignment %" PRIu64 "\n", file,
           g.version, g.tensor_count, g.tensor_count == 1 ? "" : "s", g.metadata_count,
           g.metadata_count == 1 ? "y" : "ies", g.alignment);
    size_t width = 4;
    for (uint64_t k = 0; k < g.tensor_count; ++k)
        if (strlen(g.tensors[k].name) > width) width = strlen(g.tensors[k].name);
    printf("%-*s  %-8s %-26s %14s %14s\n", (int)width, "name", "type", "shape", "bytes", "offset");
    for (uint64_t k = 0; k < g.tensor_count; ++k) {
        const cli_gguf_tensor *t = &g.tensors[k];
        char shape[96];
        int n = snprintf(shape, sizeof shape, "[");
        for (int32_t d = 0; d < t->rank && n > 0 && (size_t)n < sizeof shape; ++d)
            n += snprintf(shape + n, sizeof shape - (size_t)n, "%s%" PRId64, d ? ", " : "", t->shape[d]);
        if (n > 0 && (size_t)n < sizeof shape) snprintf(shape + n, sizeof shape - (size_t)n, "]");
        printf("%-*s  %-8s %-26s %14" PRIu64 " %14" PRIu64 "\n", (int)width, t->name, t->type->name, shape, t->bytes,
               t->offset);
    }
    cli_gguf_close(&g);
    return 0;
}
