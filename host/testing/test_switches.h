/* Test-only switches of a context: they let the test suites force kernel paths the device would not
 * otherwise pick. They exist only in test builds (CLGATHER_TESTING, the clgather_testing library);
 * elsewhere every switch reads as 0 and the code behind it folds away. */
#ifndef CLG_TEST_SWITCHES_H
#define CLG_TEST_SWITCHES_H

#ifdef CLGATHER_TESTING
typedef struct clg_test_switches {
    int force_offsets64;         /* 64-bit offset kernels even where 32-bit offsets are proven */
    int force_mapping;           /* 0 by device type, 1 runs (CPU), 2 adjacent items (GPU) */
    int force_stream;            /* 1 streaming stores wherever the kernel allows, -1 never, 0 by size */
    int force_staging;           /* local-memory staging (both mappings): 1 wherever it fits, -1 never, 0 by gain */
    int corrupt_verify_readback; /* flip one bit of the device result verify mode reads back */
    int broken_hint;             /* pass a hint value kernels refuse, so that hinted builds fail */
    int nibble_tables;     /* dequantizing gather's x86 lookups: 0 as the target allows, 1 SSSE3's, 2 AVX2's, -1 none */
    int quant_whole_slabs; /* dequantizing gather, runs mapping: each work-item exactly one whole slab */
    const char *last_kernel; /* a record, not a switch: the Gather-family kernel launched last */
} clg_test_switches;
#define CLG_TEST_SWITCH(ctx, name)        ((ctx)->testing.name)
/* atomic: calls on one context may run on several threads (test_concurrency) */
#define CLG_TEST_RECORD_KERNEL(ctx, name) __atomic_store_n(&(ctx)->testing.last_kernel, (name), __ATOMIC_RELAXED)
#else
#define CLG_TEST_SWITCH(ctx, name)        0
#define CLG_TEST_RECORD_KERNEL(ctx, name) ((void)0)
#endif

#endif
