#include "core/run.h"

#include "core/buffer_checks.h"
#include "core/compare.h"
#include "core/deferred.h"
#include "core/device_buffers.h"
#include "core/gated_copy.h"
#include "core/status.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

clg_status clg_run_check_enqueue_call(const clg_context *ctx, const char *entry, cl_command_queue queue,
                                      cl_uint num_events, const cl_event *wait_list)
{
    if (!ctx) return clg_fail(CLG_ERR_NULL_ARGUMENT, "ctx is NULL");
    if (ctx->is_reference)
        return clg_fail(CLG_ERR_NO_OPENCL, "ctx is the CPU reference: %s needs an OpenCL device", entry);
    if (!queue) return clg_fail(CLG_ERR_NULL_ARGUMENT, "queue is NULL");
    if (num_events > 0 && !wait_list)
        return clg_fail(CLG_ERR_NULL_ARGUMENT, "wait_list is NULL but num_events is %u", (unsigned)num_events);
    return CLG_SUCCESS;
}

static int operand_count(const clg_run_plan *run) { return run->input_count + 1; }

static const clg_operand *output_operand(const clg_run_plan *run) { return &run->operands[run->input_count]; }

/* ---------------------------------------------------------------------------------------------- */
/* The error flag, blocking                                                                       */
/* ---------------------------------------------------------------------------------------------- */

/* The record's flag as read: if it is set, the locate kernel details the failure and the operation's
 * report names it (one more wait, on the failing path only). */
static clg_status report_if_failed(clg_context *ctx, const clg_run_plan *run, cl_command_queue queue,
                                   const clg_buffer *inputs, cl_mem record_mem, cl_uint flag)
{
    if (flag == CLG_FLAG_NONE_FAILED) return CLG_SUCCESS;
    clg_failure_record record = {.flag = flag};
    cl_event located = NULL;
    clg_status st = run->op->locate(ctx, run->plan, queue, inputs, record_mem, 0, NULL, &located);
    if (st == CLG_SUCCESS) {
        cl_int err = clEnqueueReadBuffer(queue, record_mem, CL_TRUE, 0, sizeof record, &record, 1, &located, NULL);
        st = err == CL_SUCCESS ? run->op->report(run->plan, &record)
                               : clg_fail_cl(err, "clEnqueueReadBuffer (failure record)");
    }
    if (located) clReleaseEvent(located);
    return st;
}

/* The blocking error policy's one wait, for kernels that lower the flag inline: the record's 4-byte
 * flag, after `after`. */
static clg_status read_flag_and_report(clg_context *ctx, const clg_run_plan *run, cl_command_queue queue,
                                       const clg_buffer *inputs, cl_mem record_mem, cl_event after)
{
    cl_uint flag = CLG_FLAG_NONE_FAILED;
    cl_int err = clEnqueueReadBuffer(queue, record_mem, CL_TRUE, 0, sizeof flag, &flag, 1, &after, NULL);
    if (err != CL_SUCCESS) return clg_fail_cl(err, "clEnqueueReadBuffer (failure flag)");
    return report_if_failed(ctx, run, queue, inputs, record_mem, flag);
}

/* ---------------------------------------------------------------------------------------------- */
/* Verify mode                                                                                    */
/* ---------------------------------------------------------------------------------------------- */

/* Read every operand back (blocking, so a failure part-way leaves no read pending into memory freed
 * below), recompute with the reference, compare bit for bit. */
