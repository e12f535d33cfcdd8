/* One interface to the three operations over data and indices into one output (Gather,
 * GatherElements, GatherND), so that their suites share the checks every entry point gets: the spec
 * examples, each validation rule, the error policy's message, and the differential comparison with
 * the CPU reference. A descriptor is passed as `const void *` of the operation's own type. */
#ifndef CLG_OP_SUPPORT_H
#define CLG_OP_SUPPORT_H

#include "test_support.h"

typedef struct support_op {
    const char *name;
    clg_status (*output_shape)(const void *desc, int32_t *out_rank, int64_t *out_shape);
    clg_status (*sizes)(const void *desc, uint64_t *data_bytes, uint64_t *indices_bytes, uint64_t *output_bytes);
    clg_status (*reference)(const void *desc, const void *data, size_t data_bytes, const void *indices,
                            size_t indices_bytes, void *output, size_t output_bytes);
    clg_status (*sync)(clg_context *ctx, const void *desc, const void *data, size_t data_bytes, const void *indices,
                       size_t indices_bytes, void *output, size_t output_bytes);
    clg_status (*enqueue)(clg_context *ctx, const void *desc, cl_command_queue queue, cl_mem data, size_t data_offset,
                          cl_mem indices, size_t indices_offset, cl_mem output, size_t output_offset,
                          cl_uint num_events, const cl_event *wait_list, cl_event *out_event);
    clg_dtype (*index_type)(const void *desc);
} support_op;

extern const support_op support_gather, support_gather_elements, support_gather_nd;

/* Run the operation through its enqueue call with every tensor inside a larger cl_mem (see
 * support_enqueue_gather). */
clg_status support_enqueue_op(const support_op *op, clg_context *ctx, const void *desc, const void *data,
                              size_t data_bytes, const void *indices, size_t indices_bytes, size_t out_bytes,
                              size_t guard, void *out_region);

/* A worked example: the output shape is (rank, shape), and the reference, the synchronous call and the
 * enqueue call (guard bytes around every tensor), under both kernel mappings, give `expected`. */
void support_check_example(const support_op *op, const void *desc, const void *data, size_t data_bytes,
                           const void *indices, size_t indices_bytes, const void *expected, size_t expected_bytes,
                           int32_t rank, const int64_t *shape);

/* A refused descriptor: shape inference, sizes, the reference, the synchronous and the enqueue calls
 * (over 256-byte buffers of zeros) all return `want`, the message holds `fragment`, and the outputs
 * stay poisoned. */
void support_expect_rejected(const support_op *op, const void *desc, clg_status want, const char *fragment);

/* The entry checks: a NULL descriptor, a NULL out_shape, a NULL ctx and a NULL data pointer (with a
 * byte count large enough for desc) are CLG_ERR_NULL_ARGUMENT, named, with the output untouched. */
void support_expect_null_arguments(const support_op *op, const void *desc);

/* The reference and the synchronous call, under both mappings, succeed with out_bytes of zeros. */
void support_expect_zeros(const support_op *op, const void *desc, const void *data, size_t data_bytes,
                          const void *indices, size_t indices_bytes, size_t out_bytes);

/* Verify mode (CLG_CONTEXT_VERIFY): the synchronous and the enqueue call succeed with the reference's
 * output; with one bit of the device result flipped on its way back they fail with
 * CLG_ERR_VERIFY_MISMATCH naming the last element, and write nothing. */
void support_expect_verify_mode(const support_op *op, const void *desc, const void *data, size_t data_bytes,
                                const void *indices, size_t indices_bytes, size_t out_bytes);

/* The error policy: the reference, the synchronous call and the enqueue call under both mappings fail
 * with CLG_ERR_INDEX_OUT_OF_RANGE, the message holds `fragment`, and nothing is written to the
 * poisoned outputs of out_bytes (at least the output's size). */
void support_expect_index_error(const support_op *op, const void *desc, const void *data, size_t data_bytes,
                                const void *indices, size_t indices_bytes, size_t out_bytes, const char *fragment);

/* The differential comparison of one case: the OpenCL path (the synchronous call, or the enqueue call
 * with `guard` bytes around every tensor) against the reference, bit for bit, the same status, and on
 * failure the same message and untouched outputs. `name` describes the case in failures. */
void support_compare_with_reference(const support_op *op, const void *desc, const void *data, size_t data_bytes,
                                    const void *indices, size_t indices_bytes, size_t out_bytes, int use_enqueue,
                                    size_t guard, const char *name);

/* Every element type (15) and every integer index type (8), for random draws. */
enum { SUPPORT_DATA_TYPES = 15, SUPPORT_INDEX_TYPES = 8 };
extern const clg_dtype support_data_types[SUPPORT_DATA_TYPES], support_index_types[SUPPORT_INDEX_TYPES];

