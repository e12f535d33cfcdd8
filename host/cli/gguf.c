#define _POSIX_C_SOURCE 200809L /* mmap */
#include "gguf.h"

#include "cli_error.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
    GGUF_DEFAULT_ALIGNMENT = 32,
    MAX_NAME_BYTES = 1024, /* a tensor name or metadata key longer than this is not a model's */
    MAX_ARRAY_NESTING = 8, /* arrays of arrays of ...: deeper is refused, not recursed into */
    VALUE_STRING = 8,
    VALUE_ARRAY = 9,
    VALUE_TYPE_COUNT = 13,
};

/* A read position in the file's bytes; every read checks what is left first. */
typedef struct reader {
    const char *path;
    const unsigned char *bytes;
    size_t size, at;
} reader;

static int truncated(const reader *r, const char *what)
{
    return cli_fail(CLI_EXIT_REFUSED, "GGUF file '%s' ends inside %s (at byte %zu of %zu)", r->path, what, r->at,
                    r->size);
}

static uint64_t load_le(const unsigned char *p, int bytes)
{
    uint64_t v = 0;
    for (int k = bytes - 1; k >= 0; --k) v = v << 8 | p[k];
    return v;
}

static int read_u32(reader *r, const char *what, uint32_t *out)
{
    if (r->size - r->at < 4) return truncated(r, what);
    *out = (uint32_t)load_le(r->bytes + r->at, 4);
    r->at += 4;
    return 0;
}

static int read_u64(reader *r, const char *what, uint64_t *out)
{
    if (r->size - r->at < 8) return truncated(r, what);
    *out = load_le(r->bytes + r->at, 8);
    r->at += 8;
    return 0;
}

/* A GGUF string: a u64 length, then that many bytes (no NUL). */
static int read_string(reader *r, const char *what, const unsigned char **text, uint64_t *length)
{
    if (read_u64(r, what, length) != 0) return CLI_EXIT_REFUSED;
    if (*length > r->size - r->at)
        return cli_fail(CLI_EXIT_REFUSED, "GGUF file '%s': %s at byte %zu claims %llu bytes; %zu remain", r->path, what,
                        r->at - 8, (unsigned long long)*length, r->size - r->at);
    *text = r->bytes + r->at;
    r->at += (size_t)*length;
    return 0;
}

static size_t fixed_value_bytes(uint32_t type)
{
    static const unsigned char sizes[VALUE_TYPE_COUNT] = {1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8};
    return type < VALUE_TYPE_COUNT ? sizes[type] : 0;
}

/* Step over one metadata value of `type` (arrays checked element by element, nesting bounded). */
static int skip_value(reader *r, uint32_t type, int depth, const char *key)
{
    if (type >= VALUE_TYPE_COUNT)
        return cli_fail(CLI_EXIT_REFUSED, "GGUF file '%s': metadata '%s' has value type %u, which GGUF does not define",
                        r->path, key, type);
    if (type == VALUE_STRING) {
        const unsigned char *text = NULL;
        uint64_t length = 0;
        return read_string(r, "a metadata string", &text, &length);
    }
    if (type != VALUE_ARRAY) {
        const size_t bytes = fixed_value_bytes(type);
        if (r->size - r->at < bytes) return truncated(r, "a metadata value");
        r->at += bytes;
        return 0;
    }
    if (depth >= MAX_ARRAY_NESTING)
        return cli_fail(CLI_EXIT_REFUSED, "GGUF file '%s': metadata '%s' nests arrays more than %d deep", r->path, key,
                        MAX_ARRAY_NESTING);
    uint32_t element_type = 0;
    uint64_t count = 0;
    if (read_u32(r, "a metadata array's type", &element_type) != 0 ||
        read_u64(r, "a metadata array's count", &count) != 0)
        return CLI_EXIT_REFUSED;
    if (element_type >= VALUE_TYPE_COUNT)
        return cli_fail(CLI_EXIT_REFUSED,
                        "GGUF file '%s': metadata '%s' is an array of value type %u, which GGUF does not define",
                        r->path, key, element_type);
    const size_t fixed = fixed_value_bytes(element_type);
    /* every element takes at least a byte (a string its 8-byte length, an array its 12-byte head) */
    const size_t least = fixed ? fixed : element_type == VALUE_STRING ? 8 : 12;
    if (count > (r->size - r->at) / least)
        return cli_fail(CLI_EXIT_REFUSED,
                        "GGUF file '%s': metadata '%s' claims %llu array elements; %zu bytes remain for them", r->path,
                        key, (unsigned long long)count, r->size - r->at);
    if (fixed) {
        r->at += (size_t)count * fixed;
        return 0;
    }
    for (uint64_t k = 0; k < count; ++k)
        if (skip_value(r, element_type, depth + 1, key) != 0) return CLI_EXIT_REFUSED;
    return 0;
}

