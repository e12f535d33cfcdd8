/* Test-only switches (see test_switches.h). Not part of the public API: they exist only in the
 * clgather_testing library that the test suites and the benchmark link, never in the installed
 * libraries. */
#ifndef CLG_TESTING_H
#define CLG_TESTING_H

#include "clgather.h"

/* Force 64-bit offset kernels even where 32-bit offsets are proven safe (1), or restore (0). */
void clg_testing_force_offsets64(clg_context *ctx, int on);

/* Force the work-item mapping of every kernel: 0 by device type, 1 runs (CPU), 2 adjacent (GPU). */
void clg_testing_force_mapping(clg_context *ctx, int mapping);

/* Streaming (non-temporal) stores: 1 force them wherever the row-runs kernel can use them, -1 never,
 * 0 automatic (outputs larger than the device's cache). */
void clg_testing_force_stream(clg_context *ctx, int mode);

/* Staging in local memory: the adjacent mapping's form for outputs of one small unit each
 * (core/local_staging.h), and the runs mapping's column blocks for GatherElements along an outer axis.
 * 1 wherever the staged data fits in the device's local memory (column blocks down to one element),
 * -1 never, 0 automatic (for the adjacent mapping local memory on chip and enough outputs per group to
 * repay loading it; for column blocks enough output rows per staged row). */
void clg_testing_force_staging(clg_context *ctx, int mode);

/* The name of the Gather, GatherND or GatherElements kernel the context launched last ("" for none
 * since clg_testing_forget_kernel), so that a test can assert which form ran. */
const char *clg_testing_last_kernel(clg_context *ctx);
void clg_testing_forget_kernel(clg_context *ctx);

/* The dequantizing gather's x86 nibble lookups (kernels_cl/dequant_nibble_table.h): 0 as the target
 * allows, 1 at most SSSE3's 16 values a lookup even where AVX2 allows 32, 2 at most AVX2's byte tables
 * even where AVX-512BW allows word tables, -1 none (the arithmetic). */
void clg_testing_limit_nibble_tables(clg_context *ctx, int mode);

/* The dequantizing gather's runs mapping with each work-item given exactly one whole slab (1), so that
 * small tables take the slab loops (kernels_cl/dequant_units.h) that large ones take; 0 by size. */
void clg_testing_force_whole_slabs(clg_context *ctx, int on);

/* Make verify mode see one flipped bit in the device result it reads back (1), or not (0). */
void clg_testing_corrupt_verify_readback(clg_context *ctx, int on);

/* Make every build with hints fail (1), to test that the context then builds without them. */
void clg_testing_break_hints(clg_context *ctx, int on);

/* Whether the context has turned its hints off after a failed build. */
int clg_testing_hints_failed(clg_context *ctx);

/* How the context's programs were obtained: built from source, loaded from the disk cache, imported. */
void clg_testing_program_origins(clg_context *ctx, size_t *from_source, size_t *from_disk, size_t *from_blob);

/* Deferred calls the context still keeps (not yet known to have succeeded, or failed unreported). */
size_t clg_testing_deferred_pending(clg_context *ctx);

/* Number of programs the context has built (to test that specializations are cached). */
size_t clg_testing_program_count(clg_context *ctx);

#endif
