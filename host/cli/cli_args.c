#include "cli_args.h"

#include "cli_error.h"

#include <string.h>

static cli_option *find_option(cli_option *options, int option_count, const char *name, size_t name_len)
{
    for (int i = 0; i < option_count; ++i)
        if (strlen(options[i].name) == name_len && strncmp(options[i].name, name, name_len) == 0) return &options[i];
    return NULL;
}

int cli_parse_options(const char *command, int argc, char **argv, cli_option *options, int option_count,
                      const char **positionals, int *positional_count, int positional_capacity)
{
    if (positional_count) *positional_count = 0;
    int only_positionals = 0;
    for (int i = 0; i < argc; ++i) {
        const char *arg = argv[i];
        if (only_positionals || strncmp(arg, "--", 2) != 0 || arg[2] == '\0') {
            if (!only_positionals && strcmp(arg, "--") == 0) {
                only_positionals = 1;
                continue;
            }
            if (!positionals || !positional_count || *positional_count >= positional_capacity)
                return cli_fail(CLI_EXIT_USAGE, "%s: unexpected argument '%s' (see 'clgather --help')", command, arg);
            positionals[(*positional_count)++] = arg;
            continue;
        }
        const char *name = arg + 2;
        const char *equals = strchr(name, '=');
        size_t name_len = equals ? (size_t)(equals - name) : strlen(name);
        cli_option *option = find_option(options, option_count, name, name_len);
        if (!option)
            return cli_fail(CLI_EXIT_USAGE, "%s: unknown option '%.*s' (see 'clgather --help')", command,
                            (int)(name_len + 2), arg);
        if (option->value)
            return cli_fail(CLI_EXIT_USAGE, "%s: option '--%s' given more than once", command, option->name);
        if (option->takes_value) {
            if (equals) {
                option->value = equals + 1;
            } else if (i + 1 < argc) {
                option->value = argv[++i];
            } else {
                return cli_fail(CLI_EXIT_USAGE, "%s: option '--%s' needs a value", command, option->name);
            }
        } else {
            if (equals) return cli_fail(CLI_EXIT_USAGE, "%s: option '--%s' takes no value", command, option->name);
            option->value = "";
        }
    }
    return 0;
}

int cli_parse_int64(const char *text, int64_t *out)
{
    const char *p = text;
    int negative = 0;
    if (*p == '+' || *p == '-') negative = (*p++ == '-');
    if (*p < '0' || *p > '9') return -1;
    /* accumulate as a negative number so that INT64_MIN parses */
    int64_t value = 0;
    for (; *p >= '0' && *p <= '9'; ++p) {
        int digit = *p - '0';
        if (value < (INT64_MIN + digit) / 10) return -1;
        value = value * 10 - digit;
    }
    if (*p != '\0') return -1;
    if (!negative) {
        if (value == INT64_MIN) return -1;
        value = -value;
    }
    *out = value;
    return 0;
}

int cli_parse_int64_option(const char *command, const char *name, const char *text, int64_t *out)
{
    if (text && cli_parse_int64(text, out) != 0)
        return cli_fail(CLI_EXIT_USAGE, "%s: --%s '%s' is not an integer", command, name, text);
    return 0;
}

int cli_parse_oob(const char *command, const char *text, clg_oob_policy *policy)
{
    if (!text) {
        *policy = CLG_OOB_PRESET;
        return 0;
    }
    /* the library's names, less "preset" (the default when --oob is left out) */
    const clg_oob_policy named = clg_oob_policy_from_name(text);
    if (named == CLG_OOB_COUNT || named == CLG_OOB_PRESET)
        return cli_fail(CLI_EXIT_USAGE, "%s: --oob must be error, zero or clamp, not '%s'", command, text);
    *policy = named;
    return 0;
}

int cli_parse_shape(const char *command, const char *name, const char *text, int32_t *rank, int64_t *shape)
{
    *rank = 0;
    const char *p = text;
    char piece[32];
    while (*p) {
        const char *comma = strchr(p, ',');
        const size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (*rank >= CLG_MAX_RANK || len == 0 || len >= sizeof piece)
            return cli_fail(CLI_EXIT_USAGE, "%s: --%s '%s' is not a shape such as 4,32", command, name, text);
        memcpy(piece, p, len);
        piece[len] = '\0';
        if (cli_parse_int64(piece, &shape[*rank]) != 0 || shape[*rank] < 0)
            return cli_fail(CLI_EXIT_USAGE, "%s: --%s '%s' is not a shape such as 4,32", command, name, text);
        ++*rank;
        p = comma ? comma + 1 : p + len;
        if (comma && !*p) return cli_fail(CLI_EXIT_USAGE, "%s: --%s '%s' ends with a comma", command, name, text);
    }
    return 0;
}
