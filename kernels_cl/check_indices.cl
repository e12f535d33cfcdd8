/* The error policy on the device: find the first chunk of indices holding an out-of-range value.
 * The host then reads that chunk back and names the exact position and value.
 *
 * Build options: IDX_T, IDX_BYTES, IDX_SIGNED, OFF64 (see index_rules.h); CLAMP is 0. */
#include "index_rules.h"

/* One work-item scans per_item consecutive indices; work-item k owns chunk k. */
__kernel void check_indices(__global const IDX_T *indices, ulong indices_offset, offset_t count, long A,
                            offset_t per_item, volatile __global uint *first_bad_chunk)
{
    indices += indices_offset;
    const offset_t chunk = (offset_t)get_global_id(0);
    offset_t p = chunk * per_item;
    if (p >= count) return;
    offset_t end = (count - p > per_item) ? p + per_item : count;
    for (; p < end; ++p) {
        long row;
        if (!index_in_range(indices[p], A, &row)) {
            atomic_min(first_bad_chunk, (uint)chunk);
            return;
        }
    }
}
