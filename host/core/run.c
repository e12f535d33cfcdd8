#include "core/run.h"

#include "core/buffer_checks.h"
#include "core/compare.h"
#include "core/device_buffers.h"
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
/* The error flag                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

/* The one wait of the error-flag protocol: 4 bytes after `after`; a failure is named by the
 * operation's report, which reads back what it needs. */
static clg_status read_flag_and_report(const clg_run_plan *run, cl_command_queue queue, const clg_buffer *inputs,
                                       cl_mem flag, cl_event after)
{
    cl_uint value = CLG_FLAG_NONE_FAILED;
    cl_int err = clEnqueueReadBuffer(queue, flag, CL_TRUE, 0, sizeof value, &value, 1, &after, NULL);
    if (err != CL_SUCCESS) return clg_fail_cl(err, "clEnqueueReadBuffer (failure flag)");
    if (value == CLG_FLAG_NONE_FAILED) return CLG_SUCCESS;
    return run->op->report(run->plan, queue, inputs, value);
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
} output_owner;

/* Run a validated, non-empty plan on a queue. On failure nothing has been written to a caller's
 * output. inputs_checked: the inputs were checked on the host (no check kernel). */
static clg_status run_on_queue(clg_context *ctx, const clg_run_plan *run, cl_command_queue queue,
                               const clg_buffer *buffers, output_owner owner, bool inputs_checked, cl_uint num_events,
                               const cl_event *wait_list, cl_event *out_event)
{
    const clg_operation *op = run->op;
    const int out = run->input_count;
    clg_flag_mode mode = run->flag_mode;
    if (inputs_checked && mode == CLG_FLAG_CHECK_KERNEL) mode = CLG_FLAG_NO_CHECK;
    const bool verify = clg_context_verifies(ctx);
    /* the kernels may write before the call knows it succeeds: then they write a scratch */
    const bool use_scratch = owner == OUTPUT_OF_CALLER && (verify || mode == CLG_FLAG_INLINE);

    clg_buffer targets[CLG_MAX_OPERANDS];
    memcpy(targets, buffers, (size_t)operand_count(run) * sizeof targets[0]);
    cl_mem scratch = NULL, flag = NULL;
    cl_event checked = NULL, done = NULL, copied = NULL;
    clg_status st = CLG_SUCCESS;
    if (use_scratch) {
        targets[out].offset = buffers[out].offset % run->scratch_offset_modulus;
        st = clg_create_device_buffer(ctx, op->scratch_buffer_name, NULL,
                                      output_operand(run)->bytes + targets[out].offset, &scratch);
        targets[out].mem = scratch;
    }
    if (st == CLG_SUCCESS && mode != CLG_FLAG_NO_CHECK) {
        cl_uint none_failed = CLG_FLAG_NONE_FAILED;
        st = clg_create_device_buffer(ctx, op->flag_buffer_name, &none_failed, sizeof none_failed, &flag);
    }
    if (st == CLG_SUCCESS && mode == CLG_FLAG_CHECK_KERNEL) {
        st = op->check(ctx, run->plan, queue, buffers, flag, num_events, wait_list, &checked);
        if (st == CLG_SUCCESS) st = read_flag_and_report(run, queue, buffers, flag, checked);
        if (st == CLG_SUCCESS) {
            num_events = 1;
            wait_list = &checked;
        }
    }
    if (st == CLG_SUCCESS)
        st = op->launch(ctx, run->plan, queue, targets, mode == CLG_FLAG_INLINE ? flag : NULL, num_events, wait_list,
                        &done);
    if (st == CLG_SUCCESS && mode == CLG_FLAG_INLINE) st = read_flag_and_report(run, queue, buffers, flag, done);
    if (st == CLG_SUCCESS && verify) st = verify_on_host(ctx, run, queue, targets, done);
    if (st == CLG_SUCCESS && use_scratch) {
        cl_int err = clEnqueueCopyBuffer(queue, scratch, buffers[out].mem, targets[out].offset, buffers[out].offset,
                                         output_operand(run)->bytes, 1, &done, &copied);
        if (err != CL_SUCCESS) st = clg_fail_cl(err, "clEnqueueCopyBuffer (result into output)");
        clReleaseEvent(done);
        done = copied;
    }
    if (checked) clReleaseEvent(checked);
    /* OpenCL keeps the scratch and the flag alive until the commands using them have completed */
    if (flag) clReleaseMemObject(flag);
    if (scratch) clReleaseMemObject(scratch);
    if (st == CLG_SUCCESS && out_event)
        *out_event = done;
    else if (done)
        clReleaseEvent(done);
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
    clg_buffer buffers[CLG_MAX_OPERANDS] = {{0}};
    for (int i = 0; i < count && st == CLG_SUCCESS; ++i)
        st = clg_create_device_buffer(ctx, run->operands[i].name, i < out ? host[i].ptr : NULL, run->operands[i].bytes,
                                      &buffers[i].mem);
    cl_event done = NULL;
    if (st == CLG_SUCCESS) st = run_on_queue(ctx, run, ctx->queue, buffers, OUTPUT_OF_LIBRARY, checked, 0, NULL, &done);
    if (st == CLG_SUCCESS) {
        cl_int err = clEnqueueReadBuffer(ctx->queue, buffers[out].mem, CL_TRUE, 0, run->operands[out].bytes,
                                         (void *)(uintptr_t)host[out].ptr, 1, &done, NULL);
        if (err != CL_SUCCESS) st = clg_fail_cl(err, "clEnqueueReadBuffer (output)");
    }
    if (done) clReleaseEvent(done);
    for (int i = count - 1; i >= 0; --i)
        if (buffers[i].mem) clReleaseMemObject(buffers[i].mem);
    return st;
}
