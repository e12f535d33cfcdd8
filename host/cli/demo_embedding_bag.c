#include "demo_embedding_bag.h"

#include "cli_error.h"
#include "tensor.h"
#include "tensor_format.h"

#include <stdio.h>
#include <string.h>

enum { BAG_MAX_VALUES = 30, BAG_MAX_INDICES = 8 };

typedef struct demo_bag_case {
    const char *title;
    clg_embedding_bag_desc desc;
    const float *table;
    int64_t indices[BAG_MAX_INDICES];
    int64_t bags[BAG_MAX_INDICES]; /* offsets or segment ids */
    float weights[BAG_MAX_INDICES];
    double expected[BAG_MAX_VALUES]; /* as the spec prints them (to 1e-6), or exact */
} demo_bag_case;

static const float ov_table[] = {-0.2f, -0.6f, -0.1f, -0.4f, -1.9f, -1.8f, -1.f, 1.5f, 0.8f, -0.7f};
static const float torch_table[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                    16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30};

#define TABLE(n, d)          \
    {                        \
        CLG_F32, 2, { n, d } \
    }
#define I64(n)            \
    {                     \
        CLG_I64, 1, { n } \
    }
/* PyTorch's documented call: 8 indices in two bags of the [10, 3] table */
#define TORCH_DESC(mode_, ...)                                                                                \
    {                                                                                                         \
        .preset = CLG_TORCH_EMBEDDING_BAG, .bag_form = CLG_BAG_OFFSETS, .mode = mode_, .table = TABLE(10, 3), \
        .indices = I64(8), .offsets = I64(2), __VA_ARGS__                                                     \
    }
#define TORCH_INPUT \
    {1, 2, 4, 5, 4, 3, 2, 9}, { 0, 4 }

static const demo_bag_case demo_cases[] = {
    {"openvino EmbeddingBagOffsetsSum-3: example (indices [0, 2, 3, 4], offsets [0, 2, 2], default_index 0, "
     "weights 0.5)",
     {.preset = CLG_OV_EMBEDDING_BAG_OFFSETS_3,
      .bag_form = CLG_BAG_OFFSETS,
      .table = TABLE(5, 2),
      .indices = I64(4),
      .offsets = I64(3),
      .per_sample_weights = {CLG_F32, 1, {4}},
      .has_default_index = 1},
     ov_table,
     {0, 2, 3, 4},
     {0, 2, 2},
     {0.5f, 0.5f, 0.5f, 0.5f},
     {-1.05, -1.2, -0.2, -0.6, -0.1, 0.4}},
    {"openvino EmbeddingBagPackedSum-3: example (indices [[0, 2], [1, 2], [3, 4]], weights 0.5)",
     {.preset = CLG_OV_EMBEDDING_BAG_PACKED_3,
      .bag_form = CLG_BAG_PACKED,
      .table = TABLE(5, 2),
      .indices = {CLG_I64, 2, {3, 2}},
      .per_sample_weights = {CLG_F32, 2, {3, 2}}},
     ov_table,
     {0, 2, 1, 2, 3, 4},
     {0},
     {0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f},
     {-1.05, -1.2, -1., -1.1, -0.1, 0.4}},
    {"openvino EmbeddingSegmentsSum-3: example (indices [0, 2, 3, 4], segment_ids [0, 0, 2, 2], num_segments 3, "
     "default_index 0, weights 0.5)",
     {.preset = CLG_OV_EMBEDDING_SEGMENTS_SUM_3,
      .bag_form = CLG_BAG_SEGMENTS,
      .table = TABLE(5, 2),
      .indices = I64(4),
      .segment_ids = I64(4),
      .per_sample_weights = {CLG_F32, 1, {4}},
      .num_segments = 3,
      .has_default_index = 1},
     ov_table,
     {0, 2, 3, 4},
     {0, 0, 2, 2},
     {0.5f, 0.5f, 0.5f, 0.5f},
     {-1.05, -1.2, -0.2, -0.6, -0.1, 0.4}},
    {"torch embedding_bag: documented call, mode mean (input [1, 2, 4, 5, 4, 3, 2, 9], offsets [0, 4])",
     TORCH_DESC(CLG_BAG_MEAN),
     torch_table,
     TORCH_INPUT,
     {0},
     {10, 11, 12, 14.5, 15.5, 16.5}},
    {"torch embedding_bag: documented call, mode max",
     TORCH_DESC(CLG_BAG_MAX),
     torch_table,
     TORCH_INPUT,
     {0},
     {16, 17, 18, 28, 29, 30}},
    {"torch EmbeddingBag: padding_idx example (input [2, 2, 2, 2, 4, 3, 2, 9], padding_idx 2, mode sum)",
     TORCH_DESC(CLG_BAG_SUM, .has_padding_idx = 1, .padding_idx = 2),
     torch_table,
     {2, 2, 2, 2, 4, 3, 2, 9},
     {0, 4},
     {0},
     {0, 0, 0, 51, 54, 57}},
};

