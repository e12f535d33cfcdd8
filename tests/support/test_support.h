/* Helpers shared by the Check suites: one OpenCL context per suite (the suites run with
 * CK_NOFORK, so no OpenCL object crosses a fork), poison fills, a seeded generator, descriptors. */
#ifndef CLG_TEST_SUPPORT_H
#define CLG_TEST_SUPPORT_H

#include "clgather.h"

#include <check.h>
#include <stdint.h>
#include <string.h>

#define POISON_BYTE 0xA5

/* The suite's OpenCL context on the default device (created on first use, released at exit). */
clg_context *support_cl_context(void);
/* A CPU-reference context. */
clg_context *support_reference_context(void);

/* The two work-item mappings by their tuning names, for tests that run a call under each. */
extern const char *const support_mappings[2];

/* Run ctx's kernels on the mapping named ("runs" or "adjacent"; the tuning's `mapping`), or, for NULL,
 * on the one the suite's context was created with (the default device's table row or profile). */
void support_use_mapping(clg_context *ctx, const char *mapping);

/* Give the suite's context the tuning it was created with, then `changes` (`name = value` lines; NULL
 * none). */
void support_use_tuning(const char *changes);

/* Whether the suite's OpenCL device belongs to a platform whose name contains `name` ("Oclgrind"). */
int support_platform_is(const char *name);

/* Whether the suite's device compiler defines `macro` in OpenCL C (x86 target features such as
 * "__SSSE3__", which decide what some kernels build). Fails the test if the device cannot build a
 * program at all. */
int support_compiler_defines(const char *macro);

/* count scaled by CLGATHER_TEST_SCALE (a fraction, default 1), at least 1: the randomized suites run
 * fewer cases under sanitizers and simulators. */
int support_scaled(int count);

/* Run a suite without forking; returns the process exit status. Prints the kernel programs the suite's
 * context built, and fails the suite where they are more than CLGATHER_TEST_MAX_BUILDS. */
int support_run_suite(Suite *suite);

/* Run the tests of a suite (one test case, each test given timeout seconds) without forking; returns
 * the process exit status. SUPPORT_TESTS(a, b, ...) lists the tests (names defined by START_TEST). */
int support_run_tests(const char *suite, double timeout, const TTest *const *tests, size_t count);
/* The same with a loop test first, run `loops` times (Check's _i is 0 .. loops - 1). */
int support_run_looped_tests(const char *suite, double timeout, const TTest *looped, int loops,
                             const TTest *const *tests, size_t count);
#define SUPPORT_TESTS(...) \
    (const TTest *const[]){__VA_ARGS__}, sizeof((const TTest *const[]){__VA_ARGS__}) / sizeof(const TTest *)

/* splitmix64: deterministic across platforms. */
typedef struct support_rng {
    uint64_t state;
} support_rng;
uint64_t support_next(support_rng *rng);
/* Uniform in [0, bound) (bound > 0). */
uint64_t support_below(support_rng *rng, uint64_t bound);

void *support_poisoned(size_t bytes);
int support_all_poison(const void *p, size_t bytes);

/* Store v as an integer of type t at element pos (truncating as C does). */
void support_store_int(void *base, clg_dtype t, size_t pos, int64_t v);

/* Fill shape fields. */
void support_shape(clg_tensor_desc *t, clg_dtype type, int32_t rank, const int64_t *shape);

/* A gather descriptor for an OpenVINO preset (axis as an i64 scalar tensor at *axis_storage). */
clg_gather_desc support_ov_desc(clg_preset preset, clg_dtype data_type, int32_t data_rank, const int64_t *data_shape,
                                clg_dtype index_type, int32_t indices_rank, const int64_t *indices_shape,
                                const int64_t *axis_storage, int64_t batch_dims);
/* A gather descriptor for an ONNX preset. */
clg_gather_desc support_onnx_desc(clg_preset preset, clg_dtype data_type, int32_t data_rank, const int64_t *data_shape,
                                  clg_dtype index_type, int32_t indices_rank, const int64_t *indices_shape,
                                  int64_t axis);

/* A GatherElements descriptor (indices of the data's rank). */
clg_gather_elements_desc support_elements_desc(clg_gather_elements_preset preset, clg_dtype data_type, int32_t rank,
                                               const int64_t *data_shape, clg_dtype index_type,
                                               const int64_t *indices_shape, int64_t axis);

/* A GatherND descriptor. */
clg_gather_nd_desc support_nd_desc(clg_gather_nd_preset preset, clg_dtype data_type, int32_t data_rank,
                                   const int64_t *data_shape, clg_dtype index_type, int32_t indices_rank,
                                   const int64_t *indices_shape, int64_t batch_dims);

/* Whether the guard bytes around a tensor of `bytes` inside region are still poison. */
int support_guards_intact(const void *region, size_t guard, size_t bytes);

#endif
