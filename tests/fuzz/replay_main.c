/* Runs a fuzz target's entry point over files and directories of inputs, without libFuzzer: this is
 * how the seed corpora and every input that once crashed (tests/fuzz/regressions) are replayed by
 * CTest in ordinary and sanitizer builds. */
#define _DEFAULT_SOURCE /* DT_DIR */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* a target that prepares something once defines it, as libFuzzer allows */
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return fprintf(stderr, "replay: cannot open %s\n", path), 1;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = malloc(size > 0 ? (size_t)size : 1);
    size_t got = size > 0 ? fread(data, 1, (size_t)size, f) : 0;
    fclose(f);
    LLVMFuzzerTestOneInput(data, got);
    free(data);
    return 0;
}

static int replay(const char *path, int *count)
{
    struct stat st;
    if (stat(path, &st) != 0) return fprintf(stderr, "replay: no such input %s\n", path), 1;
    if (!S_ISDIR(st.st_mode)) {
        ++*count;
        return replay_file(path);
    }
    DIR *dir = opendir(path);
    if (!dir) return 1;
    int failed = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
        if (e->d_name[0] == '.') continue;
        char child[4096];
        snprintf(child, sizeof child, "%s/%s", path, e->d_name);
        failed |= replay(child, count);
    }
    closedir(dir);
    return failed;
}

int main(int argc, char **argv)
{
    int failed = 0, count = 0;
    if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
    for (int k = 1; k < argc; ++k) failed |= replay(argv[k], &count);
    printf("replayed %d inputs\n", count);
    return failed;
}
