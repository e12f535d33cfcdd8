/* Timing a case's runs, for clgather-bench and `clgather tune`: the monotonic clock, the median of a
 * set of times, and a command's profiled seconds. */
#ifndef CLI_RUN_TIMING_H
#define CLI_RUN_TIMING_H

#include "clgather.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>

static inline double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int compare_doubles(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v[0, n) (n > 0); sorts v. */
static inline double median_of(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare_doubles);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* CL_PROFILING_COMMAND_END - START of a command in seconds; NAN where the driver gives none (or a
 * start no earlier than the end, as rusticl 22.3 reports). The queue needs CL_QUEUE_PROFILING_ENABLE. */
static inline double event_seconds(cl_event ev)
{
    cl_ulong start = 0, end = 0;
    if (clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL) != CL_SUCCESS ||
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL) != CL_SUCCESS || end <= start)
        return NAN;
    return 1e-9 * (double)(end - start);
}

#endif
