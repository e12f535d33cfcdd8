/* Failure reporting: every failing path records a status and a thread-local message, then returns. */
#ifndef CLG_STATUS_H
#define CLG_STATUS_H

#include "clgather.h"

/* Record status and a printf-style message for the calling thread; returns status. */
clg_status clg_fail(clg_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Record an OpenCL failure: the code passes through unchanged, the message names the call. */
clg_status clg_fail_cl(cl_int err, const char *what);

/* Clear the thread's message at the start of a public call. */
void clg_clear_error(void);

/* Name of an OpenCL error code, or NULL. */
const char *clg_cl_error_name(cl_int err);

#endif
