#include "core/device_profile.h"

#include "core/devices.h"

#include <stdlib.h>
#include <string.h>

static int contains(const char *text, const char *part) { return strstr(text, part) != NULL; }

static clg_driver driver_of(const clg_device_info *info)
{
    if (contains(info->platform_name, "Portable Computing Language")) return CLG_DRIVER_POCL;
    if (contains(info->platform_name, "rusticl")) return CLG_DRIVER_RUSTICL;
    if (contains(info->platform_name, "Clover")) return CLG_DRIVER_CLOVER;
    if (contains(info->platform_name, "Oclgrind")) return CLG_DRIVER_OCLGRIND;
    if (contains(info->platform_name, "NVIDIA") || contains(info->vendor, "NVIDIA")) return CLG_DRIVER_NVIDIA;
    if (contains(info->platform_name, "Intel(R) OpenCL") && (info->type & CL_DEVICE_TYPE_CPU))
        return CLG_DRIVER_INTEL_CPU;
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
    default: return "other";
    }
}

void clg_device_profile_detect(cl_device_id device, const clg_device_info *info, clg_device_profile *profile)
{
    memset(profile, 0, sizeof *profile);
    profile->driver = driver_of(info);
    /* Oclgrind 21.10 cannot run two things LLVM's optimizer emits: llvm.experimental.noalias.scope.decl
     * (inlined restrict arguments) and freeze (tests/drivers/oclgrind_noalias_scope, oclgrind_freeze) */
    profile->driver_options = profile->driver == CLG_DRIVER_OCLGRIND ? " -cl-opt-disable" : "";
    /* PoCL caches every build under POCL_CACHE_DIR unless POCL_KERNEL_CACHE=0, and asking it for a
     * program's binary compiles every kernel of the program once more (bench/RESULTS.md, "Cold builds") */
    const char *pocl_cache = getenv("POCL_KERNEL_CACHE");
    profile->driver_caches_programs =
        profile->driver == CLG_DRIVER_POCL && !(pocl_cache && strcmp(pocl_cache, "0") == 0);
    const char *hints = getenv("CLGATHER_HINTS");
    if (hints && strcmp(hints, "0") == 0) return;
    /* The clang-based CPU runtimes compile the prefetch builtin (rusticl's SPIR-V writer aborts the
     * process on it, Oclgrind cannot run it: docs/drivers.md). Streaming stores need the x86 sfence
     * builtin, which only PoCL's native x86 build has (Intel's CPU compiler targets SPIR). */
    const int cpu = (info->type & CL_DEVICE_TYPE_CPU) != 0;
    if (cpu && (profile->driver == CLG_DRIVER_POCL || profile->driver == CLG_DRIVER_INTEL_CPU)) {
        profile->prefetch = 1;
        profile->force_inline = 1;
    }
#if defined(__x86_64__) || defined(__i386__)
    if (cpu && profile->driver == CLG_DRIVER_POCL) profile->stream = 1;
#endif
    /* Intel's CPU compiler vectorizes across work-items, which turns the row-runs loops into gathers */
    if (device && clg_device_has_extension(device, "cl_intel_vec_len_hint")) profile->item_loops = 1;
}
