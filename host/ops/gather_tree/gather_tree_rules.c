#include "ops/gather_tree/gather_tree_rules.h"

#include "core/index_value.h"
#include "core/status.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define TWO_POW_52 4503599627370496.0
#define TWO_POW_63 9223372036854775808.0

/* IEEE binary16 to double, exactly, by building the double's bits (no libm, no compiler half type). */
static double half_to_double(uint16_t h)
{
    const unsigned exponent = (h >> 10) & 31u, mantissa = h & 1023u;
    const bool negative = (h >> 15) != 0;
    double d;
    if (exponent == 0) {
        d = (double)mantissa / 16777216.0; /* subnormal or zero: mantissa * 2^-24 */
    } else {
        /* normal numbers rebias the exponent; infinities and NaNs keep an all-ones exponent */
        uint64_t e = exponent == 31 ? 2047u : (uint64_t)exponent - 15 + 1023;
        uint64_t bits = e << 52 | (uint64_t)mantissa << 42;
        memcpy(&d, &bits, sizeof d);
    }
    return negative ? -d : d;
}

clg_tree_value clg_tree_read(const void *base, clg_dtype type, uint64_t pos)
{
    const size_t size = clg_dtype_size(type);
    const uint64_t bits = clg_load_bits((const unsigned char *)base + pos * size, size);
    clg_tree_value v = {CLG_TREE_SIGNED, 0, 0, 0.0};
    switch (type) {
    case CLG_I8:
    case CLG_I16:
    case CLG_I32:
    case CLG_I64: v.s = clg_sign_extend(bits, size); break;
    case CLG_U8:
    case CLG_U16:
    case CLG_U32:
    case CLG_U64:
        v.kind = CLG_TREE_UNSIGNED;
        v.u = bits;
        break;
    case CLG_F16:
        v.kind = CLG_TREE_FLOAT;
        v.f = half_to_double((uint16_t)bits);
        break;
    case CLG_F32: {
        const uint32_t b32 = (uint32_t)bits;
        float f;
        memcpy(&f, &b32, sizeof f);
        v.kind = CLG_TREE_FLOAT;
        v.f = f;
        break;
    }
    case CLG_F64:
        v.kind = CLG_TREE_FLOAT;
        memcpy(&v.f, &bits, sizeof v.f);
        break;
    default: break;
    }
    return v;
}

bool clg_tree_values_equal(clg_tree_value a, clg_tree_value b)
{
    switch (a.kind) {
    case CLG_TREE_SIGNED: return a.s == b.s;
    case CLG_TREE_UNSIGNED: return a.u == b.u;
    default: return a.f == b.f;
    }
}

/* Finite and without a fraction. Every double of magnitude 2^52 or more is an integer. */
static bool finite_integral(double x)
{
    if (x != x || x - x != 0.0) return false; /* NaN, or an infinity (inf - inf is NaN) */
    if (x >= TWO_POW_52 || x <= -TWO_POW_52) return true;
    return (double)(int64_t)x == x;
}

bool clg_tree_sequence_length(clg_tree_value v, uint64_t T, uint64_t *L)
{
    uint64_t n;
    switch (v.kind) {
    case CLG_TREE_SIGNED: n = v.s <= 0 ? 0 : (uint64_t)v.s; break;
    case CLG_TREE_UNSIGNED: n = v.u; break; /* above INT64_MAX is above T: clamps like any other */
    default:
        if (!finite_integral(v.f)) return false;
        n = v.f <= 0.0 ? 0 : v.f >= TWO_POW_63 ? UINT64_MAX : (uint64_t)v.f;
        break;
    }
    *L = n < T ? n : T;
    return true;
}

