/* What clgather knows of a device beyond OpenCL's queries: which driver it is, and what every program
 * needs there. What makes kernels fast there is the tuning table's (core/tuning.h). */
#ifndef CLG_DEVICE_PROFILE_H
#define CLG_DEVICE_PROFILE_H

#include "clgather.h"

typedef enum clg_driver {
    CLG_DRIVER_OTHER = 0,
    CLG_DRIVER_POCL,      /* Portable Computing Language */
    CLG_DRIVER_INTEL_CPU, /* Intel's CPU runtime ("Intel(R) OpenCL", a CPU device) */
    CLG_DRIVER_RUSTICL,   /* Mesa's rusticl */
    CLG_DRIVER_CLOVER,    /* Mesa's older Clover */
    CLG_DRIVER_OCLGRIND,  /* the Oclgrind simulator */
    CLG_DRIVER_NVIDIA,    /* NVIDIA's OpenCL */
    CLG_DRIVER_AMD,       /* AMD's OpenCL (ROCm or the older APP SDK) */
    CLG_DRIVER_INTEL_GPU, /* Intel's GPU runtime (NEO) */
} clg_driver;

typedef struct clg_device_profile {
    clg_driver driver;
    /* build options every program needs on this driver, hints or not ("" for none) */
    const char *driver_options;
    /* the driver keeps built programs on disk itself: clgather's disk cache would only add work there */
    int driver_caches_programs;
    /* a scratch buffer a kernel writes and reads back must be created from host data: the driver may give
     * a new buffer the uninitialized-value shadow of a smaller released one, which drops the kernel's
     * stores past its end and reports the reads (tests/drivers/oclgrind_stale_shadow) */
    int driver_scratch_from_host;
} clg_device_profile;

/* The profile of a device: its driver by platform, vendor and type. */
void clg_device_profile_detect(const clg_device_info *info, clg_device_profile *profile);

/* The driver of a device. */
clg_driver clg_driver_of(const clg_device_info *info);

/* The driver's name ("pocl", "intel-cpu", "rusticl", ...). */
const char *clg_driver_name(clg_driver driver);

#endif
