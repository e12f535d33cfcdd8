/* libFuzzer target: EmbeddingBag's OpenCL path against its CPU reference, bit for bit, over a float
 * table, a quantized one, or many tables in one call, on fuzzer-chosen descriptors and values: indices,
 * offsets and segment ids mostly in range (so that the reductions run), now and then anything. Each case
 * runs the synchronous call, then the enqueue call with guard bytes around every buffer at a
 * fuzzer-chosen offset, under the blocking error policy or the deferred one. A status other than the
 * reference's, an output other than its bits, an output written by a failed call, an input buffer
 * written, or a touched guard byte aborts. Table bytes are the fuzzer's: NaNs, infinities and subnormals
 * included, which the rules make exact (docs/semantics.md, section 9); on a device that flushes f32
 * subnormals (no CL_FP_DENORM) f32 results are not compared, nor means where it divides f32 neither
 * exactly nor in f64; the statuses and guards still are. */
#include "fuzz_device.h"
#include "fuzz_input.h"

#include <stdlib.h>
#include <string.h>

enum { LIMIT = 1 << 16 };

static const char target[] = "fuzz_embedding_bag_differential";

/* Whether the device keeps f32 subnormals, has cl_khr_fp64, and divides f32 correctly rounded (its own
 * f32 division, or the kernels' f64 one: embedding_bag_launch.c). */
static int keeps_subnormals, has_fp64, exact_f32_division;

static void learn_device(void)
{
    static int learned;
    if (learned) return;
    clg_context *ctx = fuzz_device_context();
    cl_device_fp_config fp = 0;
    if (clGetDeviceInfo(clg_context_cl_device(ctx), CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp, &fp, NULL) != CL_SUCCESS)
        abort();
    keeps_subnormals = (fp & CL_FP_DENORM) != 0;
    clg_device_info info;
    if (clg_context_device_info(ctx, &info) != CLG_SUCCESS) abort();
    has_fp64 = info.has_fp64;
    exact_f32_division = (fp & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) || has_fp64;
    learned = 1;
}

/* Whether the rules make the device's output bits the reference's (docs/semantics.md, 8.8 and 9.2): an f64
 * accumulation always; an f32 one where the device keeps f32 subnormals and, for a mean, divides exactly. */
static int values_comparable(int f64_accumulation, clg_bag_mode mode)
{
    learn_device();
    if (f64_accumulation) return 1;
    return keeps_subnormals && (mode != CLG_BAG_MEAN || exact_f32_division);
}

/* One call's host inputs (absent ones NULL, 0 bytes) and output size. */
enum { INPUTS = 6 };
typedef struct call_inputs {
    void *p[INPUTS];
    size_t bytes[INPUTS], unit[INPUTS]; /* unit: the offset an enqueue buffer must be a multiple of */
    int count;
    size_t out_bytes, out_unit;
} call_inputs;

static void free_inputs(call_inputs *c)
{
    for (int k = 0; k < c->count; ++k) free(c->p[k]);
}

/* The three calls behind one comparison. */
typedef struct bag_call {
    const void *desc;
    clg_status (*reference)(const void *desc, const call_inputs *c, void *out);
    clg_status (*sync)(const void *desc, const call_inputs *c, void *out);
    clg_status (*enqueue)(clg_context *ctx, const void *desc, cl_mem const *mems, const size_t *offsets, cl_mem out,
                          size_t out_offset, cl_event *done);
} bag_call;

