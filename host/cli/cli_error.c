#include "cli_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static char failure_message[2048];
static int failure_recorded;

static void record(const char *text)
{
    if (failure_recorded) return;
    failure_recorded = 1;
    /* one line, whatever the pieces hold (a kernel build log has newlines) */
    size_t n = 0;
    for (const char *p = text; *p && n + 1 < sizeof failure_message; ++p) {
        unsigned char c = (unsigned char)*p;
        failure_message[n++] = (c < 0x20 || c == 0x7f) ? ' ' : (char)c;
    }
    failure_message[n] = '\0';
}

int cli_fail(int exit_code, const char *fmt, ...)
{
    char text[sizeof failure_message];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    record(text);
    return exit_code;
}

int cli_fail_status(clg_status status, const char *fmt, ...)
{
    char what[1024];
    va_list args;
    va_start(args, fmt);
    vsnprintf(what, sizeof what, fmt, args);
    va_end(args);
    const char *detail = clg_last_error_message();
    char text[sizeof failure_message];
    snprintf(text, sizeof text, "%s: %s%s(%s)", what, detail ? detail : "", (detail && *detail) ? " " : "",
             clg_status_string(status));
    record(text);
    return CLI_EXIT_REFUSED;
}

int cli_has_failed(void) { return failure_recorded; }

void cli_take_failure(char *text, size_t capacity)
{
    if (capacity == 0) return;
    snprintf(text, capacity, "%s", failure_recorded ? failure_message : "");
    failure_recorded = 0;
    failure_message[0] = '\0';
}

void cli_print_failure(void)
{
    if (failure_recorded) fprintf(stderr, "clgather: error: %s\n", failure_message);
}