/* A name as a C string: at most MAX_NAME_BYTES, not empty, no NUL inside. */
static int check_name(const reader *r, const char *what, size_t at, const unsigned char *text, uint64_t length)
{
    if (length == 0 || length > MAX_NAME_BYTES || memchr(text, 0, (size_t)length))
        return cli_fail(CLI_EXIT_REFUSED, "GGUF file '%s': the %s at byte %zu is %s", r->path, what, at,
                        length == 0               ? "empty"
                        : length > MAX_NAME_BYTES ? "longer than 1024 bytes"
                                                  : "not text (a NUL in it)");
    return 0;
}

static int read_metadata(reader *r, cli_gguf *g)
{
    for (uint64_t k = 0; k < g->metadata_count; ++k) {
        const size_t at = r->at;
        const unsigned char *key_text = NULL;
        uint64_t key_length = 0;
        uint32_t type = 0;
        if (read_string(r, "a metadata key", &key_text, &key_length) != 0) return CLI_EXIT_REFUSED;
        if (check_name(r, "metadata key", at, key_text, key_length) != 0) return CLI_EXIT_REFUSED;
        char key[MAX_NAME_BYTES + 1];
        memcpy(key, key_text, (size_t)key_length);
        key[key_length] = '\0';
        if (read_u32(r, "a metadata value's type", &type) != 0) return CLI_EXIT_REFUSED;
        if (strcmp(key, "general.alignment") == 0) {
            uint32_t alignment = 0;
            if (type != 4)
                return cli_fail(CLI_EXIT_REFUSED, "GGUF file '%s': general.alignment has value type %u, not uint32 (4)",
                                r->path, type);
            if (read_u32(r, "general.alignment", &alignment) != 0) return CLI_EXIT_REFUSED;
            if (alignment == 0 || (alignment & (alignment - 1)) != 0)
                return cli_fail(CLI_EXIT_REFUSED, "GGUF file '%s': general.alignment is %u, not a power of two",
                                r->path, alignment);
            g->alignment = alignment;
        } else if (skip_value(r, type, 0, key) != 0) {
            return CLI_EXIT_REFUSED;
        }
    }
    return 0;
}

/* One tensor's entry: its name, dimensions, type and offset (relative to the data section). */
static int read_tensor_info(reader *r, cli_gguf_tensor *t, char **name_storage, uint64_t *relative_offset)
{
    const size_t at = r->at;
    const unsigned char *name = NULL;
    uint64_t name_length = 0;
    uint32_t rank = 0, type_id = 0;
    if (read_string(r, "a tensor's name", &name, &name_length) != 0 ||
        check_name(r, "tensor name", at, name, name_length) != 0)
        return CLI_EXIT_REFUSED;
    memcpy(*name_storage, name, (size_t)name_length);
    (*name_storage)[name_length] = '\0';
    t->name = *name_storage;
    *name_storage += name_length + 1;
    if (read_u32(r, "a tensor's rank", &rank) != 0) return CLI_EXIT_REFUSED;
    if (rank < 1 || rank > CLI_GGUF_MAX_DIMS)
        return cli_fail(CLI_EXIT_REFUSED, "GGUF file '%s': tensor '%s' has %u dimensions; ggml allows 1 to %d", r->path,
                        t->name, rank, CLI_GGUF_MAX_DIMS);
    t->rank = (int32_t)rank;
    uint64_t dims[CLI_GGUF_MAX_DIMS] = {0}, elements = 1; /* zeroed: GCC 12 at -O3 cannot see read_u64 set each */
    int overflow = 0;
    for (uint32_t d = 0; d < rank; ++d) {
        if (read_u64(r, "a tensor's dimensions", &dims[d]) != 0) return CLI_EXIT_REFUSED;
        if (dims[d] > (uint64_t)INT64_MAX)
            overflow = 1;
        else if (dims[d] != 0 && elements > (uint64_t)INT64_MAX / dims[d])
            overflow = 1;
        else
            elements *= dims[d];
        t->shape[rank - 1 - d] = (int64_t)dims[d]; /* GGUF lists the innermost dimension first */
    }
    if (overflow)
        return cli_fail(CLI_EXIT_REFUSED, "GGUF file '%s': tensor '%s' has more elements than 64 bits count", r->path,
                        t->name);
    if (read_u32(r, "a tensor's type", &type_id) != 0 || read_u64(r, "a tensor's offset", relative_offset) != 0)
        return CLI_EXIT_REFUSED;
    t->type = cli_gguf_type_of(type_id);
    if (!t->type)
        return cli_fail(CLI_EXIT_REFUSED,
                        "GGUF file '%s': tensor '%s' has ggml type %u, which this reader does not know", r->path,
                        t->name, type_id);
    if (dims[0] % t->type->block_values != 0)
        return cli_fail(CLI_EXIT_REFUSED,
                        "GGUF file '%s': tensor '%s' is %s, blocks of %u values, but its rows hold %llu values",
                        r->path, t->name, t->type->name, t->type->block_values, (unsigned long long)dims[0]);
    const uint64_t blocks = elements / t->type->block_values;
    if (blocks > UINT64_MAX / t->type->block_bytes)
        return cli_fail(CLI_EXIT_REFUSED, "GGUF file '%s': tensor '%s' has more bytes than 64 bits count", r->path,
                        t->name);
    t->bytes = blocks * t->type->block_bytes;
    return 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp((*(const cli_gguf_tensor *const *)a)->name, (*(const cli_gguf_tensor *const *)b)->name);
}

