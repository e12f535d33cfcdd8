/* The kernel-variant registry (host/core/variants.h): its entries, forcing a variant by name, and that
 * the launchers run the variant forced on their family where it applies and what their rules pick on
 * its mapping where it does not, with results equal to the CPU reference bit for bit. Whether every
 * variant is right on every shape is the differential suites' question. */
#include "core/variants.h"
#include "test_support.h"
#include "testing/testing.h"

#include <stdlib.h>
#include <string.h>

START_TEST(registry_entries_are_complete_and_named_once)
{
    int on_mapping[CLG_FAMILY_COUNT][2] = {{0}};
    for (int id = 0; id < CLG_VARIANT_COUNT; ++id) {
        const clg_variant *v = clg_variant_get((clg_variant_id)id);
        ck_assert_ptr_nonnull(v);
        ck_assert_msg(v->name && *v->name && v->kernel && *v->kernel && v->program && *v->program && v->options &&
                          v->applies && *v->applies,
                      "variant %d has an empty field", id);
        ck_assert_int_eq(clg_variant_find(v->name), id); /* so no other entry has its name */
        ck_assert_int_lt((int)v->family, CLG_FAMILY_COUNT);
        ck_assert(v->mapping == CLG_MAPPING_RUNS || v->mapping == CLG_MAPPING_ADJACENT);
        on_mapping[v->family][v->mapping] = 1;
        const char *family = NULL;
        ck_assert_str_eq(clg_testing_variant_name((size_t)id, &family), v->name);
        ck_assert_str_eq(family, clg_variant_family_name(v->family));
    }
    ck_assert_ptr_null(clg_variant_get(CLG_VARIANT_COUNT));
    ck_assert_ptr_null(clg_testing_variant_name(CLG_VARIANT_COUNT, NULL));
    ck_assert_int_eq(clg_variant_find("no-such-variant"), -1);
    ck_assert_int_eq(clg_variant_find(NULL), -1);
    /* every family but GatherTree's (one kernel for both) has a variant on each mapping */
    for (int f = 0; f < CLG_FAMILY_COUNT; ++f)
        if (f != CLG_FAMILY_TREE)
            ck_assert_msg(on_mapping[f][0] && on_mapping[f][1], "family %s lacks a mapping",
                          clg_variant_family_name((clg_variant_family)f));
}
END_TEST

START_TEST(an_unknown_name_is_refused_by_name)
{
    clg_context *ctx = support_cl_context();
    ck_assert_int_eq(clg_testing_force_variant(ctx, "row-run"), CLG_ERR_INVALID_TUNING);
    ck_assert_msg(strstr(clg_last_error_message(), "'row-run'"), "%s", clg_last_error_message());
    ck_assert_int_eq(clg_testing_force_variant(ctx, NULL), CLG_SUCCESS);
}
END_TEST

/* A call of one family and the variant expected to run when `forced` is forced. */
typedef struct forced_case {
    const char *forced, *expected;
    int elements;          /* GatherElements, else Gather (OpenVINO Gather-8 and GatherElements-6) */
    int64_t rows, columns; /* data [rows, columns] f32 */
    int64_t axis, picks;   /* Gather: indices [picks] along axis 0; GatherElements: indices [picks, columns] */
} forced_case;

static const forced_case forced_cases[] = {
    /* rows of one f32, a unit wherever the move width allows it */
    {"row-runs", "row-runs", 0, 300, 1, 0, 500},
    {"row-runs-one-unit", "row-runs-one-unit", 0, 300, 1, 0, 500},
    {"row-units", "row-units", 0, 300, 1, 0, 500},
    {"staged-units", "staged-units", 0, 300, 1, 0, 500},
    /* rows of 37 f32: several units, so neither one-unit form applies */
    {"row-runs-one-unit", "row-runs", 0, 64, 37, 0, 200},
    {"staged-units", "row-units", 0, 64, 37, 0, 200},
    /* an outer axis over contiguous lines: column blocks apply */
    {"elements-column-blocks", "elements-column-blocks", 1, 40, 64, 0, 30},
    {"elements-runs", "elements-runs", 1, 40, 64, 0, 30},
    {"elements-lines", "elements-lines", 1, 40, 64, 0, 30},
    /* the innermost axis: staged lines apply, column blocks do not */
    {"elements-staged-lines", "elements-staged-lines", 1, 16, 64, 1, 100},
    {"elements-column-blocks", "elements-runs", 1, 16, 64, 1, 100},
};

