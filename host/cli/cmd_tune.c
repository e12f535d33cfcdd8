/* clgather tune: measure the tunables on the device at hand, on the benchmark's cases, and store what
 * is fastest as the device's profile (clg_context_store_tuning), which later contexts on the device use.
 *
 * It starts from the tuning table's values (stored profiles ignored) and walks the tunables of the
 * device's mapping one at a time: each candidate value is set on the context, the cases it affects
 * run, and the candidate is kept where their time drops by more than the noise margin. Every
 * candidate's output is checked against the CPU reference once, so a tuning that changed results
 * would stop the tuner. Times are profiled kernel times (wall times for the cases the table marks
 * so). The candidates are compared run by run, their order rotating, and each is judged by the median
 * of its runs' ratios to the value in force's runs beside them: a shared machine's slow minute then
 * slows both sides of a ratio alike, where medians taken a round apart can differ by a third. */
#define _POSIX_C_SOURCE 200809L /* setenv, clock_gettime */
#include "case_table.h"
#include "cli_args.h"
#include "cli_error.h"
#include "commands.h"
#include "file_io.h"
#include "run_timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A candidate is kept only if it is this much faster than the value in force: machines are noisy. */
#define KEEP_MARGIN 0.03

typedef struct tunable_plan {
    const char *name;
    int adjacent;         /* the mapping it matters for: 0 runs, 1 adjacent */
    unsigned kinds;       /* the classes of case it affects (case_class) */
    const char *quick[4]; /* candidates under --quick (NULL-terminated) */
    const char *full[7];  /* candidates otherwise; pairs "first,second" for a joint plan (joint_of) */
} tunable_plan;

#define ROWS     ((1u << KIND_GATHER) | (1u << KIND_ND))
#define ELEMENTS (1u << KIND_ELEMENTS)
#define QUANT    (1u << KIND_QUANT)
#define TREE     (1u << KIND_TREE)
#define BAG      (1u << KIND_BAG)
#define QBAG     (1u << (KIND_BAG + 1))
_Static_assert(KIND_BAG + 1 < 32 && (QBAG & (ROWS | ELEMENTS | TREE | QUANT | BAG)) == 0,
               "the quantized bags' class bit is no case kind's");

/* A case's class, as the tunables' masks name them: its kind, with EmbeddingBag over a quantized table
 * apart from the float one, since each has tunables the other's kernels never read; timing a case a
 * tunable cannot change only adds its noise to the candidates' mean. */
static unsigned case_class(const case_spec *s)
{
    return s->kind == KIND_BAG && s->bag_layout != CLG_QUANT_LAYOUT_INVALID ? QBAG : 1u << s->kind;
}

