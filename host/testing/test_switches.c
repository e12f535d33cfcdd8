#include "core/context.h"
#include "core/status.h"
#include "testing/testing.h"

#include <string.h>

void clg_testing_force_offsets64(clg_context *ctx, int on) { ctx->testing.force_offsets64 = on; }

clg_status clg_testing_force_variant(clg_context *ctx, const char *name)
{
    clg_clear_error();
    if (!name) {
        memset(ctx->testing.forced_variant, 0, sizeof ctx->testing.forced_variant);
        return CLG_SUCCESS;
    }
    const int id = clg_variant_find(name);
    if (id < 0) return clg_fail(CLG_ERR_INVALID_TUNING, "name is '%s': no kernel variant has that name", name);
    ctx->testing.forced_variant[clg_variant_get((clg_variant_id)id)->family] = 1 + id;
    return CLG_SUCCESS;
}

const char *clg_testing_variant_name(size_t i, const char **family)
{
    const clg_variant *v = i < CLG_VARIANT_COUNT ? clg_variant_get((clg_variant_id)i) : NULL;
    if (v && family) *family = clg_variant_family_name(v->family);
    return v ? v->name : NULL;
}

const char *clg_testing_last_variant(clg_context *ctx)
{
    const int id = __atomic_load_n(&ctx->testing.last_variant, __ATOMIC_RELAXED) - 1;
    return id >= 0 ? clg_variant_get((clg_variant_id)id)->name : "";
}

void clg_testing_forget_variant(clg_context *ctx) { __atomic_store_n(&ctx->testing.last_variant, 0, __ATOMIC_RELAXED); }

void clg_testing_corrupt_verify_readback(clg_context *ctx, int on) { ctx->testing.corrupt_verify_readback = on; }

size_t clg_testing_program_count(clg_context *ctx) { return ctx->programs ? clg_program_cache_size(ctx->programs) : 0; }

void clg_testing_program_origins(clg_context *ctx, size_t *from_source, size_t *from_disk, size_t *from_blob)
{
    clg_program_origins o = clg_program_cache_origins(ctx->programs);
    *from_source = o.from_source;
    *from_disk = o.from_disk;
    *from_blob = o.from_blob;
}

size_t clg_testing_deferred_pending(clg_context *ctx) { return ctx->deferred ? clg_deferred_count(ctx->deferred) : 0; }

void clg_testing_break_hints(clg_context *ctx, int on) { ctx->testing.broken_hint = on; }

int clg_testing_hints_failed(clg_context *ctx) { return ctx->hints_failed; }
