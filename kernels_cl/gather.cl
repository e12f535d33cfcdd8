/* Gather as row copies over the flattened plan [B, O, A, N, I].
 *
 * Output row r (of R = B*O*N rows) is data row g*A + idx(bb, n), where g = r / N = bb*O + o and
 * n = r % N. A row is U units of MOVE_T; the host picks the widest unit (16, 8, 4, 2 or 1 bytes) that
 * divides the row's bytes and the data and output byte offsets, so element types do not matter here.
 *
 * Build options:
 *   MOVE_T      uint4 | uint2 | uint | ushort | uchar
 *   IDX_T       char | uchar | short | ushort | int | uint | long | ulong
 *   IDX_SIGNED  1 for a signed index type
 *   OFF64       1: offsets in 64 bits (ulong); 0: the host proved every offset fits in 32 bits
 *   CLAMP       1: clamp out-of-range indices to [0, A-1]; 0: write zeros
 *
 * Safety: every index is checked against [-A, A) before it is used, whatever the policy, so no value
 * can move a read outside the data tensor; rows are written only below R and units only below U. */

#if OFF64
typedef ulong offset_t;
#else
typedef uint offset_t;
#endif

/* The one-wrap rule: a negative index i means A + i. Returns 1 with *row in [0, A) if in range. */
inline int index_in_range(IDX_T raw, long A, long *row)
{
#if IDX_SIGNED
    long v = (long)raw;
    if (v < 0) v += A; /* cannot overflow: v >= LONG_MIN, A >= 0 */
    *row = v;
    return v >= 0 && v < A;
#else
    ulong u = (ulong)raw;
    *row = (long)u;
    return u < (ulong)A;
#endif
}

/* The row an index selects under the policy; 0 means "write zeros". */
inline int select_row(IDX_T raw, long A, long *row)
{
    if (index_in_range(raw, A, row)) return 1;
#if CLAMP
    if (A > 0) {
#if IDX_SIGNED
        *row = ((long)raw < 0) ? 0 : A - 1;
#else
        *row = A - 1;
#endif
        return 1;
    }
#endif
    return 0;
}

inline void copy_row(__global MOVE_T *restrict dst, __global const MOVE_T *restrict src, offset_t U)
{
    for (offset_t u = 0; u < U; ++u) dst[u] = src[u];
}

inline void zero_row(__global MOVE_T *restrict dst, offset_t U)
{
    for (offset_t u = 0; u < U; ++u) dst[u] = (MOVE_T)(0);
}

/* CPU mapping: each work-item copies a contiguous run of whole rows, stepping (bb, o, n) by
 * increments, so there is one division per work-item, not one per element. */
__kernel void gather_row_runs(__global const uchar *data_base, ulong data_offset, __global const IDX_T *indices,
                              ulong indices_offset, __global uchar *out_base, ulong out_offset, offset_t R,
                              offset_t N, offset_t O, long A, offset_t U, offset_t rows_per_item)
{
    __global const MOVE_T *data = (__global const MOVE_T *)(data_base + data_offset);
    __global MOVE_T *out = (__global MOVE_T *)(out_base + out_offset);
    indices += indices_offset;

    /* the host guarantees (global size) * rows_per_item fits offset_t */
    offset_t r = (offset_t)get_global_id(0) * rows_per_item;
    if (r >= R) return;
    offset_t end = (R - r > rows_per_item) ? r + rows_per_item : R;
    offset_t g = r / N, n = r - g * N;
    offset_t bb = g / O, o = g - bb * O;
    for (; r < end; ++r) {
        long row;
        __global MOVE_T *dst = out + r * U;
        if (select_row(indices[bb * N + n], A, &row))
            copy_row(dst, data + ((offset_t)g * (offset_t)A + (offset_t)row) * U, U);
        else
            zero_row(dst, U);
        if (++n == N) {
            n = 0;
            ++g;
            if (++o == O) {
                o = 0;
                ++bb;
            }
        }
    }
}

/* GPU mapping: dimension 0 walks the units of a row (adjacent work-items touch adjacent memory),
 * dimension 1 walks rows with a grid stride so the NDRange stays small whatever R is. */
__kernel void gather_row_units(__global const uchar *data_base, ulong data_offset, __global const IDX_T *indices,
                               ulong indices_offset, __global uchar *out_base, ulong out_offset, offset_t R,
                               offset_t N, offset_t O, long A, offset_t U)
{
    __global const MOVE_T *data = (__global const MOVE_T *)(data_base + data_offset);
    __global MOVE_T *out = (__global MOVE_T *)(out_base + out_offset);
    indices += indices_offset;

    const offset_t u0 = (offset_t)get_global_id(0), du = (offset_t)get_global_size(0);
    const offset_t dr = (offset_t)get_global_size(1);
    if (u0 >= U) return;
    for (offset_t r = (offset_t)get_global_id(1); r < R; r += dr) {
        offset_t g = r / N, n = r - g * N;
        offset_t bb = g / O;
        long row;
        __global MOVE_T *dst = out + r * U;
        if (select_row(indices[bb * N + n], A, &row)) {
            __global const MOVE_T *src = data + ((offset_t)g * (offset_t)A + (offset_t)row) * U;
            for (offset_t u = u0; u < U; u += du) dst[u] = src[u];
        } else {
            for (offset_t u = u0; u < U; u += du) dst[u] = (MOVE_T)(0);
        }
        if (R - r <= dr) break; /* r + dr would wrap around offset_t */
    }
}

/* Error policy: find the first chunk of indices holding an out-of-range value. The host then reads
 * that chunk back and names the exact position and value. */
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