static const tunable_plan plans[] = {
    /* first: how far a prefetched line travels changes how far ahead each kernel's prefetches pay */
    {"prefetch_locality", 0, ROWS | ELEMENTS | QUANT, {"2", "3"}, {"0", "1", "2", "3"}},
    {"run_bytes", 0, ROWS | ELEMENTS, {"1024", "4096", "16384"}, {"1024", "2048", "4096", "8192", "16384", "65536"}},
    {"runs_local_size",
     0,
     ROWS | ELEMENTS | QUANT | BAG | QBAG,
     {"16", "64", "256"},
     {"8", "16", "32", "64", "128", "256"}},
    {"runs_groups_per_cu", 0, ROWS | ELEMENTS | QUANT | QBAG, {"1", "4", "16"}, {"1", "2", "4", "8", "16", "64"}},
    {"dequant_run_bytes", 0, QUANT, {"2048", "8192", "32768"}, {"2048", "4096", "8192", "16384", "32768"}},
    {"dequant_prefetch_bytes", 0, QUANT, {"1024", "4096", "16384"}, {"0", "1024", "2048", "4096", "8192", "16384"}},
    {"rows_prefetch_ahead_bytes", 0, ROWS, {"1024", "4096", "16384"}, {"1024", "2048", "4096", "8192", "16384"}},
    {"tree_local_size", 0, TREE, {"16", "64", "256"}, {"8", "16", "32", "64", "128", "256"}},
    {"bag_prefetch_locality", 0, BAG | QBAG, {"2", "3"}, {"0", "1", "2", "3"}},
    {"bag_prefetch_ahead", 0, BAG, {"0", "1", "2"}, {"0", "1", "2", "4", "8", "16"}},
    {"bag_prefetch_rows", 0, BAG, {"0", "16", "32"}, {"0", "4", "8", "16", "32", "64"}},
    {"bag_sum_columns", 0, BAG, {"32", "64", "128"}, {"32", "64", "96", "128"}},
    {"bag_quantized_lanes",
     0,
     QBAG,
     {"8,64", "16,64", "16,128"},
     {"8,32", "8,64", "8,128", "16,64", "16,128", "16,256"}},
    {"bag_quantized_prefetch_rows",
     0,
     QBAG,
     {"16,2", "32,0", "0,2"},
     {"16,2", "16,0", "24,0", "32,0", "48,0", "32,1", "0,2"}},
    {"bag_quantized_prefetch_current", 0, QBAG, {"0", "1"}, {"0", "1"}},
    {"adjacent_local_size",
     1,
     ROWS | ELEMENTS | QUANT | BAG | QBAG,
     {"64", "256", "512"},
     {"32", "64", "128", "256", "512", "1024"}},
    {"grid_groups_per_cu",
     1,
     ROWS | ELEMENTS | QUANT | BAG | QBAG,
     {"8", "64", "256"},
     {"4", "8", "16", "32", "64", "128", "256"}},
    {"dequant_piece_values", 1, QUANT, {"8", "16", "32"}, {"8", "16", "32", "64"}},
    {"dequant_super_piece_values", 1, QUANT, {"8", "16", "32"}, {"8", "16", "32", "64"}},
    {"bag_quantized_piece_values", 1, QBAG, {"8", "16", "32"}, {"8", "16", "32", "64"}},
    {"stage_groups_per_cu", 1, ROWS | ELEMENTS, {"2", "8", "32"}, {"2", "4", "8", "16", "32"}},
    {"tree_local_size", 1, TREE, {"32", "64", "256"}, {"16", "32", "64", "128", "256"}},
};

/* Tunables walked in pairs, where the best value of each depends on the other's: the plan of the first
 * lists candidate pairs "first,second". */
static const char *const joint_tunables[][2] = {
    /* rows prefetched far ahead by index pay only without whole bags prefetched ahead as well */
    {"bag_quantized_prefetch_rows", "bag_quantized_prefetch_ahead"},
    /* 16 lanes take pieces of whole 16-value groups, and a row in fewer pieces reads its index fewer times */
    {"bag_quantized_lanes", "bag_quantized_piece_values"},
};

/* The tunable walked together with the plan's, or NULL. */
static const char *joint_of(const tunable_plan *plan)
{
    for (size_t i = 0; i < sizeof joint_tunables / sizeof joint_tunables[0]; ++i)
        if (!strcmp(joint_tunables[i][0], plan->name)) return joint_tunables[i][1];
    return NULL;
}

/* The cases tuned on: every case of the table (or of --cases FILE) but those that time the call rather
 * than a kernel (tiny) or repeat another case with a check in front (onnx-checked); --quick, without
 * --cases, one case a kind. */
static const char *const quick_cases[] = {"embedding-f32", "last-axis", "gather-elements-rows", "gather-tree",
                                          "embedding-q4"};

typedef struct tune_case {
    const case_spec *spec;
    case_inputs in;
    cl_mem buffers[CASE_MAX_INPUTS + 1];
    void *expect;
    double moved;            /* bytes, for the ratio to copy */
    double table_s, tuned_s; /* medians under the table's and the tuned values */
    double tuned_ratio;      /* the median of the paired ratios, tuned over table */
} tune_case;

typedef struct tuner {
    clg_context *ctx;
    cl_context cl;
    cl_command_queue queue; /* profiling on */
    int repeat;             /* the copy measurement's runs */
    int steps;              /* each comparison's runs of a case under each setting (compare_settings) */
    double copy_gbps;
    tune_case *cases;
    size_t count;
} tuner;

