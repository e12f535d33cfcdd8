/* Test-only switches (see test_switches.h). Not part of the public API: they exist only in the
 * clgather_testing library that the test suites and the benchmark link, never in the installed
 * libraries. */
#ifndef CLG_TESTING_H
#define CLG_TESTING_H

#include "clgather.h"

/* Force 64-bit offset kernels even where 32-bit offsets are proven safe (1), or restore (0). */
void clg_testing_force_offsets64(clg_context *ctx, int on);

/* Force the kernel variant named `name` (the registry of host/core/variants.h: "row-runs",
 * "staged-units", "elements-column-blocks", "dequant-whole-slabs", ...) on its family: the family's
 * calls then run on the variant's mapping, and on the variant wherever it applies (a staged variant
 * wherever the staged data fits; an unstaged one never staged); elsewhere on what the launcher picks on
 * that mapping. Variants of other families stay forced. NULL forgets every forced variant. Returns
 * CLG_ERR_INVALID_TUNING, naming it, for a name the registry lacks. The mapping of every family, the
 * streaming stores and the nibble lookups are the tuning's (clg_context_set_tuning). */
clg_status clg_testing_force_variant(clg_context *ctx, const char *name);

/* The registry's variants in order: variant i's name and its family's name, or NULL past the end. */
const char *clg_testing_variant_name(size_t i, const char **family);

/* The variant of the Gather-family call the context launched last ("" for none since
 * clg_testing_forget_variant), so that a test can assert which form ran. */
const char *clg_testing_last_variant(clg_context *ctx);
void clg_testing_forget_variant(clg_context *ctx);

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
