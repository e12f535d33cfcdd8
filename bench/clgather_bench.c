/* clgather-bench: times the gather kernels against the device's own copy bandwidth and the CPU
 * reference. Uses the public API (enqueue path on buffers it creates) and OpenCL directly for its
 * copy-bandwidth, cache-flush and empty kernels.
 *
 *   clgather-bench [--device SPEC] [--case NAME]... [--repeat N] [--json FILE] [--scale auto|N]
 *                  [--ref-repeat N] [--no-verify] [--mapping auto|runs|units] [--offsets64]
 *                  [--cases FILE] [--list [--json]]
 *
 * The cases are bench/cases.txt, compiled in (--cases FILE reads another table); bench/peers.py and
 * bench/torch_cuda.py read the same file. --scale multiplies the dimensions each case's scale= field
 * names: by N, or under auto by what makes the case move about 1 GiB on a GPU or four times the
 * last-level cache on a CPU, as far as its buffers fit (default 1: the table's sizes, the ones
 * bench/RESULTS.md records).
 *
 * Inputs are generated from fixed seeds with a counter-based splitmix64 (value i of stream s is
 * mix(s + (i + 1) * 0x9E3779B97F4A7C15)), so bench/peers.py regenerates exactly the same indices and
 * data in numpy. Each case allocates its own buffers; between timed runs a copy kernel over a
 * scratch buffer twice the size of the device's global-memory cache evicts the case's data, so no
 * timing is of a cache-resident repeat.
 *
 * Times: "kernel" is CL_PROFILING_COMMAND_END - START of the event the API returns; "wall" is the
 * whole API call plus waiting for that event. A case's primary time (median_s, min_s in the JSON) is
 * the kernel time, except where the call blocks on extra device work the returned event does not
 * cover (onnx-checked: index check + 4-byte read; gather-tree: backtrack + read; tiny: overhead is
 * the point): there it is the wall time.
 *
 * Ratios: ratio_to_copy is against the copy measured once at the start.
 * ratio_to_adjacent_copy is against the evicting copies timed just before each of the case's runs,
 * so a case and its ceiling see the same seconds of a shared machine; tiny is likewise held against
 * empty-kernel round trips interleaved with its calls, and onnx-checked against the same call
 * with the policy overridden to zeros (no index check) interleaved with it.
 */
#define _POSIX_C_SOURCE 200809L
#include "clgather.h"
#include "first_call.h"
#include "splitmix.h"
#include "testing/testing.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MIB ((size_t)1 << 20)

/* ---------------------------------------------------------------------------------------------- */
/* Deterministic inputs                                                                           */
/* ---------------------------------------------------------------------------------------------- */

/* Fill bytes with the little-endian words of stream seed. */
static void fill_bytes(void *dst, size_t bytes, uint64_t seed)
{
    unsigned char *p = dst;
    size_t words = bytes / 8;
    for (size_t i = 0; i < words; ++i) {
        uint64_t v = splitmix_value(seed, i);
        for (int b = 0; b < 8; ++b) p[i * 8 + b] = (unsigned char)(v >> (8 * b));
    }
    if (bytes % 8) {
        uint64_t v = splitmix_value(seed, words);
        for (size_t b = 0; b < bytes % 8; ++b) p[words * 8 + b] = (unsigned char)(v >> (8 * b));
    }
}

static void store_int(void *base, clg_dtype t, size_t pos, int64_t v)
{
    switch (t) {
    case CLG_I32: ((int32_t *)base)[pos] = (int32_t)v; break;
    case CLG_I64: ((int64_t *)base)[pos] = v; break;
    default: break;
    }
}

/* FNV-1a over bytes: a fingerprint peers.py checks to prove it generated the same indices. */
static uint64_t fnv1a(const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

/* ---------------------------------------------------------------------------------------------- */
/* Cases                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

typedef enum case_kind { KIND_GATHER, KIND_ELEMENTS, KIND_ND, KIND_TREE, KIND_QUANT } case_kind;
typedef enum primary_time { PRIMARY_KERNEL, PRIMARY_WALL } primary_time;
typedef enum quant_layout { LAYOUT_NONE, LAYOUT_ORT_U4, LAYOUT_ORT_U8, LAYOUT_GGML_Q8_0 } quant_layout;

#define MAX_SCALED_DIMS 4

/* One line of bench/cases.txt (its header says what each field means). */
typedef struct case_spec {
    char name[64];
    case_kind kind;
    int preset; /* the kind's preset: clg_preset, clg_gather_elements_preset or clg_gather_nd_preset */
    quant_layout layout;
    clg_dtype data_type;
    int32_t data_rank;
    int64_t data_shape[CLG_MAX_RANK];
    clg_dtype index_type;
    int32_t indices_rank;
    int64_t indices_shape[CLG_MAX_RANK];
    int64_t axis, batch_dims; /* Gather: both; GatherElements: the axis; GatherND: batch_dims */
    uint64_t seed;            /* indices: seed, data: seed + 1 (tree: step ids, parents, lengths: +0, +1, +2) */
    primary_time primary;
    int scaled_dims;                     /* how many dimensions --scale multiplies */
    int scaled_is_data[MAX_SCALED_DIMS]; /* 1: a data dimension, 0: an indices dimension */
    int scaled_dim[MAX_SCALED_DIMS];     /* which */
    int64_t scale;                       /* the factor applied (1: the table's sizes) */
} case_spec;

/* The table, parsed from bench/cases.txt (compiled in as BENCH_CASES_TEXT) or from --cases FILE. */
#include "bench_cases_text.h"
static case_spec *CASES;
static size_t NUM_CASES;

/* What a case moves (the bytes its GB/s counts) and the device memory it takes: its largest buffer
 * and all of them together. */
typedef struct case_footprint {
    uint64_t moved, largest, total;
} case_footprint;

static case_footprint case_bytes(const case_spec *c, int64_t quant_block_size);

typedef struct case_result {
    const char *name;
    int available;
    const char *note; /* why not available, or a verification failure */
    int verified;     /* 1 ok, 0 not checked, -1 mismatch */
    uint64_t bytes;
    double kernel_median, kernel_min, wall_median, wall_min;
    double median, min; /* primary */
    double gbps, ratio_to_copy;
    /* the cache-evicting copy that precedes each timed run, timed too: the copy bandwidth of the
     * same seconds as the case, against drifts of a shared machine's memory system (0 if none) */
    double adjacent_copy_gbps, ratio_to_adjacent_copy;
    double adjacent_empty_rt;     /* tiny: median empty-kernel round trip interleaved with its calls */
    double unchecked_wall_median; /* error-policy cases: the same call without the index check, interleaved */
    double ref_median, speedup;
    int repeats;
    uint64_t index_fnv;
    int64_t scale; /* the factor the case ran at */
    char timing[8];
} case_result;

/* ---------------------------------------------------------------------------------------------- */
/* Helpers                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double min_of(const double *v, int n)
{
    double m = v[0];
    for (int i = 1; i < n; ++i) m = v[i] < m ? v[i] : m;
    return m;
}

/* Set when the driver's profiling timestamps do not measure a 256 MiB copy (rusticl 22.3 reports
 * START == END): every kernel time is then the wall time of the call and its wait. */
static int profiling_unusable;

static double event_seconds(cl_event ev)
{
    cl_ulong start = 0, end = 0;
    if (clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL) != CL_SUCCESS ||
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL) != CL_SUCCESS)
        return NAN;
    return 1e-9 * (double)(end - start);
}

#define DIE(...)                                         \
    do {                                                 \
        fprintf(stderr, "clgather-bench: " __VA_ARGS__); \
        fprintf(stderr, "\n");                           \
        exit(1);                                         \
    } while (0)

static void check_cl(cl_int err, const char *what)
{
    if (err != CL_SUCCESS) DIE("%s failed: %s (%d)", what, clg_status_string(err), (int)err);
}

static void check_clg(clg_status st, const char *what)
{
    if (st != CLG_SUCCESS) DIE("%s failed: %s: %s", what, clg_status_string(st), clg_last_error_message());
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) DIE("cannot allocate %zu bytes of host memory", n);
    return p;
}

/* ---------------------------------------------------------------------------------------------- */
/* The case table                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

#define TABLE_DIE(where, line, ...)                              \
    do {                                                         \
        fprintf(stderr, "clgather-bench: %s:%d: ", where, line); \
        fprintf(stderr, __VA_ARGS__);                            \
        fprintf(stderr, "\n");                                   \
        exit(1);                                                 \
    } while (0)

static int64_t parse_count(const char *s, const char *where, int line)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end != '\0' || errno || v < 0) TABLE_DIE(where, line, "'%s' is not a count", s);
    return (int64_t)v;
}

/* TYPE[d0,d1,...] into a type, a rank and a shape. */
static void parse_tensor(char *text, clg_dtype *type, int32_t *rank, int64_t *shape, const char *where, int line)
{
    char *open = strchr(text, '['), *close = strrchr(text, ']');
    if (!open || !close || close < open || close[1] != '\0')
        TABLE_DIE(where, line, "'%s' is not TYPE[d0,d1,...]", text);
    *open = '\0', *close = '\0';
    *type = clg_dtype_from_name(text);
    if (*type == CLG_DTYPE_INVALID) TABLE_DIE(where, line, "unknown element type '%s'", text);
    *rank = 0;
    for (char *save = NULL, *dim = strtok_r(open + 1, ",", &save); dim; dim = strtok_r(NULL, ",", &save)) {
        if (*rank == CLG_MAX_RANK) TABLE_DIE(where, line, "more than %d dimensions", CLG_MAX_RANK);
        shape[(*rank)++] = parse_count(dim, where, line);
    }
}