/* No two tensors share a name (a lookup by name must mean one tensor). */
static int check_unique_names(const char *path, const cli_gguf *g)
{
    if (g->tensor_count < 2) return 0;
    const cli_gguf_tensor **sorted = malloc((size_t)g->tensor_count * sizeof *sorted);
    if (!sorted) return cli_fail(CLI_EXIT_REFUSED, "GGUF file '%s': out of memory", path);
    for (uint64_t k = 0; k < g->tensor_count; ++k) sorted[k] = &g->tensors[k];
    qsort(sorted, (size_t)g->tensor_count, sizeof *sorted, compare_names);
    int rc = 0;
    for (uint64_t k = 1; k < g->tensor_count && rc == 0; ++k)
        if (strcmp(sorted[k - 1]->name, sorted[k]->name) == 0)
            rc = cli_fail(CLI_EXIT_REFUSED, "GGUF file '%s': two tensors are named '%s'", path, sorted[k]->name);
    free(sorted);
    return rc;
}

static int parse(reader *r, cli_gguf *g)
{
    uint32_t magic = 0;
    if (read_u32(r, "the header", &magic) != 0) return CLI_EXIT_REFUSED;
    if (magic != 0x46554747u) /* "GGUF" */
        return cli_fail(CLI_EXIT_REFUSED, "'%s' is not a GGUF file (it does not start with \"GGUF\")", r->path);
    if (read_u32(r, "the header", &g->version) != 0) return CLI_EXIT_REFUSED;
    if ((g->version & 0xFFFFu) == 0)
        return cli_fail(CLI_EXIT_REFUSED,
                        "GGUF file '%s' is big-endian (version field 0x%08x); only little-endian "
                        "files are read",
                        r->path, g->version);
    if (g->version != 2 && g->version != 3)
        return cli_fail(CLI_EXIT_REFUSED, "GGUF file '%s' is version %u; versions 2 and 3 are read", r->path,
                        g->version);
    if (read_u64(r, "the header", &g->tensor_count) != 0 || read_u64(r, "the header", &g->metadata_count) != 0)
        return CLI_EXIT_REFUSED;
    /* a metadata entry takes at least 13 bytes (key length, one key byte, type), a tensor entry 33 */
    if (g->metadata_count > (r->size - r->at) / 13 || g->tensor_count > (r->size - r->at) / 33)
        return cli_fail(CLI_EXIT_REFUSED,
                        "GGUF file '%s' claims %llu metadata entries and %llu tensors; its %zu bytes "
                        "cannot hold them",
                        r->path, (unsigned long long)g->metadata_count, (unsigned long long)g->tensor_count, r->size);
    g->alignment = GGUF_DEFAULT_ALIGNMENT;
    if (read_metadata(r, g) != 0) return CLI_EXIT_REFUSED;

    /* every name is shorter than the bytes that hold it with its length, so the file's size bounds them */
    g->tensors = calloc(g->tensor_count ? (size_t)g->tensor_count : 1, sizeof *g->tensors);
    g->names = malloc(r->size - r->at + 1);
    uint64_t *offsets = calloc(g->tensor_count ? (size_t)g->tensor_count : 1, sizeof *offsets);
    if (!g->tensors || !g->names || !offsets) {
        free(offsets);
        return cli_fail(CLI_EXIT_REFUSED, "GGUF file '%s': out of memory for %llu tensors", r->path,
                        (unsigned long long)g->tensor_count);
    }
    char *name_storage = g->names;
    int rc = 0;
    for (uint64_t k = 0; k < g->tensor_count && rc == 0; ++k)
        rc = read_tensor_info(r, &g->tensors[k], &name_storage, &offsets[k]);
    if (rc == 0) rc = check_unique_names(r->path, g);
    /* the data section starts at the next multiple of the alignment */
    const uint64_t data_start = ((uint64_t)r->at + g->alignment - 1) / g->alignment * g->alignment;
    if (rc == 0 && data_start > r->size && g->tensor_count > 0)
        rc = cli_fail(CLI_EXIT_REFUSED, "GGUF file '%s': its tensor data would start at byte %llu, past its end (%zu)",
                      r->path, (unsigned long long)data_start, r->size);
    for (uint64_t k = 0; k < g->tensor_count && rc == 0; ++k) {
        cli_gguf_tensor *t = &g->tensors[k];
        if (offsets[k] % g->alignment != 0)
            rc = cli_fail(CLI_EXIT_REFUSED,
                          "GGUF file '%s': tensor '%s' starts at offset %llu, not a multiple of "
                          "the alignment %llu",
                          r->path, t->name, (unsigned long long)offsets[k], (unsigned long long)g->alignment);
        else if (offsets[k] > r->size || t->bytes > r->size - offsets[k] ||
                 data_start > r->size - offsets[k] - t->bytes)
            rc = cli_fail(CLI_EXIT_REFUSED,
                          "GGUF file '%s': tensor '%s' (%llu bytes at offset %llu of the data from "
                          "byte %llu) runs past the end of the file (%zu bytes)",
                          r->path, t->name, (unsigned long long)t->bytes, (unsigned long long)offsets[k],
                          (unsigned long long)data_start, r->size);
        else
            t->offset = data_start + offsets[k];
    }
    free(offsets);
    return rc;
}

