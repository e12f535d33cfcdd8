/* Oclgrind 21.10: an OpenCL call made from an atexit() handler writes to freed memory.
 * liboclgrind-rt keeps a thread_local std::stack of API-call names; glibc's exit() runs thread_local
 * destructors (__call_tls_dtors) BEFORE atexit handlers, so the handler's clRelease* pushes onto a
 * destroyed stack: "corrupted double-linked list" / SIGABRT (or silent heap corruption).
 * A child process creates a context, queue and program, releases them from an atexit handler and
 * exits with 0; the parent prints PASS if the child exited normally with 0, FAIL otherwise.
 * Pass "main" as argv[1] to release before main returns instead (the workaround): PASS everywhere.
 * Build: cc -std=c11 repro.c -lOpenCL */
#define _POSIX_C_SOURCE          200809L
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static cl_context ctx;
static cl_command_queue queue;
static cl_program program;

static void release_all(void)
{
    if (program) clReleaseProgram(program);
    if (queue) clReleaseCommandQueue(queue);
    if (ctx) clReleaseContext(ctx);
    program = NULL, queue = NULL, ctx = NULL;
}

static int child(int release_in_main)
{
    cl_platform_id platform;
    cl_device_id device;
    cl_int err = clGetPlatformIDs(1, &platform, NULL);
    if (err == CL_SUCCESS) err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    if (err != CL_SUCCESS) return 2;
    ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    queue = clCreateCommandQueue(ctx, device, 0, &err);
    const char *src = "__kernel void k(__global int *p) { p[get_global_id(0)] = 1; }";
    program = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    if (err == CL_SUCCESS) err = clBuildProgram(program, 1, &device, "", NULL, NULL);
    if (err != CL_SUCCESS) return 3;
    if (release_in_main)
        release_all();
    else
        atexit(release_all);
    return 0;
}

int main(int argc, char **argv)
{
    const int release_in_main = argc > 1 && strcmp(argv[1], "main") == 0;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) return perror("fork"), 2;
    if (pid == 0) {
        int rc = child(release_in_main);
        exit(rc); /* exit(), not _exit(): run the atexit handlers */
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        printf("PASS: released from %s, child exited cleanly\n", release_in_main ? "main" : "an atexit handler");
        return 0;
    }
    if (WIFSIGNALED(status))
        printf("FAIL: released from %s, child killed by signal %d\n", release_in_main ? "main" : "an atexit handler",
               WTERMSIG(status));
    else
        printf("FAIL: child exit status %d\n", WEXITSTATUS(status));
    return 1;
}
