/* The error policy on the device: check_indices finds the first chunk of indices holding an
 * out-of-range value; locate_bad_index then records that chunk's first bad index, position and
 * value, which the host turns into the message (at once, or later for a deferred call).
 *
 * The indices are read as tuples of TUPLE components, component j checked against extent j: flat
 * indices (Gather, GatherElements) are tuples of one against the axis length, GatherND's index tuples
 * are checked each component against its own data extent. Chunks count tuples.
 *
 * Build options: IDX_T, IDX_BYTES, IDX_SIGNED, OFF64 (see index_rules.h; CLAMP is 0), TUPLE (1..8). */
#include "failure_record.h"
#include "hints.h"
#include "index_rules.h"

/* The first component of tuple t out of range for its extent, or TUPLE if none is. */
inline int first_bad_component(__global const IDX_T *indices, offset_t t, const long *extent)
{
    for (int j = 0; j < TUPLE; ++j) {
        long row;
        if (!index_in_range(indices[t * TUPLE + j], extent[j], &row)) return j;
    }
    return TUPLE;
}

/* CPU mapping: one work-item scans per_item consecutive tuples; work-item k owns chunk k. */
__kernel void check_indices(__global const IDX_T *indices, ulong indices_offset, offset_t count, long8 extents,
                            offset_t per_item, volatile __global uint *record)
{
    indices += indices_offset;
    const long *extent = (const long *)&extents; /* by address: a wide vector by value changes the ABI */
    const offset_t chunk = (offset_t)get_global_id(0);
    offset_t p = chunk * per_item;
    if (p >= count) return;
    offset_t end = (count - p > per_item) ? p + per_item : count;
    for (; p < end; ++p) {
        if (first_bad_component(indices, p, extent) < TUPLE) {
            atomic_min(record, (uint)chunk);
            return;
        }
    }
}

/* GPU mapping: adjacent work-items read adjacent tuples (coalesced), with a grid stride; each stops
 * at its first bad tuple, which is its lowest, so the flag still ends at the first chunk holding one. */
__kernel void check_indices_strided(__global const IDX_T *indices, ulong indices_offset, offset_t count, long8 extents,
                                    offset_t per_item, volatile __global uint *record)
{
    indices += indices_offset;
    const long *extent = (const long *)&extents;
    const offset_t stride = (offset_t)get_global_size(0);
    for (offset_t p = (offset_t)get_global_id(0); p < count; p += stride) {
        if (first_bad_component(indices, p, extent) < TUPLE) {
            atomic_min(record, (uint)(p / per_item));
            return;
        }
        if (count - p <= stride) return; /* p + stride would wrap around offset_t */
    }
}

/* One work-item: if a chunk was flagged, record its first bad index. details[0] = 1, [1] the flat
 * position of the index element, [2] its value (sign-extended for signed types); details[0] = 0 if the
 * chunk reads back clean (the indices were written concurrently). */
__kernel void locate_bad_index(__global const IDX_T *indices, ulong indices_offset, offset_t count, long8 extents,
                               offset_t per_item, volatile __global uint *record)
{
    const uint chunk = record[0];
    if (get_global_id(0) != 0 || chunk == NONE_FAILED) return;
    __global ulong *details = failure_details(record);
    indices += indices_offset;
    const long *extent = (const long *)&extents;
    offset_t p = (offset_t)chunk * per_item;
    const offset_t end = (count - p > per_item) ? p + per_item : count;
    for (; p < end; ++p) {
        const int j = first_bad_component(indices, p, extent);
        if (j < TUPLE) {
            const offset_t position = p * TUPLE + (offset_t)j;
            details[0] = 1;
            details[1] = (ulong)position;
#if IDX_SIGNED
            details[2] = (ulong)(long)indices[position];
#else
            details[2] = (ulong)indices[position];
#endif
            return;
        }
    }
    details[0] = 0;
}
