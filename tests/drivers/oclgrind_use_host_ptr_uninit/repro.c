/* Oclgrind 21.10 with OCLGRIND_UNINITIALIZED=1: a buffer created with CL_MEM_USE_HOST_PTR over initialized
 * host memory is treated as uninitialized: every value a kernel copies from it is reported
 * "Uninitialized value written to global memory address ..." (the values themselves are right).
 * The same data in a CL_MEM_COPY_HOST_PTR buffer gives no report. (Oclgrind reports the write only when
 * the destination was initialized, hence the initialized output buffer.)
 * This program captures its own stderr around the OpenCL calls; it prints FAIL if the copy from the
 * USE_HOST_PTR buffer is reported (or a value is wrong), PASS otherwise. It sets OCLGRIND_UNINITIALIZED=1
 * itself. Build: cc -std=c11 repro.c -lOpenCL */
#define _POSIX_C_SOURCE          200809L
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *source = "__kernel void copy(__global const uint *in, __global uint *out) { size_t i = "
                            "get_global_id(0); out[i] = in[i] + 1u; }\n";

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
    cl_kernel kernel = clCreateKernel(program, "copy", &err);
    static cl_uint host[64] __attribute__((aligned(4096)));
    for (int i = 0; i < 64; ++i) host[i] = 1000u + (cl_uint)i;
    /* USE_HOST_PTR first: a buffer created where a released one lay inherits its shadow state in Oclgrind,
     * which hides the report (so the order matters) */
    const cl_mem_flags flags[2] = {CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR};
    const char *names[2] = {"CL_MEM_USE_HOST_PTR", "CL_MEM_COPY_HOST_PTR"};
    int failures = 0;
    for (int f = 0; f < 2; ++f) {
        fflush(stderr);
        int saved = dup(STDERR_FILENO);
        FILE *capture = tmpfile();
        dup2(fileno(capture), STDERR_FILENO);
        cl_mem in = clCreateBuffer(ctx, flags[f], sizeof host, host, &err);
        cl_uint init[64];
        memset(init, 0xAB, sizeof init);
        cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init, init, &err);
        clSetKernelArg(kernel, 0, sizeof in, &in);
        clSetKernelArg(kernel, 1, sizeof out, &out);
        size_t global = 64;
        cl_uint got[64] = {0};
        err = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL);
        if (err == CL_SUCCESS) err = clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);
        clReleaseMemObject(in);
        clReleaseMemObject(out);
        fflush(stderr);
        dup2(saved, STDERR_FILENO);
        close(saved);
        char text[1 << 16] = "";
        rewind(capture);
        text[fread(text, 1, sizeof text - 1, capture)] = '\0';
        fclose(capture);
        int reports = 0;
        for (const char *p = text; (p = strstr(p, "Uninitialized")) != NULL; ++p) ++reports;
        int wrong = err != CL_SUCCESS;
        for (int i = 0; i < 64; ++i) wrong |= got[i] != host[i] + 1u;
        printf("%-21s values %s, %d uninitialized-value reports\n", names[f], wrong ? "WRONG" : "right", reports);
        failures += wrong || reports > 0;
    }
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    printf("%s\n", failures ? "FAIL" : "PASS");
    return failures != 0;
}