/* The device's copy bandwidth with clgather-bench's copy kernel (16 bytes a work-item, read plus
 * write, the best median of a few work-group sizes), over 128 MiB (less where allocations are smaller):
 * half the bench's size, since the tuner compares settings with each other, not with the copy. */
static int measure_copy(tuner *t, cl_device_id device, uint64_t max_alloc)
{
    size_t bytes = (size_t)128 << 20;
    if (bytes > max_alloc) bytes = (size_t)(max_alloc / 16 * 16);
    cl_int err;
    const char *source = case_copy_kernel_source;
    cl_program program = clCreateProgramWithSource(t->cl, 1, &source, NULL, &err);
    if (err == CL_SUCCESS) err = clBuildProgram(program, 1, &device, "", NULL, NULL);
    cl_kernel copy = err == CL_SUCCESS ? clCreateKernel(program, "copy16", &err) : NULL;
    cl_mem src = err == CL_SUCCESS ? clCreateBuffer(t->cl, CL_MEM_READ_WRITE, bytes, NULL, &err) : NULL;
    cl_mem dst = err == CL_SUCCESS ? clCreateBuffer(t->cl, CL_MEM_READ_WRITE, bytes, NULL, &err) : NULL;
    const unsigned char pattern = 0x5a;
    if (err == CL_SUCCESS) err = clEnqueueFillBuffer(t->queue, src, &pattern, 1, 0, bytes, 0, NULL, NULL);
    if (err == CL_SUCCESS) err = clSetKernelArg(copy, 0, sizeof src, &src);
    if (err == CL_SUCCESS) err = clSetKernelArg(copy, 1, sizeof dst, &dst);
    static const size_t locals[] = {64, 256, 1024};
    double best = 0;
    for (size_t l = 0; err == CL_SUCCESS && l < sizeof locals / sizeof locals[0]; ++l) {
        double times[32];
        const size_t global = bytes / 16;
        for (int r = -1; err == CL_SUCCESS && r < t->repeat; ++r) {
            cl_event ev;
            const double t0 = now_s();
            err = clEnqueueNDRangeKernel(t->queue, copy, 1, NULL, &global, &locals[l], 0, NULL, &ev);
            if (err == CL_INVALID_WORK_GROUP_SIZE) break; /* a size the device does not take */
            if (err != CL_SUCCESS) break;
            clWaitForEvents(1, &ev);
            double s = event_seconds(ev);
            if (!(s > 0)) s = now_s() - t0;
            clReleaseEvent(ev);
            if (r >= 0) times[r] = s;
        }
        if (err == CL_INVALID_WORK_GROUP_SIZE) {
            err = CL_SUCCESS;
            continue;
        }
        const double gbps = err == CL_SUCCESS ? 2.0 * (double)bytes / median_of(times, t->repeat) / 1e9 : 0;
        if (gbps > best) best = gbps;
    }
    if (src) clReleaseMemObject(src);
    if (dst) clReleaseMemObject(dst);
    if (copy) clReleaseKernel(copy);
    if (program) clReleaseProgram(program);
    if (err != CL_SUCCESS || !(best > 0))
        return cli_fail(CLI_EXIT_REFUSED, "tune: the copy measurement failed (%d)", err);
    t->copy_gbps = best;
    return 0;
}

/* One run of a case: its kernel seconds (wall for wall cases), or NAN with the failure recorded. */
static double run_once(tuner *t, tune_case *c)
{
    cl_event ev = NULL;
    const double t0 = now_s();
    const clg_status st = case_enqueue(t->ctx, &c->in, t->queue, c->buffers, &ev);
    if (st != CLG_SUCCESS) {
        cli_fail_status(st, "tune: case %s", c->spec->name);
        return NAN;
    }
    clWaitForEvents(1, &ev);
    const double wall = now_s() - t0;
    double s = c->spec->primary == PRIMARY_WALL ? wall : event_seconds(ev);
    clReleaseEvent(ev);
    return s > 0 ? s : wall;
}

/* A case under the context's current tuning: one run into an output filled with poison (so an element
 * the run leaves unwritten cannot match) that builds and is checked bit for bit against the CPU
 * reference. 0, or the failure's exit status (recorded). */
