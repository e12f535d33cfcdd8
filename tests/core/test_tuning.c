/* The tuning table, its text form, stored profiles and the public calls over them; device specs that
 * name an implementation. Whether a tuning changes results is the differential suites' question:
 * they also run under tests/tuning/extreme.profile. Internals through clgather_testing. */
#define _POSIX_C_SOURCE 200809L /* setenv, mkdtemp */
#include "core/context.h"
#include "core/tuning.h"
#include "core/tuning_profile.h"
#include "programs/program_cache.h" /* CLG_OPTIONS_CAPACITY */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Every row parses, and its text form parses back, from a zeroed tuning, to the same values: so every
 * tunable has a value in its range (a base without a field would leave 0 where the range starts at
 * 1 or more), and format and parse agree. */
START_TEST(every_table_row_is_complete_and_in_range)
{
    ck_assert_uint_ge(clg_tuning_table_size(), 10);
    for (size_t i = 0; i < clg_tuning_table_size(); ++i) {
        clg_tuning row, back;
        const char *name = NULL;
        clg_status st = clg_tuning_table_row(i, &row, &name);
        ck_assert_msg(st == CLG_SUCCESS, "row %zu (%s): %s", i, name, clg_last_error_message());
        char text[4096];
        ck_assert_uint_lt(clg_tuning_format(&row, text, sizeof text), sizeof text);
        memset(&back, 0, sizeof back);
        st = clg_tuning_parse(text, &back);
        ck_assert_msg(st == CLG_SUCCESS, "row %s formats to text that does not parse: %s", name,
                      clg_last_error_message());
        ck_assert_msg(memcmp(&row, &back, sizeof row) == 0, "row %s does not round-trip", name);
    }
}
END_TEST

/* Every tunable at the top of its range still gives build options that fit the space the launcher keeps
 * for them (host/core/launch.c: half of a program's options), so that no macro is ever cut short. */
START_TEST(build_options_fit_at_every_maximum)
{
    size_t count = 0;
    const clg_tunable *all = clg_tunables(&count);
    char text[8192] = "";
    size_t used = 0;
    for (size_t i = 0; i < count; ++i) {
        const clg_tunable *t = &all[i];
        const int n = t->choices ? snprintf(text + used, sizeof text - used, "%s = %s\n", t->name, t->choices[t->max])
                                 : snprintf(text + used, sizeof text - used, "%s = %u\n", t->name, (unsigned)t->max);
        ck_assert(n > 0 && (size_t)n < sizeof text - used);
        used += (size_t)n;
    }
    clg_tuning most;
    memset(&most, 0, sizeof most);
    ck_assert_msg(clg_tuning_parse(text, &most) == CLG_SUCCESS, "%s", clg_last_error_message());
    const size_t needed = clg_tuning_build_options(&most, NULL, 0);
    ck_assert_msg(needed < CLG_OPTIONS_CAPACITY / 2, "build options at the maxima take %zu bytes of %d", needed,
                  CLG_OPTIONS_CAPACITY / 2 - 1);
}
END_TEST

