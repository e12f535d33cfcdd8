/* Failure reporting for the command-line program: the first failure is recorded and printed as the
 * one line "clgather: error: ..." when the program exits, so a cascade never prints twice. */
#ifndef CLI_ERROR_H
#define CLI_ERROR_H

#include "clgather.h"

#include <stddef.h>

/* Exit statuses of the program. */
enum { CLI_EXIT_OK = 0, CLI_EXIT_REFUSED = 1, CLI_EXIT_USAGE = 2 };

/* Record a failure (only the first one is kept) and return exit_code. */
int cli_fail(int exit_code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Record a library failure: the message, then clgather's own message and the status name. Returns
 * CLI_EXIT_REFUSED. */
int cli_fail_status(clg_status status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Whether a failure has been recorded. */
int cli_has_failed(void);

/* Move the recorded failure's text into text (one line, "" if none) and forget it, so that a command
 * that goes on after a failure (conformance, demo) can report each one itself. */
void cli_take_failure(char *text, size_t capacity);

/* Print the recorded failure as one line on stderr (nothing if none was recorded). */
void cli_print_failure(void);

#endif