START_TEST(forced_variants_run_where_they_apply)
{
    const forced_case *fc = &forced_cases[_i];
    clg_context *ctx = support_cl_context();
    support_rng rng = {0x5A1A7ull + (uint64_t)_i};
    const int64_t data_shape[2] = {fc->rows, fc->columns}, axis = fc->axis;
    const size_t data_bytes = (size_t)(fc->rows * fc->columns) * 4;
    float *data = malloc(data_bytes);
    ck_assert_ptr_nonnull(data);
    for (size_t k = 0; k < data_bytes / 4; ++k) data[k] = (float)support_below(&rng, 1u << 20);
    const int64_t extent = fc->axis == 0 ? fc->rows : fc->columns;
    const int64_t index_shape[2] = {fc->elements && fc->axis == 0 ? fc->picks : fc->rows,
                                    fc->elements && fc->axis == 0 ? fc->columns : fc->picks};
    const size_t index_count = fc->elements ? (size_t)(index_shape[0] * index_shape[1]) : (size_t)fc->picks;
    int32_t *indices = malloc(index_count * 4);
    ck_assert_ptr_nonnull(indices);
    for (size_t k = 0; k < index_count; ++k) indices[k] = (int32_t)support_below(&rng, (uint64_t)extent);
    const size_t out_bytes = fc->elements ? index_count * 4 : (size_t)(fc->picks * fc->columns) * 4;
    unsigned char *want = support_poisoned(out_bytes), *got = support_poisoned(out_bytes);

    ck_assert_int_eq(clg_testing_force_variant(ctx, fc->forced), CLG_SUCCESS);
    clg_testing_forget_variant(ctx);
    clg_status ref, st;
    if (fc->elements) {
        const clg_gather_elements_desc d =
            support_elements_desc(CLG_OV_GATHER_ELEMENTS_6, CLG_F32, 2, data_shape, CLG_I32, index_shape, fc->axis);
        ref = clg_gather_elements_reference(&d, data, data_bytes, indices, index_count * 4, want, out_bytes);
        st = clg_gather_elements(ctx, &d, data, data_bytes, indices, index_count * 4, got, out_bytes);
    } else {
        const clg_gather_desc d = support_ov_desc(CLG_OV_GATHER_8, CLG_F32, fc->columns == 1 ? 1 : 2, data_shape,
                                                  CLG_I32, 1, &fc->picks, &axis, 0);
        ref = clg_gather_reference(&d, data, data_bytes, indices, index_count * 4, want, out_bytes);
        st = clg_gather(ctx, &d, data, data_bytes, indices, index_count * 4, got, out_bytes);
    }
    ck_assert_int_eq(ref, CLG_SUCCESS);
    ck_assert_msg(st == CLG_SUCCESS, "forced %s: %s", fc->forced, clg_last_error_message());
    ck_assert_str_eq(clg_testing_last_variant(ctx), fc->expected);
    ck_assert_mem_eq(got, want, out_bytes);
    ck_assert_int_eq(clg_testing_force_variant(ctx, NULL), CLG_SUCCESS);
    free(data);
    free(indices);
    free(want);
    free(got);
}
END_TEST

/* A variant forced on one family leaves another family on the tuning's mapping. */
START_TEST(a_forced_variant_keeps_to_its_family)
{
    clg_context *ctx = support_cl_context();
    char tuning[8192];
    ck_assert_int_eq(clg_context_tuning(ctx, tuning, sizeof tuning, NULL), CLG_SUCCESS);
    const int adjacent = strstr(tuning, "\nmapping = adjacent\n") != NULL;
    ck_assert_int_eq(clg_testing_force_variant(ctx, adjacent ? "row-runs" : "row-units"), CLG_SUCCESS);
    const int64_t shape[2] = {16, 64}, index_shape[2] = {16, 100};
    float data[16 * 64] = {0}, out[16 * 100];
    int32_t indices[16 * 100];
    for (int k = 0; k < 16 * 100; ++k) indices[k] = (k * 7) % 64;
    const clg_gather_elements_desc d =
        support_elements_desc(CLG_OV_GATHER_ELEMENTS_6, CLG_F32, 2, shape, CLG_I32, index_shape, 1);
    clg_testing_forget_variant(ctx);
    ck_assert_int_eq(clg_gather_elements(ctx, &d, data, sizeof data, indices, sizeof indices, out, sizeof out),
                     CLG_SUCCESS);
    const int ran = clg_variant_find(clg_testing_last_variant(ctx));
    ck_assert_int_ge(ran, 0);
    ck_assert_int_eq(clg_variant_get((clg_variant_id)ran)->mapping, adjacent ? CLG_MAPPING_ADJACENT : CLG_MAPPING_RUNS);
    ck_assert_int_eq(clg_testing_force_variant(ctx, NULL), CLG_SUCCESS);
}
END_TEST

int main(void)
{
    return support_run_looped_tests(
        "variants", 300, forced_variants_run_where_they_apply, (int)(sizeof forced_cases / sizeof forced_cases[0]),
        SUPPORT_TESTS(registry_entries_are_complete_and_named_once, an_unknown_name_is_refused_by_name,
                      a_forced_variant_keeps_to_its_family));
}