/* The table's row for each implementation, device type, vendor and vector width. */
START_TEST(rows_follow_implementation_and_device_type)
{
    const struct {
        clg_driver driver;
        cl_device_type type;
        const char *row;
        uint32_t mapping;
        const char *vendor;   /* NULL: "" */
        unsigned float_lanes; /* CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT */
    } cases[] = {
        {CLG_DRIVER_POCL, CL_DEVICE_TYPE_CPU, "pocl-cpu", CLG_MAPPING_RUNS, "GenuineIntel", 16},
        {CLG_DRIVER_POCL, CL_DEVICE_TYPE_CPU, "pocl-cpu-amd-avx512", CLG_MAPPING_RUNS, "AuthenticAMD", 16},
        {CLG_DRIVER_POCL, CL_DEVICE_TYPE_CPU, "pocl-cpu-amd", CLG_MAPPING_RUNS, "AuthenticAMD", 8},
        {CLG_DRIVER_POCL, CL_DEVICE_TYPE_CPU, "pocl-cpu-amd", CLG_MAPPING_RUNS, "AuthenticAMD", 0},
        {CLG_DRIVER_POCL, CL_DEVICE_TYPE_CPU, "pocl-cpu", CLG_MAPPING_RUNS, NULL, 8},
        {CLG_DRIVER_INTEL_CPU, CL_DEVICE_TYPE_CPU, "intel-cpu", CLG_MAPPING_RUNS, "AuthenticAMD", 16},
        {CLG_DRIVER_INTEL_CPU, CL_DEVICE_TYPE_CPU, "intel-cpu", CLG_MAPPING_RUNS, NULL, 8},
        {CLG_DRIVER_RUSTICL, CL_DEVICE_TYPE_CPU, "rusticl-cpu", CLG_MAPPING_RUNS, NULL, 8},
        {CLG_DRIVER_OCLGRIND, CL_DEVICE_TYPE_CPU, "oclgrind", CLG_MAPPING_RUNS, NULL, 1},
        {CLG_DRIVER_OCLGRIND, CL_DEVICE_TYPE_GPU, "oclgrind-gpu", CLG_MAPPING_ADJACENT, NULL, 1},
        {CLG_DRIVER_NVIDIA, CL_DEVICE_TYPE_GPU, "nvidia-gpu", CLG_MAPPING_ADJACENT, NULL, 1},
        {CLG_DRIVER_AMD, CL_DEVICE_TYPE_GPU, "amd-gpu", CLG_MAPPING_ADJACENT, NULL, 1},
        {CLG_DRIVER_INTEL_GPU, CL_DEVICE_TYPE_GPU, "intel-gpu", CLG_MAPPING_ADJACENT, NULL, 1},
        {CLG_DRIVER_RUSTICL, CL_DEVICE_TYPE_GPU, "other-gpu", CLG_MAPPING_ADJACENT, NULL, 4},
        {CLG_DRIVER_POCL, CL_DEVICE_TYPE_GPU, "other-gpu", CLG_MAPPING_ADJACENT, NULL, 1},
        /* the mapping as the device type chose */
        {CLG_DRIVER_OTHER, CL_DEVICE_TYPE_ACCELERATOR, "other", CLG_MAPPING_RUNS, NULL, 1},
        {CLG_DRIVER_OTHER, CL_DEVICE_TYPE_CPU, "other", CLG_MAPPING_RUNS, NULL, 16},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        clg_device_info info;
        memset(&info, 0, sizeof info);
        info.type = cases[i].type;
        snprintf(info.vendor, sizeof info.vendor, "%s", cases[i].vendor ? cases[i].vendor : "");
        clg_tuning t;
        const char *row = NULL;
        int measured = -1;
        clg_tuning_from_table(&info, cases[i].driver, cases[i].float_lanes, &t, &row, &measured);
        ck_assert_str_eq(row, cases[i].row);
        ck_assert_uint_eq(t.mapping, cases[i].mapping);
        ck_assert_int_eq(measured, strcmp(row, "amd-gpu") && strcmp(row, "intel-gpu") && strncmp(row, "other", 5));
        /* only AMD's cores prefetch the bags' rows into L2 alone */
        ck_assert_uint_eq(t.bag_prefetch_locality, strncmp(row, "pocl-cpu-amd", 12) ? 3u : 2u);
        ck_assert_uint_eq(t.prefetch_locality, 3u);
        /* 16-lane sums only where the device's vectors have 16 f32 lanes */
        ck_assert_uint_le(t.bag_quantized_lanes, cases[i].float_lanes > 8 ? cases[i].float_lanes : 8);
    }
}
END_TEST

static void expect_refused(const char *text, const char *part)
{
    clg_tuning t, before;
    const char *row;
    clg_tuning_table_row(0, &t, &row);
    before = t;
    const clg_status st = clg_tuning_parse(text, &t);
    ck_assert_msg(st == CLG_ERR_INVALID_TUNING, "\"%s\" gave %s", text, clg_status_string(st));
    ck_assert_msg(strstr(clg_last_error_message(), part), "\"%s\": message \"%s\" lacks \"%s\"", text,
                  clg_last_error_message(), part);
    ck_assert_msg(memcmp(&t, &before, sizeof t) == 0, "\"%s\" changed the tuning", text);
}

START_TEST(bad_lines_are_refused_whole_and_named)
{
    expect_refused("run_bytes = 1024\nno_such_knob = 3\n", "line 2: no tunable is called \"no_such_knob\"");
    expect_refused("runs_local_size = 48", "runs_local_size = \"48\"");
    expect_refused("runs_local_size = 48", "a power of two");
    expect_refused("runs_local_size = 0", "[1, 1024]");
    expect_refused("dequant_piece_values = 12", "a multiple of 8");
    expect_refused("mapping = diagonal", "is not one of runs, adjacent");
    expect_refused("prefetch = 3", "prefetch = \"3\"");
    expect_refused("run_bytes = -1", "run_bytes = \"-1\"");
    expect_refused("run_bytes = 99999999999999999999", "run_bytes");
    expect_refused("run_bytes 4096", "line 1: \"run_bytes 4096\" is not `name = value`");
    expect_refused("run_bytes = 4k", "run_bytes = \"4k\"");
}
END_TEST