static int check_case(tuner *t, tune_case *c)
{
    const unsigned char poison = 0xA5;
    const cl_int filled = clEnqueueFillBuffer(t->queue, c->buffers[c->in.count], &poison, 1, 0,
                                              (size_t)(c->in.out_bytes ? c->in.out_bytes : 1), 0, NULL, NULL);
    if (filled != CL_SUCCESS)
        return cli_fail(CLI_EXIT_REFUSED, "tune: case %s: clEnqueueFillBuffer failed (%d)", c->spec->name, filled);
    if (!(run_once(t, c) >= 0)) return CLI_EXIT_REFUSED;
    void *got = malloc((size_t)c->in.out_bytes);
    cl_int err = got ? clEnqueueReadBuffer(t->queue, c->buffers[c->in.count], CL_TRUE, 0, (size_t)c->in.out_bytes, got,
                                           0, NULL, NULL)
                     : CL_OUT_OF_HOST_MEMORY;
    const int same = err == CL_SUCCESS && memcmp(got, c->expect, (size_t)c->in.out_bytes) == 0;
    free(got);
    if (!same) {
        char tuning[4096] = "";
        clg_context_tuning(t->ctx, tuning, sizeof tuning, NULL);
        return cli_fail(CLI_EXIT_REFUSED, "tune: case %s no longer matches the CPU reference under this tuning:\n%s",
                        c->spec->name, tuning);
    }
    return 0;
}

/* The value of a tunable in the context's tuning text. */
static void current_value(const clg_context *ctx, const char *name, char *value, size_t size)
{
    char text[8192] = "", key[80];
    clg_context_tuning(ctx, text, sizeof text, NULL);
    snprintf(key, sizeof key, "\n%s = ", name);
    const char *p = strstr(text, key);
    value[0] = '\0';
    if (p) snprintf(value, size, "%.*s", (int)strcspn(p + strlen(key), "\n"), p + strlen(key));
}

static int prepare_case(tuner *t, tune_case *c)
{
    clg_status st = case_inputs_make(c->spec, 0, &c->in);
    if (st != CLG_SUCCESS) return cli_fail_status(st, "tune: case %s", c->spec->name);
    c->expect = malloc((size_t)c->in.out_bytes);
    if (!c->expect) return cli_fail(CLI_EXIT_REFUSED, "tune: out of host memory for case %s", c->spec->name);
    st = case_reference(&c->in, c->expect);
    if (st != CLG_SUCCESS) return cli_fail_status(st, "tune: the CPU reference of case %s", c->spec->name);
    case_footprint f;
    case_footprint_of(c->spec, 0, &f);
    c->moved = (double)f.moved;
    cl_int err = CL_SUCCESS;
    for (int i = 0; i <= c->in.count && err == CL_SUCCESS; ++i) {
        const uint64_t bytes = i < c->in.count ? c->in.bytes[i] : c->in.out_bytes;
        if (i < c->in.count && !c->in.host[i]) continue;
        c->buffers[i] = clCreateBuffer(t->cl, CL_MEM_READ_WRITE | (i < c->in.count ? CL_MEM_COPY_HOST_PTR : 0),
                                       (size_t)(bytes ? bytes : 1), i < c->in.count ? c->in.host[i] : NULL, &err);
    }
    if (err != CL_SUCCESS)
        return cli_fail(CLI_EXIT_REFUSED, "tune: cannot allocate the buffers of case %s (%d)", c->spec->name, err);
    return 0;
}

static void release_case(tune_case *c)
{
    for (int i = 0; i <= CASE_MAX_INPUTS; ++i)
        if (c->buffers[i]) clReleaseMemObject(c->buffers[i]);
    case_inputs_free(&c->in);
    free(c->expect);
}

static int is_quick_case(const char *name)
{
    for (size_t i = 0; i < sizeof quick_cases / sizeof quick_cases[0]; ++i)
        if (!strcmp(name, quick_cases[i])) return 1;
    return 0;
}

#define MAX_SETTINGS 8

/* What compare_settings finds for each case (rows) under each setting (columns). */
typedef struct setting_times {
    double ratio[MAX_SETTINGS];   /* the median of the setting's runs over setting 0's beside them */
    double seconds[MAX_SETTINGS]; /* the median of its runs */
} setting_times;

