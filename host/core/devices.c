#include "core/devices.h"

#include "core/device_profile.h"
#include "core/status.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define CLG_MAX_PLATFORMS            32
#define CLG_MAX_DEVICES_PER_PLATFORM 64

typedef struct device_entry {
    cl_platform_id platform;
    cl_device_id device;
} device_entry;

/* All devices of all platforms, in spec order. A machine without any platform has zero devices. */
static size_t enumerate(device_entry *out, size_t capacity)
{
    cl_platform_id platforms[CLG_MAX_PLATFORMS];
    cl_uint num_platforms = 0;
    if (clGetPlatformIDs(CLG_MAX_PLATFORMS, platforms, &num_platforms) != CL_SUCCESS) return 0;
    if (num_platforms > CLG_MAX_PLATFORMS) num_platforms = CLG_MAX_PLATFORMS;
    size_t count = 0;
    for (cl_uint p = 0; p < num_platforms; ++p) {
        cl_device_id devices[CLG_MAX_DEVICES_PER_PLATFORM];
        cl_uint num_devices = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, CLG_MAX_DEVICES_PER_PLATFORM, devices, &num_devices) !=
            CL_SUCCESS)
            continue;
        if (num_devices > CLG_MAX_DEVICES_PER_PLATFORM) num_devices = CLG_MAX_DEVICES_PER_PLATFORM;
        for (cl_uint d = 0; d < num_devices && count < capacity; ++d)
            out[count++] = (device_entry){platforms[p], devices[d]};
    }
    return count;
}

static void query_string(cl_int (*query)(void *, cl_uint, size_t, void *, size_t *), void *object, cl_uint param,
                         char *buf, size_t size)
{
    size_t got = 0;
    if (query(object, param, size - 1, buf, &got) != CL_SUCCESS) got = 0;
    buf[got < size ? got : size - 1] = '\0';
}

static cl_int platform_query(void *o, cl_uint p, size_t s, void *v, size_t *r)
{
    return clGetPlatformInfo((cl_platform_id)o, p, s, v, r);
}

static cl_int device_query(void *o, cl_uint p, size_t s, void *v, size_t *r)
{
    return clGetDeviceInfo((cl_device_id)o, p, s, v, r);
}

int clg_device_has_extension(cl_device_id device, const char *name)
{
    size_t size = 0;
    if (clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, NULL, &size) != CL_SUCCESS || size == 0) return 0;
    char *ext = malloc(size + 1);
    if (!ext) return 0;
    int found = 0;
    if (clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, ext, NULL) == CL_SUCCESS) {
        ext[size] = '\0';
        size_t len = strlen(name);
        for (const char *p = ext; (p = strstr(p, name)) != NULL; p += len)
            if ((p == ext || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0')) found = 1;
    }
    free(ext);
    return found;
}

void clg_describe_device(cl_platform_id platform, cl_device_id device, int32_t index, clg_device_info *info)
{
    memset(info, 0, sizeof *info);
    info->index = index;
    query_string(platform_query, platform, CL_PLATFORM_NAME, info->platform_name, sizeof info->platform_name);
    query_string(platform_query, platform, CL_PLATFORM_VERSION, info->platform_version, sizeof info->platform_version);
    query_string(device_query, device, CL_DEVICE_NAME, info->device_name, sizeof info->device_name);
    query_string(device_query, device, CL_DEVICE_VENDOR, info->vendor, sizeof info->vendor);
    query_string(device_query, device, CL_DRIVER_VERSION, info->driver_version, sizeof info->driver_version);
    query_string(device_query, device, CL_DEVICE_OPENCL_C_VERSION, info->opencl_c_version,
                 sizeof info->opencl_c_version);
    cl_ulong mem = 0, alloc = 0;
    clGetDeviceInfo(device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem, NULL);
    clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof alloc, &alloc, NULL);
    clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof info->type, &info->type, NULL);
    info->global_mem_bytes = mem;
    info->max_alloc_bytes = alloc;
    info->has_fp16 = clg_device_has_extension(device, "cl_khr_fp16");
    info->has_fp64 = clg_device_has_extension(device, "cl_khr_fp64");
}

