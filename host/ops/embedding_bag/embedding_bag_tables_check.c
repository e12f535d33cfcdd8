/* The table-batched call's checks: the single-table checks over its offsets, each index against the rows
 * of the table whose bag holds it, and messages naming the table and bag of the first bad value. */
#include "core/device_buffers.h"
#include "core/index_value.h"
#include "core/status.h"
#include "ops/embedding_bag/embedding_bag_check.h"
#include "ops/embedding_bag/embedding_bag_tables.h"
#include "ops/embedding_bag/embedding_bag_values.h"
#include "ops/embedding_bag_quantized/embedding_bag_tables_quantized.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* The bag holding index i of checked inputs: the last of the T*B offsets <= i (offsets[0] is 0). */
static uint64_t bag_of_index(const clg_embedding_bag_tables_plan *p, const void *offsets, uint64_t i)
{
    uint64_t lo = 0, hi = p->T * p->batch;
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo) / 2;
        if (clg_bag_read_int(offsets, p->bags.bags_type, mid) <= (int64_t)i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 ? lo - 1 : 0;
}

/* "table t, bag b" of offsets entry k (T*B: the end of the last bag). */
static void name_offset(const clg_embedding_bag_tables_plan *p, uint64_t k, char *where, size_t size)
{
    if (k >= p->T * p->batch)
        snprintf(where, size, "the end of the last bag");
    else
        snprintf(where, size, "table %" PRIu64 ", bag %" PRIu64, k / p->batch, k % p->batch);
}

/* The status and message of a failure at checked position pos; bag and rows: a bad index's. */
static clg_status failure_status(const clg_embedding_bag_tables_plan *p, clg_bag_failure failure, uint64_t pos,
                                 clg_integer value, clg_integer prev, uint64_t bag, uint64_t rows)
{
    char v[32], w[32], where[64];
    clg_integer_format(value, v, sizeof v);
    clg_integer_format(prev, w, sizeof w);
    name_offset(p, pos, where, sizeof where);
    switch (failure) {
    case CLG_BAG_OFFSET_OUT_OF_RANGE:
        return clg_fail(CLG_ERR_INVALID_OFFSETS,
                        "offsets[%" PRIu64 "] = %s (%s) is outside [0, %" PRIu64 "] (the number of indices)", pos, v,
                        where, p->bags.L);
    case CLG_BAG_OFFSET_NOT_ZERO:
        return clg_fail(CLG_ERR_INVALID_OFFSETS, "offsets[0] = %s: the first offset must be 0", v);
    case CLG_BAG_OFFSET_DECREASES:
        return clg_fail(CLG_ERR_INVALID_OFFSETS,
                        "offsets[%" PRIu64 "] = %s (%s) is less than offsets[%" PRIu64 "] = %s: they must not decrease",
                        pos, v, where, pos - 1, w);
    case CLG_BAG_OFFSET_NOT_END:
        return clg_fail(CLG_ERR_INVALID_OFFSETS,
                        "offsets[%" PRIu64 "] = %s: with include_last_offset the last offset must be %" PRIu64
                        " (the number of indices)",
                        pos, v, p->bags.L);
    case CLG_BAG_INDEX_OUT_OF_RANGE:
        return clg_fail(CLG_ERR_INDEX_OUT_OF_RANGE,
                        "indices[%" PRIu64 "] = %s is outside [0, %" PRIu64 ") (tables[%" PRIu64 "].rows; bag %" PRIu64
                        " of table %" PRIu64 ")",
                        pos - p->bags.bags_count, v, rows, bag / p->batch, bag % p->batch, bag / p->batch);
    default: return clg_fail(CLG_ERR_INTERNAL, "table-batched EmbeddingBag check: failure kind %d", (int)failure);
    }
}

clg_status clg_embedding_bag_tables_host_check(const void *plan, const void *const *inputs)
{
    const clg_embedding_bag_tables_plan *p = plan;
    const clg_embedding_bag_plan *b = &p->bags;
    clg_bag_failure failure = CLG_BAG_VALID;
    const uint64_t pos = clg_bag_first_structure_failure(b, inputs, &failure);
    if (pos < b->bags_count) {
        const clg_integer value = clg_read_integer(inputs[2], b->bags_type, pos);
        const clg_integer prev = pos > 0 ? clg_read_integer(inputs[2], b->bags_type, pos - 1) : value;
        return failure_status(p, failure, pos, value, prev, 0, 0);
    }
    /* table t's bags hold indices [offsets[t * B], offsets[(t + 1) * B]) (the last table's run to L), the
     * offsets having passed: each run scanned against its table's rows, in position order */
    for (uint64_t t = 0; t < p->T; ++t) {
        const uint64_t from = t == 0 ? 0 : (uint64_t)clg_bag_read_int(inputs[2], b->bags_type, t * p->batch);
        const uint64_t to =
            t + 1 < p->T ? (uint64_t)clg_bag_read_int(inputs[2], b->bags_type, (t + 1) * p->batch) : b->L;
        const uint64_t rows = (uint64_t)p->tables[t].rows;
        const uint64_t i = clg_bag_first_index_outside(inputs[1], b->index_type, from, to, rows);
        if (i == to) continue;
        const clg_integer value = clg_read_integer(inputs[1], b->index_type, i);
        return failure_status(p, CLG_BAG_INDEX_OUT_OF_RANGE, b->bags_count + i, value, value,
                              bag_of_index(p, inputs[2], i), rows);
    }
    return CLG_SUCCESS;
}

