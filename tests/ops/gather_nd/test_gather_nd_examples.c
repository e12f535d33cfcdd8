/* Every worked example of the ONNX GatherND operator page (opsets 11, 12, 13: examples 1 to 5) and of
 * the OpenVINO GatherND-5 and GatherND-8 specifications (their examples and layer examples), each its
 * own test, each checked on the CPU reference, the synchronous OpenCL path and the enqueue path (with
 * guard bytes), under both kernel mappings, against the values and the output shape the spec gives.
 * Generated inputs are checked against the spec's formula, written out here. */
#include "op_support.h"

#include <stdlib.h>

/* The example through every entry point (op_support.h), with its output shape want_shape. */
#define EXAMPLE(d, dat, idx, want, want_shape)                                                                \
    do {                                                                                                      \
        const clg_gather_nd_desc desc = d;                                                                    \
        support_check_example(&support_gather_nd, &desc, dat, sizeof dat, idx, sizeof idx, want, sizeof want, \
                              (int32_t)(sizeof want_shape / sizeof want_shape[0]), want_shape);               \
    } while (0)
#define DESC(preset, dat, data_shape, idx_shape, b)                                                            \
    support_nd_desc(preset, CLG_I32, (int32_t)(sizeof data_shape / sizeof data_shape[0]), data_shape, CLG_I64, \
                    (int32_t)(sizeof idx_shape / sizeof idx_shape[0]), idx_shape, b)

static const clg_gather_nd_preset all_presets[] = {CLG_ONNX_GATHER_ND_11, CLG_ONNX_GATHER_ND_12, CLG_ONNX_GATHER_ND_13,
                                                   CLG_OV_GATHER_ND_5, CLG_OV_GATHER_ND_8};
static const clg_gather_nd_preset batch_presets[] = {CLG_ONNX_GATHER_ND_12, CLG_ONNX_GATHER_ND_13, CLG_OV_GATHER_ND_5,
                                                     CLG_OV_GATHER_ND_8};

static const int32_t square[] = {0, 1, 2, 3};           /* [[0, 1], [2, 3]] */
static const int32_t cube[] = {0, 1, 2, 3, 4, 5, 6, 7}; /* [[[0, 1], [2, 3]], [[4, 5], [6, 7]]] */
static const int64_t s2[] = {2}, s22[] = {2, 2}, s222[] = {2, 2, 2}, s21[] = {2, 1}, s212[] = {2, 1, 2};

/* ---- ONNX GatherND (opsets 11, 12, 13) ---- */

START_TEST(onnx_example1_elements)
{
    const int64_t idx[] = {0, 0, 1, 1};
    const int32_t want[] = {0, 3};
    for (int p = 0; p < 5; ++p) EXAMPLE(DESC(all_presets[p], square, s22, s22, 0), square, idx, want, s2);
}
END_TEST

START_TEST(onnx_example2_slices)
{
    const int64_t idx[] = {1, 0};
    const int32_t want[] = {2, 3, 0, 1};
    for (int p = 0; p < 5; ++p) EXAMPLE(DESC(all_presets[p], square, s22, s21, 0), square, idx, want, s22);
}
END_TEST

START_TEST(onnx_example3_rank3_slices)
{
    const int64_t idx[] = {0, 1, 1, 0};
    const int32_t want[] = {2, 3, 4, 5};
    for (int p = 0; p < 5; ++p) EXAMPLE(DESC(all_presets[p], cube, s222, s22, 0), cube, idx, want, s22);
}
END_TEST

START_TEST(onnx_example4_leading_dimensions)
{
    const int64_t idx[] = {0, 1, 1, 0};
    const int32_t want[] = {2, 3, 4, 5};
    for (int p = 0; p < 5; ++p) EXAMPLE(DESC(all_presets[p], cube, s222, s212, 0), cube, idx, want, s212);
}
END_TEST

START_TEST(onnx_example5_batch_dims1)
{
    const int64_t idx[] = {1, 0};
    const int32_t want[] = {2, 3, 4, 5};
    /* GatherND-5 flattens the one batch dimension into itself: the same shape */
    for (int p = 0; p < 4; ++p) EXAMPLE(DESC(batch_presets[p], cube, s222, s21, 1), cube, idx, want, s22);
}
END_TEST

/* Negative components wrap once on every preset (docs/semantics.md, GatherND). */
START_TEST(negative_components_wrap_once)
{
    const int64_t idx[] = {-2, -1, -1, 0};
    const int32_t want[] = {2, 3, 4, 5};
    for (int p = 0; p < 5; ++p) EXAMPLE(DESC(all_presets[p], cube, s222, s22, 0), cube, idx, want, s22);
}
END_TEST

