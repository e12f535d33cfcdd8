/* The persistent program-binary cache and the export/import of binaries as blobs: reuse, damaged or
 * truncated files falling back to a source build, the off switch, an unusable directory, and hostile
 * blobs. */
#define _DEFAULT_SOURCE /* setenv, mkdtemp */
#include "programs/binary_store.h"
#include "test_support.h"
#include "testing/testing.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char cache_dir[256];

typedef struct origins {
    size_t source, disk, blob;
} origins;

static origins origins_of(clg_context *ctx)
{
    origins o;
    clg_testing_program_origins(ctx, &o.source, &o.disk, &o.blob);
    return o;
}

/* One small gather, checked against the reference; policy picks the specialization. */
static void run_gather(clg_context *ctx, clg_oob_policy policy)
{
    const int64_t ds[] = {6, 4}, is[] = {5}, axis = 0;
    float data[24], got[20], want[20];
    for (int k = 0; k < 24; ++k) data[k] = (float)k;
    const int32_t idx[] = {5, -1, 0, 3, 9};
    clg_gather_desc d = support_ov_desc(CLG_OV_GATHER_8, CLG_F32, 2, ds, CLG_I32, 1, is, &axis, 0);
    d.oob_policy = policy;
    ck_assert_int_eq(clg_gather_reference(&d, data, sizeof data, idx, sizeof idx, want, sizeof want), CLG_SUCCESS);
    memset(got, POISON_BYTE, sizeof got);
    ck_assert_msg(clg_gather(ctx, &d, data, sizeof data, idx, sizeof idx, got, sizeof got) == CLG_SUCCESS, "%s",
                  clg_last_error_message());
    ck_assert_mem_eq(got, want, sizeof want);
}

static clg_context *fresh_context(void)
{
    clg_context *ctx = NULL;
    ck_assert_int_eq(clg_context_create_default(NULL, 0, &ctx), CLG_SUCCESS);
    return ctx;
}

/* The single cache file in cache_dir (the test uses one specialization). */
static int cache_file(char *path, size_t size)
{
    DIR *dir = opendir(cache_dir);
    if (!dir) return 0;
    int found = 0;
    struct dirent *e;
    while ((e = readdir(dir)))
        if (strstr(e->d_name, ".clgbin") && !strstr(e->d_name, ".tmp.")) {
            snprintf(path, size, "%s/%s", cache_dir, e->d_name);
            found++;
        }
    closedir(dir);
    return found;
}

static void setup(void)
{
    snprintf(cache_dir, sizeof cache_dir, "/tmp/clgather-cache-test-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(cache_dir));
    setenv("CLGATHER_CACHE_DIR", cache_dir, 1);
    setenv("CLGATHER_CACHE", "1", 1); /* on every driver, PoCL included */
}

static void teardown(void)
{
    char path[512];
    while (cache_file(path, sizeof path) > 0) remove(path);
    rmdir(cache_dir);
    unsetenv("CLGATHER_CACHE_DIR");
    unsetenv("CLGATHER_CACHE");
}

START_TEST(disk_cache_written_then_reused)
{
    clg_context *first = fresh_context();
    run_gather(first, CLG_OOB_ZERO);
    origins o = origins_of(first);
    ck_assert_uint_eq(o.source, 1);
    ck_assert_uint_eq(o.disk, 0);
    clg_context_release(first);
    char path[512];
    ck_assert_int_eq(cache_file(path, sizeof path), 1);

    clg_context *second = fresh_context();
    run_gather(second, CLG_OOB_ZERO);
    o = origins_of(second);
    ck_assert_uint_eq(o.source, 0);
    ck_assert_uint_eq(o.disk, 1);
    clg_context_release(second);
}
END_TEST

static void damage_and_expect_rebuild(void (*damage)(const char *path))
{
    clg_context *first = fresh_context();
    run_gather(first, CLG_OOB_ZERO);
    clg_context_release(first);
    char path[512];
    ck_assert_int_eq(cache_file(path, sizeof path), 1);
    damage(path);
    clg_context *second = fresh_context();
    run_gather(second, CLG_OOB_ZERO); /* still right: rebuilt from source */
    origins o = origins_of(second);
    ck_assert_uint_eq(o.source, 1);
    ck_assert_uint_eq(o.disk, 0);
    clg_context_release(second);
    /* and the rebuilt binary was stored again, usable by the next context */
    clg_context *third = fresh_context();
    run_gather(third, CLG_OOB_ZERO);
    ck_assert_uint_eq(origins_of(third).disk, 1);
    clg_context_release(third);
}

static void flip_middle_byte(const char *path)
{
    FILE *f = fopen(path, "r+b");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, size / 2, SEEK_SET);
    int c = fgetc(f);
    fseek(f, size / 2, SEEK_SET);
    fputc(c ^ 0x40, f);
    fclose(f);
}

