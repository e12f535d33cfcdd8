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
 * number fits 32 bits) in the failure record with atomic_min: the first failing pair in (batch, beam)
 * order. gather_tree_locate then walks that pair again and records what failed, for the message.
 * Every load is in bounds whatever the values: t < T, b < B and beam indices < W.
 *
 * Build options:
 *   TREE_MAX_LOCAL_SIZE  the largest work-group size the host launches with
 *   BITS_T      uchar | ushort | uint | ulong: the element's bits
 *   VALUE_KIND  0 signed integer, 1 unsigned integer, 2 floating point
 *   VALUE_T     for integers the element type (char .. ulong) and AS_VALUE its as_ cast
 *   EXP_BITS, MANT_BITS  for floats the IEEE binary format's exponent and fraction widths (f16 5 and
 *               10, f32 8 and 23, f64 11 and 52)
 *
 * Floats are decoded from their bits with integer operations, never with float arithmetic: GatherTree
 * only copies, compares and converts to integers, so f16 needs no cl_khr_fp16 and f64 no cl_khr_fp64. */

#include "failure_record.h"
#include "hints.h"

typedef BITS_T bits_t;

#if VALUE_KIND == 2
typedef bits_t value_t;
inline value_t value_at(__global const bits_t *p, ulong i) { return p[i]; }

#define SIGN_BIT      ((ulong)1 << (EXP_BITS + MANT_BITS))
#define MAGNITUDE     (SIGN_BIT - 1)
#define INFINITY_BITS ((((ulong)1 << EXP_BITS) - 1) << MANT_BITS) /* above it: NaN */
#define EXP_BIAS      ((1 << (EXP_BITS - 1)) - 1)

/* 1 when the finite magnitude `mag` (a float's bits without the sign) is an integer, and then *n is
 * that integer, or ULONG_MAX from 2^63 on (beyond any T or W, which are below 2^63). Subnormals are
 * below 1 and so not integers. */
inline int magnitude_integer(ulong mag, ulong *n)
{
    *n = 0;
    if (mag == 0) return 1;
    const int e = (int)(mag >> MANT_BITS) - EXP_BIAS; /* an int compared as an int: see sequence_length */
    if (e < 0) return 0;
    if (e >= 63) {
        *n = ULONG_MAX;
        return 1;
    }
    const ulong m = (mag & (((ulong)1 << MANT_BITS) - 1)) | ((ulong)1 << MANT_BITS);
    if (e >= MANT_BITS) {
        *n = m << (e - MANT_BITS); /* below 2^63: e <= 62 */
        return 1;
    }
    const int drop = MANT_BITS - e; /* fraction bits below the binary point */
    if (m & (((ulong)1 << drop) - 1)) return 0;
    *n = m >> drop;
    return 1;
}

/* C's == on the values: NaN equals nothing, -0.0 equals +0.0, else equal values have equal bits. */
inline int values_equal(value_t a, value_t b)
{
    const ulong ma = (ulong)a & MAGNITUDE, mb = (ulong)b & MAGNITUDE;
    return ma <= INFINITY_BITS && mb <= INFINITY_BITS && (a == b || (ma | mb) == 0);
}
#else
typedef VALUE_T value_t;
inline value_t value_at(__global const bits_t *p, ulong i) { return AS_VALUE(p[i]); }
inline int values_equal(value_t a, value_t b) { return a == b; }
#endif

/* L in [0, T], or -1 when a float length is NaN, infinite or has a fraction. */
inline long sequence_length(value_t v, long T)
{
#if VALUE_KIND == 2
    const ulong mag = (ulong)v & MAGNITUDE;
    ulong n;
    if (mag >= INFINITY_BITS || !magnitude_integer(mag, &n)) return -1;
    if ((ulong)v & SIGN_BIT) return 0; /* negative integers and -0.0 */
    return n < (ulong)T ? (long)n : T;
#elif VALUE_KIND == 0
    /* the sign is tested on v, not on (long)v: Mesa rusticl 22.3 miscompiles a signed compare of an
     * int widened to long against a constant (tests/drivers/rusticl_sext_compare) */
    if (v <= (value_t)0) return 0;
    long n = (long)v;
    return n < T ? n : T;
#else
    ulong n = (ulong)v;
    return n < (ulong)T ? (long)n : T;
#endif
}

/* 1 and *k in [0, W) when v is a valid beam index. */
inline int beam_index(value_t v, ulong W, ulong *k)
{
#if VALUE_KIND == 2
    const ulong mag = (ulong)v & MAGNITUDE;
    /* NaN and infinities; a fraction; a negative value (-0.0 is the index 0) */
    if (mag >= INFINITY_BITS || !magnitude_integer(mag, k) || (mag != 0 && ((ulong)v & SIGN_BIT))) return 0;
#elif VALUE_KIND == 0
    if (v < (value_t)0) return 0; /* v, not (long)v: see sequence_length */
    *k = (ulong)(long)v;
#else
    *k = (ulong)v;
#endif
    return *k < W;
}

/* Work-items of a group walk the levels in lockstep: a barrier closes every level, so all of the
 * group's beams finish level t before any starts t - 1. On a CPU runtime, which runs a group's
 * work-items one after another between barriers, this turns a group's serial chains of dependent loads
 * into one chain of independent loads per level. A work-item that is out of range, done or failed keeps
 * reaching the barriers. */