static size_t default_index(const device_entry *devices, size_t count)
{
    for (size_t i = 0; i < count; ++i) {
        cl_device_type type = 0;
        clGetDeviceInfo(devices[i].device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
        if (type & CL_DEVICE_TYPE_GPU) return i;
    }
    return 0;
}

clg_status clg_list_devices(clg_device_info *out, size_t capacity, size_t *count)
{
    clg_clear_error();
    if (!count) return clg_fail(CLG_ERR_NULL_ARGUMENT, "count is NULL");
    if (capacity > 0 && !out) return clg_fail(CLG_ERR_NULL_ARGUMENT, "out is NULL but capacity is %zu", capacity);
    device_entry devices[CLG_MAX_PLATFORMS * 4];
    size_t n = enumerate(devices, sizeof devices / sizeof devices[0]);
    size_t def = default_index(devices, n);
    for (size_t i = 0; i < n && i < capacity; ++i) {
        clg_describe_device(devices[i].platform, devices[i].device, (int32_t)i, &out[i]);
        out[i].is_default = (i == def);
    }
    *count = n;
    return CLG_SUCCESS;
}

static int contains_ignoring_case(const char *haystack, const char *needle)
{
    size_t n = strlen(needle);
    for (; *haystack; ++haystack) {
        size_t k = 0;
        while (k < n && haystack[k] && tolower((unsigned char)haystack[k]) == tolower((unsigned char)needle[k])) ++k;
        if (k == n) return 1;
    }
    return n == 0;
}

/* Whether spec is the device's implementation as users name it: the driver's short name ("pocl",
 * "intel-cpu", ...) or the part before its dash ("intel"). */
static int names_implementation(const clg_device_info *info, const char *spec)
{
    const char *name = clg_driver_name(clg_driver_of(info));
    if (strcmp(name, "other") == 0) return 0;
    size_t n = 0;
    while (spec[n] && name[n] && tolower((unsigned char)spec[n]) == name[n]) ++n;
    return spec[n] == '\0' && n > 0 && (name[n] == '\0' || name[n] == '-');
}

static int is_decimal(const char *s)
{
    if (!*s) return 0;
    for (; *s; ++s)
        if (!isdigit((unsigned char)*s)) return 0;
    return 1;
}

clg_status clg_select_device(const char *spec, int *is_reference, cl_platform_id *platform, cl_device_id *device,
                             int32_t *index)
{
    if (!spec || !*spec) spec = getenv("CLGATHER_DEVICE");
    if (spec && !*spec) spec = NULL;
    *is_reference = 0;
    if (spec && strlen(spec) == 3 && tolower((unsigned char)spec[0]) == 'c' && tolower((unsigned char)spec[1]) == 'p' &&
        tolower((unsigned char)spec[2]) == 'u') {
        *is_reference = 1;
        *index = -1;
        return CLG_SUCCESS;
    }
    device_entry devices[CLG_MAX_PLATFORMS * 4];
    size_t n = enumerate(devices, sizeof devices / sizeof devices[0]);
    if (n == 0)
        return clg_fail(CLG_ERR_NO_DEVICE,
                        "no OpenCL device found (device spec \"%s\"); use \"cpu\" for the CPU reference",
                        spec ? spec : "");
    size_t chosen = n;
    if (!spec) {
        chosen = default_index(devices, n);
    } else if (is_decimal(spec)) {
        if (strlen(spec) > 6 || (size_t)atoi(spec) >= n)
            return clg_fail(CLG_ERR_NO_DEVICE, "device index %s is not below the %zu devices found", spec, n);
        chosen = (size_t)atoi(spec);
    } else {
        /* an implementation's name first, on every device, then names containing the spec: "intel" is
         * Intel's runtime even where PoCL's device name says "Intel(R) Xeon" */
        for (int by_name = 0; by_name < 2 && chosen == n; ++by_name)
            for (size_t i = 0; i < n && chosen == n; ++i) {
                clg_device_info info;
                clg_describe_device(devices[i].platform, devices[i].device, (int32_t)i, &info);
                if (by_name ? contains_ignoring_case(info.platform_name, spec) ||
                                  contains_ignoring_case(info.device_name, spec)
                            : names_implementation(&info, spec))
                    chosen = i;
            }
        if (chosen == n)
            return clg_fail(CLG_ERR_NO_DEVICE, "no OpenCL device's platform or device name contains \"%s\"", spec);
    }
    *platform = devices[chosen].platform;
    *device = devices[chosen].device;
    *index = (int32_t)chosen;
    return CLG_SUCCESS;
}
