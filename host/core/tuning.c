#include "core/tuning.h"

#include "core/status.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const mappings[] = {"runs", "adjacent"};
static const char *const lookups[] = {"target", "ssse3", "avx2", "none"};

#define FIELD(name) #name, offsetof(clg_tuning, name)
#define COUNT(name, lo, hi, what)                   \
    {                                               \
        FIELD(name), lo, hi, 1, 0, NULL, NULL, what \
    }
#define POW2(name, lo, hi, what)                    \
    {                                               \
        FIELD(name), lo, hi, 1, 1, NULL, NULL, what \
    }
#define STEP(name, lo, hi, m, what)                 \
    {                                               \
        FIELD(name), lo, hi, m, 0, NULL, NULL, what \
    }
#define CHOICE(name, names, what)                                                   \
    {                                                                               \
        FIELD(name), 0, sizeof names / sizeof names[0] - 1, 1, 0, names, NULL, what \
    }
#define KERNEL(name, macro, lo, hi, what)            \
    {                                                \
        FIELD(name), lo, hi, 1, 0, NULL, macro, what \
    }

static const clg_tunable tunables[] = {
    CHOICE(mapping, mappings, "how work-items map to memory"),
    COUNT(prefetch, 0, 2, "prefetch builtin: 0 none, 1 clang's, 2 OpenCL's prefetch()"),
    COUNT(stream, 0, 1, "streaming stores may be used"),
    COUNT(item_loops, 0, 1, "no vectorizing across work-items that walk long loops"),
    COUNT(force_inline, 0, 1, "always_inline on hot helpers"),
    COUNT(grid_groups_per_cu, 1, 4096, "grid-stride kernels: work-groups per compute unit"),
    COUNT(runs_groups_per_cu, 1, 4096, "runs mapping: work-groups per compute unit a run length keeps"),
    POW2(runs_local_size, 1, 1024, "runs mapping: work-group size"),
    POW2(adjacent_local_size, 1, 1024, "adjacent mapping: work-group size"),
    POW2(runs_move_bytes, 1, 64, "runs mapping: widest move of a row gather's work-item"),
    POW2(adjacent_move_bytes, 1, 64, "adjacent mapping: widest move of a row gather's work-item"),
    COUNT(run_bytes, 1, 1u << 24, "runs mapping: bytes a work-item moves"),
    COUNT(stream_min_bytes, 0, UINT32_MAX, "streaming stores: least output bytes"),
    COUNT(stream_min_row_bytes, 0, UINT32_MAX, "streaming stores: least row bytes, rows of several moves"),
    COUNT(stream_min_unit_bytes, 0, UINT32_MAX, "streaming stores: least row bytes, rows of one move"),
    COUNT(stage_groups_per_cu, 1, 4096, "staging: work-groups per compute unit"),
    COUNT(stage_sector_bytes, 1, 4096, "staging: the least a global read costs"),
    COUNT(block_row_min_bytes, 1, 1u << 16, "column blocks: least row bytes of a block"),
    COUNT(block_bytes_per_output, 1, 1u << 16, "column blocks: most staged bytes an output may cost"),
    COUNT(blocks_per_cu, 1, 4096, "column blocks: blocks per compute unit"),
    COUNT(dequant_run_bytes, 1, 1u << 24, "dequantizing, runs mapping: output bytes a work-item writes"),
    COUNT(dequant_prefetch_bytes, 0, 1u << 24, "dequantizing, runs mapping: prefetch distance in bytes"),
    COUNT(dequant_prefetch_slabs_max, 1, 64, "dequantizing, runs mapping: most slabs prefetched ahead"),
    STEP(dequant_piece_values, 8, 1024, 8, "dequantizing, adjacent mapping: values a work-item writes"),
    STEP(dequant_super_piece_values, 8, 1024, 8,
         "dequantizing ggml's super-blocks, adjacent mapping: values a work-item writes"),
    CHOICE(nibble_lookups, lookups, "dequantizing on x86: the widest nibble lookup used"),
    POW2(tree_local_size, 1, 1024, "GatherTree: work-group size"),
    COUNT(check_per_item, 1, 1u << 20, "index checks, runs mapping: indices a work-item scans"),
    POW2(check_local_size, 1, 1024, "index checks: work-group size"),
    POW2(copy_local_size, 1, 1024, "gated copy: work-group size"),
    /* a prefetch loop steps by CACHE_LINE and takes CACHE_LINE / 64 of the widest moves: a power of two
     * of at least 64 */
    {FIELD(cache_line_bytes), 64, 4096, 1, 1, NULL, "CACHE_LINE", "the step of prefetch loops"},
    KERNEL(prefetch_locality, "PREFETCH_LOCALITY", 0, 3,
           "the prefetch builtin's (prefetch = 1) locality: 3 (x86 prefetcht0), 2 (prefetcht1) .. 0 (non-temporal)"),
    KERNEL(bag_prefetch_locality, "BAG_PREFETCH_LOCALITY", 0, 3,
           "the same in EmbeddingBag's programs, whose prefetches run furthest ahead"),
    KERNEL(rows_prefetch_ahead_bytes, "PREFETCH_AHEAD_BYTES", 0, 1u << 24, "row runs: bytes prefetched ahead"),
    KERNEL(rows_prefetch_max_rows, "PREFETCH_MAX_ROWS", 1, 4096, "row runs: most rows prefetched ahead"),
    KERNEL(rows_prefetch_head_from_bytes, "PREFETCH_HEAD_FROM_ROW_BYTES", 1, 1u << 24,
           "row runs: rows this long have only their head prefetched"),
    KERNEL(rows_prefetch_head_bytes, "PREFETCH_HEAD_BYTES", 0, 1u << 24, "row runs: bytes of a long row's head"),
    KERNEL(group_prefetch_bytes, "GROUP_PREFETCH_BYTES", 0, 1u << 30, "one-unit rows: most group bytes prefetched"),
    KERNEL(group_prefetch_spread, "SPREAD_CHUNK", 1, 1u << 20, "one-unit rows: rows a prefetch share spreads over"),
    KERNEL(unit_rows_prefetch_ahead, "U1_AHEAD", 1, 1u << 20, "one-unit rows: rows prefetched ahead"),
    KERNEL(elements_prefetch_index_rows, "PREFETCH_INDEX_ROWS_AHEAD", 1, 1u << 20,
           "GatherElements runs: index rows prefetched ahead"),
    KERNEL(elements_prefetch_data_rows, "PREFETCH_DATA_ROWS_AHEAD", 1, 1u << 20,
           "GatherElements runs: data rows prefetched ahead"),
    KERNEL(dequant_slab_prefetch_bytes, "SLAB_PREFETCH_BYTES", 0, 1u << 24,
           "dequantizing: most bytes prefetched of a slab's values or scales"),
    KERNEL(bag_prefetch_ahead, "BAG_PREFETCH_AHEAD", 0, 1u << 20,
           "EmbeddingBag runs: the bag, this many on, whose rows a work-item prefetches (0: none)"),
    KERNEL(bag_prefetch_rows, "BAG_PREFETCH_ROWS", 0, 1u << 20,
           "EmbeddingBag runs: reducing index i, the row of index i + this is prefetched (0: none)"),
    /* a multiple of 32: the passes narrow by halves, 64 then 32 columns, down to the last 32 */
    {FIELD(bag_sum_columns), 32, 128, 32, 0, NULL, "SUM_COLUMNS_MAX",
     "EmbeddingBag runs: columns an f32 sum accumulates at once, in registers"},
    /* a multiple of 8: the kernel accumulates eight values a vector */
    {FIELD(bag_quantized_piece_values), 8, 256, 8, 0, NULL, "QBAG_PIECE",
     "quantized EmbeddingBag: values of a unit a work-item reduces at once"},
    /* 8 or 16: a power of two and a multiple of 8 up to 16 */
    {FIELD(bag_quantized_lanes), 8, 16, 8, 1, NULL, "QBAG_LANES",
     "quantized EmbeddingBag: lanes of the vectors an FBGEMM row's values are summed in (8 or 16)"},
    KERNEL(bag_quantized_prefetch_rows, "QBAG_PREFETCH_ROWS", 0, 1u << 20,
           "quantized EmbeddingBag runs: reducing index i, the row of index i + this is prefetched (0: none)"),
    KERNEL(bag_quantized_prefetch_ahead, "QBAG_PREFETCH_AHEAD", 0, 1u << 10,
           "quantized EmbeddingBag runs: the work-item's bag, this many on, whose rows it prefetches (0: none)"),
    KERNEL(bag_quantized_prefetch_current, "QBAG_PREFETCH_CURRENT", 0, 1,
           "quantized EmbeddingBag runs: each bag's rows (up to rows_prefetch_max_rows) prefetched as it starts"),
    COUNT(host_memory_in_place, 0, 1, "host-memory calls: inputs and output used in the caller's memory, not copied"),
};

