#include "verify.h"

#include "index_value.h"
#include "status.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void hex_bytes(const unsigned char *p, size_t n, char *buf)
{
    static const char digits[] = "0123456789abcdef";
    /* little-endian element: most significant byte first */
    for (size_t i = 0; i < n; ++i) {
        buf[2 * i] = digits[p[n - 1 - i] >> 4];
        buf[2 * i + 1] = digits[p[n - 1 - i] & 15];
    }
    buf[2 * n] = '\0';
}

clg_status clg_verify_compare(const char *what, const void *device, const void *reference, uint64_t elems,
                              size_t elem_size, const int64_t *shape, int32_t rank)
{
    const unsigned char *d = device, *r = reference;
    if (memcmp(d, r, elems * elem_size) == 0) return CLG_SUCCESS;
    uint64_t e = 0;
    while (e < elems && memcmp(d + e * elem_size, r + e * elem_size, elem_size) == 0) ++e;
    char where[256], got[40], want[40];
    clg_format_position(shape, rank, e, where, sizeof where);
    hex_bytes(d + e * elem_size, elem_size, got);
    hex_bytes(r + e * elem_size, elem_size, want);
    return clg_fail(CLG_ERR_VERIFY_MISMATCH,
                    "verify: %s%s (flat element %" PRIu64 ") is 0x%s on the device but 0x%s in the CPU reference", what,
                    where, e, got, want);
}

clg_status clg_verify_gather(const clg_gather_desc *desc, const clg_gather_plan *plan, const void *data,
                             const void *indices, const void *device_output)
{
    void *expected = malloc(plan->out_bytes ? plan->out_bytes : 1);
    if (!expected) return clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "verify: cannot allocate %" PRIu64 " bytes", plan->out_bytes);
    clg_status st = clg_reference_run(desc, plan, data, indices, expected);
    if (st != CLG_SUCCESS) {
        char reason[512];
        snprintf(reason, sizeof reason, "%s", clg_last_error_message());
        st = clg_fail(CLG_ERR_VERIFY_MISMATCH, "verify: the device succeeded but the CPU reference failed: %s", reason);
    } else {
        st = clg_verify_compare("output", device_output, expected, plan->out_elems, plan->elem_size, plan->out_shape,
                                plan->out_rank);
    }
    free(expected);
    return st;
}
