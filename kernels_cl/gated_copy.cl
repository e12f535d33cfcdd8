/* The last step of a deferred call whose kernels wrote a scratch output (GatherTree): copy it into
 * the caller's output only if the failure record says the inputs were valid, so a failed call leaves
 * the output untouched without the host waiting in between.
 *
 * Build options: MOVE_T (uint4 | uint2 | uint | ushort | uchar), the widest unit dividing both byte
 * offsets and the size. */
#include "failure_record.h"
#include "hints.h"

__kernel void gated_copy(__global const uchar *src_base, ulong src_offset, __global uchar *dst_base, ulong dst_offset,
                         ulong units, __global const uint *record)
{
    const ulong open_units = record[0] != NONE_FAILED ? 0 : units; /* folded, not a branch: failure_record.h */
    __global const MOVE_T *src = (__global const MOVE_T *)(src_base + src_offset);
    __global MOVE_T *dst = (__global MOVE_T *)(dst_base + dst_offset);
    const ulong stride = get_global_size(0);
    for (ulong u = get_global_id(0); u < open_units; u += stride) dst[u] = src[u];
}
