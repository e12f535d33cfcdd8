/* Names of an enum's values (index 0 the invalid value), for the preset-name functions of every
 * operation: the value of a name and the name of a value, "invalid" for anything unknown. */
#ifndef CLG_NAME_TABLE_H
#define CLG_NAME_TABLE_H

#include <string.h>

static inline const char *clg_name_of(const char *const *names, int count, int value)
{
    return value > 0 && value < count ? names[value] : "invalid";
}

/* 0 (the invalid value) if no value has this name. */
static inline int clg_value_named(const char *const *names, int count, const char *name)
{
    if (!name) return 0;
    for (int v = 1; v < count; ++v)
        if (strcmp(names[v], name) == 0) return v;
    return 0;
}

#endif