const clg_tunable *clg_tunables(size_t *count)
{
    *count = sizeof tunables / sizeof tunables[0];
    return tunables;
}

uint32_t clg_tuning_value(const clg_tuning *t, const clg_tunable *tunable)
{
    uint32_t v;
    memcpy(&v, (const char *)t + tunable->offset, sizeof v);
    return v;
}

static void set_value(clg_tuning *t, const clg_tunable *tunable, uint32_t v)
{
    memcpy((char *)t + tunable->offset, &v, sizeof v);
}

static const clg_tunable *find(const char *name, size_t length)
{
    for (size_t i = 0; i < sizeof tunables / sizeof tunables[0]; ++i)
        if (strlen(tunables[i].name) == length && strncmp(tunables[i].name, name, length) == 0) return &tunables[i];
    return NULL;
}

/* The value of `text` for a tunable: a choice's name or a decimal number; 0 if it is neither or out
 * of the tunable's range. */
static int value_of(const clg_tunable *tunable, const char *text, uint32_t *v)
{
    if (tunable->choices) {
        for (uint32_t i = 0; i <= tunable->max; ++i)
            if (strcmp(text, tunable->choices[i]) == 0) {
                *v = i;
                return 1;
            }
        return 0;
    }
    if (!isdigit((unsigned char)text[0])) return 0;
    errno = 0;
    char *end;
    const unsigned long long n = strtoull(text, &end, 10);
    if (errno || *end || n < tunable->min || n > tunable->max) return 0;
    if (n % tunable->multiple_of) return 0;
    if (tunable->power_of_two && (n & (n - 1))) return 0;
    *v = (uint32_t)n;
    return 1;
}

