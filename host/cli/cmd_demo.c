/* clgather demo: every worked example of the specs (Gather, GatherElements, GatherND, GatherTree) on
 * one device, each checked against the CPU reference, against the spec's formula (Gather) and against
 * the values and shapes the spec states. */
#include "cli_args.h"
#include "cli_error.h"
#include "commands.h"
#include "demo_cases.h"
#include "demo_embedding_bag.h"
#include "demo_family.h"
#include "demo_formula.h"
#include "demo_quantized.h"
#include "tensor_format.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

enum { DEMO_SHOWN_VALUES = 48 };

/* A run's outcome: a device too small for an example (Oclgrind's 128 MiB, say) skips it. */
typedef enum demo_outcome { DEMO_FAIL = 0, DEMO_PASS, DEMO_SKIP } demo_outcome;

typedef struct demo_tally {
    int runs;
    int passed;
    int skipped;
} demo_tally;

static void count(demo_tally *tally, demo_outcome outcome)
{
    tally->runs += 1;
    tally->passed += outcome == DEMO_PASS;
    tally->skipped += outcome == DEMO_SKIP;
}

/* Whether a call failed only because the device cannot hold the example. */
static int too_large_for_device(clg_status st)
{
    return st == CLG_ERR_TOO_LARGE_FOR_DEVICE || st == CLG_ERR_DEVICE_OUT_OF_MEMORY;
}

static double now_ms(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* A fixed pseudo-random sequence, so that every run of the demo shows the same generated inputs. */
static uint64_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return *state >> 33;
}

static void store_number(cli_tensor *t, uint64_t i, double v)
{
    unsigned char *p = t->bytes + i * clg_dtype_size(t->type);
    switch (t->type) {
    case CLG_F32: {
        float x = (float)v;
        memcpy(p, &x, 4);
        break;
    }
    case CLG_F64: memcpy(p, &v, 8); break;
    case CLG_I32: {
        int32_t x = (int32_t)v;
        memcpy(p, &x, 4);
        break;
    }
    case CLG_I64: {
        int64_t x = (int64_t)v;
        memcpy(p, &x, 8);
        break;
    }
    default: break; /* the demo's tables use only these types */
    }
}

static void store_index(cli_tensor *t, uint64_t i, int64_t v)
{
    if (t->type == CLG_I32) {
        int32_t x = (int32_t)v;
        memcpy(t->bytes + i * 4, &x, 4);
    } else {
        memcpy(t->bytes + i * 8, &v, 8);
    }
}

static int same_shape(int32_t rank_a, const int64_t *a, int32_t rank_b, const int64_t *b)
{
    if (rank_a != rank_b) return 0;
    for (int32_t i = 0; i < rank_a; ++i)
        if (a[i] != b[i]) return 0;
    return 1;
}

/* Whether t holds exactly the values (converted to t's type, bit for bit). */
static int holds_values(const cli_tensor *t, const double *values)
{
    cli_tensor want = {0};
    if (cli_tensor_alloc(&want, t->type, t->rank, t->shape, "expected values") != 0) return 0;
    for (uint64_t i = 0; i < want.count; ++i) store_number(&want, i, values[i]);
    int same = memcmp(want.bytes, t->bytes, t->byte_size) == 0;
    cli_tensor_free(&want);
    return same;
}

static void print_labelled(const char *label, const cli_tensor *t)
{
    printf("     %-9s", label);
    cli_print_tensor(stdout, t, DEMO_SHOWN_VALUES);
    printf("\n");
}

/* ---- Gather ---------------------------------------------------------------------------------- */

typedef struct gather_inputs {
    cli_tensor data, indices, axis;
    int32_t axis_normalized, batch_normalized;
} gather_inputs;