bool clg_tree_beam_index(clg_tree_value v, uint64_t W, uint64_t *k)
{
    switch (v.kind) {
    case CLG_TREE_SIGNED:
        if (v.s < 0) return false;
        *k = (uint64_t)v.s;
        break;
    case CLG_TREE_UNSIGNED: *k = v.u; break;
    default:
        /* -0.0 is the integer 0 and a valid index */
        if (!finite_integral(v.f) || v.f < 0.0 || v.f >= TWO_POW_63) return false;
        *k = (uint64_t)v.f;
        break;
    }
    return *k < W;
}

void clg_tree_value_format(clg_tree_value v, clg_dtype type, char *buf, size_t size)
{
    switch (v.kind) {
    case CLG_TREE_SIGNED: snprintf(buf, size, "%" PRId64, v.s); break;
    case CLG_TREE_UNSIGNED: snprintf(buf, size, "%" PRIu64, v.u); break;
    default: snprintf(buf, size, "%.*g", type == CLG_F64 ? 17 : type == CLG_F32 ? 9 : 5, v.f); break;
    }
}

/* Which parent ids are followed: the pseudocode reads parent = parent_ids[L-1, b, j] and, at each
 * level L-2 .. 0, uses the parent it holds as an index (step_ids[level, b, parent] and
 * parent_ids[level, b, parent]) before reading the next one. So the ids followed are those read at
 * times L-1 down to 1 along the path; the id read at time 0 is never used as an index, and a beam
 * with L <= 1 follows none. Only followed ids are validated. */
bool clg_gather_tree_find_failure(const clg_gather_tree_plan *plan, const void *seq_len, const void *parents,
                                  uint64_t row_stride, uint64_t b, uint64_t j, clg_tree_failure *failure)
{
    *failure = (clg_tree_failure){.kind = CLG_TREE_INVALID_SEQ_LEN, .b = b, .j = j};
    failure->value = clg_tree_read(seq_len, plan->type, 0);
    if (!clg_tree_sequence_length(failure->value, plan->T, &failure->L)) return true;
    uint64_t k = j; /* the beam the path is on at time t */
    for (uint64_t t = failure->L > 0 ? failure->L - 1 : 0; t > 0; --t) {
        clg_tree_value parent = clg_tree_read(parents, plan->type, t * row_stride + k);
        uint64_t next;
        if (!clg_tree_beam_index(parent, plan->W, &next)) {
            failure->kind = CLG_TREE_INVALID_PARENT;
            failure->t = t;
            failure->k = k;
            failure->value = parent;
            return true;
        }
        k = next;
    }
    return false;
}

clg_status clg_gather_tree_failure_status(const clg_gather_tree_plan *plan, const clg_tree_failure *f)
{
    char value[48];
    clg_tree_value_format(f->value, plan->type, value, sizeof value);
    if (f->kind == CLG_TREE_INVALID_SEQ_LEN)
        return clg_fail(CLG_ERR_INVALID_SEQ_LEN,
                        "max_seq_len[%" PRIu64 "] = %s is not a finite integral value (batch %" PRIu64 ")", f->b, value,
                        f->b);
    return clg_fail(CLG_ERR_INVALID_PARENT,
                    "parent_ids[%" PRIu64 ", %" PRIu64 ", %" PRIu64 "] = %s (time %" PRIu64 ", batch %" PRIu64
                    ", beam %" PRIu64 ") is not a beam index in [0, %" PRIu64 "); the backtrack of beam %" PRIu64
                    " from time %" PRIu64 " follows it",
                    f->t, f->b, f->k, value, f->t, f->b, f->k, plan->W, f->j, f->L - 1);
}

clg_status clg_gather_tree_check_beam(const clg_gather_tree_plan *plan, const void *seq_len, const void *parents,
                                      uint64_t row_stride, uint64_t b, uint64_t j)
{
    clg_tree_failure failure;
    if (!clg_gather_tree_find_failure(plan, seq_len, parents, row_stride, b, j, &failure)) return CLG_SUCCESS;
    return clg_gather_tree_failure_status(plan, &failure);
}