/* Settings of one tunable (or whole tunings) compared run by run. Each setting's first run of each
 * case the tunable affects builds its programs and is checked (check_case); then `steps` times, every
 * setting in turn, the order rotating step by step, runs each of those cases once (so a case's runs are
 * not back to back, as clgather-bench's are). Leaves the context under whichever setting ran last.
 * Returns 0 or the failure's exit status. */
static int compare_settings(tuner *t, unsigned kinds, const char *const *settings, int count, int steps,
                            setting_times *out)
{
    double *times = malloc(sizeof(double) * t->count * (size_t)count * (size_t)steps);
    double *ratios = malloc(sizeof(double) * (size_t)steps);
    int rc = times && ratios ? 0 : cli_fail(CLI_EXIT_REFUSED, "tune: out of host memory");
#define TIME_AT(i, k, s) times[((i) * (size_t)count + (size_t)(k)) * (size_t)steps + (size_t)(s)]
    for (int k = 0; k < count && rc == 0; ++k) {
        const clg_status st = clg_context_set_tuning(t->ctx, settings[k]);
        if (st != CLG_SUCCESS) rc = cli_fail_status(st, "tune: cannot set \"%s\"", settings[k]);
        for (size_t i = 0; i < t->count && rc == 0; ++i)
            if (kinds & case_class(t->cases[i].spec)) rc = check_case(t, &t->cases[i]);
    }
    for (int s = 0; s < steps && rc == 0; ++s)
        for (int turn = 0; turn < count && rc == 0; ++turn) {
            const int k = (s + turn) % count;
            const clg_status st = clg_context_set_tuning(t->ctx, settings[k]);
            if (st != CLG_SUCCESS) rc = cli_fail_status(st, "tune: cannot set \"%s\"", settings[k]);
            for (size_t i = 0; i < t->count && rc == 0; ++i)
                if ((kinds & case_class(t->cases[i].spec)) && !((TIME_AT(i, k, s) = run_once(t, &t->cases[i])) >= 0))
                    rc = CLI_EXIT_REFUSED;
        }
    for (size_t i = 0; i < t->count && rc == 0; ++i) {
        if (!(kinds & case_class(t->cases[i].spec))) continue;
        for (int k = 0; k < count; ++k) {
            for (int s = 0; s < steps; ++s) ratios[s] = TIME_AT(i, k, s) / TIME_AT(i, 0, s);
            out[i].ratio[k] = median_of(ratios, steps);
        }
        for (int k = 0; k < count; ++k) out[i].seconds[k] = median_of(&TIME_AT(i, k, 0), steps); /* sorts them */
    }
#undef TIME_AT
    free(times);
    free(ratios);
    return rc;
}

/* The mean over the cases a tunable affects of setting k's time relative to the first setting's (each
 * case's median of its paired ratios), so that a long case does not outvote the others. */
static double relative_time(const tuner *t, unsigned kinds, const setting_times *times, int k)
{
    double sum = 0;
    int n = 0;
    for (size_t i = 0; i < t->count; ++i)
        if (kinds & case_class(t->cases[i].spec)) sum += times[i].ratio[k], ++n;
    return n ? sum / n : 1.0;
}

/* A candidate's lines for clg_context_set_tuning: "name = value", and for a joint plan's pair "x,y" a
 * second line for the joint tunable. */
static void candidate_lines(const tunable_plan *plan, const char *value, char *lines, size_t size)
{
    const char *joint = joint_of(plan);
    if (!joint) {
        snprintf(lines, size, "%.63s = %.31s\n", plan->name, value);
        return;
    }
    const int first = (int)strcspn(value, ",");
    snprintf(lines, size, "%.63s = %.*s\n%.63s = %.31s\n", plan->name, first, value, joint,
             value[first] ? value + first + 1 : "");
}

