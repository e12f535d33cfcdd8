#include "ops/embedding_bag/embedding_bag_check.h"

#include "core/index_value.h"
#include "core/launch.h"
#include "core/status.h"
#include "ops/embedding_bag/embedding_bag_launch.h"
#include "ops/embedding_bag/embedding_bag_values.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Positions the checks read: the bag structure's values, then the indices. */
static uint64_t checked_positions(const clg_embedding_bag_plan *p) { return p->bags_count + p->L; }

/* The failure at bag-structure position `pos`, clamped values as the kernel sees them. */
clg_bag_failure clg_bag_judge(const clg_embedding_bag_plan *p, const void *const *inputs, uint64_t pos)
{
    const int64_t v = clg_bag_read_int(inputs[2], p->bags_type, pos);
    const int64_t prev = pos > 0 ? clg_bag_read_int(inputs[2], p->bags_type, pos - 1) : 0;
    if (p->form == CLG_BAG_OFFSETS) {
        if (v < 0 || (uint64_t)v > p->L) return CLG_BAG_OFFSET_OUT_OF_RANGE;
        if (pos == 0 && p->offsets_start_at_zero && v != 0) return CLG_BAG_OFFSET_NOT_ZERO;
        if (pos > 0 && v < prev) return CLG_BAG_OFFSET_DECREASES;
        return p->offsets_end_at_count && pos + 1 == p->bags_count && (uint64_t)v != p->L ? CLG_BAG_OFFSET_NOT_END
                                                                                          : CLG_BAG_VALID;
    }
    if (v < 0 || (uint64_t)v >= p->B) return CLG_BAG_SEGMENT_OUT_OF_RANGE;
    return pos > 0 && v < prev ? CLG_BAG_SEGMENT_DECREASES : CLG_BAG_VALID;
}

/* The message and status of a failure at checked position pos, with the value there and the one
 * before it in the same tensor. */
static clg_status failure_status(const clg_embedding_bag_plan *p, clg_bag_failure failure, uint64_t pos,
                                 clg_integer value, clg_integer prev)
{
    char v[32], w[32];
    clg_integer_format(value, v, sizeof v);
    clg_integer_format(prev, w, sizeof w);
    const char *name = p->bags_name;
    switch (failure) {
    case CLG_BAG_OFFSET_OUT_OF_RANGE:
        return clg_fail(CLG_ERR_INVALID_OFFSETS,
                        "offsets[%" PRIu64 "] = %s is outside [0, %" PRIu64 "] (the number of indices)", pos, v, p->L);
    case CLG_BAG_OFFSET_NOT_ZERO:
        return clg_fail(CLG_ERR_INVALID_OFFSETS, "offsets[0] = %s: preset %s needs the first offset to be 0", v,
                        clg_embedding_bag_preset_name(p->preset));
    case CLG_BAG_OFFSET_DECREASES:
    case CLG_BAG_SEGMENT_DECREASES:
        return clg_fail(failure == CLG_BAG_OFFSET_DECREASES ? CLG_ERR_INVALID_OFFSETS : CLG_ERR_INVALID_SEGMENT_IDS,
                        "%s[%" PRIu64 "] = %s is less than %s[%" PRIu64 "] = %s: they must not decrease", name, pos, v,
                        name, pos - 1, w);
    case CLG_BAG_SEGMENT_OUT_OF_RANGE:
        return clg_fail(CLG_ERR_INVALID_SEGMENT_IDS,
                        "segment_ids[%" PRIu64 "] = %s is outside [0, %" PRIu64 ") (num_segments)", pos, v, p->B);
    case CLG_BAG_INDEX_OUT_OF_RANGE: {
        const uint64_t i = pos - p->bags_count;
        char where[64];
        if (p->form == CLG_BAG_PACKED)
            snprintf(where, sizeof where, "[%" PRIu64 ", %" PRIu64 "]", i / p->K, i % p->K);
        else
            snprintf(where, sizeof where, "[%" PRIu64 "]", i);
        return clg_fail(CLG_ERR_INDEX_OUT_OF_RANGE, "indices%s = %s is outside [0, %" PRIu64 ") (table.shape[0])",
                        where, v, p->N);
    }
    default: return clg_fail(CLG_ERR_INTERNAL, "EmbeddingBag check: failure kind %d", (int)failure);
    }
}