/* Whether every output value is the expected one to within 1e-6 (the specs print rounded decimals). */
static int matches(const float *out, const double *expected, uint64_t count)
{
    for (uint64_t i = 0; i < count; ++i) {
        const double difference = out[i] - expected[i], size = expected[i] < 0 ? -expected[i] : expected[i];
        const double allowed = 1e-6 * (size > 1 ? size : 1);
        if (!(difference <= allowed && -difference <= allowed)) return 0; /* a NaN fails too */
    }
    return 1;
}

static int run_case(clg_context *ctx, int number, const demo_bag_case *c)
{
    printf("[%2d] embedding bag: %s\n", number, c->title);
    uint64_t table_bytes = 0, index_bytes = 0, bags_bytes = 0, weights_bytes = 0, out_bytes = 0;
    int32_t rank = 0;
    int64_t shape[CLG_MAX_OUTPUT_RANK];
    cli_tensor output = {0}, reference = {0};
    char problem[1024] = "";
    clg_status st = clg_embedding_bag_output_shape(&c->desc, &rank, shape);
    if (st == CLG_SUCCESS)
        st = clg_embedding_bag_sizes(&c->desc, &table_bytes, &index_bytes, &bags_bytes, &weights_bytes, &out_bytes);
    if (st != CLG_SUCCESS) cli_fail_status(st, "clg_embedding_bag_sizes");
    const void *weights = weights_bytes ? c->weights : NULL;
    if (st == CLG_SUCCESS && cli_tensor_alloc(&output, CLG_F32, rank, shape, "output") == 0 &&
        cli_tensor_alloc(&reference, CLG_F32, rank, shape, "reference output") == 0) {
        st = clg_embedding_bag(ctx, &c->desc, c->table, table_bytes, c->indices, index_bytes, c->bags, bags_bytes,
                               weights, weights_bytes, output.bytes, output.byte_size);
        if (st != CLG_SUCCESS) cli_fail_status(st, "clg_embedding_bag");
        const clg_status ref_st =
            clg_embedding_bag_reference(&c->desc, c->table, table_bytes, c->indices, index_bytes, c->bags, bags_bytes,
                                        weights, weights_bytes, reference.bytes, reference.byte_size);
        if (st == CLG_SUCCESS && ref_st != CLG_SUCCESS) cli_fail_status(ref_st, "clg_embedding_bag_reference");
    }
    cli_take_failure(problem, sizeof problem);
    if (!problem[0] && memcmp(output.bytes, reference.bytes, output.byte_size) != 0)
        snprintf(problem, sizeof problem, "differs from the CPU reference");
    else if (!problem[0] && !matches((const float *)output.bytes, c->expected, output.count))
        snprintf(problem, sizeof problem, "differs from the spec's values");
    if (output.bytes) {
        printf("     %-9s", "output");
        cli_print_tensor(stdout, &output, BAG_MAX_VALUES);
        printf("\n");
    }
    printf("     %-12s %s\n", clg_embedding_bag_preset_name(c->desc.preset),
           problem[0] ? "FAIL" : "PASS  = reference = the spec's values");
    if (problem[0]) printf("     %s\n", problem);
    cli_tensor_free(&reference);
    cli_tensor_free(&output);
    return problem[0] == '\0';
}