int cli_gguf_parse(const char *path, const unsigned char *bytes, size_t size, cli_gguf *out)
{
    memset(out, 0, sizeof *out);
    reader r = {path, bytes, size, 0};
    out->bytes = bytes;
    out->size = size;
    const int rc = parse(&r, out);
    if (rc != 0) {
        cli_gguf_close(out);
        memset(out, 0, sizeof *out);
    }
    return rc;
}

int cli_gguf_open(const char *path, cli_gguf *out)
{
    memset(out, 0, sizeof *out);
    const int fd = open(path, O_RDONLY);
    if (fd < 0) return cli_fail(CLI_EXIT_REFUSED, "cannot open GGUF file '%s'", path);
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return cli_fail(CLI_EXIT_REFUSED, "GGUF file '%s' is not a regular file", path);
    }
    const size_t size = (size_t)st.st_size;
    void *mapping = size ? mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
    close(fd);
    if (size && mapping == MAP_FAILED) return cli_fail(CLI_EXIT_REFUSED, "cannot map GGUF file '%s'", path);
    static const unsigned char empty[1];
    const int rc = cli_gguf_parse(path, size ? mapping : empty, size, out);
    if (rc != 0) {
        if (size) munmap(mapping, size);
        return rc;
    }
    out->mapping = size ? mapping : NULL;
    return 0;
}

void cli_gguf_close(cli_gguf *g)
{
    free(g->tensors);
    free(g->names);
    if (g->mapping) munmap(g->mapping, g->size);
    g->tensors = NULL;
    g->names = NULL;
    g->mapping = NULL;
}

const cli_gguf_tensor *cli_gguf_find(const cli_gguf *g, const char *name)
{
    for (uint64_t k = 0; k < g->tensor_count; ++k)
        if (strcmp(g->tensors[k].name, name) == 0) return &g->tensors[k];
    return NULL;
}
