/* clgather-bench: times the gather kernels against the device's own copy bandwidth and the CPU
 * reference. Uses the public API (enqueue path on buffers it creates) and OpenCL directly for its
 * copy-bandwidth, cache-flush and empty kernels.
 *
 *   clgather-bench [--device SPEC] [--case NAME]... [--repeat N] [--json FILE] [--scale auto|N]
 *                  [--ref-repeat N] [--no-verify] [--mapping auto|runs|adjacent] [--offsets64]
 *                  [--stream auto|on|off] [--kernel NAME] [--cases FILE] [--versus PROFILE] [--list [--json]]
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
 *
 * --versus PROFILE: every timed run is paired with a run under the context's tuning with PROFILE's
 * `name = value` lines applied over it, their order alternating pair by pair, and each case reports
 * the median of the pairs' ratios (other / base, primary time). Runs moments apart see the same
 * machine, so the ratio holds still where a shared machine's medians drift between processes.
 */
#define _POSIX_C_SOURCE 200809L
#include "case_table.h"
#include "clgather.h"
#include "first_call.h"
#include "page_facts.h"
#include "run_timing.h"
#include "testing/testing.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MIB ((size_t)1 << 20)

/* The table, parsed from bench/cases.txt (compiled in) or from --cases FILE. */
static case_spec *CASES;
static size_t NUM_CASES;

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
    const char *variant;       /* the kernel variant the case's calls ran (host/core/variants.h) */
    long long huge_page_bytes; /* the process's memory in transparent huge pages with the case's buffers
                                * alive (page_facts.h), -1 unknown */
    char note_text[160];       /* r->note's storage where the note is made here */
    /* --versus: the same calls under the other tuning, each run paired with one of the base tuning's
     * (their order alternating); the ratios are each pair's other / base, of the primary time */
    int versus_verified;        /* as verified, of the other tuning's output */
    const char *versus_variant; /* the kernel variant its calls ran */
    double versus_kernel_median, versus_wall_median, versus_median;
    double versus_ratio_median, versus_ratio_min, versus_ratio_max;
} case_result;

/* The family of kernel variant `name` ("" for none). */
static const char *variant_family(const char *name)
{
    const char *family = "", *each;
    for (size_t i = 0; (each = clg_testing_variant_name(i, &family)) != NULL; ++i)
        if (!strcmp(each, name)) return family;
    return "";
}

/* ---------------------------------------------------------------------------------------------- */
/* Helpers                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

static double min_of(const double *v, int n)
{
    double m = v[0];
    for (int i = 1; i < n; ++i) m = v[i] < m ? v[i] : m;
    return m;
}

static double max_of(const double *v, int n)
{
    double m = v[0];
    for (int i = 1; i < n; ++i) m = v[i] > m ? v[i] : m;
    return m;
}

/* A check's outcome (1 equal, -1 not, 0 not checked) as the table's check column writes it. */
static const char *verified_word(int verified) { return verified > 0 ? "ok" : verified < 0 ? "MISMATCH" : "-"; }

/* Set when the driver's profiling timestamps do not measure a 256 MiB copy (rusticl 22.3 reports
 * START == END): every kernel time is then the wall time of the call and its wait. */
static int profiling_unusable;

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

/* The whole of a text file, NUL-terminated (malloc'd), and its length in *length. */
static char *read_text_file(const char *what, const char *path, size_t *length)
{
    FILE *f = fopen(path, "rb");
    if (!f) DIE("%s: cannot read %s: %s", what, path, strerror(errno));
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
    *length = len;
    return text;
}

static void load_cases_file(const char *path)
{
    size_t length;
    char *text = read_text_file("--cases", path, &length);
    CASES = case_table_parse(text, path, "clgather-bench", &NUM_CASES);
    free(text);
}

/* ---------------------------------------------------------------------------------------------- */
/* The bench's own kernels                                                                        */
/* ---------------------------------------------------------------------------------------------- */