/* data:0,indices:1 into the case's scaled dimensions. */
static void parse_scale(char *text, case_spec *c, const char *where, int line)
{
    if (!strcmp(text, "none")) return;
    for (char *save = NULL, *item = strtok_r(text, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        char *colon = strchr(item, ':');
        if (!colon || c->scaled_dims == MAX_SCALED_DIMS) TABLE_DIE(where, line, "bad scale item '%s'", item);
        *colon = '\0';
        if (strcmp(item, "data") && strcmp(item, "indices"))
            TABLE_DIE(where, line, "scale names data or indices, not '%s'", item);
        c->scaled_is_data[c->scaled_dims] = !strcmp(item, "data");
        c->scaled_dim[c->scaled_dims++] = (int)parse_count(colon + 1, where, line);
    }
}

/* One key=value of a case line. A new field (a kernel variant, a profile) goes here. */
static void parse_case_field(case_spec *c, const char *key, char *value, const char *op, const char *where, int line)
{
    if (!strcmp(key, "op")) {
        /* read first, by parse_case_line */
    } else if (!strcmp(key, "preset")) {
        c->preset = c->kind == KIND_GATHER     ? (int)clg_preset_from_name(value)
                    : c->kind == KIND_ELEMENTS ? (int)clg_gather_elements_preset_from_name(value)
                    : c->kind == KIND_ND       ? (int)clg_gather_nd_preset_from_name(value)
                                               : -1;
        if (c->preset <= 0) TABLE_DIE(where, line, "no %s preset '%s'", op, value);
    } else if (!strcmp(key, "data")) {
        parse_tensor(value, &c->data_type, &c->data_rank, c->data_shape, where, line);
    } else if (!strcmp(key, "indices")) {
        parse_tensor(value, &c->index_type, &c->indices_rank, c->indices_shape, where, line);
    } else if (!strcmp(key, "axis")) {
        c->axis = parse_count(value, where, line);
    } else if (!strcmp(key, "batch_dims")) {
        c->batch_dims = parse_count(value, where, line);
    } else if (!strcmp(key, "seed")) {
        c->seed = (uint64_t)parse_count(value, where, line);
    } else if (!strcmp(key, "time")) {
        if (strcmp(value, "kernel") && strcmp(value, "wall")) TABLE_DIE(where, line, "time is kernel or wall");
        c->primary = !strcmp(value, "wall") ? PRIMARY_WALL : PRIMARY_KERNEL;
    } else if (!strcmp(key, "layout")) {
        c->layout = !strcmp(value, "ort-u4")      ? LAYOUT_ORT_U4
                    : !strcmp(value, "ort-u8")    ? LAYOUT_ORT_U8
                    : !strcmp(value, "ggml-q8_0") ? LAYOUT_GGML_Q8_0
                                                  : LAYOUT_NONE;
        if (c->layout == LAYOUT_NONE) TABLE_DIE(where, line, "unknown layout '%s'", value);
    } else if (!strcmp(key, "scale")) {
        parse_scale(value, c, where, line);
    } else {
        TABLE_DIE(where, line, "unknown field '%s'", key);
    }
}

static case_kind kind_of_op(const char *op, const char *where, int line)
{
    static const struct {
        const char *name;
        case_kind kind;
    } ops[] = {{"gather", KIND_GATHER},
               {"elements", KIND_ELEMENTS},
               {"nd", KIND_ND},
               {"tree", KIND_TREE},
               {"quantized", KIND_QUANT}};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; ++i)
        if (!strcmp(op, ops[i].name)) return ops[i].kind;
    TABLE_DIE(where, line, "unknown op '%s'", op ? op : "(none)");
}

/* A case line: its name, then key=value fields (op first, whatever its place: the preset depends on it). */
static void parse_case_line(char *text, case_spec *c, const char *where, int line)
{
    memset(c, 0, sizeof *c);
    c->scale = 1;
    char *fields[32];
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(text, " \t\r", &save); tok; tok = strtok_r(NULL, " \t\r", &save)) {
        if (n == 32) TABLE_DIE(where, line, "too many fields");
        fields[n++] = tok;
    }
    if (n == 0) TABLE_DIE(where, line, "an empty case");
    if (strlen(fields[0]) >= sizeof c->name) TABLE_DIE(where, line, "name too long");
    strcpy(c->name, fields[0]);
    const char *op = NULL;
    for (int i = 1; i < n; ++i)
        if (!strncmp(fields[i], "op=", 3)) op = fields[i] + 3;
    c->kind = kind_of_op(op, where, line);
    for (int i = 1; i < n; ++i) {
        char *eq = strchr(fields[i], '=');
        if (!eq) TABLE_DIE(where, line, "'%s' is not key=value", fields[i]);
        *eq = '\0';
        parse_case_field(c, fields[i], eq + 1, op, where, line);
    }
    if (c->data_rank == 0) TABLE_DIE(where, line, "no data=");
    if (c->kind != KIND_TREE && c->indices_rank == 0) TABLE_DIE(where, line, "no indices=");
    if ((c->kind == KIND_QUANT) != (c->layout != LAYOUT_NONE)) TABLE_DIE(where, line, "layout= is for op=quantized");
    if (c->kind != KIND_TREE && c->kind != KIND_QUANT && c->preset == 0) TABLE_DIE(where, line, "no preset=");
    for (int i = 0; i < c->scaled_dims; ++i)
        if (c->scaled_dim[i] >= (c->scaled_is_data[i] ? c->data_rank : c->indices_rank))
            TABLE_DIE(where, line, "scale names a dimension the tensor lacks");
    for (size_t k = 0; k < NUM_CASES; ++k)
        if (!strcmp(CASES[k].name, c->name)) TABLE_DIE(where, line, "a second case '%s'", c->name);
}

/* Parse a whole table (blank lines and '#' comments skipped) into CASES. */
static void load_cases(const char *table, const char *where)
{
    char *copy = xmalloc(strlen(table) + 1);
    strcpy(copy, table);
    int line = 0;
    for (char *next = copy; next;) {
        char *text = next;
        char *nl = strchr(next, '\n');
        next = nl ? nl + 1 : NULL;
        if (nl) *nl = '\0';
        ++line;
        char *hash = strchr(text, '#');
        if (hash) *hash = '\0';
        if (strspn(text, " \t\r") == strlen(text)) continue;
        CASES = realloc(CASES, (NUM_CASES + 1) * sizeof *CASES);
        if (!CASES) DIE("cannot allocate the case table");
        case_spec parsed;
        parse_case_line(text, &parsed, where, line);
        CASES[NUM_CASES++] = parsed;
    }
    free(copy);
    if (!NUM_CASES) DIE("%s has no cases", where);
}

static void load_cases_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) DIE("cannot read %s: %s", path, strerror(errno));
    size_t cap = 1 << 16, len = 0;
    char *text = xmalloc(cap);
    size_t got;
    while ((got = fread(text + len, 1, cap - 1 - len, f)) > 0) {
        len += got;
        if (len == cap - 1) {
            cap *= 2;
            text = realloc(text, cap);
            if (!text) DIE("cannot allocate %zu bytes", cap);
        }
    }
    fclose(f);
    text[len] = '\0';
    load_cases(text, path);
    free(text);
}

/* ---------------------------------------------------------------------------------------------- */
/* The bench's own kernels                                                                        */
/* ---------------------------------------------------------------------------------------------- */

static const char *BENCH_KERNELS =
    "__kernel void copy16(__global const uint4 *restrict src, __global uint4 *restrict dst)\n"
    "{ size_t i = get_global_id(0); dst[i] = src[i]; }\n"
    "__kernel void empty(void) { }\n";

typedef struct bench_env {
    clg_context *ctx;
    cl_context cl_ctx;
    cl_device_id device;
    cl_command_queue queue; /* profiling enabled */
    cl_program program;
    cl_kernel copy16, empty;
    cl_mem flush_src, flush_dst;
    size_t flush_bytes;
    size_t max_alloc;
    uint64_t global_mem;
    double copy_gbps;
    double empty_rt_median, empty_rt_min;
    int64_t quant_block_size; /* --block-size: the ONNX Runtime cases' block size (0: their own, 32) */
} bench_env;

static double run_copy(bench_env *env, cl_mem src, cl_mem dst, size_t bytes, size_t local)
{
    check_cl(clSetKernelArg(env->copy16, 0, sizeof src, &src), "clSetKernelArg(copy16)");
    check_cl(clSetKernelArg(env->copy16, 1, sizeof dst, &dst), "clSetKernelArg(copy16)");
    size_t global = bytes / 16;
    cl_event ev;
    const double t0 = now_s();
    check_cl(clEnqueueNDRangeKernel(env->queue, env->copy16, 1, NULL, &global, local ? &local : NULL, 0, NULL, &ev),
             "clEnqueueNDRangeKernel(copy16)");
    check_cl(clWaitForEvents(1, &ev), "clWaitForEvents(copy16)");
    const double wall = now_s() - t0;
    double t = event_seconds(ev);
    clReleaseEvent(ev);
    /* a profiled time under 1% of the wall time of a large copy is not a measurement */
    if (bytes >= 64 * MIB && !(t > 0.01 * wall)) profiling_unusable = 1;
    return profiling_unusable ? wall : t;
}