clg_status clg_embedding_bag_tables_meta(clg_context *ctx, const clg_embedding_bag_tables_plan *p, cl_mem *meta)
{
    const size_t bytes = (size_t)p->T * 4 * sizeof(cl_ulong);
    cl_ulong *words = malloc(bytes);
    if (!words) return clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "table-batched EmbeddingBag: %zu bytes", bytes);
    cl_ulong column = 0;
    for (uint64_t t = 0; t < p->T; ++t) {
        const clg_embedding_bag_table *e = &p->tables[t];
        words[4 * t + 0] = e->byte_offset / p->bags.table_size;
        words[4 * t + 1] = (cl_ulong)e->rows;
        words[4 * t + 2] = (cl_ulong)e->width;
        words[4 * t + 3] = column;
        column += (cl_ulong)e->width;
    }
    const clg_status st = clg_create_device_buffer(ctx, "table-batched EmbeddingBag tables", words, bytes, meta);
    free(words);
    return st;
}

/* Check kernel `name` with the per-table words; B in the plan the bags a table. */
static clg_status enqueue_check(clg_context *ctx, const clg_embedding_bag_tables_plan *p, const char *name,
                                cl_command_queue queue, const clg_buffer *inputs, cl_mem record, cl_uint num_events,
                                const cl_event *wait_list, cl_event *done)
{
    cl_mem meta = NULL;
    clg_status st = clg_embedding_bag_tables_meta(ctx, p, &meta);
    if (st != CLG_SUCCESS) return st;
    clg_embedding_bag_plan b = p->bags;
    b.B = p->batch;
    st = clg_embedding_bag_enqueue_check(ctx, &b, name, queue, inputs, record, meta, p->T, num_events, wait_list, done);
    clReleaseMemObject(meta); /* OpenCL keeps it until the kernel is done */
    return st;
}

clg_status clg_embedding_bag_tables_check_enqueue(clg_context *ctx, const void *plan, cl_command_queue queue,
                                                  const clg_buffer *inputs, cl_mem record, cl_uint num_events,
                                                  const cl_event *wait_list, cl_event *done)
{
    const clg_embedding_bag_tables_plan *p = plan;
    if (p->converts)
        return clg_embedding_bag_tables_quantized_check(ctx, p, 0, queue, inputs, record, num_events, wait_list, done);
    return enqueue_check(ctx, plan, "check_bags", queue, inputs, record, num_events, wait_list, done);
}

clg_status clg_embedding_bag_tables_locate_enqueue(clg_context *ctx, const void *plan, cl_command_queue queue,
                                                   const clg_buffer *inputs, cl_mem record, cl_uint num_events,
                                                   const cl_event *wait_list, cl_event *done)
{
    const clg_embedding_bag_tables_plan *p = plan;
    if (p->converts)
        return clg_embedding_bag_tables_quantized_check(ctx, p, 1, queue, inputs, record, num_events, wait_list, done);
    return enqueue_check(ctx, plan, "locate_bad_bag", queue, inputs, record, num_events, wait_list, done);
}

/* A recorded value's bits (sign-extended for signed types) as the exact integer. */
static clg_integer recorded(cl_ulong bits, clg_dtype type)
{
    if (clg_dtype_is_signed_integer(type)) return (clg_integer){.is_unsigned = false, .s = (int64_t)bits};
    return (clg_integer){.is_unsigned = true, .u = bits};
}

/* Reads only the plan's own fields and the record: a deferred call's copy of the plan outlives the
 * caller's tables array. */
clg_status clg_embedding_bag_tables_report(const void *plan, const clg_failure_record *record)
{
    const clg_embedding_bag_tables_plan *p = plan;
    const cl_ulong *d = record->details;
    const clg_bag_failure failure = (clg_bag_failure)d[0];
    if (failure == CLG_BAG_VALID || failure > CLG_BAG_OFFSET_NOT_END)
        return clg_fail(CLG_ERR_INDEX_OUT_OF_RANGE,
                        "the EmbeddingBag check flagged the positions from %" PRIu64
                        " on, but they read back valid (were the inputs written concurrently?)",
                        (uint64_t)record->flag * (d[4] ? d[4] : 1));
    const clg_dtype type = failure == CLG_BAG_INDEX_OUT_OF_RANGE ? p->bags.index_type : p->bags.bags_type;
    return failure_status(p, failure, d[1], recorded(d[2], type), recorded(d[3], type), d[5], d[6]);
}
