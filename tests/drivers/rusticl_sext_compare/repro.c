/* Mesa rusticl 22.3.6 on llvmpipe: a signed comparison of an int sign-extended to long against a
 * constant gives the wrong answer: ((long)x < 0) is 0 for x = -7. The extension itself is right
 * ((long)x >> 32 is -1) and char/short sources compare correctly.
 * In clgather this makes index_in_range (kernels_cl/index_rules.h) accept negative i32 indices below -A
 * and sequence_length (kernels_cl/gather_tree.cl) return a negative length for max_seq_len = -1.
 * Build: cc -std=c11 repro.c -lOpenCL; run with the implementation under test. Prints PASS or FAIL. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>

static const char *source = "__kernel void sext_lt0(__global const int *in, __global int *out)\n"
                            "{\n"
                            "    size_t i = get_global_id(0);\n"
                            "    out[i] = (long)in[i] < 0;\n"
                            "}\n"
                            /* the workaround: test the sign before widening */
                            "__kernel void narrow_lt0(__global const int *in, __global int *out)\n"
                            "{\n"
                            "    size_t i = get_global_id(0);\n"
                            "    out[i] = in[i] < 0;\n"
                            "}\n";

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

    const cl_int in[8] = {-7, -1, 0, 5, -100, 6, -2147483647 - 1, 2147483647};
    const cl_int want[8] = {1, 1, 0, 0, 1, 0, 1, 0};
    cl_mem bin = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, (void *)in, &err);
    cl_mem bout = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof in, NULL, &err);
    int failures = 0;
    const char *kernels[2] = {"sext_lt0", "narrow_lt0"};
    for (int k = 0; k < 2; ++k) {
        cl_kernel kernel = clCreateKernel(program, kernels[k], &err);
        clSetKernelArg(kernel, 0, sizeof bin, &bin);
        clSetKernelArg(kernel, 1, sizeof bout, &bout);
        size_t global = 8;
        cl_int out[8] = {0};
        err = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL);
        if (err == CL_SUCCESS) err = clEnqueueReadBuffer(queue, bout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
        if (err != CL_SUCCESS) return printf("FAIL: enqueue error %d\n", err), 2;
        int bad = 0;
        for (int i = 0; i < 8; ++i) bad += out[i] != want[i];
        printf("%-10s (%s):", kernels[k], k ? "int < 0" : "(long)int < 0");
        for (int i = 0; i < 8; ++i) printf(" %d->%d", in[i], out[i]);
        printf("  %s\n", bad ? "wrong" : "right");
        failures += bad;
        clReleaseKernel(kernel);
    }
    clReleaseMemObject(bin);
    clReleaseMemObject(bout);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    printf("%s: %s, driver %s\n", failures ? "FAIL" : "PASS", name, version);
    return failures ? 1 : 0;
}