static clg_status verify_on_host(const clg_context *ctx, const clg_run_plan *run, cl_command_queue queue,
                                 const clg_buffer *buffers, cl_event done)
{
    (void)ctx;
    const int count = operand_count(run);
    void *host[CLG_MAX_OPERANDS] = {0};
    const clg_operand *out = output_operand(run);
    void *expected = malloc(out->bytes ? out->bytes : 1);
    clg_status st =
        expected ? CLG_SUCCESS : clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "verify: cannot allocate host copies");
    for (int i = 0; i < count && st == CLG_SUCCESS; ++i) {
        const uint64_t bytes = run->operands[i].bytes;
        host[i] = malloc(bytes ? bytes : 1);
        if (!host[i]) {
            st = clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "verify: cannot allocate host copies");
            break;
        }
        if (bytes == 0) continue;
        cl_int err =
            clEnqueueReadBuffer(queue, buffers[i].mem, CL_TRUE, buffers[i].offset, bytes, host[i], 1, &done, NULL);
        if (err != CL_SUCCESS) st = clg_fail_cl(err, "verify: reading buffers back");
    }
    unsigned char *device_output = host[run->input_count];
    if (st == CLG_SUCCESS && CLG_TEST_SWITCH(ctx, corrupt_verify_readback) && out->bytes)
        device_output[out->bytes - 1] ^= 1;
    if (st == CLG_SUCCESS) {
        st = run->op->reference(run->plan, (const void *const *)host, expected);
        if (st != CLG_SUCCESS) {
            char reason[512];
            snprintf(reason, sizeof reason, "%s", clg_last_error_message());
            st = clg_fail(CLG_ERR_VERIFY_MISMATCH, "verify: the device succeeded but the CPU reference failed: %s",
                          reason);
        } else {
            st = clg_compare_results("output", device_output, expected, run->out_elems, run->out_elem_size,
                                     run->out_shape, run->out_rank);
        }
    }
    for (int i = 0; i < count; ++i) free(host[i]);
    free(expected);
    return st;
}

/* ---------------------------------------------------------------------------------------------- */
/* On a queue                                                                                     */
/* ---------------------------------------------------------------------------------------------- */

/* Who owns the output buffer a run writes. */
typedef enum output_owner {
    OUTPUT_OF_CALLER,  /* untouched unless the call succeeds: written last, from a scratch if need be */
    OUTPUT_OF_LIBRARY, /* the synchronous call's own buffer: written directly, read only on success */
    OUTPUT_IN_PLACE,   /* a synchronous call's host output used in place: the caller's, but the call waits */
} output_owner;

/* What one run on a queue holds: its buffers (the output possibly a scratch), the failure record,
 * and the events to release. */
typedef struct queue_run {
    clg_buffer targets[CLG_MAX_OPERANDS];
    cl_mem scratch, record;
    cl_event checked, located, done;
} queue_run;

static void queue_run_release(queue_run *q)
{
    cl_event *events[] = {&q->checked, &q->located, &q->done};
    for (size_t i = 0; i < sizeof events / sizeof events[0]; ++i)
        if (*events[i]) clReleaseEvent(*events[i]);
    /* OpenCL keeps the scratch and the record alive until the commands using them have completed */
    if (q->record) clReleaseMemObject(q->record);
    if (q->scratch) clReleaseMemObject(q->scratch);
}

/* The failure record buffer, and a scratch output keeping the caller's offset modulo the plan's
 * modulus. */
static clg_status make_buffers(clg_context *ctx, const clg_run_plan *run, const clg_buffer *buffers, bool need_record,
                               bool need_scratch, queue_run *q)
{
    const int out = run->input_count;
    memcpy(q->targets, buffers, (size_t)operand_count(run) * sizeof q->targets[0]);
    clg_status st = CLG_SUCCESS;
    if (need_scratch) {
        q->targets[out].offset = buffers[out].offset % run->scratch_offset_modulus;
        st = clg_create_device_buffer(ctx, run->op->scratch_buffer_name, NULL,
                                      output_operand(run)->bytes + q->targets[out].offset, &q->scratch);
        q->targets[out].mem = q->scratch;
    }
    if (st == CLG_SUCCESS && need_record) {
        const clg_failure_record none = {.flag = CLG_FLAG_NONE_FAILED};
        st = clg_create_device_buffer(ctx, "failure record", &none, sizeof none, &q->record);
    }
    return st;
}

/* Copy the scratch output into the caller's, after `after`; with a record, only if its flag is clear
 * (a kernel, so that no host wait is needed); otherwise an ordinary buffer copy. */
