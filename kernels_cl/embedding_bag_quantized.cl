/* EmbeddingBag over a quantized table: each gathered row's values dequantized to f32 by the dequantizing
 * gather's own unit code (dequant_units.h's dequant_unit_piece, the code both of its mappings run, so
 * that every layout it reads is read here the same way), then reduced as embedding_bag.cl reduces an
 * f32 table (bag_range, bag_row, combine and finish are its), and each output value rounded once to
 * the output type. The checks are embedding_bag.cl's check_bags and locate_bad_bag, built into this
 * program.
 *
 * A work-item owns a piece of a unit of the row (up to QBAG_PIECE columns) for its bags: it reads each
 * gathered piece once, accumulates in registers, and writes each output value once. Where the unit's
 * fields allow (dequant_registers.h, every layout's usual case) the values go straight from the packed
 * bytes into registers, eight at a time, by the unit code's own operations; otherwise the unit code,
 * which stores f32 bits through a __global pointer, dequantizes the piece into the work-item's own
 * QBAG_PIECE words of a stage buffer (which stay in its cache), read back at once. The runs mapping
 * prefetches rows QBAG_PREFETCH_ROWS indices ahead in the flat index stream (and, where the tuning says
 * so, the rows of the bag QBAG_PREFETCH_AHEAD on in the work-item's walk, and those of each bag as its
 * reduction starts).
 *
 * Build options: those of index_rules.h (IDX_T long, OFF64 1: the host's), the block family's of
 * dequant_piece.h (GGML_SUPER, GGML_FBGEMM: the host's clg_gather_quantized_family_option), and
 * embedding_bag.cl's F64_DIVISION; the tuning's QBAG_PIECE, QBAG_LANES, QBAG_PREFETCH_ROWS,
 * QBAG_PREFETCH_AHEAD and QBAG_PREFETCH_CURRENT (per device, as every build's). The layout and its
 * encodings are kernel arguments (dequant_kernel_interface.h), as is the output type: one program for
 * the 32-value ggml blocks, ONNX Runtime's and OpenVINO's layouts, one for ggml's super-blocks, one for
 * FBGEMM's rows. */
#define TABLE_KIND  0
#define BAG_PROGRAM 1 /* hints.h: prefetches at the bag programs' locality */
#ifndef SPEC
#define SPEC 0
#endif
#include "dequant_kernel_interface.h"
#include "dequant_registers.h" /* after dequant_units.h, which the kernel table inlines first */
#include "dequant_units.h"
#include "embedding_bag.cl"

/* The output's element types (the host's out_kind). */
#define QBAG_OUT_F32  0
#define QBAG_OUT_F16  1
#define QBAG_OUT_BF16 2

/* Values of a unit a work-item reduces at once (the tuning's bag_quantized_piece_values, a multiple of
 * 8), accumulated in QBAG_GROUPS vectors of eight. */
#ifndef QBAG_PIECE
#error "QBAG_PIECE is a build option from the host's tuning table"
#endif
#define QBAG_GROUPS (QBAG_PIECE / 8)

/* The tuning's bag_quantized_lanes: 16 sums FBGEMM's 8-bit rows in 16-lane vectors where a piece holds
 * whole 16-value groups (half the vector operations where the hardware has 16 lanes), 8 in the groups of
 * eight every format takes. */
#ifndef QBAG_LANES
#error "QBAG_LANES is a build option from the host's tuning table"
#endif
#define QBAG_WIDE        (GGML_FBGEMM && QBAG_LANES == 16 && QBAG_GROUPS % 2 == 0)
/* FBGEMM's 4-bit rows are summed 2 * QBAG_LANES values a step where a piece holds whole steps: the low
 * and high nibbles of QBAG_LANES bytes in two vectors, each summing the columns of one parity (the same
 * values in the same order for every column), put back in column order once a bag is summed. A step is
 * QBAG_STEP_GROUPS groups of eight. */
#define QBAG_STEP_GROUPS (QBAG_LANES / 4)
#define QBAG_NIBBLES     (GGML_FBGEMM && QBAG_GROUPS % QBAG_STEP_GROUPS == 0)
#if QBAG_LANES == 16
typedef float16 nibble_sums;
#define NIBBLE_STEP fbgemm_4bit_add32
#else
typedef float8 nibble_sums;
#define NIBBLE_STEP fbgemm_4bit_add16
#endif