/* The value in force: for a joint plan, the pair "x,y". */
static void value_in_force(const tuner *t, const tunable_plan *plan, char *value, size_t size)
{
    current_value(t->ctx, plan->name, value, size);
    const char *joint = joint_of(plan);
    if (!joint) return;
    char second[32];
    current_value(t->ctx, joint, second, sizeof second);
    const size_t used = strlen(value);
    snprintf(value + used, size - used, ",%s", second);
}

/* The choice's row: the tunable, the table's value and the chosen one, then the candidates' times; a
 * joint plan's second tunable gets a row of its own, so that each row names one tunable's values. */
static void print_choice(const tunable_plan *plan, const char *table, const char *chosen, const char *trail)
{
    const char *joint = joint_of(plan);
    if (!joint) {
        printf("%-30s %10s %10s  %s\n", plan->name, table, chosen, trail);
    } else {
        const int table_first = (int)strcspn(table, ","), chosen_first = (int)strcspn(chosen, ",");
        printf("%-30s %10.*s %10.*s  %s (pairs: this,%s)\n", plan->name, table_first, table, chosen_first, chosen,
               trail, joint);
        printf("%-30s %10s %10s  (walked with %s)\n", joint, table + table_first + (table[table_first] != 0),
               chosen + chosen_first + (chosen[chosen_first] != 0), plan->name);
    }
    fflush(stdout);
}

/* Walk the tunables of the mapping: each candidate against the value in force, kept where the cases it
 * affects run faster by more than KEEP_MARGIN on average. Prints each choice. */
static int walk_tunables(tuner *t, int adjacent, int quick)
{
    printf("%-30s %10s %10s  %s\n", "tunable", "table", "chosen", "time relative to the table's value, each candidate");
    setting_times *times = calloc(t->count, sizeof *times);
    int rc = times ? 0 : cli_fail(CLI_EXIT_REFUSED, "tune: out of host memory");
    for (size_t p = 0; rc == 0 && p < sizeof plans / sizeof plans[0]; ++p) {
        const tunable_plan *plan = &plans[p];
        if (plan->adjacent != adjacent) continue;
        int affected = 0;
        for (size_t i = 0; i < t->count; ++i) affected |= (plan->kinds & case_class(t->cases[i].spec)) != 0;
        if (!affected) continue;
        if (strstr(plan->name, "prefetch_locality")) { /* the prefetch builtin's only */
            char builtin[32];
            current_value(t->ctx, "prefetch", builtin, sizeof builtin);
            if (strcmp(builtin, "1")) continue;
        }
        char values[MAX_SETTINGS][64], lines[MAX_SETTINGS][224];
        const char *settings[MAX_SETTINGS];
        value_in_force(t, plan, values[0], sizeof values[0]);
        int count = 1;
        const char *const *candidates = quick ? plan->quick : plan->full;
        for (int k = 0; k < 7 && candidates[k] && count < MAX_SETTINGS; ++k)
            if (strcmp(candidates[k], values[0])) snprintf(values[count++], sizeof values[0], "%s", candidates[k]);
        for (int k = 0; k < count; ++k) {
            candidate_lines(plan, values[k], lines[k], sizeof lines[k]);
            settings[k] = lines[k];
        }
        rc = compare_settings(t, plan->kinds, settings, count, t->steps, times);
        if (rc != 0) break;
        int chosen = 0;
        double chosen_rel = 1.0;
        char trail[512];
        int used = snprintf(trail, sizeof trail, "%s: 1", values[0]);
        for (int k = 1; k < count; ++k) {
            const double rel = relative_time(t, plan->kinds, times, k);
            if (used > 0 && (size_t)used < sizeof trail)
                used += snprintf(trail + used, sizeof trail - (size_t)used, ", %s: %.3f", values[k], rel);
            if (rel < chosen_rel * (1.0 - KEEP_MARGIN)) chosen = k, chosen_rel = rel;
        }
        const clg_status st = clg_context_set_tuning(t->ctx, settings[chosen]);
        if (st != CLG_SUCCESS) rc = cli_fail_status(st, "tune: cannot set %s", settings[chosen]);
        print_choice(plan, values[0], values[chosen], trail);
    }
    free(times);
    return rc;
}

/* Every case under the table's tuning and under the tuned one, run by run: their medians into table_s
 * and tuned_s, the median of their paired ratios into tuned_ratio. */
