/* Oclgrind 21.10 with OCLGRIND_UNINITIALIZED=1: a kernel that takes both x / y and x % y of the same
 * 64-bit loop variable stops with "OCLGRIND FATAL ERROR ... Unsupported instruction: freeze": LLVM rewrites the
 * remainder as x - (x / y) * y and freezes its operands, and the uninitialized-value checker has no rule
 * for freeze. The kernel's writes after that point are lost.
 * This program captures its own stderr around the OpenCL calls; it prints FAIL if the fatal error is
 * reported or a value is wrong, PASS otherwise. It sets OCLGRIND_UNINITIALIZED=1 itself.
 * Build: cc -std=c11 repro.c -lOpenCL */
#define _POSIX_C_SOURCE          200809L
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *source = "__kernel void split(ulong first, ulong end, ulong width, __global ulong *out) {\n"
                            "  for (ulong x = first; x < end; ++x) {\n"
                            "    out[2 * (x - first)] = x / width;\n"
                            "    out[2 * (x - first) + 1] = x % width;\n"
                            "  }\n"
                            "}\n";

int main(void)
{
    setenv("OCLGRIND_UNINITIALIZED", "1", 1);
    cl_platform_id platform;
    cl_device_id device;
    cl_int err = clGetPlatformIDs(1, &platform, NULL);
    if (err == CL_SUCCESS) err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    if (err != CL_SUCCESS) return printf("FAIL: no OpenCL device (%d)\n", err), 2;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    cl_program program = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    if (clBuildProgram(program, 1, &device, "", NULL, NULL) != CL_SUCCESS) return printf("FAIL: build\n"), 2;
    cl_kernel kernel = clCreateKernel(program, "split", &err);
    enum { count = 16 };
    cl_ulong values[count], got[2 * count], width = 7;
    for (int i = 0; i < count; ++i) values[i] = 1000u + (cl_ulong)i;
    memset(got, 0xAB, sizeof got);

    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    FILE *capture = tmpfile();
    dup2(fileno(capture), STDERR_FILENO);
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof got, got, &err);
    cl_ulong first = values[0], end = values[0] + count;
    clSetKernelArg(kernel, 0, sizeof first, &first);
    clSetKernelArg(kernel, 1, sizeof end, &end);
    clSetKernelArg(kernel, 2, sizeof width, &width);
    clSetKernelArg(kernel, 3, sizeof out, &out);
    size_t global = 1;
    err = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS) err = clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    char text[1 << 16] = "";
    rewind(capture);
    text[fread(text, 1, sizeof text - 1, capture)] = '\0';
    fclose(capture);

    int wrong = err != CL_SUCCESS;
    for (int i = 0; i < count; ++i) wrong |= got[2 * i] != values[i] / width || got[2 * i + 1] != values[i] % width;
    const int fatal = strstr(text, "Unsupported instruction") != NULL;
    printf("values %s; %s\n", wrong ? "WRONG" : "right", fatal ? "\"Unsupported instruction\" reported" : "no report");
    clReleaseMemObject(out);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    printf("%s\n", wrong || fatal ? "FAIL" : "PASS");
    return wrong || fatal;
}
