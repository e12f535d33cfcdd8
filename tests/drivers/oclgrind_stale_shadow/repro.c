/* Oclgrind 21.10 with OCLGRIND_UNINITIALIZED=1: a buffer created without host data takes the number of a
 * released buffer and, where that one had an uninitialized-value shadow (host data, a map), keeps it. When
 * the released buffer was smaller, the shadow ends early: a kernel's stores past its end leave no trace,
 * and its loads there read "uninitialized", so a kernel that writes a scratch buffer and reads it back
 * is reported ("Uninitialized value written to global memory address ...", one report per value past
 * the old size); the values are right. The same scratch buffer created from host data (zeros) gets a
 * shadow of its own size and no report.
 * This program releases a 16-byte buffer, creates a 64-byte scratch buffer in its place, and runs a kernel
 * (-cl-opt-disable, so that the load is not folded into the store) whose work-item i stores i to scratch[i],
 * loads it back and writes it + 1 to an initialized output. It captures its own stderr around the OpenCL
 * calls and prints FAIL if the scratch buffer created without host data is reported (or a value is
 * wrong), PASS otherwise. It sets OCLGRIND_UNINITIALIZED=1 itself. Build: cc -std=c11 repro.c -lOpenCL */
#define _POSIX_C_SOURCE          200809L
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *source = "__kernel void stage(__global uint *scratch, __global uint *out) { size_t i = "
                            "get_global_id(0); scratch[i] = (uint)i; out[i] = scratch[i] + 1u; }\n";

#define VALUES 16

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
    if (clBuildProgram(program, 1, &device, "-cl-opt-disable", NULL, NULL) != CL_SUCCESS)
        return printf("FAIL: build\n"), 2;
    cl_kernel kernel = clCreateKernel(program, "stage", &err);
    const char *names[2] = {"scratch without host data", "scratch from host zeros"};
    int failures = 0;
    for (int f = 0; f < 2; ++f) {
        fflush(stderr);
        int saved = dup(STDERR_FILENO);
        FILE *capture = tmpfile();
        dup2(fileno(capture), STDERR_FILENO);
        /* a smaller buffer with host data, released: the next buffer created takes its number */
        cl_uint small[4] = {0};
        cl_mem released = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof small, small, &err);
        clReleaseMemObject(released);
        cl_uint zeros[VALUES] = {0}, init[VALUES];
        cl_mem scratch = clCreateBuffer(ctx, CL_MEM_READ_WRITE | (f ? CL_MEM_COPY_HOST_PTR : 0), sizeof zeros,
                                        f ? zeros : NULL, &err);
        memset(init, 0xAB, sizeof init);
        cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init, init, &err);
        clSetKernelArg(kernel, 0, sizeof scratch, &scratch);
        clSetKernelArg(kernel, 1, sizeof out, &out);
        size_t global = VALUES;
        cl_uint got[VALUES] = {0};
        err = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL);
        if (err == CL_SUCCESS) err = clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);
        clReleaseMemObject(scratch);
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
        for (int i = 0; i < VALUES; ++i) wrong |= got[i] != (cl_uint)i + 1u;
        printf("%-25s values %s, %d uninitialized-value reports\n", names[f], wrong ? "WRONG" : "right", reports);
        failures += wrong || reports > 0;
    }
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    printf("%s\n", failures ? "FAIL" : "PASS");
    return failures != 0;
}