/* The demo's table-batched calls (six i64 indices, five offsets, output [2, 5] f32): the call and the CPU
 * reference, bit for bit, and the hand-checked values; prints the output and the verdict under `label`. */
static int check_tables_case(clg_context *ctx, const clg_embedding_bag_tables_desc *desc, const void *tables,
                             size_t tables_bytes, const int64_t indices[6], const int64_t offsets[5],
                             const double expected[10], const char *label, const char *caption)
{
    float output[10], reference[10];
    char problem[1024] = "";
    clg_status st = clg_embedding_bag_tables(ctx, desc, tables, tables_bytes, indices, 6 * sizeof *indices, offsets,
                                             5 * sizeof *offsets, NULL, 0, output, sizeof output);
    if (st != CLG_SUCCESS) cli_fail_status(st, "clg_embedding_bag_tables");
    const clg_status ref_st =
        clg_embedding_bag_tables_reference(desc, tables, tables_bytes, indices, 6 * sizeof *indices, offsets,
                                           5 * sizeof *offsets, NULL, 0, reference, sizeof reference);
    if (st == CLG_SUCCESS && ref_st != CLG_SUCCESS) cli_fail_status(ref_st, "clg_embedding_bag_tables_reference");
    cli_take_failure(problem, sizeof problem);
    if (!problem[0] && memcmp(output, reference, sizeof output) != 0)
        snprintf(problem, sizeof problem, "differs from the CPU reference");
    else if (!problem[0] && !matches(output, expected, 10))
        snprintf(problem, sizeof problem, "differs from the hand-checked values");
    if (st == CLG_SUCCESS) {
        const int64_t shape[] = {2, 5};
        cli_tensor shown = {0};
        if (cli_tensor_alloc(&shown, CLG_F32, 2, shape, "output") == 0) {
            memcpy(shown.bytes, output, sizeof output);
            printf("     %-9s", "output");
            cli_print_tensor(stdout, &shown, BAG_MAX_VALUES);
            printf("  %s\n", caption);
        }
        cli_tensor_free(&shown);
    }
    printf("     %-12s %s\n", label, problem[0] ? "FAIL" : "PASS  = reference = hand-checked values");
    if (problem[0]) printf("     %s\n", problem);
    return problem[0] == '\0';
}

/* The table-batched call (FBGEMM's TBE): the OpenVINO table [5, 2] and PyTorch's [10, 3] in one buffer, B = 2,
 * offsets table-major with the last: table 0's bags {0, 4} and {}, table 1's {9} and {1, 2, 3}. */
static int run_tables_case(clg_context *ctx, int number)
{
    printf("[%2d] embedding bag: table-batched (FBGEMM TBE), tables [5, 2] and [10, 3], indices [0, 4, 9, 1, 2, 3], "
           "offsets [0, 2, 2, 3, 6], mode sum\n",
           number);
    static float tables[10 + 30];
    memcpy(tables, ov_table, sizeof ov_table);
    memcpy(tables + 10, torch_table, sizeof torch_table);
    static const clg_embedding_bag_table layout[] = {{.type = CLG_F32, .rows = 5, .width = 2},
                                                     {.type = CLG_F32, .rows = 10, .width = 3, .byte_offset = 40}};
    static const int64_t indices[] = {0, 4, 9, 1, 2, 3}, offsets[] = {0, 2, 2, 3, 6};
    static const double expected[] = {0.6, -1.3, 28, 29, 30, 0, 0, 21, 24, 27};
    const clg_embedding_bag_tables_desc desc = {
        .num_tables = 2, .tables = layout, .indices = I64(6), .offsets = I64(5), .include_last_offset = 1};
    return check_tables_case(ctx, &desc, tables, sizeof tables, indices, offsets, expected, "tables",
                             "(table 0's 2 columns, then table 1's 3)");
}