static void truncate_half(const char *path)
{
    FILE *f = fopen(path, "rb");
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    ck_assert_int_eq(truncate(path, size / 2), 0);
}

static void replace_with_garbage(const char *path)
{
    FILE *f = fopen(path, "wb");
    fputs("CLGBIN01 not really", f);
    fclose(f);
}

START_TEST(damaged_cache_file_falls_back) { damage_and_expect_rebuild(flip_middle_byte); }
END_TEST
START_TEST(truncated_cache_file_falls_back) { damage_and_expect_rebuild(truncate_half); }
END_TEST
START_TEST(garbage_cache_file_falls_back) { damage_and_expect_rebuild(replace_with_garbage); }
END_TEST

START_TEST(cache_switched_off)
{
    setenv("CLGATHER_CACHE", "0", 1);
    clg_context *ctx = fresh_context();
    run_gather(ctx, CLG_OOB_ZERO);
    clg_context_release(ctx);
    char path[512];
    ck_assert_int_eq(cache_file(path, sizeof path), 0);
}
END_TEST

/* Without CLGATHER_CACHE the disk cache is on, except on PoCL with its own kernel cache on. */
START_TEST(default_policy_by_driver)
{
    unsetenv("CLGATHER_CACHE");
    const char *pocl_cache = getenv("POCL_KERNEL_CACHE");
    int files = 0;
    for (int pocl_cache_off = 0; pocl_cache_off < 2; ++pocl_cache_off) {
        if (pocl_cache_off) setenv("POCL_KERNEL_CACHE", "0", 1);
        clg_context *ctx = fresh_context();
        clg_device_info info;
        ck_assert_int_eq(clg_context_device_info(ctx, &info), CLG_SUCCESS);
        const int driver_keeps = strstr(info.platform_name, "Portable Computing Language") != NULL && !pocl_cache_off;
        run_gather(ctx, pocl_cache_off ? CLG_OOB_CLAMP : CLG_OOB_ZERO); /* a program not yet built */
        clg_context_release(ctx);
        char path[512];
        files += !driver_keeps;
        ck_assert_msg(cache_file(path, sizeof path) == files, "%s, POCL_KERNEL_CACHE%s: want the disk cache %s",
                      info.platform_name, pocl_cache_off ? "=0" : " unset", driver_keeps ? "off" : "on");
    }
    if (pocl_cache)
        setenv("POCL_KERNEL_CACHE", pocl_cache, 1);
    else
        unsetenv("POCL_KERNEL_CACHE");
}
END_TEST

START_TEST(unusable_cache_directory)
{
    setenv("CLGATHER_CACHE_DIR", "/proc/clgather-cannot-exist/cache", 1);
    clg_context *ctx = fresh_context();
    run_gather(ctx, CLG_OOB_CLAMP);
    ck_assert_uint_eq(origins_of(ctx).source, 1);
    clg_context_release(ctx);
}
END_TEST