static clg_status copy_result(clg_context *ctx, const clg_run_plan *run, cl_command_queue queue, const queue_run *q,
                              const clg_buffer *output, cl_mem gate, cl_event after, cl_event *copied)
{
    const uint64_t bytes = output_operand(run)->bytes;
    const clg_buffer *scratch = &q->targets[run->input_count];
    if (!gate) {
        cl_int err = clEnqueueCopyBuffer(queue, scratch->mem, output->mem, scratch->offset, output->offset, bytes, 1,
                                         &after, copied);
        return err == CL_SUCCESS ? CLG_SUCCESS : clg_fail_cl(err, "clEnqueueCopyBuffer (result into output)");
    }
    return clg_enqueue_gated_copy(ctx, queue, scratch, output, bytes, gate, after, copied);
}

/* The deferred error policy: check, locate and kernels back to back on the queue, the kernels gated
 * by the record, the record read without waiting; the call's status is learned later
 * (clg_deferred_status). The command that writes the caller's output comes last and waits for the
 * record's read, so its event covers the whole call and a failure to enqueue anything leaves the
 * output untouched. */
static clg_status run_deferred(clg_context *ctx, const clg_run_plan *run, cl_command_queue queue,
                               const clg_buffer *buffers, cl_uint num_events, const cl_event *wait_list, queue_run *q)
{
    const clg_operation *op = run->op;
    const int out = run->input_count;
    const bool inline_flag = run->flag_mode == CLG_FLAG_INLINE;
    clg_deferred_entry *entry = NULL;
    clg_failure_record *host_record = NULL;
    cl_event flagged = NULL, read = NULL;
    clg_status st = clg_deferred_begin(op, run->plan, &entry, &host_record);
    /* the record's flag: by the check kernel, or inline by the kernels computing into the scratch */
    if (st == CLG_SUCCESS)
        st = inline_flag ? op->launch(ctx, run->plan, queue, q->targets, q->record, num_events, wait_list, &flagged)
                         : op->check(ctx, run->plan, queue, buffers, q->record, num_events, wait_list, &flagged);
    if (st == CLG_SUCCESS) st = op->locate(ctx, run->plan, queue, buffers, q->record, 1, &flagged, &q->located);
    if (st == CLG_SUCCESS) {
        cl_int err =
            clEnqueueReadBuffer(queue, q->record, CL_FALSE, 0, sizeof *host_record, host_record, 1, &q->located, &read);
        if (err != CL_SUCCESS) st = clg_fail_cl(err, "clEnqueueReadBuffer (failure record, non-blocking)");
    }
    if (st == CLG_SUCCESS)
        st = inline_flag ? copy_result(ctx, run, queue, q, &buffers[out], q->record, read, &q->done)
                         : op->launch(ctx, run->plan, queue, q->targets, q->record, 1, &read, &q->done);
    if (flagged) clReleaseEvent(flagged);
    if (st == CLG_SUCCESS) {
        clg_deferred_commit(ctx->deferred, entry, q->done);
    } else {
        /* nothing the call enqueued may still write into the entry once it is freed */
        if (read) clWaitForEvents(1, &read);
        clg_deferred_abandon(entry);
    }
    if (read) clReleaseEvent(read);
    return st;
}

/* The blocking error policy with a check kernel: check, the flag's read and the kernels, gated by the
 * record, back to back on the queue; then the call waits for the read alone. The kernels start as the
 * check ends, not a host round trip later, and write nothing if it failed; the call still returns the
 * check's status, or the failure to enqueue them, which every fault must surface (test_fault_injection's
 * sweeps). */
