/* EmbeddingBag: gather rows of a table and reduce each bag of them to one output row, plus the checks
 * of its bag structure and indices, for one table or table-batched (FBGEMM's TBE: T tables in one buffer,
 * per-table words in `meta`). One program for every index type, bag form and mode (kernel
 * arguments: uniform branches); the table's type is the one build option (TABLE_KIND 0 f32, 1 f16,
 * 2 bf16, 3 f64), since it sets the accumulation type. Results are bit-exact with the CPU reference
 * (host/ops/embedding_bag/embedding_bag_reference.c): bag order, f32 accumulation (f64 for f64), each
 * product rounded before the sum (contraction off), mean one division, max NaN-propagating.
 *
 * Every index, offset and segment id a kernel uses is held within its range, whatever the values: the
 * check runs first (or gates the kernels), but inputs written concurrently must still not move a read
 * outside a buffer. */
#if TABLE_KIND == 3 || F64_DIVISION
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#ifndef BAG_PROGRAM
#define BAG_PROGRAM 1 /* hints.h: prefetches at the bag programs' locality */
#endif
#if TABLE_KIND == 3
#define OUT_KIND 0
#else
#define OUT_KIND TABLE_KIND
#endif
#include "dequant.h"
#include "failure_record.h"
#include "hints.h"

#pragma OPENCL FP_CONTRACT OFF

#if TABLE_KIND == 0
typedef uint table_bits_t;
typedef float acc_t;
inline acc_t to_acc(table_bits_t x) { return as_float(x); }
inline table_bits_t from_acc(acc_t v) { return as_uint(v); }
#elif TABLE_KIND == 1
typedef ushort table_bits_t;
typedef float acc_t;
inline acc_t to_acc(table_bits_t x) { return as_float(f16_to_f32_bits(x)); }
inline table_bits_t from_acc(acc_t v) { return to_output_exact(as_uint(v)); }
#elif TABLE_KIND == 2
typedef ushort table_bits_t;
typedef float acc_t;
inline acc_t to_acc(table_bits_t x) { return as_float((uint)x << 16); }
inline table_bits_t from_acc(acc_t v) { return to_output_exact(as_uint(v)); }
#else
typedef ulong table_bits_t;
typedef double acc_t;
inline acc_t to_acc(table_bits_t x) { return as_double(x); }
inline table_bits_t from_acc(acc_t v) { return as_ulong(v); }
#endif

/* The canonical quiet NaN of the accumulation type: which NaN an addition of two NaNs returns depends
 * on the order of its operands, which compilers may swap, so sums and means that are NaN give this one. */
#if TABLE_KIND == 3
#define CANONICAL_NAN as_double(0x7FF8000000000000UL)
#else
#define CANONICAL_NAN as_float(0x7FC00000u)
#endif

/* clg_bag_form, clg_bag_mode and the check's failures (host/ops/embedding_bag/embedding_bag_check.h) */
#define FORM_OFFSETS             1
#define FORM_PACKED              2
#define FORM_SEGMENTS            3
#define MODE_SUM                 0
#define MODE_MEAN                1
#define MODE_MAX                 2
#define BAG_VALID                0
#define BAG_OFFSET_OUT_OF_RANGE  1
#define BAG_OFFSET_NOT_ZERO      2
#define BAG_OFFSET_DECREASES     3
#define BAG_SEGMENT_OUT_OF_RANGE 4
#define BAG_SEGMENT_DECREASES    5
#define BAG_INDEX_OUT_OF_RANGE   6
#define BAG_OFFSET_NOT_END       7

/* A table-batched call's per-table words, meta[4 t + ...] (host/ops/embedding_bag/embedding_bag_tables.c):
 * table t's first element in the tables buffer, its rows N_t, its width D_t, its first output column. */
#define META_START  0
#define META_ROWS   1
#define META_WIDTH  2
#define META_COLUMN 3