START_TEST(export_then_import)
{
    clg_context *first = fresh_context();
    run_gather(first, CLG_OOB_ZERO);
    run_gather(first, CLG_OOB_CLAMP);
    size_t need = 0;
    ck_assert_int_eq(clg_context_export_binaries(first, NULL, 0, &need), CLG_SUCCESS);
    ck_assert_uint_gt(need, 0);
    unsigned char *blob = malloc(need);
    size_t small = 0;
    ck_assert_int_eq(clg_context_export_binaries(first, blob, need - 1, &small), CLG_ERR_BUFFER_TOO_SMALL);
    ck_assert_int_eq(clg_context_export_binaries(first, blob, need, &need), CLG_SUCCESS);
    clg_context_release(first);

    setenv("CLGATHER_CACHE", "0", 1); /* the blob, not the disk, must provide the programs */
    clg_context *second = fresh_context();
    size_t imported = 0;
    ck_assert_int_eq(clg_context_import_binaries(second, blob, need, &imported), CLG_SUCCESS);
    ck_assert_uint_eq(imported, 2);
    run_gather(second, CLG_OOB_ZERO);
    run_gather(second, CLG_OOB_CLAMP);
    origins o = origins_of(second);
    ck_assert_uint_eq(o.blob, 2);
    ck_assert_uint_eq(o.source, 0);
    /* importing again adds nothing */
    ck_assert_int_eq(clg_context_import_binaries(second, blob, need, &imported), CLG_SUCCESS);
    ck_assert_uint_eq(imported, 0);
    clg_context_release(second);
    free(blob);
}
END_TEST

START_TEST(hostile_blobs_rejected)
{
    clg_context *first = fresh_context();
    run_gather(first, CLG_OOB_ZERO);
    size_t need = 0;
    clg_context_export_binaries(first, NULL, 0, &need);
    unsigned char *blob = malloc(need);
    ck_assert_int_eq(clg_context_export_binaries(first, blob, need, &need), CLG_SUCCESS);
    clg_context_release(first);

    clg_context *ctx = fresh_context();
    for (size_t cut = 0; cut < need; cut += need / 97 + 1)
        ck_assert_int_eq(clg_context_import_binaries(ctx, blob, cut, NULL), CLG_ERR_INVALID_BINARY_BLOB);
    /* any one damaged byte, anywhere (the checksum included), is caught before a driver sees it */
    unsigned char *damaged = malloc(need);
    support_rng rng = {42};
    for (int k = 0; k < 500; ++k) {
        memcpy(damaged, blob, need);
        damaged[support_below(&rng, need)] ^= (unsigned char)(1 + support_below(&rng, 255));
        ck_assert_int_eq(clg_context_import_binaries(ctx, damaged, need, NULL), CLG_ERR_INVALID_BINARY_BLOB);
    }
    ck_assert_int_eq(clg_context_import_binaries(ctx, blob, need, NULL), CLG_SUCCESS);
    ck_assert_uint_eq(origins_of(ctx).blob, 1);
    free(damaged);
    free(blob);
    clg_context_release(ctx);
}
END_TEST

START_TEST(blob_for_another_device_is_skipped)
{
    /* a well-formed blob whose key names another device: valid, but nothing is imported */
    const unsigned char binary[] = {1, 2, 3, 4};
    clg_blob_record r = {"gather.cl", "-DMOVE_T=uint", "clgather 0.1.0\ndevice Some Other GPU\n", binary,
                         sizeof binary};
    size_t size = clg_blob_size(&r, 1);
    unsigned char *blob = malloc(size);
    clg_blob_write(&r, 1, blob);
    clg_context *ctx = fresh_context();
    size_t imported = 99;
    ck_assert_int_eq(clg_context_import_binaries(ctx, blob, size, &imported), CLG_SUCCESS);
    ck_assert_uint_eq(imported, 0);
    clg_context_release(ctx);
    free(blob);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("binary_cache");
    TCase *tc = tcase_create("binary_cache");
    tcase_set_timeout(tc, 600);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, disk_cache_written_then_reused);
    tcase_add_test(tc, damaged_cache_file_falls_back);
    tcase_add_test(tc, truncated_cache_file_falls_back);
    tcase_add_test(tc, garbage_cache_file_falls_back);
    tcase_add_test(tc, cache_switched_off);
    tcase_add_test(tc, default_policy_by_driver);
    tcase_add_test(tc, unusable_cache_directory);
    tcase_add_test(tc, export_then_import);
    tcase_add_test(tc, hostile_blobs_rejected);
    tcase_add_test(tc, blob_for_another_device_is_skipped);
    suite_add_tcase(s, tc);
    return support_run_suite(s);
}
