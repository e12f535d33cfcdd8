/* A consumer of the installed clgather: its own OpenCL context, queue and buffers, a gather on
 * them, and the gather's out-event chained into a kernel of its own. Exit 0 on the right answer. */
#include <clgather.h>
#include <stdio.h>

static const char *scale_source =
    "__kernel void scale(__global int *x) { size_t i = get_global_id(0); x[i] = 10 * x[i]; }";

int main(void)
{
    cl_platform_id platform;
    cl_device_id device;
    cl_int err = clGetPlatformIDs(1, &platform, NULL);
    err |= clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    cl_context cl = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue queue = clCreateCommandQueue(cl, device, 0, &err);
    if (err != CL_SUCCESS) return fprintf(stderr, "consumer: no OpenCL (%d)\n", err), 1;

    clg_context *ctx;
    if (clg_context_create(cl, device, 0, &ctx) != CLG_SUCCESS)
        return fprintf(stderr, "consumer: %s\n", clg_last_error_message()), 1;
    printf("consumer: clgather %s\n", clg_version());

    /* ONNX Gather-13, data [3, 2] i32, indices [2] i32, axis 1 */
    const int data[6] = {1, 2, 3, 4, 5, 6};
    const int indices[2] = {1, -2};
    clg_gather_desc desc = {.preset = CLG_ONNX_13,
                            .data = {.type = CLG_I32, .rank = 2, .shape = {3, 2}},
                            .indices = {.type = CLG_I32, .rank = 1, .shape = {2}},
                            .axis = 1};
    cl_mem d = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof data, (void *)data, &err);
    cl_mem i = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof indices, (void *)indices, &err);
    cl_mem o = clCreateBuffer(cl, CL_MEM_READ_WRITE, 6 * sizeof(int), NULL, &err);
    cl_event gathered, scaled;
    clg_status st = clg_gather_enqueue(ctx, &desc, queue, d, 0, i, 0, o, 0, 0, NULL, &gathered);
    if (st != CLG_SUCCESS) return fprintf(stderr, "consumer: %s\n", clg_last_error_message()), 1;

    cl_program program = clCreateProgramWithSource(cl, 1, &scale_source, NULL, &err);
    err |= clBuildProgram(program, 1, &device, NULL, NULL, NULL);
    cl_kernel scale = clCreateKernel(program, "scale", &err);
    err |= clSetKernelArg(scale, 0, sizeof o, &o);
    size_t n = 6;
    err |= clEnqueueNDRangeKernel(queue, scale, 1, NULL, &n, NULL, 1, &gathered, &scaled);
    int out[6] = {0};
    err |= clEnqueueReadBuffer(queue, o, CL_TRUE, 0, sizeof out, out, 1, &scaled, NULL);
    const int want[6] = {20, 10, 40, 30, 60, 50};
    int ok = err == CL_SUCCESS;
    for (int k = 0; k < 6; ++k) ok = ok && out[k] == want[k];
    printf("consumer: %s\n", ok ? "ok" : "WRONG RESULT");

    clReleaseEvent(gathered);
    clReleaseEvent(scaled);
    clReleaseKernel(scale);
    clReleaseProgram(program);
    clReleaseMemObject(d);
    clReleaseMemObject(i);
    clReleaseMemObject(o);
    clg_context_release(ctx);
    clReleaseCommandQueue(queue);
    clReleaseContext(cl);
    return ok ? 0 : 1;
}
