/* Command-line option parsing shared by the subcommands: "--name VALUE", "--name=VALUE", flags. */
#ifndef CLI_ARGS_H
#define CLI_ARGS_H

#include "clgather.h"

#include <stdint.h>

typedef struct cli_option {
    const char *name;  /* without the leading "--" */
    int takes_value;   /* 1: needs a value; 0: a flag */
    const char *value; /* filled in: the value, or "" for a flag that is present; NULL when absent */
} cli_option;

/* Parse argv[0..argc) against options. Arguments that are not options are collected into
 * positionals (may be NULL when none are allowed; then any is a usage error). Returns 0, or
 * CLI_EXIT_USAGE with the failure recorded (unknown option, missing value, repeated option). */
int cli_parse_options(const char *command, int argc, char **argv, cli_option *options, int option_count,
                      const char **positionals, int *positional_count, int positional_capacity);

/* Strict decimal int64 ("-3", "+7", "12"; no spaces, no trailing text). Returns 0 on success. */
int cli_parse_int64(const char *text, int64_t *out);

/* The --oob value of `command`: NULL (absent) is the preset's policy; "error", "zero" or "clamp".
 * Returns 0, or CLI_EXIT_USAGE with the failure recorded. */
int cli_parse_oob(const char *command, const char *text, clg_oob_policy *policy);

#endif
