/* clgather: the command-line front end of the library (see "clgather --help"). */
#include "cli_error.h"
#include "commands.h"

#include <stdio.h>
#include <string.h>

static const char usage_text[] =
    "usage:\n"
    "  clgather gather --op PRESET --data D.npy --indices I.npy\n"
    "                  [--axis N | --axis-file A.npy] [--batch-dims N] [--oob error|zero|clamp]\n"
    "                  [--device SPEC] [--verify] --out OUT.npy\n"
    "  clgather gather-elements --op onnx-11|onnx-13|ov-gather-elements-6 --data D.npy --indices I.npy\n"
    "                  [--axis N] [--oob error|zero|clamp] [--device SPEC] [--verify] --out OUT.npy\n"
    "  clgather gather-nd --op onnx-11|onnx-12|onnx-13|ov-gather-nd-5|ov-gather-nd-8 --data D.npy\n"
    "                  --indices I.npy [--batch-dims N] [--oob error|zero|clamp] [--device SPEC] [--verify]\n"
    "                  --out OUT.npy\n"
    "  clgather gather-tree --step-ids S.npy --parent-ids P.npy --max-seq-len L.npy --end-token E.npy\n"
    "                  [--device SPEC] [--verify] --out OUT.npy\n"
    "  clgather gather-quantized --layout LAYOUT --data D.npy [--data-type u4|i4|u8|i8] [--data-shape SHAPE]\n"
    "                  --indices I.npy [--scales S.npy [--scales-type bf16]]\n"
    "                  [--zero-points Z.npy [--zero-points-shape SHAPE]] [--bits 2|4|8] [--block-size N]\n"
    "                  [--gather-axis N] [--quantize-axis N] [--output-type f32|f16|bf16]\n"
    "                  [--oob error|zero|clamp] [--device SPEC] [--verify] --out OUT.npy\n"
    "  clgather gather-quantized --gguf FILE --tensor NAME --indices I.npy [--gather-axis N]\n"
    "                  [--output-type f32|f16|bf16] [--oob error|zero|clamp] [--device SPEC] [--verify] --out OUT.npy\n"
    "  clgather embedding-bag --op PRESET --table T.npy [--table-type bf16] --indices I.npy\n"
    "                  [--offsets O.npy [--include-last-offset] | --segment-ids S.npy --num-segments N]\n"
    "                  [--mode sum|mean|max] [--weights W.npy] [--default-index K] [--padding-idx K]\n"
    "                  [--device SPEC] [--verify] --out OUT.npy   (no --offsets, no --segment-ids: packed 2-D "
    "indices)\n"
    "  clgather embedding-bag-tables --tables T0.npy,T1.npy,... [--table-type bf16] [--layouts L0,L1,...]\n"
    "                  [--output-type f32|f16|bf16] --indices I.npy\n"
    "                  --offsets O.npy [--include-last-offset] [--mode sum|mean|max] [--weights W.npy]\n"
    "                  [--device SPEC] [--verify] --out OUT.npy   (table-batched, FBGEMM's TBE: offsets [T*B(+1)]\n"
    "                  table-major, output [B, sum of the tables' widths]; --layouts: plain or a ggml / FBGEMM\n"
    "                  layout a table, its file uint8 rows)\n"
    "  clgather gguf FILE   (a GGUF file's tensors: name, ggml type, shape, bytes)\n"
    "  clgather devices\n"
    "  clgather demo [--device SPEC]\n"
    "  clgather conformance [--device SPEC] DIR...   (single-node ONNX models of the family)\n"
    "  clgather tune [--device SPEC] [--quick] [--cases FILE] [--dry-run]\n"
    "                  (measure the tunables on the benchmark's cases, store the device's tuning profile)\n"
    "  clgather --help | --version\n"
    "\n"
    "PRESET (gather): onnx-1 onnx-11 onnx-13 ov-gather-1 ov-gather-7 ov-gather-8\n"
    "  ONNX presets take the axis attribute (--axis, default 0); OpenVINO presets take an axis tensor:\n"
    "  --axis N is an i64 scalar, --axis-file gives one with its own type and shape (default 0).\n"
    "LAYOUT: ort-block (com.microsoft.GatherBlockQuantized; --quantize-axis defaults to 1, as there)\n"
    "  ggml-q4_0, ggml-q4_1, ggml-q5_0, ggml-q5_1, ggml-q8_0, ggml-iq4_nl, ggml-q2_K, ggml-q3_K, ggml-q4_K,\n"
    "  ggml-q5_K, ggml-q6_K, ggml-iq4_xs (data uint8 [rows, bytes per row]; no scales) ov-compressed (OpenVINO)\n"
    "  fbgemm-8bit-rowwise, fbgemm-4bit-rowwise (PyTorch's prepacked EmbeddingBag rows: data uint8\n"
    "  [rows, bytes per row], each row its values, then its scale and bias; no scales)\n"
    "  4-bit data and zero points are uint8 files of packed bytes (low nibble first) with their logical\n"
    "  shape in --data-shape / --zero-points-shape (default: the scales' shape), e.g. 4,32;\n"
    "  bf16 scales and outputs are uint16 files of their bits.\n"
    "PRESET (embedding-bag): ov-embedding-bag-offsets-3 ov-embedding-bag-offsets-15 ov-embedding-bag-packed-3\n"
    "  ov-embedding-bag-packed-15 ov-embedding-segments-sum-3 torch-embedding-bag; tables f32, f16 or f64,\n"
    "  or bf16 as uint16 files of their bits (--table-type bf16: its weights and output too).\n"
    "SPEC: a device index from 'clgather devices', 'cpu' for the CPU reference, an implementation (pocl,\n"
    "  intel, rusticl, oclgrind, nvidia, amd), or a substring of the platform or device name; without --device, "
    "CLGATHER_DEVICE, else the first GPU, else the first device.\n"
    "--verify recomputes every result with the CPU reference and compares bit for bit.\n"
    "Exit status: 0 success, 1 the operation or a file was refused, 2 usage error.\n";

