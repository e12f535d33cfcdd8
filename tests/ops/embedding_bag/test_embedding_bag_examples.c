/* The worked examples of OpenVINO's EmbeddingBagOffsetsSum-3 / EmbeddingBagOffsets-15,
 * EmbeddingBagPackedSum-3 / EmbeddingBagPacked-15 and EmbeddingSegmentsSum-3 specifications, and
 * PyTorch's documented embedding_bag calls (input [1, 2, 4, 5, 4, 3, 2, 9], offsets [0, 4]; the
 * padding_idx example) over a table whose values make each sum checkable by hand: row r is
 * [3r + 1, 3r + 2, 3r + 3]. Each runs through every entry point on both mappings (bag_support.h). */
#include "bag_support.h"

#include <math.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* OpenVINO's example table [5, 2] */
static const float ov_table[] = {-0.2f, -0.6f, -0.1f, -0.4f, -1.9f, -1.8f, -1.f, 1.5f, 0.8f, -0.7f};

static bag_case ov_case(clg_embedding_bag_preset preset, clg_bag_form form)
{
    bag_case c = {.desc = {.preset = preset, .bag_form = form}};
    c.desc.table = bag_tensor(CLG_F32, 2, 5, 2);
    c.table = ov_table;
    c.table_bytes = sizeof ov_table;
    return c;
}

/* The case's host inputs (NULL and 0 where absent). */
static void with_inputs(bag_case *c, const void *indices, size_t index_bytes, const void *bags, size_t bags_bytes,
                        const void *weights, size_t weights_bytes)
{
    c->indices = indices, c->index_bytes = index_bytes;
    c->bags = bags, c->bags_bytes = bags_bytes;
    c->weights = weights, c->weights_bytes = weights_bytes;
}

/* The OpenVINO examples' output: bag 0 indices 0 and 2, bag 1 empty (row 0), bag 2 indices 3 and 4, weights 0.5 */
static const float ov_weighted_want[] = {0.5f * -0.2f + 0.5f * -1.9f, 0.5f * -0.6f + 0.5f * -1.8f, -0.2f, -0.6f,
                                         0.5f * -1.f + 0.5f * 0.8f,   0.5f * 1.5f + 0.5f * -0.7f};

static void run(bag_case *c, const float *want, size_t want_count, const char *name)
{
    c->out_bytes = want_count * sizeof(float);
    uint64_t out_bytes = 0;
    ck_assert_int_eq(clg_embedding_bag_sizes(&c->desc, NULL, NULL, NULL, NULL, &out_bytes), CLG_SUCCESS);
    ck_assert_uint_eq(out_bytes, c->out_bytes);
    bag_check_all_paths(c, want, CLG_SUCCESS, NULL, name);
}

/* EmbeddingBagOffsetsSum-3: offsets [0, 2, 2], default_index 0, weights 0.5: the empty bag takes row 0. */
START_TEST(ov_offsets_sum_with_weights_and_default_index)
{
    static const int32_t indices[] = {0, 2, 3, 4}, offsets[] = {0, 2, 2};
    static const float weights[] = {0.5f, 0.5f, 0.5f, 0.5f};
    for (int p = 0; p < 2; ++p) {
        bag_case c = ov_case(p ? CLG_OV_EMBEDDING_BAG_OFFSETS_15 : CLG_OV_EMBEDDING_BAG_OFFSETS_3, CLG_BAG_OFFSETS);
        c.desc.indices = bag_tensor(CLG_I32, 1, 4, 0);
        c.desc.offsets = bag_tensor(CLG_I32, 1, 3, 0);
        c.desc.per_sample_weights = bag_tensor(CLG_F32, 1, 4, 0);
        c.desc.has_default_index = 1;
        with_inputs(&c, indices, sizeof indices, offsets, sizeof offsets, weights, sizeof weights);
        run(&c, ov_weighted_want, COUNT(ov_weighted_want), "ov offsets example");
    }
}
END_TEST