inline void store_output(__global uchar *out, int out_kind, ulong k, uint bits)
{
    if (out_kind == QBAG_OUT_F32)
        ((__global uint *)out)[k] = bits;
    else
        ((__global ushort *)out)[k] =
            out_kind == QBAG_OUT_F16 ? f32_bits_to_f16_bits(bits) : f32_bits_to_bf16_bits(bits);
}

/* Where one piece's values land: a piece of unit u = (p, b), values k0 .. k0 + count - 1 of the unit,
 * output columns column .. column + count - 1. */
typedef struct piece {
    offset_t u, p, b, k0, count, column;
} piece;

/* combine (embedding_bag.cl) on eight columns at once: the same operations lane by lane, so the same
 * bits. */
HOT_INLINE float8 combine8(const bag_inputs *in, float8 acc, float8 x, ulong i)
{
    if (in->mode == MODE_MAX) return select(acc, x, (isnan(acc) == 0) & (isnan(x) | (x > acc)));
    return in->has_weights ? acc + to_acc(in->weights[i]) * x : acc + x;
}

/* Values k .. k + count - 1 of the piece's unit of row `row` into stage[0 .. count) by the unit code (it
 * writes value k' of the unit at out_unit[k'], so out_unit = stage - k, never addressed below stage).
 * The cold path, out of the loops where the compiler leaves it so. */
inline void stage_values(const dequant_params *q, __global const uchar *data, __global const uchar *scales,
                         __global const uchar *zp, __global uint *stage, const piece *pc, long row, offset_t k,
                         offset_t count)
{
    const slab sl = slab_at(q, 0, (offset_t)row);
    dequant_unit_piece(q, &sl, data, scales, zp, stage - k, pc->u, pc->p, pc->b, k, count);
}

/* The piece's values of row `row` combined, as index i, into acc, any mode and format: groups of eight
 * from registers where the unit's fields allow (dequant_registers.h), else (and for a last group of
 * fewer than eight) through the unit code and the work-item's stage of QBAG_PIECE words. A staged group
 * is read whole: its lanes past the piece hold whatever the stage held, and are never written out.
 * Every acc[g] is addressed by a constant g once the loops unroll, so that acc can stay in registers. */
HOT_INLINE void combine_row_piece(const dequant_params *q, const bag_inputs *in, __global const uchar *data,
                                  __global const uchar *scales, __global const uchar *zp, __global uint *stage,
                                  const piece *pc, long row, ulong i, float8 *acc)
{
    const offset_t groups = pc->count / 8;
    offset_t staged_from = 0; /* the piece's values from this one on go through the stage */
    unit_registers r;
    if (groups > 0) {
        const slab sl = slab_at(q, 0, (offset_t)row);
        if (unit_registers_of(q, q->ggml, &sl, data, scales, zp, pc->u, pc->p, pc->b, &r)) {
#pragma unroll
            for (int g = 0; g < QBAG_GROUPS; ++g) {
                if (g == groups) break; /* a jump out, not a test for each group to come */
                acc[g] = combine8(in, acc[g], unit_values8(q, q->ggml, &r, pc->k0 + 8 * g), i);
            }
            staged_from = 8 * groups;
            if (staged_from == pc->count) return;
        }
    }
    stage_values(q, data, scales, zp, stage, pc, row, pc->k0 + staged_from, pc->count - staged_from);
    __global const uint *staged = stage - staged_from; /* value k0 + 8g of the piece at staged[8g] */
#pragma unroll
    for (int g = 0; g < QBAG_GROUPS; ++g) {
        if (8 * g >= pc->count) break;
        if (8 * g >= staged_from) acc[g] = combine8(in, acc[g], as_float8(vload8(g, staged)), i);
    }
}

/* Prefetch the packed row of index i (if it counts), as embedding_bag.cl's prefetch_row does a float
 * row. format: a block format the caller knows at compile time, whose table rows (U blocks) are
 * block_row_bytes each, worked out once: the same bytes prefetch_slab asks for, without its walk; 0
 * (any layout) takes the walk. */