static clg_status check_then_launch(clg_context *ctx, const clg_run_plan *run, cl_command_queue queue,
                                    const clg_buffer *buffers, cl_uint num_events, const cl_event *wait_list,
                                    queue_run *q)
{
    const clg_operation *op = run->op;
    clg_status st = op->check(ctx, run->plan, queue, buffers, q->record, num_events, wait_list, &q->checked);
    if (st != CLG_SUCCESS) return st;
    /* enqueued before the kernels, so that on an in-order queue it does not wait for them */
    cl_uint flag = CLG_FLAG_NONE_FAILED;
    cl_event read = NULL;
    cl_int err = clEnqueueReadBuffer(queue, q->record, CL_FALSE, 0, sizeof flag, &flag, 1, &q->checked, &read);
    if (err != CL_SUCCESS) return clg_fail_cl(err, "clEnqueueReadBuffer (failure flag, non-blocking)");
    const clg_status launched = op->launch(ctx, run->plan, queue, q->targets, q->record, 1, &q->checked, &q->done);
    err = clWaitForEvents(1, &read); /* always: the read writes into `flag` */
    /* the wait failed (a failed wait-list event cancels the commands behind it, on the drivers tried): let
     * nothing of the call's still run, nor the read write into `flag`, once the call has returned */
    if (err != CL_SUCCESS) clFinish(queue);
    clReleaseEvent(read);
    if (launched != CLG_SUCCESS) return launched;
    if (err != CL_SUCCESS) return clg_fail_cl(err, "clWaitForEvents (failure flag)");
    return report_if_failed(ctx, run, queue, buffers, q->record, flag);
}

/* The blocking error policy (and verify mode): the call knows its status before it returns, and the
 * caller's output is written only if it succeeds. */
static clg_status run_blocking(clg_context *ctx, const clg_run_plan *run, cl_command_queue queue,
                               const clg_buffer *buffers, clg_flag_mode mode, bool verify, cl_uint num_events,
                               const cl_event *wait_list, queue_run *q)
{
    const clg_operation *op = run->op;
    clg_status st =
        mode == CLG_FLAG_CHECK_KERNEL
            ? check_then_launch(ctx, run, queue, buffers, num_events, wait_list, q)
            : op->launch(ctx, run->plan, queue, q->targets, mode == CLG_FLAG_INLINE ? q->record : ctx->open_gate,
                         num_events, wait_list, &q->done);
    if (st == CLG_SUCCESS && mode == CLG_FLAG_INLINE)
        st = read_flag_and_report(ctx, run, queue, buffers, q->record, q->done);
    if (st == CLG_SUCCESS && verify) st = verify_on_host(ctx, run, queue, q->targets, q->done);
    if (st == CLG_SUCCESS && q->scratch) {
        cl_event copied = NULL;
        st = copy_result(ctx, run, queue, q, &buffers[run->input_count], NULL, q->done, &copied);
        clReleaseEvent(q->done);
        q->done = copied;
    }
    return st;
}

/* Run a validated, non-empty plan on a queue. On failure nothing has been written to a caller's
 * output. inputs_checked: the inputs were checked on the host (no check kernel). */
static clg_status run_on_queue(clg_context *ctx, const clg_run_plan *run, cl_command_queue queue,
                               const clg_buffer *buffers, output_owner owner, bool inputs_checked, cl_uint num_events,
                               const cl_event *wait_list, cl_event *out_event)
{
    clg_flag_mode mode = run->flag_mode;
    if (inputs_checked && mode == CLG_FLAG_CHECK_KERNEL) mode = CLG_FLAG_NO_CHECK;
    const bool verify = clg_context_verifies(ctx);
    /* verify mode compares before the output is written, so it waits anyway */
    const bool deferred = mode != CLG_FLAG_NO_CHECK && owner == OUTPUT_OF_CALLER && !verify &&
                          (ctx->flags & CLG_CONTEXT_DEFER_ERRORS) != 0;
    /* the kernels may write before the call knows it succeeds: then they write a scratch */
    const bool use_scratch = owner != OUTPUT_OF_LIBRARY && (verify || mode == CLG_FLAG_INLINE);

    queue_run q = {0};
    clg_status st = make_buffers(ctx, run, buffers, mode != CLG_FLAG_NO_CHECK, use_scratch, &q);
    if (st == CLG_SUCCESS)
        st = deferred ? run_deferred(ctx, run, queue, buffers, num_events, wait_list, &q)
                      : run_blocking(ctx, run, queue, buffers, mode, verify, num_events, wait_list, &q);
    if (st == CLG_SUCCESS && out_event) {
        *out_event = q.done;
        q.done = NULL;
    }
    queue_run_release(&q);
    return st;
}

