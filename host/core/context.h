/* The context handle: device, queue for the synchronous calls, program cache, options. */
#ifndef CLG_CONTEXT_H
#define CLG_CONTEXT_H

#include "clgather.h"
#include "core/deferred.h"
#include "core/device_profile.h"
#include "core/tuning.h"
#include "core/variants.h"
#include "programs/program_cache.h"
#include "testing/test_switches.h"

struct clg_context {
    int is_reference;
    uint32_t flags;
    cl_context cl_ctx;
    cl_device_id device;
    cl_command_queue queue;
    clg_device_info info;
    size_t max_work_group_size;
    size_t max_work_item_sizes[3]; /* CL_DEVICE_MAX_WORK_ITEM_SIZES */
    cl_uint address_bits;          /* CL_DEVICE_ADDRESS_BITS: a global size must fit the device's size_t */
    size_t base_align_bytes;       /* CL_DEVICE_MEM_BASE_ADDR_ALIGN, in bytes */
    cl_uint compute_units;
    cl_device_fp_config single_fp_config; /* CL_DEVICE_SINGLE_FP_CONFIG: the kernels' f32 build options */
    cl_uint native_float_lanes;           /* CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT: picks the tuning table's row */
    uint64_t local_mem_bytes;             /* CL_DEVICE_LOCAL_MEM_SIZE */
    int local_mem_dedicated;    /* CL_DEVICE_LOCAL_MEM_TYPE is CL_LOCAL: on-chip, not carved out of global memory */
    clg_device_profile profile; /* the driver and the build options it needs */
    clg_tuning tuning;          /* every launcher's choices (core/tuning.h) */
    const char *tuning_row;     /* the tuning table's row */
    int tuning_measured;        /* whether that row was measured on this implementation */
    char tuning_origin[4200];   /* "" (the table's), "profile: PATH" or "set by the caller" */
    int hints_failed;           /* a build with hints failed: build without them from now on */
    clg_program_cache *programs;
    clg_deferred *deferred; /* the calls made under CLG_CONTEXT_DEFER_ERRORS whose status is pending */
    cl_mem open_gate;       /* a failure record whose flag is clear: the gate of calls with no check */
#ifdef CLGATHER_TESTING
    clg_test_switches testing;
#endif
};

static inline int clg_context_verifies(const clg_context *ctx) { return (ctx->flags & CLG_CONTEXT_VERIFY) != 0; }

/* The variant a test or the benchmark forced on a family (core/variants.h), or -1. */
static inline int clg_context_forced_variant(const clg_context *ctx, clg_variant_family family)
{
#ifdef CLGATHER_TESTING
    return ctx->testing.forced_variant[family] - 1;
#else
    (void)ctx;
    (void)family;
    return -1;
#endif
}

/* Whether a family's kernels map adjacent work-items to adjacent memory (GPUs: loads coalesce) rather
 * than giving each work-item a contiguous run (CPUs: one thread walks a group's items in turn): the
 * mapping of the variant forced on the family, else the tuning's. */
static inline int clg_context_maps_adjacent(const clg_context *ctx, clg_variant_family family)
{
    const int forced = clg_context_forced_variant(ctx, family);
    const clg_mapping mapping =
        forced >= 0 ? clg_variant_get((clg_variant_id)forced)->mapping : (clg_mapping)ctx->tuning.mapping;
    return mapping == CLG_MAPPING_ADJACENT;
}

/* Whether `id` is the variant forced on its family. */
static inline int clg_context_forces(const clg_context *ctx, clg_variant_id id)
{
    return clg_context_forced_variant(ctx, clg_variant_get(id)->family) == (int)id;
}

/* The tuning of a new context: the table's row for its device, then a stored or named profile. */
void clg_context_init_tuning(clg_context *ctx);

#endif
