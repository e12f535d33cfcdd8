/* Gather as row copies over the flattened plan [B, O, A, N, I].
 *
 * Output row r (of R = B*O*N rows) is data row g*A + idx(bb, n), where g = r / N = bb*O + o and
 * n = r % N. A row is U units of MOVE_T; the host picks the widest unit (64, 32, 16, 8, 4, 2 or 1 bytes
 * on the CPU mapping, at most 16 on the GPU one) that divides the row's bytes and the data and output
 * byte offsets, so element types do not matter here.
 *
 * Build options:
 *   MOVE_T      uint16 | uint8 | uint4 | uint2 | uint | ushort | uchar
 *   IDX_T       char | uchar | short | ushort | int | uint | long | ulong
 *   IDX_BYTES   size of IDX_T in bytes
 *   IDX_SIGNED  1 for a signed index type
 *   OFF64       1: offsets in 64 bits (ulong); 0: the host proved every offset fits in 32 bits
 *   CLAMP       1: clamp out-of-range indices to [0, A-1]; 0: write zeros
 *   STREAM      1: write whole-row output with non-temporal stores (CPU mapping, outputs larger than
 *               the cache): no read-for-ownership of output lines, no eviction of the data rows
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

/* Cache hints for the CPU mapping. Clang-based compilers (PoCL, Intel's CPU runtime) have
 * __builtin_prefetch; elsewhere the hint compiles to nothing. A prefetch never faults, but we only
 * ever prefetch rows that an in-range index selects. */
#if defined(__has_builtin)
#if __has_builtin(__builtin_prefetch)
#define PREFETCH(p) __builtin_prefetch((const __global void *)(p), 0, 3)
#endif
#endif
#ifndef PREFETCH
#define PREFETCH(p) ((void)0)
#endif
#define CACHE_LINE 64u

/* Output stores. Streaming stores are weakly ordered on x86: an sfence must follow them so that they
 * are visible before the work-group's completion is. CPU runtimes (PoCL's CPU devices, Intel's) run
 * all work-items of a group on one thread, so one sfence after the group's barrier orders every
 * streaming store the group made. One fence per work-item cost 17% on 3 KiB rows (a fence per row;
 * natively on Zen 5, bench/RESULTS.md): each sfence waits for the write-combining buffers to drain.
 * Without the builtins (other compilers, other targets) they are ordinary stores and there is no
 * barrier. Kernels using STREAM_GROUP_FENCE must let every work-item reach it (no early return). */
#if STREAM && defined(__has_builtin)
#if __has_builtin(__builtin_nontemporal_store) && __has_builtin(__builtin_ia32_sfence)
#define STORE_UNIT(p, v) __builtin_nontemporal_store((v), (p))
#define STREAM_GROUP_FENCE()                                                                               \
    do {                                                                                                   \
        barrier(CLK_GLOBAL_MEM_FENCE);                                                                     \
        if (get_local_id(0) == 0) __builtin_ia32_sfence();                                                 \
    } while (0)
#endif
#endif
#ifndef STORE_UNIT
#define STORE_UNIT(p, v) (*(p) = (v))
#define STREAM_GROUP_FENCE() ((void)0)
#endif
/* Rows shorter than PREFETCH_HEAD_FROM_ROW_BYTES are prefetched whole, this many bytes of rows ahead
 * (at most 64 rows). Paired A/B on PoCL: on Zen 3, 2 KiB ahead beat 1 KiB by about 3% on batched and
 * middle-axis, and 4 KiB was level with 2 KiB; on Zen 5, 4 KiB beat 2 KiB by 10-21% on middle-axis's
 * 128-byte rows and 3-6% on batched's 1 KiB rows (bench/RESULTS.md). */
#define PREFETCH_AHEAD_BYTES 4096u
#define PREFETCH_MAX_ROWS 64u
/* Of a row at least PREFETCH_HEAD_FROM_ROW_BYTES long only the head is prefetched, one row ahead: once
 * its reads begin the hardware prefetcher streams the rest. Paired A/B on PoCL (Zen 3): 3-10% faster
 * on 3 and 8 KiB rows in five of six sets; on 1 KiB rows it cost 15% (too short for the hardware to
 * ramp up). Natively on Zen 5 the head beat the whole row by 8-15% on the embeddings. */
#define PREFETCH_HEAD_FROM_ROW_BYTES 2048u
#define PREFETCH_HEAD_BYTES 256u

/* Prefetch the first prefetch_bytes (<= row_bytes) of the row that idx[ahead] selects, if it is in
 * range. Byte sizes are 64-bit: the 32-bit offsets the host may prove count move units, not bytes. */
inline void prefetch_row(__global const uchar *restrict src, __global const IDX_T *restrict idx, offset_t ahead,
                         long A, ulong row_bytes, uint prefetch_bytes)
{
    long row;
    if (index_in_range(idx[ahead], A, &row)) {
        __global const uchar *p = src + (ulong)row * row_bytes;
        for (uint b = 0; b < prefetch_bytes; b += CACHE_LINE) PREFETCH(p + b);
    }
}

