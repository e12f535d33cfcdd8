/* The context handle: device, queue for the synchronous calls, program cache, options. */
#ifndef CLG_CONTEXT_H
#define CLG_CONTEXT_H

#include "clgather.h"
#include "program_cache.h"

/* How gather rows are mapped to work-items (testing can force either on any device). */
typedef enum clg_mapping {
    CLG_MAPPING_AUTO = 0,
    CLG_MAPPING_ROW_RUNS,  /* CPU devices: each work-item copies a run of whole rows */
    CLG_MAPPING_ROW_UNITS, /* GPUs: adjacent work-items copy adjacent units of a row */
} clg_mapping;

struct clg_context {
    int is_reference;
    uint32_t flags;
    cl_context cl_ctx;
    cl_device_id device;
    cl_command_queue queue;
    clg_device_info info;
    size_t max_work_group_size;
    size_t base_align_bytes; /* CL_DEVICE_MEM_BASE_ADDR_ALIGN, in bytes */
    cl_uint compute_units;
    clg_program_cache *programs;
    /* test-only overrides (see testing.h) */
    int force_offsets64;
    clg_mapping force_mapping;
    int force_stream; /* 1: streaming stores wherever the row-runs kernel allows, -1: never, 0: by size */
    int corrupt_verify_readback; /* flip one bit of what verify reads back, to test the comparison */
};

static inline int clg_context_verifies(const clg_context *ctx) { return (ctx->flags & CLG_CONTEXT_VERIFY) != 0; }

#endif
