/* The table-batched EmbeddingBag over quantized and mixed tables (FBGEMM's inference TBE: f32, f16, bf16,
 * 8-bit and 4-bit rowwise tables in one launch), part of embedding_bag_quantized.cl's programs, so a block
 * family's one program serves the single-table call and this one. Each (table, bag) is reduced piece by
 * piece: a quantized table's pieces by that program's reduce_piece (the single-table call's own, so each
 * bag is reduced as it reduces it), a plain table's by reduce_plain_piece below (the same combine and
 * finish over the values widened to f32). Output row b, columns from the table's first column.
 *
 * The per-table words (host/ops/embedding_bag_quantized/embedding_bag_tables_quantized_launch.c): the
 * check's four a table first (embedding_bag.cl's META_*, META_START the table's first byte), then
 * QMETA_WORDS a table from meta[4 T]. */
#ifndef CLG_EMBEDDING_BAG_TABLES_QUANTIZED_H
#define CLG_EMBEDDING_BAG_TABLES_QUANTIZED_H

#define QMETA_FORMAT          0 /* the ggml format (dequant_piece.h), or 0 for a plain table */
#define QMETA_PLAIN_KIND      1 /* a plain table's type: 0 f32, 1 f16, 2 bf16 */
#define QMETA_UNITS           2 /* U: units a row (ggml blocks; FBGEMM and plain rows: 1) */
#define QMETA_UNIT_VALUES     3 /* the dequantizing gather's bs: 32, 256, or the row's D */
#define QMETA_PIECES_PER_UNIT 4
#define QMETA_WORDS           5

inline __global const ulong *qmeta_of(__global const ulong *meta, ulong T, ulong t)
{
    return meta + 4 * T + QMETA_WORDS * t;
}

/* Table t's rows as the dequantizing gather's unit code reads them: rows of U blocks (ggml), or of one
 * block of D values (FBGEMM), the format an argument. */
inline dequant_params table_params(__global const ulong *meta, ulong T, ulong t)
{
    __global const ulong *w = qmeta_of(meta, T, t);
    dequant_params q;
    q.N = 1;
    q.I = (offset_t)meta[4 * t + META_WIDTH];
    q.U = (offset_t)w[QMETA_UNITS];
    q.nb = q.U;
    q.bs = (offset_t)w[QMETA_UNIT_VALUES];
    q.Qd = q.I;
    q.QN = 1;
    q.P = 1;
    q.W = 1;
    q.zp_row_bytes = 0;
    q.A = (long)meta[4 * t + META_ROWS];
    q.value_bits = 0;
    q.value_signed = 0;
    q.scale_kind = 0;
    q.zp_mode = 0;
    q.zp_constant = 0;
    q.placement = 0;
    q.ggml = (int)w[QMETA_FORMAT];
    q.fast = 1;
    return q;
}

/* Values a plain table's piece holds: wider than a quantized piece, since a plain value needs no stage. */
#define PLAIN_PIECE 32

/* Value e of a plain table of kind 0 f32, 1 f16, 2 bf16, widened exactly. */
inline float plain_value(__global const uchar *table, int kind, ulong e)
{
    if (kind == 0) return as_float(((__global const uint *)table)[e]);
    const uint h = ((__global const ushort *)table)[e];
    return as_float(kind == 1 ? f16_to_f32_bits(h) : h << 16);
}

/* Values k0 .. k0 + count - 1 (count <= PLAIN_PIECE) of the rows of a plain table (D values a row) reduced
 * over bag [start, end) as reduce_piece reduces a quantized piece, into out from element `first`: an
 * empty bag is zeros. */
inline void reduce_plain_piece(const bag_inputs *in, __global const uchar *table, int kind, ulong D, ulong k0,
                               ulong count, ulong start, ulong end, __global uchar *out, ulong first, int out_kind)
{
    float acc[PLAIN_PIECE];
    for (int j = 0; j < PLAIN_PIECE; ++j) acc[j] = in->mode == MODE_MAX ? -INFINITY : 0.0f;
    ulong n = 0;
    for (ulong i = start; i < end; ++i) {
        const long row = bag_row(in, i);
        if (row < 0) continue;
        ++n;
        const ulong e = (ulong)row * D + k0;
        for (ulong j = 0; j < count; ++j) acc[j] = combine(in, acc[j], plain_value(table, kind, e + j), i);
    }
    for (ulong j = 0; j < count; ++j) store_output(out, out_kind, first + j, n ? finish(in, acc[j], n) : 0u);
}