/* The table-batched call over FBGEMM's inference mix: the OpenVINO table [5, 2] in f32 beside PyTorch's [10, 3] as
 * fbgemm-8bit-rowwise rows (q = the value, 1 .. 30, scale 0.5, bias -1: row r dequantizes to 0.5 * (3r + 1 .. 3r + 3)
 * - 1), one launch, f32 out; the bags of run_tables_case. */
static int run_tables_mix_case(clg_context *ctx, int number)
{
    printf("[%2d] embedding bag: table-batched FBGEMM mix (inference TBE), f32 [5, 2] and fbgemm-8bit-rowwise [10, 3] "
           "(scale 0.5, bias -1), indices [0, 4, 9, 1, 2, 3], offsets [0, 2, 2, 3, 6], mode sum\n",
           number);
    static unsigned char tables[40 + 10 * 11];
    memcpy(tables, ov_table, sizeof ov_table);
    const float scale = 0.5f, bias = -1.f;
    for (int r = 0; r < 10; ++r) {
        unsigned char *row = tables + 40 + 11 * r;
        for (int c = 0; c < 3; ++c) row[c] = (unsigned char)torch_table[3 * r + c];
        memcpy(row + 3, &scale, 4);
        memcpy(row + 7, &bias, 4);
    }
    static const clg_embedding_bag_table layout[] = {
        {.type = CLG_F32, .rows = 5, .width = 2},
        {.quant_layout = CLG_QUANT_FBGEMM_8BIT_ROWWISE, .rows = 10, .width = 3, .byte_offset = 40}};
    static const int64_t indices[] = {0, 4, 9, 1, 2, 3}, offsets[] = {0, 2, 2, 3, 6};
    static const double expected[] = {0.6, -1.3, 13, 13.5, 14, 0, 0, 7.5, 9, 10.5};
    const clg_embedding_bag_tables_desc desc = {.num_tables = 2,
                                                .tables = layout,
                                                .indices = I64(6),
                                                .offsets = I64(5),
                                                .include_last_offset = 1,
                                                .output_type = CLG_F32};
    return check_tables_case(ctx, &desc, tables, sizeof tables, indices, offsets, expected, "tables mix",
                             "(the f32 table's 2 columns, then the 8-bit table's 3)");
}

/* A quantized table, checked by hand: OpenVINO's compressed u8 rows [3, 4], value c of row r stored as
 * 10 + 4r + c, a scale per row (1, 2, 0.5) and one zero point, 10, so rows dequantize to {0, 1, 2, 3},
 * {8, 10, 12, 14} and {4, 4.5, 5, 5.5}. Offsets [0, 0, 1] over indices [2, 0] with weights [3, -1]: bag 0
 * is empty and gives the default row 1, bag 1 is 3 x row 2, bag 2 is -1 x row 0. */
