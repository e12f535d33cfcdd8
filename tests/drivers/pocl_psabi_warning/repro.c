/* PoCL 3.1 (LLVM 15) on an x86 CPU without AVX-512 (its pthread-haswell target): a kernel that calls a
 * builtin on 16-wide float or int vectors (convert_float16, vload16 of floats) builds and runs right, but
 * clang's -Wpsabi warnings ("AVX vector argument of type 'int16' ... without 'avx512f' enabled changes the
 * ABI") are counted on stderr by the build, "2 warnings generated.", once per build. The warning is about
 * a calling convention no call in a kernel module crosses (PoCL links its builtins into the kernel); the
 * line on stderr is the symptom (clgather's CLI tests require an empty stderr, and a library's users do
 * not expect its driver to print). On an AVX-512 target there is no warning.
 * This program captures its own stderr around two builds of the same kernel, the second after
 * `#pragma clang diagnostic ignored "-Wpsabi"` (clgather's workaround, kernels_cl/hints.h), and prints FAIL
 * if the first build wrote to stderr or a value is wrong, PASS otherwise; it also reports whether the
 * pragma silenced the build. Build: cc -std=c11 repro.c -lOpenCL */
#define _POSIX_C_SOURCE          200809L
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KERNEL                                                        \
    "__kernel void k(__global const int *in, __global float *out)\n"  \
    "{\n"                                                             \
    "    const size_t i = get_global_id(0);\n"                        \
    "    vstore16(convert_float16(vload16(i, in)) * 2.0f, i, out);\n" \
    "}\n"

static const char *plain = KERNEL;
static const char *silenced = "#ifdef __clang__\n#pragma clang diagnostic ignored \"-Wpsabi\"\n#endif\n" KERNEL;

/* Build `source` and run it on 4 items of 16 values with stderr captured into text; returns the values
 * that came out wrong, or -1 on an OpenCL error. */
static int build_and_run(cl_context ctx, cl_device_id device, cl_command_queue queue, const char *source, char *text,
                         size_t size)
{
    fflush(stderr);
    const int saved = dup(STDERR_FILENO);
    FILE *capture = tmpfile();
    dup2(fileno(capture), STDERR_FILENO);
    cl_int err;
    cl_program program = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    err = clBuildProgram(program, 1, &device, "", NULL, NULL);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    rewind(capture);
    const size_t n = fread(text, 1, size - 1, capture);
    text[n] = '\0';
    fclose(capture);
    if (err != CL_SUCCESS) return printf("build error %d\n", err), -1;
    cl_kernel kernel = clCreateKernel(program, "k", &err);
    cl_int in[64];
    for (int i = 0; i < 64; ++i) in[i] = i - 7;
    cl_mem in_buf = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    cl_mem out_buf = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, 64 * sizeof(cl_float), NULL, &err);
    clSetKernelArg(kernel, 0, sizeof in_buf, &in_buf);
    clSetKernelArg(kernel, 1, sizeof out_buf, &out_buf);
    size_t global = 4;
    cl_float got[64];
    err = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS) err = clEnqueueReadBuffer(queue, out_buf, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);
    int wrong = err == CL_SUCCESS ? 0 : -1;
    for (int i = 0; i < 64 && wrong >= 0; ++i) wrong += got[i] != 2.0f * (float)in[i];
    clReleaseMemObject(in_buf);
    clReleaseMemObject(out_buf);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    return wrong;
}

int main(void)
{
    setenv("POCL_KERNEL_CACHE", "0", 1); /* a warm kernel cache skips the compiler, and the warning with it */
    setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);
    cl_platform_id platform;
    cl_device_id device;
    cl_int err = clGetPlatformIDs(1, &platform, NULL);
    if (err == CL_SUCCESS) err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    if (err != CL_SUCCESS) return printf("FAIL: no OpenCL device (%d)\n", err), 2;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    char first[4096], second[4096];
    const int wrong_plain = build_and_run(ctx, device, queue, plain, first, sizeof first);
    const int wrong_silenced = build_and_run(ctx, device, queue, silenced, second, sizeof second);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    if (wrong_plain < 0 || wrong_silenced < 0) return printf("FAIL: OpenCL error\n"), 2;
    if (first[0]) printf("stderr during the build: %s", first);
    printf("with the pragma: %s\n", second[0] ? second : "stderr clean");
    const int failed = wrong_plain || wrong_silenced || first[0];
    printf("values %s; %s\n", wrong_plain || wrong_silenced ? "WRONG" : "right",
           first[0] ? "the build wrote to stderr" : "stderr clean");
    printf("%s\n", failed ? "FAIL" : "PASS");
    return failed;
}
