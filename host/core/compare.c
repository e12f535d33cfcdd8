#include "core/compare.h"

#include "core/index_value.h"
#include "core/status.h"

#include <inttypes.h>
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

clg_status clg_compare_results(const char *what, const void *device, const void *reference, uint64_t elems,
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
