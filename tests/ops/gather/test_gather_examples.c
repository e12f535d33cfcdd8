/* Every worked example of the ONNX Gather operator page (opsets 1, 11, 13) and of the OpenVINO
 * Gather-1, -7 and -8 specifications, each its own test, each checked on the CPU reference, the
 * synchronous OpenCL path and the enqueue path (with guard bytes), under both kernel mappings, against
 * the values and the output shape the spec gives. */
#include "op_support.h"

#include <stdio.h>
#include <stdlib.h>

/* The example through every entry point (op_support.h), with its output shape want_shape. */
#define EXAMPLE(d, dat, idx, want, want_shape)                                                             \
    do {                                                                                                   \
        const clg_gather_desc desc = d;                                                                    \
        support_check_example(&support_gather, &desc, dat, sizeof dat, idx, sizeof idx, want, sizeof want, \
                              (int32_t)(sizeof want_shape / sizeof want_shape[0]), want_shape);            \
    } while (0)

/* ---- ONNX Gather (opsets 1, 11, 13) ---- */

static const clg_preset onnx_presets[] = {CLG_ONNX_1, CLG_ONNX_11, CLG_ONNX_13};

START_TEST(onnx_example_axis0)
{
    const float data[] = {1.0f, 1.2f, 2.3f, 3.4f, 4.5f, 5.7f};
    const int64_t idx[] = {0, 1, 1, 2};
    const float want[] = {1.0f, 1.2f, 2.3f, 3.4f, 2.3f, 3.4f, 4.5f, 5.7f};
    const int64_t ds[] = {3, 2}, is[] = {2, 2}, os[] = {2, 2, 2};
    for (int p = 0; p < 3; ++p)
        EXAMPLE(support_onnx_desc(onnx_presets[p], CLG_F32, 2, ds, CLG_I64, 2, is, 0), data, idx, want, os);
}
END_TEST

START_TEST(onnx_example_axis1)
{
    const float data[] = {1.0f, 1.2f, 1.9f, 2.3f, 3.4f, 3.9f, 4.5f, 5.7f, 5.9f};
    const int32_t idx[] = {0, 2};
    const float want[] = {1.0f, 1.9f, 2.3f, 3.9f, 4.5f, 5.9f};
    const int64_t ds[] = {3, 3}, is[] = {1, 2}, os[] = {3, 1, 2};
    for (int p = 0; p < 3; ++p)
        EXAMPLE(support_onnx_desc(onnx_presets[p], CLG_F32, 2, ds, CLG_I32, 2, is, 1), data, idx, want, os);
}
END_TEST

/* The shape table, with P=3, Q=4, R=2, S=3 and data[i] = i, expected values from the table's equations. */
START_TEST(onnx_table_scalar_axis0)
{
    int32_t data[12];
    for (int i = 0; i < 12; ++i) data[i] = i;
    const int64_t idx[] = {2};
    int32_t want[4];
    for (int q = 0; q < 4; ++q) want[q] = data[2 * 4 + q]; /* output[q] = data[indices, q] */
    const int64_t ds[] = {3, 4}, os[] = {4};
    EXAMPLE(support_onnx_desc(CLG_ONNX_13, CLG_I32, 2, ds, CLG_I64, 0, NULL, 0), data, idx, want, os);
}
END_TEST

START_TEST(onnx_table_scalar_axis1)
{
    int32_t data[3 * 4 * 2];
    for (int i = 0; i < 24; ++i) data[i] = 100 + i;
    const int64_t idx[] = {-1}; /* = 3 */
    int32_t want[3 * 2];
    for (int p = 0; p < 3; ++p)
        for (int r = 0; r < 2; ++r) want[p * 2 + r] = data[(p * 4 + 3) * 2 + r]; /* output[p, r] = data[p, i, r] */
    const int64_t ds[] = {3, 4, 2}, os[] = {3, 2};
    EXAMPLE(support_onnx_desc(CLG_ONNX_13, CLG_I32, 3, ds, CLG_I64, 0, NULL, 1), data, idx, want, os);
}
END_TEST