/* A run's kernel time: the profiled one, or its wall time where the driver's profiling is unusable. */
static double kernel_seconds(cl_event ev, double wall) { return profiling_unusable ? wall : event_seconds(ev); }

/* Evict the last case's data from the caches (a copy over a scratch pair larger than the cache).
 * Returns the copy's kernel time. */
static double flush_cache(bench_env *env)
{
    return run_copy(env, env->flush_src, env->flush_dst, env->flush_bytes, 64);
}

/* Copies until the device has run steadily for SETTLE_SECONDS, just before a case's timed runs. The
 * copy ceiling is measured after most of a second of copies; a case's runs come after its CPU
 * reference, on one thread, and on a small virtual machine the first few milliseconds of work on
 * every thread after that run slow, copies included. */
#define SETTLE_SECONDS 0.2
static void settle(bench_env *env)
{
    const double t0 = now_s();
    for (int n = 0; n < 2 || now_s() - t0 < SETTLE_SECONDS; ++n) flush_cache(env);
}

/* The copy bandwidth of the evicting copies timed next to a case's runs. */
static void summarize_adjacent_copy(case_result *res, const bench_env *env, double *flush_s, int n)
{
    res->adjacent_copy_gbps = 2.0 * (double)env->flush_bytes / median_of(flush_s, n) / 1e9;
}

