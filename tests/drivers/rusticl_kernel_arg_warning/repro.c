/* Mesa rusticl 22.3.6 (llvmpipe): a kernel that branches on a kernel argument and uses kernel arguments
 * inside the branch makes llvmpipe print, once per process, on stderr:
 *   "MESA: warning: Treating load_kernel_arg in control flow as uniform, results may be incorrect."
 * The values are right (a kernel argument is the same for every work-item); the line on stderr is the
 * symptom (clgather's CLI tests require an empty stderr). clgather's construct: gather_row_runs_u1's
 * "if (A <= 0) { ...; return; }" (then in kernels_cl/gather.cl; since removed).
 * This program captures its own stderr around the OpenCL calls and prints FAIL if the warning appears
 * or a value is wrong, PASS otherwise. Mesa's shader cache is turned off first (a warm cache skips the
 * compiler, and the warning with it). Build: cc -std=c11 repro.c -lOpenCL */
#define _POSIX_C_SOURCE          200809L
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *source = "__kernel void k(__global uint *out, uint R, long A)\n"
                            "{\n"
                            "    if (A <= 0) {\n"
                            "        out[get_global_id(0)] = R;\n"
                            "    } else {\n"
                            "        out[get_global_id(0)] = R + 1;\n"
                            "    }\n"
                            "}\n";

int main(void)
{
    setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    FILE *capture = tmpfile();
    dup2(fileno(capture), STDERR_FILENO);

    int wrong = 0;
    cl_platform_id platform;
    cl_device_id device;
    cl_int err = clGetPlatformIDs(1, &platform, NULL);
    if (err == CL_SUCCESS) err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    if (err != CL_SUCCESS) return printf("FAIL: no OpenCL device (%d)\n", err), 2;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    cl_program program = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    err = clBuildProgram(program, 1, &device, "", NULL, NULL);
    if (err != CL_SUCCESS) return printf("FAIL: build error %d\n", err), 2;
    cl_kernel kernel = clCreateKernel(program, "k", &err);
    cl_mem out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, 64 * sizeof(cl_uint), NULL, &err);
    for (cl_long A = 0; A < 2; ++A) {
        cl_uint R = 40, got[64];
        clSetKernelArg(kernel, 0, sizeof out, &out);
        clSetKernelArg(kernel, 1, sizeof R, &R);
        clSetKernelArg(kernel, 2, sizeof A, &A);
        size_t global = 64;
        err = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL);
        if (err == CL_SUCCESS) err = clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);
        if (err != CL_SUCCESS) return printf("FAIL: enqueue error %d\n", err), 2;
        for (int i = 0; i < 64; ++i) wrong += got[i] != R + (A > 0);
    }
    clReleaseMemObject(out);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);

    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    char text[4096] = "";
    rewind(capture);
    size_t n = fread(text, 1, sizeof text - 1, capture);
    text[n] = '\0';
    const int warned = strstr(text, "load_kernel_arg") != NULL;
    if (n) printf("stderr during the OpenCL calls: %s", text);
    printf("values %s; %s\n", wrong ? "WRONG" : "right",
           warned ? "the kernel-argument warning was printed" : "stderr clean");
    printf("%s\n", wrong || warned ? "FAIL" : "PASS");
    return wrong || warned;
}
