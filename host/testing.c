#include "testing.h"

#include "context.h"

void clg_testing_force_offsets64(clg_context *ctx, int on) { ctx->force_offsets64 = on; }

void clg_testing_force_mapping(clg_context *ctx, int mapping) { ctx->force_mapping = (clg_mapping)mapping; }

void clg_testing_corrupt_verify_readback(clg_context *ctx, int on) { ctx->corrupt_verify_readback = on; }

size_t clg_testing_program_count(clg_context *ctx) { return ctx->programs ? clg_program_cache_size(ctx->programs) : 0; }