/* Compare the reference, the synchronous call and the enqueue call on c. */
static void compare(fuzz_input *in, const bag_call *call, const call_inputs *c, int compare_values)
{
    const size_t n = c->out_bytes;
    unsigned char *want = malloc(n + 1), *got = malloc(n + 1);
    memset(want, FUZZ_POISON, n + 1);
    memset(got, FUZZ_POISON, n + 1);
    const clg_status ref = call->reference(call->desc, c, want);
    const clg_status sync = call->sync(call->desc, c, got);
    if (sync != ref) fuzz_differ(target, "sync status");
    if (ref != CLG_SUCCESS ? !fuzz_all_poison(got, n) : compare_values && memcmp(got, want, n) != 0)
        fuzz_differ(target, "sync output");

    const uint8_t choice = fuzz_u8(in);
    cl_mem mems[INPUTS] = {NULL};
    size_t offsets[INPUTS] = {0};
    for (int k = 0; k < c->count; ++k) {
        if (!c->p[k]) continue;
        offsets[k] = fuzz_round_up(choice % FUZZ_GUARD_MAX, c->unit[k]);
        mems[k] = fuzz_guarded_buffer(c->p[k], c->bytes[k], offsets[k]);
    }
    const size_t out_guard = fuzz_round_up(choice % FUZZ_GUARD_MAX, c->out_unit);
    cl_mem out = fuzz_guarded_buffer(NULL, n, out_guard);
    cl_event done = NULL;
    /* the blocking error policy, or (choice's bit 6) the deferred one: the check gates the kernels on the
     * queue, and the status comes from clg_deferred_status */
    const int deferred = (choice & 64) != 0;
    clg_context *ctx = deferred ? fuzz_deferred_context() : fuzz_device_context();
    clg_status enq = call->enqueue(ctx, call->desc, mems, offsets, out, out_guard, &done);
    if (deferred && enq == CLG_SUCCESS) enq = clg_deferred_status(ctx, done);
    if (done) clReleaseEvent(done);
    unsigned char *region = malloc(out_guard + n + out_guard + 1);
    const int untouched = fuzz_read_guarded(target, out, n, out_guard, region);
    if (enq != ref) fuzz_differ(target, "enqueue status");
    if (ref != CLG_SUCCESS ? !untouched : compare_values && memcmp(region + out_guard, want, n) != 0)
        fuzz_differ(target, "enqueue output");
    for (int k = 0; k < c->count; ++k)
        if (mems[k]) fuzz_check_input(target, mems[k], c->p[k], c->bytes[k], offsets[k]);
    for (int k = 0; k < c->count; ++k)
        if (mems[k]) clReleaseMemObject(mems[k]);
    clReleaseMemObject(out);
    free(region);
    free(want);
    free(got);
}

/* Host inputs of the given sizes: fuzzer bytes where filled[k] is 1, left for the caller where 0, absent
 * (NULL) where -1. Returns 0 (nothing allocated) when one, or the output, is over LIMIT. */
static int allocate_inputs(fuzz_input *in, call_inputs *c, const uint64_t *bytes, const size_t *units, int count,
                           const int *filled, uint64_t out_bytes, size_t out_unit)
{
    if (out_bytes > LIMIT) return 0;
    for (int k = 0; k < count; ++k)
        if (bytes[k] > LIMIT) return 0;
    memset(c, 0, sizeof *c);
    c->count = count;
    for (int k = 0; k < count; ++k) {
        c->unit[k] = units[k];
        if (filled[k] < 0) continue;
        c->bytes[k] = (size_t)bytes[k];
        c->p[k] = filled[k] ? fuzz_alloc_filled(in, c->bytes[k]) : malloc(c->bytes[k] ? c->bytes[k] : 1);
    }
    c->out_bytes = (size_t)out_bytes;
    c->out_unit = out_unit;
    return 1;
}

static size_t type_size(clg_dtype type)
{
    const size_t s = clg_dtype_size(type);
    return s ? s : 1;
}

/* ---- a float table ----------------------------------------------------------------------------- */

enum { TABLE, INDICES, BAGS, WEIGHTS };

static clg_status float_reference(const void *d, const call_inputs *c, void *out)
{
    return clg_embedding_bag_reference(d, c->p[TABLE], c->bytes[TABLE], c->p[INDICES], c->bytes[INDICES], c->p[BAGS],
                                       c->bytes[BAGS], c->p[WEIGHTS], c->bytes[WEIGHTS], out, c->out_bytes);
}