static clg_status refuse(int line, const clg_tunable *tunable, const char *name, const char *value)
{
    if (!tunable) return clg_fail(CLG_ERR_INVALID_TUNING, "tuning line %d: no tunable is called \"%s\"", line, name);
    if (tunable->choices) {
        char names[128] = "";
        for (uint32_t i = 0; i <= tunable->max; ++i) {
            strncat(names, i ? ", " : "", sizeof names - strlen(names) - 1);
            strncat(names, tunable->choices[i], sizeof names - strlen(names) - 1);
        }
        return clg_fail(CLG_ERR_INVALID_TUNING, "tuning line %d: %s = \"%s\" is not one of %s", line, name, value,
                        names);
    }
    char also[48] = "";
    if (tunable->power_of_two) snprintf(also, sizeof also, ", a power of two");
    if (tunable->multiple_of > 1) snprintf(also, sizeof also, ", a multiple of %u", (unsigned)tunable->multiple_of);
    return clg_fail(CLG_ERR_INVALID_TUNING, "tuning line %d: %s = \"%s\" is not a whole number in [%u, %u]%s", line,
                    name, value, (unsigned)tunable->min, (unsigned)tunable->max, also);
}

/* The trimmed span [*start, *start + *length) of text[0, n). */
static void trim(const char *text, size_t n, const char **start, size_t *length)
{
    while (n > 0 && isspace((unsigned char)*text)) ++text, --n;
    while (n > 0 && isspace((unsigned char)text[n - 1])) --n;
    *start = text;
    *length = n;
}

clg_status clg_tuning_parse(const char *text, clg_tuning *tuning)
{
    if (!text) return clg_fail(CLG_ERR_NULL_ARGUMENT, "tuning text is NULL");
    clg_tuning next = *tuning;
    int line = 0;
    for (const char *p = text; *p;) {
        ++line;
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        const char *hash = memchr(p, '#', n);
        if (hash) n = (size_t)(hash - p);
        const char *eq = memchr(p, '=', n);
        const char *name, *value;
        size_t name_length, value_length;
        trim(p, n, &name, &name_length);
        if (name_length > 0) {
            char name_text[64] = "", value_text[64] = "";
            if (!eq)
                return clg_fail(CLG_ERR_INVALID_TUNING, "tuning line %d: \"%.*s\" is not `name = value`", line,
                                name_length > 60 ? 60 : (int)name_length, name);
            trim(p, (size_t)(eq - p), &name, &name_length);
            trim(eq + 1, n - (size_t)(eq + 1 - p), &value, &value_length);
            snprintf(name_text, sizeof name_text, "%.*s", (int)(name_length < 63 ? name_length : 63), name);
            snprintf(value_text, sizeof value_text, "%.*s", (int)(value_length < 63 ? value_length : 63), value);
            const clg_tunable *tunable = find(name, name_length);
            uint32_t v = 0;
            if (!tunable || value_length >= sizeof value_text || !value_of(tunable, value_text, &v))
                return refuse(line, tunable, name_text, value_text);
            set_value(&next, tunable, v);
        }
        p = end ? end + 1 : p + strlen(p);
    }
    *tuning = next;
    return CLG_SUCCESS;
}

size_t clg_tuning_build_options(const clg_tuning *tuning, char *buf, size_t size)
{
    size_t used = 0;
    for (size_t i = 0; i < sizeof tunables / sizeof tunables[0]; ++i) {
        if (!tunables[i].macro) continue;
        const int n = snprintf(used < size ? buf + used : NULL, used < size ? size - used : 0, " -D%s=%uu",
                               tunables[i].macro, (unsigned)clg_tuning_value(tuning, &tunables[i]));
        if (n > 0) used += (size_t)n;
    }
    if (size > 0 && used >= size) buf[size - 1] = '\0';
    if (size > 0 && used == 0) buf[0] = '\0';
    return used;
}

size_t clg_tuning_format(const clg_tuning *tuning, char *buf, size_t size)
{
    size_t used = 0;
    for (size_t i = 0; i < sizeof tunables / sizeof tunables[0]; ++i) {
        const clg_tunable *t = &tunables[i];
        const uint32_t v = clg_tuning_value(tuning, t);
        char value[16];
        if (t->choices)
            snprintf(value, sizeof value, "%s", t->choices[v]);
        else
            snprintf(value, sizeof value, "%u", (unsigned)v);
        const int n =
            snprintf(used < size ? buf + used : NULL, used < size ? size - used : 0, "%s = %s\n", t->name, value);
        if (n > 0) used += (size_t)n;
    }
    if (size > 0 && used >= size) buf[size - 1] = '\0';
    return used;
}
