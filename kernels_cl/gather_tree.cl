/* GatherTree-1: one work-item per (batch, beam) pair walks time serially.
 *
 * Tensors are [T, B, W] (row-major): element (t, b, j) lies at t*B*W + b*W + j. Each work-item
 *   1. decodes L = min(T, max_seq_len[b]) (0 for lengths <= 0);
 *   2. writes end_token at times L .. T-1;
 *   3. backtracks as the spec's pseudocode: out[L-1] = step[L-1, b, j]; parent = parent[L-1, b, j];
 *      then for level L-2 .. 0: out[level] = step[level, b, parent]; parent = parent[level, b, parent];
 *   4. within t < L, writes end_token after the first time whose value equals end_token.
 * Elements move as raw bits (bits_t), so NaN payloads and -0.0 are kept; values are only decoded to
 * compare with end_token and to use as lengths or beam indices.
 *
 * A followed parent id outside [0, W) (or a float length that is not a finite integral value) stops
 * the work-item before that id is used, and records the pair (shifted right by `shift`, so that the
 * number fits 32 bits) with atomic_min: the host learns the first failing pair in (batch, beam)
 * order. Every load is in bounds whatever the values: t < T, b < B and beam indices < W.
 *
 * Build options:
 *   BITS_T      uchar | ushort | uint | ulong: the element's bits
 *   VALUE_KIND  0 signed integer, 1 unsigned integer, 2 floating point
 *   ELEM_HALF   1 for f16: values are read with vload_half (core OpenCL, no half arithmetic needed)
 *   VALUE_T     otherwise the element type (char .. ulong, float, double) and AS_VALUE its as_ cast
 *   NEEDS_FP64  1 for f64 */

#if NEEDS_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

typedef BITS_T bits_t;

#if ELEM_HALF
typedef float value_t;
inline value_t value_at(__global const bits_t *p, ulong i) { return vload_half(i, (__global const half *)p); }
#else
typedef VALUE_T value_t;
inline value_t value_at(__global const bits_t *p, ulong i) { return AS_VALUE(p[i]); }
#endif

/* 2^62: every float at or above it is far beyond any T or W (both below 2^63) */
#define HUGE_INTEGRAL ((value_t)4611686018427387904.0f)

/* L in [0, T], or -1 when a float length is NaN, infinite or has a fraction. */
inline long sequence_length(value_t v, long T)
{
#if VALUE_KIND == 2
    if (isnan(v) || isinf(v) || v != trunc(v)) return -1;
    if (v <= (value_t)0) return 0;
    if (v >= HUGE_INTEGRAL) return T;
    long n = (long)v;
    return n < T ? n : T;
#elif VALUE_KIND == 0
    long n = (long)v;
    return n <= 0 ? 0 : (n < T ? n : T);
#else
    ulong n = (ulong)v;
    return n < (ulong)T ? (long)n : T;
#endif
}

/* 1 and *k in [0, W) when v is a valid beam index. */
inline int beam_index(value_t v, ulong W, ulong *k)
{
#if VALUE_KIND == 2
    /* !(v >= 0) catches NaN; the bound catches infinities before the conversion */
    if (!(v >= (value_t)0) || v >= HUGE_INTEGRAL || v != trunc(v)) return 0;
    *k = (ulong)v;
#elif VALUE_KIND == 0
    if ((long)v < 0) return 0;
    *k = (ulong)(long)v;
#else
    *k = (ulong)v;
#endif
    return *k < W;
}

__kernel void gather_tree(__global const bits_t *step_ids, ulong step_ids_offset, __global const bits_t *parent_ids,
                          ulong parent_ids_offset, __global const bits_t *max_seq_len, ulong max_seq_len_offset,
                          __global const bits_t *end_token, ulong end_token_offset, __global bits_t *out, long T,
                          ulong B, ulong W, uint shift, volatile __global uint *first_failure)
{
    const ulong pairs = B * W;
    const ulong pair = get_global_id(0);
    if (pair >= pairs) return;
    step_ids += step_ids_offset;
    parent_ids += parent_ids_offset;
    max_seq_len += max_seq_len_offset;
    end_token += end_token_offset;

    const ulong b = pair / W, j = pair - b * W, batch = b * W;
    const bits_t end_bits = end_token[0];
    const value_t end_value = value_at(end_token, 0);
    const long L = sequence_length(value_at(max_seq_len, b), T);
    if (L < 0) {
        atomic_min(first_failure, (uint)(pair >> shift));
        return;
    }
    __global bits_t *beam_out = out + pair; /* time t of this beam is beam_out[t * pairs] */
    for (long t = L; t < T; ++t) beam_out[(ulong)t * pairs] = end_bits;
    if (L == 0) return;

    /* Backtrack, remembering the earliest time whose value equals end_token. */
    ulong at = (ulong)(L - 1) * pairs + pair;
    beam_out[(ulong)(L - 1) * pairs] = step_ids[at];
    long first_end = value_at(step_ids, at) == end_value ? L - 1 : L;
    value_t parent = value_at(parent_ids, at);
    for (long level = L - 2; level >= 0; --level) {
        ulong k;
        if (!beam_index(parent, W, &k)) {
            atomic_min(first_failure, (uint)(pair >> shift));
            return;
        }
        at = (ulong)level * pairs + batch + k;
        beam_out[(ulong)level * pairs] = step_ids[at];
        if (value_at(step_ids, at) == end_value) first_end = level;
        if (level > 0) parent = value_at(parent_ids, at); /* the id read at time 0 is never followed */
    }
    for (long t = first_end + 1; t < L; ++t) beam_out[(ulong)t * pairs] = end_bits;
}