HOT_INLINE void prefetch_quantized_row(const dequant_params *q, const bag_inputs *in, __global const uchar *data,
                                       __global const uchar *scales, __global const uchar *zp, ulong i,
                                       const int index_size, const int format, ulong block_row_bytes)
{
#if HINT_PREFETCH
    const long row = bag_row_sized(in, i, index_size);
    if (row < 0) return;
    if (format != 0) {
        prefetch_range(data, (ulong)row * block_row_bytes, block_row_bytes);
        return;
    }
    const slab sl = slab_at(q, 0, (offset_t)row);
    prefetch_slab(q, data, scales, zp, &sl);
#else
    (void)q, (void)in, (void)data, (void)scales, (void)zp, (void)i, (void)index_size, (void)format;
    (void)block_row_bytes;
#endif
}

/* Prefetch the row of index i + QBAG_PREFETCH_ROWS while index i is reduced, as embedding_bag.cl's
 * prefetch_index_ahead does for a float table (a distance of its own: a quantized row is fewer lines,
 * reduced in fewer instructions): a work-item's bags are a run of the flat index stream, and the next
 * work-item's run follows on the same thread. Only below in->L, which a table-batched call's
 * view sets to its table's end (never past an i it reduces, as its offsets are checked, but the test
 * holds whatever i is). */
HOT_INLINE void prefetch_quantized_ahead(const dequant_params *q, const bag_inputs *in, __global const uchar *data,
                                         __global const uchar *scales, __global const uchar *zp, ulong i,
                                         const int index_size, const int format, ulong block_row_bytes)
{
#if HINT_PREFETCH
    if (QBAG_PREFETCH_ROWS && i + QBAG_PREFETCH_ROWS < in->L)
        prefetch_quantized_row(q, in, data, scales, zp, i + QBAG_PREFETCH_ROWS, index_size, format, block_row_bytes);
#else
    (void)q, (void)in, (void)data, (void)scales, (void)zp, (void)i, (void)index_size, (void)format;
    (void)block_row_bytes;
#endif
}

/* The piece's values of bag [start, end) combined into acc; returns the entries counted. */
HOT_INLINE ulong combine_rows(const dequant_params *q, const bag_inputs *in, __global const uchar *data,
                              __global const uchar *scales, __global const uchar *zp, __global uint *stage,
                              const piece *pc, ulong start, ulong end, int first, float8 *acc)
{
    ulong n = 0;
    for (ulong i = start; i < end; ++i) {
        if (first) prefetch_quantized_ahead(q, in, data, scales, zp, i, 0, 0, 0);
        const long row = bag_row(in, i);
        if (row < 0) continue;
        ++n;
        combine_row_piece(q, in, data, scales, zp, stage, pc, row, i, acc);
    }
    return n;
}

/* The same for a plain sum (or mean) of a piece of whole groups in a format known at compile time, all
 * in registers: no branch on the format or the mode, and no copy of the unit code; the accumulators are
 * a local array addressed only by constants once the loops unroll, so that they stay in registers. A
 * block format's row addresses come from a stride worked out once (the unit code's slab_at and unit
 * walk, for a table of whole rows of U blocks), and the count is kept in a local, so that nothing is
 * reloaded for each row. `first`: the row's first piece, which prefetches ahead. Returns 0 at the
 * first row whose fields need the unit code (the caller starts over with combine_rows), else 1 with
 * the entries counted in *n. */
