/* The index rules every gather kernel shares: the one-wrap rule and the out-of-range policies.
 * Included (and inlined at build time, see cmake/kernel_table.cmake) by the kernels that read indices.
 *
 * Build options it reads:
 *   IDX_T       char | uchar | short | ushort | int | uint | long | ulong
 *   IDX_BYTES   size of IDX_T in bytes
 *   IDX_SIGNED  1 for a signed index type
 *   OFF64       1: offsets in 64 bits (ulong); 0: the host proved every offset fits in 32 bits
 *   CLAMP       1: clamp out-of-range indices to [0, A-1]; 0: out of range selects zeros
 *
 * Safety: a kernel uses an index only through these functions, which check it against [-A, A)
 * whatever the policy, so no index value can move a read outside the data tensor. */
#ifndef CLG_INDEX_RULES_H
#define CLG_INDEX_RULES_H

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
    /* the sign is tested on raw, not on v: Mesa rusticl 22.3 miscompiles a signed compare of an int
     * widened to long against a constant (tests/drivers/rusticl_sext_compare) */
    if (raw < (IDX_T)0) v += A; /* cannot overflow: v >= LONG_MIN, A >= 0 */
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
        *row = (raw < (IDX_T)0) ? 0 : A - 1; /* raw, not (long)raw: see index_in_range */
#else
        *row = A - 1;
#endif
        return 1;
    }
#endif
    return 0;
}

/* select_row in 32-bit arithmetic, for vectorized loops: valid when the host proved 32-bit offsets
 * (then 0 <= A < 2^31) and the index type has at most 4 bytes. Half the vector lanes of the 64-bit
 * form; both the signed wrap and the clamp stay exact. */
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

#endif /* CLG_INDEX_RULES_H */
