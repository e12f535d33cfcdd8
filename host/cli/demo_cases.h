/* The worked examples of the five specifications, as data for "clgather demo". */
#ifndef CLI_DEMO_CASES_H
#define CLI_DEMO_CASES_H

#include "clgather.h"

#include <stddef.h>

#define DEMO_PRESET(p) (1u << (unsigned)(p))

typedef struct demo_gather_case {
    const char *spec;  /* the specification file under docs/specs */
    const char *title; /* which example */
    unsigned presets;  /* DEMO_PRESET bits: every preset the example is run under */
    clg_dtype data_type;
    int32_t data_rank;
    int64_t data_shape[CLG_MAX_RANK];
    const double *data_values; /* NULL: generated 1, 2, 3, ... */
    clg_dtype index_type;
    int32_t index_rank;
    int64_t index_shape[CLG_MAX_RANK];
    const int64_t *index_values; /* NULL: generated pseudo-randomly within [0, data.shape[axis]) */
    int64_t axis;
    int64_t batch_dims;
    int32_t out_rank; /* the output shape the spec states (or the shape table's rule gives) */
    int64_t out_shape[CLG_MAX_OUTPUT_RANK];
    const double *expected; /* the output values the spec gives; NULL where it gives none */
} demo_gather_case;

extern const demo_gather_case demo_gather_cases[];
extern const size_t demo_gather_case_count;

/* GatherTree-1: the spec gives only a shape example; the demo adds a small hand-checked case. */
typedef struct demo_gather_tree_case {
    const char *spec;
    const char *title;
    int64_t time, batch, beam; /* [T, B, W] */
    const double *step_ids;    /* NULL: generated */
    const double *parent_ids;  /* NULL: generated within [0, W) */
    const double *max_seq_len; /* [B] */
    double end_token;
    const double *expected; /* NULL where there is no hand-checked answer */
} demo_gather_tree_case;

extern const demo_gather_tree_case demo_gather_tree_cases[];
extern const size_t demo_gather_tree_case_count;

#endif