START_TEST(comments_blanks_and_choices_parse)
{
    clg_tuning t;
    memset(&t, 0, sizeof t);
    const char *text = "# a comment\n\n  mapping = adjacent   # trailing\nnibble_lookups=none\r\nrun_bytes = 512";
    clg_status st = clg_tuning_parse(text, &t);
    ck_assert_msg(st == CLG_SUCCESS, "%s", clg_last_error_message());
    ck_assert_uint_eq(t.mapping, CLG_MAPPING_ADJACENT);
    ck_assert_uint_eq(t.nibble_lookups, CLG_LOOKUPS_NONE);
    ck_assert_uint_eq(t.run_bytes, 512);
}
END_TEST

/* A fresh cache directory for the profile tests, so no user's profile is read or written. */
static void use_fresh_cache_directory(void)
{
    static char dir[] = "/tmp/clgather-tuning-XXXXXX";
    static int made; /* mkdtemp rewrites the X's: once a process */
    if (!made) ck_assert_ptr_nonnull(mkdtemp(dir));
    made = 1;
    setenv("CLGATHER_CACHE_DIR", dir, 1);
    unsetenv("CLGATHER_TUNING");
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

START_TEST(stored_profiles_load_and_damaged_ones_are_ignored)
{
    use_fresh_cache_directory();
    const char *key = "clgather test\ndevice a\n";
    char path[4096];
    ck_assert(clg_tuning_profile_path(key, path, sizeof path));
    clg_tuning table, t;
    const char *row;
    clg_tuning_table_row(0, &table, &row);
    clg_tuning chosen = table;
    chosen.run_bytes = 2048;
    chosen.mapping = CLG_MAPPING_ADJACENT;
    clg_status st = clg_tuning_profile_store(path, key, &chosen, "chosen by a test");
    ck_assert_msg(st == CLG_SUCCESS, "%s", clg_last_error_message());
    t = table;
    ck_assert(clg_tuning_profile_load(path, key, &t));
    ck_assert(memcmp(&t, &chosen, sizeof t) == 0);
    /* another device's key: ignored */
    t = table;
    ck_assert(!clg_tuning_profile_load(path, "clgather test\ndevice b\n", &t));
    ck_assert(memcmp(&t, &table, sizeof t) == 0);
    /* damaged: a bad value, no header, a NUL, a missing file; each ignored, leaving no message */
    char text[8192];
    FILE *f = fopen(path, "rb");
    const size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    char *value = strstr(text, "run_bytes = 2048");
    ck_assert_ptr_nonnull(value);
    memcpy(value, "run_bytes = 20x8", 16);
    write_file(path, text);
    t = table;
    ck_assert(!clg_tuning_profile_load(path, key, &t));
    ck_assert(memcmp(&t, &table, sizeof t) == 0);
    ck_assert_str_eq(clg_last_error_message(), "");
    write_file(path, "run_bytes = 2048\n");
    ck_assert(!clg_tuning_profile_load(path, key, &t));
    FILE *g = fopen(path, "wb");
    fwrite("# clgather tuning profile 1\n\0", 1, 29, g);
    fclose(g);
    ck_assert(!clg_tuning_profile_load(path, key, &t));
    remove(path);
    ck_assert(!clg_tuning_profile_load(path, key, &t));
    ck_assert(memcmp(&t, &table, sizeof t) == 0);
}
END_TEST

/* The public calls on a real context: read, set (all or nothing), store; a new context on the same
 * device then uses the stored profile, unless CLGATHER_TUNING=0; CLGATHER_TUNING=FILE applies a file. */
START_TEST(contexts_read_set_store_and_reload_their_tuning)
{
    use_fresh_cache_directory();
    clg_context *ctx = NULL;
    clg_status st = clg_context_create_default(NULL, 0, &ctx);
    ck_assert_msg(st == CLG_SUCCESS, "%s", clg_last_error_message());
    if (ctx->is_reference) {
        clg_context_release(ctx);
        printf("contexts_read_set_store_and_reload_their_tuning: skipped, no OpenCL device\n");
        return;
    }
    char text[8192];
    size_t length = 0;
    ck_assert_int_eq(clg_context_tuning(ctx, text, 10, &length), CLG_ERR_BUFFER_TOO_SMALL);
    ck_assert_uint_gt(length, 10);
    st = clg_context_tuning(ctx, text, sizeof text, &length);
    ck_assert_msg(st == CLG_SUCCESS, "%s", clg_last_error_message());
    ck_assert_uint_eq(strlen(text), length);
    ck_assert_msg(strncmp(text, "# table: ", 9) == 0, "%s", text);
    ck_assert_ptr_null(strstr(text, "# profile"));

    ck_assert_int_eq(clg_context_set_tuning(ctx, "run_bytes = 1024\ncopy_local_size = 3\n"), CLG_ERR_INVALID_TUNING);
    ck_assert_uint_ne(ctx->tuning.run_bytes, 1024);
    st = clg_context_set_tuning(ctx, "run_bytes = 1024\ncopy_local_size = 32\n");
    ck_assert_msg(st == CLG_SUCCESS, "%s", clg_last_error_message());
    clg_context_tuning(ctx, text, sizeof text, NULL);
    ck_assert_ptr_nonnull(strstr(text, "# set by the caller\n"));
    ck_assert_ptr_nonnull(strstr(text, "\nrun_bytes = 1024\n"));
    char path[4096];
    st = clg_context_store_tuning(ctx, "by test_tuning", path, sizeof path);
    ck_assert_msg(st == CLG_SUCCESS, "%s", clg_last_error_message());
    ck_assert_int_eq(access(path, R_OK), 0);
    clg_context_release(ctx);

    ck_assert_int_eq(clg_context_create_default(NULL, 0, &ctx), CLG_SUCCESS);
    ck_assert_uint_eq(ctx->tuning.run_bytes, 1024);
    ck_assert_uint_eq(ctx->tuning.copy_local_size, 32);
    clg_context_tuning(ctx, text, sizeof text, NULL);
    char origin[4200];
    snprintf(origin, sizeof origin, "# profile: %s\n", path);
    ck_assert_msg(strstr(text, origin), "%s", text);
    clg_context_release(ctx);

    setenv("CLGATHER_TUNING", "0", 1);
    ck_assert_int_eq(clg_context_create_default(NULL, 0, &ctx), CLG_SUCCESS);
    ck_assert_uint_ne(ctx->tuning.run_bytes, 1024);
    clg_context_release(ctx);

    char named[4200];
    snprintf(named, sizeof named, "%s.named", path);
    write_file(named, "# any device\nrun_bytes = 256\n");
    setenv("CLGATHER_TUNING", named, 1);
    ck_assert_int_eq(clg_context_create_default(NULL, 0, &ctx), CLG_SUCCESS);
    ck_assert_uint_eq(ctx->tuning.run_bytes, 256);
    ck_assert_uint_ne(ctx->tuning.copy_local_size, 32); /* the table's, not the stored profile's */
    clg_context_release(ctx);
    unsetenv("CLGATHER_TUNING");
    remove(named);
    remove(path);
}
END_TEST

START_TEST(reference_context_has_no_tuning)
{
    char text[64];
    ck_assert_int_eq(clg_context_tuning(support_reference_context(), text, sizeof text, NULL), CLG_ERR_NO_OPENCL);
    ck_assert_int_eq(clg_context_set_tuning(support_reference_context(), "run_bytes = 8"), CLG_ERR_NO_OPENCL);
    ck_assert_int_eq(clg_context_store_tuning(support_reference_context(), NULL, NULL, 0), CLG_ERR_NO_OPENCL);
}
END_TEST

/* A device spec that names the implementation finds the device of that implementation. */
START_TEST(device_specs_take_implementation_short_names)
{
    clg_device_info devices[16];
    size_t n = 0;
    ck_assert_int_eq(clg_list_devices(devices, 16, &n), CLG_SUCCESS);
    int tried = 0;
    for (size_t i = 0; i < n && i < 16; ++i) {
        const clg_driver driver = clg_driver_of(&devices[i]);
        if (driver == CLG_DRIVER_OTHER) continue;
        const char *name = clg_driver_name(driver);
        char upper[32];
        size_t k = 0;
        for (; name[k] && k + 1 < sizeof upper; ++k)
            upper[k] = (char)(name[k] >= 'a' && name[k] <= 'z' ? name[k] - 32 : name[k]);
        upper[k] = '\0';
        clg_context *ctx = NULL;
        clg_status st = clg_context_create_default(upper, 0, &ctx);
        ck_assert_msg(st == CLG_SUCCESS, "spec \"%s\": %s", upper, clg_last_error_message());
        ck_assert_int_eq(clg_driver_of(&ctx->info), driver);
        clg_context_release(ctx);
        ++tried;
    }
    if (!tried) printf("device_specs_take_implementation_short_names: skipped, no device of a known implementation\n");
    clg_context *ctx = NULL;
    ck_assert_int_eq(clg_context_create_default("pocl-", 0, &ctx), CLG_ERR_NO_DEVICE);
}
END_TEST

int main(void)
{
    return support_run_tests(
        "tuning", 300,
        SUPPORT_TESTS(every_table_row_is_complete_and_in_range, build_options_fit_at_every_maximum,
                      rows_follow_implementation_and_device_type, bad_lines_are_refused_whole_and_named,
                      comments_blanks_and_choices_parse, stored_profiles_load_and_damaged_ones_are_ignored,
                      contexts_read_set_store_and_reload_their_tuning, reference_context_has_no_tuning,
                      device_specs_take_implementation_short_names));
}