/* CPU mapping: each work-item copies a contiguous run of whole rows. One division per work-item
 * finds where the run starts; the run is then walked segment by segment, a segment being the rows
 * of one (bb, o) group, so the inner loop over rows has a fixed source base and consecutive
 * indices, and no per-row counter updates. `avail` (>= count) is how many indices of the group are
 * left from idx on: rows past this work-item's run may be prefetched (the next work-item of the
 * group, which runs next on the same core, copies them). */
inline void copy_segment(__global MOVE_T *restrict dst, __global const MOVE_T *restrict src,
                         __global const IDX_T *restrict idx, offset_t count, offset_t avail, long A, offset_t U)
{
    const ulong row_bytes = (ulong)U * sizeof(MOVE_T);
    const int long_row = row_bytes >= PREFETCH_HEAD_FROM_ROW_BYTES;
    offset_t ahead = long_row ? 1 : PREFETCH_AHEAD_BYTES / (uint)row_bytes;
    if (ahead > PREFETCH_MAX_ROWS) ahead = PREFETCH_MAX_ROWS;
    const uint prefetch_bytes = long_row ? PREFETCH_HEAD_BYTES : (uint)row_bytes;
    for (offset_t k = 0; k < count; ++k) {
        long row;
        if (avail - k > ahead) prefetch_row((__global const uchar *)src, idx, k + ahead, A, row_bytes, prefetch_bytes);
        __global MOVE_T *restrict d = dst + k * U;
        if (select_row(idx[k], A, &row)) {
            __global const MOVE_T *restrict s = src + (offset_t)row * U;
            for (offset_t u = 0; u < U; ++u) STORE_UNIT(d + u, s[u]);
        } else {
            for (offset_t u = 0; u < U; ++u) STORE_UNIT(d + u, (MOVE_T)(0));
        }
    }
}

/* select_row in 32-bit arithmetic, for the vectorized one-unit loop: valid when the host proved
 * 32-bit offsets (then 0 <= A < 2^31) and the index type has at most 4 bytes. Half the vector lanes
 * of the 64-bit form. */
#if !OFF64 && IDX_BYTES <= 4
#define HAVE_SELECT_ROW32 1
inline int select_row32(IDX_T raw, uint A, uint *row)
{
#if IDX_SIGNED
    int v = (int)raw;
    uint w = (uint)v + (v < 0 ? A : 0u); /* A + v for negative v: in [0, A) iff v >= -A */
    const int ok = w < A;
#if CLAMP
    *row = ok ? w : (v < 0 ? 0u : A - 1u);
    return A > 0;
#else
    *row = w;
    return ok;
#endif
#else
    uint w = (uint)raw;
    const int ok = w < A;
#if CLAMP
    *row = ok ? w : A - 1u;
    return A > 0;
#else
    *row = w;
    return ok;
#endif
#endif
}
#endif

/* Rows of exactly one unit (the last axis, or any row the host moves as one MOVE_T): branch-free so
 * the compiler can vectorize across rows. Needs A > 0 so that row 0 exists; the caller checks.
 * A group's data (A units) that fits in L2 is prefetched in order before it is used, so the random
 * reads inside it hit the cache; larger groups are prefetched row by row, U1_AHEAD rows ahead
 * (measured on random 64-byte rows: 32 rows beat 16 by 5-10%, 64 beat 32 by about 5%, 128 gained
 * nothing more). */
#define GROUP_PREFETCH_BYTES 65536u
#define U1_AHEAD 64u

/* Where the unit of row k comes from: *ok is 0 for a row of zeros (then unit 0, which exists, is
 * read and discarded, so the loop stays branch-free). Returns the unit's offset, not the unit, so
 * that no function passes a wide vector by value (an ABI change the compiler warns about). */
inline offset_t unit_source(__global const IDX_T *restrict idx, offset_t k, long A, int *ok)
{
#ifdef HAVE_SELECT_ROW32
    uint row;
    *ok = select_row32(idx[k], (uint)A, &row);
    return *ok ? row : 0u;
#else
    long row;
    *ok = select_row(idx[k], A, &row);
    return *ok ? (offset_t)row : (offset_t)0;
#endif
}

inline void copy_units(__global MOVE_T *restrict dst, __global const MOVE_T *restrict src,
                       __global const IDX_T *restrict idx, offset_t count, offset_t avail, long A, int prefetch_ahead)
{
    for (offset_t k = 0; k < count; ++k) {
        /* the unit that row k + U1_AHEAD selects, while that row is still in this group */
        if (prefetch_ahead && avail - k > U1_AHEAD)
            prefetch_row((__global const uchar *)src, idx, k + U1_AHEAD, A, sizeof(MOVE_T), sizeof(MOVE_T));
        int ok;
        const MOVE_T v = src[unit_source(idx, k, A, &ok)];
        STORE_UNIT(dst + k, ok ? v : (MOVE_T)(0));
    }
}

