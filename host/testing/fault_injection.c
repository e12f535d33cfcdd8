#define CLG_FAULT_INJECTION_IMPLEMENTATION
#include "testing/fault_injection.h"

/* The build force-includes fault_injection.h before this file's first line, so the redirections are
 * already defined here: undo them, the wrappers below call the real functions. */
#undef clCreateBuffer
#undef clReleaseMemObject
#undef clReleaseEvent
#undef clRetainEvent
#undef clFinish
#undef clWaitForEvents
#undef clCreateKernel
#undef clCreateCommandQueue
#undef clCreateContext
#undef clCreateProgramWithSource
#undef clCreateProgramWithBinary
#undef clBuildProgram
#undef clEnqueueNDRangeKernel
#undef clEnqueueReadBuffer
#undef clEnqueueReadBufferRect
#undef clEnqueueCopyBuffer
#undef clEnqueueMarkerWithWaitList

#include <stdatomic.h>

static atomic_int armed_mask;
static atomic_long armed_at, points, fired, fired_on_binary;
/* A program made from a binary and not yet built: a fault in its build is a fault in loading a cached
 * binary. Cleared by that build, so that a later program at the same address is not taken for it. */
static _Atomic(cl_program) binary_program;
static atomic_long live_buffers, live_events, host_waits;
/* kernels enqueued since the last arm, and how many of them had been when the host first waited */
static atomic_long kernels_enqueued, kernels_at_first_wait;

void clg_fault_arm(int mask, long k)
{
    atomic_store(&armed_mask, k > 0 ? mask : 0);
    atomic_store(&armed_at, k);
    atomic_store(&points, 0);
    atomic_store(&fired, 0);
    atomic_store(&fired_on_binary, 0);
    atomic_store(&binary_program, NULL);
    atomic_store(&host_waits, 0);
    atomic_store(&kernels_enqueued, 0);
    atomic_store(&kernels_at_first_wait, -1);
}

long clg_fault_host_waits(void) { return atomic_load(&host_waits); }
long clg_fault_kernels_before_first_wait(void) { return atomic_load(&kernels_at_first_wait); }

static void note_host_wait(void)
{
    long none = -1;
    atomic_compare_exchange_strong(&kernels_at_first_wait, &none, atomic_load(&kernels_enqueued));
    atomic_fetch_add(&host_waits, 1);
}

cl_int clg_fault_clRetainEvent(cl_event e)
{
    cl_int err = clRetainEvent(e);
    if (err == CL_SUCCESS) atomic_fetch_add(&live_events, 1);
    return err;
}

cl_int clg_fault_clFinish(cl_command_queue q)
{
    note_host_wait();
    return clFinish(q);
}

cl_int clg_fault_clWaitForEvents(cl_uint n, const cl_event *events)
{
    note_host_wait();
    return clWaitForEvents(n, events);
}

long clg_fault_points(void) { return atomic_load(&points); }
int clg_fault_fired(void) { return atomic_load(&fired) != 0; }
int clg_fault_fired_on_binary(void) { return atomic_load(&fired_on_binary) != 0; }
long clg_fault_live_buffers(void) { return atomic_load(&live_buffers); }
long clg_fault_live_events(void) { return atomic_load(&live_events); }

/* Count a point of this kind; true if it is the one that must fail. */
static int fail_here(int kind)
{
    int mask = atomic_load(&armed_mask);
    if (!(mask & kind) && mask != 0) return 0;
    long n = atomic_fetch_add(&points, 1) + 1;
    if (mask && n == atomic_load(&armed_at)) {
        atomic_store(&fired, 1);
        return 1;
    }
    return 0;
}

static void count_event(cl_int err, cl_event *event)
{
    if (err == CL_SUCCESS && event && *event) atomic_fetch_add(&live_events, 1);
}

void clg_fault_release_event(cl_event event)
{
    if (event && clReleaseEvent(event) == CL_SUCCESS) atomic_fetch_sub(&live_events, 1);
}

cl_mem clg_fault_clCreateBuffer(cl_context c, cl_mem_flags f, size_t s, void *h, cl_int *err)
{
    if (fail_here(CLG_FAULT_ALLOCATION)) {
        if (err) *err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
        return NULL;
    }
    cl_mem m = clCreateBuffer(c, f, s, h, err);
    if (m) atomic_fetch_add(&live_buffers, 1);
    return m;
}

cl_int clg_fault_clReleaseMemObject(cl_mem m)
{
    cl_int err = clReleaseMemObject(m);
    if (err == CL_SUCCESS) atomic_fetch_sub(&live_buffers, 1);
    return err;
}

cl_int clg_fault_clReleaseEvent(cl_event e)
{
    cl_int err = clReleaseEvent(e);
    if (err == CL_SUCCESS) atomic_fetch_sub(&live_events, 1);
    return err;
}