/* Bag-structure values of type T in `bags`, each in [0, hi] and none less than the one before it: the
 * judge's rules for both forms (offsets: hi = L; segment ids: hi = B - 1) but the first and last offset's,
 * in one loop without a branch on each value. */
#define STRUCTURE_IN_ORDER(T)                                 \
    do {                                                      \
        const unsigned char *at = bags;                       \
        T prev;                                               \
        memcpy(&prev, at, sizeof prev);                       \
        unsigned bad = 0;                                     \
        for (uint64_t pos = 0; pos < count; ++pos) {          \
            T v;                                              \
            memcpy(&v, at + pos * sizeof v, sizeof v);        \
            bad |= (v < 0) | ((uint64_t)v > hi) | (v < prev); \
            prev = v;                                         \
        }                                                     \
        return !bad;                                          \
    } while (0)

bool clg_bag_structure_surely_valid(const clg_embedding_bag_plan *p, const void *bags)
{
    const uint64_t count = p->bags_count;
    if (count == 0) return true;
    if (p->form == CLG_BAG_OFFSETS) {
        const int64_t first = clg_bag_read_int(bags, p->bags_type, 0),
                      last = clg_bag_read_int(bags, p->bags_type, count - 1);
        if (p->offsets_start_at_zero && first != 0) return false;
        if (p->offsets_end_at_count && (uint64_t)last != p->L) return false;
    } else if (p->B == 0) {
        return false;
    }
    const uint64_t hi = p->form == CLG_BAG_OFFSETS ? p->L : p->B - 1;
    switch (p->bags_type) {
    case CLG_I64: STRUCTURE_IN_ORDER(int64_t);
    case CLG_I32: STRUCTURE_IN_ORDER(int32_t);
    default: return false;
    }
}

uint64_t clg_bag_first_structure_failure(const clg_embedding_bag_plan *p, const void *const *inputs,
                                         clg_bag_failure *failure)
{
    if (clg_bag_structure_surely_valid(p, inputs[2])) return p->bags_count;
    for (uint64_t pos = 0; pos < p->bags_count; ++pos) {
        *failure = clg_bag_judge(p, inputs, pos);
        if (*failure != CLG_BAG_VALID) return pos;
    }
    return p->bags_count;
}

clg_status clg_embedding_bag_host_check(const void *plan, const void *const *inputs)
{
    const clg_embedding_bag_plan *p = plan;
    clg_bag_failure failure = CLG_BAG_VALID;
    const uint64_t pos = clg_bag_first_structure_failure(p, inputs, &failure); /* the bag structure first */
    if (pos < p->bags_count) {
        const clg_integer value = clg_read_integer(inputs[2], p->bags_type, pos);
        const clg_integer prev = pos > 0 ? clg_read_integer(inputs[2], p->bags_type, pos - 1) : value;
        return failure_status(p, failure, pos, value, prev);
    }
    const uint64_t i = clg_bag_first_index_outside(inputs[1], p->index_type, 0, p->L, p->N); /* the judge's rule */
    if (i == p->L) return CLG_SUCCESS;
    const clg_integer value = clg_read_integer(inputs[1], p->index_type, i);
    return failure_status(p, CLG_BAG_INDEX_OUT_OF_RANGE, p->bags_count + i, value, value);
}

