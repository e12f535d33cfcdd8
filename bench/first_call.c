#define _DEFAULT_SOURCE /* mkdtemp, setenv */
#include "first_call.h"

#include "clgather.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int first_call_probe(const char *device_spec)
{
    const double start = seconds_now();
    clg_context *ctx = NULL;
    if (clg_context_create_default(device_spec, 0, &ctx) != CLG_SUCCESS) return 1;
    const float data[16 * 16] = {0};
    const int32_t idx[4] = {3, 1, 4, 1};
    float out[4 * 16];
    const int64_t axis = 0;
    clg_gather_desc d = {.preset = CLG_OV_GATHER_8,
                         .data = {.type = CLG_F32, .rank = 2, .shape = {16, 16}},
                         .indices = {.type = CLG_I32, .rank = 1, .shape = {4}},
                         .axis_tensor = {.type = CLG_I64, .rank = 0},
                         .axis_value = &axis};
    clg_status st = clg_gather(ctx, &d, data, sizeof data, idx, sizeof idx, out, sizeof out);
    const double elapsed = seconds_now() - start;
    clg_context_release(ctx);
    if (st != CLG_SUCCESS) return 1;
    printf("first_call_s %.6f\n", elapsed);
    return 0;
}

/* Run this program as a probe with the given cache directories; returns the seconds it reports. */
static double run_probe(const char *device_spec, const char *clgather_cache, const char *driver_cache)
{
    int pipe_fd[2];
    if (pipe(pipe_fd) != 0) return -1;
    pid_t child = fork();
    if (child == 0) {
        dup2(pipe_fd[1], STDOUT_FILENO);
        close(pipe_fd[0]);
        setenv("CLGATHER_CACHE_DIR", clgather_cache, 1);
        setenv("POCL_CACHE_DIR", driver_cache, 1);
        unsetenv("CLGATHER_CACHE");
        char *args[] = {"clgather-bench", "--first-call-probe", (char *)(device_spec ? device_spec : ""), NULL};
        execv("/proc/self/exe", args);
        _exit(127);
    }
    close(pipe_fd[1]);
    char line[128] = "";
    ssize_t got = child > 0 ? read(pipe_fd[0], line, sizeof line - 1) : -1;
    close(pipe_fd[0]);
    int status = 0;
    if (child > 0) waitpid(child, &status, 0);
    double seconds = -1;
    if (got > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) sscanf(line, "first_call_s %lf", &seconds);
    return seconds;
}

first_call_times measure_first_call(const char *device_spec)
{
    first_call_times t = {-1, -1, -1, 0};
    char clgather_cache[] = "/tmp/clgather-bench-cache-XXXXXX", driver_cold[] = "/tmp/clgather-bench-pocl-XXXXXX",
         driver_again[] = "/tmp/clgather-bench-pocl-XXXXXX";
    if (!mkdtemp(clgather_cache) || !mkdtemp(driver_cold) || !mkdtemp(driver_again)) return t;
    t.cold_s = run_probe(device_spec, clgather_cache, driver_cold);
    t.clgather_only_s = run_probe(device_spec, clgather_cache, driver_again);
    t.warm_s = run_probe(device_spec, clgather_cache, driver_again);
    t.ok = t.cold_s > 0 && t.clgather_only_s > 0 && t.warm_s > 0;
    char cleanup[512];
    snprintf(cleanup, sizeof cleanup, "rm -rf '%s' '%s' '%s'", clgather_cache, driver_cold, driver_again);
    if (system(cleanup) != 0) t.ok = t.ok; /* leftover temporary directories are harmless */
    return t;
}