static int compare_table_and_tuned(tuner *t, const char *table, const char *tuned)
{
    setting_times *times = calloc(t->count, sizeof *times);
    if (!times) return cli_fail(CLI_EXIT_REFUSED, "tune: out of host memory");
    const char *settings[2] = {table, tuned};
    const int rc = compare_settings(t, ~0u, settings, 2, t->steps, times);
    for (size_t i = 0; rc == 0 && i < t->count; ++i) {
        t->cases[i].table_s = times[i].seconds[0];
        t->cases[i].tuned_s = times[i].seconds[1];
        t->cases[i].tuned_ratio = times[i].ratio[1];
    }
    free(times);
    return rc;
}

/* Each case under the table's and the tuned values; the gain is from the paired ratio, not from the
 * two medians. */
static void print_cases(const tuner *t)
{
    printf("\n%-22s %11s %11s %8s %8s %7s\n", "case", "table ms", "tuned ms", "/copy", "/copy", "gain");
    printf("%-22s %11s %11s %8s %8s %7s\n", "", "", "", "table", "tuned", "");
    for (size_t i = 0; i < t->count; ++i) {
        const tune_case *c = &t->cases[i];
        const double copy = t->copy_gbps * 1e9;
        printf("%-22s %11.3f %11.3f %8.3f %8.3f %6.1f%%%s\n", c->spec->name, c->table_s * 1e3, c->tuned_s * 1e3,
               c->moved / c->table_s / copy, c->moved / c->tuned_s / copy, 100.0 * (1.0 / c->tuned_ratio - 1.0),
               c->spec->primary == PRIMARY_WALL ? "  (wall)" : "");
    }
}