/* EmbeddingBagOffsets-15 with reduction mean and no default_index: the empty bag is zeros. */
START_TEST(ov_offsets_15_mean)
{
    static const int64_t indices[] = {0, 2, 3, 4}, offsets[] = {0, 2, 2};
    const float want[] = {(-0.2f + -1.9f) / 2, (-0.6f + -1.8f) / 2, 0, 0, (-1.f + 0.8f) / 2, (1.5f + -0.7f) / 2};
    bag_case c = ov_case(CLG_OV_EMBEDDING_BAG_OFFSETS_15, CLG_BAG_OFFSETS);
    c.desc.mode = CLG_BAG_MEAN;
    c.desc.indices = bag_tensor(CLG_I64, 1, 4, 0);
    c.desc.offsets = bag_tensor(CLG_I64, 1, 3, 0);
    with_inputs(&c, indices, sizeof indices, offsets, sizeof offsets, NULL, 0);
    run(&c, want, COUNT(want), "ov offsets-15 mean");
}
END_TEST

/* EmbeddingBagPackedSum-3: indices [[0, 2], [1, 2], [3, 4]], weights 0.5. */
START_TEST(ov_packed_sum_with_weights)
{
    static const int32_t indices[] = {0, 2, 1, 2, 3, 4};
    static const float weights[] = {0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f};
    const float want[] = {0.5f * -0.2f + 0.5f * -1.9f, 0.5f * -0.6f + 0.5f * -1.8f, 0.5f * -0.1f + 0.5f * -1.9f,
                          0.5f * -0.4f + 0.5f * -1.8f, 0.5f * -1.f + 0.5f * 0.8f,   0.5f * 1.5f + 0.5f * -0.7f};
    for (int p = 0; p < 2; ++p) {
        bag_case c = ov_case(p ? CLG_OV_EMBEDDING_BAG_PACKED_15 : CLG_OV_EMBEDDING_BAG_PACKED_3, CLG_BAG_PACKED);
        c.desc.indices = bag_tensor(CLG_I32, 2, 3, 2);
        c.desc.per_sample_weights = bag_tensor(CLG_F32, 2, 3, 2);
        with_inputs(&c, indices, sizeof indices, NULL, 0, weights, sizeof weights);
        run(&c, want, COUNT(want), "ov packed example");
    }
}
END_TEST

/* EmbeddingSegmentsSum-3: indices [0, 2, 3, 4], segment_ids [0, 0, 2, 2], num_segments 3, default_index
 * 0, weights 0.5: segment 1 holds nothing and takes row 0. */
START_TEST(ov_segments_sum_with_weights_and_default_index)
{
    static const int32_t indices[] = {0, 2, 3, 4}, segments[] = {0, 0, 2, 2};
    static const float weights[] = {0.5f, 0.5f, 0.5f, 0.5f};
    bag_case c = ov_case(CLG_OV_EMBEDDING_SEGMENTS_SUM_3, CLG_BAG_SEGMENTS);
    c.desc.indices = bag_tensor(CLG_I32, 1, 4, 0);
    c.desc.segment_ids = bag_tensor(CLG_I32, 1, 4, 0);
    c.desc.per_sample_weights = bag_tensor(CLG_F32, 1, 4, 0);
    c.desc.num_segments = 3;
    c.desc.has_default_index = 1;
    with_inputs(&c, indices, sizeof indices, segments, sizeof segments, weights, sizeof weights);
    run(&c, ov_weighted_want, COUNT(ov_weighted_want), "ov segments example");
}
END_TEST

/* PyTorch: a [10, 3] table whose row r is [3r + 1, 3r + 2, 3r + 3]. */
static float torch_table[30];