/* Element pos of an integer tensor of size bytes (signed or not) as its bits, sign-extended if signed. */
inline ulong read_bits(__global const uchar *base, ulong pos, int size, int is_signed)
{
    switch (size) {
    case 1: return is_signed ? (ulong)(long)((__global const char *)base)[pos] : (ulong)base[pos];
    case 2:
        return is_signed ? (ulong)(long)((__global const short *)base)[pos]
                         : (ulong)((__global const ushort *)base)[pos];
    case 4:
        return is_signed ? (ulong)(long)((__global const int *)base)[pos] : (ulong)((__global const uint *)base)[pos];
    default: return ((__global const ulong *)base)[pos];
    }
}

/* The value the rules compare: unsigned values above LONG_MAX held at LONG_MAX (out of every range). */
inline long as_value(ulong bits, int is_signed)
{
    return (is_signed || bits <= (ulong)LONG_MAX) ? (long)bits : LONG_MAX;
}

inline long read_value(__global const uchar *base, ulong pos, int size, int is_signed)
{
    return as_value(read_bits(base, pos, size, is_signed), is_signed);
}

/* The bag of a table-batched call holding index i: the last of offsets [first, count) that is <= i, given
 * that offsets[first] <= i (offsets[0] is 0 once checked; any values give some bag in [0, count)). */
