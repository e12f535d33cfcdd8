/* Names of the out-of-range policies, as the CLI's --oob and the Python binding's oob= spell them. */
#include "clgather.h"

#include <string.h>

static const char *const oob_policy_names[CLG_OOB_COUNT] = {
    [CLG_OOB_PRESET] = "preset",
    [CLG_OOB_ERROR] = "error",
    [CLG_OOB_ZERO] = "zero",
    [CLG_OOB_CLAMP] = "clamp",
};

const char *clg_oob_policy_name(clg_oob_policy policy)
{
    return (int)policy >= 0 && (int)policy < (int)CLG_OOB_COUNT ? oob_policy_names[policy] : "invalid";
}

clg_oob_policy clg_oob_policy_from_name(const char *name)
{
    if (!name) return CLG_OOB_COUNT;
    for (int p = 0; p < (int)CLG_OOB_COUNT; ++p)
        if (strcmp(oob_policy_names[p], name) == 0) return (clg_oob_policy)p;
    return CLG_OOB_COUNT;
}