/* ---------------------------------------------------------------------------------------------- */
/* The three calls                                                                                */
/* ---------------------------------------------------------------------------------------------- */

clg_status clg_run_enqueue(clg_context *ctx, const clg_run_plan *run, cl_command_queue queue, const clg_buffer *buffers,
                           cl_uint num_events, const cl_event *wait_list, cl_event *out_event)
{
    clg_status st = CLG_SUCCESS;
    for (int i = 0; i < operand_count(run) && st == CLG_SUCCESS; ++i)
        if (run->operands[i].offset_type != CLG_DTYPE_INVALID)
            st = clg_check_offset_alignment(run->operands[i].name, buffers[i].offset, run->operands[i].offset_type);
    if (st == CLG_SUCCESS && run->op->device_supports) st = run->op->device_supports(ctx, run->plan);
    if (st != CLG_SUCCESS) return st;
    if (run->out_elems == 0) { /* nothing to read, check or write: a marker keeps the event chain */
        cl_event done = NULL;
        cl_int err = clEnqueueMarkerWithWaitList(queue, num_events, wait_list, &done);
        if (err != CL_SUCCESS) return clg_fail_cl(err, "clEnqueueMarkerWithWaitList");
        if (out_event)
            *out_event = done;
        else
            clReleaseEvent(done);
        return CLG_SUCCESS;
    }
    for (int i = 0; i < operand_count(run) && st == CLG_SUCCESS; ++i)
        st = clg_check_cl_buffer(run->operands[i].name, buffers[i].mem, buffers[i].offset, run->operands[i].bytes);
    if (st != CLG_SUCCESS) return st;
    return run_on_queue(ctx, run, queue, buffers, OUTPUT_OF_CALLER, false, num_events, wait_list, out_event);
}

static clg_status check_host_buffers(const clg_run_plan *run, const clg_host_buffer *host)
{
    clg_status st = CLG_SUCCESS;
    for (int i = 0; i < operand_count(run) && st == CLG_SUCCESS; ++i)
        st = clg_check_host_buffer(run->operands[i].name, host[i].ptr, host[i].bytes, run->operands[i].bytes);
    return st;
}

static clg_status reference_on_host(const clg_run_plan *run, const clg_host_buffer *host)
{
    const void *inputs[CLG_MAX_OPERANDS];
    for (int i = 0; i < run->input_count; ++i) inputs[i] = host[i].ptr;
    return run->op->reference(run->plan, inputs, (void *)(uintptr_t)host[run->input_count].ptr);
}

clg_status clg_run_reference(const clg_run_plan *run, const clg_host_buffer *host)
{
    clg_status st = check_host_buffers(run, host);
    return st == CLG_SUCCESS ? reference_on_host(run, host) : st;
}

/* Whether a synchronous call writes its output where the caller's memory lies: where its inputs may be
 * read in place too (clg_host_in_place), outside verify mode (whose comparison may fail after the
 * kernels wrote), and with no byte in common with an input (a kernel would read what it writes). */
static bool output_in_place(const clg_context *ctx, const clg_run_plan *run, const clg_host_buffer *host)
{
    const int out = run->input_count;
    const uintptr_t first = (uintptr_t)host[out].ptr, end = first + (uintptr_t)run->operands[out].bytes;
    if (clg_context_verifies(ctx) || !clg_host_in_place(ctx, host[out].ptr)) return false;
    for (int i = 0; i < out; ++i) {
        const uintptr_t in = (uintptr_t)host[i].ptr;
        if (in < end && first < in + (uintptr_t)run->operands[i].bytes) return false;
    }
    return true;
}

/* The output of a synchronous call copied into the caller's memory once `done` completes. */
static clg_status read_output(cl_command_queue queue, cl_mem output, uint64_t bytes, const void *host, cl_event done)
{
    cl_int err = clEnqueueReadBuffer(queue, output, CL_TRUE, 0, (size_t)bytes, (void *)(uintptr_t)host, 1, &done, NULL);
    return err == CL_SUCCESS ? CLG_SUCCESS : clg_fail_cl(err, "clEnqueueReadBuffer (output)");
}