static void measure_copy(bench_env *env, int repeat)
{
    size_t bytes = 256 * MIB;
    if (bytes > env->max_alloc) bytes = env->max_alloc / 16 * 16;
    cl_int err;
    cl_mem src = clCreateBuffer(env->cl_ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    check_cl(err, "clCreateBuffer(copy src)");
    cl_mem dst = clCreateBuffer(env->cl_ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    check_cl(err, "clCreateBuffer(copy dst)");
    unsigned char pattern = 0x5a;
    check_cl(clEnqueueFillBuffer(env->queue, src, &pattern, 1, 0, bytes, 0, NULL, NULL), "clEnqueueFillBuffer");
    check_cl(clEnqueueFillBuffer(env->queue, dst, &pattern, 1, 0, bytes, 0, NULL, NULL), "clEnqueueFillBuffer");
    check_cl(clFinish(env->queue), "clFinish");
    /* The ceiling is the best the device does: try a few work-group sizes, keep the fastest median. */
    static const size_t locals[] = {64, 256, 1024};
    double best = 0;
    for (size_t l = 0; l < sizeof locals / sizeof locals[0]; ++l) {
        double *t = xmalloc(sizeof(double) * (size_t)repeat);
        run_copy(env, src, dst, bytes, locals[l]); /* warm-up */
        for (int r = 0; r < repeat; ++r) t[r] = run_copy(env, src, dst, bytes, locals[l]);
        double gbps = 2.0 * (double)bytes / median_of(t, repeat) / 1e9;
        if (gbps > best) best = gbps;
        free(t);
    }
    env->copy_gbps = best;
    clReleaseMemObject(src);
    clReleaseMemObject(dst);
}

/* One gather call, enqueued and waited for: its wall seconds, and the kernel's profiled seconds
 * where kernel_s is given. */
static double timed_gather(bench_env *env, const char *name, const clg_gather_desc *desc, cl_mem d_data,
                           cl_mem d_indices, cl_mem d_out, double *kernel_s)
{
    cl_event ev;
    const double t0 = now_s();
    check_clg(clg_gather_enqueue(env->ctx, desc, env->queue, d_data, 0, d_indices, 0, d_out, 0, 0, NULL, &ev), name);
    check_cl(clWaitForEvents(1, &ev), "clWaitForEvents");
    const double wall = now_s() - t0;
    if (kernel_s) *kernel_s = kernel_seconds(ev, wall);
    clReleaseEvent(ev);
    return wall;
}

/* One launch of the empty kernel on the bench queue, waited for: seconds. */
static double empty_roundtrip(bench_env *env)
{
    size_t global = 1, local = 1;
    cl_event ev;
    double t0 = now_s();
    check_cl(clEnqueueNDRangeKernel(env->queue, env->empty, 1, NULL, &global, &local, 0, NULL, &ev),
             "clEnqueueNDRangeKernel(empty)");
    check_cl(clWaitForEvents(1, &ev), "clWaitForEvents(empty)");
    double t = now_s() - t0;
    clReleaseEvent(ev);
    return t;
}

static void measure_empty(bench_env *env, int repeat)
{
    double *t = xmalloc(sizeof(double) * (size_t)repeat);
    for (int r = -10; r < repeat; ++r) {
        double rt = empty_roundtrip(env);
        if (r >= 0) t[r] = rt;
    }
    env->empty_rt_min = min_of(t, repeat);
    env->empty_rt_median = median_of(t, repeat);
    free(t);
}

static cl_mem make_buffer(bench_env *env, size_t bytes, const void *host)
{
    cl_int err;
    cl_mem m = clCreateBuffer(env->cl_ctx, CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0), bytes ? bytes : 1,
                              host && bytes ? (void *)host : NULL, &err);
    check_cl(err, "clCreateBuffer");
    return m;
}

/* An output buffer filled with a poison byte, so that an element the case leaves unwritten cannot
 * match the reference. */
static cl_mem poisoned_output(bench_env *env, size_t bytes)
{
    cl_mem m = make_buffer(env, bytes, NULL);
    const unsigned char poison = 0xA5;
    check_cl(clEnqueueFillBuffer(env->queue, m, &poison, 1, 0, bytes, 0, NULL, NULL), "clEnqueueFillBuffer");
    check_cl(clFinish(env->queue), "clFinish");
    return m;
}

/* 1 if the device's output is the reference's bit for bit, else -1. */
static int output_matches(bench_env *env, cl_mem d_out, const void *expect, size_t bytes)
{
    void *got = xmalloc(bytes);
    check_cl(clEnqueueReadBuffer(env->queue, d_out, CL_TRUE, 0, bytes, got, 0, NULL, NULL), "clEnqueueReadBuffer");
    const int same = memcmp(got, expect, bytes) == 0;
    free(got);
    return same ? 1 : -1;
}

/* ---------------------------------------------------------------------------------------------- */
/* Gather cases                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

/* Kernel and wall times of n timed runs into a case result. */
static void summarize_times(case_result *res, double *kernel_s, double *wall_s, int n)
{
    res->repeats = n;
    res->kernel_min = min_of(kernel_s, n);
    res->kernel_median = median_of(kernel_s, n);
    res->wall_min = min_of(wall_s, n);
    res->wall_median = median_of(wall_s, n);
}

/* The descriptor of a KIND_GATHER case; axis_value holds its axis tensor's value. */
static void gather_desc_of_case(const case_spec *c, clg_gather_desc *desc, int64_t *axis_value)
{
    memset(desc, 0, sizeof *desc);
    desc->preset = (clg_preset)c->preset;
    desc->data.type = c->data_type;
    desc->data.rank = c->data_rank;
    for (int i = 0; i < c->data_rank; ++i) desc->data.shape[i] = c->data_shape[i];
    desc->indices.type = c->index_type;
    desc->indices.rank = c->indices_rank;
    for (int i = 0; i < c->indices_rank; ++i) desc->indices.shape[i] = c->indices_shape[i];
    *axis_value = c->axis;
    if (c->preset >= CLG_OV_GATHER_1) {
        desc->axis_tensor.type = CLG_I64;
        desc->axis_tensor.rank = 0;
        desc->axis_value = axis_value;
        desc->batch_dims = c->batch_dims;
    } else {
        desc->axis = c->axis;
    }
}

static void run_gather_case(bench_env *env, const case_spec *c, int repeat, int ref_repeat, int verify,
                            case_result *res)
{
    clg_gather_desc desc;
    int64_t axis_value;
    gather_desc_of_case(c, &desc, &axis_value);
    uint64_t data_bytes, index_bytes, out_bytes;
    check_clg(clg_gather_sizes(&desc, &data_bytes, &index_bytes, &out_bytes), c->name);

    /* host inputs: data from stream seed + 1, indices uniform in [0, A) from stream seed */
    void *data = xmalloc(data_bytes);
    void *indices = xmalloc(index_bytes);
    fill_bytes(data, data_bytes, c->seed + 1);
    const uint64_t A = (uint64_t)c->data_shape[c->axis];
    const size_t index_size = clg_dtype_size(c->index_type);
    const size_t index_count = index_bytes / index_size;
    for (size_t i = 0; i < index_count; ++i)
        store_int(indices, c->index_type, i, (int64_t)(splitmix_value(c->seed, i) % A));
    res->index_fnv = fnv1a(indices, index_bytes);
    res->bytes = case_bytes(c, 0).moved;

    /* CPU reference, timed */
    void *expect = xmalloc(out_bytes);
    double *t = xmalloc(sizeof(double) * (size_t)(repeat > ref_repeat ? repeat : ref_repeat));
    for (int r = 0; r < ref_repeat; ++r) {
        double t0 = now_s();
        check_clg(clg_gather_reference(&desc, data, data_bytes, indices, index_bytes, expect, out_bytes),
                  "clg_gather_reference");
        t[r] = now_s() - t0;
    }
    res->ref_median = median_of(t, ref_repeat);

    cl_mem d_data = make_buffer(env, data_bytes, data);
    cl_mem d_indices = make_buffer(env, index_bytes, indices);
    cl_mem d_out = poisoned_output(env, out_bytes);

    /* warm-up (builds and caches the specialization), then check the result bit for bit */
    for (int w = 0; w < 2; ++w) timed_gather(env, c->name, &desc, d_data, d_indices, d_out, NULL);
    res->verified = verify ? output_matches(env, d_out, expect, out_bytes) : 0;
    free(expect);

    const int is_tiny = strcmp(c->name, "tiny") == 0;
    int reps = is_tiny ? (repeat * 20 > 200 ? repeat * 20 : 200) : repeat;
    double *tk = xmalloc(sizeof(double) * (size_t)reps);
    double *tw = xmalloc(sizeof(double) * (size_t)reps);
    double *tf = xmalloc(sizeof(double) * (size_t)reps);
    /* Under the error policy, the same call with the policy overridden to zeros (no index check)
     * runs before each timed call: the check's cost, measured in the same seconds. */
    const int checked = c->preset <= CLG_ONNX_13;
    clg_gather_desc unchecked = desc;
    unchecked.oob_policy = CLG_OOB_ZERO;
    double *tu = xmalloc(sizeof(double) * (size_t)reps);
    settle(env);
    for (int r = 0; r < reps; ++r) {
        if (checked) {
            flush_cache(env);
            tu[r] = timed_gather(env, c->name, &unchecked, d_data, d_indices, d_out, NULL);
        }
        /* tiny: an empty-kernel round trip next to each call, so both see the same machine */
        tf[r] = is_tiny ? empty_roundtrip(env) : flush_cache(env);
        tw[r] = timed_gather(env, c->name, &desc, d_data, d_indices, d_out, &tk[r]);
    }
    summarize_times(res, tk, tw, reps);
    if (is_tiny)
        res->adjacent_empty_rt = median_of(tf, reps);
    else
        summarize_adjacent_copy(res, env, tf, reps);
    if (checked) res->unchecked_wall_median = median_of(tu, reps);
    free(tk);
    free(tw);
    free(tf);
    free(tu);
    free(t);
    clReleaseMemObject(d_data);
    clReleaseMemObject(d_indices);
    clReleaseMemObject(d_out);
    free(data);
    free(indices);
    res->available = 1;
}

/* ---------------------------------------------------------------------------------------------- */
/* Dequantizing gather                                                                            */
/* ---------------------------------------------------------------------------------------------- */

/* The descriptor of a KIND_QUANT case: ort-u4 is ONNX Runtime's u4 with f16 scales per block of 32
 * values (--block-size: another size); ort-u8 the same table in ONNX Runtime's usual form, u8 with
 * bits 4 and u8 zero points two a byte; ggml-q8_0 is ggml q8_0 rows. data_type is the output type. */
static void quant_desc_of_case(const case_spec *c, int64_t block_size, clg_gather_quantized_desc *desc)
{
    memset(desc, 0, sizeof *desc);
    const int64_t rows = c->data_shape[0], values = c->data_shape[1];
    desc->indices.type = c->index_type;
    desc->indices.rank = c->indices_rank;
    for (int i = 0; i < c->indices_rank; ++i) desc->indices.shape[i] = c->indices_shape[i];
    desc->output_type = c->data_type;
    desc->data.rank = 2;
    desc->data.shape[0] = rows;
    if (c->layout == LAYOUT_ORT_U4 || c->layout == LAYOUT_ORT_U8) {
        const int u8 = c->layout == LAYOUT_ORT_U8;
        desc->layout = CLG_QUANT_ORT_BLOCK;
        desc->data.type = u8 ? CLG_QUANT_U8 : CLG_QUANT_U4;
        desc->bits = u8 ? 4 : 0;
        desc->data.shape[1] = u8 ? values / 2 : values;
        const int64_t bs = block_size ? block_size : 32;
        desc->block_size = bs;
        desc->quantize_axis = 1;
        desc->scales.type = CLG_F16;
        desc->scales.rank = 2;
        desc->scales.shape[0] = rows;
        desc->scales.shape[1] = values / bs;
        if (u8) {
            desc->zero_points.type = CLG_QUANT_U8;
            desc->zero_points.rank = 2;
            desc->zero_points.shape[0] = rows;
            desc->zero_points.shape[1] = (values / bs + 1) / 2;
        }
    } else {
        desc->layout = CLG_QUANT_GGML_Q8_0;
        desc->data.type = CLG_QUANT_U8;
        desc->data.shape[1] = values / 32 * 34;
    }
}

/* Finite f16 scales (random bits could be NaN, whose payload nothing promises to keep). */
static void finite_f16(unsigned char *p, size_t count, size_t stride)
{
    for (size_t i = 0; i < count; ++i) {
        const uint16_t bits = (uint16_t)(0x2000u | (splitmix_value(77, i) & 0x8FFFu));
        memcpy(p + i * stride, &bits, 2);
    }
}

static void run_quant_case(bench_env *env, const case_spec *c, int repeat, int ref_repeat, int verify, case_result *res)
{
    clg_gather_quantized_desc desc;
    quant_desc_of_case(c, env->quant_block_size, &desc);
    uint64_t data_bytes, index_bytes, scale_bytes, zp_bytes, out_bytes;
    check_clg(clg_gather_quantized_sizes(&desc, &data_bytes, &index_bytes, &scale_bytes, &zp_bytes, &out_bytes),
              c->name);
    unsigned char *data = xmalloc(data_bytes);
    unsigned char *scales = xmalloc(scale_bytes ? scale_bytes : 1);
    unsigned char *zero_points = xmalloc(zp_bytes ? zp_bytes : 1);
    void *indices = xmalloc(index_bytes);
    fill_bytes(data, data_bytes, c->seed + 1);
    fill_bytes(zero_points, zp_bytes, c->seed + 2);
    const int64_t rows = c->data_shape[0];
    const size_t index_count = index_bytes / clg_dtype_size(c->index_type);
    if (desc.layout == CLG_QUANT_GGML_Q8_0)
        finite_f16(data, data_bytes / 34, 34); /* each block's d */
    else
        finite_f16(scales, scale_bytes / 2, 2);
    for (size_t i = 0; i < index_count; ++i)
        store_int(indices, c->index_type, i, (int64_t)(splitmix_value(c->seed, i) % (uint64_t)rows));
    res->index_fnv = fnv1a(indices, index_bytes);
    res->bytes = case_bytes(c, env->quant_block_size).moved;

    void *expect = xmalloc(out_bytes);
    double *t = xmalloc(sizeof(double) * (size_t)(repeat > ref_repeat ? repeat : ref_repeat));
    for (int r = 0; r < ref_repeat; ++r) {
        double t0 = now_s();
        check_clg(clg_gather_quantized_reference(&desc, data, data_bytes, indices, index_bytes,
                                                 scale_bytes ? scales : NULL, scale_bytes,
                                                 zp_bytes ? zero_points : NULL, zp_bytes, expect, out_bytes),
                  "clg_gather_quantized_reference");
        t[r] = now_s() - t0;
    }
    res->ref_median = median_of(t, ref_repeat);

    cl_mem d_data = make_buffer(env, data_bytes, data);
    cl_mem d_indices = make_buffer(env, index_bytes, indices);
    cl_mem d_scales = scale_bytes ? make_buffer(env, scale_bytes, scales) : NULL;
    cl_mem d_zero_points = zp_bytes ? make_buffer(env, zp_bytes, zero_points) : NULL;
    cl_mem d_out = poisoned_output(env, out_bytes);
    double *tk = xmalloc(sizeof(double) * (size_t)repeat);
    double *tw = xmalloc(sizeof(double) * (size_t)repeat);
    double *tf = xmalloc(sizeof(double) * (size_t)repeat);
    for (int r = -2; r < repeat; ++r) { /* two warm-up runs build and cache the specialization */
        if (r == 0) settle(env);
        const double flush = flush_cache(env);
        cl_event ev;
        const double t0 = now_s();
        check_clg(clg_gather_quantized_enqueue(env->ctx, &desc, env->queue, d_data, 0, d_indices, 0, d_scales, 0,
                                               d_zero_points, 0, d_out, 0, 0, NULL, &ev),
                  c->name);
        check_cl(clWaitForEvents(1, &ev), "clWaitForEvents");
        if (r >= 0) {
            tw[r] = now_s() - t0;
            tk[r] = kernel_seconds(ev, tw[r]);
            tf[r] = flush;
        }
        clReleaseEvent(ev);
    }
    res->verified = verify ? output_matches(env, d_out, expect, out_bytes) : 0;
    summarize_times(res, tk, tw, repeat);
    summarize_adjacent_copy(res, env, tf, repeat);
    free(tk);
    free(tw);
    free(tf);
    free(t);
    free(expect);
    clReleaseMemObject(d_data);
    clReleaseMemObject(d_indices);
    if (d_scales) clReleaseMemObject(d_scales);
    if (d_zero_points) clReleaseMemObject(d_zero_points);
    clReleaseMemObject(d_out);
    free(data);
    free(scales);
    free(zero_points);
    free(indices);
    res->available = 1;
}

/* ---------------------------------------------------------------------------------------------- */
/* GatherElements and GatherND                                                                    */
/* ---------------------------------------------------------------------------------------------- */

/* A GatherElements or GatherND case's descriptor, and its calls. */
typedef struct family_call {
    case_kind kind;
    clg_gather_elements_desc elements;
    clg_gather_nd_desc nd;
} family_call;

static family_call family_call_of(const case_spec *c)
{
    family_call f;
    memset(&f, 0, sizeof f);
    f.kind = c->kind;
    clg_tensor_desc data = {.type = c->data_type, .rank = c->data_rank},
                    indices = {.type = c->index_type, .rank = c->indices_rank};
    for (int i = 0; i < c->data_rank; ++i) data.shape[i] = c->data_shape[i];
    for (int i = 0; i < c->indices_rank; ++i) indices.shape[i] = c->indices_shape[i];
    f.elements = (clg_gather_elements_desc){
        .preset = (clg_gather_elements_preset)c->preset, .data = data, .indices = indices, .axis = c->axis};
    f.nd = (clg_gather_nd_desc){
        .preset = (clg_gather_nd_preset)c->preset, .data = data, .indices = indices, .batch_dims = c->batch_dims};
    return f;
}

static void family_sizes(const family_call *f, uint64_t *data_bytes, uint64_t *index_bytes, uint64_t *out_bytes)
{
    check_clg(f->kind == KIND_ELEMENTS ? clg_gather_elements_sizes(&f->elements, data_bytes, index_bytes, out_bytes)
                                       : clg_gather_nd_sizes(&f->nd, data_bytes, index_bytes, out_bytes),
              "sizes");
}

static void family_reference(const family_call *f, const void *data, uint64_t data_bytes, const void *indices,
                             uint64_t index_bytes, void *out, uint64_t out_bytes)
{
    check_clg(f->kind == KIND_ELEMENTS
                  ? clg_gather_elements_reference(&f->elements, data, data_bytes, indices, index_bytes, out, out_bytes)
                  : clg_gather_nd_reference(&f->nd, data, data_bytes, indices, index_bytes, out, out_bytes),
              "the CPU reference");
}

/* One enqueue, waited for: wall seconds; the kernel's seconds into kernel_s. */
static double timed_family(bench_env *env, const char *name, const family_call *f, cl_mem d_data, cl_mem d_indices,
                           cl_mem d_out, double *kernel_s)
{
    cl_event ev;
    const double t0 = now_s();
    check_clg(f->kind == KIND_ELEMENTS ? clg_gather_elements_enqueue(env->ctx, &f->elements, env->queue, d_data, 0,
                                                                     d_indices, 0, d_out, 0, 0, NULL, &ev)
                                       : clg_gather_nd_enqueue(env->ctx, &f->nd, env->queue, d_data, 0, d_indices, 0,
                                                               d_out, 0, 0, NULL, &ev),
              name);
    check_cl(clWaitForEvents(1, &ev), "clWaitForEvents");
    const double wall = now_s() - t0;
    if (kernel_s) *kernel_s = event_seconds(ev);
    clReleaseEvent(ev);
    return wall;
}

/* Index value i: uniform over the extent it indexes. GatherElements: the axis; GatherND: component
 * i % m against data.shape[batch_dims + i % m]. */
static uint64_t family_index_extent(const case_spec *c, size_t i)
{
    if (c->kind == KIND_ELEMENTS) return (uint64_t)c->data_shape[c->axis];
    const int64_t m = c->indices_shape[c->indices_rank - 1];
    return (uint64_t)c->data_shape[c->batch_dims + (int64_t)(i % (size_t)m)];
}

static void run_family_case(bench_env *env, const case_spec *c, int repeat, int ref_repeat, int verify,
                            case_result *res)
{
    const family_call f = family_call_of(c);
    uint64_t data_bytes, index_bytes, out_bytes;
    family_sizes(&f, &data_bytes, &index_bytes, &out_bytes);

    /* host inputs: data from stream seed + 1, indices from stream seed (family_index_extent) */
    void *data = xmalloc(data_bytes);
    void *indices = xmalloc(index_bytes);
    fill_bytes(data, data_bytes, c->seed + 1);
    const size_t index_count = index_bytes / clg_dtype_size(c->index_type);
    for (size_t i = 0; i < index_count; ++i)
        store_int(indices, c->index_type, i, (int64_t)(splitmix_value(c->seed, i) % family_index_extent(c, i)));
    res->index_fnv = fnv1a(indices, index_bytes);
    res->bytes = case_bytes(c, 0).moved;

    void *expect = xmalloc(out_bytes);
    double *t = xmalloc(sizeof(double) * (size_t)(repeat > ref_repeat ? repeat : ref_repeat));
    for (int r = 0; r < ref_repeat; ++r) {
        double t0 = now_s();
        family_reference(&f, data, data_bytes, indices, index_bytes, expect, out_bytes);
        t[r] = now_s() - t0;
    }
    res->ref_median = median_of(t, ref_repeat);

    cl_mem d_data = make_buffer(env, data_bytes, data);
    cl_mem d_indices = make_buffer(env, index_bytes, indices);
    cl_mem d_out = poisoned_output(env, out_bytes);
    for (int w = 0; w < 2; ++w) timed_family(env, c->name, &f, d_data, d_indices, d_out, NULL);
    res->verified = verify ? output_matches(env, d_out, expect, out_bytes) : 0;
    free(expect);

    double *tk = xmalloc(sizeof(double) * (size_t)repeat);
    double *tw = xmalloc(sizeof(double) * (size_t)repeat);
    double *tf = xmalloc(sizeof(double) * (size_t)repeat);
    settle(env);
    for (int r = 0; r < repeat; ++r) {
        tf[r] = flush_cache(env);
        tw[r] = timed_family(env, c->name, &f, d_data, d_indices, d_out, &tk[r]);
    }
    summarize_times(res, tk, tw, repeat);
    summarize_adjacent_copy(res, env, tf, repeat);
    free(tk);
    free(tw);
    free(tf);
    free(t);
    clReleaseMemObject(d_data);
    clReleaseMemObject(d_indices);
    clReleaseMemObject(d_out);
    free(data);
    free(indices);
    res->available = 1;
}

/* ---------------------------------------------------------------------------------------------- */
/* GatherTree                                                                                     */
/* ---------------------------------------------------------------------------------------------- */

static void run_tree_case(bench_env *env, const case_spec *c, int repeat, int ref_repeat, int verify, case_result *res)
{
    const int64_t T = c->data_shape[0], Bt = c->data_shape[1], W = c->data_shape[2];
    clg_gather_tree_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.step_ids.type = desc.parent_ids.type = desc.max_seq_len.type = desc.end_token.type = CLG_I32;
    desc.step_ids.rank = desc.parent_ids.rank = 3;
    for (int i = 0; i < 3; ++i) desc.step_ids.shape[i] = desc.parent_ids.shape[i] = c->data_shape[i];
    desc.max_seq_len.rank = 1;
    desc.max_seq_len.shape[0] = Bt;
    desc.end_token.rank = 0;
    const size_t n = (size_t)(T * Bt * W);
    int32_t *steps = xmalloc(n * 4), *parents = xmalloc(n * 4), *lens = xmalloc((size_t)Bt * 4);
    int32_t end_token = 0;
    /* step ids in [0, 1000) (so end_token 0 appears now and then), parents in [0, W),
     * lengths in [T/2, T] */
    for (size_t i = 0; i < n; ++i) steps[i] = (int32_t)(splitmix_value(c->seed, i) % 1000);
    for (size_t i = 0; i < n; ++i) parents[i] = (int32_t)(splitmix_value(c->seed + 1, i) % (uint64_t)W);
    for (int64_t b = 0; b < Bt; ++b)
        lens[b] = (int32_t)(T / 2 + (int64_t)(splitmix_value(c->seed + 2, (uint64_t)b) % (uint64_t)(T / 2 + 1)));
    res->index_fnv = fnv1a(parents, n * 4);
    const size_t bytes = n * 4;
    res->bytes = case_bytes(c, 0).moved;

    int32_t *expect = xmalloc(bytes);
    double *t = xmalloc(sizeof(double) * (size_t)(repeat > ref_repeat ? repeat : ref_repeat));
    for (int r = 0; r < ref_repeat; ++r) {
        double t0 = now_s();
        check_clg(clg_gather_tree_reference(&desc, steps, bytes, parents, bytes, lens, (size_t)Bt * 4, &end_token, 4,
                                            expect, bytes),
                  "clg_gather_tree_reference");
        t[r] = now_s() - t0;
    }
    res->ref_median = median_of(t, ref_repeat);

    cl_mem d_steps = make_buffer(env, bytes, steps), d_parents = make_buffer(env, bytes, parents);
    cl_mem d_lens = make_buffer(env, (size_t)Bt * 4, lens), d_end = make_buffer(env, 4, &end_token);
    cl_mem d_out = poisoned_output(env, bytes);
    for (int w = 0; w < 2; ++w) {
        cl_event ev;
        check_clg(clg_gather_tree_enqueue(env->ctx, &desc, env->queue, d_steps, 0, d_parents, 0, d_lens, 0, d_end, 0,
                                          d_out, 0, 0, NULL, &ev),
                  c->name);
        check_cl(clWaitForEvents(1, &ev), "clWaitForEvents");
        clReleaseEvent(ev);
    }
    res->verified = verify ? output_matches(env, d_out, expect, bytes) : 0;
    double *tk = xmalloc(sizeof(double) * (size_t)repeat), *tw = xmalloc(sizeof(double) * (size_t)repeat);
    double *tf = xmalloc(sizeof(double) * (size_t)repeat);
    settle(env);
    for (int r = 0; r < repeat; ++r) {
        tf[r] = flush_cache(env);
        cl_event ev;
        double t0 = now_s();
        check_clg(clg_gather_tree_enqueue(env->ctx, &desc, env->queue, d_steps, 0, d_parents, 0, d_lens, 0, d_end, 0,
                                          d_out, 0, 0, NULL, &ev),
                  c->name);
        check_cl(clWaitForEvents(1, &ev), "clWaitForEvents");
        tw[r] = now_s() - t0;
        tk[r] = kernel_seconds(ev, tw[r]);
        clReleaseEvent(ev);
    }
    summarize_times(res, tk, tw, repeat);
    summarize_adjacent_copy(res, env, tf, repeat);
    free(tk);
    free(tw);
    free(tf);
    free(t);
    free(expect);
    free(steps);
    free(parents);
    free(lens);
    clReleaseMemObject(d_steps);
    clReleaseMemObject(d_parents);
    clReleaseMemObject(d_lens);
    clReleaseMemObject(d_end);
    clReleaseMemObject(d_out);
    res->available = 1;
}

/* ---------------------------------------------------------------------------------------------- */
/* Sizes, and --scale                                                                             */
/* ---------------------------------------------------------------------------------------------- */

static case_footprint footprint_of(uint64_t moved, const uint64_t *buffers, int n)
{
    case_footprint f = {moved, 0, 0};
    for (int i = 0; i < n; ++i) {
        f.largest = buffers[i] > f.largest ? buffers[i] : f.largest;
        f.total += buffers[i];
    }
    return f;
}

static case_footprint case_bytes(const case_spec *c, int64_t quant_block_size)
{
    uint64_t data_bytes = 0, index_bytes = 0, out_bytes = 0;
    if (c->kind == KIND_GATHER) {
        clg_gather_desc desc;
        int64_t axis_value;
        gather_desc_of_case(c, &desc, &axis_value);
        check_clg(clg_gather_sizes(&desc, &data_bytes, &index_bytes, &out_bytes), c->name);
    } else if (c->kind == KIND_ELEMENTS || c->kind == KIND_ND) {
        const family_call f = family_call_of(c);
        family_sizes(&f, &data_bytes, &index_bytes, &out_bytes);
    } else if (c->kind == KIND_QUANT) {
        clg_gather_quantized_desc desc;
        quant_desc_of_case(c, quant_block_size, &desc);
        uint64_t scale_bytes, zp_bytes;
        check_clg(clg_gather_quantized_sizes(&desc, &data_bytes, &index_bytes, &scale_bytes, &zp_bytes, &out_bytes),
                  c->name);
        const uint64_t index_count = index_bytes / clg_dtype_size(c->index_type);
        const uint64_t row_bytes = (data_bytes + scale_bytes + zp_bytes) / (uint64_t)c->data_shape[0];
        const uint64_t buffers[] = {data_bytes, index_bytes, scale_bytes, zp_bytes, out_bytes};
        /* indices read + the gathered rows' packed bytes, scales and zero points read + output written */
        return footprint_of(index_bytes + row_bytes * index_count + out_bytes, buffers, 5);
    } else {
        const uint64_t ids = (uint64_t)(c->data_shape[0] * c->data_shape[1] * c->data_shape[2]) * 4;
        const uint64_t lens = (uint64_t)c->data_shape[1] * 4;
        const uint64_t buffers[] = {ids, ids, lens, 4, ids};
        return footprint_of(3 * ids + lens + 4, buffers, 5); /* step ids + parents read, output written */
    }
    const uint64_t buffers[] = {data_bytes, index_bytes, out_bytes};
    /* indices read + gathered elements read + output written */
    return footprint_of(index_bytes + 2 * out_bytes, buffers, 3);
}

/* The case with each dimension its scale= names multiplied by factor. */
static case_spec scaled_case(const case_spec *c, int64_t factor)
{
    case_spec s = *c;
    for (int i = 0; i < c->scaled_dims; ++i) {
        int64_t *shape = c->scaled_is_data[i] ? s.data_shape : s.indices_shape;
        shape[c->scaled_dim[i]] *= factor;
    }
    s.scale = c->scaled_dims ? factor : 1;
    return s;
}

/* --scale auto: what a case should move. On a CPU several times the last-level cache, so a run streams
 * from memory; on a GPU about 1 GiB, so a run lasts far longer than a launch. */
static uint64_t auto_scale_target(const bench_env *env)
{
    cl_device_type type = 0;
    clGetDeviceInfo(env->device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    if (!(type & CL_DEVICE_TYPE_CPU)) return (uint64_t)1 << 30;
    cl_ulong cache = 0;
    clGetDeviceInfo(env->device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof cache, &cache, NULL);
    return 4 * (uint64_t)(cache ? cache : 32 * MIB);
}

/* The factor a case runs at: --scale N, or under --scale auto (scale_request 0) the smallest that
 * moves the target, never below the table's sizes, and no larger than its buffers fit: each within
 * the device's largest allocation, all of them within a quarter of its memory. */
static int64_t scale_factor_of(const bench_env *env, const case_spec *c, int64_t scale_request)
{
    if (!c->scaled_dims) return 1;
    if (scale_request > 0) return scale_request;
    const case_footprint base = case_bytes(c, env->quant_block_size);
    const uint64_t target = auto_scale_target(env);
    int64_t f = base.moved >= target ? 1 : (int64_t)((target + base.moved - 1) / base.moved);
    for (; f > 1; --f) {
        const case_spec s = scaled_case(c, f);
        const case_footprint fp = case_bytes(&s, env->quant_block_size);
        if (fp.largest <= env->max_alloc && fp.total <= env->global_mem / 4) break;
    }
    return f;
}

/* ---------------------------------------------------------------------------------------------- */
/* Output                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; ++s) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

static void json_number(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.9g", v);
    else
        fputs("null", f);
}

static void write_json(const char *path, const bench_env *env, const clg_device_info *info, const case_result *res,
                       size_t count, int repeat, int64_t scale_request, const first_call_times *fc)
{
    FILE *f = fopen(path, "w");
    if (!f) DIE("cannot write %s: %s", path, strerror(errno));
    char device[300];
    snprintf(device, sizeof device, "%s / %s", info->platform_name, info->device_name);
    fputs("{\n  \"device\": ", f);
    json_string(f, device);
    fputs(",\n  \"driver\": ", f);
    json_string(f, info->driver_version);
    fputs(",\n  \"library_version\": ", f);
    json_string(f, clg_version());
    fprintf(f, ",\n  \"repeat\": %d,\n  \"kernel_time\": \"%s\",\n  \"quant_block_size\": %lld,\n  \"copy_gbps\": ",
            repeat, profiling_unusable ? "wall" : "profiled", (long long)env->quant_block_size);
    json_number(f, env->copy_gbps);
    if (scale_request)
        fprintf(f, ",\n  \"scale\": %lld", (long long)scale_request);
    else
        fprintf(f, ",\n  \"scale\": \"auto\",\n  \"scale_target_bytes\": %" PRIu64, auto_scale_target(env));
    fputs(",\n  \"empty_kernel_roundtrip_s\": ", f);
    json_number(f, env->empty_rt_median);
    if (fc->ok) {
        fputs(",\n  \"first_call\": {\"cold_s\": ", f);
        json_number(f, fc->cold_s);
        fputs(", \"clgather_cache_only_s\": ", f);
        json_number(f, fc->clgather_only_s);
        fputs(", \"warm_s\": ", f);
        json_number(f, fc->warm_s);
        fputs("}", f);
    }
    fputs(",\n  \"cases\": [", f);
    for (size_t i = 0; i < count; ++i) {
        const case_result *r = &res[i];
        fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
        json_string(f, r->name);
        if (!r->available) {
            fputs(", \"available\": false, \"note\": ", f);
            json_string(f, r->note ? r->note : "");
            fputs("}", f);
            continue;
        }
        /* per-case facts of the run: its scale (a kernel variant or profile would go beside it) */
        fprintf(f,
                ", \"available\": true, \"scale\": %lld, \"bytes\": %" PRIu64 ", \"median_s\": ", (long long)r->scale,
                r->bytes);
        json_number(f, r->median);
        fputs(", \"min_s\": ", f);
        json_number(f, r->min);
        fputs(", \"gbps\": ", f);
        json_number(f, r->gbps);
        fputs(", \"ratio_to_copy\": ", f);
        json_number(f, r->ratio_to_copy);
        if (r->adjacent_copy_gbps > 0) {
            fputs(", \"adjacent_copy_gbps\": ", f);
            json_number(f, r->adjacent_copy_gbps);
            fputs(", \"ratio_to_adjacent_copy\": ", f);
            json_number(f, r->ratio_to_adjacent_copy);
        }
        if (r->unchecked_wall_median > 0) {
            fputs(", \"unchecked_wall_median_s\": ", f);
            json_number(f, r->unchecked_wall_median);
        }
        if (r->adjacent_empty_rt > 0) {
            fputs(", \"adjacent_empty_roundtrip_s\": ", f);
            json_number(f, r->adjacent_empty_rt);
        }
        fputs(", \"speedup_vs_cpu_ref\": ", f);
        json_number(f, r->speedup);
        fprintf(f, ", \"timing\": \"%s\", \"kernel_median_s\": ", r->timing);
        json_number(f, r->kernel_median);
        fputs(", \"kernel_min_s\": ", f);
        json_number(f, r->kernel_min);
        fputs(", \"wall_median_s\": ", f);
        json_number(f, r->wall_median);
        fputs(", \"wall_min_s\": ", f);
        json_number(f, r->wall_min);
        fputs(", \"cpu_ref_median_s\": ", f);
        json_number(f, r->ref_median);
        fprintf(f, ", \"repeats\": %d, \"verified\": %s, \"index_fnv1a\": \"%016" PRIx64 "\"}", r->repeats,
                r->verified > 0   ? "true"
                : r->verified < 0 ? "false"
                                  : "null",
                r->index_fnv);
    }
    fputs("\n  ]\n}\n", f);
    if (fclose(f) != 0) DIE("cannot write %s", path);
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: clgather-bench [--device SPEC] [--case NAME]... [--repeat N] [--json FILE] [--scale auto|N]\n"
            "                      [--ref-repeat N] [--no-verify] [--mapping auto|runs|units] [--offsets64]\n"
            "                      [--stream auto|on|off] [--block-size N] [--no-first-call]\n"
            "                      [--cases FILE] [--list [--json]]\n"
            "--scale N: every case's scaled dimensions (bench/cases.txt) times N; auto: each case moves about\n"
            "    1 GiB on a GPU, 4x the last-level cache on a CPU, as its buffers fit; default 1 (the table's sizes)\n"
            "--block-size N: the ONNX Runtime dequantizing cases (layout ort-u4, ort-u8) with blocks of N values\n"
            "--cases FILE: read the cases from FILE instead of the built-in bench/cases.txt\n"
            "--list: the case names, one a line; with --json, the whole table as JSON\n"
            "cases:");
    for (size_t i = 0; i < NUM_CASES; ++i) fprintf(f, " %s", CASES[i].name);
    fprintf(f, "\n");
}

