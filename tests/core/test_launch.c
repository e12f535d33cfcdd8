/* The launch helper keeps every work-group within the device's and the kernel's limits, and the
 * kernel table holds every kernel, self-contained. Internals, reached through the uninstalled
 * clgather_testing library. */
#include "core/launch.h"
#include "kernel_table.h"
#include "test_support.h"
#include "testing/testing.h"

#include <stdlib.h>
#include <string.h>

/* A context as the launch helper reads it, with the limits a test chooses. */
static clg_context limits(size_t group, size_t item0, size_t item1, size_t item2, cl_uint address_bits)
{
    clg_context ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.max_work_group_size = group;
    ctx.max_work_item_sizes[0] = item0;
    ctx.max_work_item_sizes[1] = item1;
    ctx.max_work_item_sizes[2] = item2;
    ctx.address_bits = address_bits;
    ctx.compute_units = 4;
    ctx.info.type = CL_DEVICE_TYPE_GPU;
    int measured;
    clg_tuning_from_table(&ctx.info, CLG_DRIVER_OTHER, 8, &ctx.tuning, &ctx.tuning_row, &measured);
    return ctx;
}

START_TEST(local_sizes_fit_device_and_kernel_limits)
{
    const clg_context ctx = limits(1024, 1024, 1024, 64, 64);
    clg_kernel_lease lease = {.kernel = NULL, .max_local_size = 256, .pool = NULL};
    size_t one[1] = {1024};
    clg_launch_fit_local(&ctx, &lease, 1, one);
    ck_assert_uint_eq(one[0], 256); /* the kernel's CL_KERNEL_WORK_GROUP_SIZE */

    size_t two[2] = {16, 64}; /* 1024 items: halve the largest dimension until 256 */
    clg_launch_fit_local(&ctx, &lease, 2, two);
    ck_assert_uint_eq(two[0] * two[1], 256);
    ck_assert_uint_eq(two[0], 16);
    ck_assert_uint_eq(two[1], 16);

    lease.max_local_size = 4096; /* the device's group limit is the smaller one */
    const clg_context small_group = limits(128, 1024, 1024, 64, 64);
    size_t three[1] = {256};
    clg_launch_fit_local(&small_group, &lease, 1, three);
    ck_assert_uint_eq(three[0], 128);

    const clg_context narrow = limits(1024, 32, 8, 1, 64); /* per-dimension item limits */
    size_t four[2] = {64, 16};
    clg_launch_fit_local(&narrow, &lease, 2, four);
    ck_assert_uint_eq(four[0], 32);
    ck_assert_uint_eq(four[1], 8);

    size_t zero[1] = {0}; /* never a zero local size */
    clg_launch_fit_local(&ctx, &lease, 1, zero);
    ck_assert_uint_eq(zero[0], 1);
}
END_TEST

START_TEST(global_size_must_fit_the_device_size_t)
{
    const clg_context ctx = limits(1024, 1024, 1024, 64, 32);
    const clg_kernel_lease lease = {.kernel = NULL, .max_local_size = 64, .pool = NULL};
    const uint64_t items = (uint64_t)1 << 32; /* one past a 32-bit device's size_t */
    const size_t local = 64;
    cl_event done = NULL;
    clg_status st = clg_launch(&ctx, NULL, &lease, "test kernel", 1, &items, &local, 0, NULL, &done);
    ck_assert_int_eq(st, CLG_ERR_TOO_LARGE_FOR_DEVICE);
    ck_assert_ptr_nonnull(strstr(clg_last_error_message(), "test kernel needs 4294967296 work-items"));
    ck_assert_ptr_null(done);
}
END_TEST

START_TEST(grid_groups_scale_with_compute_units)
{
    clg_context ctx = limits(1024, 1024, 1024, 64, 64);
    const uint64_t four = clg_launch_grid_groups(&ctx);
    ctx.compute_units = 8;
    ck_assert_uint_eq(clg_launch_grid_groups(&ctx), 2 * four);
    ck_assert_uint_gt(four, 4);
}
END_TEST

START_TEST(kernel_table_is_complete_and_self_contained)
{
    const char *const expected[] = {"check_indices.cl", "gather_rows_cpu.cl", "gather_rows_gpu.cl", "gather_tree.cl"};
    for (size_t k = 0; k < sizeof expected / sizeof expected[0]; ++k) {
        const clg_kernel_source *source = clg_kernel_source_named(expected[k]);
        ck_assert_msg(source != NULL, "%s is not in the kernel table", expected[k]);
        ck_assert_str_eq(source->name, expected[k]);
        /* includes are inlined at build time: a driver never needs a file */
        ck_assert_msg(strstr(source->text, "#include") == NULL, "%s still has an #include", expected[k]);
    }
    ck_assert_uint_ge(clg_kernel_table_size, sizeof expected / sizeof expected[0]);
    ck_assert_ptr_null(clg_kernel_source_named("no_such_kernel.cl"));
    /* the shared index rules reached every kernel that reads indices */
    ck_assert_ptr_nonnull(strstr(clg_kernel_source_named("gather_rows_cpu.cl")->text, "inline int index_in_range"));
    ck_assert_ptr_nonnull(strstr(clg_kernel_source_named("check_indices.cl")->text, "inline int index_in_range"));
}
END_TEST

/* A build with hints that fails gives CLG_ERR_KERNEL_BUILD with the log and an untouched output, and
 * turns the context's hints off, so the next call builds the same kernel without them. */
START_TEST(failed_hinted_build_falls_back_to_no_hints)
{
    clg_context *ctx = NULL;
    ck_assert_int_eq(clg_context_create_default(NULL, 0, &ctx), CLG_SUCCESS);
    clg_testing_break_hints(ctx, 1);
    const int64_t ds[] = {4, 3}, is[] = {2}, axis = 0;
    const float data[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    const int32_t idx[2] = {3, 1};
    const float want[6] = {9, 10, 11, 3, 4, 5};
    clg_gather_desc d = support_ov_desc(CLG_OV_GATHER_8, CLG_F32, 2, ds, CLG_I32, 1, is, &axis, 0);
    float *out = support_poisoned(sizeof want);
    ck_assert_int_eq(clg_gather(ctx, &d, data, sizeof data, idx, sizeof idx, out, sizeof want), CLG_ERR_KERNEL_BUILD);
    const char *message = clg_last_error_message();
    ck_assert_msg(strstr(message, "HINT_PREFETCH") && strstr(message, "hints are now off"), "%s", message);
    ck_assert(support_all_poison(out, sizeof want));
    ck_assert_int_eq(clg_testing_hints_failed(ctx), 1);
    ck_assert_int_eq(clg_gather(ctx, &d, data, sizeof data, idx, sizeof idx, out, sizeof want), CLG_SUCCESS);
    ck_assert_mem_eq(out, want, sizeof want);
    free(out);
    clg_context_release(ctx);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("launch");
    TCase *tc = tcase_create("launch");
    tcase_add_test(tc, local_sizes_fit_device_and_kernel_limits);
    tcase_add_test(tc, global_size_must_fit_the_device_size_t);
    tcase_add_test(tc, grid_groups_scale_with_compute_units);
    tcase_add_test(tc, kernel_table_is_complete_and_self_contained);
    tcase_add_test(tc, failed_hinted_build_falls_back_to_no_hints);
    suite_add_tcase(s, tc);
    return support_run_suite(s);
}
