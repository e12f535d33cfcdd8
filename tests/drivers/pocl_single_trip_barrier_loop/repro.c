/* PoCL 3.1: a barrier in a loop that runs at most once, then a loop over each work-item's share of a
 * range whose body loads only under a uniform condition. The inner loop runs past its bound. README.md. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

static const char *source =
    "__kernel void k(__global const uint *in, __global uint *out, uint N, uint L, int flag)\n"
    "{\n"
    "    for (uint w = get_group_id(0); w < 4; w += 4) { /* at most one trip */\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        const uint first = w * L, end = N - first < L ? N : first + L;\n"
    "        for (uint n = first + get_local_id(0); n < end; n += get_local_size(0)) out[n] = flag ? in[n] : 0u;\n"
    "    }\n"
    "}\n";

enum { TOTAL = 1 << 16, POISON = 0xA5A5A5A5u };

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
    /* 4 work-groups of 256 write chunks of L = 223 of N = 890 elements; both buffers are far larger than
     * N, so an overrun lands in poison instead of outside the buffers */
    const cl_uint N = 890, L = 223;
    const cl_int flag = 1;
    const size_t local = 256, global = 4 * 256;
    static cl_uint in[TOTAL], out[TOTAL];
    for (size_t i = 0; i < TOTAL; ++i) {
        in[i] = (cl_uint)i;
        out[i] = POISON;
    }
    cl_mem in_mem = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    cl_mem out_mem = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof out, out, &err);
    clSetKernelArg(kernel, 0, sizeof in_mem, &in_mem);
    clSetKernelArg(kernel, 1, sizeof out_mem, &out_mem);
    clSetKernelArg(kernel, 2, sizeof N, &N);
    clSetKernelArg(kernel, 3, sizeof L, &L);
    clSetKernelArg(kernel, 4, sizeof flag, &flag);
    if (clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL) != CL_SUCCESS ||
        clEnqueueReadBuffer(queue, out_mem, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL) != CL_SUCCESS) {
        printf("enqueue failed\n");
        return 2;
    }
    size_t wrong = 0, first_wrong = 0;
    for (size_t i = 0; i < TOTAL; ++i) {
        const cl_uint want = i < N ? (cl_uint)i : POISON;
        if (out[i] != want && wrong++ == 0) first_wrong = i;
    }
    if (wrong) {
        printf("FAIL: %zu elements wrong, the first at %zu (N = %u): 0x%08x\n", wrong, first_wrong, N,
               out[first_wrong]);
        return 1;
    }
    printf("PASS\n");
    clReleaseMemObject(in_mem);
    clReleaseMemObject(out_mem);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return 0;
}
