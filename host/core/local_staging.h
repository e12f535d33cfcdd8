/* Staging in local memory, a form of the GPU mapping for outputs of one small unit each (Gather and
 * GatherND rows: kernels_cl/row_stage_gpu.h; GatherElements along the innermost axis:
 * gather_elements_gpu.cl). Read straight from global memory, each such output costs a memory
 * transaction of its own; instead a work-group copies the data its outputs select from (a group, at most
 * the device's local memory) with coalesced loads, then serves those outputs from local memory. This
 * decides whether that pays, and how a group's outputs are split among work-groups. */
#ifndef CLG_LOCAL_STAGING_H
#define CLG_LOCAL_STAGING_H

#include "core/context.h"
#include "core/launch.h"

#include <stdint.h>

typedef struct clg_staging {
    int on;
    uint64_t groups;
    uint64_t chunks; /* work-groups per group, each serving chunk_len of its outputs (the last fewer) */
    uint64_t chunk_len;
    uint64_t slab_bytes; /* the group's data */
    int wide;            /* every group starts and ends on 16 bytes: the kernel loads it 16 bytes at a time */
} clg_staging;

/* When a launcher stages: by the gain below, or, where a test or the benchmark forced the staged or the
 * unstaged variant (core/variants.h), wherever the slab fits or never. */
typedef enum clg_staging_rule {
    CLG_STAGING_BY_GAIN = 0,
    CLG_STAGING_WHEREVER_IT_FITS,
    CLG_STAGING_NEVER,
} clg_staging_rule;

/* The rule for a family whose staged and unstaged forms are these variants. */
static inline clg_staging_rule clg_staging_rule_of(const clg_context *ctx, clg_variant_id staged,
                                                   clg_variant_id unstaged)
{
    return clg_context_forces(ctx, staged)     ? CLG_STAGING_WHEREVER_IT_FITS
           : clg_context_forces(ctx, unstaged) ? CLG_STAGING_NEVER
                                               : CLG_STAGING_BY_GAIN;
}

/* For `groups` groups of `slab_bytes` of data (> 0) in `data`, each selected from by `outputs` outputs,
 * every group's start (from the buffer's offset) and length a multiple of `group_multiple` bytes: on
 * where the device's local memory is on chip and holds the slab, and a chunk's outputs, a transaction
 * each if read from global memory, would move at least the slab's bytes (under rule CLG_STAGING_BY_GAIN). */
clg_staging clg_staging_choose(const clg_context *ctx, clg_staging_rule rule, uint64_t groups, uint64_t outputs,
                               uint64_t slab_bytes, uint64_t group_multiple, const clg_buffer *data, size_t local_size);

/* The staged kernel's build option (" -DSLAB_WIDE=0|1", kernels_cl/stage_slab.h), or "" unstaged. */
void clg_staging_options(const clg_staging *s, char *buf, size_t size);

/* The staged kernel's arguments from index `first`: chunks and chunk length (as offsets, 32 or 64 bits),
 * then the local buffer (the slab in whole 16-byte vectors, the type the kernels declare it with). */
cl_int clg_staging_set_args(cl_kernel kernel, cl_uint first, const clg_staging *s, int offsets64);

/* One dimension of one work-group per (group, chunk) pair, at most as many as the device keeps busy (the
 * kernels stride over the rest); fills local and items for clg_launch. */
void clg_staging_grid(const clg_context *ctx, const clg_kernel_lease *lease, const clg_staging *s, size_t group_size,
                      size_t local[1], uint64_t items[1]);

#endif
