/* Oclgrind 21.10: two host threads, each with its own command queue on one shared context, enqueue a
 * kernel at the same time. OpenCL 1.2 makes every API call thread-safe (but clSetKernelArg on one kernel
 * object); Oclgrind aborts: "Context.cpp:221: void oclgrind::Context::notifyKernelBegin(...): Assertion
 * `m_kernelInvocation == NULL' failed." With OCLGRIND_UNINITIALIZED=1 it may instead crash with SIGSEGV in
 * oclgrind::MemoryPool::alloc (ShadowContext, called from clCreateBuffer).
 * The threads run in a child process; the parent prints PASS if it exited with 0, FAIL otherwise.
 * Build: cc -std=c11 repro.c -lOpenCL -lpthread */
#define _POSIX_C_SOURCE          200809L
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static cl_context ctx;
static cl_device_id device;
static cl_program program;

static void *worker(void *arg)
{
    (void)arg;
    cl_int err;
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    cl_kernel kernel = clCreateKernel(program, "k", &err); /* one kernel object per thread */
    long bad = 0;
    for (int round = 0; round < 200; ++round) {
        cl_uint host[256];
        for (int i = 0; i < 256; ++i) host[i] = (cl_uint)(i + round);
        cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof host, host, &err);
        clSetKernelArg(kernel, 0, sizeof buf, &buf);
        size_t global = 256;
        err = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL);
        if (err == CL_SUCCESS) err = clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL);
        for (int i = 0; i < 256; ++i) bad += err != CL_SUCCESS || host[i] != (cl_uint)(2 * (i + round));
        clReleaseMemObject(buf);
    }
    clReleaseKernel(kernel);
    clReleaseCommandQueue(queue);
    return (void *)bad;
}

static int child(void)
{
    cl_platform_id platform;
    cl_int err = clGetPlatformIDs(1, &platform, NULL);
    if (err == CL_SUCCESS) err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    if (err != CL_SUCCESS) return 2;
    ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    const char *src = "__kernel void k(__global uint *p) { size_t i = get_global_id(0); p[i] *= 2u; }";
    program = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    if (clBuildProgram(program, 1, &device, "", NULL, NULL) != CL_SUCCESS) return 2;
    pthread_t threads[2];
    for (int t = 0; t < 2; ++t) pthread_create(&threads[t], NULL, worker, NULL);
    long bad = 0;
    for (int t = 0; t < 2; ++t) {
        void *r;
        pthread_join(threads[t], &r);
        bad += (long)r;
    }
    clReleaseProgram(program);
    clReleaseContext(ctx);
    return bad ? 3 : 0;
}

int main(void)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) return perror("fork"), 2;
    if (pid == 0) _exit(child());
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return printf("PASS: two threads, two queues, one context\n"), 0;
    if (WIFSIGNALED(status))
        printf("FAIL: the process died on signal %d\n", WTERMSIG(status));
    else
        printf("FAIL: exit status %d (3: wrong values)\n", WEXITSTATUS(status));
    return 1;
}