static int run_quantized_case(clg_context *ctx, int number)
{
    printf("[%2d] embedding bag: over a quantized table (OpenVINO compressed u8 [3, 4], scales [1, 2, 0.5], zero "
           "point 10; indices [2, 0], offsets [0, 0, 1], weights [3, -1], default_index 1)\n",
           number);
    static const uint8_t data[12] = {10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21}, zero_point[1] = {10};
    static const float scales[3] = {1.f, 2.f, 0.5f}, weights[2] = {3.f, -1.f};
    static const int64_t indices[2] = {2, 0}, offsets[3] = {0, 0, 1};
    static const double expected[12] = {8, 10, 12, 14, 12, 13.5, 15, 16.5, 0, -1, -2, -3};
    clg_embedding_bag_quantized_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.bag = (clg_embedding_bag_desc){.preset = CLG_OV_EMBEDDING_BAG_OFFSETS_15,
                                        .bag_form = CLG_BAG_OFFSETS,
                                        .indices = I64(2),
                                        .offsets = I64(3),
                                        .per_sample_weights = {CLG_F32, 1, {2}},
                                        .has_default_index = 1,
                                        .default_index = 1};
    desc.layout = CLG_QUANT_OV_COMPRESSED;
    desc.data = (clg_quant_tensor_desc){CLG_QUANT_U8, 2, {3, 4}};
    desc.scales = (clg_tensor_desc){CLG_F32, 2, {3, 1}};
    desc.zero_points = (clg_quant_tensor_desc){CLG_QUANT_U8, 1, {1}};
    int32_t rank = 0;
    int64_t shape[CLG_MAX_OUTPUT_RANK];
    cli_tensor output = {0}, reference = {0};
    char problem[1024] = "";
    clg_status st = clg_embedding_bag_quantized_output_shape(&desc, &rank, shape, NULL);
    if (st != CLG_SUCCESS) cli_fail_status(st, "clg_embedding_bag_quantized_output_shape");
    if (st == CLG_SUCCESS && cli_tensor_alloc(&output, CLG_F32, rank, shape, "output") == 0 &&
        cli_tensor_alloc(&reference, CLG_F32, rank, shape, "reference output") == 0) {
        st = clg_embedding_bag_quantized(ctx, &desc, data, sizeof data, scales, sizeof scales, zero_point,
                                         sizeof zero_point, indices, sizeof indices, offsets, sizeof offsets, weights,
                                         sizeof weights, output.bytes, output.byte_size);
        if (st != CLG_SUCCESS) cli_fail_status(st, "clg_embedding_bag_quantized");
        const clg_status ref_st = clg_embedding_bag_quantized_reference(
            &desc, data, sizeof data, scales, sizeof scales, zero_point, sizeof zero_point, indices, sizeof indices,
            offsets, sizeof offsets, weights, sizeof weights, reference.bytes, reference.byte_size);
        if (st == CLG_SUCCESS && ref_st != CLG_SUCCESS)
            cli_fail_status(ref_st, "clg_embedding_bag_quantized_reference");
    }
    cli_take_failure(problem, sizeof problem);
    if (!problem[0] && memcmp(output.bytes, reference.bytes, output.byte_size) != 0)
        snprintf(problem, sizeof problem, "differs from the CPU reference");
    else if (!problem[0] && !matches((const float *)output.bytes, expected, output.count))
        snprintf(problem, sizeof problem, "differs from the values worked out by hand");
    if (output.bytes) {
        printf("     %-9s", "output");
        cli_print_tensor(stdout, &output, BAG_MAX_VALUES);
        printf("\n");
    }
    printf("     %-12s %s\n", clg_quant_layout_name(desc.layout),
           problem[0] ? "FAIL" : "PASS  = reference = the values worked out by hand");
    if (problem[0]) printf("     %s\n", problem);
    cli_tensor_free(&reference);
    cli_tensor_free(&output);
    return problem[0] == '\0';
}

int demo_embedding_bag_run(clg_context *ctx, int first_number, int *runs, int *passed)
{
    const int count = (int)(sizeof demo_cases / sizeof demo_cases[0]);
    for (int i = 0; i < count; ++i) {
        *runs += 1;
        *passed += run_case(ctx, first_number + i, &demo_cases[i]);
    }
    *runs += 3;
    *passed += run_tables_case(ctx, first_number + count);
    *passed += run_tables_mix_case(ctx, first_number + count + 1);
    *passed += run_quantized_case(ctx, first_number + count + 2);
    return count + 3;
}