__kernel void gather_tree(__global const bits_t *step_ids, ulong step_ids_offset, __global const bits_t *parent_ids,
                          ulong parent_ids_offset, __global const bits_t *max_seq_len, ulong max_seq_len_offset,
                          __global const bits_t *end_token, ulong end_token_offset, __global bits_t *out,
                          ulong out_offset, long T, ulong B, ulong W, uint shift, volatile __global uint *record)
{
    __local long group_lengths[TREE_MAX_LOCAL_SIZE];
    const ulong pairs = B * W;
    const ulong pair = get_global_id(0);
    step_ids += step_ids_offset;
    parent_ids += parent_ids_offset;
    max_seq_len += max_seq_len_offset;
    end_token += end_token_offset;
    out += out_offset;

    const ulong b = W ? pair / W : 0, batch = b * W; /* W > 0 whenever pair < pairs */
    const bits_t end_bits = end_token[0];
    const value_t end_value = value_at(end_token, 0);
    __global bits_t *beam_out = out + pair; /* time t of this beam is beam_out[t * pairs] */
    long L = 0, first_end = 0;
    int failed = 0;
    value_t parent = (value_t)0;
    if (pair < pairs) {
        L = sequence_length(value_at(max_seq_len, b), T);
        if (L < 0) {
            atomic_min(record, (uint)(pair >> shift));
            failed = 1;
            L = 0;
        } else {
            for (long t = L; t < T; ++t) beam_out[(ulong)t * pairs] = end_bits;
        }
        if (L > 0) { /* the last time: out[L-1] = step[L-1, b, j]; its parent is followed next */
            const ulong at = (ulong)(L - 1) * pairs + pair;
            beam_out[(ulong)(L - 1) * pairs] = step_ids[at];
            first_end = values_equal(value_at(step_ids, at), end_value) ? L - 1 : L;
            parent = value_at(parent_ids, at);
        }
    }

    /* the group's longest sequence bounds the lockstep walk */
    group_lengths[get_local_id(0)] = L;
    barrier(CLK_LOCAL_MEM_FENCE);
    long longest = 0;
    for (size_t i = 0; i < get_local_size(0); ++i) longest = max(longest, group_lengths[i]);

    /* Backtrack levels L-2 .. 0, remembering the earliest time whose value equals end_token. */
    for (long level = longest - 2; level >= 0; --level) {
        if (!failed && level <= L - 2) {
            ulong k;
            if (!beam_index(parent, W, &k)) {
                atomic_min(record, (uint)(pair >> shift));
                failed = 1;
            } else {
                const ulong at = (ulong)level * pairs + batch + k;
                beam_out[(ulong)level * pairs] = step_ids[at];
                if (values_equal(value_at(step_ids, at), end_value)) first_end = level;
                if (level > 0) parent = value_at(parent_ids, at); /* the id read at time 0 is never followed */
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (!failed)
        for (long t = first_end + 1; t < L; ++t) beam_out[(ulong)t * pairs] = end_bits;
}

/* One work-item: if the backtrack flagged a chunk of pairs, walk its pairs in order as the host's
 * rules do and record the first failure: details[0] = 1 for an invalid max_seq_len[b] (details[1] b,
 * [6] its bits), 2 for a followed parent id outside [0, W) (details[1] b, [2] the time t it was read
 * at, [3] the beam k it was read from, [4] the beam j whose backtrack follows it, [5] L, [6] its
 * bits); 0 if the chunk reads back valid (the inputs were written concurrently). */
__kernel void gather_tree_locate(__global const bits_t *parent_ids, ulong parent_ids_offset,
                                 __global const bits_t *max_seq_len, ulong max_seq_len_offset, long T, ulong B, ulong W,
                                 uint shift, volatile __global uint *record)
{
    const uint chunk = record[0];
    if (get_global_id(0) != 0 || chunk == NONE_FAILED) return;
    __global ulong *details = failure_details(record);
    parent_ids += parent_ids_offset;
    max_seq_len += max_seq_len_offset;
    const ulong pairs = B * W, first = (ulong)chunk << shift;
    const ulong end = pairs - first > ((ulong)1 << shift) ? first + ((ulong)1 << shift) : pairs;
    /* (b, j) advance with the pair instead of pair / W and pair % W: LLVM pairs that division and
     * remainder with a freeze instruction, which Oclgrind 21.10's uninitialized-value checker cannot run
     * (tests/drivers/oclgrind_freeze) */
    ulong b = first / W, j = first - b * W;
    for (ulong pair = first; pair < end; ++pair, j = j + 1 == W ? 0 : j + 1, b += j == 0) {
        const long L = sequence_length(value_at(max_seq_len, b), T);
        if (L < 0) {
            details[0] = 1;
            details[1] = b;
            details[6] = (ulong)max_seq_len[b];
            return;
        }
        ulong k = j; /* the beam the path is on at time t */
        for (long t = L - 1; t > 0; --t) {
            const ulong at = (ulong)t * pairs + b * W + k;
            ulong next;
            if (!beam_index(value_at(parent_ids, at), W, &next)) {
                details[0] = 2;
                details[1] = b;
                details[2] = (ulong)t;
                details[3] = k;
                details[4] = j;
                details[5] = (ulong)L;
                details[6] = (ulong)parent_ids[at];
                return;
            }
            k = next;
        }
    }
    details[0] = 0;
}
