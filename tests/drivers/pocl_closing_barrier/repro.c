/* PoCL 3.1: work-items that skip a loop (runtime trip counts, calling a helper with two runtime-bounded
 * loops), then a barrier with a statement after it. The items past the range run the loop anyway and
 * write outside it. README.md. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *source =
    "void zero_range(__global float *out, ulong first, ulong count)\n"
    "{\n"
    "    ulong k = first;\n"
    "    const ulong end = first + count;\n"
    "    for (; end - k >= 8; k += 8) vstore8((float8)(0), 0, out + k);\n"
    "    for (; k < end; ++k) out[k] = 0;\n"
    "}\n"
    "__kernel void k(__global float *out, ulong total, ulong per_item, ulong chunk, __global uint *done)\n"
    "{\n"
    "    ulong t = get_global_id(0) * per_item;\n"
    "    if (t < total) {\n"
    "        const ulong end = min(t + per_item, total);\n"
    "        while (t < end) {\n"
    "            const ulong count = min(chunk, end - t);\n"
    "            zero_range(out, t * 32, count * 32);\n"
    "            t += count;\n"
    "        }\n"
    "    }\n"
    "    barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "    if (get_local_id(0) == 0) done[get_group_id(0)] = 1u;\n"
    "}\n";

enum { TOTAL = 1 << 16 };
static const float POISON = -7.0f;

int main(void)
{
    cl_platform_id platform;
    cl_device_id device;
    cl_int err;
    if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
        printf("no OpenCL device\n");
        return 2;
    }
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    if (clBuildProgram(program, 1, &device, "", NULL, NULL) != CL_SUCCESS) {
        printf("build failed\n");
        return 2;
    }
    cl_kernel kernel = clCreateKernel(program, "k", &err);
    /* one work-group of 64 items, of which the first 4 zero a unit of 32 floats each; the output buffer is
     * far larger than those 128 floats, so the stray writes land in poison instead of outside the buffer */
    const cl_ulong total = 4, per_item = 1, chunk = 2;
    const size_t local = 64, global = 64;
    static float out[TOTAL];
    for (size_t i = 0; i < TOTAL; ++i) out[i] = POISON;
    cl_uint done = 0;
    cl_mem out_mem = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof out, out, &err);
    cl_mem done_mem = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof done, &done, &err);
    clSetKernelArg(kernel, 0, sizeof out_mem, &out_mem);
    clSetKernelArg(kernel, 1, sizeof total, &total);
    clSetKernelArg(kernel, 2, sizeof per_item, &per_item);
    clSetKernelArg(kernel, 3, sizeof chunk, &chunk);
    clSetKernelArg(kernel, 4, sizeof done_mem, &done_mem);
    if (clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL) != CL_SUCCESS ||
        clEnqueueReadBuffer(queue, out_mem, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL) != CL_SUCCESS ||
        clEnqueueReadBuffer(queue, done_mem, CL_TRUE, 0, sizeof done, &done, 0, NULL, NULL) != CL_SUCCESS) {
        printf("enqueue failed\n");
        return 2;
    }
    const size_t written = (size_t)total * 32;
    size_t wrong = 0, first_wrong = 0;
    for (size_t i = 0; i < TOTAL; ++i) {
        const float want = i < written ? 0.0f : POISON;
        if (memcmp(&out[i], &want, sizeof want) != 0 && wrong++ == 0) first_wrong = i;
    }
    if (wrong || done != 1) {
        printf("FAIL: %zu floats wrong, the first at %zu (%zu written); done = %u\n", wrong, first_wrong, written,
               done);
        return 1;
    }
    printf("PASS\n");
    clReleaseMemObject(out_mem);
    clReleaseMemObject(done_mem);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return 0;
}
