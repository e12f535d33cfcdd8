#include "demo_cases.h"

#define ONNX_ALL  (DEMO_PRESET(CLG_ONNX_1) | DEMO_PRESET(CLG_ONNX_11) | DEMO_PRESET(CLG_ONNX_13))
#define SPEC_ONNX "onnx-gather-1-11-13.md"
#define SPEC_OV1  "openvino-gather-1.rst"
#define SPEC_OV7  "openvino-gather-7.rst"
#define SPEC_OV8  "openvino-gather-8.txt"
#define SPEC_TREE "openvino-gathertree-1.rst"

/* ONNX, the two worked examples. */
static const double onnx1_data[] = {1.0, 1.2, 2.3, 3.4, 4.5, 5.7};
static const int64_t onnx1_indices[] = {0, 1, 1, 2};
static const double onnx1_out[] = {1.0, 1.2, 2.3, 3.4, 2.3, 3.4, 4.5, 5.7};
static const double onnx2_data[] = {1.0, 1.2, 1.9, 2.3, 3.4, 3.9, 4.5, 5.7, 5.9};
static const int64_t onnx2_indices[] = {0, 2};
static const double onnx2_out[] = {1.0, 1.9, 2.3, 3.9, 4.5, 5.9};

/* ONNX shape table with P=3, Q=4, R=2, S=3 (data generated 1, 2, 3, ...). */
static const int64_t table_scalar_2[] = {2};
static const int64_t table_scalar_1[] = {1};
static const int64_t table_rs_axis0[] = {0, 2, 1, 2, 2, 0};
static const int64_t table_rs_axis1[] = {3, 0, 1, 2, 3, 3};