START_TEST(onnx_table_matrix_axis0)
{
    int16_t data[12];
    for (int i = 0; i < 12; ++i) data[i] = (int16_t)(7 * i);
    const int32_t idx[] = {0, 2, 1, 2, 0, 1};
    int16_t want[2 * 3 * 4];
    for (int r = 0; r < 2; ++r)
        for (int s = 0; s < 3; ++s)
            for (int q = 0; q < 4; ++q) want[(r * 3 + s) * 4 + q] = data[idx[r * 3 + s] * 4 + q];
    const int64_t ds[] = {3, 4}, is[] = {2, 3}, os[] = {2, 3, 4};
    EXAMPLE(support_onnx_desc(CLG_ONNX_11, CLG_I16, 2, ds, CLG_I32, 2, is, 0), data, idx, want, os);
}
END_TEST

START_TEST(onnx_table_matrix_axis1)
{
    double data[12];
    for (int i = 0; i < 12; ++i) data[i] = 0.5 * i;
    const int64_t idx[] = {3, 0, 1, 1, 2, 3};
    double want[3 * 2 * 3];
    for (int p = 0; p < 3; ++p)
        for (int k = 0; k < 6; ++k) want[p * 6 + k] = data[p * 4 + idx[k]];
    const int64_t ds[] = {3, 4}, is[] = {2, 3}, os[] = {3, 2, 3};
    EXAMPLE(support_onnx_desc(CLG_ONNX_1, CLG_F64, 2, ds, CLG_I64, 2, is, 1), data, idx, want, os);
}
END_TEST

/* ---- OpenVINO Gather-1: the shape example [6,12,10,24] x [15,4,20,28], axis 1 ---- */

START_TEST(ov_gather1_shape_example)
{
    if (support_platform_is("Oclgrind")) { /* every instruction is checked there: about half an hour */
        printf("skipped on Oclgrind: the shape example writes 48 MB (it runs on every other implementation)\n");
        return;
    }
    const int64_t ds[] = {6, 12, 10, 24}, is[] = {15, 4, 20, 28}, os[] = {6, 15, 4, 20, 28, 10, 24}, axis = 1;
    const size_t data_n = 6 * 12 * 10 * 24, idx_n = 15 * 4 * 20 * 28, out_n = 6 * idx_n * 10 * 24;
    uint8_t *data = malloc(data_n);
    int32_t *idx = malloc(idx_n * sizeof *idx);
    uint8_t *want = malloc(out_n);
    support_rng rng = {1};
    for (size_t i = 0; i < data_n; ++i) data[i] = (uint8_t)support_next(&rng);
    for (size_t i = 0; i < idx_n; ++i) idx[i] = (int32_t)support_below(&rng, 12);
    for (size_t p = 0; p < 6; ++p) /* output equation of the spec, written out */
        for (size_t k = 0; k < idx_n; ++k)
            memcpy(want + (p * idx_n + k) * 240, data + (p * 12 + (size_t)idx[k]) * 240, 240);
    clg_gather_desc d = support_ov_desc(CLG_OV_GATHER_1, CLG_U8, 4, ds, CLG_I32, 4, is, &axis, 0);
    support_check_example(&support_gather, &d, data, data_n, idx, idx_n * sizeof *idx, want, out_n, 7, os);
    free(data);
    free(idx);
    free(want);
}
END_TEST

/* ---- OpenVINO Gather-7 and Gather-8: examples 1-5 are shared ---- */

static void example1(clg_preset preset)
{
    const int32_t data[] = {1, 2, 3, 4, 5};
    const int64_t idx[] = {0, 0, 4}, axis = 0;
    const int32_t want[] = {1, 1, 5};
    const int64_t ds[] = {5}, is[] = {3}, os[] = {3};
    EXAMPLE(support_ov_desc(preset, CLG_I32, 1, ds, CLG_I64, 1, is, &axis, 0), data, idx, want, os);
}

