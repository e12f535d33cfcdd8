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

/* An integer option's value: *out keeps its default when text is NULL. Returns 0, or CLI_EXIT_USAGE
 * with "<command>: --<name> '<text>' is not an integer" recorded. */
int cli_parse_int64_option(const char *command, const char *name, const char *text, int64_t *out);

/* --oob error|zero|clamp (NULL: the preset's or layout's own rule). Returns 0 or CLI_EXIT_USAGE. */
int cli_parse_oob(const char *command, const char *text, clg_oob_policy *policy);

/* A comma-separated shape "4,32" (at most CLG_MAX_RANK non-negative extents; "" is a scalar).
 * Returns 0 or CLI_EXIT_USAGE. */
int cli_parse_shape(const char *command, const char *name, const char *text, int32_t *rank, int64_t *shape);

#endif