/* An in-place output made the caller's memory's again: OpenCL promises a CL_MEM_USE_HOST_PTR buffer's
 * contents in that memory only while it is mapped, so the call maps it once `done` completes (no copy
 * where the driver wrote in place) and waits for the unmap (on the queue: an event of its own would be
 * one the fault-injection build cannot count), after which the driver no longer touches the memory. The
 * map does not block: the in-order queue runs the unmap after it, and the pointer it returns is only
 * handed back to the unmap, so that the call waits once, not twice. */
static clg_status settle_in_place(cl_command_queue queue, cl_mem output, uint64_t bytes, cl_event done)
{
    cl_int err = CL_SUCCESS;
    void *mapped = clEnqueueMapBuffer(queue, output, CL_FALSE, CL_MAP_READ, 0, (size_t)bytes, 1, &done, NULL, &err);
    if (err != CL_SUCCESS) return clg_fail_cl(err, "clEnqueueMapBuffer (output in place)");
    err = clEnqueueUnmapMemObject(queue, output, mapped, 0, NULL, NULL);
    if (err != CL_SUCCESS) return clg_fail_cl(err, "clEnqueueUnmapMemObject (output in place)");
    err = clFinish(queue); /* the synchronous calls' own queue: nothing else of the call's is on it */
    return err == CL_SUCCESS ? CLG_SUCCESS : clg_fail_cl(err, "clFinish (output in place)");
}

clg_status clg_run_sync(clg_context *ctx, const clg_run_plan *run, const clg_host_buffer *host)
{
    clg_status st = check_host_buffers(run, host);
    if (st != CLG_SUCCESS) return st;
    if (ctx->is_reference) return reference_on_host(run, host);
    if (run->op->device_supports) st = run->op->device_supports(ctx, run->plan);
    if (st != CLG_SUCCESS || run->out_elems == 0) return st;
    /* inputs on the host already are checked here rather than with a device round trip */
    bool checked = false;
    if (run->flag_mode == CLG_FLAG_CHECK_KERNEL && run->op->host_check) {
        const void *inputs[CLG_MAX_OPERANDS];
        for (int i = 0; i < run->input_count; ++i) inputs[i] = host[i].ptr;
        st = run->op->host_check(run->plan, inputs);
        if (st != CLG_SUCCESS) return st;
        checked = true;
    }
    const int count = operand_count(run), out = run->input_count;
    const bool out_in_place = output_in_place(ctx, run, host);
    clg_buffer buffers[CLG_MAX_OPERANDS] = {{0}};
    for (int i = 0; i < count && st == CLG_SUCCESS; ++i) {
        const char *name = run->operands[i].name;
        const uint64_t bytes = run->operands[i].bytes;
        if (i < out)
            st = clg_create_input_buffer(ctx, name, host[i].ptr, bytes, &buffers[i].mem);
        else if (out_in_place)
            st = clg_create_output_in_place(ctx, name, (void *)(uintptr_t)host[i].ptr, bytes, &buffers[i].mem);
        else
            st = clg_create_device_buffer(ctx, name, NULL, bytes, &buffers[i].mem);
    }
    cl_event done = NULL;
    if (st == CLG_SUCCESS)
        st = run_on_queue(ctx, run, ctx->queue, buffers, out_in_place ? OUTPUT_IN_PLACE : OUTPUT_OF_LIBRARY, checked, 0,
                          NULL, &done);
    if (st == CLG_SUCCESS)
        st = out_in_place ? settle_in_place(ctx->queue, buffers[out].mem, run->operands[out].bytes, done)
                          : read_output(ctx->queue, buffers[out].mem, run->operands[out].bytes, host[out].ptr, done);
    if (done) clReleaseEvent(done);
    for (int i = count - 1; i >= 0; --i)
        if (buffers[i].mem) clReleaseMemObject(buffers[i].mem);
    return st;
}
