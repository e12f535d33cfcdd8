#include "demo_family.h"

#include "cli_error.h"
#include "tensor.h"
#include "tensor_format.h"

#include <stdio.h>
#include <string.h>

enum { SHOWN = 48, MOST = 24 };

typedef enum family_op { ELEMENTS, ND } family_op;

/* Preset bits (1 << preset value) of the operation the example names. */
#define PRESET(p) (1u << (unsigned)(p))
#define GE_ONNX   (PRESET(CLG_ONNX_GATHER_ELEMENTS_11) | PRESET(CLG_ONNX_GATHER_ELEMENTS_13))
#define GE_ALL    (GE_ONNX | PRESET(CLG_OV_GATHER_ELEMENTS_6))
#define GE_OV     PRESET(CLG_OV_GATHER_ELEMENTS_6)
#define ND_ONNX12 (PRESET(CLG_ONNX_GATHER_ND_12) | PRESET(CLG_ONNX_GATHER_ND_13))
#define ND_OV     (PRESET(CLG_OV_GATHER_ND_5) | PRESET(CLG_OV_GATHER_ND_8))
#define ND_ALL    (PRESET(CLG_ONNX_GATHER_ND_11) | ND_ONNX12 | ND_OV)

/* An example: i32 data, i64 indices (as the specs write them), the attribute (axis or batch_dims),
 * and the output the spec states. out_rank_ov5 / out_shape_ov5: ov-gather-nd-5's flattened shape
 * where it differs (out_rank_ov5 = -1: the same). */
typedef struct family_case {
    family_op op;
    const char *spec, *title;
    unsigned presets;
    int32_t data_rank;
    int64_t data_shape[4];
    int32_t data[MOST];
    int32_t index_rank;
    int64_t index_shape[4];
    int64_t indices[MOST];
    int64_t attribute;
    int32_t out_rank;
    int64_t out_shape[4];
    int32_t out_rank_ov5;
    int64_t out_shape_ov5[4];
    int32_t expected[MOST];
} family_case;

#define COUNTING_24                                                                           \
    {                                                                                         \
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24 \
    }