/* Positions a check work-item scans: the tuning's, doubled until the chunk number fits the 32-bit flag. */
static uint64_t per_item(const clg_context *ctx, const clg_embedding_bag_plan *p)
{
    uint64_t per = ctx->tuning.check_per_item ? ctx->tuning.check_per_item : 1;
    while ((checked_positions(p) + per - 1) / per >= CLG_FLAG_NONE_FAILED) per *= 2;
    return per;
}

static clg_status float_program(clg_context *ctx, const void *plan, const char *name, clg_kernel_lease *lease)
{
    return clg_embedding_bag_borrow(ctx, plan, name, lease);
}

/* Check kernel `name` of the program `program` lends for program_plan. */
static clg_status enqueue_check_kernel(clg_context *ctx, const clg_embedding_bag_plan *p, clg_bag_program program,
                                       const void *program_plan, const char *name, cl_command_queue queue,
                                       const clg_buffer *inputs, cl_mem record, cl_mem meta, uint64_t T,
                                       cl_uint num_events, const cl_event *wait_list, cl_event *done)
{
    const uint64_t per = per_item(ctx, p), chunks = (checked_positions(p) + per - 1) / per;
    const uint64_t items = strcmp(name, "check_bags") == 0 && chunks ? chunks : 1;
    clg_kernel_lease lease;
    clg_status st = program(ctx, program_plan, name, &lease);
    if (st != CLG_SUCCESS) return st;
    const cl_ulong index_offset = inputs[1].offset / p->index_size;
    const cl_ulong bags_offset = p->bags_size ? inputs[2].offset / p->bags_size : 0;
    const cl_ulong count = p->bags_count, L = p->L, N = p->N, B = p->B, tables = T;
    const cl_int last_ends = p->offsets_end_at_count;
    const cl_int index_size = (cl_int)p->index_size, index_signed = clg_dtype_is_signed_integer(p->index_type);
    const cl_int bags_size = (cl_int)p->bags_size, bags_signed = clg_dtype_is_signed_integer(p->bags_type);
    const cl_int form = (cl_int)p->form, start_at_zero = p->offsets_start_at_zero;
    const cl_mem bags = p->bags_size ? inputs[2].mem : NULL;
    cl_kernel k = lease.kernel;
    cl_int err = clSetKernelArg(k, 0, sizeof(cl_mem), &inputs[1].mem);
    err |= clSetKernelArg(k, 1, sizeof index_offset, &index_offset);
    err |= clSetKernelArg(k, 2, sizeof index_size, &index_size);
    err |= clSetKernelArg(k, 3, sizeof index_signed, &index_signed);
    err |= clSetKernelArg(k, 4, sizeof(cl_mem), &bags);
    err |= clSetKernelArg(k, 5, sizeof bags_offset, &bags_offset);
    err |= clSetKernelArg(k, 6, sizeof bags_size, &bags_size);
    err |= clSetKernelArg(k, 7, sizeof bags_signed, &bags_signed);
    err |= clSetKernelArg(k, 8, sizeof count, &count);
    err |= clSetKernelArg(k, 9, sizeof L, &L);
    err |= clSetKernelArg(k, 10, sizeof N, &N);
    err |= clSetKernelArg(k, 11, sizeof B, &B);
    err |= clSetKernelArg(k, 12, sizeof form, &form);
    err |= clSetKernelArg(k, 13, sizeof start_at_zero, &start_at_zero);
    err |= clSetKernelArg(k, 14, sizeof per, &per);
    err |= clSetKernelArg(k, 15, sizeof(cl_mem), &record);
    err |= clSetKernelArg(k, 16, sizeof(cl_mem), &meta);
    err |= clSetKernelArg(k, 17, sizeof tables, &tables);
    err |= clSetKernelArg(k, 18, sizeof last_ends, &last_ends);
    if (err != CL_SUCCESS) {
        clg_kernel_return(ctx->programs, &lease);
        return clg_fail_cl(err, "clSetKernelArg (embedding bag check)");
    }
    const size_t local = items > 1 ? ctx->tuning.check_local_size : 1;
    st = clg_launch(ctx, queue, &lease, name, 1, &items, &local, num_events, wait_list, done);
    clg_kernel_return(ctx->programs, &lease);
    return st;
}