static const char *EMPTY_KERNEL = "__kernel void empty(void) { }\n";

typedef struct bench_env {
    clg_context *ctx;
    cl_context cl_ctx;
    cl_device_id device;
    cl_command_queue queue; /* profiling enabled */
    cl_program program;
    cl_kernel copy16, empty;
    cl_mem flush_src, flush_dst;
    size_t flush_bytes;
    /* --evict host: the caches evicted by a copy on the host thread, as bench/peers.py evicts them for its
     * peers (NULL: by the device copy over flush_src and flush_dst, which are NULL otherwise) */
    unsigned char *host_evict_src, *host_evict_dst;
    size_t max_alloc;
    uint64_t global_mem;
    double copy_gbps;
    double empty_rt_median, empty_rt_min;
    int64_t quant_block_size;  /* --block-size: the ONNX Runtime cases' block size (0: their own, 32) */
    char tuning_table[128];    /* the tuning table's row, "ROW (measured)" or "ROW (untested)" */
    char tuning_profile[4200]; /* the stored or named profile applied ("" for none) */
    /* --versus FILE: the context's whole tuning text, and the same with FILE's lines applied over it
     * (NULL without --versus) */
    const char *versus_path;
    char *base_tuning, *versus_tuning;
} bench_env;

/* --versus FILE: the context's tuning text as it stands (after --mapping, --stream), and the same with
 * FILE's lines applied over it, which the library checks line by line. Leaves the context as it was. */
static void set_up_versus(bench_env *env, const char *path)
{
    size_t length = 0;
    char *lines = read_text_file("--versus", path, &length);
    if (length > 65535) DIE("--versus: %s is longer than a profile (64 KiB)", path);
    clg_context_tuning(env->ctx, NULL, 0, &length);
    env->base_tuning = xmalloc(length + 1);
    check_clg(clg_context_tuning(env->ctx, env->base_tuning, length + 1, NULL), "clg_context_tuning");
    check_clg(clg_context_set_tuning(env->ctx, lines), path);
    clg_context_tuning(env->ctx, NULL, 0, &length);
    env->versus_tuning = xmalloc(length + 1);
    check_clg(clg_context_tuning(env->ctx, env->versus_tuning, length + 1, NULL), "clg_context_tuning");
    check_clg(clg_context_set_tuning(env->ctx, env->base_tuning), "clg_context_set_tuning");
    env->versus_path = path;
    free(lines);
}

/* The tuning the context runs with, from the first lines of clg_context_tuning's text. */
static void read_tuning_origin(bench_env *env)
{
    char text[8192] = "";
    clg_context_tuning(env->ctx, text, sizeof text, NULL);
    for (const char *line = text; *line == '#'; line = strchr(line, '\n') + 1) {
        const int n = (int)strcspn(line, "\n");
        if (!strncmp(line, "# table: ", 9))
            snprintf(env->tuning_table, sizeof env->tuning_table, "%.*s", n - 9, line + 9);
        if (!strncmp(line, "# profile: ", 11))
            snprintf(env->tuning_profile, sizeof env->tuning_profile, "%.*s", n - 11, line + 11);
        if (!line[n]) break;
    }
}

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
static double kernel_seconds(cl_event ev, double wall)
{
    const double s = profiling_unusable ? wall : event_seconds(ev);
    return s >= 0 ? s : wall; /* a command the driver gives no time for (END == START) */
}

/* Evict the last case's data from the caches (a copy over a scratch pair larger than the cache).
 * Returns the copy's kernel time. */