/* clang-format off */
static const family_case cases[] = {
    {ELEMENTS, "onnx GatherElements-11/13", "example 1: axis 1", GE_ALL, 2, {2, 2}, {1, 2, 3, 4}, 2, {2, 2},
     {0, 0, 1, 0}, 1, 2, {2, 2}, -1, {0}, {1, 1, 4, 3}},
    {ELEMENTS, "onnx GatherElements-11/13", "example 2: axis 0, fewer rows", GE_ALL, 2, {3, 3},
     {1, 2, 3, 4, 5, 6, 7, 8, 9}, 2, {2, 3}, {1, 2, 0, 2, 0, 0}, 0, 2, {2, 3}, -1, {0}, {4, 8, 3, 7, 2, 3}},
    {ELEMENTS, "onnx GatherElements-11/13", "negative indices (ONNX node test)", GE_ALL, 2, {3, 3},
     {1, 2, 3, 4, 5, 6, 7, 8, 9}, 2, {2, 3}, {-1, -2, 0, -2, 0, 0}, 0, 2, {2, 3}, -1, {0}, {7, 5, 3, 4, 2, 3}},
    {ELEMENTS, "openvino GatherElements-6", "example 1: axis 0", GE_OV, 2, {2, 2}, {1, 2, 3, 4}, 2, {2, 2},
     {0, 1, 0, 0}, 0, 2, {2, 2}, -1, {0}, {1, 4, 1, 2}},
    {ELEMENTS, "openvino GatherElements-6", "example 2: indices longer along the axis", GE_OV, 2, {2, 2},
     {1, 7, 4, 3}, 2, {2, 3}, {1, 1, 0, 1, 0, 1}, 1, 2, {2, 3}, -1, {0}, {7, 7, 1, 3, 4, 3}},
    {ELEMENTS, "openvino GatherElements-6", "example 3: indices shorter along the axis", GE_OV, 2, {3, 3},
     {1, 2, 3, 4, 5, 6, 7, 8, 9}, 2, {2, 3}, {1, 0, 1, 1, 2, 0}, 0, 2, {2, 3}, -1, {0}, {4, 2, 6, 4, 8, 3}},
    {ND, "onnx GatherND-11/12/13", "example 1: elements", ND_ALL, 2, {2, 2}, {0, 1, 2, 3}, 2, {2, 2},
     {0, 0, 1, 1}, 0, 1, {2}, -1, {0}, {0, 3}},
    {ND, "onnx GatherND-11/12/13", "example 2: slices", ND_ALL, 2, {2, 2}, {0, 1, 2, 3}, 2, {2, 1}, {1, 0}, 0, 2,
     {2, 2}, -1, {0}, {2, 3, 0, 1}},
    {ND, "onnx GatherND-11/12/13", "example 3: slices of rank-3 data", ND_ALL, 3, {2, 2, 2},
     {0, 1, 2, 3, 4, 5, 6, 7}, 2, {2, 2}, {0, 1, 1, 0}, 0, 2, {2, 2}, -1, {0}, {2, 3, 4, 5}},
    {ND, "onnx GatherND-11/12/13", "example 4: leading index dimensions", ND_ALL, 3, {2, 2, 2},
     {0, 1, 2, 3, 4, 5, 6, 7}, 3, {2, 1, 2}, {0, 1, 1, 0}, 0, 3, {2, 1, 2}, -1, {0}, {2, 3, 4, 5}},
    {ND, "onnx GatherND-12/13", "example 5: batch_dims 1", ND_ONNX12 | ND_OV, 3, {2, 2, 2},
     {0, 1, 2, 3, 4, 5, 6, 7}, 2, {2, 1}, {1, 0}, 1, 2, {2, 2}, -1, {0}, {2, 3, 4, 5}},
    {ND, "openvino GatherND-5/8", "example 1: elements", ND_OV, 2, {2, 2}, {1, 2, 3, 4}, 2, {2, 2}, {0, 0, 1, 0}, 0,
     1, {2}, -1, {0}, {1, 3}},
    {ND, "openvino GatherND-5/8", "example 2: slices", ND_OV, 2, {2, 2}, {1, 2, 3, 4}, 2, {2, 1}, {1, 0}, 0, 2,
     {2, 2}, -1, {0}, {3, 4, 1, 2}},
    {ND, "openvino GatherND-5/8", "example 3: slices, leading dimensions", ND_OV, 2, {2, 2}, {1, 2, 3, 4}, 3,
     {2, 1, 1}, {1, 0}, 0, 3, {2, 1, 2}, -1, {0}, {3, 4, 1, 2}},
    {ND, "openvino GatherND-5/8", "example 4: batch_dims 1, elements", ND_OV, 2, {2, 2}, {1, 2, 3, 4}, 2, {2, 1},
     {1, 0}, 1, 1, {2}, -1, {0}, {2, 3}},
    {ND, "openvino GatherND-5/8", "example 5: batch_dims 1, slices", ND_OV, 3, {2, 3, 4}, COUNTING_24, 2, {2, 1},
     {1, 0}, 1, 2, {2, 4}, -1, {0}, {5, 6, 7, 8, 13, 14, 15, 16}},
    {ND, "openvino GatherND-5/8", "example 6: batch_dims 2 (GatherND-5 flattens the batch)", ND_OV, 3, {2, 3, 4},
     COUNTING_24, 4, {2, 3, 1, 1}, {1, 0, 2, 0, 2, 2}, 2, 3, {2, 3, 1}, 2, {6, 1}, {2, 5, 11, 13, 19, 23}},
    {ND, "openvino GatherND-8", "example 7: batch_dims 3", PRESET(CLG_OV_GATHER_ND_8), 4, {1, 2, 2, 4}, COUNTING_24, 4,
     {1, 2, 2, 1}, {1, 0, 3, 2}, 3, 3, {1, 2, 2}, -1, {0}, {2, 5, 12, 15}},
};
/* clang-format on */

static const char *preset_name(family_op op, int preset)
{
    return op == ELEMENTS ? clg_gather_elements_preset_name((clg_gather_elements_preset)preset)
                          : clg_gather_nd_preset_name((clg_gather_nd_preset)preset);
}

static int same_shape(int32_t rank_a, const int64_t *a, int32_t rank_b, const int64_t *b)
{
    if (rank_a != rank_b) return 0;
    for (int32_t i = 0; i < rank_a; ++i)
        if (a[i] != b[i]) return 0;
    return 1;
}