static bag_case torch_case(clg_bag_mode mode, const int64_t *indices, size_t count, const int64_t *offsets,
                           size_t offset_count)
{
    for (int k = 0; k < 30; ++k) torch_table[k] = (float)(k + 1);
    bag_case c = {.desc = {.preset = CLG_TORCH_EMBEDDING_BAG, .bag_form = CLG_BAG_OFFSETS, .mode = mode}};
    c.desc.table = bag_tensor(CLG_F32, 2, 10, 3);
    c.desc.indices = bag_tensor(CLG_I64, 1, (int64_t)count, 0);
    c.desc.offsets = bag_tensor(CLG_I64, 1, (int64_t)offset_count, 0);
    c.table = torch_table, c.table_bytes = sizeof torch_table;
    c.indices = indices, c.index_bytes = count * sizeof(int64_t);
    c.bags = offsets, c.bags_bytes = offset_count * sizeof(int64_t);
    return c;
}

static const int64_t torch_input[] = {1, 2, 4, 5, 4, 3, 2, 9}, torch_offsets[] = {0, 4};

/* bag 0: rows 1, 2, 4, 5; bag 1: rows 4, 3, 2, 9 */
START_TEST(torch_documented_call_in_each_mode)
{
    static const float sums[] = {40, 44, 48, 58, 62, 66}, means[] = {10, 11, 12, 14.5f, 15.5f, 16.5f},
                       maxes[] = {16, 17, 18, 28, 29, 30};
    const float *const want[] = {sums, means, maxes};
    for (int m = 0; m < 3; ++m) {
        bag_case c = torch_case((clg_bag_mode)m, torch_input, 8, torch_offsets, 2);
        run(&c, want[m], 6, clg_bag_mode_name((clg_bag_mode)m));
    }
}
END_TEST

/* include_last_offset: offsets [0, 4, 8] name the same two bags. */
START_TEST(torch_include_last_offset)
{
    static const int64_t offsets[] = {0, 4, 8};
    static const float sums[] = {40, 44, 48, 58, 62, 66};
    bag_case c = torch_case(CLG_BAG_SUM, torch_input, 8, offsets, 3);
    c.desc.include_last_offset = 1;
    run(&c, sums, 6, "include_last_offset");
}
END_TEST

/* PyTorch's padding_idx example: input [2, 2, 2, 2, 4, 3, 2, 9], padding_idx 2: bag 0 is all padding
 * (zeros in every mode), bag 1 counts rows 4, 3 and 9 only. */
START_TEST(torch_padding_idx)
{
    static const int64_t input[] = {2, 2, 2, 2, 4, 3, 2, 9};
    static const float sums[] = {0, 0, 0, 51, 54, 57}, means[] = {0, 0, 0, 17, 18, 19}, maxes[] = {0, 0, 0, 28, 29, 30};
    const float *const want[] = {sums, means, maxes};
    for (int m = 0; m < 3; ++m) {
        for (int negative = 0; negative < 2; ++negative) {
            bag_case c = torch_case((clg_bag_mode)m, input, 8, torch_offsets, 2);
            c.desc.has_padding_idx = 1;
            c.desc.padding_idx = negative ? -8 : 2; /* -8 is row 10 - 8 */
            run(&c, want[m], 6, "padding_idx");
        }
    }
}
END_TEST

/* The packed form: input [[1, 2, 4, 5], [4, 3, 2, 9]] is the documented call's two bags. */
START_TEST(torch_packed_input)
{
    static const float means[] = {10, 11, 12, 14.5f, 15.5f, 16.5f};
    bag_case c = torch_case(CLG_BAG_MEAN, torch_input, 8, NULL, 0);
    c.desc.bag_form = CLG_BAG_PACKED;
    c.desc.offsets = (clg_tensor_desc){0};
    c.desc.indices = bag_tensor(CLG_I64, 2, 2, 4);
    c.bags = NULL, c.bags_bytes = 0;
    run(&c, means, 6, "packed");
}
END_TEST

/* max propagates a NaN in any position, and keeps -0.0 or +0.0 as the first of equals; f16 and bf16
 * tables accumulate in f32 and round once. */
