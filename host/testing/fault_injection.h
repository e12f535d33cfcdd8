/* Fault injection, compiled only into test builds (CMake option CLGATHER_FAULT_INJECTION). The build
 * force-includes this header into every library source, so each OpenCL allocation, program build
 * and enqueue the library makes goes through a counting wrapper; a test can make the k-th of them
 * fail and check that the call returns the failure, leaks nothing, leaves the caller's output
 * untouched, and that the next call works. */
#ifndef CLG_FAULT_INJECTION_H
#define CLG_FAULT_INJECTION_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stddef.h>

/* Kinds of fault points, combinable as a mask. */
#define CLG_FAULT_ALLOCATION 0x1 /* clCreateBuffer, clCreateKernel, clCreateCommandQueue, clCreateContext */
#define CLG_FAULT_BUILD      0x2 /* clCreateProgramWith*, clBuildProgram */
#define CLG_FAULT_ENQUEUE    0x4 /* clEnqueue* */
#define CLG_FAULT_ALL        0x7

/* Make the k-th fault point of the kinds in mask (counted from 1, from now on) fail; k = 0 disarms.
 * Resets the point counter. */
void clg_fault_arm(int mask, long k);
/* Fault points passed since the last clg_fault_arm. */
long clg_fault_points(void);
/* Whether the armed fault has fired. */
int clg_fault_fired(void);
/* Whether it fired in loading a program from a binary (clCreateProgramWithBinary, or the build of the
 * program it made): a fault the library may recover from by building the program from source. */
int clg_fault_fired_on_binary(void);
/* Buffers and events the library created and has not released (events handed to the caller as
 * out-events count until the caller releases them with clg_fault_release_event). */
long clg_fault_live_buffers(void);
long clg_fault_live_events(void);
/* Release an out-event the library returned, keeping the live count exact. */
void clg_fault_release_event(cl_event event);
/* Host waits the library made since the last clg_fault_arm: blocking reads, clFinish and
 * clWaitForEvents (not fault points: counted only). */
long clg_fault_host_waits(void);
/* Kernels the library had enqueued when it first waited on the host since the last clg_fault_arm;
 * -1 if it has not waited. */
long clg_fault_kernels_before_first_wait(void);

cl_mem clg_fault_clCreateBuffer(cl_context, cl_mem_flags, size_t, void *, cl_int *);
cl_int clg_fault_clReleaseMemObject(cl_mem);
cl_int clg_fault_clReleaseEvent(cl_event);
cl_int clg_fault_clRetainEvent(cl_event);
cl_int clg_fault_clFinish(cl_command_queue);
cl_int clg_fault_clWaitForEvents(cl_uint, const cl_event *);
cl_kernel clg_fault_clCreateKernel(cl_program, const char *, cl_int *);
cl_command_queue clg_fault_clCreateCommandQueue(cl_context, cl_device_id, cl_command_queue_properties, cl_int *);
cl_context clg_fault_clCreateContext(const cl_context_properties *, cl_uint, const cl_device_id *,
                                     void(CL_CALLBACK *)(const char *, const void *, size_t, void *), void *, cl_int *);
cl_program clg_fault_clCreateProgramWithSource(cl_context, cl_uint, const char **, const size_t *, cl_int *);
cl_program clg_fault_clCreateProgramWithBinary(cl_context, cl_uint, const cl_device_id *, const size_t *,
                                               const unsigned char **, cl_int *, cl_int *);
cl_int clg_fault_clBuildProgram(cl_program, cl_uint, const cl_device_id *, const char *,
                                void(CL_CALLBACK *)(cl_program, void *), void *);
cl_int clg_fault_clEnqueueNDRangeKernel(cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *,
                                        const size_t *, cl_uint, const cl_event *, cl_event *);
cl_int clg_fault_clEnqueueReadBuffer(cl_command_queue, cl_mem, cl_bool, size_t, size_t, void *, cl_uint,
                                     const cl_event *, cl_event *);
cl_int clg_fault_clEnqueueReadBufferRect(cl_command_queue, cl_mem, cl_bool, const size_t *, const size_t *,
                                         const size_t *, size_t, size_t, size_t, size_t, void *, cl_uint,
                                         const cl_event *, cl_event *);
cl_int clg_fault_clEnqueueCopyBuffer(cl_command_queue, cl_mem, cl_mem, size_t, size_t, size_t, cl_uint,
                                     const cl_event *, cl_event *);
cl_int clg_fault_clEnqueueMarkerWithWaitList(cl_command_queue, cl_uint, const cl_event *, cl_event *);

#ifndef CLG_FAULT_INJECTION_IMPLEMENTATION
#define clCreateBuffer              clg_fault_clCreateBuffer
#define clReleaseMemObject          clg_fault_clReleaseMemObject
#define clReleaseEvent              clg_fault_clReleaseEvent
#define clRetainEvent               clg_fault_clRetainEvent
#define clFinish                    clg_fault_clFinish
#define clWaitForEvents             clg_fault_clWaitForEvents
#define clCreateKernel              clg_fault_clCreateKernel
#define clCreateCommandQueue        clg_fault_clCreateCommandQueue
#define clCreateContext             clg_fault_clCreateContext
#define clCreateProgramWithSource   clg_fault_clCreateProgramWithSource
#define clCreateProgramWithBinary   clg_fault_clCreateProgramWithBinary
#define clBuildProgram              clg_fault_clBuildProgram
#define clEnqueueNDRangeKernel      clg_fault_clEnqueueNDRangeKernel
#define clEnqueueReadBuffer         clg_fault_clEnqueueReadBuffer
#define clEnqueueReadBufferRect     clg_fault_clEnqueueReadBufferRect
#define clEnqueueCopyBuffer         clg_fault_clEnqueueCopyBuffer
#define clEnqueueMarkerWithWaitList clg_fault_clEnqueueMarkerWithWaitList
#endif

#endif
