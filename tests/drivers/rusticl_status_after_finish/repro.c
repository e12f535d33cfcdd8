/* Mesa rusticl 22.3.6: after clFinish returns, events of the commands it waited for may still report
 * an execution status other than CL_COMPLETE for a while; OpenCL 1.2 (5.13) says clFinish returns only
 * once every previously queued command has completed. Seen under load (two processes on two cores).
 * The program enqueues rounds of small kernels, each with an event, calls clFinish and counts the
 * events not yet CL_COMPLETE, stopping at the first round that has one (a launch costs about 30 ms on
 * rusticl); two busy threads load the cores as a parallel test run does.
 * In clgather this made test_deferred's settled_calls_are_not_kept fail on rusticl: the deferred error
 * policy drops the entries of completed calls when the next call is enqueued, and found none completed.
 * Build: cc -std=c11 repro.c -lOpenCL -lpthread; run with the implementation under test. PASS or FAIL. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#define ROUNDS   20
#define COMMANDS 50

static const char *source = "__kernel void fill(__global int *out, int v) { out[get_global_id(0)] = v; }\n";
static atomic_int stop;

static void *spin(void *arg)
{
    volatile unsigned long n = 0;
    while (!atomic_load(&stop)) ++n;
    return arg;
}

int main(void)
{
    cl_platform_id platform;
    cl_device_id device;
    cl_int err = clGetPlatformIDs(1, &platform, NULL);
    if (err == CL_SUCCESS) err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    if (err != CL_SUCCESS) return printf("FAIL: no OpenCL device (%d)\n", err), 2;
    char name[256] = "", version[256] = "";
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL);
    clGetDeviceInfo(device, CL_DRIVER_VERSION, sizeof version, version, NULL);
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    cl_program program = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    err = clBuildProgram(program, 1, &device, "", NULL, NULL);
    if (err != CL_SUCCESS) return printf("FAIL: build error %d\n", err), 2;
    cl_kernel kernel = clCreateKernel(program, "fill", &err);
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * sizeof(cl_int), NULL, &err);
    clSetKernelArg(kernel, 0, sizeof out, &out);

    pthread_t busy[2];
    for (int t = 0; t < 2; ++t) pthread_create(&busy[t], NULL, spin, NULL);
    int late = 0, late_round = 0;
    for (int round = 0; round < ROUNDS; ++round) {
        cl_event events[COMMANDS];
        for (int c = 0; c < COMMANDS; ++c) {
            const cl_int v = c;
            const size_t global = 64;
            clSetKernelArg(kernel, 1, sizeof v, &v);
            err = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, &events[c]);
            if (err != CL_SUCCESS) return printf("FAIL: enqueue error %d\n", err), 2;
        }
        clFinish(queue);
        int late_here = 0;
        for (int c = 0; c < COMMANDS; ++c) {
            cl_int status = CL_QUEUED;
            clGetEventInfo(events[c], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
            late_here += status != CL_COMPLETE;
            clReleaseEvent(events[c]);
        }
        if (late_here) {
            late = late_here;
            late_round = round + 1;
            break;
        }
    }
    atomic_store(&stop, 1);
    for (int t = 0; t < 2; ++t) pthread_join(busy[t], NULL);
    if (late)
        printf("round %d of %d: %d of %d events not CL_COMPLETE right after clFinish\n", late_round, ROUNDS, late,
               COMMANDS);
    else
        printf("every event CL_COMPLETE right after clFinish, %d rounds of %d\n", ROUNDS, COMMANDS);
    clReleaseMemObject(out);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    printf("%s: %s, driver %s\n", late ? "FAIL" : "PASS", name, version);
    return late ? 1 : 0;
}