static int build_gather_inputs(const demo_gather_case *c, gather_inputs *in)
{
    if (cli_tensor_alloc(&in->data, c->data_type, c->data_rank, c->data_shape, "demo data") != 0) return 1;
    if (cli_tensor_alloc(&in->indices, c->index_type, c->index_rank, c->index_shape, "demo indices") != 0) return 1;
    if (cli_tensor_alloc(&in->axis, CLG_I64, 0, NULL, "demo axis") != 0) return 1;
    memcpy(in->axis.bytes, &c->axis, sizeof c->axis);
    in->axis_normalized = (int32_t)(c->axis < 0 ? c->axis + c->data_rank : c->axis);
    in->batch_normalized = (int32_t)(c->batch_dims < 0 ? c->batch_dims + c->index_rank : c->batch_dims);
    for (uint64_t i = 0; i < in->data.count; ++i)
        store_number(&in->data, i, c->data_values ? c->data_values[i] : (double)(i % 100000 + 1));
    uint64_t state = 0x9e3779b97f4a7c15ull ^ in->indices.count;
    int64_t axis_length = c->data_shape[in->axis_normalized];
    for (uint64_t i = 0; i < in->indices.count; ++i)
        store_index(&in->indices, i,
                    c->index_values ? c->index_values[i]
                                    : (axis_length > 0 ? (int64_t)(next_random(&state) % (uint64_t)axis_length) : 0));
    return 0;
}

/* Run one case under one preset; prints its line. */
static demo_outcome run_gather_preset(clg_context *ctx, const demo_gather_case *c, clg_preset preset, gather_inputs *in,
                                      int print_output)
{
    int is_onnx = preset == CLG_ONNX_1 || preset == CLG_ONNX_11 || preset == CLG_ONNX_13;
    clg_gather_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.preset = preset;
    desc.data = cli_tensor_desc(&in->data);
    desc.indices = cli_tensor_desc(&in->indices);
    desc.batch_dims = c->batch_dims;
    if (is_onnx) {
        desc.axis = c->axis;
    } else {
        desc.axis_tensor = cli_tensor_desc(&in->axis);
        desc.axis_value = in->axis.bytes;
    }

    cli_tensor output = {0}, reference = {0}, formula = {0};
    double device_ms = 0, reference_ms = 0;
    char problem[1024] = "";
    int32_t out_rank = 0;
    int64_t out_shape[CLG_MAX_OUTPUT_RANK];
    clg_status st = clg_gather_output_shape(&desc, &out_rank, out_shape);
    if (st != CLG_SUCCESS)
        cli_fail_status(st, "output shape");
    else if (cli_tensor_alloc(&output, in->data.type, out_rank, out_shape, "output") == 0 &&
             cli_tensor_alloc(&reference, in->data.type, out_rank, out_shape, "reference output") == 0 &&
             cli_tensor_alloc(&formula, in->data.type, out_rank, out_shape, "formula output") == 0) {
        double start = now_ms();
        st = clg_gather(ctx, &desc, in->data.bytes, in->data.byte_size, in->indices.bytes, in->indices.byte_size,
                        output.bytes, output.byte_size);
        device_ms = now_ms() - start;
        if (too_large_for_device(st)) {
            printf("     %-12s SKIP  the device cannot hold it: %s\n", clg_preset_name(preset),
                   clg_last_error_message());
            cli_tensor_free(&formula);
            cli_tensor_free(&reference);
            cli_tensor_free(&output);
            return DEMO_SKIP;
        }
        if (st != CLG_SUCCESS) cli_fail_status(st, "clg_gather");
        start = now_ms();
        clg_status ref_st = clg_gather_reference(&desc, in->data.bytes, in->data.byte_size, in->indices.bytes,
                                                 in->indices.byte_size, reference.bytes, reference.byte_size);
        reference_ms = now_ms() - start;
        if (st == CLG_SUCCESS && ref_st != CLG_SUCCESS) cli_fail_status(ref_st, "clg_gather_reference");
    }
    cli_take_failure(problem, sizeof problem);

    const char *checks = "";
    if (!problem[0]) {
        if (!same_shape(out_rank, out_shape, c->out_rank, c->out_shape))
            snprintf(problem, sizeof problem, "output shape differs from the spec's");
        else if (memcmp(output.bytes, reference.bytes, output.byte_size) != 0)
            snprintf(problem, sizeof problem, "differs from the CPU reference");
        else if (demo_formula_gather(&in->data, &in->indices, in->axis_normalized, in->batch_normalized, &formula) !=
                     0 ||
                 memcmp(output.bytes, formula.bytes, output.byte_size) != 0)
            snprintf(problem, sizeof problem, "differs from the spec's formula");
        else if (c->expected && !holds_values(&output, c->expected))
            snprintf(problem, sizeof problem, "differs from the spec's output values");
        else
            checks =
                c->expected ? "= reference = formula = spec values, spec shape" : "= reference = formula, spec shape";
    }
    if (print_output && output.bytes && !problem[0]) print_labelled("output", &output);
    if (problem[0])
        printf("     %-12s FAIL  %s\n", clg_preset_name(preset), problem);
    else
        printf("     %-12s PASS  %8.2f ms (reference %.2f ms)  %s\n", clg_preset_name(preset), device_ms, reference_ms,
               checks);
    cli_tensor_free(&formula);
    cli_tensor_free(&reference);
    cli_tensor_free(&output);
    return problem[0] ? DEMO_FAIL : DEMO_PASS;
}

