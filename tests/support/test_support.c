#include "test_support.h"
#include "testing/testing.h"

#include <stdio.h>
#include <stdlib.h>

static clg_context *cl_ctx, *ref_ctx;
static char initial_tuning[8192]; /* cl_ctx's tuning when created */

const char *const support_mappings[2] = {"runs", "adjacent"};

static void release_contexts(void)
{
    clg_context_release(cl_ctx);
    clg_context_release(ref_ctx);
    cl_ctx = ref_ctx = NULL;
}

static void register_release(void)
{
    static int registered;
    if (!registered) {
        atexit(release_contexts);
        registered = 1;
    }
}

clg_context *support_cl_context(void)
{
    if (!cl_ctx) {
        clg_status st = clg_context_create_default(NULL, 0, &cl_ctx);
        ck_assert_msg(st == CLG_SUCCESS, "no OpenCL context: %s: %s", clg_status_string(st), clg_last_error_message());
        clg_device_info info;
        clg_context_device_info(cl_ctx, &info);
        ck_assert_msg(!info.is_reference, "the default device must be OpenCL for these tests");
        register_release();
        st = clg_context_tuning(cl_ctx, initial_tuning, sizeof initial_tuning, NULL);
        ck_assert_msg(st == CLG_SUCCESS, "clg_context_tuning: %s", clg_last_error_message());
        const char *expect = getenv("CLGATHER_TEST_EXPECT_TUNING");
        if (expect && strcmp(expect, "1") == 0) { /* a run under a named profile: it must have been taken */
            char text[8192];
            clg_context_tuning(cl_ctx, text, sizeof text, NULL);
            ck_assert_msg(strstr(text, "\n# profile: "), "CLGATHER_TUNING=%s was not applied:\n%s",
                          getenv("CLGATHER_TUNING") ? getenv("CLGATHER_TUNING") : "(unset)", text);
        }
    }
    return cl_ctx;
}

void support_use_mapping(clg_context *ctx, const char *mapping)
{
    char line[64];
    if (mapping) {
        snprintf(line, sizeof line, "mapping = %s", mapping);
    } else {
        support_cl_context();
        const char *own = strstr(initial_tuning, "\nmapping = ");
        ck_assert_msg(own != NULL, "no mapping in the suite's tuning:\n%s", initial_tuning);
        snprintf(line, sizeof line, "%.*s", (int)strcspn(own + 1, "\n"), own + 1);
    }
    const clg_status st = clg_context_set_tuning(ctx, line);
    ck_assert_msg(st == CLG_SUCCESS, "%s: %s", line, clg_last_error_message());
}

void support_use_tuning(const char *changes)
{
    clg_context *ctx = support_cl_context();
    clg_status st = clg_context_set_tuning(ctx, initial_tuning);
    ck_assert_msg(st == CLG_SUCCESS, "the suite's own tuning: %s", clg_last_error_message());
    if (changes) {
        st = clg_context_set_tuning(ctx, changes);
        ck_assert_msg(st == CLG_SUCCESS, "%s: %s", changes, clg_last_error_message());
    }
}

clg_context *support_reference_context(void)
{
    if (!ref_ctx) {
        clg_status st = clg_context_create_default("cpu", 0, &ref_ctx);
        ck_assert_int_eq(st, CLG_SUCCESS);
        register_release();
    }
    return ref_ctx;
}

int support_platform_is(const char *name)
{
    clg_device_info info;
    return clg_context_device_info(support_cl_context(), &info) == CLG_SUCCESS &&
           strstr(info.platform_name, name) != NULL;
}

/* Builds a one-line kernel after `prelude`; returns clBuildProgram's status. */
static cl_int build_probe(const char *prelude)
{
    clg_context *ctx = support_cl_context();
    cl_device_id device = clg_context_cl_device(ctx);
    const char *text[] = {prelude, "__kernel void probe(__global int *out) { out[0] = 1; }\n"};
    cl_int err;
    cl_program program = clCreateProgramWithSource(clg_context_cl_context(ctx), 2, text, NULL, &err);
    ck_assert_msg(err == CL_SUCCESS, "clCreateProgramWithSource: %d", (int)err);
    err = clBuildProgram(program, 1, &device, NULL, NULL, NULL);
    clReleaseProgram(program);
    return err;
}