HOT_INLINE int combine_rows_in_registers(const dequant_params *q, const int format, const int index_size,
                                         const int known_groups, const bag_inputs *in, __global const uchar *data,
                                         __global const uchar *scales, __global const uchar *zp, const piece *pc,
                                         ulong start, ulong end, int first, float8 *acc, ulong *n)
{
    const offset_t groups = known_groups ? known_groups : pc->count / 8;
    const offset_t k0 = pc->k0;
    const ulong unit_bytes = format != 0 ? GGML_FORMAT_UNIT_BYTES(q, format) : 0;
    const ulong row_bytes = (ulong)q->U * unit_bytes; /* a block format's table row: U blocks */
    __global const uchar *unit_base = data + (ulong)pc->u * unit_bytes;
    float8 a[QBAG_GROUPS];
#pragma unroll
    for (int g = 0; g < QBAG_GROUPS; ++g) a[g] = (float8)(0.0f);
#if QBAG_WIDE
    const int wide = format == GGML_FBGEMM_8BIT && groups % 2 == 0;
    float16 w[QBAG_GROUPS / 2]; /* group pairs 2h, 2h + 1 */
#pragma unroll
    for (int h = 0; h < QBAG_GROUPS / 2; ++h) w[h] = (float16)(0.0f);
#endif
#if QBAG_NIBBLES
    const int nibbles = format == GGML_FBGEMM_4BIT && groups % QBAG_STEP_GROUPS == 0;
    nibble_sums even[QBAG_GROUPS / QBAG_STEP_GROUPS], odd[QBAG_GROUPS / QBAG_STEP_GROUPS]; /* step h's columns */
#pragma unroll
    for (int h = 0; h < QBAG_GROUPS / QBAG_STEP_GROUPS; ++h) even[h] = odd[h] = (nibble_sums)(0.0f);
#endif
    ulong counted = 0;
    for (ulong i = start; i < end; ++i) {
        if (first) prefetch_quantized_ahead(q, in, data, scales, zp, i, index_size, format, row_bytes);
        const long row = bag_row_sized(in, i, index_size);
        if (row < 0) continue;
        ++counted;
        unit_registers r;
        if (format != 0) {
            if (!block_registers_at(q, format, unit_base + (ulong)row * row_bytes, &r)) return 0;
        } else {
            const slab sl = slab_at(q, 0, (offset_t)row);
            if (!unit_registers_of(q, format, &sl, data, scales, zp, pc->u, pc->p, pc->b, &r)) return 0;
        }
#if QBAG_WIDE
        if (wide) {
#pragma unroll
            for (int h = 0; h < QBAG_GROUPS / 2; ++h)
                if (2 * h < groups) w[h] += fbgemm_8bit_values16(r.at, k0 + 16 * h, r.scale, r.offset);
            continue;
        }
#endif
#if QBAG_NIBBLES
        if (nibbles) {
#pragma unroll
            for (int h = 0; h < QBAG_GROUPS / QBAG_STEP_GROUPS; ++h)
                if (QBAG_STEP_GROUPS * h < groups)
                    NIBBLE_STEP(r.at, k0 + 2 * QBAG_LANES * h, r.scale, r.offset, &even[h], &odd[h]);
            continue;
        }
#endif
#pragma unroll
        for (int g = 0; g < QBAG_GROUPS; ++g)
            if (g < groups) a[g] += unit_values8(q, format, &r, k0 + 8 * g);
    }
#if QBAG_WIDE
    if (wide) {
#pragma unroll
        for (int h = 0; h < QBAG_GROUPS / 2; ++h) {
            a[2 * h] = w[h].lo;
            a[2 * h + 1] = w[h].hi;
        }
    }
#endif
#if QBAG_NIBBLES
    if (nibbles) { /* the two parities interleaved back into column order */
#pragma unroll
        for (int h = 0; h < QBAG_GROUPS / QBAG_STEP_GROUPS; ++h) {
            const nibble_sums e = even[h], o = odd[h];
            a[QBAG_STEP_GROUPS * h] = (float8)(e.s0, o.s0, e.s1, o.s1, e.s2, o.s2, e.s3, o.s3);
            a[QBAG_STEP_GROUPS * h + 1] = (float8)(e.s4, o.s4, e.s5, o.s5, e.s6, o.s6, e.s7, o.s7);
#if QBAG_LANES == 16
            a[QBAG_STEP_GROUPS * h + 2] = (float8)(e.s8, o.s8, e.s9, o.s9, e.sa, o.sa, e.sb, o.sb);
            a[QBAG_STEP_GROUPS * h + 3] = (float8)(e.sc, o.sc, e.sd, o.sd, e.se, o.se, e.sf, o.sf);
#endif
        }
    }
#endif
#pragma unroll
    for (int g = 0; g < QBAG_GROUPS; ++g)
        if (g < groups) acc[g] = a[g];
    *n = counted;
    return 1;
}

