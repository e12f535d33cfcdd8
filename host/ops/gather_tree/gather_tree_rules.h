/* What GatherTree's input values mean, decided once on the host (docs/semantics.md, GatherTree):
 * reading elements of any of its types exactly, max_seq_len as a length in [0, T], parent ids as
 * beam indices, equality with end_token, and naming the first invalid input a beam's backtrack
 * meets. The CPU reference and the OpenCL path's failure report both use these; the OpenCL kernel
 * implements the same rules on its own (kernels_cl/gather_tree.cl). */
#ifndef CLG_GATHER_TREE_RULES_H
#define CLG_GATHER_TREE_RULES_H

#include "ops/gather_tree/gather_tree_plan.h"

#include <stdbool.h>

typedef enum clg_tree_kind { CLG_TREE_SIGNED, CLG_TREE_UNSIGNED, CLG_TREE_FLOAT } clg_tree_kind;

/* One element, kept exactly: f16 and f32 widen to double without rounding. */
typedef struct clg_tree_value {
    clg_tree_kind kind;
    int64_t s;  /* CLG_TREE_SIGNED */
    uint64_t u; /* CLG_TREE_UNSIGNED */
    double f;   /* CLG_TREE_FLOAT */
} clg_tree_value;

/* Element pos of a tensor of a GatherTree type at base (need not be aligned). */
clg_tree_value clg_tree_read(const void *base, clg_dtype type, uint64_t pos);

/* Equality in the input type: exact for integers, C == for floats (-0.0 equals 0.0, NaN equals
 * nothing, so a NaN end_token never ends a beam). */
bool clg_tree_values_equal(clg_tree_value a, clg_tree_value b);

/* The beam length L = min(T, max_seq_len[b]) in [0, T] (0 for zero or negative lengths). false when
 * a float length is not a finite integral value (NaN, an infinity, a fraction). */
bool clg_tree_sequence_length(clg_tree_value v, uint64_t T, uint64_t *L);

/* A parent id as a beam index: true and *k in [0, W) when v is an integral value in that range. */
bool clg_tree_beam_index(clg_tree_value v, uint64_t W, uint64_t *k);

/* The value as text ("-1", "18446744073709551615", "1.5", "nan"). */
void clg_tree_value_format(clg_tree_value v, clg_dtype type, char *buf, size_t size);

/* What makes a beam's backtrack fail. */
typedef enum clg_tree_failure_kind { CLG_TREE_INVALID_SEQ_LEN = 1, CLG_TREE_INVALID_PARENT = 2 } clg_tree_failure_kind;

typedef struct clg_tree_failure {
    clg_tree_failure_kind kind;
    uint64_t b;           /* batch */
    uint64_t t, k;        /* CLG_TREE_INVALID_PARENT: parent_ids[t, b, k] is the bad id */
    uint64_t j, L;        /* the beam whose backtrack follows it, and its length */
    clg_tree_value value; /* the bad max_seq_len[b] or parent id */
} clg_tree_failure;

/* Follow the backtrack of beam j of batch b without writing anything: true, with *failure, if it
 * meets an invalid input (max_seq_len[b] first, then the first followed parent id outside [0, W),
 * walking back). seq_len points at max_seq_len[b]; parents at parent_ids[0, b, 0], time rows
 * row_stride elements apart (only rows 1 .. L-1 are read). */
bool clg_gather_tree_find_failure(const clg_gather_tree_plan *plan, const void *seq_len, const void *parents,
                                  uint64_t row_stride, uint64_t b, uint64_t j, clg_tree_failure *failure);

/* The status and message that name a failure: CLG_ERR_INVALID_SEQ_LEN or CLG_ERR_INVALID_PARENT. */
clg_status clg_gather_tree_failure_status(const clg_gather_tree_plan *plan, const clg_tree_failure *failure);

/* clg_gather_tree_find_failure, then its status; CLG_SUCCESS when the beam's inputs are valid. */
clg_status clg_gather_tree_check_beam(const clg_gather_tree_plan *plan, const void *seq_len, const void *parents,
                                      uint64_t row_stride, uint64_t b, uint64_t j);

#endif
