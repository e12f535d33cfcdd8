/* Enumerating OpenCL devices and choosing one from a device spec (CLGATHER_DEVICE). */
#ifndef CLG_DEVICES_H
#define CLG_DEVICES_H

#include "clgather.h"

/* Whether the device lists an extension (exact name). */
int clg_device_has_extension(cl_device_id device, const char *name);

/* Fill info for one device (index as given). */
void clg_describe_device(cl_platform_id platform, cl_device_id device, int32_t index, clg_device_info *info);

/* Resolve a spec (NULL or "" means CLGATHER_DEVICE, then the default rule). On success either
 * *is_reference = 1, or *platform / *device / *index name the chosen OpenCL device. */
clg_status clg_select_device(const char *spec, int *is_reference, cl_platform_id *platform, cl_device_id *device,
                             int32_t *index);

#endif
