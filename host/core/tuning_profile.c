#define _POSIX_C_SOURCE 200809L /* getpid */
#include "core/tuning_profile.h"

#include "core/status.h"
#include "programs/binary_store.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char magic[] = "# clgather tuning profile 1\n";
/* far more than every tunable's line with a long comment: a larger file is not a profile */
#define CLG_PROFILE_MAX_BYTES 65536

static uint64_t key_hash(const char *device_key) { return clg_hash64(device_key, strlen(device_key), CLG_HASH_SEED); }

int clg_tuning_profile_path(const char *device_key, char *path, size_t size)
{
    char dir[4096];
    if (size > 0) path[0] = '\0';
    if (!clg_cache_base_directory(dir, sizeof dir)) return 0;
    const int n = snprintf(path, size, "%s/tuning-%016llx.txt", dir, (unsigned long long)key_hash(device_key));
    if (n <= 0 || (size_t)n >= size) {
        if (size > 0) path[0] = '\0';
        return 0;
    }
    return 1;
}

/* The whole file, NUL-terminated, or NULL (missing, unreadable, too large, or holding a NUL). */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *text = malloc(CLG_PROFILE_MAX_BYTES + 1);
    size_t n = text ? fread(text, 1, CLG_PROFILE_MAX_BYTES + 1, f) : 0;
    fclose(f);
    if (!text || n > CLG_PROFILE_MAX_BYTES || memchr(text, '\0', n)) {
        free(text);
        return NULL;
    }
    text[n] = '\0';
    return text;
}

/* Parse without leaving a message behind (profiles load while a context is made, which starts with a
 * clear message): a profile that does not parse is ignored. */
static int apply_quietly(const char *text, clg_tuning *tuning)
{
    if (clg_tuning_parse(text, tuning) == CLG_SUCCESS) return 1;
    clg_clear_error();
    return 0;
}

int clg_tuning_profile_load(const char *path, const char *device_key, clg_tuning *tuning)
{
    if (!path || !*path) return 0;
    char *text = read_text(path);
    if (!text) return 0;
    char key_line[64];
    snprintf(key_line, sizeof key_line, "# key %016llx\n", (unsigned long long)key_hash(device_key));
    const size_t m = strlen(magic);
    const int ours = strncmp(text, magic, m) == 0 && strncmp(text + m, key_line, strlen(key_line)) == 0;
    const int ok = ours && apply_quietly(text, tuning);
    free(text);
    return ok;
}

int clg_tuning_profile_load_any(const char *path, clg_tuning *tuning)
{
    char *text = read_text(path);
    const int ok = text && apply_quietly(text, tuning);
    free(text);
    return ok;
}

/* Each line of text as a '#' line: no text can add `name = value` lines to a profile. */
static void write_comment_lines(FILE *f, const char *text)
{
    for (const char *p = text; *p;) {
        const char *end = strchr(p, '\n');
        const int n = end ? (int)(end - p) : (int)strlen(p);
        fprintf(f, "# %.*s\n", n, p);
        p += n + (end != NULL);
    }
}

clg_status clg_tuning_profile_store(const char *path, const char *device_key, const clg_tuning *tuning,
                                    const char *comment)
{
    if (!path || !*path)
        return clg_fail(CLG_ERR_IO, "no directory for tuning profiles: set CLGATHER_CACHE_DIR, XDG_CACHE_HOME or HOME");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) {
        *slash = '\0';
        clg_make_directories(dir);
    }
    static unsigned long counter;
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%lu", path, (long)getpid(),
             __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED));
    FILE *f = fopen(tmp, "wb");
    if (!f) return clg_fail(CLG_ERR_IO, "cannot write the tuning profile %s: %s", tmp, strerror(errno));
    char body[8192];
    clg_tuning_format(tuning, body, sizeof body);
    fprintf(f, "%s# key %016llx\n", magic, (unsigned long long)key_hash(device_key));
    write_comment_lines(f, device_key); /* so that a reader sees which device this is */
    if (comment) write_comment_lines(f, comment);
    fputs(body, f);
    const int ok = fflush(f) == 0 && !ferror(f);
    if (fclose(f) != 0 || !ok || rename(tmp, path) != 0) {
        const int e = errno;
        remove(tmp);
        return clg_fail(CLG_ERR_IO, "cannot write the tuning profile %s: %s", path, strerror(e));
    }
    return CLG_SUCCESS;
}
