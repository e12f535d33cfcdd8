/* The smallest end-to-end check: Gather-8 Example 7 on the default OpenCL device and the reference. */
#include "test_support.h"

#include <stdlib.h>

START_TEST(example7_both_paths)
{
    const int64_t data_shape[] = {5}, idx_shape[] = {3}, axis = 0;
    const int32_t data[] = {1, 2, 3, 4, 5};
    const int32_t idx[] = {3, 10, -20};
    const int32_t want[] = {4, 0, 0};
    clg_gather_desc d = support_ov_desc(CLG_OV_GATHER_8, CLG_I32, 1, data_shape, CLG_I32, 1, idx_shape, &axis, 0);
    clg_context *contexts[] = {support_cl_context(), support_reference_context()};
    for (int c = 0; c < 2; ++c) {
        int32_t *out = support_poisoned(sizeof want);
        clg_status st = clg_gather(contexts[c], &d, data, sizeof data, idx, sizeof idx, out, sizeof want);
        ck_assert_msg(st == CLG_SUCCESS, "%s: %s", clg_status_string(st), clg_last_error_message());
        ck_assert_mem_eq(out, want, sizeof want);
        free(out);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("smoke");
    TCase *tc = tcase_create("smoke");
    tcase_add_test(tc, example7_both_paths);
    suite_add_tcase(s, tc);
    return support_run_suite(s);
}
