#include "core/local_staging.h"

#include "core/size_math.h"

#include <stdio.h>

clg_staging clg_staging_choose(const clg_context *ctx, clg_staging_rule rule, uint64_t groups, uint64_t outputs,
                               uint64_t slab_bytes, uint64_t group_multiple, const clg_buffer *data, size_t local_size)
{
    clg_staging s = {0};
    const int forced = rule == CLG_STAGING_WHEREVER_IT_FITS;
    if (rule == CLG_STAGING_NEVER || groups == 0 || outputs == 0 || slab_bytes == 0 ||
        slab_bytes > ctx->local_mem_bytes)
        return s;
    if (!forced && !ctx->local_mem_dedicated) return s;
    /* enough (group, chunk) work-groups to occupy every compute unit; an output read alone from global
     * memory costs at least a sector */
    const uint64_t sector = ctx->tuning.stage_sector_bytes;
    const uint64_t wanted = (uint64_t)ctx->compute_units * ctx->tuning.stage_groups_per_cu;
    uint64_t chunks = groups >= wanted ? 1 : (wanted + groups - 1) / groups;
    chunks = clg_min_u64(chunks, (outputs + local_size - 1) / local_size); /* a work-group's worth of outputs each */
    const uint64_t repaying_len = (slab_bytes + sector - 1) / sector;
    const uint64_t len = clg_min_u64(outputs, clg_max_u64((outputs + chunks - 1) / chunks, repaying_len));
    if (!forced && len < repaying_len) return s;
    s.on = 1;
    s.groups = groups;
    s.chunk_len = len;
    s.chunks = (outputs + len - 1) / len;
    s.slab_bytes = slab_bytes;
    s.wide = clg_move_unit(ctx, 16, group_multiple, data, data) == 16;
    return s;
}

void clg_staging_options(const clg_staging *s, char *buf, size_t size)
{
    if (s->on)
        snprintf(buf, size, " -DSLAB_WIDE=%d", s->wide);
    else if (size > 0)
        buf[0] = '\0';
}

cl_int clg_staging_set_args(cl_kernel kernel, cl_uint first, const clg_staging *s, int offsets64)
{
    cl_int err = clg_set_offset_arg(kernel, first, s->chunks, offsets64);
    err |= clg_set_offset_arg(kernel, first + 1, s->chunk_len, offsets64);
    return err | clSetKernelArg(kernel, first + 2, (size_t)((s->slab_bytes + 15) / 16 * 16), NULL);
}

void clg_staging_grid(const clg_context *ctx, const clg_kernel_lease *lease, const clg_staging *s, size_t group_size,
                      size_t local[1], uint64_t items[1])
{
    local[0] = group_size;
    clg_launch_fit_local(ctx, lease, 1, local);
    items[0] = (uint64_t)local[0] * clg_min_u64(s->groups * s->chunks, clg_launch_grid_groups(ctx));
}