/* combine_rows_in_registers for each of the program's two register formats: with i64 indices and a
 * whole piece (constants: no switch on the index width, no test for the groups), a piece of half that
 * (a table-batched call's narrower tables, as a row of 64 values under pieces of 128), or any count,
 * which takes a test for each group. */
#define REGISTER_LOOP(name, format, index_size, known_groups)                                                       \
    OWN_FUNCTION int name(const dequant_params *q, const bag_inputs *in, __global const uchar *data,                \
                          __global const uchar *scales, __global const uchar *zp, const piece *pc, ulong start,     \
                          ulong end, int first, float8 *acc, ulong *n)                                              \
    {                                                                                                               \
        return combine_rows_in_registers(q, format, index_size, known_groups, in, data, scales, zp, pc, start, end, \
                                         first, acc, n);                                                            \
    }
REGISTER_LOOP(first_format_whole_i64, REGISTER_FORMAT_FIRST, 8, QBAG_GROUPS)
#if QBAG_GROUPS % 2 == 0
REGISTER_LOOP(first_format_half_i64, REGISTER_FORMAT_FIRST, 8, QBAG_GROUPS / 2)
#endif
REGISTER_LOOP(first_format_any, REGISTER_FORMAT_FIRST, 0, 0)
REGISTER_LOOP(second_format_whole_i64, REGISTER_FORMAT_SECOND, 8, QBAG_GROUPS)
#if QBAG_GROUPS % 2 == 0
REGISTER_LOOP(second_format_half_i64, REGISTER_FORMAT_SECOND, 8, QBAG_GROUPS / 2)
#endif
REGISTER_LOOP(second_format_any, REGISTER_FORMAT_SECOND, 0, 0)

/* acc's groups of the piece set to the mode's starting value (those past the piece neither set nor
 * read). */
HOT_INLINE void start_piece(const bag_inputs *in, const piece *pc, float8 *acc)
{
    const float8 initial = in->mode == MODE_MAX ? (float8)(-INFINITY) : (float8)(0.0f);
#pragma unroll
    for (int g = 0; g < QBAG_GROUPS; ++g) {
        if (8 * g >= pc->count) break;
        acc[g] = initial;
    }
}

/* The piece's values of bag [start, end) reduced into out row `bag`: each value of a gathered row is
 * read once, accumulated in registers in bag order, and each output value written once. A plain sum
 * (or mean) of the usual formats (dequant_registers.h's REGISTER_FORMAT_FIRST and _SECOND) takes a loop
 * of its own; every other case, and a bag with a row that loop cannot take, one shared loop. */
