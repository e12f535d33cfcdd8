/* __builtin_prefetch in an OpenCL C kernel (clang lowers it to the llvm.prefetch intrinsic).
 *  - Mesa rusticl 22.3.6: the SPIR-V writer (libLLVMSPIRVLib 15) meets llvm.prefetch.p1i8 and calls
 *    exit(8) inside clBuildProgram ("InvalidFunctionCall: Unexpected llvm intrinsic"): the process ends.
 *  - Oclgrind 21.10: clBuildProgram succeeds, clCreateKernel fails ("OCLGRIND FATAL ERROR ...
 *    Undefined external function: llvm.prefetch.p1i8").
 *  - PoCL 3.1 and Intel's CPU runtime 2026.2: builds and runs.
 * __has_builtin(__builtin_prefetch) is 1 on all four, so it cannot guard the call. OpenCL C's own
 * prefetch(p, n) builds and runs on all four: the second kernel checks it.
 * The work runs in a child process (the build may kill it); the parent prints PASS or FAIL.
 * Build: cc -std=c11 repro.c -lOpenCL */
#define _POSIX_C_SOURCE          200809L
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *sources[2] = {"__kernel void k(__global const uint *in, __global uint *out)\n"
                                 "{\n"
                                 "    size_t i = get_global_id(0);\n"
                                 "    __builtin_prefetch(in + ((i + 8) & 63), 0, 3);\n"
                                 "    out[i] = in[i] + 1;\n"
                                 "}\n",
                                 "__kernel void k(__global const uint *in, __global uint *out)\n"
                                 "{\n"
                                 "    size_t i = get_global_id(0);\n"
                                 "    prefetch(in + ((i + 8) & 63), 16);\n"
                                 "    out[i] = in[i] + 1;\n"
                                 "}\n"};
static const char *names[2] = {"__builtin_prefetch", "OpenCL prefetch()"};

/* 0: built and computed the right values; 1: an OpenCL error; 2: wrong values */
static int child(int which)
{
    cl_platform_id platform;
    cl_device_id device;
    cl_int err = clGetPlatformIDs(1, &platform, NULL);
    if (err == CL_SUCCESS) err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    if (err != CL_SUCCESS) return 1;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    cl_program program = clCreateProgramWithSource(ctx, 1, &sources[which], NULL, &err);
    err = clBuildProgram(program, 1, &device, "", NULL, NULL);
    if (err != CL_SUCCESS) return printf("  clBuildProgram: %d\n", err), 1;
    cl_kernel kernel = clCreateKernel(program, "k", &err);
    if (err != CL_SUCCESS) return printf("  clCreateKernel: %d\n", err), 1;
    cl_uint in[64], out[64] = {0};
    for (int i = 0; i < 64; ++i) in[i] = (cl_uint)i * 3;
    cl_mem bin = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    cl_mem bout = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof out, NULL, &err);
    clSetKernelArg(kernel, 0, sizeof bin, &bin);
    clSetKernelArg(kernel, 1, sizeof bout, &bout);
    size_t global = 64;
    err = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS) err = clEnqueueReadBuffer(queue, bout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
    if (err != CL_SUCCESS) return printf("  enqueue: %d\n", err), 1;
    for (int i = 0; i < 64; ++i)
        if (out[i] != in[i] + 1) return 2;
    clReleaseMemObject(bin);
    clReleaseMemObject(bout);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    return 0;
}

int main(void)
{
    int failures = 0;
    for (int which = 0; which < 2; ++which) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0) return perror("fork"), 2;
        if (pid == 0) {
            int rc = child(which);
            fflush(stdout);
            _exit(rc);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        const int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
        if (ok)
            printf("%-20s builds and runs\n", names[which]);
        else if (WIFSIGNALED(status))
            printf("%-20s the process died on signal %d\n", names[which], WTERMSIG(status));
        else if (WEXITSTATUS(status) == 1 || WEXITSTATUS(status) == 2)
            printf("%-20s %s\n", names[which], WEXITSTATUS(status) == 1 ? "refused (OpenCL error)" : "wrong values");
        else
            printf("%-20s the process exited with status %d inside the OpenCL calls\n", names[which],
                   WEXITSTATUS(status));
        failures += !ok;
    }
    printf("%s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