static void example2(clg_preset preset, int64_t batch_dims)
{
    const int32_t data[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    const int64_t idx[] = {0, 0, 4, 4, 0, 0}, axis = 1;
    const int32_t want[] = {1, 1, 5, 10, 6, 6};
    const int64_t ds[] = {2, 5}, is[] = {2, 3}, os[] = {2, 3};
    EXAMPLE(support_ov_desc(preset, CLG_I32, 2, ds, CLG_I64, 2, is, &axis, batch_dims), data, idx, want, os);
}

static void example3(clg_preset preset)
{
    int32_t data[20];
    for (int i = 0; i < 20; ++i) data[i] = i + 1;
    const int64_t idx[] = {0, 0, 4, 4, 0, 0, 1, 2, 4, 4, 3, 2}, axis = 2;
    const int32_t want[] = {1, 1, 5, 10, 6, 6, 12, 13, 15, 20, 19, 18};
    const int64_t ds[] = {2, 2, 5}, is[] = {2, 2, 3}, os[] = {2, 2, 3};
    EXAMPLE(support_ov_desc(preset, CLG_I32, 3, ds, CLG_I64, 3, is, &axis, 2), data, idx, want, os);
}

static void example4(clg_preset preset)
{
    int32_t data[40];
    for (int i = 0; i < 40; ++i) data[i] = i + 1;
    const int64_t idx[] = {1, 2, 4, 4, 3, 2}, axis = 2;
    const int32_t want[] = {5, 6, 7, 8, 9, 10, 11, 12, 17, 18, 19, 20, 37, 38, 39, 40, 33, 34, 35, 36, 29, 30, 31, 32};
    const int64_t ds[] = {2, 1, 5, 4}, is[] = {2, 3}, os[] = {2, 1, 3, 4};
    EXAMPLE(support_ov_desc(preset, CLG_I32, 4, ds, CLG_I64, 2, is, &axis, 1), data, idx, want, os);
}

/* The <layer> example of both specs: [2, 64, 128] x [2, 32, 21], batch_dims 1, axis 1. */
static void layer_example(clg_preset preset)
{
    enum { B = 2, A = 64, I = 128, N = 32 * 21 };
    static float data[B * A * I], want[B * N * I];
    static int64_t idx[B * N];
    support_rng rng = {7};
    for (size_t i = 0; i < B * A * I; ++i) data[i] = (float)support_next(&rng);
    for (size_t i = 0; i < B * N; ++i) idx[i] = (int64_t)support_below(&rng, A);
    for (size_t b = 0; b < B; ++b)
        for (size_t n = 0; n < N; ++n)
            memcpy(&want[(b * N + n) * I], &data[(b * A + (size_t)idx[b * N + n]) * I], I * 4);
    const int64_t ds[] = {2, 64, 128}, is[] = {2, 32, 21}, os[] = {2, 32, 21, 128}, axis = 1;
    EXAMPLE(support_ov_desc(preset, CLG_F32, 3, ds, CLG_I64, 3, is, &axis, 1), data, idx, want, os);
}

START_TEST(ov_gather7_example1_default_batch_dims) { example1(CLG_OV_GATHER_7); }
END_TEST
START_TEST(ov_gather7_example2_batch_dims_1) { example2(CLG_OV_GATHER_7, 1); }
END_TEST
START_TEST(ov_gather7_example3_batch_dims_2) { example3(CLG_OV_GATHER_7); }
END_TEST
START_TEST(ov_gather7_example4_axis_above_batch_dims) { example4(CLG_OV_GATHER_7); }
END_TEST
START_TEST(ov_gather7_example5_negative_batch_dims) { example2(CLG_OV_GATHER_7, -1); }
END_TEST
START_TEST(ov_gather7_layer_example) { layer_example(CLG_OV_GATHER_7); }
END_TEST

START_TEST(ov_gather8_example1_default_batch_dims) { example1(CLG_OV_GATHER_8); }
END_TEST
START_TEST(ov_gather8_example2_batch_dims_1) { example2(CLG_OV_GATHER_8, 1); }
END_TEST
START_TEST(ov_gather8_example3_batch_dims_2) { example3(CLG_OV_GATHER_8); }
END_TEST
START_TEST(ov_gather8_example4_axis_above_batch_dims) { example4(CLG_OV_GATHER_8); }
END_TEST
START_TEST(ov_gather8_example5_negative_batch_dims) { example2(CLG_OV_GATHER_8, -1); }
END_TEST
START_TEST(ov_gather8_layer_example) { layer_example(CLG_OV_GATHER_8); }
END_TEST

START_TEST(ov_gather8_example6_negative_indices)
{
    const int32_t data[] = {1, 2, 3, 4, 5};
    const int64_t idx[] = {0, -2, -1}, axis = 0;
    const int32_t want[] = {1, 4, 5};
    const int64_t ds[] = {5}, is[] = {3}, os[] = {3};
    EXAMPLE(support_ov_desc(CLG_OV_GATHER_8, CLG_I32, 1, ds, CLG_I64, 1, is, &axis, 0), data, idx, want, os);
}
END_TEST

START_TEST(ov_gather8_example7_out_of_range_zero)
{
    const int32_t data[] = {1, 2, 3, 4, 5};
    const int64_t idx[] = {3, 10, -20}, axis = 0;
    const int32_t want[] = {4, 0, 0};
    const int64_t ds[] = {5}, is[] = {3}, os[] = {3};
    EXAMPLE(support_ov_desc(CLG_OV_GATHER_8, CLG_I32, 1, ds, CLG_I64, 1, is, &axis, 0), data, idx, want, os);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("examples");
    TCase *onnx = tcase_create("onnx");
    tcase_add_test(onnx, onnx_example_axis0);
    tcase_add_test(onnx, onnx_example_axis1);
    tcase_add_test(onnx, onnx_table_scalar_axis0);
    tcase_add_test(onnx, onnx_table_scalar_axis1);
    tcase_add_test(onnx, onnx_table_matrix_axis0);
    tcase_add_test(onnx, onnx_table_matrix_axis1);
    suite_add_tcase(s, onnx);
    TCase *ov1 = tcase_create("ov_gather_1");
    tcase_set_timeout(ov1, 600);
    tcase_add_test(ov1, ov_gather1_shape_example);
    suite_add_tcase(s, ov1);
    TCase *ov7 = tcase_create("ov_gather_7");
    tcase_add_test(ov7, ov_gather7_example1_default_batch_dims);
    tcase_add_test(ov7, ov_gather7_example2_batch_dims_1);
    tcase_add_test(ov7, ov_gather7_example3_batch_dims_2);
    tcase_add_test(ov7, ov_gather7_example4_axis_above_batch_dims);
    tcase_add_test(ov7, ov_gather7_example5_negative_batch_dims);
    tcase_add_test(ov7, ov_gather7_layer_example);
    suite_add_tcase(s, ov7);
    TCase *ov8 = tcase_create("ov_gather_8");
    tcase_add_test(ov8, ov_gather8_example1_default_batch_dims);
    tcase_add_test(ov8, ov_gather8_example2_batch_dims_1);
    tcase_add_test(ov8, ov_gather8_example3_batch_dims_2);
    tcase_add_test(ov8, ov_gather8_example4_axis_above_batch_dims);
    tcase_add_test(ov8, ov_gather8_example5_negative_batch_dims);
    tcase_add_test(ov8, ov_gather8_example6_negative_indices);
    tcase_add_test(ov8, ov_gather8_example7_out_of_range_zero);
    tcase_add_test(ov8, ov_gather8_layer_example);
    suite_add_tcase(s, ov8);
    return support_run_suite(s);
}