inline void reduce_piece(const dequant_params *q, const bag_inputs *in, __global const uchar *data,
                         __global const uchar *scales, __global const uchar *zp, __global uint *stage, const piece *pc,
                         ulong start, ulong end, int first, __global uchar *out, ulong bag, int out_kind)
{
    float8 acc[QBAG_GROUPS];
    start_piece(in, pc, acc);
    ulong n = 0;
    int done = 0;
    if (in->mode != MODE_MAX && !in->has_weights && pc->count % 8 == 0) {
        const int whole_i64 = in->index_size == 8 && pc->count == QBAG_PIECE;
        const int half_i64 = in->index_size == 8 && 2 * pc->count == QBAG_PIECE;
        if (q->ggml == REGISTER_FORMAT_FIRST && whole_i64)
            done = first_format_whole_i64(q, in, data, scales, zp, pc, start, end, first, acc, &n);
#if QBAG_GROUPS % 2 == 0
        else if (q->ggml == REGISTER_FORMAT_FIRST && half_i64)
            done = first_format_half_i64(q, in, data, scales, zp, pc, start, end, first, acc, &n);
#endif
        else if (q->ggml == REGISTER_FORMAT_FIRST)
            done = first_format_any(q, in, data, scales, zp, pc, start, end, first, acc, &n);
        else if (q->ggml == REGISTER_FORMAT_SECOND && whole_i64)
            done = second_format_whole_i64(q, in, data, scales, zp, pc, start, end, first, acc, &n);
#if QBAG_GROUPS % 2 == 0
        else if (q->ggml == REGISTER_FORMAT_SECOND && half_i64)
            done = second_format_half_i64(q, in, data, scales, zp, pc, start, end, first, acc, &n);
#endif
        else if (q->ggml == REGISTER_FORMAT_SECOND)
            done = second_format_any(q, in, data, scales, zp, pc, start, end, first, acc, &n);
        if (!done) start_piece(in, pc, acc);
    }
    if (!done) n = combine_rows(q, in, data, scales, zp, stage, pc, start, end, first, acc);
    const int default_row = n == 0 && in->default_row >= 0;
    if (default_row) /* an empty bag: the default row, dequantized like any other */
        stage_values(q, data, scales, zp, stage, pc, in->default_row, pc->k0, pc->count);
    const ulong first_out = bag * in->D + pc->column;
#pragma unroll
    for (int g = 0; g < QBAG_GROUPS; ++g) {
        if (8 * g >= pc->count) break;
        if (n && in->mode == MODE_SUM && out_kind == QBAG_OUT_F32 && pc->count - 8 * g >= 8) {
            vstore8(sum_bits8(acc[g]), 0, (__global uint *)out + first_out + 8 * g); /* finish() eight at a time */
            continue;
        }
        float values[8];
        vstore8(acc[g], 0, values);
        for (int j = 0; j < 8 && 8 * g + j < pc->count; ++j) {
            const uint bits = n ? finish(in, values[j], n) : default_row ? stage[8 * g + j] : 0u;
            store_output(out, out_kind, first_out + 8 * g + j, bits);
        }
    }
}

/* The piece x of a row cut into pieces_per_unit pieces a unit; count 0 past the unit's values. */
inline piece piece_at(const dequant_params *q, offset_t x, offset_t pieces_per_unit)
{
    piece pc;
    pc.u = x / pieces_per_unit;
    pc.p = pc.u / q->nb;
    pc.b = pc.u - pc.p * q->nb;
    pc.k0 = (x - pc.u * pieces_per_unit) * QBAG_PIECE;
    const offset_t values = unit_values(q, pc.b);
    pc.count = pc.k0 < values ? min((offset_t)QBAG_PIECE, values - pc.k0) : 0;
    pc.column = unit_start(q, pc.p, pc.b) + pc.k0;
    return pc;
}

/* The bag part of the arguments, after DEQUANT_KERNEL_PARAMETERS (whose indices and out are the bag's
 * indices and output buffers, A the table's rows and I its row's values). */
#define QBAG_PARAMETERS                                                                                        \
    DEQUANT_KERNEL_PARAMETERS, __global const uchar *bag_indices, ulong bag_indices_offset, int index_size,    \
        int index_signed, __global const uchar *bags, ulong bags_offset, int bags_size, int bags_signed,       \
        __global const uint *weights, ulong weights_offset, int has_weights, ulong B, ulong K, ulong L,        \
        ulong bags_count, int form, int mode, long default_row, long padding_row, int out_kind, ulong workers, \
        offset_t pieces_per_unit, __global uint *stage_base GATE_PARAMETER

#define QBAG_INPUTS()                                                                                              \
    inputs_of((__global const uint *)0, 0, bag_indices, bag_indices_offset, index_size, index_signed, bags,        \
              bags_offset, bags_size, bags_signed, weights, weights_offset, has_weights, (ulong)A, (ulong)I, L, K, \
              bags_count, form, mode, default_row, padding_row)

/* The rows of bag `bag` (at most PREFETCH_MAX_ROWS of them) asked for ahead of their use. */
HOT_INLINE void prefetch_bag_rows(const dequant_params *q, const bag_inputs *in, __global const uchar *data,
                                  __global const uchar *scales, __global const uchar *zp, ulong bag)
{
#if HINT_PREFETCH
    ulong start, end;
    bag_range(in, bag, &start, &end);
    end = min(end, start + (ulong)PREFETCH_MAX_ROWS);
    for (ulong i = start; i < end; ++i) prefetch_quantized_row(q, in, data, scales, zp, i, 0, 0, 0);
#else
    (void)q, (void)in, (void)data, (void)scales, (void)zp, (void)bag;
#endif
}