static double flush_cache(bench_env *env)
{
    if (!env->host_evict_src) return run_copy(env, env->flush_src, env->flush_dst, env->flush_bytes, 64);
    const double t0 = now_s();
    memcpy(env->host_evict_dst, env->host_evict_src, env->flush_bytes);
    return now_s() - t0;
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
/* Running a case                                                                                 */
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

/* What a case moves and occupies (case_footprint_of, fatal on a case the library refuses). */
static case_footprint case_bytes(const case_spec *c, int64_t quant_block_size)
{
    case_footprint f;
    check_clg(case_footprint_of(c, quant_block_size, &f), c->name);
    return f;
}

/* One call, enqueued and waited for: its wall seconds, and the kernel's seconds where kernel_s is given. */
static double timed_call(bench_env *env, const char *name, const case_inputs *in, const cl_mem *buffers,
                         double *kernel_s)
{
    cl_event ev;
    const double t0 = now_s();
    check_clg(case_enqueue(env->ctx, in, env->queue, buffers, &ev), name);
    check_cl(clWaitForEvents(1, &ev), "clWaitForEvents");
    const double wall = now_s() - t0;
    if (kernel_s) *kernel_s = kernel_seconds(ev, wall);
    clReleaseEvent(ev);
    return wall;
}

/* --versus: the context under one of its two tunings (the programs of both stay cached). */
static void use_tuning(bench_env *env, const char *tuning)
{
    check_clg(clg_context_set_tuning(env->ctx, tuning), env->versus_path);
}

/* --versus: a timed call (made after clg_testing_forget_variant) ran the variant its tuning ran in its
 * warm-up, or the run was timed under the other tuning. Only the operations whose launchers record a
 * variant (host/core/variants.h) are checked so: the quantized EmbeddingBag's record none ("" both). */
static void expect_variant(bench_env *env, const char *name, const char *expected, const char *which)
{
    const char *ran = clg_testing_last_variant(env->ctx);
    if (strcmp(ran, expected))
        DIE("%s: a timed run under the %s tuning ran '%s', not '%s'", name, which, ran, expected);
}

/* --versus: one call under the other tuning, after the same eviction (or round trip) as a base run. */
static void versus_call(bench_env *env, const char *name, const case_inputs *in, const cl_mem *buffers, int is_tiny,
                        const char *variant, double *kernel_s, double *wall_s)
{
    use_tuning(env, env->versus_tuning);
    if (is_tiny)
        empty_roundtrip(env);
    else
        flush_cache(env);
    clg_testing_forget_variant(env->ctx);
    *wall_s = timed_call(env, name, in, buffers, kernel_s);
    expect_variant(env, name, variant, "other");
    use_tuning(env, env->base_tuning);
}

/* --versus: the other tuning's medians, and the paired ratios of the primary time. */
static void summarize_versus(case_result *res, int wall, const double *tk, const double *tw, double *vk, double *vw,
                             int n)
{
    double *ratio = xmalloc(sizeof(double) * (size_t)n);
    for (int r = 0; r < n; ++r) ratio[r] = wall ? vw[r] / tw[r] : vk[r] / tk[r];
    res->versus_ratio_min = min_of(ratio, n);
    res->versus_ratio_max = max_of(ratio, n);
    res->versus_ratio_median = median_of(ratio, n);
    res->versus_kernel_median = median_of(vk, n);
    res->versus_wall_median = median_of(vw, n);
    res->versus_median = wall ? res->versus_wall_median : res->versus_kernel_median;
    free(ratio);
}

/* A case: its inputs (case_table.h), the CPU reference timed, two warm-up calls (they build and cache
 * the specialization) and a check of the output bit for bit, then the timed calls, each after an
 * evicting copy. tiny: an empty-kernel round trip next to each call instead, so both see the same
 * machine, and more calls. Under the error policy (onnx-checked) the same call with the policy
 * overridden to zeros (no index check) runs before each timed call: the check's cost, in the same
 * seconds. */
static void run_case(bench_env *env, const case_spec *c, int repeat, int ref_repeat, int verify, case_result *res)
{
    case_inputs in;
    check_clg(case_inputs_make(c, env->quant_block_size, &in), c->name);
    res->index_fnv = in.index_fnv;
    res->bytes = case_bytes(c, env->quant_block_size).moved;

    void *expect = xmalloc(in.out_bytes);
    double *t = xmalloc(sizeof(double) * (size_t)ref_repeat);
    for (int r = 0; r < ref_repeat; ++r) {
        const double t0 = now_s();
        check_clg(case_reference(&in, expect), "the CPU reference");
        t[r] = now_s() - t0;
    }
    res->ref_median = median_of(t, ref_repeat);
    free(t);

    cl_mem buffers[CASE_MAX_INPUTS + 1] = {NULL};
    for (int i = 0; i < in.count; ++i)
        if (in.host[i]) buffers[i] = make_buffer(env, in.bytes[i], in.host[i]);
    buffers[in.count] = poisoned_output(env, in.out_bytes);
    for (int w = 0; w < 2; ++w) timed_call(env, c->name, &in, buffers, NULL);
    res->verified = verify ? output_matches(env, buffers[in.count], expect, in.out_bytes) : 0;
    res->variant = clg_testing_last_variant(env->ctx); /* the variant its calls run, before --versus runs any */
    if (env->versus_tuning) { /* its warm-up calls, into the output poisoned again, and its check */
        clReleaseMemObject(buffers[in.count]);
        buffers[in.count] = poisoned_output(env, in.out_bytes);
        use_tuning(env, env->versus_tuning);
        clg_testing_forget_variant(env->ctx);
        for (int w = 0; w < 2; ++w) timed_call(env, c->name, &in, buffers, NULL);
        res->versus_verified = verify ? output_matches(env, buffers[in.count], expect, in.out_bytes) : 0;
        res->versus_variant = clg_testing_last_variant(env->ctx);
        use_tuning(env, env->base_tuning);
    }
    free(expect);

    const int is_tiny = strcmp(c->name, "tiny") == 0;
    const int checked = c->kind == KIND_GATHER && c->preset <= CLG_ONNX_13;
    case_inputs unchecked = in;
    unchecked.gather.oob_policy = CLG_OOB_ZERO;
    const int reps = is_tiny ? (repeat * 20 > 200 ? repeat * 20 : 200) : repeat;
    double *tk = xmalloc(sizeof(double) * (size_t)reps), *tw = xmalloc(sizeof(double) * (size_t)reps);
    double *tf = xmalloc(sizeof(double) * (size_t)reps), *tu = xmalloc(sizeof(double) * (size_t)reps);
    double *vk = xmalloc(sizeof(double) * (size_t)reps), *vw = xmalloc(sizeof(double) * (size_t)reps);
    settle(env);
    for (int r = 0; r < reps; ++r) {
        if (env->versus_tuning && r % 2) /* odd pairs: the other tuning's run first */
            versus_call(env, c->name, &in, buffers, is_tiny, res->versus_variant, &vk[r], &vw[r]);
        if (checked) {
            flush_cache(env);
            tu[r] = timed_call(env, c->name, &unchecked, buffers, NULL);
        }
        tf[r] = is_tiny ? empty_roundtrip(env) : flush_cache(env);
        clg_testing_forget_variant(env->ctx);
        tw[r] = timed_call(env, c->name, &in, buffers, &tk[r]);
        if (env->versus_tuning) expect_variant(env, c->name, res->variant, "base");
        if (env->versus_tuning && r % 2 == 0)
            versus_call(env, c->name, &in, buffers, is_tiny, res->versus_variant, &vk[r], &vw[r]);
    }
    if (env->versus_tuning) summarize_versus(res, c->primary == PRIMARY_WALL, tk, tw, vk, vw, reps);
    free(vk);
    free(vw);
    summarize_times(res, tk, tw, reps);
    if (is_tiny)
        res->adjacent_empty_rt = median_of(tf, reps);
    else
        summarize_adjacent_copy(res, env, tf, reps);
    if (checked) res->unchecked_wall_median = median_of(tu, reps);
    res->huge_page_bytes = page_facts_anon_huge_bytes();
    free(tk);
    free(tw);
    free(tf);
    free(tu);
    for (int i = 0; i <= in.count; ++i)
        if (buffers[i]) clReleaseMemObject(buffers[i]);
    case_inputs_free(&in);
    res->available = 1;
}

/* ---------------------------------------------------------------------------------------------- */
/* Sizes, and --scale                                                                             */
/* ---------------------------------------------------------------------------------------------- */

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
        const case_spec s = case_scaled(c, f);
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

/* `, "name": value` after an object's earlier members. */
static void json_field(FILE *f, const char *name, double value)
{
    fprintf(f, ", \"%s\": ", name);
    json_number(f, value);
}

/* A check's outcome (1 equal, -1 not, 0 not checked) as JSON. */
static const char *json_verified(int verified) { return verified > 0 ? "true" : verified < 0 ? "false" : "null"; }

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
    fputs(",\n  \"tuning\": {\"table\": ", f);
    json_string(f, env->tuning_table);
    fputs(", \"profile\": ", f);
    if (env->tuning_profile[0])
        json_string(f, env->tuning_profile);
    else
        fputs("null", f);
    if (env->versus_path) {
        fputs(", \"versus\": ", f);
        json_string(f, env->versus_path);
    }
    fputs("}", f);
    char thp[16], hugetlb[16];
    fputs(",\n  \"pages\": {\"transparent_huge_pages\": ", f);
    json_string(f, page_facts_thp_mode(thp, sizeof thp));
    fputs(", \"glibc_malloc_hugetlb\": ", f);
    json_string(f, page_facts_glibc_hugetlb(hugetlb, sizeof hugetlb));
    fputs("}", f);
    fprintf(f, ",\n  \"evict\": \"%s\"", env->host_evict_src ? "host" : "device");
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
        /* per-case facts of the run: its scale and the kernel variant it ran */
        fprintf(f, ", \"available\": true, \"scale\": %lld, \"variant\": ", (long long)r->scale);
        json_string(f, r->variant ? r->variant : "");
        fprintf(f, ", \"bytes\": %" PRIu64 ", \"median_s\": ", r->bytes);
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
        json_field(f, "speedup_vs_cpu_ref", r->speedup);
        fprintf(f, ", \"timing\": \"%s\"", r->timing);
        json_field(f, "kernel_median_s", r->kernel_median);
        json_field(f, "kernel_min_s", r->kernel_min);
        json_field(f, "wall_median_s", r->wall_median);
        json_field(f, "wall_min_s", r->wall_min);
        json_field(f, "cpu_ref_median_s", r->ref_median);
        if (r->huge_page_bytes >= 0) fprintf(f, ", \"huge_page_bytes\": %lld", r->huge_page_bytes);
        if (env->versus_tuning) {
            fputs(", \"versus\": {\"variant\": ", f);
            json_string(f, r->versus_variant ? r->versus_variant : "");
            json_field(f, "median_s", r->versus_median);
            json_field(f, "kernel_median_s", r->versus_kernel_median);
            json_field(f, "wall_median_s", r->versus_wall_median);
            json_field(f, "ratio_median", r->versus_ratio_median);
            json_field(f, "ratio_min", r->versus_ratio_min);
            json_field(f, "ratio_max", r->versus_ratio_max);
            fprintf(f, ", \"verified\": %s}", json_verified(r->versus_verified));
        }
        fprintf(f, ", \"repeats\": %d, \"verified\": %s, \"index_fnv1a\": \"%016" PRIx64 "\"}", r->repeats,
                json_verified(r->verified), r->index_fnv);
    }
    fputs("\n  ]\n}\n", f);
    if (fclose(f) != 0) DIE("cannot write %s", path);
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: clgather-bench [--device SPEC] [--case NAME]... [--repeat N] [--json FILE] [--scale auto|N]\n"
            "                      [--ref-repeat N] [--no-verify] [--mapping auto|runs|adjacent] [--offsets64]\n"
            "                      [--stream auto|on|off] [--kernel NAME] [--block-size N] [--no-first-call]\n"
            "                      [--cases FILE] [--versus PROFILE] [--evict device|host] [--list [--json]]\n"
            "--mapping, --stream: the tuning's mapping, and its streaming-store thresholds at none or all\n"
            "--kernel NAME: force kernel variant NAME on its operations, on its mapping; cases of those operations\n"
            "    it does not apply to are reported as such, cases of other operations run as usual\n"
            "--scale N: every case's scaled dimensions (bench/cases.txt) times N; auto: each case moves about\n"
            "    1 GiB on a GPU, 4x the last-level cache on a CPU, as its buffers fit; default 1 (the table's sizes)\n"
            "--block-size N: the ONNX Runtime dequantizing cases (layout ort-u4, ort-u8) with blocks of N values\n"
            "--cases FILE: read the cases from FILE instead of the built-in bench/cases.txt\n"
            "--versus PROFILE: pair each timed run with one under the tuning with PROFILE's `name = value` lines\n"
            "    applied, order alternating; reports the median of the pairs' ratios (other / base)\n"
            "--evict host: evict the caches before each timed run by a copy on the host thread (CPU devices),\n"
            "    as bench/peers.py does for its peers, instead of by a copy on the device; /adj is then against it\n"
            "--list: the case names, one a line; with --json, the whole table as JSON\n"
            "cases:");
    for (size_t i = 0; i < NUM_CASES; ++i) fprintf(f, " %s", CASES[i].name);
    fprintf(f, "\nkernel variants:");
    const char *family, *previous = NULL, *name;
    for (size_t i = 0; (name = clg_testing_variant_name(i, &family)) != NULL; previous = family, ++i)
        fprintf(f, "%s %s", previous && !strcmp(previous, family) ? "," : previous ? ";" : "", name);
    fprintf(f, "\n");
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
    fputs("[", f);
    for (size_t i = 0; i < NUM_CASES; ++i) {
        const case_spec *c = &CASES[i];
        fprintf(f, "%s\n  {\"name\": \"%s\", \"op\": \"%s\"", i ? "," : "", c->name, case_op_name(c->kind));
        if (case_preset_name(c)) fprintf(f, ", \"preset\": \"%s\"", case_preset_name(c));
        if (case_layout_name(c)) fprintf(f, ", \"layout\": \"%s\"", case_layout_name(c));
        if (c->kind == KIND_BAG)
            fprintf(f, ", \"form\": \"%s\", \"mode\": \"%s\"", c->bag_form == CLG_BAG_PACKED ? "packed" : "offsets",
                    clg_bag_mode_name(c->bag_mode));
        if (c->kind == KIND_BAG && c->bag_tables > 1) fprintf(f, ", \"tables\": %d", c->bag_tables);
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
    int repeat = 15, ref_repeat = 3, verify = 1, offsets64 = 0, first_call = 1;
    const char *mapping = NULL, *stream = NULL, *forced_variant = NULL; /* NULL: the tuning's, the launchers' */
    const char *versus_path = NULL;
    int evict_on_host = 0;
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
        CASES = case_table_parse(case_table_builtin, "bench/cases.txt (built in)", "clgather-bench", &NUM_CASES);
    static int *selected; /* static, as CASES is: the early exits (--list, --help) leave it reachable */
    selected = calloc(NUM_CASES, sizeof *selected);
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
            /* thresholds every output passes, or none below 4 GiB does */
            stream = !strcmp(v, "on")    ? "stream_min_bytes = 0\nstream_min_row_bytes = 0\nstream_min_unit_bytes = 0"
                     : !strcmp(v, "off") ? "stream_min_bytes = 4294967295"
                                         : NULL;
            if (!stream && strcmp(v, "auto")) DIE("--stream wants auto, on or off");
            ++i;
        } else if (!strcmp(a, "--versus")) {
            versus_path = v, ++i;
        } else if (!strcmp(a, "--evict")) {
            if (strcmp(v, "device") && strcmp(v, "host")) DIE("--evict wants device or host");
            evict_on_host = !strcmp(v, "host"), ++i;
        } else if (!strcmp(a, "--kernel")) {
            forced_variant = v, ++i; /* checked once the context exists */
        } else if (!strcmp(a, "--block-size")) {
            quant_block_size = parse_int(v, a), ++i; /* the library refuses a size its layout does not allow */
        } else if (!strcmp(a, "--mapping")) {
            mapping = !strcmp(v, "runs") ? "mapping = runs" : !strcmp(v, "adjacent") ? "mapping = adjacent" : NULL;
            if (!mapping && strcmp(v, "auto")) DIE("--mapping wants auto, runs or adjacent");
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
    read_tuning_origin(&env); /* before the options below change the tuning, which makes it the caller's */
    if (mapping) check_clg(clg_context_set_tuning(env.ctx, mapping), "--mapping");
    if (stream) check_clg(clg_context_set_tuning(env.ctx, stream), "--stream");
    if (offsets64) clg_testing_force_offsets64(env.ctx, 1);
    if (forced_variant) check_clg(clg_testing_force_variant(env.ctx, forced_variant), "--kernel");
    if (versus_path) set_up_versus(&env, versus_path);
    env.cl_ctx = clg_context_cl_context(env.ctx);
    env.device = clg_context_cl_device(env.ctx);
    env.max_alloc = (size_t)info.max_alloc_bytes;
    env.global_mem = info.global_mem_bytes;
    cl_int err;
    env.queue = clCreateCommandQueue(env.cl_ctx, env.device, CL_QUEUE_PROFILING_ENABLE, &err);
    check_cl(err, "clCreateCommandQueue");
    const char *sources[] = {case_copy_kernel_source, EMPTY_KERNEL};
    env.program = clCreateProgramWithSource(env.cl_ctx, 2, sources, NULL, &err);
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
    if (!evict_on_host) {
        env.flush_src = make_buffer(&env, env.flush_bytes, NULL);
        env.flush_dst = make_buffer(&env, env.flush_bytes, NULL);
        unsigned char pattern = 1;
        check_cl(clEnqueueFillBuffer(env.queue, env.flush_src, &pattern, 1, 0, env.flush_bytes, 0, NULL, NULL), "fill");
    } else {
        env.host_evict_src = malloc(env.flush_bytes);
        env.host_evict_dst = malloc(env.flush_bytes);
        if (!env.host_evict_src || !env.host_evict_dst) DIE("out of host memory for --evict host");
        memset(env.host_evict_src, 1, env.flush_bytes);
        memset(env.host_evict_dst, 0, env.flush_bytes); /* every page in place before the first timed copy */
    }
    check_cl(clFinish(env.queue), "clFinish");

    cl_uint compute_units = 0;
    clGetDeviceInfo(env.device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof compute_units, &compute_units, NULL);
    printf("clgather-bench %s\n", clg_version());
    printf("device:  %s / %s (%u compute units)\n", info.platform_name, info.device_name, (unsigned)compute_units);
    printf("driver:  %s (%s)\n", info.driver_version, info.platform_version);
    printf("tuning:  table row %s; %s%s\n", env.tuning_table, env.tuning_profile[0] ? "profile " : "no profile",
           env.tuning_profile);
    printf("repeat:  %d timed runs per case after 2 warm-up runs (tiny: %d); CPU reference: %d runs\n", repeat,
           repeat * 20 > 200 ? repeat * 20 : 200, ref_repeat);
    if (versus_path)
        printf("versus:  each timed run paired with one under %s applied over that tuning, order alternating\n",
               versus_path);
    if (scale_request)
        printf("scale:   %lld (each case's scaled dimensions times %lld)\n", (long long)scale_request,
               (long long)scale_request);
    else
        printf("scale:   auto (each case moves about %.0f MiB where its buffers fit)\n",
               (double)auto_scale_target(&env) / (double)MIB);
    char thp[16], hugetlb[16];
    printf("pages:   transparent huge pages %s; glibc.malloc.hugetlb %s (--json: the bytes in huge pages "
           "during each case)\n",
           page_facts_thp_mode(thp, sizeof thp), page_facts_glibc_hugetlb(hugetlb, sizeof hugetlb));
    printf("evict:   a %.0f MiB copy before each timed run, %s\n", (double)env.flush_bytes / (double)MIB,
           evict_on_host ? "on the host thread (--evict host; /adj is against it)" : "on the device");
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
        const case_spec scaled = case_scaled(&CASES[c], scale_factor_of(&env, &CASES[c], scale_request));
        const case_spec *cs = &scaled;
        case_result *r = &results[count++];
        memset(r, 0, sizeof *r);
        r->name = CASES[c].name;
        r->scale = cs->scale;
        clg_testing_forget_variant(env.ctx);
        run_case(&env, cs, repeat, ref_repeat, verify, r);
        if (r->available && forced_variant && strcmp(r->variant, forced_variant) &&
            !strcmp(variant_family(r->variant), variant_family(forced_variant))) {
            snprintf(r->note_text, sizeof r->note_text, "--kernel %s does not apply to this case (it ran %s)",
                     forced_variant, r->variant);
            r->available = 0;
            r->note = r->note_text;
        }
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
        else if (quant_block_size && cs->layout != LAYOUT_GGML && cs->kind == KIND_QUANT)
            snprintf(note, sizeof note, "blocks of %lld values (--block-size)", (long long)quant_block_size);
        if (cs->scale > 1) {
            const size_t used = strlen(note);
            snprintf(note + used, sizeof note - used, "%sscale %lld", used ? "; " : "", (long long)cs->scale);
        }
        char adjacent[16] = "-";
        if (r->ratio_to_adjacent_copy > 0) snprintf(adjacent, sizeof adjacent, "%.3f", r->ratio_to_adjacent_copy);
        printf("%-18s %9.2f %9.3fms %9.3fms %9.3fms %9.3fms %8.2f %7.3f %7s %8.2fx %7s %s\n", r->name,
               (double)r->bytes / 1e6, r->kernel_median * 1e3, r->kernel_min * 1e3, r->wall_median * 1e3,
               r->ref_median * 1e3, r->gbps, r->ratio_to_copy, adjacent, r->speedup, verified_word(r->verified), note);
        if (versus_path)
            printf("%-18s %9s %9.3fms %11s %9.3fms   versus: pairs' median %.3f (%.2f-%.2f) %s\n", "", "",
                   r->versus_kernel_median * 1e3, "", r->versus_wall_median * 1e3, r->versus_ratio_median,
                   r->versus_ratio_min, r->versus_ratio_max, verified_word(r->versus_verified));
        fflush(stdout);
    }

    /* figures that compare two cases */
    const case_result *emb = NULL, *chk = NULL;
    int mismatches = 0;
    for (size_t i = 0; i < count; ++i) {
        if (results[i].available && !strcmp(results[i].name, "embedding-f32")) emb = &results[i];
        if (results[i].available && !strcmp(results[i].name, "onnx-checked")) chk = &results[i];
        mismatches += results[i].verified < 0 || results[i].versus_verified < 0;
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

    if (env.flush_src) clReleaseMemObject(env.flush_src);
    if (env.flush_dst) clReleaseMemObject(env.flush_dst);
    free(env.host_evict_src);
    free(env.host_evict_dst);
    clReleaseKernel(env.copy16);
    clReleaseKernel(env.empty);
    clReleaseProgram(env.program);
    clReleaseCommandQueue(env.queue);
    clg_context_release(env.ctx);
    free(env.base_tuning);
    free(env.versus_tuning);
    free(results);
    free(selected);
    free(CASES);
    if (mismatches) {
        fprintf(stderr, "clgather-bench: %d case(s) differ from the CPU reference\n", mismatches);
        return 2;
    }
    return 0;
}