int main(int argc, char **argv)
{
    int rc;
    if (argc < 2) {
        rc = cli_fail(CLI_EXIT_USAGE, "no command given (see 'clgather --help')");
    } else {
        const char *command = argv[1];
        int rest = argc - 2;
        char **rest_argv = argv + 2;
        if (strcmp(command, "--help") == 0 || strcmp(command, "-h") == 0 || strcmp(command, "help") == 0) {
            fputs(usage_text, stdout);
            rc = CLI_EXIT_OK;
        } else if (strcmp(command, "--version") == 0) {
            printf("clgather %s\n", clg_version());
            rc = CLI_EXIT_OK;
        } else if (strcmp(command, "gather") == 0) {
            rc = cmd_gather(rest, rest_argv);
        } else if (strcmp(command, "gather-elements") == 0) {
            rc = cmd_gather_elements(rest, rest_argv);
        } else if (strcmp(command, "embedding-bag") == 0) {
            rc = cmd_embedding_bag(rest, rest_argv);
        } else if (strcmp(command, "embedding-bag-tables") == 0) {
            rc = cmd_embedding_bag_tables(rest, rest_argv);
        } else if (strcmp(command, "gather-nd") == 0) {
            rc = cmd_gather_nd(rest, rest_argv);
        } else if (strcmp(command, "gather-tree") == 0) {
            rc = cmd_gather_tree(rest, rest_argv);
        } else if (strcmp(command, "gather-quantized") == 0) {
            rc = cmd_gather_quantized(rest, rest_argv);
        } else if (strcmp(command, "devices") == 0) {
            rc = cmd_devices(rest, rest_argv);
        } else if (strcmp(command, "demo") == 0) {
            rc = cmd_demo(rest, rest_argv);
        } else if (strcmp(command, "conformance") == 0) {
            rc = cmd_conformance(rest, rest_argv);
        } else if (strcmp(command, "tune") == 0) {
            rc = cmd_tune(rest, rest_argv);
        } else if (strcmp(command, "gguf") == 0) {
            rc = cmd_gguf(rest, rest_argv);
        } else {
            rc = cli_fail(CLI_EXIT_USAGE, "unknown command '%s' (see 'clgather --help')", command);
        }
    }
    if (fflush(stdout) != 0 && rc == CLI_EXIT_OK) rc = cli_fail(CLI_EXIT_REFUSED, "cannot write to standard output");
    /* every failure path records its reason; a non-zero status without one would be a bug here */
    if (rc != CLI_EXIT_OK && !cli_has_failed()) cli_fail(rc, "failed without a recorded reason (a bug in clgather)");
    cli_print_failure();
    return rc;
}