/* The differential suites' random values: an extent (mostly small, now and then 0 where allowed), and
 * an index value against extent A (mostly in range, some negative in range, some just out of range,
 * some hostile: INT64_MIN, INT64_MAX, every unsigned maximum). */
int64_t support_pick_dim(support_rng *rng, int allow_zero, int64_t most);
int64_t support_pick_index(support_rng *rng, int64_t A, clg_dtype type);
/* Whether an index type is signed. */
int support_index_is_signed(clg_dtype type);

/* A random differential case of any of the three operations: its descriptor (the member of the
 * operation's type), host inputs, sizes and a name for failure messages. */
typedef struct support_case {
    const support_op *op;
    union {
        clg_gather_desc gather;
        clg_gather_elements_desc elements;
        clg_gather_nd_desc nd;
    } desc;
    int64_t axis_value; /* storage for Gather's OpenVINO axis tensor */
    void *data, *indices;
    size_t data_bytes, index_bytes, out_bytes;
    char name[256];
    /* for support_run_targeted_cases: guards are multiples of guard_unit bytes (0: any number), and
     * expected_variant (NULL for none) must be the kernel that ran */
    size_t guard_unit;
    const char *expected_variant;
} support_case;

/* Inputs for c's descriptor (op set, data and indices of these shapes): random data bytes, and index
 * value k drawn against extents[k % period] by support_pick_index, or kept within [-extent, extent)
 * where the type allows (keep_valid); out_bytes from the operation's sizes (the descriptor must be
 * valid). */
void support_case_fill(support_case *c, support_rng *rng, const clg_tensor_desc *data, const clg_tensor_desc *indices,
                       const int64_t *extents, int period, int keep_valid);
void support_case_free(support_case *c);
/* support_compare_with_reference on the case. */
void support_case_compare(const support_case *c, int use_enqueue, size_t guard);

/* Streaming stores of the row-runs variants: where the tuning's thresholds put them, on every output
 * whose moves allow them, or on none. */
typedef enum support_stream {
    SUPPORT_STREAM_TUNED = 0,
    SUPPORT_STREAM_EVERYWHERE,
    SUPPORT_STREAM_NEVER
} support_stream;

/* Run `count` (scaled) cases made by `make` under one kernel configuration (support_force_kernels),
 * each through the synchronous or the enqueue call (with guard bytes of random width), drawn from a
 * generator seeded with the suite's seed and stream_id. */
typedef void (*support_case_maker)(support_rng *rng, support_case *c, int number);
typedef struct support_random_setup support_random_setup;
void support_run_random_cases(const support_random_setup *setup, support_case_maker make, int count,
                              const char *mapping, int offsets64, support_stream stream, uint64_t stream_id);

/* Run `count` (scaled, at least three) targeted cases: make(rng, c, k) builds case k and
 * forces the kernel paths it is meant for; two in three go through the enqueue call with guard bytes
 * (whole c->guard_unit where set); where c->expected_variant is set, that must be the variant that ran. */
void support_run_targeted_cases(const support_random_setup *setup, support_case_maker make, int count,
                                uint64_t stream_id);

/* The kernel configurations the differential suites run their random cases under, one loop of a
 * Check loop test each (configuration = _i): runs and adjacent mappings with 32- and 64-bit offsets,
 * the device's own choice, and streaming stores everywhere. */
enum { SUPPORT_CONFIGURATIONS = 6 };
void support_run_configuration(const support_random_setup *setup, support_case_maker make, int configuration);

/* Run the suite's OpenCL context on `mapping` ("runs", "adjacent", or NULL: the suite's own), with 64-bit
 * offsets forced or not, streaming stores as `stream` says, and every variant as its launcher picks it:
 * the suite's own tuning, changed that far; and forget which variant ran last (for expected_variant). */
void support_force_kernels(const char *mapping, int offsets64, support_stream stream);

/* The suite's own tuning and 64-bit offsets forced or not, then kernel variant `variant` forced
 * (core/variants.h: on its family's mapping, wherever it applies). */
void support_force_variant(const char *variant, int offsets64);

/* The differential suites' seed and scale: CLGATHER_TEST_SEED replays another seed, CLGATHER_TEST_SCALE
 * (a fraction) scales the number of cases; both printed. support_setup_scaled(setup, count, least) is count scaled, at
 * least `least`. */
struct support_random_setup {
    uint64_t seed;
    double scale;
};
support_random_setup support_random_from_environment(const char *suite, uint64_t default_seed);
int support_setup_scaled(const support_random_setup *setup, int count, int least);

#endif