/* The run of `count` items (bags, or a table-batched call's (table, bag) pairs) that work-item w of
 * `workers` walks: [*first, *end), the runs in order, their lengths differing by at most one. */
inline void walk_of(ulong w, ulong workers, ulong count, ulong *first, ulong *end)
{
    const ulong per = count / workers, extra = count % workers;
    *first = w * per + min(w, extra);
    *end = *first + per + (w < extra ? 1 : 0);
}

/* Runs mapping (CPUs): `workers` work-items, each walking a run of bags; for each bag every piece of the
 * row in turn. The runs follow each other in the flat index stream and a group's work-items run one
 * after another on its thread, so the first piece prefetches rows QBAG_PREFETCH_ROWS indices ahead; and,
 * where the tuning says so, the rows of the bag QBAG_PREFETCH_AHEAD on in the walk all at once, and
 * (QBAG_PREFETCH_CURRENT) those of each bag as its reduction starts. */
__kernel void bag_quantized_runs(QBAG_PARAMETERS)
{
    const int closed = GATE_IS_CLOSED(); /* the check failed: nothing written */
    const ulong w = get_global_id(0);
    if (w >= workers || closed) return;
    DEQUANT_KERNEL_SETUP(q);
    (void)out;
    (void)indices;
    const bag_inputs in = QBAG_INPUTS();
    __global uint *stage = stage_base + w * QBAG_PIECE;
    __global uchar *output = out_base + out_offset;
    const offset_t pieces = U * pieces_per_unit;
    ulong first, last;
    walk_of(w, workers, B, &first, &last);
    for (ulong bag = first; QBAG_PREFETCH_AHEAD && bag < last && bag - first < QBAG_PREFETCH_AHEAD; ++bag)
        prefetch_bag_rows(&q, &in, data, scales, zp, bag); /* the walk's first bags */
    for (ulong bag = first; bag < last; ++bag) {
        if (QBAG_PREFETCH_AHEAD && last - bag > QBAG_PREFETCH_AHEAD)
            prefetch_bag_rows(&q, &in, data, scales, zp, bag + QBAG_PREFETCH_AHEAD);
        if (QBAG_PREFETCH_CURRENT) prefetch_bag_rows(&q, &in, data, scales, zp, bag);
        ulong start, end;
        bag_range(&in, bag, &start, &end);
        for (offset_t x = 0; x < pieces; ++x) {
            const piece pc = piece_at(&q, x, pieces_per_unit);
            if (pc.count)
                reduce_piece(&q, &in, data, scales, zp, stage, &pc, start, end, x == 0, output, bag, out_kind);
        }
    }
}

/* Adjacent mapping (GPUs): dimension 0 the pieces of a row (adjacent work-items, adjacent columns),
 * dimension 1 `workers` rows of work-items walking the bags with a stride. */
__kernel void bag_quantized_columns(QBAG_PARAMETERS)
{
    const int closed = GATE_IS_CLOSED(); /* the check failed: nothing written */
    const offset_t x = (offset_t)get_global_id(0);
    const ulong w = get_global_id(1);
    if (x >= U * pieces_per_unit || w >= workers || closed) return;
    DEQUANT_KERNEL_SETUP(q);
    (void)out;
    (void)indices;
    const piece pc = piece_at(&q, x, pieces_per_unit);
    if (!pc.count) return;
    const bag_inputs in = QBAG_INPUTS();
    __global uint *stage = stage_base + (w * (ulong)(U * pieces_per_unit) + x) * QBAG_PIECE;
    __global uchar *output = out_base + out_offset;
    for (ulong bag = w; bag < B; bag += workers) {
        ulong start, end;
        bag_range(&in, bag, &start, &end);
        reduce_piece(&q, &in, data, scales, zp, stage, &pc, start, end, 0, output, bag, out_kind);
    }
}

/* the table-batched call over quantized and mixed tables, in the same programs */
#include "embedding_bag_tables_quantized.h"
