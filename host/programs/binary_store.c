#define _POSIX_C_SOURCE 200809L /* mkdir, getpid */
#include "programs/binary_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char file_magic[8] = {'C', 'L', 'G', 'B', 'I', 'N', '0', '1'};
static const char blob_magic[8] = {'C', 'L', 'G', 'B', 'L', 'O', 'B', '1'};

uint64_t clg_hash64(const void *data, size_t size, uint64_t seed)
{
    const unsigned char *p = data;
    uint64_t h = seed;
    for (size_t i = 0; i < size; ++i) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

const char *clg_cache_base_directory(char *buf, size_t size)
{
    const char *dir = getenv("CLGATHER_CACHE_DIR");
    int n;
    if (dir && *dir)
        n = snprintf(buf, size, "%s", dir);
    else if ((dir = getenv("XDG_CACHE_HOME")) && *dir)
        n = snprintf(buf, size, "%s/clgather", dir);
    else if ((dir = getenv("HOME")) && *dir)
        n = snprintf(buf, size, "%s/.cache/clgather", dir);
    else
        return NULL;
    return (n > 0 && (size_t)n < size) ? buf : NULL;
}

const char *clg_cache_directory(char *buf, size_t size, int driver_caches_programs)
{
    const char *setting = getenv("CLGATHER_CACHE");
    if (setting && strcmp(setting, "0") == 0) return NULL;
    if (driver_caches_programs && !(setting && strcmp(setting, "1") == 0)) return NULL;
    return clg_cache_base_directory(buf, size);
}

/* mkdir -p; failures are left to the open that follows. */
void clg_make_directories(const char *path)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s", path) >= (int)sizeof tmp) return;
    for (char *p = tmp + 1; *p; ++p)
        if (*p == '/') {
            *p = '\0';
            mkdir(tmp, 0755);
            *p = '/';
        }
    mkdir(tmp, 0755);
}

static int file_path(const char *directory, const char *key, char *buf, size_t size)
{
    uint64_t h = clg_hash64(key, strlen(key), CLG_HASH_SEED);
    int n = snprintf(buf, size, "%s/%016llx.clgbin", directory, (unsigned long long)h);
    return n > 0 && (size_t)n < size;
}

/* A little-endian u64 at p. */
static uint64_t read_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

static void write_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; ++i) p[i] = (unsigned char)(v >> (8 * i));
}

/* Bounded cursor over untrusted bytes. */
typedef struct cursor {
    const unsigned char *p;
    size_t left;
} cursor;

static int take_u64(cursor *c, uint64_t *v)
{
    if (c->left < 8) return 0;
    *v = read_u64(c->p);
    c->p += 8;
    c->left -= 8;
    return 1;
}

static int take_bytes(cursor *c, uint64_t n, const unsigned char **out)
{
    if (n > c->left) return 0;
    *out = c->p;
    c->p += n;
    c->left -= (size_t)n;
    return 1;
}

/* A length-prefixed string whose stored bytes end with their own NUL. */
static int take_string(cursor *c, const char **out)
{
    uint64_t n;
    const unsigned char *bytes;
    if (!take_u64(c, &n) || n == 0 || !take_bytes(c, n, &bytes) || bytes[n - 1] != '\0' ||
        memchr(bytes, '\0', (size_t)n) != bytes + n - 1)
        return 0;
    *out = (const char *)bytes;
    return 1;
}

int clg_disk_cache_load(const char *directory, const char *key, unsigned char **binary, size_t *size)
{
    char path[4096];
    if (!file_path(directory, key, path, sizeof path)) return 0;
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    unsigned char *content = NULL;
    long length = -1;
    if (fseek(f, 0, SEEK_END) == 0) length = ftell(f);
    if (length > 0 && length < (1L << 30) && fseek(f, 0, SEEK_SET) == 0 && (content = malloc((size_t)length)) &&
        fread(content, 1, (size_t)length, f) != (size_t)length) {
        free(content);
        content = NULL;
    }
    fclose(f);
    if (!content) return 0;

    cursor c = {content, (size_t)length};
    const unsigned char *magic, *bytes;
    const char *stored_key;
    uint64_t binary_size, checksum;
    int ok = take_bytes(&c, sizeof file_magic, &magic) && memcmp(magic, file_magic, sizeof file_magic) == 0 &&
             take_string(&c, &stored_key) && strcmp(stored_key, key) == 0 && take_u64(&c, &binary_size) &&
             binary_size > 0 && take_bytes(&c, binary_size, &bytes) && take_u64(&c, &checksum) && c.left == 0 &&
             checksum == clg_hash64(bytes, (size_t)binary_size, CLG_HASH_SEED);
    if (ok) {
        *binary = malloc((size_t)binary_size);
        ok = *binary != NULL;
        if (ok) {
            memcpy(*binary, bytes, (size_t)binary_size);
            *size = (size_t)binary_size;
        }
    }
    free(content);
    return ok;
}