/* ---- OpenVINO GatherND-5 and GatherND-8 ---- */

static const int32_t ov_square[] = {1, 2, 3, 4};
static int32_t ov_counting[24]; /* 1, 2, .., 24: the examples' data of shape (2, 3, 4) and (1, 2, 2, 4) */

static void fill_counting(void)
{
    for (int k = 0; k < 24; ++k) ov_counting[k] = k + 1;
}

START_TEST(ov_examples_1_to_3)
{
    const int64_t idx1[] = {0, 0, 1, 0}, idx2[] = {1, 0}, idx3[] = {1, 0}, s211[] = {2, 1, 1}, s2d[] = {2, 1, 2};
    const int32_t want1[] = {1, 3}, want2[] = {3, 4, 1, 2}, want3[] = {3, 4, 1, 2};
    const clg_gather_nd_preset ov[] = {CLG_OV_GATHER_ND_5, CLG_OV_GATHER_ND_8};
    for (int p = 0; p < 2; ++p) {
        EXAMPLE(DESC(ov[p], ov_square, s22, s22, 0), ov_square, idx1, want1, s2);
        EXAMPLE(DESC(ov[p], ov_square, s22, s21, 0), ov_square, idx2, want2, s22);
        EXAMPLE(DESC(ov[p], ov_square, s22, s211, 0), ov_square, idx3, want3, s2d);
    }
}
END_TEST

START_TEST(ov_example4_batch_elements)
{
    const int64_t idx[] = {1, 0};
    const int32_t want[] = {2, 3};
    EXAMPLE(DESC(CLG_OV_GATHER_ND_5, ov_square, s22, s21, 1), ov_square, idx, want, s2);
    EXAMPLE(DESC(CLG_OV_GATHER_ND_8, ov_square, s22, s21, 1), ov_square, idx, want, s2);
}
END_TEST

START_TEST(ov_example5_batch_slices)
{
    fill_counting();
    const int64_t ds[] = {2, 3, 4}, idx[] = {1, 0}, os[] = {2, 4};
    const int32_t want[] = {5, 6, 7, 8, 13, 14, 15, 16};
    EXAMPLE(DESC(CLG_OV_GATHER_ND_5, ov_counting, ds, s21, 1), ov_counting, idx, want, os);
    EXAMPLE(DESC(CLG_OV_GATHER_ND_8, ov_counting, ds, s21, 1), ov_counting, idx, want, os);
}
END_TEST

/* batch_dims 2 on (2, 3, 4) by (2, 3, 1, 1): GatherND-5 flattens the batch to (6, 1), GatherND-8 keeps
 * it, (2, 3, 1). */
START_TEST(ov_example6_batch_dims2)
{
    fill_counting();
    const int64_t ds[] = {2, 3, 4}, is[] = {2, 3, 1, 1}, os5[] = {6, 1}, os8[] = {2, 3, 1};
    const int64_t idx[] = {1, 0, 2, 0, 2, 2};
    const int32_t want[] = {2, 5, 11, 13, 19, 23};
    EXAMPLE(DESC(CLG_OV_GATHER_ND_5, ov_counting, ds, is, 2), ov_counting, idx, want, os5);
    EXAMPLE(DESC(CLG_OV_GATHER_ND_8, ov_counting, ds, is, 2), ov_counting, idx, want, os8);
}
END_TEST

START_TEST(ov_gather8_example7_batch_dims3)
{
    fill_counting();
    const int64_t ds[] = {1, 2, 2, 4}, is[] = {1, 2, 2, 1}, os[] = {1, 2, 2};
    const int64_t idx[] = {1, 0, 3, 2};
    const int32_t want[] = {2, 5, 12, 15};
    EXAMPLE(DESC(CLG_OV_GATHER_ND_8, ov_counting, ds, is, 3), ov_counting, idx, want, os);
}
END_TEST

/* The layer examples, with generated inputs checked against the spec's formula: every tuple component
 * in [0, extent), out[batch, tuple position, :] = data[batch, tuple, :]. */