inline ulong bag_of_index(__global const uchar *offsets, int size, int is_signed, ulong first, ulong count, ulong i)
{
    ulong lo = first, hi = count;
    while (lo < hi) {
        const ulong mid = lo + (hi - lo) / 2;
        if (read_value(offsets, mid, size, is_signed) <= (long)i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 ? lo - 1 : 0;
}

/* ---- the checks ------------------------------------------------------------------------------ */

/* T > 0: a table-batched call (B bags a table, each index checked against the rows of its bag's table,
 * N unused); last_ends: the last offset must be L. */
#define CHECK_PARAMETERS                                                                                               \
    __global const uchar *indices, ulong indices_offset, int index_size, int index_signed, __global const uchar *bags, \
        ulong bags_offset, int bags_size, int bags_signed, ulong bags_count, ulong L, ulong N, ulong B, int form,      \
        int start_at_zero, ulong per_item, volatile __global uint *record, __global const ulong *meta, ulong T,        \
        int last_ends

/* The steps a check walks the offsets forward from the previous index's bag before it searches: most
 * indices lie in the previous one's bag or the next. */
#define BAG_WALK_STEPS 4

/* What is wrong at checked position pos: the bag structure's values first, then the indices. For an
 * index of a table-batched call, *bag gets the bag holding it and *rows its table's rows; *bag_known says
 * *bag holds the bag of index pos - 1 - bags_count (a caller scanning positions in order sets it to 0 at
 * its first), which the search then starts from. Valid offsets give the same bag either way; invalid ones
 * fail the check at an earlier position. */
inline int judge(CHECK_PARAMETERS, ulong pos, ulong *bag, ulong *rows, int *bag_known)
{
    __global const uchar *b = bags ? bags + bags_offset * bags_size : bags;
    if (pos >= bags_count) {
        const ulong i = pos - bags_count;
        *rows = N;
        if (T > 0 && B > 0) {
            const ulong count = T * B;
            ulong k = *bag_known ? min(*bag, count - 1) : 0;
            int steps = *bag_known ? 0 : BAG_WALK_STEPS;
            while (steps < BAG_WALK_STEPS && k + 1 < count && read_value(b, k + 1, bags_size, bags_signed) <= (long)i) {
                ++k;
                ++steps;
            }
            if (steps == BAG_WALK_STEPS) k = bag_of_index(b, bags_size, bags_signed, k, count, i);
            *bag = k;
            *bag_known = 1;
            *rows = meta[4 * min(*bag / B, T - 1) + META_ROWS];
        }
        const long v = read_value(indices + indices_offset * index_size, i, index_size, index_signed);
        return (v < 0 || (ulong)v >= *rows) ? BAG_INDEX_OUT_OF_RANGE : BAG_VALID;
    }
    const long v = read_value(b, pos, bags_size, bags_signed);
    const long prev = pos > 0 ? read_value(b, pos - 1, bags_size, bags_signed) : 0;
    if (form == FORM_OFFSETS) {
        if (v < 0 || (ulong)v > L) return BAG_OFFSET_OUT_OF_RANGE;
        if (pos == 0 && start_at_zero && v != 0) return BAG_OFFSET_NOT_ZERO;
        if (pos > 0 && v < prev) return BAG_OFFSET_DECREASES;
        return (last_ends && pos + 1 == bags_count && (ulong)v != L) ? BAG_OFFSET_NOT_END : BAG_VALID;
    }
    if (v < 0 || (ulong)v >= B) return BAG_SEGMENT_OUT_OF_RANGE;
    return (pos > 0 && v < prev) ? BAG_SEGMENT_DECREASES : BAG_VALID;
}

#define CHECK_ARGUMENTS                                                                                                \
    indices, indices_offset, index_size, index_signed, bags, bags_offset, bags_size, bags_signed, bags_count, L, N, B, \
        form, start_at_zero, per_item, record, meta, T, last_ends

/* Whether any of indices [from, to) lies outside [0, rows): each value's bits, sign-extended if signed,
 * so that a negative one compares as a huge one. One loop a type, with no early exit, so that it
 * vectorizes. */
#define ANY_OUTSIDE_LOOP(T) \
    for (ulong i = from; i < to; ++i) outside |= (ulong)((__global const T *)indices)[i] >= rows;
inline int any_index_outside(__global const uchar *indices, int size, int is_signed, ulong from, ulong to, ulong rows)
{
    int outside = 0;
    switch (size * 2 + (is_signed ? 1 : 0)) {
    case 2: ANY_OUTSIDE_LOOP(uchar) break;
    case 3: ANY_OUTSIDE_LOOP(char) break;
    case 4: ANY_OUTSIDE_LOOP(ushort) break;
    case 5: ANY_OUTSIDE_LOOP(short) break;
    case 8: ANY_OUTSIDE_LOOP(uint) break;
    case 9: ANY_OUTSIDE_LOOP(int) break;
    default: ANY_OUTSIDE_LOOP(ulong) break;
    }
    return outside;
}

/* Whether any index of [from, to) is outside its table's rows: those of table t for the indices between
 * offsets[t B] and offsets[(t + 1) B], the same table judge() finds through the index's bag when the
 * offsets are valid (invalid offsets fail at an earlier position). A single table: N rows for all. */
inline int any_bad_index(CHECK_PARAMETERS, ulong from, ulong to)
{
    __global const uchar *idx = indices + indices_offset * index_size;
    if (T == 0 || B == 0) return any_index_outside(idx, index_size, index_signed, from, to, N);
    __global const uchar *b = bags + bags_offset * bags_size;
    ulong t = bag_of_index(b, bags_size, bags_signed, 0, T * B, from) / B; /* the table of index `from` */
    for (ulong i = from; i < to;) {
        ulong stop = to;
        if (t + 1 < T) {
            const long next = read_value(b, (t + 1) * B, bags_size, bags_signed);
            if (next <= (long)i) { /* the next table starts at or before i */
                ++t;
                continue;
            }
            if ((ulong)next < stop) stop = (ulong)next;
        }
        if (any_index_outside(idx, index_size, index_signed, i, stop, meta[4 * t + META_ROWS])) return 1;
        i = stop;
    }
    return 0;
}

/* Work-item k scans chunk k of per_item positions and lowers the flag to k if any is bad (locate_bad_bag
 * then finds the first): the bag structure's positions one by one, the indices' table by table. */
__kernel void check_bags(CHECK_PARAMETERS)
{
    const ulong chunk = get_global_id(0), total = bags_count + L;
    ulong pos = chunk * per_item;
    if (pos >= total) return;
    const ulong end = (total - pos > per_item) ? pos + per_item : total;
    ulong bag = 0, rows = 0;
    int bag_known = 0;
    for (; pos < end && pos < bags_count; ++pos) {
        if (judge(CHECK_ARGUMENTS, pos, &bag, &rows, &bag_known) != BAG_VALID) {
            atomic_min(record, (uint)chunk);
            return;
        }
    }
    if (pos < end && any_bad_index(CHECK_ARGUMENTS, pos - bags_count, end - bags_count))
        atomic_min(record, (uint)chunk);
}

/* One work-item: if a chunk was flagged, record its first failure. details[0] the failure (0 if the
 * chunk reads back clean), [1] the checked position, [2] the value's bits, [3] those of the value
 * before it in the same tensor, [4] per_item; a table-batched call's bad index: [5] its bag, [6] the
 * rows of the bag's table. */
__kernel void locate_bad_bag(CHECK_PARAMETERS)
{
    const uint chunk = record[0];
    if (get_global_id(0) != 0 || chunk == NONE_FAILED) return;
    __global ulong *details = failure_details(record);
    const ulong total = bags_count + L;
    ulong pos = (ulong)chunk * per_item;
    const ulong end = (total - pos > per_item) ? pos + per_item : total;
    details[0] = BAG_VALID;
    details[4] = per_item;
    ulong bag = 0, rows = 0;
    int bag_known = 0;
    for (; pos < end; ++pos) {
        const int failure = judge(CHECK_ARGUMENTS, pos, &bag, &rows, &bag_known);
        if (failure == BAG_VALID) continue;
        const int index = pos >= bags_count;
        __global const uchar *base = index ? indices + indices_offset * index_size : bags + bags_offset * bags_size;
        const int size = index ? index_size : bags_size, is_signed = index ? index_signed : bags_signed;
        const ulong at = index ? pos - bags_count : pos;
        details[0] = (ulong)failure;
        details[1] = pos;
        details[2] = read_bits(base, at, size, is_signed);
        details[3] = at > 0 ? read_bits(base, at - 1, size, is_signed) : details[2];
        details[5] = bag;
        details[6] = rows;
        return;
    }
}

/* ---- the reduction --------------------------------------------------------------------------- */

/* Everything a bag's reduction reads (the kernels' arguments, past the output). */
typedef struct bag_inputs {
    __global const table_bits_t *table;
    __global const uchar *indices;
    __global const uchar *bags;
    __global const table_bits_t *weights;
    int index_size, index_signed, bags_size, bags_signed, form, mode, has_weights;
    ulong N, D, L, K, bags_count;
    long default_row, padding_row;
} bag_inputs;

/* The first position of the sorted segment ids holding an id >= s. */
inline ulong first_segment_at_least(const bag_inputs *in, ulong s)
{
    ulong lo = 0, hi = in->L;
    while (lo < hi) {
        const ulong mid = lo + (hi - lo) / 2;
        if ((ulong)read_value(in->bags, mid, in->bags_size, in->bags_signed) < s)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The indices [*start, *end) of bag b, held within [0, L]. */
inline void bag_range(const bag_inputs *in, ulong b, ulong *start, ulong *end)
{
    ulong s, e;
    if (in->form == FORM_PACKED) {
        s = b * in->K;
        e = s + in->K;
    } else if (in->form == FORM_SEGMENTS) {
        s = first_segment_at_least(in, b);
        e = first_segment_at_least(in, b + 1);
    } else {
        const long first = read_value(in->bags, b, in->bags_size, in->bags_signed);
        const long last =
            b + 1 < in->bags_count ? read_value(in->bags, b + 1, in->bags_size, in->bags_signed) : (long)in->L;
        s = first < 0 ? 0 : (ulong)first;
        e = last < 0 ? 0 : (ulong)last;
    }
    *start = min(s, in->L);
    *end = clamp(e, *start, in->L);
}

/* The table row of index i, or -1 if it counts for nothing (padding, or out of range); index_size the
 * indices' width where the caller knows it as a constant (its reads then carry no switch), else 0. One
 * unsigned comparison judges the range: a negative index sign-extends, like an unsigned one above
 * LONG_MAX, to bits above any N. */
HOT_INLINE long bag_row_sized(const bag_inputs *in, ulong i, const int index_size)
{
    const ulong bits = read_bits(in->indices, i, index_size ? index_size : in->index_size, in->index_signed);
    return bits < in->N && (long)bits != in->padding_row ? (long)bits : -1;
}

inline long bag_row(const bag_inputs *in, ulong i) { return bag_row_sized(in, i, 0); }

/* acc combined with value x of index i. */
inline acc_t combine(const bag_inputs *in, acc_t acc, acc_t x, ulong i)
{
    if (in->mode == MODE_MAX) return (!isnan(acc) && (isnan(x) || x > acc)) ? x : acc;
    const acc_t product = in->has_weights ? to_acc(in->weights[i]) * x : x;
    return acc + product;
}

/* sum / count, correctly rounded (the host's division_options says how: the build option for correctly
 * rounded f32 division, or an f64 division rounded to f32). */
inline acc_t mean_of(acc_t sum, acc_t count)
{
#if F64_DIVISION
    return (acc_t)((double)sum / (double)count);
#else
    return sum / count;
#endif
}

/* The output value of column c of a bag that counted n entries (n > 0). */
inline table_bits_t finish(const bag_inputs *in, acc_t acc, ulong n)
{
    if (in->mode == MODE_MAX) return from_acc(acc); /* the first NaN itself: max computes nothing */
    const acc_t v = in->mode == MODE_MEAN ? mean_of(acc, (acc_t)n) : acc;
    return from_acc(isnan(v) ? CANONICAL_NAN : v);
}

#if TABLE_KIND == 0 || TABLE_KIND == 1 || TABLE_KIND == 2
/* finish() of eight f32 sums (mode sum): their bits, a NaN the canonical one. */
inline uint8 sum_bits8(float8 v) { return as_uint8(select(v, (float8)(CANONICAL_NAN), isnan(v))); }
#endif

/* Column c of a bag that counted nothing: the default row's bits, or zeros. */
inline table_bits_t empty_value(const bag_inputs *in, ulong c)
{
    return in->default_row >= 0 ? in->table[(ulong)in->default_row * in->D + c] : (table_bits_t)0;
}

#define BAG_PARAMETERS                                                                                               \
    __global const table_bits_t *table, ulong table_offset, __global const uchar *indices, ulong indices_offset,     \
        int index_size, int index_signed, __global const uchar *bags, ulong bags_offset, int bags_size,              \
        int bags_signed, __global const table_bits_t *weights, ulong weights_offset, int has_weights,                \
        __global table_bits_t *out, ulong out_offset, ulong N, ulong D, ulong L, ulong B, ulong K, ulong bags_count, \
        int form, int mode, long default_row, long padding_row GATE_PARAMETER

inline bag_inputs inputs_of(__global const table_bits_t *table, ulong table_offset, __global const uchar *indices,
                            ulong indices_offset, int index_size, int index_signed, __global const uchar *bags,
                            ulong bags_offset, int bags_size, int bags_signed, __global const table_bits_t *weights,
                            ulong weights_offset, int has_weights, ulong N, ulong D, ulong L, ulong K, ulong bags_count,
                            int form, int mode, long default_row, long padding_row)
{
    bag_inputs in;
    in.table = table + table_offset;
    in.indices = indices + indices_offset * index_size;
    in.bags = bags ? bags + bags_offset * bags_size : bags;
    in.weights = weights ? weights + weights_offset : weights;
    in.index_size = index_size;
    in.index_signed = index_signed;
    in.bags_size = bags_size;
    in.bags_signed = bags_signed;
    in.form = form;
    in.mode = mode;
    in.has_weights = has_weights;
    in.N = N;
    in.D = D;
    in.L = L;
    in.K = K;
    in.bags_count = bags_count;
    in.default_row = default_row;
    in.padding_row = padding_row;
    return in;
}

#define INPUTS_OF()                                                                                                 \
    inputs_of(table, table_offset, indices, indices_offset, index_size, index_signed, bags, bags_offset, bags_size, \
              bags_signed, weights, weights_offset, has_weights, N, D, L, K, bags_count, form, mode, default_row,   \
              padding_row)

/* Columns a runs work-item accumulates at once, in registers. */
#define RUN_COLUMNS 8

/* Prefetch the whole row of index i (if it counts) into the cache. */
HOT_INLINE void prefetch_row(const bag_inputs *in, ulong i)
{
#if HINT_PREFETCH
    const long row = bag_row(in, i);
    if (row < 0) return;
    __global const uchar *p = (__global const uchar *)(in->table + (ulong)row * in->D);
    prefetch_span(p, in->D * sizeof(table_bits_t));
#else
    (void)in;
    (void)i;
#endif
}

/* Prefetch the rows of bag `bag` (at most PREFETCH_MAX_ROWS of them). */
HOT_INLINE void prefetch_bag(const bag_inputs *in, ulong bag)
{
#if HINT_PREFETCH
    ulong start, end;
    bag_range(in, bag, &start, &end);
    end = min(end, start + (ulong)PREFETCH_MAX_ROWS);
    for (ulong i = start; i < end; ++i) prefetch_row(in, i);
#else
    (void)in;
    (void)bag;
#endif
}

/* Prefetch the row of index i + BAG_PREFETCH_ROWS (a tuning constant, hints.h) while index i is reduced:
 * a bag's indices are a run of the flat index stream and the next bag is the next work-item's, which
 * runs after this one on the same thread, so this asks for rows a steady distance ahead, one row for
 * each row reduced. Rows asked for a whole bag at a time (prefetch_bag) arrive in bursts the cores
 * cannot keep in flight. */
HOT_INLINE void prefetch_index_ahead(const bag_inputs *in, ulong i)
{
#if HINT_PREFETCH
    if (BAG_PREFETCH_ROWS && in->L - i > BAG_PREFETCH_ROWS) prefetch_row(in, i + BAG_PREFETCH_ROWS);
#else
    (void)in;
    (void)i;
#endif
}

#if TABLE_KIND == 0
/* SUM_COLUMNS_MAX, the tuning's bag_sum_columns (a multiple of 32, at most 128): the widest pass of the
 * f32 sum path, in 8-wide vectors. 128 on CPUs: sixteen vectors, as many accumulators as x86's AVX2
 * registers (each addition reads its row operand from memory), so a row of 128 values is read in one
 * pass; narrower where wide passes cost more to build than they gain. */
#ifndef SUM_COLUMNS_MAX
#error "SUM_COLUMNS_MAX is a build option from the host's tuning table"
#endif

/* An f32 sum (or mean) without weights over `width` columns from c0 (a constant 32, 64 or
 * SUM_COLUMNS_MAX once inlined, so that the accumulators are registers; the caller's D - c0 >= width) into out_row: the same
 * additions in the same order as combine's, so the same bits. `first`: the row's first pass, which
 * prefetches ahead. */
HOT_INLINE void sum_pass(const bag_inputs *in, ulong start, ulong end, ulong c0, int first, const int width,
                         __global table_bits_t *out_row)
{
    float8 a[SUM_COLUMNS_MAX / 8];
#pragma unroll
    for (int g = 0; g < SUM_COLUMNS_MAX / 8; ++g)
        if (8 * g < width) a[g] = (float8)(0.0f);
    ulong n = 0;
    for (ulong i = start; i < end; ++i) {
        if (first) prefetch_index_ahead(in, i);
        const long row = bag_row(in, i);
        if (row < 0) continue;
        ++n;
        __global const float *x = (__global const float *)(in->table + (ulong)row * in->D + c0);
#pragma unroll
        for (int g = 0; g < SUM_COLUMNS_MAX / 8; ++g)
            if (8 * g < width) a[g] += vload8(g, x);
    }
    if (n && in->mode == MODE_SUM) { /* finish() eight at a time */
#pragma unroll
        for (int g = 0; g < SUM_COLUMNS_MAX / 8; ++g)
            if (8 * g < width) vstore8(sum_bits8(a[g]), g, out_row + c0);
        return;
    }
    float acc[SUM_COLUMNS_MAX];
#pragma unroll
    for (int g = 0; g < SUM_COLUMNS_MAX / 8; ++g)
        if (8 * g < width) vstore8(a[g], g, acc);
    for (int j = 0; j < width; ++j) out_row[c0 + j] = n ? finish(in, acc[j], n) : empty_value(in, c0 + j);
}
#endif

/* Bag `bag` into the D values at out_row, RUN_COLUMNS columns at a time accumulated in registers (an
 * f32 sum or mean without weights up to SUM_COLUMNS_MAX at a time, in vectors): each gathered value is
 * read once, each output value written once. */
inline void reduce_bag_runs(const bag_inputs *in, ulong bag, __global table_bits_t *out_row)
{
    ulong start, end;
    bag_range(in, bag, &start, &end);
    const ulong D = in->D;
    ulong c0 = 0;
#if TABLE_KIND == 0
    if (in->mode != MODE_MAX && !in->has_weights) {
        for (; D - c0 >= SUM_COLUMNS_MAX; c0 += SUM_COLUMNS_MAX)
            sum_pass(in, start, end, c0, c0 == 0, SUM_COLUMNS_MAX, out_row);
        if (SUM_COLUMNS_MAX > 64 && D - c0 >= 64) {
            sum_pass(in, start, end, c0, c0 == 0, 64, out_row);
            c0 += 64;
        }
        if (SUM_COLUMNS_MAX > 32 && D - c0 >= 32) {
            sum_pass(in, start, end, c0, c0 == 0, 32, out_row);
            c0 += 32;
        }
    }
#endif
    for (; c0 < D; c0 += RUN_COLUMNS) {
        const ulong width = min((ulong)RUN_COLUMNS, D - c0);
        acc_t acc[RUN_COLUMNS];
        for (int j = 0; j < RUN_COLUMNS; ++j) acc[j] = in->mode == MODE_MAX ? (acc_t)(-INFINITY) : (acc_t)0;
        ulong n = 0;
        for (ulong i = start; i < end; ++i) {
            if (c0 == 0) prefetch_index_ahead(in, i);
            const long row = bag_row(in, i);
            if (row < 0) continue;
            ++n;
            __global const table_bits_t *x = in->table + (ulong)row * D + c0;
            for (ulong j = 0; j < width; ++j) acc[j] = combine(in, acc[j], to_acc(x[j]), i);
        }
        for (ulong j = 0; j < width; ++j) out_row[c0 + j] = n ? finish(in, acc[j], n) : empty_value(in, c0 + j);
    }
}

/* Column c of the bag holding indices [start, end). */
inline table_bits_t reduce_bag_column(const bag_inputs *in, ulong start, ulong end, ulong c)
{
    acc_t acc = in->mode == MODE_MAX ? (acc_t)(-INFINITY) : (acc_t)0;
    ulong n = 0;
    for (ulong i = start; i < end; ++i) {
        const long row = bag_row(in, i);
        if (row < 0) continue;
        ++n;
        acc = combine(in, acc, to_acc(in->table[(ulong)row * in->D + c]), i);
    }
    return n ? finish(in, acc, n) : empty_value(in, c);
}

/* Runs mapping (CPUs): one work-item per bag. Rows are prefetched BAG_PREFETCH_ROWS indices ahead as
 * they are reduced (prefetch_index_ahead); and, where the tuning says so, a later bag's rows,
 * BAG_PREFETCH_AHEAD bags on, all at once first: the group's next work-items (on the same thread) reduce
 * them, so their rows' memory latency overlaps this bag's reduction. */
__kernel void embedding_bag_runs(BAG_PARAMETERS)
{
    const int closed = GATE_IS_CLOSED(); /* the check failed: nothing written */
    const ulong b = get_global_id(0);
    if (b >= B || closed) return;
    const bag_inputs in = INPUTS_OF();
    if (BAG_PREFETCH_AHEAD && b + BAG_PREFETCH_AHEAD < B) prefetch_bag(&in, b + BAG_PREFETCH_AHEAD);
    reduce_bag_runs(&in, b, out + out_offset + b * D);
}

/* Adjacent mapping (GPUs): dimension 0 the columns (adjacent work-items read adjacent values of a row),
 * dimension 1 the bags, both with a grid stride. */
__kernel void embedding_bag_columns(BAG_PARAMETERS)
{
    const ulong open_bags = GATE_IS_CLOSED() ? 0 : B; /* the check failed: no bags, nothing written */
    const bag_inputs in = INPUTS_OF();
    for (ulong b = get_global_id(1); b < open_bags; b += get_global_size(1)) {
        ulong start, end;
        bag_range(&in, b, &start, &end);
        for (ulong c = get_global_id(0); c < D; c += get_global_size(0))
            out[out_offset + b * D + c] = reduce_bag_column(&in, start, end, c);
    }
}

/* ---- the table-batched call ------------------------------------------------------------------- */

/* The reduction's arguments with `table` the tables buffer, B the bags a table, bags_count T*B (+1), and
 * N, D unused; then the per-table words, T, and the output's row width (the sum of the D_t). Bag
 * k = t*B + b of table t writes output row b from column meta[4t + META_COLUMN]. */
#define TABLES_PARAMETERS BAG_PARAMETERS, __global const ulong *meta, ulong T, ulong out_width

/* The bag inputs of table t: its rows and width. */
inline bag_inputs table_view(bag_inputs in, __global const ulong *meta, ulong t)
{
    in.table += meta[4 * t + META_START];
    in.N = meta[4 * t + META_ROWS];
    in.D = meta[4 * t + META_WIDTH];
    return in;
}

/* Runs mapping: one work-item per (table, bag), as embedding_bag_runs. */
__kernel void embedding_bag_tables_runs(TABLES_PARAMETERS)
{
    const int closed = GATE_IS_CLOSED(); /* the check failed: nothing written */
    const ulong k = get_global_id(0);
    if (k >= T * B || closed) return;
    const ulong t = k / B, b = k % B;
    const bag_inputs all = INPUTS_OF(), in = table_view(all, meta, t);
    const ulong ahead = k + BAG_PREFETCH_AHEAD;
    if (BAG_PREFETCH_AHEAD && ahead < T * B) {
        const bag_inputs later = table_view(all, meta, ahead / B);
        prefetch_bag(&later, ahead);
    }
    reduce_bag_runs(&in, k, out + out_offset + b * out_width + meta[4 * t + META_COLUMN]);
}

/* Adjacent mapping: dimension 0 the columns of the widest table, dimension 1 the (table, bag) pairs. */
__kernel void embedding_bag_tables_columns(TABLES_PARAMETERS)
{
    const ulong open_pairs = GATE_IS_CLOSED() ? 0 : T * B; /* the check failed: nothing written */
    const bag_inputs all = INPUTS_OF();
    for (ulong k = get_global_id(1); k < open_pairs; k += get_global_size(1)) {
        const ulong t = k / B, b = k % B;
        const bag_inputs in = table_view(all, meta, t);
        if (get_global_id(0) >= in.D) continue;
        ulong start, end;
        bag_range(&in, k, &start, &end);
        __global table_bits_t *row = out + out_offset + b * out_width + meta[4 * t + META_COLUMN];
        for (ulong c = get_global_id(0); c < in.D; c += get_global_size(0))
            row[c] = reduce_bag_column(&in, start, end, c);
    }
}