/* Table t as its pieces read it, found once a (table, bag): its bag inputs (N its rows, D the output's row
 * width), unit parameters, first byte, first output column and pieces. */
typedef struct qtable {
    bag_inputs in;
    dequant_params q;
    __global const uchar *table;
    ulong column, width, pieces_per_unit, pieces;
    int format, plain_kind;
} qtable;

inline qtable qtable_of(const bag_inputs *all, __global const ulong *meta, ulong T, ulong t,
                        __global const uchar *tables)
{
    __global const ulong *w = qmeta_of(meta, T, t);
    qtable v;
    v.in = *all;
    v.in.N = meta[4 * t + META_ROWS];
    v.q = table_params(meta, T, t);
    v.table = tables + meta[4 * t + META_START];
    v.column = meta[4 * t + META_COLUMN];
    v.width = meta[4 * t + META_WIDTH];
    v.pieces_per_unit = w[QMETA_PIECES_PER_UNIT];
    v.pieces = v.width ? w[QMETA_UNITS] * v.pieces_per_unit : 0;
    v.format = (int)w[QMETA_FORMAT];
    v.plain_kind = (int)w[QMETA_PLAIN_KIND];
    return v;
}

/* Piece x of the view's bag (indices [start, end)) into output row b; stage the work-item's QBAG_PIECE
 * words. first: the piece that prefetches rows ahead by index (reduce_piece's), within the table. */
inline void reduce_qtable_piece(const qtable *v, ulong b, offset_t x, __global uint *stage, ulong start, ulong end,
                                int first, __global uchar *out, int out_kind)
{
    if (v->format == 0) {
        const ulong k0 = (ulong)x * PLAIN_PIECE;
        if (k0 >= v->width) return;
        reduce_plain_piece(&v->in, v->table, v->plain_kind, v->width, k0, min((ulong)PLAIN_PIECE, v->width - k0), start,
                           end, out, b * v->in.D + v->column + k0, out_kind);
        return;
    }
    piece pc = piece_at(&v->q, x, (offset_t)v->pieces_per_unit);
    if (!pc.count) return;
    pc.column += (offset_t)v->column;
    reduce_piece(&v->q, &v->in, v->table, v->table, v->table, stage, &pc, start, end, first, out, b, out_kind);
}

/* The arguments: the tables buffer, then QBAG_PARAMETERS' bag part (B the bags a table, bags_count
 * T*B (+ 1), offsets form), the output, the per-table words, T, the output's row width, the workers and
 * the most pieces a row has. */
#define QTABLES_PARAMETERS                                                                                         \
    __global const uchar *tables_base, ulong tables_offset, __global const uchar *bag_indices,                     \
        ulong bag_indices_offset, int index_size, int index_signed, __global const uchar *bags, ulong bags_offset, \
        int bags_size, int bags_signed, __global const uint *weights, ulong weights_offset, int has_weights,       \
        __global uchar *out_base, ulong out_offset, ulong B, ulong L, ulong bags_count, int mode, int out_kind,    \
        __global const ulong *meta, ulong T, ulong out_width, ulong workers, ulong max_pieces,                     \
        __global uint *stage_base GATE_PARAMETER

/* The call's bag inputs: N per table (qtable_of), D the output's row width. */
#define QTABLES_INPUTS()                                                                                     \
    inputs_of((__global const uint *)0, 0, bag_indices, bag_indices_offset, index_size, index_signed, bags,  \
              bags_offset, bags_size, bags_signed, weights, weights_offset, has_weights, 0, out_width, L, 0, \
              bags_count, FORM_OFFSETS, mode, -1, -1)

/* *v made table t's view for the runs mapping's walk, unless *viewed says it is already (a run's pairs are
 * table after table, so a view serves up to B pairs). Its L is the end of table t's indices in the
 * table-major stream, so that a prefetch by index ahead never reaches another table's rows. */
inline void view_table(qtable *v, ulong *viewed, const bag_inputs *all, __global const ulong *meta, ulong T, ulong B,
                       ulong t, __global const uchar *tables)
{
    if (*viewed == t) return;
    *v = qtable_of(all, meta, T, t, tables);
    ulong table_start, table_end; /* the last bag of table t ends where table t's indices end */
    bag_range(all, (t + 1) * B - 1, &table_start, &table_end);
    v->in.L = table_end;
    *viewed = t;
}

/* The rows of (table, bag) pair k (at most PREFETCH_MAX_ROWS of them, v its table's view) asked for ahead
 * of their use. */