cl_kernel clg_fault_clCreateKernel(cl_program p, const char *name, cl_int *err)
{
    if (fail_here(CLG_FAULT_ALLOCATION)) {
        if (err) *err = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    return clCreateKernel(p, name, err);
}

cl_command_queue clg_fault_clCreateCommandQueue(cl_context c, cl_device_id d, cl_command_queue_properties p,
                                                cl_int *err)
{
    if (fail_here(CLG_FAULT_ALLOCATION)) {
        if (err) *err = CL_OUT_OF_RESOURCES;
        return NULL;
    }
    return clCreateCommandQueue(c, d, p, err);
}

cl_context clg_fault_clCreateContext(const cl_context_properties *props, cl_uint n, const cl_device_id *devices,
                                     void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *), void *user,
                                     cl_int *err)
{
    if (fail_here(CLG_FAULT_ALLOCATION)) {
        if (err) *err = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    return clCreateContext(props, n, devices, notify, user, err);
}

cl_program clg_fault_clCreateProgramWithSource(cl_context c, cl_uint n, const char **s, const size_t *l, cl_int *err)
{
    if (fail_here(CLG_FAULT_BUILD)) {
        if (err) *err = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    return clCreateProgramWithSource(c, n, s, l, err);
}

cl_program clg_fault_clCreateProgramWithBinary(cl_context c, cl_uint n, const cl_device_id *d, const size_t *l,
                                               const unsigned char **b, cl_int *status, cl_int *err)
{
    if (fail_here(CLG_FAULT_BUILD)) {
        atomic_store(&fired_on_binary, 1);
        if (err) *err = CL_INVALID_BINARY;
        return NULL;
    }
    cl_program p = clCreateProgramWithBinary(c, n, d, l, b, status, err);
    atomic_store(&binary_program, p);
    return p;
}

cl_int clg_fault_clBuildProgram(cl_program p, cl_uint n, const cl_device_id *d, const char *o,
                                void(CL_CALLBACK *notify)(cl_program, void *), void *user)
{
    cl_program made_from_binary = p;
    const int of_binary = p && atomic_compare_exchange_strong(&binary_program, &made_from_binary, NULL);
    if (fail_here(CLG_FAULT_BUILD)) {
        if (of_binary) atomic_store(&fired_on_binary, 1);
        return CL_BUILD_PROGRAM_FAILURE;
    }
    return clBuildProgram(p, n, d, o, notify, user);
}

cl_int clg_fault_clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *off,
                                        const size_t *g, const size_t *l, cl_uint n, const cl_event *w, cl_event *e)
{
    if (fail_here(CLG_FAULT_ENQUEUE)) return CL_OUT_OF_RESOURCES;
    cl_int err = clEnqueueNDRangeKernel(q, k, dims, off, g, l, n, w, e);
    if (err == CL_SUCCESS) atomic_fetch_add(&kernels_enqueued, 1);
    count_event(err, e);
    return err;
}

cl_int clg_fault_clEnqueueReadBuffer(cl_command_queue q, cl_mem m, cl_bool b, size_t off, size_t s, void *p, cl_uint n,
                                     const cl_event *w, cl_event *e)
{
    if (fail_here(CLG_FAULT_ENQUEUE)) return CL_OUT_OF_RESOURCES;
    if (b) note_host_wait();
    cl_int err = clEnqueueReadBuffer(q, m, b, off, s, p, n, w, e);
    count_event(err, e);
    return err;
}

cl_int clg_fault_clEnqueueReadBufferRect(cl_command_queue q, cl_mem m, cl_bool b, const size_t *bo, const size_t *ho,
                                         const size_t *r, size_t brp, size_t bsp, size_t hrp, size_t hsp, void *p,
                                         cl_uint n, const cl_event *w, cl_event *e)
{
    if (fail_here(CLG_FAULT_ENQUEUE)) return CL_OUT_OF_RESOURCES;
    if (b) note_host_wait();
    cl_int err = clEnqueueReadBufferRect(q, m, b, bo, ho, r, brp, bsp, hrp, hsp, p, n, w, e);
    count_event(err, e);
    return err;
}

cl_int clg_fault_clEnqueueCopyBuffer(cl_command_queue q, cl_mem s, cl_mem d, size_t so, size_t dof, size_t size,
                                     cl_uint n, const cl_event *w, cl_event *e)
{
    if (fail_here(CLG_FAULT_ENQUEUE)) return CL_OUT_OF_RESOURCES;
    cl_int err = clEnqueueCopyBuffer(q, s, d, so, dof, size, n, w, e);
    count_event(err, e);
    return err;
}

cl_int clg_fault_clEnqueueMarkerWithWaitList(cl_command_queue q, cl_uint n, const cl_event *w, cl_event *e)
{
    if (fail_here(CLG_FAULT_ENQUEUE)) return CL_OUT_OF_RESOURCES;
    cl_int err = clEnqueueMarkerWithWaitList(q, n, w, e);
    count_event(err, e);
    return err;
}