/* OpenVINO Gather-7 and Gather-8 examples. */
static const double ov_1d_data[] = {1, 2, 3, 4, 5};
static const int64_t ov_ex1_indices[] = {0, 0, 4};
static const double ov_ex1_out[] = {1, 1, 5};
static const double ov_2x5_data[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
static const int64_t ov_ex2_indices[] = {0, 0, 4, 4, 0, 0};
static const double ov_ex2_out[] = {1, 1, 5, 10, 6, 6};
static const double ov_ex3_data[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20};
static const int64_t ov_ex3_indices[] = {0, 0, 4, 4, 0, 0, 1, 2, 4, 4, 3, 2};
static const double ov_ex3_out[] = {1, 1, 5, 10, 6, 6, 12, 13, 15, 20, 19, 18};
static const int64_t ov_ex4_indices[] = {1, 2, 4, 4, 3, 2};
static const double ov_ex4_out[] = {5,  6,  7,  8,  9,  10, 11, 12, 17, 18, 19, 20,
                                    37, 38, 39, 40, 33, 34, 35, 36, 29, 30, 31, 32};
static const int64_t ov_ex6_indices[] = {0, -2, -1};
static const double ov_ex6_out[] = {1, 4, 5};
static const int64_t ov_ex7_indices[] = {3, 10, -20};
static const double ov_ex7_out[] = {4, 0, 0};

#define OV7 DEMO_PRESET(CLG_OV_GATHER_7)
#define OV8 DEMO_PRESET(CLG_OV_GATHER_8)

/* Gather-7/8 Example 4's data is 1..40, generated. */
/* one table row per example */
/* clang-format off */
const demo_gather_case demo_gather_cases[] = {
    {SPEC_ONNX, "example 1: axis 0, 2-D indices", ONNX_ALL, CLG_F32, 2, {3, 2}, onnx1_data, CLG_I64, 2, {2, 2},
     onnx1_indices, 0, 0, 3, {2, 2, 2}, onnx1_out},
    {SPEC_ONNX, "example 2: axis 1", ONNX_ALL, CLG_F32, 2, {3, 3}, onnx2_data, CLG_I64, 2, {1, 2}, onnx2_indices, 1,
     0, 3, {3, 1, 2}, onnx2_out},
    {SPEC_ONNX, "shape table row 1: (P, Q), scalar, axis 0 -> (Q)", ONNX_ALL, CLG_F32, 2, {3, 4}, NULL, CLG_I32, 0,
     {0}, table_scalar_2, 0, 0, 1, {4}, NULL},
    {SPEC_ONNX, "shape table row 2: (P, Q, R), scalar, axis 1 -> (P, R)", ONNX_ALL, CLG_F32, 3, {3, 4, 2}, NULL,
     CLG_I64, 0, {0}, table_scalar_1, 1, 0, 2, {3, 2}, NULL},
    {SPEC_ONNX, "shape table row 3: (P, Q), (R, S), axis 0 -> (R, S, Q)", ONNX_ALL, CLG_F32, 2, {3, 4}, NULL, CLG_I32,
     2, {2, 3}, table_rs_axis0, 0, 0, 3, {2, 3, 4}, NULL},
    {SPEC_ONNX, "shape table row 4: (P, Q), (R, S), axis 1 -> (P, R, S)", ONNX_ALL, CLG_F32, 2, {3, 4}, NULL, CLG_I64,
     2, {2, 3}, table_rs_axis1, 1, 0, 3, {3, 2, 3}, NULL},

    {SPEC_OV1, "shape example: [6, 12, 10, 24] by [15, 4, 20, 28], axis 1", DEMO_PRESET(CLG_OV_GATHER_1), CLG_F32, 4,
     {6, 12, 10, 24}, NULL, CLG_I32, 4, {15, 4, 20, 28}, NULL, 1, 0, 7, {6, 15, 4, 20, 28, 10, 24}, NULL},

    {SPEC_OV7, "example 1: default batch_dims", OV7, CLG_I32, 1, {5}, ov_1d_data, CLG_I64, 1, {3}, ov_ex1_indices, 0,
     0, 1, {3}, ov_ex1_out},
    {SPEC_OV7, "example 2: batch_dims 1, axis 1", OV7, CLG_I32, 2, {2, 5}, ov_2x5_data, CLG_I64, 2, {2, 3},
     ov_ex2_indices, 1, 1, 2, {2, 3}, ov_ex2_out},
    {SPEC_OV7, "example 3: batch_dims 2, axis 2", OV7, CLG_I32, 3, {2, 2, 5}, ov_ex3_data, CLG_I32, 3, {2, 2, 3},
     ov_ex3_indices, 2, 2, 3, {2, 2, 3}, ov_ex3_out},
    {SPEC_OV7, "example 4: axis 2 > batch_dims 1", OV7, CLG_I32, 4, {2, 1, 5, 4}, NULL, CLG_I64, 2, {2, 3},
     ov_ex4_indices, 2, 1, 4, {2, 1, 3, 4}, ov_ex4_out},
    {SPEC_OV7, "example 5: batch_dims -1", OV7, CLG_I32, 2, {2, 5}, ov_2x5_data, CLG_I64, 2, {2, 3}, ov_ex2_indices, 1,
     -1, 2, {2, 3}, ov_ex2_out},
    {SPEC_OV7, "shape example: [2, 64, 128] by [2, 32, 21], batch_dims 1, axis 1", OV7, CLG_F32, 3, {2, 64, 128},
     NULL, CLG_I32, 3, {2, 32, 21}, NULL, 1, 1, 4, {2, 32, 21, 128}, NULL},

    {SPEC_OV8, "example 1: default batch_dims", OV8, CLG_I32, 1, {5}, ov_1d_data, CLG_I64, 1, {3}, ov_ex1_indices, 0,
     0, 1, {3}, ov_ex1_out},
    {SPEC_OV8, "example 2: batch_dims 1, axis 1", OV8, CLG_I32, 2, {2, 5}, ov_2x5_data, CLG_I64, 2, {2, 3},
     ov_ex2_indices, 1, 1, 2, {2, 3}, ov_ex2_out},
    {SPEC_OV8, "example 3: batch_dims 2, axis 2", OV8, CLG_I32, 3, {2, 2, 5}, ov_ex3_data, CLG_I32, 3, {2, 2, 3},
     ov_ex3_indices, 2, 2, 3, {2, 2, 3}, ov_ex3_out},
    {SPEC_OV8, "example 4: axis 2 > batch_dims 1", OV8, CLG_I32, 4, {2, 1, 5, 4}, NULL, CLG_I64, 2, {2, 3},
     ov_ex4_indices, 2, 1, 4, {2, 1, 3, 4}, ov_ex4_out},
    {SPEC_OV8, "example 5: batch_dims -1", OV8, CLG_I32, 2, {2, 5}, ov_2x5_data, CLG_I64, 2, {2, 3}, ov_ex2_indices, 1,
     -1, 2, {2, 3}, ov_ex2_out},
    {SPEC_OV8, "example 6: negative indices", OV8, CLG_I32, 1, {5}, ov_1d_data, CLG_I64, 1, {3}, ov_ex6_indices, 0, 0,
     1, {3}, ov_ex6_out},
    {SPEC_OV8, "example 7: indices out of range give zeros", OV8, CLG_I32, 1, {5}, ov_1d_data, CLG_I64, 1, {3},
     ov_ex7_indices, 0, 0, 1, {3}, ov_ex7_out},
    {SPEC_OV8, "shape example: [2, 64, 128] by [2, 32, 21], batch_dims 1, axis 1", OV8, CLG_F32, 3, {2, 64, 128},
     NULL, CLG_I32, 3, {2, 32, 21}, NULL, 1, 1, 4, {2, 32, 21, 128}, NULL},
};
/* clang-format on */
const size_t demo_gather_case_count = sizeof demo_gather_cases / sizeof demo_gather_cases[0];

/* A hand-checked GatherTree, [T=3, B=2, W=2], end_token 10. Batch 0 (length 3): beam 0 backtracks
 * 5 <- step[1][1]=10 <- step[0][0]=1, giving [1, 10, 5], and after the first end token [1, 10, 10];
 * beam 1 backtracks to [2, 3, 6]. Batch 1 (length 2): beams [7, 9] and [8, 10], then end tokens. */
static const double tree_steps[] = {1, 2, 7, 8, /* t=0 */ 3, 10, 9, 10, /* t=1 */ 5, 6, 11, 12 /* t=2 */};
static const double tree_parents[] = {0, 0, 0, 0, /* t=0 */ 1, 0, 0, 1, /* t=1 */ 1, 0, 0, 0 /* t=2 */};
static const double tree_lengths[] = {3, 2};
static const double tree_expected[] = {1, 2, 7, 8, 10, 3, 9, 10, 10, 6, 10, 10};
static const double tree_generated_length[] = {93};

/* one table row per example */
/* clang-format off */
const demo_gather_tree_case demo_gather_tree_cases[] = {
    {SPEC_TREE, "hand-checked: [3, 2, 2], lengths [3, 2], end_token 10", 3, 2, 2, tree_steps, tree_parents,
     tree_lengths, 10, tree_expected},
    {SPEC_TREE, "shape example: [100, 1, 10], generated, length 93, end_token 0", 100, 1, 10, NULL, NULL,
     tree_generated_length, 0, NULL},
};
/* clang-format on */
const size_t demo_gather_tree_case_count = sizeof demo_gather_tree_cases / sizeof demo_gather_tree_cases[0];
