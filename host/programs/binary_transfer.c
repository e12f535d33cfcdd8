/* Export and import of built program binaries as memory blobs, for runtimes with caches of their own. */
#include "core/context.h"
#include "core/status.h"
#include "programs/binary_store.h"
#include "programs/kernel_source.h"

clg_status clg_context_export_binaries(clg_context *ctx, void *blob, size_t capacity, size_t *blob_size)
{
    clg_clear_error();
    if (!ctx || !blob_size) return clg_fail(CLG_ERR_NULL_ARGUMENT, "ctx or blob_size is NULL");
    if (ctx->is_reference) return clg_fail(CLG_ERR_NO_OPENCL, "ctx is the CPU reference: it has no programs");
    return clg_program_cache_export(ctx->programs, blob, capacity, blob_size);
}

clg_status clg_context_import_binaries(clg_context *ctx, const void *blob, size_t blob_size, size_t *imported)
{
    clg_clear_error();
    if (!ctx || !blob) return clg_fail(CLG_ERR_NULL_ARGUMENT, "ctx or blob is NULL");
    if (ctx->is_reference) return clg_fail(CLG_ERR_NO_OPENCL, "ctx is the CPU reference: it has no programs");
    size_t count = 0, added = 0;
    if (!clg_blob_validate(blob, blob_size, &count))
        return clg_fail(CLG_ERR_INVALID_BINARY_BLOB,
                        "blob of %zu bytes is not a clgather binary export (bad magic, lengths or checksum)",
                        blob_size);
    for (size_t k = 0; k < count; ++k) {
        clg_blob_record r;
        clg_blob_record_at(blob, k, &r);
        const clg_kernel_source *source = clg_kernel_source_named(r.source_name);
        if (source)
            added +=
                (size_t)clg_program_cache_preload(ctx->programs, source, r.options, r.key, r.binary, r.binary_size);
    }
    if (imported) *imported = added;
    return CLG_SUCCESS;
}
