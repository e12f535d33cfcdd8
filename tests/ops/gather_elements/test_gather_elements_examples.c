/* Every worked example of the ONNX GatherElements operator page (opsets 11, 13: its examples
 * gather_elements_0, gather_elements_1 and gather_elements_negative_indices) and of the OpenVINO
 * GatherElements-6 specification (examples 1 to 3 and the shape example), each its own test, each
 * checked on the CPU reference, the synchronous OpenCL path and the enqueue path (with guard bytes),
 * under both kernel mappings, against the values and the output shape the spec gives. */
#include "op_support.h"

/* The example through every entry point (op_support.h); the output has the indices' shape. */
#define EXAMPLE(d, dat, idx, want)                                                                                  \
    do {                                                                                                            \
        const clg_gather_elements_desc desc = d;                                                                    \
        support_check_example(&support_gather_elements, &desc, dat, sizeof dat, idx, sizeof idx, want, sizeof want, \
                              desc.indices.rank, desc.indices.shape);                                               \
    } while (0)

static const clg_gather_elements_preset onnx_presets[] = {CLG_ONNX_GATHER_ELEMENTS_11, CLG_ONNX_GATHER_ELEMENTS_13};
static const clg_gather_elements_preset all_presets[] = {CLG_ONNX_GATHER_ELEMENTS_11, CLG_ONNX_GATHER_ELEMENTS_13,
                                                         CLG_OV_GATHER_ELEMENTS_6};

/* ---- ONNX GatherElements (opsets 11, 13) ---- */

START_TEST(onnx_example_axis1)
{
    const int32_t data[] = {1, 2, 3, 4};
    const int64_t idx[] = {0, 0, 1, 0};
    const int32_t want[] = {1, 1, 4, 3};
    const int64_t s22[] = {2, 2};
    for (int p = 0; p < 2; ++p)
        EXAMPLE(support_elements_desc(onnx_presets[p], CLG_I32, 2, s22, CLG_I64, s22, 1), data, idx, want);
}
END_TEST

START_TEST(onnx_example_axis0)
{
    const int32_t data[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    const int32_t idx[] = {1, 2, 0, 2, 0, 0};
    const int32_t want[] = {4, 8, 3, 7, 2, 3};
    const int64_t ds[] = {3, 3}, is[] = {2, 3};
    for (int p = 0; p < 2; ++p)
        EXAMPLE(support_elements_desc(onnx_presets[p], CLG_I32, 2, ds, CLG_I32, is, 0), data, idx, want);
}
END_TEST

/* Negative indices wrap once on every preset (docs/semantics.md, GatherElements). */
START_TEST(onnx_example_negative_indices)
{
    const int32_t data[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    const int64_t idx[] = {-1, -2, 0, -2, 0, 0};
    const int32_t want[] = {7, 5, 3, 4, 2, 3};
    const int64_t ds[] = {3, 3}, is[] = {2, 3};
    for (int p = 0; p < 3; ++p)
        EXAMPLE(support_elements_desc(all_presets[p], CLG_I32, 2, ds, CLG_I64, is, 0), data, idx, want);
}
END_TEST

/* ---- OpenVINO GatherElements-6 ---- */

START_TEST(ov_example1_axis0)
{
    const int32_t data[] = {1, 2, 3, 4};
    const int32_t idx[] = {0, 1, 0, 0};
    const int32_t want[] = {1, 4, 1, 2};
    const int64_t s22[] = {2, 2};
    EXAMPLE(support_elements_desc(CLG_OV_GATHER_ELEMENTS_6, CLG_I32, 2, s22, CLG_I32, s22, 0), data, idx, want);
}
END_TEST

START_TEST(ov_example2_indices_larger_along_axis)
{
    const int32_t data[] = {1, 7, 4, 3};
    const int64_t idx[] = {1, 1, 0, 1, 0, 1};
    const int32_t want[] = {7, 7, 1, 3, 4, 3};
    const int64_t ds[] = {2, 2}, is[] = {2, 3};
    EXAMPLE(support_elements_desc(CLG_OV_GATHER_ELEMENTS_6, CLG_I32, 2, ds, CLG_I64, is, 1), data, idx, want);
}
END_TEST

START_TEST(ov_example3_indices_smaller)
{
    const int32_t data[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    const int32_t idx[] = {1, 0, 1, 1, 2, 0};
    const int32_t want[] = {4, 2, 6, 4, 8, 3};
    const int64_t ds[] = {3, 3}, is[] = {2, 3};
    EXAMPLE(support_elements_desc(CLG_OV_GATHER_ELEMENTS_6, CLG_I32, 2, ds, CLG_I32, is, 0), data, idx, want);
}
END_TEST

/* The layer example: data [3, 7, 5], indices [3, 10, 5], axis 1, output [3, 10, 5], with the values
 * of the spec's equation out[i][j][k] = data[i][indices[i][j][k]][k]. */
START_TEST(ov_shape_example_axis1)
{
    enum { I = 3, D = 7, J = 10, K = 5 };
    float data[I * D * K], want[I * J * K];
    uint8_t idx[I * J * K];
    support_rng rng = {6};
    for (int n = 0; n < I * D * K; ++n) data[n] = (float)n + 0.5f;
    for (int n = 0; n < I * J * K; ++n) idx[n] = (uint8_t)support_below(&rng, D);
    for (int i = 0; i < I; ++i)
        for (int j = 0; j < J; ++j)
            for (int k = 0; k < K; ++k) want[(i * J + j) * K + k] = data[(i * D + idx[(i * J + j) * K + k]) * K + k];
    const int64_t ds[] = {I, D, K}, is[] = {I, J, K};
    EXAMPLE(support_elements_desc(CLG_OV_GATHER_ELEMENTS_6, CLG_F32, 3, ds, CLG_U8, is, 1), data, idx, want);
}
END_TEST

int main(void)
{
    return support_run_tests("gather_elements_examples", 600,
                             SUPPORT_TESTS(onnx_example_axis1, onnx_example_axis0, onnx_example_negative_indices,
                                           ov_example1_axis0, ov_example2_indices_larger_along_axis,
                                           ov_example3_indices_smaller, ov_shape_example_axis1));
}
