/* The dequantizing gather, CPU mapping: each work-item walks a run of consecutive units (of all slabs
 * in output order), so a CPU runtime, which runs a work-group's items one after another on one
 * thread, streams through consecutive indices and output. One division pair per work-item finds
 * where its run starts; after that, counters. Output slab r = m*N + n is data slab (m, idx[n]).
 *
 * Build options: those of index_rules.h, hints.h, dequant.h, dequant_piece.h and
 * dequant_kernel_interface.h. */
#include "dequant_kernel_interface.h"
#include "dequant_units.h"
#include "failure_record.h"
#include "hints.h"

ITEM_LOOPS_KERNEL void dequant_runs(DEQUANT_KERNEL_PARAMETERS, offset_t units_per_item GATE_PARAMETER)
{
    /* the host keeps it, and one grid past it, within offset_t; the check failed: none */
    const offset_t total = GATE_IS_CLOSED() ? 0 : R * U;
    DEQUANT_KERNEL_SETUP(q);

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
            if (r + SLAB_PREFETCH_AHEAD < R) { /* slabs ahead in output order: this item's or a later one's */
                offset_t next_n = n + SLAB_PREFETCH_AHEAD, next_m = m;
                for (; next_n >= N; next_n -= N) ++next_m;
                long next_row;
                if (select_row(indices[next_n], A, &next_row)) {
                    const slab next = slab_at(&q, next_m, (offset_t)next_row);
                    prefetch_slab(&q, data, scales, zp, &next);
                }
            }
#endif
            __global out_bits_t *out_slab = out + r * I;
            if (GGML_BLOCKS(&q)) { /* ggml: the run's units of this slab are consecutive blocks */
                const offset_t count = min(U - u, end - t);
                if (selected)
                    GGML_UNIT_RUN(&q, sl.first_value + u, count, data, out_slab + u * GGML_UNIT_VALUES(&q));
                else
                    zero_piece(out_slab, u * GGML_UNIT_VALUES(&q), count * GGML_UNIT_VALUES(&q));
                t += count;
            } else {
                if (q.fast && u == 0 && end - t >= U) { /* the whole slab: no per-unit (p, b) arithmetic */
                    if (selected)
                        dequant_slab_fast(&q, &sl, data, scales, zp, out_slab);
                    else
                        zero_piece(out_slab, 0, I);
                    t += U;
                    u = U;
                }
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