clg_status clg_embedding_bag_enqueue_check(clg_context *ctx, const clg_embedding_bag_plan *p, const char *name,
                                           cl_command_queue queue, const clg_buffer *inputs, cl_mem record, cl_mem meta,
                                           uint64_t T, cl_uint num_events, const cl_event *wait_list, cl_event *done)
{
    return enqueue_check_kernel(ctx, p, float_program, p, name, queue, inputs, record, meta, T, num_events, wait_list,
                                done);
}

clg_status clg_embedding_bag_check_in(clg_context *ctx, const clg_embedding_bag_plan *p, clg_bag_program program,
                                      const void *program_plan, int locate, cl_command_queue queue,
                                      const clg_buffer *inputs, cl_mem record, cl_uint num_events,
                                      const cl_event *wait_list, cl_event *done)
{
    return enqueue_check_kernel(ctx, p, program, program_plan, locate ? "locate_bad_bag" : "check_bags", queue, inputs,
                                record, NULL, 0, num_events, wait_list, done);
}

clg_status clg_embedding_bag_check_tables_in(clg_context *ctx, const clg_embedding_bag_plan *p, clg_bag_program program,
                                             const void *program_plan, int locate, cl_command_queue queue,
                                             const clg_buffer *inputs, cl_mem record, cl_mem meta, uint64_t T,
                                             cl_uint num_events, const cl_event *wait_list, cl_event *done)
{
    return enqueue_check_kernel(ctx, p, program, program_plan, locate ? "locate_bad_bag" : "check_bags", queue, inputs,
                                record, meta, T, num_events, wait_list, done);
}

clg_status clg_embedding_bag_check_enqueue(clg_context *ctx, const void *plan, cl_command_queue queue,
                                           const clg_buffer *inputs, cl_mem record, cl_uint num_events,
                                           const cl_event *wait_list, cl_event *done)
{
    return clg_embedding_bag_enqueue_check(ctx, plan, "check_bags", queue, inputs, record, NULL, 0, num_events,
                                           wait_list, done);
}

clg_status clg_embedding_bag_locate_enqueue(clg_context *ctx, const void *plan, cl_command_queue queue,
                                            const clg_buffer *inputs, cl_mem record, cl_uint num_events,
                                            const cl_event *wait_list, cl_event *done)
{
    return clg_embedding_bag_enqueue_check(ctx, plan, "locate_bad_bag", queue, inputs, record, NULL, 0, num_events,
                                           wait_list, done);
}

/* A recorded value's bits (sign-extended for signed types) as the exact integer. */
static clg_integer recorded(cl_ulong bits, clg_dtype type)
{
    if (clg_dtype_is_signed_integer(type)) return (clg_integer){.is_unsigned = false, .s = (int64_t)bits};
    return (clg_integer){.is_unsigned = true, .u = bits};
}

clg_status clg_embedding_bag_report(const void *plan, const clg_failure_record *record)
{
    const clg_embedding_bag_plan *p = plan;
    const cl_ulong *d = record->details;
    const clg_bag_failure failure = (clg_bag_failure)d[0];
    if (failure == CLG_BAG_VALID || failure >= CLG_BAG_OFFSET_NOT_END)
        return clg_fail(CLG_ERR_INDEX_OUT_OF_RANGE,
                        "the EmbeddingBag check flagged the positions from %" PRIu64
                        " on, but they read back valid (were the inputs written concurrently?)",
                        (uint64_t)record->flag * (d[4] ? d[4] : 1));
    const clg_dtype type = failure == CLG_BAG_INDEX_OUT_OF_RANGE ? p->index_type : p->bags_type;
    return failure_status(p, failure, d[1], recorded(d[2], type), recorded(d[3], type));
}
