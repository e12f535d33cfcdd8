/* The dequantizing gather, CPU mapping: each work-item walks a run of consecutive units (of all slabs
 * in output order), so a CPU runtime, which runs a work-group's items one after another on one
 * thread, streams through consecutive indices and output. One division pair per work-item finds
 * where its run starts; after that, counters. Output slab r = m*N + n is data slab (m, idx[n]).
 *
 * Build options: those of index_rules.h, hints.h, failure_record.h, dequant.h and dequant_piece.h;
 * SPEC 1 with SPEC_BITS, SPEC_SIGNED, SPEC_SCALES, SPEC_ZP, SPEC_PLACEMENT, SPEC_GGML, SPEC_FAST: the
 * encodings as constants (the host sets it for the fast form). */
#include "dequant_units.h"
#include "failure_record.h"
#include "hints.h"

ITEM_LOOPS_KERNEL void dequant_runs(__global const uchar *data_base, ulong data_offset, __global const IDX_T *indices,
                                    ulong indices_offset, __global const uchar *scales_base, ulong scales_offset,
                                    __global const uchar *zp_base, ulong zp_offset, __global uchar *out_base,
                                    ulong out_offset, offset_t R, offset_t N, long A, offset_t I, offset_t U,
                                    offset_t nb, offset_t bs, offset_t Qd, offset_t QN, offset_t P, offset_t W,
                                    offset_t zp_row_bytes, int value_bits, int value_signed, int scale_kind,
                                    int zp_mode, int zp_constant, int placement, int ggml, int fast,
                                    offset_t units_per_item GATE_PARAMETER)
{
    if (GATE_IS_CLOSED()) return; /* the check failed: write nothing (uniform) */
    __global const uchar *data = data_base + data_offset;
    __global const uchar *scales = scales_base + scales_offset;
    __global const uchar *zp = zp_base + zp_offset;
    __global out_bits_t *out = (__global out_bits_t *)(out_base + out_offset);
    indices += indices_offset;
#if !SPEC
    const dequant_params q = {
        N,          I,       U,           nb,        bs,   Qd,  QN, P, W, zp_row_bytes, A, value_bits, value_signed,
        scale_kind, zp_mode, zp_constant, placement, ggml, fast};
#else /* the fast form: encodings fixed at build time (the arguments carry the same values) */
    const dequant_params q = {N,
                              I,
                              U,
                              nb,
                              bs,
                              Qd,
                              QN,
                              P,
                              W,
                              zp_row_bytes,
                              A,
                              SPEC_BITS,
                              SPEC_SIGNED,
                              SPEC_SCALES,
                              SPEC_ZP,
                              zp_constant,
                              SPEC_PLACEMENT,
                              SPEC_GGML,
                              SPEC_FAST};
#endif

    const offset_t total = R * U; /* the host keeps it, and one grid past it, within offset_t */
    offset_t t = (offset_t)get_global_id(0) * units_per_item;
    if (t < total) { /* no early return: the group fence needs every item */
        const offset_t end = total - t > units_per_item ? t + units_per_item : total;
        offset_t r = t / U, u = t - r * U;
        offset_t m = r / N, n = r - m * N;
        offset_t p = u / nb, b = u - p * nb;
        while (t < end) {
            long row;
            const int selected = select_row(indices[n], A, &row);
            const slab sl = selected ? slab_at(&q, m, (offset_t)row) : (slab){0, 0, 0};
#if HINT_PREFETCH
            if (r + SLAB_PREFETCH_AHEAD < R) { /* a slab ahead in output order: this item's or a later one's */
                offset_t next_n = n + SLAB_PREFETCH_AHEAD, next_m = m;
                for (; next_n >= N; next_n -= N) ++next_m;
                long next_row;
                if (select_row(indices[next_n], A, &next_row)) {
                    const slab next = slab_at(&q, next_m, (offset_t)next_row);
                    prefetch_slab(&q, data, scales, &next);
                }
            }
#endif
            __global out_bits_t *out_slab = out + r * I;
            for (; u < U && t < end; ++u, ++t) {
                __global out_bits_t *out_unit = out_slab + unit_start(&q, p, b);
                const offset_t count = unit_values(&q, b);
                if (selected)
                    dequant_unit_piece(&q, &sl, data, scales, zp, out_unit, u, p, b, 0, count);
                else
                    zero_piece(out_unit, 0, count);
                if (++b == nb) {
                    b = 0;
                    ++p;
                }
            }
            u = p = b = 0;
            ++r;
            if (++n == N) {
                n = 0;
                ++m;
            }
        }
    }
    STREAM_GROUP_FENCE();
}