static clg_status float_sync(const void *d, const call_inputs *c, void *out)
{
    return clg_embedding_bag(fuzz_device_context(), d, c->p[TABLE], c->bytes[TABLE], c->p[INDICES], c->bytes[INDICES],
                             c->p[BAGS], c->bytes[BAGS], c->p[WEIGHTS], c->bytes[WEIGHTS], out, c->out_bytes);
}

static clg_status float_enqueue(clg_context *ctx, const void *d, cl_mem const *m, const size_t *o, cl_mem out,
                                size_t out_offset, cl_event *done)
{
    return clg_embedding_bag_enqueue(ctx, d, clg_context_cl_queue(ctx), m[TABLE], o[TABLE], m[INDICES], o[INDICES],
                                     m[BAGS], o[BAGS], m[WEIGHTS], o[WEIGHTS], out, out_offset, 0, NULL, done);
}

static void float_case(fuzz_input *in)
{
    clg_embedding_bag_desc d;
    fuzz_embedding_bag_desc(in, &d);
    /* now and then a row of up to 1024 values (the descriptor's dims are mostly small): the kernels' wide
     * register passes */
    const uint8_t widen = fuzz_u8(in);
    if ((widen & 1) && d.table.rank >= 2 && d.table.rank <= CLG_MAX_RANK)
        d.table.shape[d.table.rank - 1] = 8 * ((widen >> 1) + 1);
    uint64_t bytes[4], out_bytes;
    if (clg_embedding_bag_sizes(&d, &bytes[0], &bytes[1], &bytes[2], &bytes[3], &out_bytes) != CLG_SUCCESS) return;
    const clg_tensor_desc *bags = d.bag_form == CLG_BAG_SEGMENTS ? &d.segment_ids : &d.offsets;
    const size_t units[4] = {type_size(d.table.type), type_size(d.indices.type), type_size(bags->type),
                             type_size(d.per_sample_weights.type)};
    const int filled[4] = {1, 0, d.bag_form == CLG_BAG_PACKED ? -1 : 0,
                           d.per_sample_weights.type == CLG_DTYPE_INVALID ? -1 : 1};
    const int tame = fuzz_u8(in) < 224;
    call_inputs c;
    if (!allocate_inputs(in, &c, bytes, units, 4, filled, out_bytes, type_size(d.table.type))) return;
    fuzz_bag_integers(in, tame, &d, (uint64_t)d.table.shape[0], c.p[INDICES], c.bytes[INDICES], c.p[BAGS],
                      c.p[BAGS] ? c.bytes[BAGS] : 0);
    learn_device();
    if (d.table.type == CLG_F64 && !has_fp64) { /* the call refuses such a table there: nothing to compare */
        free_inputs(&c);
        return;
    }
    const bag_call call = {&d, float_reference, float_sync, float_enqueue};
    compare(in, &call, &c, values_comparable(d.table.type == CLG_F64, d.mode));
    free_inputs(&c);
}

/* ---- a quantized table --------------------------------------------------------------------------- */

enum { Q_DATA, Q_SCALES, Q_ZERO_POINTS, Q_INDICES, Q_BAGS, Q_WEIGHTS };

static clg_status quantized_reference(const void *d, const call_inputs *c, void *out)
{
    return clg_embedding_bag_quantized_reference(d, c->p[Q_DATA], c->bytes[Q_DATA], c->p[Q_SCALES], c->bytes[Q_SCALES],
                                                 c->p[Q_ZERO_POINTS], c->bytes[Q_ZERO_POINTS], c->p[Q_INDICES],
                                                 c->bytes[Q_INDICES], c->p[Q_BAGS], c->bytes[Q_BAGS], c->p[Q_WEIGHTS],
                                                 c->bytes[Q_WEIGHTS], out, c->out_bytes);
}

static clg_status quantized_sync(const void *d, const call_inputs *c, void *out)
{
    return clg_embedding_bag_quantized(fuzz_device_context(), d, c->p[Q_DATA], c->bytes[Q_DATA], c->p[Q_SCALES],
                                       c->bytes[Q_SCALES], c->p[Q_ZERO_POINTS], c->bytes[Q_ZERO_POINTS],
                                       c->p[Q_INDICES], c->bytes[Q_INDICES], c->p[Q_BAGS], c->bytes[Q_BAGS],
                                       c->p[Q_WEIGHTS], c->bytes[Q_WEIGHTS], out, c->out_bytes);
}