static void run_gather_case(clg_context *ctx, int number, const demo_gather_case *c, demo_tally *tally)
{
    printf("[%2d] %s: %s\n", number, c->spec, c->title);
    gather_inputs in;
    memset(&in, 0, sizeof in);
    if (build_gather_inputs(c, &in) != 0) {
        char problem[1024];
        cli_take_failure(problem, sizeof problem);
        printf("     FAIL  %s\n", problem);
        count(tally, DEMO_FAIL);
    } else {
        print_labelled("data", &in.data);
        print_labelled("indices", &in.indices);
        printf("     axis %lld, batch_dims %lld\n", (long long)c->axis, (long long)c->batch_dims);
        int first = 1;
        for (int p = 1; p < (int)CLG_PRESET_COUNT; ++p) {
            if (!(c->presets & DEMO_PRESET(p))) continue;
            count(tally, run_gather_preset(ctx, c, (clg_preset)p, &in, first));
            first = 0;
        }
    }
    cli_tensor_free(&in.axis);
    cli_tensor_free(&in.indices);
    cli_tensor_free(&in.data);
}

/* ---- GatherTree ------------------------------------------------------------------------------ */

static demo_outcome run_gather_tree_case(clg_context *ctx, int number, const demo_gather_tree_case *c)
{
    printf("[%2d] %s: %s\n", number, c->spec, c->title);
    int64_t tbw[3] = {c->time, c->batch, c->beam};
    cli_tensor steps = {0}, parents = {0}, lengths = {0}, end = {0}, output = {0}, reference = {0};
    char problem[1024] = "";
    double device_ms = 0, reference_ms = 0;
    if (cli_tensor_alloc(&steps, CLG_I32, 3, tbw, "step_ids") == 0 &&
        cli_tensor_alloc(&parents, CLG_I32, 3, tbw, "parent_ids") == 0 &&
        cli_tensor_alloc(&lengths, CLG_I32, 1, &c->batch, "max_seq_len") == 0 &&
        cli_tensor_alloc(&end, CLG_I32, 0, NULL, "end_token") == 0 &&
        cli_tensor_alloc(&output, CLG_I32, 3, tbw, "output") == 0 &&
        cli_tensor_alloc(&reference, CLG_I32, 3, tbw, "reference output") == 0) {
        uint64_t state = 12345;
        for (uint64_t i = 0; i < steps.count; ++i) {
            /* generated tokens lie in [0, 40): the end token 0 turns up now and then */
            store_number(&steps, i, c->step_ids ? c->step_ids[i] : (double)(next_random(&state) % 40));
            store_number(&parents, i,
                         c->parent_ids ? c->parent_ids[i] : (double)(next_random(&state) % (uint64_t)c->beam));
        }
        for (uint64_t i = 0; i < lengths.count; ++i) store_number(&lengths, i, c->max_seq_len[i]);
        store_number(&end, 0, c->end_token);
        print_labelled("step_ids", &steps);
        print_labelled("parents", &parents);
        print_labelled("lengths", &lengths);
        print_labelled("end", &end);

        clg_gather_tree_desc desc;
        desc.step_ids = cli_tensor_desc(&steps);
        desc.parent_ids = cli_tensor_desc(&parents);
        desc.max_seq_len = cli_tensor_desc(&lengths);
        desc.end_token = cli_tensor_desc(&end);
        double start = now_ms();
        clg_status st =
            clg_gather_tree(ctx, &desc, steps.bytes, steps.byte_size, parents.bytes, parents.byte_size, lengths.bytes,
                            lengths.byte_size, end.bytes, end.byte_size, output.bytes, output.byte_size);
        device_ms = now_ms() - start;
        if (st != CLG_SUCCESS) cli_fail_status(st, "clg_gather_tree");
        start = now_ms();
        clg_status ref_st = clg_gather_tree_reference(&desc, steps.bytes, steps.byte_size, parents.bytes,
                                                      parents.byte_size, lengths.bytes, lengths.byte_size, end.bytes,
                                                      end.byte_size, reference.bytes, reference.byte_size);
        reference_ms = now_ms() - start;
        if (st == CLG_SUCCESS && ref_st != CLG_SUCCESS) cli_fail_status(ref_st, "clg_gather_tree_reference");
    }
    cli_take_failure(problem, sizeof problem);
    if (!problem[0]) {
        if (memcmp(output.bytes, reference.bytes, output.byte_size) != 0)
            snprintf(problem, sizeof problem, "differs from the CPU reference");
        else if (c->expected && !holds_values(&output, c->expected))
            snprintf(problem, sizeof problem, "differs from the hand-checked values");
    }
    if (!problem[0]) print_labelled("output", &output);
    if (problem[0])
        printf("     %-12s FAIL  %s\n", "gathertree-1", problem);
    else
        printf("     %-12s PASS  %8.2f ms (reference %.2f ms)  %s\n", "gathertree-1", device_ms, reference_ms,
               c->expected ? "= reference = hand-checked values" : "= reference");
    cli_tensor_free(&reference);
    cli_tensor_free(&output);
    cli_tensor_free(&end);
    cli_tensor_free(&lengths);
    cli_tensor_free(&parents);
    cli_tensor_free(&steps);
    return problem[0] ? DEMO_FAIL : DEMO_PASS;
}