static const char *op_name(case_kind kind)
{
    static const char *const names[] = {[KIND_GATHER] = "gather",
                                        [KIND_ELEMENTS] = "elements",
                                        [KIND_ND] = "nd",
                                        [KIND_TREE] = "tree",
                                        [KIND_QUANT] = "quantized"};
    return names[kind];
}

static const char *preset_name_of(const case_spec *c)
{
    switch (c->kind) {
    case KIND_GATHER: return clg_preset_name((clg_preset)c->preset);
    case KIND_ELEMENTS: return clg_gather_elements_preset_name((clg_gather_elements_preset)c->preset);
    case KIND_ND: return clg_gather_nd_preset_name((clg_gather_nd_preset)c->preset);
    default: return NULL;
    }
}

static void json_tensor(FILE *f, clg_dtype type, int32_t rank, const int64_t *shape)
{
    fprintf(f, "{\"type\": \"%s\", \"shape\": [", clg_dtype_name(type));
    for (int32_t i = 0; i < rank; ++i) fprintf(f, "%s%lld", i ? ", " : "", (long long)shape[i]);
    fputs("]}", f);
}

/* --list --json: the table as the Python scripts could read it, field for field. */
static void list_json(FILE *f)
{
    static const char *const layouts[] = {
        [LAYOUT_NONE] = NULL, [LAYOUT_ORT_U4] = "ort-u4", [LAYOUT_ORT_U8] = "ort-u8", [LAYOUT_GGML_Q8_0] = "ggml-q8_0"};
    fputs("[", f);
    for (size_t i = 0; i < NUM_CASES; ++i) {
        const case_spec *c = &CASES[i];
        fprintf(f, "%s\n  {\"name\": \"%s\", \"op\": \"%s\"", i ? "," : "", c->name, op_name(c->kind));
        if (preset_name_of(c)) fprintf(f, ", \"preset\": \"%s\"", preset_name_of(c));
        if (layouts[c->layout]) fprintf(f, ", \"layout\": \"%s\"", layouts[c->layout]);
        fputs(", \"data\": ", f);
        json_tensor(f, c->data_type, c->data_rank, c->data_shape);
        if (c->kind != KIND_TREE) {
            fputs(", \"indices\": ", f);
            json_tensor(f, c->index_type, c->indices_rank, c->indices_shape);
        }
        fprintf(f, ", \"axis\": %lld, \"batch_dims\": %lld, \"seed\": %llu, \"time\": \"%s\", \"scale\": [",
                (long long)c->axis, (long long)c->batch_dims, (unsigned long long)c->seed,
                c->primary == PRIMARY_WALL ? "wall" : "kernel");
        for (int d = 0; d < c->scaled_dims; ++d)
            fprintf(f, "%s\"%s:%d\"", d ? ", " : "", c->scaled_is_data[d] ? "data" : "indices", c->scaled_dim[d]);
        fputs("]}", f);
    }
    fputs("\n]\n", f);
}

