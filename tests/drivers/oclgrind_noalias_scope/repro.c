/* Oclgrind 21.10: a kernel whose optimized code inlines a function with restrict pointer arguments
 * cannot be created: "OCLGRIND FATAL ERROR ... Undefined external function:
 * llvm.experimental.noalias.scope.decl", then clCreateKernel fails with CL_INVALID_KERNEL_NAME.
 * This program captures its own stderr around the OpenCL calls; it prints FAIL if the kernel cannot be
 * created, run, or a value is wrong, PASS otherwise.
 * Build: cc -std=c11 repro.c -lOpenCL */
#define _POSIX_C_SOURCE          200809L
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *source = "inline __attribute__((always_inline)) void twice(__global ulong *restrict out, __global "
                            "const ulong *restrict in,\n"
                            "                                                 ulong n) {\n"
                            "  for (ulong i = 0; i < n; ++i) out[i] = 2 * in[i];\n"
                            "}\n"
                            "__kernel void split(ulong first, ulong end, ulong width, __global ulong *out) {\n"
                            "  out[0] = first; out[1] = end; out[2] = width;\n"
                            "  twice(out + 3, out, 3);\n"
                            "}\n";

int main(void)
{
    cl_platform_id platform;
    cl_device_id device;
    cl_int err = clGetPlatformIDs(1, &platform, NULL);
    if (err == CL_SUCCESS) err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    if (err != CL_SUCCESS) return printf("FAIL: no OpenCL device (%d)\n", err), 2;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    cl_program program = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    if (clBuildProgram(program, 1, &device, "", NULL, NULL) != CL_SUCCESS) return printf("FAIL: build\n"), 2;
    fflush(stderr);
    int saved_create = dup(STDERR_FILENO);
    FILE *capture_create = tmpfile();
    dup2(fileno(capture_create), STDERR_FILENO);
    cl_kernel kernel = clCreateKernel(program, "split", &err);
    fflush(stderr);
    dup2(saved_create, STDERR_FILENO);
    close(saved_create);
    fclose(capture_create);
    if (err != CL_SUCCESS) return printf("kernel not created (%d)\nFAIL\n", err), 1;
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
    const cl_ulong want[6] = {first, end, width, 2 * first, 2 * end, 2 * width};
    for (int i = 0; i < 6; ++i) wrong |= got[i] != want[i];
    const int fatal = strstr(text, "FATAL") != NULL;
    printf("values %s; %s\n", wrong ? "WRONG" : "right", fatal ? "a fatal error reported" : "no report");
    clReleaseMemObject(out);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    printf("%s\n", wrong || fatal ? "FAIL" : "PASS");
    return wrong || fatal;
}
