/* The operation abstraction: what one operation of the family (Gather, GatherTree, ...) supplies so
 * that the runner (run.h) can do everything else for it, once for all operations.
 *
 * An operation supplies its plan (validated and flattened by its own plan function, which also
 * fills a clg_run_plan), its CPU reference, its kernel launch, and, where values can make it fail,
 * an error flag: either a check kernel run before the output is written, or a flag its own kernels
 * set while they compute (then the runner has them write a scratch buffer); a locate kernel that
 * details the flagged failure on the device; and a report that names it from those details. */
#ifndef CLG_OPERATION_H
#define CLG_OPERATION_H

#include "core/context.h"

#include <stdbool.h>

/* Inputs and the output of the largest operation. */
#define CLG_MAX_OPERANDS 8

/* The flag value that means "no failure"; any other value is the operation's own record of the
 * first failure (for example a chunk of indices), which its locate kernel then details. */
#define CLG_FLAG_NONE_FAILED 0xFFFFFFFFu
#define CLG_FAILURE_DETAILS  7

/* What a call's device-side check leaves in its 64-byte record buffer (kernels_cl/failure_record.h):
 * the flag, lowered by the check (or by the kernels inline) to the first failing unit, and the
 * details of that failure, written by the operation's locate kernel. */
typedef struct clg_failure_record {
    cl_uint flag;
    cl_uint reserved;
    cl_ulong details[CLG_FAILURE_DETAILS];
} clg_failure_record;

/* A caller's device buffer: a cl_mem and a byte offset into it. */
typedef struct clg_buffer {
    cl_mem mem;
    size_t offset;
} clg_buffer;

/* A caller's host buffer: a pointer and the bytes it holds. */
typedef struct clg_host_buffer {
    const void *ptr;
    size_t bytes;
} clg_host_buffer;

/* One tensor an operation reads or writes. */
typedef struct clg_operand {
    const char *name;      /* as the API names it: "data", "indices", "output", "step_ids", ... */
    uint64_t bytes;        /* the tensor's size */
    clg_dtype offset_type; /* a cl_mem byte offset must be a multiple of this type's size (INVALID: any) */
} clg_operand;

/* How an operation learns that an input value makes the call fail. */
typedef enum clg_flag_mode {
    CLG_FLAG_NO_CHECK = 0, /* no input value can make the call fail */
    CLG_FLAG_CHECK_KERNEL, /* a check kernel records the first failure; the output is written after it */
    CLG_FLAG_INLINE,       /* the launch's kernels record it while they compute (into a scratch output) */
} clg_flag_mode;

struct clg_operation;

/* What the runner reads from an operation's plan. */
typedef struct clg_run_plan {
    const struct clg_operation *op;
    const void *plan; /* the operation's own plan */
    int input_count;
    clg_operand operands[CLG_MAX_OPERANDS]; /* input_count inputs, then the output */
    uint64_t out_elems;                     /* 0: empty work, nothing is read or checked */
    size_t out_elem_size;
    int32_t out_rank;
    const int64_t *out_shape; /* for messages: positions of verify mismatches */
    clg_flag_mode flag_mode;
    /* A scratch output keeps the caller's output offset modulo this, so that the same kernel
     * specialization runs (1: the scratch is used at offset 0). */
    size_t scratch_offset_modulus;
} clg_run_plan;

typedef struct clg_operation {
    size_t plan_size;                /* sizeof the operation's plan: a deferred call keeps a copy */
    const char *scratch_buffer_name; /* names the scratch output in messages */
    /* CLG_ERR_UNSUPPORTED_BY_DEVICE when the device lacks what the plan needs; NULL: any device. */
    clg_status (*device_supports)(const clg_context *ctx, const void *plan);
    /* The CPU reference over host memory (inputs in operand order). On failure output is untouched. */
    clg_status (*reference)(const void *plan, const void *const *inputs, void *output);
    /* CLG_FLAG_CHECK_KERNEL: check inputs already in host memory (the synchronous call), in place of
     * the check kernel; fails naming the first bad value. */
    clg_status (*host_check)(const void *plan, const void *const *inputs);
    /* CLG_FLAG_CHECK_KERNEL: enqueue the check kernel, which lowers the record's flag to its first
     * failure. */
    clg_status (*check)(clg_context *ctx, const void *plan, cl_command_queue queue, const clg_buffer *inputs,
                        cl_mem record, cl_uint num_events, const cl_event *wait_list, cl_event *done);
    /* Enqueue the locate kernel: if the record's flag is set, it writes the failure's details. */
    clg_status (*locate)(clg_context *ctx, const void *plan, cl_command_queue queue, const clg_buffer *inputs,
                         cl_mem record, cl_uint num_events, const cl_event *wait_list, cl_event *done);
    /* Name a recorded failure: its status, with the message naming the first bad value. Host only. */
    clg_status (*report)(const void *plan, const clg_failure_record *record);
    /* Enqueue the kernels writing the output buffers[input_count] (the caller's, or a scratch). record:
     * CLG_FLAG_INLINE, where they lower the flag; otherwise their gate (kernels_cl/failure_record.h):
     * CLG_FLAG_CHECK_KERNEL, the check's record, and they write nothing if its flag is set; with no
     * check, the context's open gate. Never NULL. */
    clg_status (*launch)(clg_context *ctx, const void *plan, cl_command_queue queue, const clg_buffer *buffers,
                         cl_mem record, cl_uint num_events, const cl_event *wait_list, cl_event *done);
} clg_operation;

#endif