static int parse_int(const char *s, const char *opt)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < 1 || v > 100000) DIE("%s wants a number in [1, 100000], not '%s'", opt, s);
    return (int)v;
}

int main(int argc, char **argv)
{
    const char *device_spec = NULL, *json_path = NULL;
    int repeat = 15, ref_repeat = 3, verify = 1, mapping = 0, offsets64 = 0, first_call = 1, stream = 0;
    int64_t quant_block_size = 0, scale_request = 1; /* scale_request 0: --scale auto */
    int list = 0, list_as_json = 0;
    /* the table first, so that --case and --list see the one --cases names */
    const char *cases_path = NULL;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--cases") && i + 1 < argc) cases_path = argv[i + 1];
        if (!strcmp(argv[i], "--list")) list = 1; /* then --json takes no file, wherever it stands */
    }
    if (cases_path)
        load_cases_file(cases_path);
    else
        load_cases(BENCH_CASES_TEXT, "bench/cases.txt (built in)");
    int *selected = calloc(NUM_CASES, sizeof *selected);
    if (!selected) DIE("cannot allocate the case selection");
    int any_selected = 0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--list")) {
            /* read above */
        } else if (!strcmp(a, "--no-verify")) {
            verify = 0;
        } else if (!strcmp(a, "--offsets64")) {
            offsets64 = 1;
        } else if (!strcmp(a, "--no-first-call")) {
            first_call = 0;
        } else if (!strcmp(a, "--first-call-probe")) {
            return first_call_probe(v && *v ? v + 0 : NULL) ? 1 : 0;
        } else if (!strcmp(a, "--json") && list) {
            list_as_json = 1; /* --list --json: the table, not a run */
        } else if (!v) {
            usage(stderr);
            DIE("%s needs a value", a);
        } else if (!strcmp(a, "--cases")) {
            ++i; /* read above */
        } else if (!strcmp(a, "--device")) {
            device_spec = v, ++i;
        } else if (!strcmp(a, "--json")) {
            json_path = v, ++i;
        } else if (!strcmp(a, "--scale")) {
            scale_request = !strcmp(v, "auto") ? 0 : parse_int(v, a), ++i;
        } else if (!strcmp(a, "--repeat")) {
            repeat = parse_int(v, a), ++i;
            if (repeat < 10) fprintf(stderr, "clgather-bench: warning: --repeat %d is below 10\n", repeat);
        } else if (!strcmp(a, "--ref-repeat")) {
            ref_repeat = parse_int(v, a), ++i;
        } else if (!strcmp(a, "--stream")) {
            stream = !strcmp(v, "on") ? 1 : !strcmp(v, "off") ? -1 : !strcmp(v, "auto") ? 0 : 2;
            if (stream == 2) DIE("--stream wants auto, on or off");
            ++i;
        } else if (!strcmp(a, "--block-size")) {
            quant_block_size = parse_int(v, a), ++i; /* the library refuses a size its layout does not allow */
        } else if (!strcmp(a, "--mapping")) {
            mapping = !strcmp(v, "runs") ? 1 : !strcmp(v, "units") ? 2 : !strcmp(v, "auto") ? 0 : -1;
            if (mapping < 0) DIE("--mapping wants auto, runs or units");
            ++i;
        } else if (!strcmp(a, "--case")) {
            size_t c = 0;
            while (c < NUM_CASES && strcmp(CASES[c].name, v)) ++c;
            if (c == NUM_CASES) {
                usage(stderr);
                DIE("unknown case '%s'", v);
            }
            selected[c] = 1, any_selected = 1, ++i;
        } else {
            /* a kernel-variant option (--kernel NAME) would be read here and recorded per case */
            usage(stderr);
            DIE("unknown option '%s'", a);
        }
    }
    if (list) {
        if (list_as_json)
            list_json(stdout);
        else
            for (size_t c = 0; c < NUM_CASES; ++c) printf("%s\n", CASES[c].name);
        return 0;
    }

    bench_env env;
    memset(&env, 0, sizeof env);
    env.quant_block_size = quant_block_size;
    check_clg(clg_context_create_default(device_spec, 0, &env.ctx), "clg_context_create_default");
    clg_device_info info;
    check_clg(clg_context_device_info(env.ctx, &info), "clg_context_device_info");
    if (info.is_reference) DIE("device '%s' is the CPU reference; the benchmark needs an OpenCL device", device_spec);
    if (mapping) clg_testing_force_mapping(env.ctx, mapping);
    if (offsets64) clg_testing_force_offsets64(env.ctx, 1);
    if (stream) clg_testing_force_stream(env.ctx, stream);
    env.cl_ctx = clg_context_cl_context(env.ctx);
    env.device = clg_context_cl_device(env.ctx);
    env.max_alloc = (size_t)info.max_alloc_bytes;
    env.global_mem = info.global_mem_bytes;
    cl_int err;
    env.queue = clCreateCommandQueue(env.cl_ctx, env.device, CL_QUEUE_PROFILING_ENABLE, &err);
    check_cl(err, "clCreateCommandQueue");
    env.program = clCreateProgramWithSource(env.cl_ctx, 1, &BENCH_KERNELS, NULL, &err);
    check_cl(err, "clCreateProgramWithSource");
    check_cl(clBuildProgram(env.program, 1, &env.device, "", NULL, NULL), "clBuildProgram(bench kernels)");
    env.copy16 = clCreateKernel(env.program, "copy16", &err);
    check_cl(err, "clCreateKernel(copy16)");
    env.empty = clCreateKernel(env.program, "empty", &err);
    check_cl(err, "clCreateKernel(empty)");

    cl_ulong cache = 0;
    clGetDeviceInfo(env.device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof cache, &cache, NULL);
    env.flush_bytes = (size_t)(cache ? 2 * cache : 64 * MIB);
    if (env.flush_bytes < 64 * MIB) env.flush_bytes = 64 * MIB;
    if (env.flush_bytes > env.max_alloc) env.flush_bytes = env.max_alloc / 16 * 16;
    env.flush_src = make_buffer(&env, env.flush_bytes, NULL);
    env.flush_dst = make_buffer(&env, env.flush_bytes, NULL);
    unsigned char pattern = 1;
    check_cl(clEnqueueFillBuffer(env.queue, env.flush_src, &pattern, 1, 0, env.flush_bytes, 0, NULL, NULL), "fill");
    check_cl(clFinish(env.queue), "clFinish");

    cl_uint compute_units = 0;
    clGetDeviceInfo(env.device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof compute_units, &compute_units, NULL);
    printf("clgather-bench %s\n", clg_version());
    printf("device:  %s / %s (%u compute units)\n", info.platform_name, info.device_name, (unsigned)compute_units);
    printf("driver:  %s (%s)\n", info.driver_version, info.platform_version);
    printf("repeat:  %d timed runs per case after 2 warm-up runs (tiny: %d); CPU reference: %d runs\n", repeat,
           repeat * 20 > 200 ? repeat * 20 : 200, ref_repeat);
    if (scale_request)
        printf("scale:   %lld (each case's scaled dimensions times %lld)\n", (long long)scale_request,
               (long long)scale_request);
    else
        printf("scale:   auto (each case moves about %.0f MiB where its buffers fit)\n",
               (double)auto_scale_target(&env) / (double)MIB);
    fflush(stdout);

    measure_copy(&env, repeat);
    measure_empty(&env, 200);
    printf("copy:    %.2f GB/s (16-byte-per-work-item copy, read + write, best work-group size, median)\n",
           env.copy_gbps);
    if (profiling_unusable)
        printf("profiling: the driver's event timestamps do not measure a copy: every kernel time below is wall "
               "time (call + wait)\n");
    printf("empty kernel round trip: %.1f us median, %.1f us min\n\n", env.empty_rt_median * 1e6,
           env.empty_rt_min * 1e6);
    printf("%-18s %9s %10s %10s %10s %10s %8s %7s %7s %9s %7s %s\n", "case", "MB", "kernel_md", "kernel_mn", "wall_md",
           "cpu_ref", "GB/s", "/copy", "/adj", "vs_ref", "check", "note");
    fflush(stdout);

    case_result *results = calloc(NUM_CASES, sizeof *results);
    if (!results) DIE("cannot allocate the results");
    size_t count = 0;
    for (size_t c = 0; c < NUM_CASES; ++c) {
        if (any_selected && !selected[c]) continue;
        const case_spec scaled = scaled_case(&CASES[c], scale_factor_of(&env, &CASES[c], scale_request));
        const case_spec *cs = &scaled;
        case_result *r = &results[count++];
        memset(r, 0, sizeof *r);
        r->name = CASES[c].name;
        r->scale = cs->scale;
        if (cs->kind == KIND_GATHER)
            run_gather_case(&env, cs, repeat, ref_repeat, verify, r);
        else if (cs->kind == KIND_QUANT)
            run_quant_case(&env, cs, repeat, ref_repeat, verify, r);
        else if (cs->kind == KIND_ELEMENTS || cs->kind == KIND_ND)
            run_family_case(&env, cs, repeat, ref_repeat, verify, r);
        else
            run_tree_case(&env, cs, repeat, ref_repeat, verify, r);
        if (!r->available) {
            printf("%-18s %s\n", r->name, r->note);
            fflush(stdout);
            continue;
        }
        int wall = cs->primary == PRIMARY_WALL;
        snprintf(r->timing, sizeof r->timing, "%s", wall ? "wall" : "kernel");
        r->median = wall ? r->wall_median : r->kernel_median;
        r->min = wall ? r->wall_min : r->kernel_min;
        r->gbps = (double)r->bytes / r->median / 1e9;
        r->ratio_to_copy = r->gbps / env.copy_gbps;
        if (r->adjacent_copy_gbps > 0) r->ratio_to_adjacent_copy = r->gbps / r->adjacent_copy_gbps;
        r->speedup = r->ref_median / r->wall_median;
        char note[160] = "";
        if (!strcmp(r->name, "tiny"))
            snprintf(note, sizeof note,
                     "%.1f us/call = %.2fx the empty-kernel round trip interleaved with it (%.1f us)",
                     r->wall_median * 1e6, r->wall_median / r->adjacent_empty_rt, r->adjacent_empty_rt * 1e6);
        else if (wall)
            snprintf(note, sizeof note, "primary time is wall (call + wait)");
        else if (quant_block_size && cs->layout != LAYOUT_GGML_Q8_0 && cs->kind == KIND_QUANT)
            snprintf(note, sizeof note, "blocks of %lld values (--block-size)", (long long)quant_block_size);
        if (cs->scale > 1) {
            const size_t used = strlen(note);
            snprintf(note + used, sizeof note - used, "%sscale %lld", used ? "; " : "", (long long)cs->scale);
        }
        char adjacent[16] = "-";
        if (r->ratio_to_adjacent_copy > 0) snprintf(adjacent, sizeof adjacent, "%.3f", r->ratio_to_adjacent_copy);
        printf("%-18s %9.2f %9.3fms %9.3fms %9.3fms %9.3fms %8.2f %7.3f %7s %8.2fx %7s %s\n", r->name,
               (double)r->bytes / 1e6, r->kernel_median * 1e3, r->kernel_min * 1e3, r->wall_median * 1e3,
               r->ref_median * 1e3, r->gbps, r->ratio_to_copy, adjacent, r->speedup,
               r->verified > 0   ? "ok"
               : r->verified < 0 ? "MISMATCH"
                                 : "-",
               note);
        fflush(stdout);
    }

    /* figures that compare two cases */
    const case_result *emb = NULL, *chk = NULL;
    int mismatches = 0;
    for (size_t i = 0; i < count; ++i) {
        if (results[i].available && !strcmp(results[i].name, "embedding-f32")) emb = &results[i];
        if (results[i].available && !strcmp(results[i].name, "onnx-checked")) chk = &results[i];
        mismatches += results[i].verified < 0;
    }
    if (emb && chk)
        printf("\nonnx-checked / embedding-f32 (wall, call + wait): %.3fx\n", chk->wall_median / emb->wall_median);
    if (chk && chk->unchecked_wall_median > 0)
        printf("onnx-checked / the same call without the check, interleaved (wall): %.3fx\n",
               chk->wall_median / chk->unchecked_wall_median);
    first_call_times fc = {-1, -1, -1, 0};
    if (first_call) {
        fc = measure_first_call(device_spec);
        if (fc.ok)
            printf("first call of a fresh process (context + one small gather): %.1f ms with empty caches, "
                   "%.1f ms with clgather's binary cache warm and the driver's empty, %.1f ms with both warm\n",
                   fc.cold_s * 1e3, fc.clgather_only_s * 1e3, fc.warm_s * 1e3);
        else
            printf("first call of a fresh process: could not be measured\n");
    }
    if (json_path) write_json(json_path, &env, &info, results, count, repeat, scale_request, &fc);

    clReleaseMemObject(env.flush_src);
    clReleaseMemObject(env.flush_dst);
    clReleaseKernel(env.copy16);
    clReleaseKernel(env.empty);
    clReleaseProgram(env.program);
    clReleaseCommandQueue(env.queue);
    clg_context_release(env.ctx);
    free(results);
    free(selected);
    free(CASES);
    if (mismatches) {
        fprintf(stderr, "clgather-bench: %d case(s) differ from the CPU reference\n", mismatches);
        return 2;
    }
    return 0;
}