int support_compiler_defines(const char *macro)
{
    const cl_int control = build_probe("");
    ck_assert_msg(control == CL_SUCCESS, "the device cannot build a probe program: %d", (int)control);
    char guard[256];
    snprintf(guard, sizeof guard, "#ifndef %s\n#error the macro is not defined\n#endif\n", macro);
    return build_probe(guard) == CL_SUCCESS;
}

int support_scaled(int count)
{
    const char *text = getenv("CLGATHER_TEST_SCALE");
    const double scale = text ? atof(text) : 1.0;
    const int scaled = scale > 0 ? (int)(count * scale) : count;
    return scaled > 0 ? scaled : 1;
}

/* The programs the suite's OpenCL context built, one line that ci/test.sh gathers into a table of every
 * suite's builds (most of a cold run's time on a CPU device); more than CLGATHER_TEST_MAX_BUILDS of them
 * (tests/CMakeLists.txt sets it where a suite's builds do not grow with CLGATHER_TEST_SCALE) fail the
 * suite, so that a change that multiplies the programs a layout needs is seen. Returns 1 on failure. */
static int report_builds(void)
{
    if (!cl_ctx) return 0;
    size_t source = 0, disk = 0, blob = 0;
    clg_testing_program_origins(cl_ctx, &source, &disk, &blob);
    const size_t built = source + disk + blob;
    printf("kernel programs built: %zu (%zu from source, %zu from the disk cache, %zu from binaries)\n", built, source,
           disk, blob);
    fflush(stdout);
    const char *limit = getenv("CLGATHER_TEST_MAX_BUILDS");
    if (!limit || !*limit) return 0;
    char *end = NULL;
    const unsigned long long most = strtoull(limit, &end, 10);
    if (*end != '\0') {
        fprintf(stderr, "CLGATHER_TEST_MAX_BUILDS=%s is not a number\n", limit);
        return 1;
    }
    if (built > most) {
        fprintf(stderr, "the suite built %zu kernel programs, over CLGATHER_TEST_MAX_BUILDS=%s\n", built, limit);
        return 1;
    }
    return 0;
}

int support_run_suite(Suite *suite)
{
    SRunner *runner = srunner_create(suite);
    srunner_set_fork_status(runner, CK_NOFORK);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    failed += report_builds();
    if (srunner_ntests_run(runner) == 0) { /* CK_RUN_CASE or CK_RUN_SUITE named nothing here */
        fprintf(stderr, "no test ran (CK_RUN_SUITE '%s', CK_RUN_CASE '%s')\n",
                getenv("CK_RUN_SUITE") ? getenv("CK_RUN_SUITE") : "",
                getenv("CK_RUN_CASE") ? getenv("CK_RUN_CASE") : "");
        failed = 1;
    }
    srunner_free(runner);
    /* Release while main still runs: exit() destroys thread-local objects before it calls atexit
     * handlers, and Oclgrind's API entry points use a thread-local stack (tests/drivers/
     * oclgrind_atexit_teardown). The atexit handler stays for suites that exit another way. */
    release_contexts();
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

int support_run_looped_tests(const char *suite, double timeout, const TTest *looped, int loops,
                             const TTest *const *tests, size_t count)
{
    Suite *s = suite_create(suite);
    TCase *tc = tcase_create(suite);
    tcase_set_timeout(tc, timeout);
    if (looped) tcase_add_loop_test(tc, looped, 0, loops);
    for (size_t k = 0; k < count; ++k) tcase_add_test(tc, tests[k]);
    suite_add_tcase(s, tc);
    return support_run_suite(s);
}

int support_run_tests(const char *suite, double timeout, const TTest *const *tests, size_t count)
{
    return support_run_looped_tests(suite, timeout, NULL, 0, tests, count);
}

uint64_t support_next(support_rng *rng)
{
    uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t support_below(support_rng *rng, uint64_t bound) { return support_next(rng) % bound; }

void *support_poisoned(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    ck_assert_ptr_nonnull(p);
    memset(p, POISON_BYTE, bytes ? bytes : 1);
    return p;
}

int support_all_poison(const void *p, size_t bytes)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < bytes; ++i)
        if (b[i] != POISON_BYTE) return 0;
    return 1;
}