START_TEST(max_propagates_nan)
{
    static const float table[] = {1.f, -0.f, 0.f, 2.f, NAN, 3.f};
    static const int64_t indices[] = {0, 1, 2, 0}, offsets[] = {0, 2, 3};
    bag_case c = {.desc = {.preset = CLG_TORCH_EMBEDDING_BAG, .bag_form = CLG_BAG_OFFSETS, .mode = CLG_BAG_MAX}};
    c.desc.table = bag_tensor(CLG_F32, 2, 3, 2);
    c.desc.indices = bag_tensor(CLG_I64, 1, 4, 0);
    c.desc.offsets = bag_tensor(CLG_I64, 1, 3, 0);
    c.table = table, c.table_bytes = sizeof table;
    c.indices = indices, c.index_bytes = sizeof indices;
    c.bags = offsets, c.bags_bytes = sizeof offsets;
    const float want[] = {1.f, 2.f, NAN, 3.f, 1.f, -0.f};
    run(&c, want, 6, "max with NaN");
}
END_TEST

/* A sum that is NaN is the canonical quiet NaN 0x7FC00000, whatever NaNs (sign, payload, signalling) or
 * infinities of opposite sign made it, in every column of a row wider than the vector passes of the
 * runs mapping (136 columns: a 128- or 32-column pass, then the 8-column tail). */
START_TEST(nan_sums_are_canonical)
{
    enum { D = 136 };
    static float table[3 * D];
    static const struct {
        int row, column;
        uint32_t bits;
    } specials[] = {{0, 3, 0xFFC12345u},  {0, 100, 0x7F800000u}, {1, 100, 0xFF800000u},
                    {1, 20, 0x7F800001u}, {2, 133, 0x7FC00001u}, {0, 131, 0xFFFFFFFFu}};
    for (int k = 0; k < 3 * D; ++k) table[k] = 1.f;
    for (size_t k = 0; k < COUNT(specials); ++k)
        memcpy(&table[specials[k].row * D + specials[k].column], &specials[k].bits, 4);
    static const int64_t indices[] = {0, 1, 1, 2}, offsets[] = {0, 2};
    bag_case c = {.desc = {.preset = CLG_TORCH_EMBEDDING_BAG, .bag_form = CLG_BAG_OFFSETS, .mode = CLG_BAG_SUM}};
    c.desc.table = bag_tensor(CLG_F32, 2, 3, D);
    c.desc.indices = bag_tensor(CLG_I64, 1, 4, 0);
    c.desc.offsets = bag_tensor(CLG_I64, 1, 2, 0);
    c.table = table, c.table_bytes = sizeof table;
    c.indices = indices, c.index_bytes = sizeof indices;
    c.bags = offsets, c.bags_bytes = sizeof offsets;
    /* bag 0 = rows 0 and 1, bag 1 = rows 1 and 2: each column 2, but for these */
    static uint32_t want[2 * D];
    const uint32_t two = 0x40000000u, nan = 0x7FC00000u, minus_inf = 0xFF800000u;
    for (int k = 0; k < 2 * D; ++k) want[k] = two;
    want[3] = want[100] = want[20] = want[131] = nan;
    want[D + 100] = minus_inf;
    want[D + 20] = want[D + 133] = nan;
    run(&c, (const float *)want, 2 * D, "NaN sums");
}
END_TEST

int main(void)
{
    return support_run_tests("embedding_bag_examples", 600,
                             SUPPORT_TESTS(ov_offsets_sum_with_weights_and_default_index, ov_offsets_15_mean,
                                           ov_packed_sum_with_weights, ov_segments_sum_with_weights_and_default_index,
                                           torch_documented_call_in_each_mode, torch_include_last_offset,
                                           torch_padding_idx, torch_packed_input, max_propagates_nan,
                                           nan_sums_are_canonical));
}
