/* What clgather knows of a device beyond OpenCL's queries: which driver it is, and the hints its
 * kernels may use there (kernels_cl/hints.h). Hints are on only where they were measured to help and
 * known to build (bench/RESULTS.md, docs/drivers.md); an unknown driver gets none. */
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
} clg_driver;

typedef struct clg_device_profile {
    clg_driver driver;
    int prefetch;     /* HINT_PREFETCH */
    int stream;       /* HINT_STREAM */
    int item_loops;   /* HINT_ITEM_LOOPS */
    int force_inline; /* HINT_FORCE_INLINE */
    /* build options every program needs on this driver, hints or not ("" for none) */
    const char *driver_options;
    /* the driver keeps built programs on disk itself: clgather's disk cache would only add work there */
    int driver_caches_programs;
} clg_device_profile;

/* The profile of a device: its driver by platform and vendor, its hints by driver, instruction set
 * and extensions. With CLGATHER_HINTS=0 in the environment every hint is off. */
void clg_device_profile_detect(cl_device_id device, const clg_device_info *info, clg_device_profile *profile);

/* The driver's name ("pocl", "intel-cpu", "rusticl", ...). */
const char *clg_driver_name(clg_driver driver);

#endif