void support_store_int(void *base, clg_dtype t, size_t pos, int64_t v)
{
    unsigned char *p = (unsigned char *)base + pos * clg_dtype_size(t);
    switch (clg_dtype_size(t)) {
    case 1: {
        uint8_t x = (uint8_t)v;
        memcpy(p, &x, 1);
        break;
    }
    case 2: {
        uint16_t x = (uint16_t)v;
        memcpy(p, &x, 2);
        break;
    }
    case 4: {
        uint32_t x = (uint32_t)v;
        memcpy(p, &x, 4);
        break;
    }
    default: {
        uint64_t x = (uint64_t)v;
        memcpy(p, &x, 8);
        break;
    }
    }
}

void support_shape(clg_tensor_desc *t, clg_dtype type, int32_t rank, const int64_t *shape)
{
    memset(t, 0, sizeof *t);
    t->type = type;
    t->rank = rank;
    for (int32_t d = 0; d < rank; ++d) t->shape[d] = shape[d];
}

clg_gather_desc support_ov_desc(clg_preset preset, clg_dtype data_type, int32_t data_rank, const int64_t *data_shape,
                                clg_dtype index_type, int32_t indices_rank, const int64_t *indices_shape,
                                const int64_t *axis_storage, int64_t batch_dims)
{
    clg_gather_desc d;
    memset(&d, 0, sizeof d);
    d.preset = preset;
    support_shape(&d.data, data_type, data_rank, data_shape);
    support_shape(&d.indices, index_type, indices_rank, indices_shape);
    d.axis_tensor.type = CLG_I64;
    d.axis_tensor.rank = 0;
    d.axis_value = axis_storage;
    d.batch_dims = batch_dims;
    return d;
}

clg_gather_desc support_onnx_desc(clg_preset preset, clg_dtype data_type, int32_t data_rank, const int64_t *data_shape,
                                  clg_dtype index_type, int32_t indices_rank, const int64_t *indices_shape,
                                  int64_t axis)
{
    clg_gather_desc d;
    memset(&d, 0, sizeof d);
    d.preset = preset;
    support_shape(&d.data, data_type, data_rank, data_shape);
    support_shape(&d.indices, index_type, indices_rank, indices_shape);
    d.axis = axis;
    return d;
}

clg_gather_elements_desc support_elements_desc(clg_gather_elements_preset preset, clg_dtype data_type, int32_t rank,
                                               const int64_t *data_shape, clg_dtype index_type,
                                               const int64_t *indices_shape, int64_t axis)
{
    clg_gather_elements_desc d = {.preset = preset, .axis = axis};
    support_shape(&d.data, data_type, rank, data_shape);
    support_shape(&d.indices, index_type, rank, indices_shape);
    return d;
}

clg_gather_nd_desc support_nd_desc(clg_gather_nd_preset preset, clg_dtype data_type, int32_t data_rank,
                                   const int64_t *data_shape, clg_dtype index_type, int32_t indices_rank,
                                   const int64_t *indices_shape, int64_t batch_dims)
{
    clg_gather_nd_desc d = {.preset = preset, .batch_dims = batch_dims};
    support_shape(&d.data, data_type, data_rank, data_shape);
    support_shape(&d.indices, index_type, indices_rank, indices_shape);
    return d;
}

int support_guards_intact(const void *region, size_t guard, size_t bytes)
{
    const unsigned char *r = region;
    return support_all_poison(r, guard) && support_all_poison(r + guard + bytes, guard);
}
