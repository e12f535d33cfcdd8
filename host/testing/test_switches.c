#include "core/context.h"
#include "testing/testing.h"

void clg_testing_force_offsets64(clg_context *ctx, int on) { ctx->testing.force_offsets64 = on; }

void clg_testing_force_mapping(clg_context *ctx, int mapping) { ctx->testing.force_mapping = mapping; }

void clg_testing_force_stream(clg_context *ctx, int mode) { ctx->testing.force_stream = mode; }

void clg_testing_force_staging(clg_context *ctx, int mode) { ctx->testing.force_staging = mode; }

const char *clg_testing_last_kernel(clg_context *ctx)
{
    const char *name = __atomic_load_n(&ctx->testing.last_kernel, __ATOMIC_RELAXED);
    return name ? name : "";
}

void clg_testing_forget_kernel(clg_context *ctx) { CLG_TEST_RECORD_KERNEL(ctx, NULL); }

void clg_testing_limit_nibble_tables(clg_context *ctx, int mode) { ctx->testing.nibble_tables = mode; }

void clg_testing_force_whole_slabs(clg_context *ctx, int on) { ctx->testing.quant_whole_slabs = on; }

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
