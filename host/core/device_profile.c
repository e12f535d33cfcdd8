#include "core/device_profile.h"

#include <stdlib.h>
#include <string.h>

static int contains(const char *text, const char *part) { return strstr(text, part) != NULL; }

clg_driver clg_driver_of(const clg_device_info *info)
{
    if (contains(info->platform_name, "Portable Computing Language")) return CLG_DRIVER_POCL;
    if (contains(info->platform_name, "rusticl")) return CLG_DRIVER_RUSTICL;
    if (contains(info->platform_name, "Clover")) return CLG_DRIVER_CLOVER;
    if (contains(info->platform_name, "Oclgrind")) return CLG_DRIVER_OCLGRIND;
    if (contains(info->platform_name, "NVIDIA") || contains(info->vendor, "NVIDIA")) return CLG_DRIVER_NVIDIA;
    if (contains(info->platform_name, "AMD") || contains(info->vendor, "Advanced Micro Devices")) return CLG_DRIVER_AMD;
    if (contains(info->platform_name, "Intel(R) OpenCL") || contains(info->vendor, "Intel(R) Corporation"))
        return (info->type & CL_DEVICE_TYPE_CPU)   ? CLG_DRIVER_INTEL_CPU
               : (info->type & CL_DEVICE_TYPE_GPU) ? CLG_DRIVER_INTEL_GPU
                                                   : CLG_DRIVER_OTHER;
    return CLG_DRIVER_OTHER;
}

const char *clg_driver_name(clg_driver driver)
{
    switch (driver) {
    case CLG_DRIVER_POCL: return "pocl";
    case CLG_DRIVER_INTEL_CPU: return "intel-cpu";
    case CLG_DRIVER_RUSTICL: return "rusticl";
    case CLG_DRIVER_CLOVER: return "clover";
    case CLG_DRIVER_OCLGRIND: return "oclgrind";
    case CLG_DRIVER_NVIDIA: return "nvidia";
    case CLG_DRIVER_AMD: return "amd";
    case CLG_DRIVER_INTEL_GPU: return "intel-gpu";
    default: return "other";
    }
}

void clg_device_profile_detect(const clg_device_info *info, clg_device_profile *profile)
{
    memset(profile, 0, sizeof *profile);
    profile->driver = clg_driver_of(info);
    /* Oclgrind 21.10 cannot run two things LLVM's optimizer emits: llvm.experimental.noalias.scope.decl
     * (inlined restrict arguments) and freeze (tests/drivers/oclgrind_noalias_scope, oclgrind_freeze) */
    profile->driver_options = profile->driver == CLG_DRIVER_OCLGRIND ? " -cl-opt-disable" : "";
    profile->driver_scratch_from_host = profile->driver == CLG_DRIVER_OCLGRIND;
    /* PoCL caches every build under POCL_CACHE_DIR unless POCL_KERNEL_CACHE=0, and asking it for a
     * program's binary compiles every kernel of the program once more */
    const char *pocl_cache = getenv("POCL_KERNEL_CACHE");
    profile->driver_caches_programs =
        profile->driver == CLG_DRIVER_POCL && !(pocl_cache && strcmp(pocl_cache, "0") == 0);
}