static clg_status quantized_enqueue(clg_context *ctx, const void *d, cl_mem const *m, const size_t *o, cl_mem out,
                                    size_t out_offset, cl_event *done)
{
    return clg_embedding_bag_quantized_enqueue(ctx, d, clg_context_cl_queue(ctx), m[Q_DATA], o[Q_DATA], m[Q_SCALES],
                                               o[Q_SCALES], m[Q_ZERO_POINTS], o[Q_ZERO_POINTS], m[Q_INDICES],
                                               o[Q_INDICES], m[Q_BAGS], o[Q_BAGS], m[Q_WEIGHTS], o[Q_WEIGHTS], out,
                                               out_offset, 0, NULL, done);
}

static void quantized_case(fuzz_input *in)
{
    clg_embedding_bag_quantized_desc d;
    fuzz_embedding_bag_quantized_desc(in, &d);
    uint64_t bytes[6], out_bytes;
    if (clg_embedding_bag_quantized_sizes(&d, &bytes[0], &bytes[1], &bytes[2], &bytes[3], &bytes[4], &bytes[5],
                                          &out_bytes) != CLG_SUCCESS)
        return;
    int32_t rank;
    int64_t shape[CLG_MAX_OUTPUT_RANK];
    clg_dtype out_type;
    if (clg_embedding_bag_quantized_output_shape(&d, &rank, shape, &out_type) != CLG_SUCCESS) abort();
    const clg_bag_form form = d.bag.bag_form;
    const clg_tensor_desc *bags = form == CLG_BAG_SEGMENTS ? &d.bag.segment_ids : &d.bag.offsets;
    /* data and zero points at any byte; the others at a multiple of their element */
    const size_t units[6] = {1, type_size(d.scales.type), 1, type_size(d.bag.indices.type), type_size(bags->type), 4};
    const int filled[6] = {1,
                           bytes[1] ? 1 : -1,
                           bytes[2] ? 1 : -1,
                           0,
                           form == CLG_BAG_PACKED ? -1 : 0,
                           d.bag.per_sample_weights.type == CLG_DTYPE_INVALID ? -1 : 1};
    const int tame = fuzz_u8(in) < 224;
    call_inputs c;
    if (!allocate_inputs(in, &c, bytes, units, 6, filled, out_bytes, type_size(out_type))) return;
    fuzz_bag_integers(in, tame, &d.bag, rank >= 1 && d.data.rank >= 1 ? (uint64_t)d.data.shape[0] : 0, c.p[Q_INDICES],
                      c.bytes[Q_INDICES], c.p[Q_BAGS], c.p[Q_BAGS] ? c.bytes[Q_BAGS] : 0);
    learn_device();
    const bag_call call = {&d, quantized_reference, quantized_sync, quantized_enqueue};
    compare(in, &call, &c, values_comparable(0, d.bag.mode));
    free_inputs(&c);
}

/* ---- many tables in one call --------------------------------------------------------------------- */

enum { T_TABLES, T_INDICES, T_OFFSETS, T_WEIGHTS };

static clg_status tables_reference(const void *d, const call_inputs *c, void *out)
{
    return clg_embedding_bag_tables_reference(d, c->p[T_TABLES], c->bytes[T_TABLES], c->p[T_INDICES],
                                              c->bytes[T_INDICES], c->p[T_OFFSETS], c->bytes[T_OFFSETS],
                                              c->p[T_WEIGHTS], c->bytes[T_WEIGHTS], out, c->out_bytes);
}

static clg_status tables_sync(const void *d, const call_inputs *c, void *out)
{
    return clg_embedding_bag_tables(fuzz_device_context(), d, c->p[T_TABLES], c->bytes[T_TABLES], c->p[T_INDICES],
                                    c->bytes[T_INDICES], c->p[T_OFFSETS], c->bytes[T_OFFSETS], c->p[T_WEIGHTS],
                                    c->bytes[T_WEIGHTS], out, c->out_bytes);
}

