/* Test-only switches of a context: they let the test suites force kernel paths the device would not
 * otherwise pick. They exist only in test builds (CLGATHER_TESTING, the clgather_testing library);
 * elsewhere every switch reads as 0 and the code behind it folds away. */
#ifndef CLG_TEST_SWITCHES_H
#define CLG_TEST_SWITCHES_H

#include "core/variants.h"

#ifdef CLGATHER_TESTING
typedef struct clg_test_switches {
    int force_offsets64;                  /* 64-bit offset kernels even where 32-bit offsets are proven */
    int forced_variant[CLG_FAMILY_COUNT]; /* 1 + the clg_variant_id forced on each family, 0 none */
    int corrupt_verify_readback;          /* flip one bit of the device result verify mode reads back */
    int broken_hint;                      /* pass a hint value kernels refuse, so that hinted builds fail */
    int last_variant; /* a record, not a switch: 1 + the variant of the Gather-family call launched last */
} clg_test_switches;
#define CLG_TEST_SWITCH(ctx, name)       ((ctx)->testing.name)
/* atomic: calls on one context may run on several threads (test_concurrency) */
#define CLG_TEST_RECORD_VARIANT(ctx, id) __atomic_store_n(&(ctx)->testing.last_variant, 1 + (int)(id), __ATOMIC_RELAXED)
#else
#define CLG_TEST_SWITCH(ctx, name)       0
#define CLG_TEST_RECORD_VARIANT(ctx, id) ((void)0)
#endif

#endif