int cmd_tune(int argc, char **argv)
{
    cli_option options[] = {{"device", 1, NULL}, {"quick", 0, NULL}, {"dry-run", 0, NULL}, {"cases", 1, NULL}};
    int rc = cli_parse_options("tune", argc, argv, options, 4, NULL, NULL, 0);
    if (rc != 0) return rc;
    /* --cases FILE: a table of the benchmark's form, every case of it tuned on */
    unsigned char *cases_file = NULL;
    size_t cases_length = 0;
    if (options[3].value && cli_read_file("tune: --cases", options[3].value, &cases_file, &cases_length) != 0)
        return CLI_EXIT_REFUSED;
    if (cases_file && memchr(cases_file, '\0', cases_length)) {
        free(cases_file);
        return cli_fail(CLI_EXIT_REFUSED, "tune: --cases '%s' is not a text file", options[3].value);
    }
    char *cases_text = NULL;
    if (cases_file) {
        cases_text = realloc(cases_file, cases_length + 1);
        if (!cases_text) {
            free(cases_file);
            return cli_fail(CLI_EXIT_REFUSED, "tune: out of host memory");
        }
        cases_text[cases_length] = '\0';
    }
    const int quick = options[1].value != NULL, dry_run = options[2].value != NULL;
    setenv("CLGATHER_TUNING", "0", 1); /* start from the table's values, whatever profile is stored */
    tuner t;
    memset(&t, 0, sizeof t);
    t.repeat = quick ? 5 : 11;
    t.steps = (quick ? 2 : 3) * t.repeat; /* as many runs as the rounds of medians they replaced */
    if (cli_open_context(options[0].value, 0, &t.ctx) != 0) {
        free(cases_text);
        return CLI_EXIT_REFUSED;
    }
    clg_device_info info;
    clg_context_device_info(t.ctx, &info);
    char tuning[8192];
    if (clg_context_tuning(t.ctx, tuning, sizeof tuning, NULL) != CLG_SUCCESS) {
        clg_context_release(t.ctx);
        free(cases_text);
        return cli_fail(CLI_EXIT_REFUSED, "tune: device '%s' is the CPU reference, which has no tuning",
                        options[0].value ? options[0].value : "(default)");
    }
    t.cl = clg_context_cl_context(t.ctx);
    cl_device_id device = clg_context_cl_device(t.ctx);
    cl_int err;
    t.queue = clCreateCommandQueue(t.cl, device, CL_QUEUE_PROFILING_ENABLE, &err);
    if (err != CL_SUCCESS) {
        clg_context_release(t.ctx);
        free(cases_text);
        return cli_fail(CLI_EXIT_REFUSED, "tune: clCreateCommandQueue with profiling failed (%d)", err);
    }
    size_t table_count = 0;
    case_spec *table =
        cases_text ? case_table_parse(cases_text, options[3].value, "clgather tune", &table_count)
                   : case_table_parse(case_table_builtin, "bench/cases.txt (built in)", "clgather tune", &table_count);
    free(cases_text);
    t.cases = calloc(table_count, sizeof *t.cases);
    const int adjacent = strstr(tuning, "\nmapping = adjacent\n") != NULL;
    printf("clgather %s tune%s: %s (%s, driver %s)\n", clg_version(), quick ? " --quick" : "", info.device_name,
           info.platform_name, info.driver_version);
    printf("%.*s", (int)strcspn(tuning, "\n") + 1, tuning); /* "# table: ROW (measured)" */
    for (size_t i = 0; rc == 0 && t.cases && i < table_count; ++i) {
        const case_spec *s = &table[i];
        if (!strcmp(s->name, "tiny") || !strcmp(s->name, "onnx-checked") ||
            (quick && !options[3].value && !is_quick_case(s->name)))
            continue;
        t.cases[t.count].spec = s;
        rc = prepare_case(&t, &t.cases[t.count++]);
    }
    if (!t.cases) rc = cli_fail(CLI_EXIT_REFUSED, "tune: out of host memory");
    if (rc == 0 && t.count == 0)
        rc = cli_fail(CLI_EXIT_REFUSED, "tune: the case table has no case to tune on (tiny and onnx-checked are not)");
    const double started = now_s();
    if (rc == 0) rc = measure_copy(&t, device, info.max_alloc_bytes);
    if (rc == 0) {
        printf("copy:  %.2f GB/s (16 bytes a work-item, read + write, as clgather-bench); %zu cases, %d timed runs "
               "of each under each setting, the %s mapping\n\n",
               t.copy_gbps, t.count, t.steps, adjacent ? "adjacent" : "runs");
        fflush(stdout);
        rc = walk_tunables(&t, adjacent, quick);
    }
    char tuned[8192] = "";
    if (rc == 0) clg_context_tuning(t.ctx, tuned, sizeof tuned, NULL);
    if (rc == 0) rc = compare_table_and_tuned(&t, tuning, tuned);
    if (rc == 0) {
        print_cases(&t);
        /* the choices, taken one at a time, must also win together, on the cases' mean */
        double relative = 0;
        for (size_t i = 0; i < t.count; ++i) relative += t.cases[i].tuned_ratio / (double)t.count;
        const int keep_table = !(relative < 1.0 - KEEP_MARGIN);
        printf("\ntuned in %.0f s; the tuned values take %.3f of the table's time on the cases' mean%s\n",
               now_s() - started, relative, keep_table ? ": the table's values are kept" : "");
        /* the comparison leaves the context under whichever side ran last: set the one to store */
        const clg_status kept = clg_context_set_tuning(t.ctx, keep_table ? tuning : tuned);
        if (kept != CLG_SUCCESS) rc = cli_fail_status(kept, "tune: cannot set the values to store");
        char path[4096] = "", comment[256];
        snprintf(comment, sizeof comment, "written by clgather tune%s: %.3f of the table's time on the cases' mean",
                 quick ? " --quick" : "", keep_table ? 1.0 : relative);
        if (dry_run) {
            printf("--dry-run: no profile written\n");
        } else if (rc == 0) {
            const clg_status st = clg_context_store_tuning(t.ctx, comment, path, sizeof path);
            if (st != CLG_SUCCESS)
                rc = cli_fail_status(st, "tune: cannot store the profile");
            else
                printf("profile: %s (CLGATHER_TUNING=0 ignores it)\n", path);
        }
    }
    for (size_t i = 0; i < t.count; ++i) release_case(&t.cases[i]);
    free(t.cases);
    free(table);
    clReleaseCommandQueue(t.queue);
    clg_context_release(t.ctx);
    return rc;
}