static clg_status tables_enqueue(clg_context *ctx, const void *d, cl_mem const *m, const size_t *o, cl_mem out,
                                 size_t out_offset, cl_event *done)
{
    return clg_embedding_bag_tables_enqueue(ctx, d, clg_context_cl_queue(ctx), m[T_TABLES], o[T_TABLES], m[T_INDICES],
                                            o[T_INDICES], m[T_OFFSETS], o[T_OFFSETS], m[T_WEIGHTS], o[T_WEIGHTS], out,
                                            out_offset, 0, NULL, done);
}

static void tables_case(fuzz_input *in)
{
    clg_embedding_bag_tables_desc d;
    clg_embedding_bag_table tables[FUZZ_MAX_TABLES];
    const int32_t count = fuzz_embedding_bag_tables_desc(in, &d, tables);
    uint64_t bytes[4], out_bytes;
    if (clg_embedding_bag_tables_sizes(&d, &bytes[0], &bytes[1], &bytes[2], &bytes[3], &out_bytes) != CLG_SUCCESS)
        return;
    clg_dtype out_type;
    if (clg_embedding_bag_tables_output_type(&d, &out_type) != CLG_SUCCESS) abort();
    /* the tables at a multiple of the widest plain type among them, any byte where every table is quantized */
    size_t widest = 1;
    for (int32_t t = 0; t < count; ++t)
        if (tables[t].quant_layout == 0 && clg_dtype_size(tables[t].type) > widest)
            widest = clg_dtype_size(tables[t].type);
    const size_t units[4] = {widest, type_size(d.indices.type), type_size(d.offsets.type),
                             type_size(d.per_sample_weights.type)};
    const int filled[4] = {1, 0, 0, d.per_sample_weights.type == CLG_DTYPE_INVALID ? -1 : 1};
    const int tame = fuzz_u8(in) < 224;
    call_inputs c;
    if (!allocate_inputs(in, &c, bytes, units, 4, filled, out_bytes, type_size(out_type))) return;
    const size_t index_size = type_size(d.indices.type), offset_size = type_size(d.offsets.type);
    const size_t indices = c.bytes[T_INDICES] / index_size;
    uint64_t rows = UINT64_MAX; /* an index in range of every table, mostly */
    for (int32_t t = 0; t < count; ++t) rows = (uint64_t)tables[t].rows < rows ? (uint64_t)tables[t].rows : rows;
    if (tame) {
        fuzz_integers(in, c.p[T_INDICES], d.indices.type, indices, rows, 0);
        const size_t offsets = c.bytes[T_OFFSETS] / offset_size;
        fuzz_integers(in, c.p[T_OFFSETS], d.offsets.type, offsets, indices, 1);
        /* FBGEMM's form: the last offset closes the index list */
        if (d.include_last_offset && offsets) fuzz_store_integer(c.p[T_OFFSETS], offsets - 1, d.offsets.type, indices);
    } else {
        fuzz_bytes(in, c.p[T_INDICES], c.bytes[T_INDICES]);
        fuzz_bytes(in, c.p[T_OFFSETS], c.bytes[T_OFFSETS]);
    }
    learn_device();
    int has_f64 = 0;
    for (int32_t t = 0; t < count; ++t) has_f64 |= tables[t].quant_layout == 0 && tables[t].type == CLG_F64;
    if (has_f64 && !has_fp64) {
        free_inputs(&c);
        return;
    }
    const bag_call call = {&d, tables_reference, tables_sync, tables_enqueue};
    compare(in, &call, &c, values_comparable(has_f64, d.mode));
    free_inputs(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size};
    const uint8_t which = fuzz_u8(&in) % 3;
    if (which == 0)
        float_case(&in);
    else if (which == 1)
        quantized_case(&in);
    else
        tables_case(&in);
    return 0;
}