/* Groups that fit in L2 (the last axis of a small row): the rows of the next group are prefetched
 * in order while this one is gathered, a slice proportional to this segment's share of the group
 * and spread over its rows, so each line is asked for once and the requests never come in a burst.
 * The first work-item of a work-group also fetches its own group: the one before it on this core
 * worked elsewhere. */
#define SPREAD_CHUNK 64u
inline void copy_segment_u1_grouped(__global MOVE_T *restrict dst, __global const MOVE_T *restrict src,
                                    __global const IDX_T *restrict idx, offset_t count, offset_t n, offset_t N,
                                    long A, int fetch_own, int has_next)
{
    __global const uchar *own = (__global const uchar *)src;
    const ulong group_lines = ((ulong)A * sizeof(MOVE_T) + CACHE_LINE - 1) / CACHE_LINE;
    if (fetch_own)
        for (ulong b = (ulong)n * group_lines / N; b < group_lines; ++b) PREFETCH(own + b * CACHE_LINE);
    /* the next group's lines [first, last) are this segment's share */
    __global const uchar *next = own + (ulong)A * sizeof(MOVE_T);
    const ulong first = has_next ? (ulong)n * group_lines / N : 0;
    const ulong last = has_next ? (ulong)(n + count) * group_lines / N : 0;
    ulong line = first;
    for (offset_t k = 0; k < count; k += SPREAD_CHUNK) {
        const offset_t todo = count - k < SPREAD_CHUNK ? count - k : SPREAD_CHUNK;
        const ulong due = first + (last - first) * (ulong)(k + todo) / count;
        for (; line < due; ++line) PREFETCH(next + line * CACHE_LINE);
        copy_units(dst + k, src, idx + k, todo, todo, A, 0);
    }
}

inline void copy_segment_u1(__global MOVE_T *restrict dst, __global const MOVE_T *restrict src,
                            __global const IDX_T *restrict idx, offset_t count, offset_t n, offset_t N, long A,
                            int first, int has_next)
{
    if ((ulong)A * sizeof(MOVE_T) <= GROUP_PREFETCH_BYTES)
        copy_segment_u1_grouped(dst, src, idx, count, n, N, A, first && get_local_id(0) == 0, has_next);
    else
        copy_units(dst, src, idx, count, N - n, A, 1);
}

#define ROW_RUNS_BODY(SEGMENT_CALL)                                                                        \
    __global const MOVE_T *data = (__global const MOVE_T *)(data_base + data_offset);                      \
    __global MOVE_T *out = (__global MOVE_T *)(out_base + out_offset);                                     \
    indices += indices_offset;                                                                             \
    /* the host guarantees (global size) * rows_per_item fits offset_t */                                  \
    offset_t r = (offset_t)get_global_id(0) * rows_per_item;                                               \
    if (r < R) { /* no early return: the group fence after this needs every work-item */                   \
        const offset_t first_r = r;                                                                        \
        (void)first_r;                                                                                     \
        const offset_t end = (R - r > rows_per_item) ? r + rows_per_item : R;                              \
        offset_t g = r / N, n = r - g * N;                                                                 \
        offset_t bb = g / O, o = g - bb * O;                                                               \
        while (r < end) {                                                                                  \
            const offset_t count = (end - r < N - n) ? end - r : N - n;                                    \
            SEGMENT_CALL;                                                                                  \
            r += count;                                                                                    \
            n = 0;                                                                                         \
            ++g;                                                                                           \
            if (++o == O) {                                                                                \
                o = 0;                                                                                     \
                ++bb;                                                                                      \
            }                                                                                              \
        }                                                                                                  \
    }

__kernel void gather_row_runs(__global const uchar *data_base, ulong data_offset, __global const IDX_T *indices,
                              ulong indices_offset, __global uchar *out_base, ulong out_offset, offset_t R,
                              offset_t N, offset_t O, long A, offset_t U, offset_t rows_per_item)
{
    ROW_RUNS_BODY(copy_segment(out + r * U, data + g * (offset_t)A * U, indices + bb * N + n, count, N - n, A, U))
    STREAM_GROUP_FENCE();
}

/* The same for rows of one unit (U == 1). */
__kernel void gather_row_runs_u1(__global const uchar *data_base, ulong data_offset, __global const IDX_T *indices,
                                 ulong indices_offset, __global uchar *out_base, ulong out_offset, offset_t R,
                                 offset_t N, offset_t O, long A, offset_t U, offset_t rows_per_item)
{
    (void)U;
    if (A <= 0) { /* every index is out of range: zeros (clamp gives zeros too when A == 0) */
        offset_t r = (offset_t)get_global_id(0) * rows_per_item;
        if (r >= R) return;
        const offset_t end = (R - r > rows_per_item) ? r + rows_per_item : R;
        __global MOVE_T *out = (__global MOVE_T *)(out_base + out_offset);
        for (; r < end; ++r) out[r] = (MOVE_T)(0);
        return;
    }
    ROW_RUNS_BODY(copy_segment_u1(out + r, data + g * (offset_t)A, indices + bb * N + n, count, n, N, A, r == first_r, R - r > N - n))
    STREAM_GROUP_FENCE();
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