HOT_INLINE void prefetch_qtable_bag(const qtable *v, ulong k)
{
#if HINT_PREFETCH
    if (v->format != 0) {
        prefetch_bag_rows(&v->q, &v->in, v->table, v->table, v->table, k);
        return;
    }
    const ulong row_bytes = v->width * (v->plain_kind == 0 ? 4 : 2);
    ulong start, end;
    bag_range(&v->in, k, &start, &end);
    end = min(end, start + (ulong)PREFETCH_MAX_ROWS);
    for (ulong i = start; i < end; ++i) {
        const long row = bag_row(&v->in, i);
        if (row < 0) continue;
        prefetch_span(v->table + (ulong)row * row_bytes, row_bytes);
    }
#else
    (void)v, (void)k;
#endif
}

/* Runs mapping (CPUs): `workers` work-items, each walking a run of (table, bag) pairs (walk_of); for each,
 * every piece of the table's row in turn. The rows of the pair QBAG_PREFETCH_AHEAD on in the walk are
 * asked for first (and the walk's first pairs' before it starts), where the tuning says so the pair's
 * own rows all at once (QBAG_PREFETCH_CURRENT), and the first piece prefetches rows
 * QBAG_PREFETCH_ROWS indices ahead as the single-table call does, up to the end of the table's indices
 * (view_table): the stream's rows past it are another table's. */
__kernel void bag_quantized_tables_runs(QTABLES_PARAMETERS)
{
    const int closed = GATE_IS_CLOSED(); /* the check failed: nothing written */
    const ulong w = get_global_id(0);
    if (w >= workers || closed) return;
    const bag_inputs all = QTABLES_INPUTS();
    __global const uchar *tables = tables_base + tables_offset;
    __global uchar *out = out_base + out_offset;
    __global uint *stage = stage_base + w * QBAG_PIECE;
    ulong first, last;
    walk_of(w, workers, T * B, &first, &last);
    qtable v, ahead; /* the views of the pair reduced and of the pair prefetched */
    ulong viewed = ~(ulong)0, ahead_viewed = ~(ulong)0;
    for (ulong k = first; QBAG_PREFETCH_AHEAD && k < last && k - first < QBAG_PREFETCH_AHEAD; ++k) {
        view_table(&ahead, &ahead_viewed, &all, meta, T, B, k / B, tables);
        prefetch_qtable_bag(&ahead, k);
    }
    for (ulong k = first; k < last; ++k) {
        if (QBAG_PREFETCH_AHEAD && last - k > QBAG_PREFETCH_AHEAD) {
            view_table(&ahead, &ahead_viewed, &all, meta, T, B, (k + QBAG_PREFETCH_AHEAD) / B, tables);
            prefetch_qtable_bag(&ahead, k + QBAG_PREFETCH_AHEAD);
        }
        view_table(&v, &viewed, &all, meta, T, B, k / B, tables);
        if (QBAG_PREFETCH_CURRENT) prefetch_qtable_bag(&v, k);
        ulong start, end;
        bag_range(&all, k, &start, &end);
        for (offset_t x = 0; x < (offset_t)v.pieces; ++x)
            reduce_qtable_piece(&v, k % B, x, stage, start, end, x == 0, out, out_kind);
    }
}

/* Adjacent mapping (GPUs): dimension 0 the pieces of the longest row, dimension 1 `workers` rows of
 * work-items walking the (table, bag) pairs with a stride. */
__kernel void bag_quantized_tables_columns(QTABLES_PARAMETERS)
{
    const int closed = GATE_IS_CLOSED(); /* the check failed: nothing written */
    const ulong x = get_global_id(0), w = get_global_id(1);
    if (x >= max_pieces || w >= workers || closed) return;
    const bag_inputs all = QTABLES_INPUTS();
    __global const uchar *tables = tables_base + tables_offset;
    __global uchar *out = out_base + out_offset;
    __global uint *stage = stage_base + (w * max_pieces + x) * QBAG_PIECE;
    for (ulong k = w; k < T * B; k += workers) {
        const qtable v = qtable_of(&all, meta, T, k / B, tables);
        if (x >= v.pieces) continue;
        ulong start, end;
        bag_range(&all, k, &start, &end);
        reduce_qtable_piece(&v, k % B, (offset_t)x, stage, start, end, 0, out, out_kind);
    }
}

#endif /* CLG_EMBEDDING_BAG_TABLES_QUANTIZED_H */