static void layer_example(clg_gather_nd_preset preset, clg_dtype type, int32_t data_rank, const int64_t *ds,
                          int32_t indices_rank, const int64_t *is, int64_t b, int32_t out_rank, const int64_t *os)
{
    const size_t elem = clg_dtype_size(type);
    const int32_t m = (int32_t)is[indices_rank - 1];
    uint64_t data_elems = 1, tuples = 1, slice = 1, batch = 1, rows = 1;
    for (int32_t d = 0; d < data_rank; ++d) data_elems *= (uint64_t)ds[d];
    for (int32_t d = 0; d < indices_rank - 1; ++d) tuples *= (uint64_t)is[d];
    for (int32_t d = 0; d < b; ++d) batch *= (uint64_t)ds[d];
    for (int32_t d = (int32_t)b; d < (int32_t)b + m; ++d) rows *= (uint64_t)ds[d];
    for (int32_t d = (int32_t)b + m; d < data_rank; ++d) slice *= (uint64_t)ds[d];
    unsigned char *data = malloc(data_elems * elem), *want = malloc(tuples * slice * elem);
    int64_t *idx = malloc(tuples * (uint64_t)m * sizeof *idx);
    ck_assert(data && want && idx);
    support_rng rng = {(uint64_t)data_rank * 31 + (uint64_t)b};
    for (uint64_t k = 0; k < data_elems * elem; ++k) data[k] = (unsigned char)support_next(&rng);
    const uint64_t per_batch = tuples / batch;
    for (uint64_t t = 0; t < tuples; ++t) {
        uint64_t row = 0;
        for (int32_t j = 0; j < m; ++j) {
            idx[t * (uint64_t)m + (uint64_t)j] = (int64_t)support_below(&rng, (uint64_t)ds[b + j]);
            row = row * (uint64_t)ds[b + j] + (uint64_t)idx[t * (uint64_t)m + (uint64_t)j];
        }
        memcpy(want + t * slice * elem, data + ((t / per_batch) * rows + row) * slice * elem, slice * elem);
    }
    clg_gather_nd_desc d = support_nd_desc(preset, type, data_rank, ds, CLG_I64, indices_rank, is, b);
    support_check_example(&support_gather_nd, &d, data, data_elems * elem, idx, tuples * (uint64_t)m * sizeof *idx,
                          want, tuples * slice * elem, out_rank, os);
    free(data);
    free(want);
    free(idx);
}

START_TEST(ov_layer_example_slices_of_rank4_data)
{
    /* [1000, 256, 10, 15] by [25, 125, 3] -> [25, 125, 15], u8 elements (38 MB of data) */
    const int64_t ds[] = {1000, 256, 10, 15}, is[] = {25, 125, 3}, os[] = {25, 125, 15};
    layer_example(CLG_OV_GATHER_ND_5, CLG_U8, 4, ds, 3, is, 0, 3, os);
    layer_example(CLG_OV_GATHER_ND_8, CLG_U8, 4, ds, 3, is, 0, 3, os);
}
END_TEST

START_TEST(ov_layer_example_batch_dims2)
{
    /* [30, 2, 100, 35] by [30, 2, 3, 1]: GatherND-5 -> [60, 3, 35], GatherND-8 -> [30, 2, 3, 35] */
    const int64_t ds[] = {30, 2, 100, 35}, is[] = {30, 2, 3, 1}, os5[] = {60, 3, 35}, os8[] = {30, 2, 3, 35};
    layer_example(CLG_OV_GATHER_ND_5, CLG_F32, 4, ds, 4, is, 2, 3, os5);
    layer_example(CLG_OV_GATHER_ND_8, CLG_F32, 4, ds, 4, is, 2, 4, os8);
}
END_TEST

START_TEST(ov_gather8_layer_example_batch_dims3)
{
    /* [1, 64, 64, 320] by [1, 64, 64, 1, 1] -> [1, 64, 64, 1] */
    const int64_t ds[] = {1, 64, 64, 320}, is[] = {1, 64, 64, 1, 1}, os[] = {1, 64, 64, 1};
    layer_example(CLG_OV_GATHER_ND_8, CLG_F32, 4, ds, 5, is, 3, 4, os);
}
END_TEST

int main(void)
{
    return support_run_tests(
        "gather_nd_examples", 600,
        SUPPORT_TESTS(onnx_example1_elements, onnx_example2_slices, onnx_example3_rank3_slices,
                      onnx_example4_leading_dimensions, onnx_example5_batch_dims1, negative_components_wrap_once,
                      ov_examples_1_to_3, ov_example4_batch_elements, ov_example5_batch_slices, ov_example6_batch_dims2,
                      ov_gather8_example7_batch_dims3, ov_layer_example_slices_of_rank4_data,
                      ov_layer_example_batch_dims2, ov_gather8_layer_example_batch_dims3));
}