/* One example under one preset: the device, the reference, the spec's shape and values. */
static int run_preset(clg_context *ctx, const family_case *c, int preset, const cli_tensor *data,
                      const cli_tensor *indices, int print_output)
{
    clg_gather_elements_desc ge;
    clg_gather_nd_desc nd;
    memset(&ge, 0, sizeof ge);
    memset(&nd, 0, sizeof nd);
    ge.preset = (clg_gather_elements_preset)preset;
    nd.preset = (clg_gather_nd_preset)preset;
    ge.data = nd.data = cli_tensor_desc(data);
    ge.indices = nd.indices = cli_tensor_desc(indices);
    ge.axis = nd.batch_dims = c->attribute;
    const int elements = c->op == ELEMENTS;

    cli_tensor output = {0}, reference = {0};
    char problem[1024] = "";
    int32_t rank = 0;
    int64_t shape[CLG_MAX_OUTPUT_RANK];
    clg_status st =
        elements ? clg_gather_elements_output_shape(&ge, &rank, shape) : clg_gather_nd_output_shape(&nd, &rank, shape);
    if (st != CLG_SUCCESS) {
        cli_fail_status(st, "output shape");
    } else if (cli_tensor_alloc(&output, CLG_I32, rank, shape, "output") == 0 &&
               cli_tensor_alloc(&reference, CLG_I32, rank, shape, "reference output") == 0) {
        st = elements ? clg_gather_elements(ctx, &ge, data->bytes, data->byte_size, indices->bytes, indices->byte_size,
                                            output.bytes, output.byte_size)
                      : clg_gather_nd(ctx, &nd, data->bytes, data->byte_size, indices->bytes, indices->byte_size,
                                      output.bytes, output.byte_size);
        clg_status ref = elements
                             ? clg_gather_elements_reference(&ge, data->bytes, data->byte_size, indices->bytes,
                                                             indices->byte_size, reference.bytes, reference.byte_size)
                             : clg_gather_nd_reference(&nd, data->bytes, data->byte_size, indices->bytes,
                                                       indices->byte_size, reference.bytes, reference.byte_size);
        if (st != CLG_SUCCESS)
            cli_fail_status(st, "the device");
        else if (ref != CLG_SUCCESS)
            cli_fail_status(ref, "the CPU reference");
    }
    cli_take_failure(problem, sizeof problem);
    const int flattened = preset == CLG_OV_GATHER_ND_5 && !elements && c->out_rank_ov5 >= 0;
    if (!problem[0]) {
        if (!same_shape(rank, shape, flattened ? c->out_rank_ov5 : c->out_rank,
                        flattened ? c->out_shape_ov5 : c->out_shape))
            snprintf(problem, sizeof problem, "output shape differs from the spec's");
        else if (memcmp(output.bytes, reference.bytes, output.byte_size) != 0)
            snprintf(problem, sizeof problem, "differs from the CPU reference");
        else if (memcmp(output.bytes, c->expected, output.byte_size) != 0)
            snprintf(problem, sizeof problem, "differs from the spec's output values");
    }
    if (print_output && !problem[0]) {
        printf("     %-9s", "output");
        cli_print_tensor(stdout, &output, SHOWN);
        printf("\n");
    }
    if (problem[0])
        printf("     %-22s FAIL  %s\n", preset_name(c->op, preset), problem);
    else
        printf("     %-22s PASS  = reference = spec values, spec shape\n", preset_name(c->op, preset));
    cli_tensor_free(&reference);
    cli_tensor_free(&output);
    return !problem[0];
}

static void print_labelled(const char *label, const cli_tensor *t)
{
    printf("     %-9s", label);
    cli_print_tensor(stdout, t, SHOWN);
    printf("\n");
}

void demo_family_run(clg_context *ctx, int *number, demo_family_tally *tally)
{
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        const family_case *c = &cases[k];
        printf("[%2d] %s: %s\n", (*number)++, c->spec, c->title);
        cli_tensor data = {0}, indices = {0};
        if (cli_tensor_alloc(&data, CLG_I32, c->data_rank, c->data_shape, "demo data") != 0 ||
            cli_tensor_alloc(&indices, CLG_I64, c->index_rank, c->index_shape, "demo indices") != 0) {
            char problem[1024];
            cli_take_failure(problem, sizeof problem);
            printf("     FAIL  %s\n", problem);
            tally->runs += 1;
        } else {
            memcpy(data.bytes, c->data, data.byte_size);
            memcpy(indices.bytes, c->indices, indices.byte_size);
            print_labelled("data", &data);
            print_labelled("indices", &indices);
            printf("     %s %lld\n", c->op == ELEMENTS ? "axis" : "batch_dims", (long long)c->attribute);
            const int count =
                c->op == ELEMENTS ? (int)CLG_GATHER_ELEMENTS_PRESET_COUNT : (int)CLG_GATHER_ND_PRESET_COUNT;
            int first = 1;
            for (int p = 1; p < count; ++p) {
                if (!(c->presets & PRESET(p))) continue;
                tally->runs += 1;
                tally->passed += run_preset(ctx, c, p, &data, &indices, first);
                first = 0;
            }
        }
        cli_tensor_free(&indices);
        cli_tensor_free(&data);
    }
}