int cmd_demo(int argc, char **argv)
{
    cli_option options[] = {{"device", 1, NULL}};
    int rc = cli_parse_options("demo", argc, argv, options, 1, NULL, NULL, 0);
    if (rc != 0) return rc;
    clg_context *ctx = NULL;
    if (cli_open_context(options[0].value, 0, &ctx) != 0) return CLI_EXIT_REFUSED;
    clg_device_info info;
    memset(&info, 0, sizeof info);
    clg_context_device_info(ctx, &info);
    printf("clgather %s demo: the worked examples of the specs\n", clg_version());
    printf("device:  %s%s\n", info.device_name, info.is_reference ? " (no OpenCL)" : "");
    printf("         platform %s, %s\n", info.platform_name, info.platform_version);
    printf("         driver %s, %s\n", info.driver_version, info.opencl_c_version);
    printf("each example runs on the device and on the CPU reference; the first run of each kernel\n"
           "specialization includes its build. Checks: '= reference' bit for bit, '= formula' the spec's\n"
           "element formula, 'spec values' / 'spec shape' what the spec states.\n\n");

    demo_tally tally = {0, 0, 0};
    int number = 1;
    for (size_t i = 0; i < demo_gather_case_count; ++i) run_gather_case(ctx, number++, &demo_gather_cases[i], &tally);
    demo_family_tally family = {0, 0};
    demo_family_run(ctx, &number, &family);
    tally.runs += family.runs;
    tally.passed += family.passed;
    for (size_t i = 0; i < demo_gather_tree_case_count; ++i) {
        count(&tally, run_gather_tree_case(ctx, number++, &demo_gather_tree_cases[i]));
    }
    number += demo_quantized_run(ctx, number, &tally.runs, &tally.passed);
    number += demo_embedding_bag_run(ctx, number, &tally.runs, &tally.passed);
    clg_context_release(ctx);
    printf("\n%d of %d runs passed (%d examples) on %s", tally.passed, tally.runs, number - 1, info.device_name);
    if (tally.skipped) printf("; %d skipped: too large for the device", tally.skipped);
    printf("\n");
    const int failed = tally.runs - tally.passed - tally.skipped;
    if (failed) return cli_fail(CLI_EXIT_REFUSED, "demo: %d of %d runs failed", failed, tally.runs);
    return 0;
}