void clg_disk_cache_store(const char *directory, const char *key, const unsigned char *binary, size_t size)
{
    char path[4096], tmp[4200];
    static _Atomic unsigned long counter;
    if (!file_path(directory, key, path, sizeof path)) return;
    clg_make_directories(directory);
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%lu", path, (long)getpid(), (unsigned long)++counter);
    FILE *f = fopen(tmp, "wb");
    if (!f) return;
    unsigned char number[8];
    size_t key_size = strlen(key) + 1;
    int ok = fwrite(file_magic, 1, sizeof file_magic, f) == sizeof file_magic;
    write_u64(number, key_size);
    ok = ok && fwrite(number, 1, 8, f) == 8 && fwrite(key, 1, key_size, f) == key_size;
    write_u64(number, size);
    ok = ok && fwrite(number, 1, 8, f) == 8 && fwrite(binary, 1, size, f) == size;
    write_u64(number, clg_hash64(binary, size, CLG_HASH_SEED));
    ok = ok && fwrite(number, 1, 8, f) == 8;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) remove(tmp);
}

/* ---- blobs: magic, count, records (4 length-prefixed fields), checksum of everything before ---- */

static size_t string_field(const char *s) { return 8 + strlen(s) + 1; }

size_t clg_blob_size(const clg_blob_record *records, size_t count)
{
    size_t size = sizeof blob_magic + 8;
    for (size_t k = 0; k < count; ++k)
        size += string_field(records[k].source_name) + string_field(records[k].options) + string_field(records[k].key) +
                8 + records[k].binary_size;
    return size + 8;
}

static unsigned char *put_string(unsigned char *p, const char *s)
{
    size_t n = strlen(s) + 1;
    write_u64(p, n);
    memcpy(p + 8, s, n);
    return p + 8 + n;
}

void clg_blob_write(const clg_blob_record *records, size_t count, unsigned char *out)
{
    unsigned char *p = out;
    memcpy(p, blob_magic, sizeof blob_magic);
    write_u64(p + 8, count);
    p += 16;
    for (size_t k = 0; k < count; ++k) {
        p = put_string(p, records[k].source_name);
        p = put_string(p, records[k].options);
        p = put_string(p, records[k].key);
        write_u64(p, records[k].binary_size);
        memcpy(p + 8, records[k].binary, records[k].binary_size);
        p += 8 + records[k].binary_size;
    }
    write_u64(p, clg_hash64(out, (size_t)(p - out), CLG_HASH_SEED));
}

static int take_record(cursor *c, clg_blob_record *r)
{
    uint64_t n;
    return take_string(c, &r->source_name) && take_string(c, &r->options) && take_string(c, &r->key) &&
           take_u64(c, &n) && n > 0 && take_bytes(c, n, &r->binary) && ((r->binary_size = (size_t)n), 1);
}

int clg_blob_validate(const unsigned char *blob, size_t size, size_t *count)
{
    if (!blob || size < sizeof blob_magic + 16 || memcmp(blob, blob_magic, sizeof blob_magic) != 0) return 0;
    if (read_u64(blob + size - 8) != clg_hash64(blob, size - 8, CLG_HASH_SEED)) return 0;
    cursor c = {blob + sizeof blob_magic, size - sizeof blob_magic - 8};
    uint64_t n;
    if (!take_u64(&c, &n) || n > size) return 0;
    for (uint64_t k = 0; k < n; ++k) {
        clg_blob_record r;
        if (!take_record(&c, &r)) return 0;
    }
    if (c.left != 0) return 0;
    *count = (size_t)n;
    return 1;
}

void clg_blob_record_at(const unsigned char *blob, size_t k, clg_blob_record *record)
{
    cursor c = {blob + sizeof blob_magic + 8, SIZE_MAX};
    for (size_t i = 0; i <= k; ++i) take_record(&c, record);
}
