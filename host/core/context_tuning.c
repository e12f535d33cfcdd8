/* A context's tuning: where it comes from, and the public calls that read, change and store it. */
#include "core/context.h"

#include "core/status.h"
#include "core/tuning_profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void clg_context_init_tuning(clg_context *ctx)
{
    clg_tuning_from_table(&ctx->info, ctx->profile.driver, ctx->native_float_lanes, &ctx->tuning, &ctx->tuning_row,
                          &ctx->tuning_measured);
    ctx->tuning_origin[0] = '\0';
    const char *setting = getenv("CLGATHER_TUNING");
    if (setting && strcmp(setting, "0") == 0) return;
    char path[4096];
    if (setting && *setting && strcmp(setting, "1") != 0) {
        if (clg_tuning_profile_load_any(setting, &ctx->tuning))
            snprintf(ctx->tuning_origin, sizeof ctx->tuning_origin, "profile: %s", setting);
        return;
    }
    const char *key = clg_program_cache_device_key(ctx->programs);
    if (clg_tuning_profile_path(key, path, sizeof path) && clg_tuning_profile_load(path, key, &ctx->tuning))
        snprintf(ctx->tuning_origin, sizeof ctx->tuning_origin, "profile: %s", path);
}

clg_status clg_context_tuning(const clg_context *ctx, char *text, size_t capacity, size_t *length)
{
    clg_clear_error();
    if (!ctx) return clg_fail(CLG_ERR_NULL_ARGUMENT, "ctx is NULL");
    if (capacity > 0 && !text) return clg_fail(CLG_ERR_NULL_ARGUMENT, "text is NULL but capacity is %zu", capacity);
    if (ctx->is_reference) return clg_fail(CLG_ERR_NO_OPENCL, "ctx is the CPU reference: it has no tuning");
    char head[4400];
    int n = snprintf(head, sizeof head, "# table: %s (%s)\n", ctx->tuning_row,
                     ctx->tuning_measured ? "measured" : "untested");
    if (ctx->tuning_origin[0] && n > 0 && (size_t)n < sizeof head)
        snprintf(head + n, sizeof head - (size_t)n, "# %s\n", ctx->tuning_origin);
    const size_t head_length = strlen(head);
    const size_t body_length = clg_tuning_format(&ctx->tuning, NULL, 0);
    if (length) *length = head_length + body_length;
    if (head_length + body_length >= capacity)
        return clg_fail(CLG_ERR_BUFFER_TOO_SMALL, "the tuning text needs %zu bytes with its NUL; capacity is %zu",
                        head_length + body_length + 1, capacity);
    memcpy(text, head, head_length);
    clg_tuning_format(&ctx->tuning, text + head_length, capacity - head_length);
    return CLG_SUCCESS;
}

clg_status clg_context_set_tuning(clg_context *ctx, const char *text)
{
    clg_clear_error();
    if (!ctx) return clg_fail(CLG_ERR_NULL_ARGUMENT, "ctx is NULL");
    if (!text) return clg_fail(CLG_ERR_NULL_ARGUMENT, "text is NULL");
    if (ctx->is_reference) return clg_fail(CLG_ERR_NO_OPENCL, "ctx is the CPU reference: it has no tuning");
    clg_status st = clg_tuning_parse(text, &ctx->tuning);
    if (st == CLG_SUCCESS) snprintf(ctx->tuning_origin, sizeof ctx->tuning_origin, "set by the caller");
    return st;
}

clg_status clg_context_store_tuning(const clg_context *ctx, const char *comment, char *path, size_t capacity)
{
    clg_clear_error();
    if (!ctx) return clg_fail(CLG_ERR_NULL_ARGUMENT, "ctx is NULL");
    if (capacity > 0 && !path) return clg_fail(CLG_ERR_NULL_ARGUMENT, "path is NULL but capacity is %zu", capacity);
    if (ctx->is_reference) return clg_fail(CLG_ERR_NO_OPENCL, "ctx is the CPU reference: it has no tuning");
    const char *key = clg_program_cache_device_key(ctx->programs);
    char where[4096];
    if (!clg_tuning_profile_path(key, where, sizeof where))
        return clg_fail(CLG_ERR_IO, "no directory for tuning profiles: set CLGATHER_CACHE_DIR, XDG_CACHE_HOME or HOME");
    clg_status st = clg_tuning_profile_store(where, key, &ctx->tuning, comment);
    if (st == CLG_SUCCESS && capacity > 0) snprintf(path, capacity, "%s", where);
    return st;
}
