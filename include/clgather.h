/*
 * clgather: the Gather family of tensor operations (ONNX Gather 1/11/13, OpenVINO Gather-1/7/8; ONNX
 * GatherElements 11/13, OpenVINO GatherElements-6; ONNX GatherND 11/12/13, OpenVINO GatherND-5/8;
 * OpenVINO GatherTree-1; and a dequantizing gather of 4- and 8-bit tables in ONNX Runtime's, ggml's
 * and OpenVINO's layouts; EmbeddingBag: OpenVINO EmbeddingBagOffsets(Sum)-3/15, EmbeddingBagPacked(Sum)-3/15,
 * EmbeddingSegmentsSum-3 and PyTorch's embedding_bag) as OpenCL kernels, with a CPU reference of
 * identical semantics.
 *
 * Conventions used throughout this header:
 *  - Every function returns a clg_status. CLG_SUCCESS is 0. OpenCL error codes (negative, -1..-999 and
 *    the Khronos extension range) pass through unchanged; the library's own codes lie in
 *    [CLG_STATUS_FIRST, CLG_STATUS_LAST] = [-2099, -2001], disjoint from both.
 *  - On failure, clg_last_error_message() gives a message for the calling thread that names the
 *    argument, the value and, where there is one, the position. Outputs are left untouched.
 *  - The library never prints, never aborts, and never reads or writes outside the caller's buffers,
 *    whatever the index values.
 *  - Shapes are int64_t, element counts and byte sizes are 64-bit; any product that would overflow
 *    64 bits is rejected with CLG_ERR_SIZE_OVERFLOW.
 */
#ifndef CLGATHER_H
#define CLGATHER_H

#include <stddef.h>
#include <stdint.h>

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Marks the exported functions; the shared library exports nothing else. */
#if defined(CLGATHER_BUILDING) && defined(__GNUC__)
#define CLG_API __attribute__((visibility("default")))
#else
#define CLG_API
#endif

/* ------------------------------------------------------------------------------------------------ */
/* Status codes                                                                                     */
/* ------------------------------------------------------------------------------------------------ */

typedef int32_t clg_status;

#define CLG_SUCCESS      0
#define CLG_STATUS_FIRST (-2099)
#define CLG_STATUS_LAST  (-2001)

/** A required pointer argument is NULL, or an argument is otherwise malformed. */
#define CLG_ERR_NULL_ARGUMENT         (-2001)
/** The preset is not one of the operation's preset values (clg_preset, clg_gather_elements_preset,
 *  clg_gather_nd_preset). */
#define CLG_ERR_INVALID_PRESET        (-2002)
/** An element type is not one of the clg_dtype values, or not allowed where it is used. */
#define CLG_ERR_INVALID_DTYPE         (-2003)
/** The index element type is not an integer type, or not one the preset accepts (ONNX Gather and
 *  GatherElements: i32, i64; ONNX GatherND: i64). */
#define CLG_ERR_INVALID_INDEX_TYPE    (-2004)
/** A tensor rank is outside what the operation accepts (data rank >= 1, at most CLG_MAX_RANK;
 *  GatherElements: indices of the data's rank; GatherND: indices rank >= 1). */
#define CLG_ERR_INVALID_RANK          (-2005)
/** A dimension is negative. */
#define CLG_ERR_INVALID_DIMENSION     (-2006)
/** The axis lies outside [-r, r-1] for data rank r, or (dequantizing gather) is not one the layout
 *  accepts: gather_axis and quantize_axis of uint8 data, the packed last axis of ggml and FBGEMM rows. */
#define CLG_ERR_INVALID_AXIS          (-2007)
/** The axis tensor is missing (OpenVINO presets), present where not allowed (ONNX presets), not an
 *  integer type, or not a scalar / one-element 1-D tensor. */
#define CLG_ERR_INVALID_AXIS_TENSOR   (-2008)
/** batch_dims outside [-q, q] for indices rank q, greater than the axis after normalization, or
 *  non-zero for a preset without batch_dims (ONNX, ov-gather-1). GatherND: outside [0, min(q, r) - 1],
 *  or non-zero for onnx-11. */
#define CLG_ERR_INVALID_BATCH_DIMS    (-2009)
/** data.shape[i] != indices.shape[i] for some i < batch_dims. */
#define CLG_ERR_BATCH_SHAPE_MISMATCH  (-2010)
/** An element count or byte size overflows 64 bits. */
#define CLG_ERR_SIZE_OVERFLOW         (-2011)
/** A buffer (host size or cl_mem size minus offset) is smaller than the tensor it must hold. */
#define CLG_ERR_BUFFER_TOO_SMALL      (-2012)
/** The out-of-range policy is not one of the clg_oob_policy values. */
#define CLG_ERR_INVALID_POLICY        (-2013)
/** Under the error policy an index lies outside [-A, A-1] (GatherND: a tuple component outside
 *  [-s, s-1] for its data dimension s); the message names position and value. */
#define CLG_ERR_INDEX_OUT_OF_RANGE    (-2014)
/** Verify mode found a difference between the OpenCL result and the CPU reference. */
#define CLG_ERR_VERIFY_MISMATCH       (-2015)
/** No OpenCL device is available, or CLGATHER_DEVICE / a device spec matches none. */
#define CLG_ERR_NO_DEVICE             (-2016)
/** Host memory could not be allocated. */
#define CLG_ERR_OUT_OF_HOST_MEMORY    (-2017)
/** A kernel failed to build; the message holds the start of the build log. */
#define CLG_ERR_KERNEL_BUILD          (-2018)
/** A buffer byte offset is not a multiple of the element size where the kernel needs it to be. */
#define CLG_ERR_MISALIGNED_OFFSET     (-2019)
/** A buffer needed on the device exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE. */
#define CLG_ERR_TOO_LARGE_FOR_DEVICE  (-2020)
/** The call needs OpenCL, but the context is the CPU reference (device spec "cpu"). */
#define CLG_ERR_NO_OPENCL             (-2021)
/** GatherTree: two inputs differ in element type. The dequantizing gather: zero_points' type is not
 *  data's. EmbeddingBag: per_sample_weights' type is not the table's; the table-batched call: a table's
 *  type is not table 0's. */
#define CLG_ERR_TYPE_MISMATCH         (-2022)
/** GatherTree: step_ids and parent_ids differ in shape, or max_seq_len's length is not BATCH.
 *  GatherElements: indices.shape[d] > data.shape[d] for some d other than the axis. GatherND: the tuple
 *  length indices.shape[-1] is outside [1, r - batch_dims]. The dequantizing gather: scales or
 *  zero_points do not have the shape data and the layout call for. */
#define CLG_ERR_SHAPE_MISMATCH        (-2023)
/** GatherTree: a parent id the backtrack follows is outside [0, BEAM_WIDTH) or not integral. */
#define CLG_ERR_INVALID_PARENT        (-2024)
/** The operation needs a device extension the device lacks (no operation of this version does: GatherTree
 *  runs f16 and f64 without cl_khr_fp16 and cl_khr_fp64). */
#define CLG_ERR_UNSUPPORTED_BY_DEVICE (-2025)
/** The device spec string is malformed. */
#define CLG_ERR_INVALID_DEVICE_SPEC   (-2026)
/** An internal invariant failed (a bug in clgather; please report it with the message). */
#define CLG_ERR_INTERNAL              (-2027)
/** GatherTree: a max_seq_len value of a float type is not a finite integral value (NaN, an
 *  infinity, or a fraction); the message names the batch and the value. */
#define CLG_ERR_INVALID_SEQ_LEN       (-2028)
/** clg_context_import_binaries: the blob is not a clgather export (bad magic, lengths or checksum). */
#define CLG_ERR_INVALID_BINARY_BLOB   (-2029)
/** The device could not allocate a buffer the call needs (out of device memory or resources). */
#define CLG_ERR_DEVICE_OUT_OF_MEMORY  (-2030)
/** The dequantizing gather: the layout is not one of the clg_quant_layout values. The table-batched
 *  EmbeddingBag: a table's quant_layout is not 0 (plain float rows, the only layout it takes so far). */
#define CLG_ERR_INVALID_LAYOUT        (-2040)
/** The dequantizing gather: block_size is not one the layout accepts (ONNX Runtime: a power of two
 *  >= 16; OpenVINO: the number of values per scale; ggml: 32, or 256 for the _K and iq4_xs
 *  super-blocks; FBGEMM: the row's D), or a ggml row is not whole blocks, or an FBGEMM row's bytes
 *  cannot hold its scale, bias and one value (8-bit: at least 9 bytes, 4-bit: at least 5). */
#define CLG_ERR_INVALID_BLOCK_SIZE    (-2041)
/** The dequantizing gather: bits is not one the data type takes (uint8 data: 2, 4 or 8; the others:
 *  their own width). */
#define CLG_ERR_INVALID_BITS          (-2042)
/** The dequantizing gather: an input the layout has no use for is given (ggml blocks and FBGEMM rows
 *  hold their own scales: no scales, no zero_points). */
#define CLG_ERR_INPUT_NOT_ALLOWED     (-2043)
/** clg_context_set_tuning: a line is not `name = value`, names no tunable, or gives a value outside
 *  the tunable's range; the message names the line, the tunable and the value. */
#define CLG_ERR_INVALID_TUNING        (-2044)
/** A file clgather was asked to write (a tuning profile) could not be written; the message names it. */
#define CLG_ERR_IO                    (-2045)
/** EmbeddingBag: the mode is not a clg_bag_mode, or not one the preset allows (OpenVINO's -3 presets
 *  and ov-embedding-segments-sum-3: sum; the -15 presets: sum or mean; torch-embedding-bag: sum, mean
 *  or max), or per_sample_weights are given with a mode other than sum. */
#define CLG_ERR_INVALID_MODE          (-2060)
/** EmbeddingBag: the bag form is not a clg_bag_form, or not one the preset takes. */
#define CLG_ERR_INVALID_BAG_FORM      (-2061)
/** EmbeddingBag: an offset lies outside [0, len(indices)], is smaller than the one before it, or (torch,
 *  and the table-batched call) offsets[0] is not 0, or (the table-batched call with include_last_offset)
 *  the last offset is not len(indices); the message names the position and the value. */
#define CLG_ERR_INVALID_OFFSETS       (-2062)
/** EmbeddingBag: a segment id lies outside [0, num_segments) or is smaller than the one before it;
 *  the message names the position and the value. */
#define CLG_ERR_INVALID_SEGMENT_IDS   (-2063)
/** An input the call needs is absent (EmbeddingBag: offsets for the offsets form, segment_ids for the
 *  segments form). */
#define CLG_ERR_INPUT_MISSING         (-2064)

/** Name of a status code: "CLG_SUCCESS", "CLG_ERR_..." or an OpenCL name such as
 *  "CL_OUT_OF_RESOURCES". Never NULL; unknown codes give "unknown status". */
CLG_API const char *clg_status_string(clg_status status);

/** Detailed message of the last failure on the calling thread ("" if none yet). The pointer stays
 *  valid until the next clgather call on the same thread. */
CLG_API const char *clg_last_error_message(void);

/** Version as "MAJOR.MINOR.PATCH". */
CLG_API const char *clg_version(void);

/** The binary interface this header describes: the layout of its structs, the values of its enums and
 *  codes, and its function signatures. It grows by one with every change to any of them, so code that
 *  loads the library at run time (the Python binding) can refuse a library it does not match. Values
 *  appended to an enum (before its _COUNT) leave it: every earlier value keeps its meaning, and a caller
 *  that names a new one to an older library gets that enum's "invalid" error, never a misreading. */
#define CLGATHER_ABI_VERSION 4

/** CLGATHER_ABI_VERSION of the header the library was built from. */
CLG_API int32_t clg_abi_version(void);

/* ------------------------------------------------------------------------------------------------ */
/* Element types and tensors                                                                        */
/* ------------------------------------------------------------------------------------------------ */

/** Element types. Gather moves bits, so every type works; GatherTree reads numbers. */
typedef enum clg_dtype {
    CLG_DTYPE_INVALID = 0,
    CLG_BOOL = 1, /* 1 byte */
    CLG_I8,
    CLG_U8,
    CLG_I16,
    CLG_U16,
    CLG_I32,
    CLG_U32,
    CLG_I64,
    CLG_U64,
    CLG_F16,
    CLG_BF16,
    CLG_F32,
    CLG_F64,
    CLG_C64,  /* complex64: two f32, 8 bytes */
    CLG_C128, /* complex128: two f64, 16 bytes */
    CLG_DTYPE_COUNT
} clg_dtype;

/** Size of one element in bytes; 0 for an invalid type. */
CLG_API size_t clg_dtype_size(clg_dtype type);
/** Short name ("f32", "i64", "bool", "c64", ...); "invalid" for an invalid type. */
CLG_API const char *clg_dtype_name(clg_dtype type);
/** Inverse of clg_dtype_name (exact, lower case); CLG_DTYPE_INVALID if unknown. */
CLG_API clg_dtype clg_dtype_from_name(const char *name);

/** Largest rank of an input tensor. */
#define CLG_MAX_RANK        8
/** Largest rank of a Gather output: data.rank - 1 + indices.rank - batch_dims. */
#define CLG_MAX_OUTPUT_RANK (2 * CLG_MAX_RANK - 1)

/** Type and shape of a tensor in C (row-major) order. rank 0 is a scalar with one element. */
typedef struct clg_tensor_desc {
    clg_dtype type;              /**< element type */
    int32_t rank;                /**< number of dimensions, 0 for a scalar */
    int64_t shape[CLG_MAX_RANK]; /**< extents, outermost first; entries past rank are ignored */
} clg_tensor_desc;

/* ------------------------------------------------------------------------------------------------ */
/* Contexts and devices                                                                             */
/* ------------------------------------------------------------------------------------------------ */

/** An explicit handle owning the compiled programs (built once per specialization, cached behind a
 *  mutex) and, for the synchronous calls, one command queue. One handle may be used from many
 *  threads at once. */
typedef struct clg_context clg_context;

/** Context flags. */
#define CLG_CONTEXT_VERIFY       0x1u /**< recompute every OpenCL result with the CPU reference, compare */
/** The deferred error policy: enqueue calls whose inputs are checked on the device (Gather,
 *  GatherElements and GatherND under the error policy, GatherTree, EmbeddingBag) never wait for the device. The
 *  check and the kernels run back to back on the queue, the kernels write nothing when the check
 *  fails, and the call's status is learned later with clg_deferred_status. The environment variable
 *  CLGATHER_DEFER_ERRORS=1 also sets it. Verify mode waits anyway; the synchronous calls always report
 *  their status at once. */
#define CLG_CONTEXT_DEFER_ERRORS 0x2u

/** Create a context on the caller's OpenCL context and device. The caller keeps ownership of both
 *  (the library retains them and releases its references in clg_context_release). Flags: a
 *  combination of CLG_CONTEXT_*; the environment variable CLGATHER_VERIFY=1 also turns verify on. */
CLG_API clg_status clg_context_create(cl_context context, cl_device_id device, uint32_t flags, clg_context **out_ctx);

/** Create a context on a device chosen by a spec string (NULL: the environment variable
 *  CLGATHER_DEVICE, and if that is unset or empty, the first GPU, else the first OpenCL device):
 *   - a decimal number: an index into the list of clg_list_devices();
 *   - "cpu" (any case): the CPU reference, no OpenCL at all (the enqueue calls then fail with
 *     CLG_ERR_NO_OPENCL; the synchronous calls run the reference);
 *   - an implementation's short name, as users say it (any case): "pocl", "intel" (Intel's CPU or GPU
 *     runtime), "intel-cpu", "intel-gpu", "rusticl", "clover", "oclgrind", "nvidia", "amd";
 *   - otherwise a case-insensitive substring of "platform name" or "device name"; the first device
 *     that matches is taken. */
CLG_API clg_status clg_context_create_default(const char *device_spec, uint32_t flags, clg_context **out_ctx);

/** Release a context (NULL is allowed). All work it enqueued must have completed or been waited on;
 *  failures of deferred calls not yet reported by clg_deferred_status are dropped with it. */
CLG_API void clg_context_release(clg_context *ctx);

/** The status of enqueue calls made under CLG_CONTEXT_DEFER_ERRORS.
 *   - event: a call's out-event. Waits for it, then returns the call's status: CLG_SUCCESS, or the
 *     failure the blocking policy would have returned at once (CLG_ERR_INDEX_OUT_OF_RANGE,
 *     CLG_ERR_INVALID_PARENT, CLG_ERR_INVALID_SEQ_LEN, CLG_ERR_INVALID_OFFSETS,
 *     CLG_ERR_INVALID_SEGMENT_IDS), with the same message naming the first bad
 *     value, its position and, for GatherTree, batch, time and beam. The output was left untouched.
 *   - NULL: waits for every deferred call of the context not yet settled and returns the first
 *     failure in enqueue order (CLG_SUCCESS if none); later failures stay for a later query.
 *  Each failure is reported once. An event of any other call (or one already reported) gives
 *  CLG_SUCCESS once it has completed. A failed command (a negative execution status) gives its
 *  OpenCL code. */
CLG_API clg_status clg_deferred_status(clg_context *ctx, cl_event event);

/** What a context runs on. Strings are NUL-terminated, cut to fit. */
typedef struct clg_device_info {
    int32_t index;              /**< position in clg_list_devices(), -1 for the CPU reference */
    int32_t is_default;         /**< 1 if this is the device the default spec would pick */
    int32_t is_reference;       /**< 1 for the CPU reference */
    cl_device_type type;        /**< CL_DEVICE_TYPE_* (0 for the CPU reference) */
    char platform_name[128];    /**< CL_PLATFORM_NAME */
    char platform_version[128]; /**< CL_PLATFORM_VERSION */
    char device_name[128];      /**< CL_DEVICE_NAME */
    char vendor[128];           /**< CL_DEVICE_VENDOR */
    char driver_version[128];   /**< CL_DRIVER_VERSION */
    char opencl_c_version[128]; /**< CL_DEVICE_OPENCL_C_VERSION */
    uint64_t global_mem_bytes;  /**< CL_DEVICE_GLOBAL_MEM_SIZE */
    uint64_t max_alloc_bytes;   /**< CL_DEVICE_MAX_MEM_ALLOC_SIZE: the largest tensor the device can hold */
    int32_t has_fp16;           /**< 1 if the device has cl_khr_fp16 */
    int32_t has_fp64;           /**< 1 if the device has cl_khr_fp64 */
} clg_device_info;

/** List the OpenCL devices of all platforms, in the order device specs index them. Writes at most
 *  capacity entries to out (out may be NULL when capacity is 0) and the total to *count. */
CLG_API clg_status clg_list_devices(clg_device_info *out, size_t capacity, size_t *count);

/** Describe the device a context runs on. */
CLG_API clg_status clg_context_device_info(const clg_context *ctx, clg_device_info *out);

/** The context's OpenCL objects (NULL for the CPU reference); not retained for the caller. */
CLG_API cl_context clg_context_cl_context(const clg_context *ctx);
CLG_API cl_device_id clg_context_cl_device(const clg_context *ctx);
/** Compiled programs are cached in the context and on disk as binaries under CLGATHER_CACHE_DIR
 *  (default $XDG_CACHE_HOME/clgather, else ~/.cache/clgather), keyed by the kernel source, build
 *  options, device name, driver and platform versions and the clgather version. A damaged, stale or
 *  unwritable cache never fails a call: the program is built from source instead. CLGATHER_CACHE=0
 *  turns the disk cache off. On PoCL it is off by default, because PoCL keeps every build in its own
 *  cache (POCL_CACHE_DIR) and compiles a program's kernels a second time when asked for its binary;
 *  CLGATHER_CACHE=1 turns it on there too (and POCL_KERNEL_CACHE=0 brings it back by itself).
 *
 *  For runtimes that keep caches of their own: export every program the context has built as one
 *  memory blob. With blob NULL, only *blob_size is set (the bytes needed); otherwise capacity must be
 *  at least that (CLG_ERR_BUFFER_TOO_SMALL). */
CLG_API clg_status clg_context_export_binaries(clg_context *ctx, void *blob, size_t capacity, size_t *blob_size);

/** Import a blob made by clg_context_export_binaries: programs whose key matches this context's
 *  device, driver and library version are added to its cache (the others are skipped); *imported (may
 *  be NULL) gets the number added. A blob that is not a valid export is CLG_ERR_INVALID_BINARY_BLOB. */
CLG_API clg_status clg_context_import_binaries(clg_context *ctx, const void *blob, size_t blob_size, size_t *imported);

/** The queue the synchronous calls use (created by the library on the context's device). */
CLG_API cl_command_queue clg_context_cl_queue(const clg_context *ctx);

/* ------------------------------------------------------------------------------------------------ */
/* Tuning                                                                                           */
/* ------------------------------------------------------------------------------------------------ */

/** Tuning: every choice that makes the kernels fast on one device and not another (mapping, work-group
 *  sizes, bytes a work-item moves, staging, prefetch distances, streaming stores, compiler hints) is a
 *  named tunable. A context takes its values from clgather's tuning table (one row per implementation
 *  and device type), then from the device's stored profile if `clgather tune` wrote one (keyed like the
 *  program cache, under the cache directory). The environment variable CLGATHER_TUNING=0 ignores stored
 *  profiles; CLGATHER_TUNING=FILE applies that profile file instead, whatever device it names. A
 *  missing, damaged or foreign profile is ignored without error. A tuning changes speed, never results.
 *
 *  The context's tuning as text: first `#` comment lines naming its origin (`# table: ROW (measured)`
 *  or `(untested)`, then `# profile: PATH` or `# set by the caller` where those applied), then one
 *  `name = value` line per tunable. Writes at most capacity bytes including the terminating NUL (text
 *  may be NULL when capacity is 0) and sets *length (may be NULL) to the length the whole text needs.
 *  CLG_ERR_BUFFER_TOO_SMALL if it did not fit; CLG_ERR_NO_OPENCL for the CPU reference. */
CLG_API clg_status clg_context_tuning(const clg_context *ctx, char *text, size_t capacity, size_t *length);

/** Change tunables: `name = value` lines (`#` starts a comment; blank lines are allowed), applied all
 *  or nothing to the context's current tuning; later calls use the new values (programs built for the
 *  old ones stay cached). A line that is not `name = value`, an unknown name, or a value out of the
 *  tunable's range is CLG_ERR_INVALID_TUNING, naming the line, the tunable and the value, and changes
 *  nothing. Not to be called while other calls on the context are running, nor while calls made under
 *  CLG_CONTEXT_DEFER_ERRORS await their status (a failure is located with the tuning it was found under). */
CLG_API clg_status clg_context_set_tuning(clg_context *ctx, const char *text);

/** Store the context's current tuning as its device's profile (atomically; it replaces the one there),
 *  so that contexts created later on the same device, driver and clgather version use it. comment
 *  (may be NULL) is kept as a `#` line. path (may be NULL) receives the file's path, at most capacity
 *  bytes. CLG_ERR_IO if no cache directory is known or the file cannot be written. */
CLG_API clg_status clg_context_store_tuning(const clg_context *ctx, const char *comment, char *path, size_t capacity);

/* ------------------------------------------------------------------------------------------------ */
/* Gather                                                                                           */
/* ------------------------------------------------------------------------------------------------ */

/** Which specification the call follows (docs/semantics.md lists the differences). */
typedef enum clg_preset {
    CLG_PRESET_INVALID = 0,
    CLG_ONNX_1 = 1,  /**< ONNX Gather-1: axis attribute, i32/i64 indices, out-of-range is an error */
    CLG_ONNX_11,     /**< ONNX Gather-11: same, negative indices documented */
    CLG_ONNX_13,     /**< ONNX Gather-13: same, adds bfloat16 */
    CLG_OV_GATHER_1, /**< OpenVINO Gather-1: axis tensor, no batch_dims, out-of-range gives zeros */
    CLG_OV_GATHER_7, /**< OpenVINO Gather-7: adds batch_dims */
    CLG_OV_GATHER_8, /**< OpenVINO Gather-8: negative indices, out-of-range gives zeros */
    CLG_PRESET_COUNT
} clg_preset;

/** Name of a preset ("onnx-13", "ov-gather-8", ...), "invalid" if unknown. */
CLG_API const char *clg_preset_name(clg_preset preset);
/** Inverse of clg_preset_name; CLG_PRESET_INVALID if unknown. */
CLG_API clg_preset clg_preset_from_name(const char *name);

/** What an index outside [-A, A-1] (after the one negative wrap) does. */
typedef enum clg_oob_policy {
    CLG_OOB_PRESET = 0, /**< the preset's rule: error for ONNX, zero for OpenVINO */
    CLG_OOB_ERROR,      /**< fail the call, name the first offending index, write nothing */
    CLG_OOB_ZERO,       /**< the output slice of that index is zero bytes */
    CLG_OOB_CLAMP,      /**< clamp to [0, A-1] after the wrap (zeros when A == 0) */
    CLG_OOB_COUNT
} clg_oob_policy;

/** Name of a policy ("preset", "error", "zero", "clamp"), "invalid" if unknown. */
CLG_API const char *clg_oob_policy_name(clg_oob_policy policy);
/** Inverse of clg_oob_policy_name; CLG_OOB_COUNT (not a policy) if unknown. */
CLG_API clg_oob_policy clg_oob_policy_from_name(const char *name);

/** A gather: out[b, o, n, i] = data[b, o, idx(b, n), i]. Zero-initialise it, then fill in. */
typedef struct clg_gather_desc {
    clg_preset preset;       /**< which specification the call follows */
    clg_tensor_desc data;    /**< any element type, rank 1..CLG_MAX_RANK */
    clg_tensor_desc indices; /**< an integer type (ONNX: i32 or i64), rank 0..CLG_MAX_RANK */
    /** ONNX presets: the axis attribute, in [-r, r-1]. Ignored by the OpenVINO presets. */
    int64_t axis;
    /** OpenVINO presets: the axis input, a scalar or one-element 1-D tensor of any integer type,
     *  read from host memory at axis_value. Must be left empty (type 0, axis_value NULL) for ONNX. */
    clg_tensor_desc axis_tensor;
    const void *axis_value; /**< host pointer to the axis tensor's one element (OpenVINO presets) */
    /** OpenVINO 7 and 8: in [-q, q] for indices rank q; negative means q + batch_dims. Must be 0 for
     *  the other presets. */
    int64_t batch_dims;
    /** CLG_OOB_PRESET, or an override. */
    clg_oob_policy oob_policy;
} clg_gather_desc;

/** Validate a descriptor and infer the output shape (runtimes call it before they allocate).
 *  out_shape must hold CLG_MAX_OUTPUT_RANK entries. The output type is the data type. */
CLG_API clg_status clg_gather_output_shape(const clg_gather_desc *desc, int32_t *out_rank,
                                           int64_t out_shape[CLG_MAX_OUTPUT_RANK]);

/** Validate a descriptor and give the byte sizes of data, indices and output. Any pointer may be NULL. */
CLG_API clg_status clg_gather_sizes(const clg_gather_desc *desc, uint64_t *data_bytes, uint64_t *indices_bytes,
                                    uint64_t *output_bytes);

/** Enqueue a gather on the caller's queue (which must belong to the context's cl_context and device).
 *  Buffers are a cl_mem plus a byte offset each: data and output offsets may be any byte offset; the
 *  indices offset must be a multiple of the index element size. Each cl_mem must hold offset + the
 *  tensor's size. The call validates everything before it enqueues anything; on failure nothing is
 *  enqueued and *out_event is left unset.
 *
 *  The call only enqueues (it returns before the work completes) except:
 *   - under the error policy (ONNX presets, or CLG_OOB_ERROR): it enqueues an index-check kernel
 *     after the wait list and the gather behind it, gated by the check (it writes nothing if the
 *     check failed), then waits for the check alone (one 4-byte read), so that it can return
 *     CLG_ERR_INDEX_OUT_OF_RANGE with the output buffer untouched. The call therefore blocks until
 *     the wait list's events, the work already on the queue before it and the check have completed. On a context with CLG_CONTEXT_DEFER_ERRORS it does not wait: the
 *     gather is enqueued gated by the check, and clg_deferred_status gives the call's status.
 *   - in verify mode: it waits for the gather, reads data, indices and output back, and compares.
 *  num_events / wait_list as in clEnqueueNDRangeKernel. out_event (may be NULL) receives an event that
 *  completes when the output is written; the caller releases it. For zero-sized work a marker event
 *  is returned. */
CLG_API clg_status clg_gather_enqueue(clg_context *ctx, const clg_gather_desc *desc, cl_command_queue queue,
                                      cl_mem data, size_t data_offset, cl_mem indices, size_t indices_offset,
                                      cl_mem output, size_t output_offset, cl_uint num_events,
                                      const cl_event *wait_list, cl_event *out_event);

/** Synchronous gather over host memory: inputs in, run on the context's device, output out (for the CPU
 *  reference context it runs the reference). *_bytes give the size of each host buffer; the output
 *  is written only on success. Every synchronous call over host memory treats its memory the same way:
 *  where the device's tuning says its driver uses host memory in place (host_memory_in_place: PoCL and
 *  Intel's CPU runtime), an input at a 16-byte aligned address is read where it lies, through a
 *  read-only CL_MEM_USE_HOST_PTR buffer, and never written (a read-only mapping will do), and an output
 *  at such an address that shares no byte with an input is written where it lies (not in verify mode);
 *  other memory is copied through a device buffer. The kernels write an in-place output only once the
 *  inputs have passed their checks, but should the driver fail after they ran, the call fails with the
 *  output written. The inputs must not change until the call returns. */
CLG_API clg_status clg_gather(clg_context *ctx, const clg_gather_desc *desc, const void *data, size_t data_bytes,
                              const void *indices, size_t indices_bytes, void *output, size_t output_bytes);

/** The CPU reference: the same semantics in plain C over host memory, no OpenCL involved. */
CLG_API clg_status clg_gather_reference(const clg_gather_desc *desc, const void *data, size_t data_bytes,
                                        const void *indices, size_t indices_bytes, void *output, size_t output_bytes);

/* ------------------------------------------------------------------------------------------------ */
/* GatherElements                                                                                   */
/* ------------------------------------------------------------------------------------------------ */

/** Which GatherElements specification the call follows (docs/semantics.md, "GatherElements"). */
typedef enum clg_gather_elements_preset {
    CLG_GATHER_ELEMENTS_PRESET_INVALID = 0,
    CLG_ONNX_GATHER_ELEMENTS_11 = 1, /**< ONNX GatherElements-11: i32/i64 indices, out-of-range is an error */
    CLG_ONNX_GATHER_ELEMENTS_13,     /**< ONNX GatherElements-13: same, adds bfloat16 */
    CLG_OV_GATHER_ELEMENTS_6,        /**< OpenVINO GatherElements-6: any integer index type, out-of-range gives zeros */
    CLG_GATHER_ELEMENTS_PRESET_COUNT
} clg_gather_elements_preset;

/** Name of a GatherElements preset ("onnx-11", "onnx-13", "ov-gather-elements-6"), "invalid" if unknown. */
CLG_API const char *clg_gather_elements_preset_name(clg_gather_elements_preset preset);
/** Inverse of clg_gather_elements_preset_name; CLG_GATHER_ELEMENTS_PRESET_INVALID if unknown. */
CLG_API clg_gather_elements_preset clg_gather_elements_preset_from_name(const char *name);

/** A GatherElements: out[p] = data[p with p[axis] replaced by indices[p]], for every position p of
 *  the indices tensor; the output has the indices' shape and the data's type. Zero-initialise it,
 *  then fill in. */
typedef struct clg_gather_elements_desc {
    clg_gather_elements_preset preset; /**< which specification the call follows */
    clg_tensor_desc data;              /**< any element type (bf16: not onnx-11), rank 1..CLG_MAX_RANK */
    /** an integer type (ONNX: i32 or i64) of the data's rank, with indices.shape[d] <= data.shape[d]
     *  for every d other than the axis (indices.shape[axis] is free) */
    clg_tensor_desc indices;
    int64_t axis;              /**< the axis attribute, in [-r, r-1] for data rank r */
    clg_oob_policy oob_policy; /**< CLG_OOB_PRESET (error for ONNX, zero for OpenVINO), or an override */
} clg_gather_elements_desc;

/** Validate a descriptor and give the output shape (the indices' shape). out_shape must hold
 *  CLG_MAX_OUTPUT_RANK entries, as for clg_gather_output_shape. */
CLG_API clg_status clg_gather_elements_output_shape(const clg_gather_elements_desc *desc, int32_t *out_rank,
                                                    int64_t out_shape[CLG_MAX_OUTPUT_RANK]);

/** Validate a descriptor and give the byte sizes of data, indices and output. Any pointer may be NULL. */
CLG_API clg_status clg_gather_elements_sizes(const clg_gather_elements_desc *desc, uint64_t *data_bytes,
                                             uint64_t *indices_bytes, uint64_t *output_bytes);

/** Enqueue a GatherElements on the caller's queue, exactly as clg_gather_enqueue does: data and output
 *  offsets may be any byte offset, the indices offset must be a multiple of the index size; everything
 *  is validated before anything is enqueued; under the error policy the call waits for a 4-byte index
 *  check (not on a context with CLG_CONTEXT_DEFER_ERRORS: see clg_deferred_status); verify mode waits
 *  and compares; out_event (may be NULL) completes when the output is written, a marker for empty work. */
CLG_API clg_status clg_gather_elements_enqueue(clg_context *ctx, const clg_gather_elements_desc *desc,
                                               cl_command_queue queue, cl_mem data, size_t data_offset, cl_mem indices,
                                               size_t indices_offset, cl_mem output, size_t output_offset,
                                               cl_uint num_events, const cl_event *wait_list, cl_event *out_event);

/** Synchronous GatherElements over host memory (the CPU reference on a reference context); the output
 *  is written only on success. */
CLG_API clg_status clg_gather_elements(clg_context *ctx, const clg_gather_elements_desc *desc, const void *data,
                                       size_t data_bytes, const void *indices, size_t indices_bytes, void *output,
                                       size_t output_bytes);

/** The CPU reference for GatherElements. */
CLG_API clg_status clg_gather_elements_reference(const clg_gather_elements_desc *desc, const void *data,
                                                 size_t data_bytes, const void *indices, size_t indices_bytes,
                                                 void *output, size_t output_bytes);

/* ------------------------------------------------------------------------------------------------ */
/* GatherND                                                                                         */
/* ------------------------------------------------------------------------------------------------ */

/** Which GatherND specification the call follows (docs/semantics.md, "GatherND"). */
typedef enum clg_gather_nd_preset {
    CLG_GATHER_ND_PRESET_INVALID = 0,
    CLG_ONNX_GATHER_ND_11 = 1, /**< ONNX GatherND-11: no batch_dims, i64 indices, out-of-range is an error */
    CLG_ONNX_GATHER_ND_12,     /**< ONNX GatherND-12: adds batch_dims */
    CLG_ONNX_GATHER_ND_13,     /**< ONNX GatherND-13: adds bfloat16 */
    /** OpenVINO GatherND-5: any integer index type, out-of-range gives zeros; the batch dimensions of
     *  the output are flattened into one */
    CLG_OV_GATHER_ND_5,
    CLG_OV_GATHER_ND_8, /**< OpenVINO GatherND-8: as GatherND-5, the batch dimensions kept */
    CLG_GATHER_ND_PRESET_COUNT
} clg_gather_nd_preset;

/** Name of a GatherND preset ("onnx-11", "onnx-12", "onnx-13", "ov-gather-nd-5", "ov-gather-nd-8"),
 *  "invalid" if unknown. */
CLG_API const char *clg_gather_nd_preset_name(clg_gather_nd_preset preset);
/** Inverse of clg_gather_nd_preset_name; CLG_GATHER_ND_PRESET_INVALID if unknown. */
CLG_API clg_gather_nd_preset clg_gather_nd_preset_from_name(const char *name);

/** A GatherND. The indices [.., m] are tuples of m = indices.shape[-1] components; after the b =
 *  batch_dims leading dimensions shared by data and indices, tuple t of batch bb selects the slice
 *  data[bb, t_0, .., t_{m-1}, :], each component checked against its own data dimension (one wrap).
 *  Output shape: indices.shape[:-1] + data.shape[b+m:] (ov-gather-nd-5 with b > 0: the b batch
 *  dimensions flattened into their product). Zero-initialise it, then fill in. */
typedef struct clg_gather_nd_desc {
    clg_gather_nd_preset preset; /**< which specification the call follows */
    clg_tensor_desc data;        /**< any element type (bf16: onnx-13 and OpenVINO), rank 1..CLG_MAX_RANK */
    clg_tensor_desc indices;     /**< an integer type (ONNX: i64), rank 1..CLG_MAX_RANK, shape[-1] in [1, r - b] */
    /** in [0, min(q, r) - 1] for indices rank q and data rank r; must be 0 for onnx-11 */
    int64_t batch_dims;
    /** CLG_OOB_PRESET (error for ONNX, zero for OpenVINO), or an override. Under zero, a tuple with any
     *  component out of range gives a zero slice; under clamp, each component is clamped on its own. */
    clg_oob_policy oob_policy;
} clg_gather_nd_desc;

/** Validate a descriptor and give the output shape; out_shape must hold CLG_MAX_OUTPUT_RANK entries.
 *  The output rank may be 0 (a tuple of r components on data of rank r with one tuple). */
CLG_API clg_status clg_gather_nd_output_shape(const clg_gather_nd_desc *desc, int32_t *out_rank,
                                              int64_t out_shape[CLG_MAX_OUTPUT_RANK]);

/** Validate a descriptor and give the byte sizes of data, indices and output. Any pointer may be NULL. */
CLG_API clg_status clg_gather_nd_sizes(const clg_gather_nd_desc *desc, uint64_t *data_bytes, uint64_t *indices_bytes,
                                       uint64_t *output_bytes);

/** Enqueue a GatherND on the caller's queue, exactly as clg_gather_enqueue does (offsets, validation
 *  before any enqueue, the error policy's 4-byte check and its deferred form, verify mode, events).
 *  Under the error policy the first tuple component out of range (in flat order of the indices) is
 *  reported, with its tuple and component. */
CLG_API clg_status clg_gather_nd_enqueue(clg_context *ctx, const clg_gather_nd_desc *desc, cl_command_queue queue,
                                         cl_mem data, size_t data_offset, cl_mem indices, size_t indices_offset,
                                         cl_mem output, size_t output_offset, cl_uint num_events,
                                         const cl_event *wait_list, cl_event *out_event);

/** Synchronous GatherND over host memory (the CPU reference on a reference context); the output is
 *  written only on success. */
CLG_API clg_status clg_gather_nd(clg_context *ctx, const clg_gather_nd_desc *desc, const void *data, size_t data_bytes,
                                 const void *indices, size_t indices_bytes, void *output, size_t output_bytes);

/** The CPU reference for GatherND. */
CLG_API clg_status clg_gather_nd_reference(const clg_gather_nd_desc *desc, const void *data, size_t data_bytes,
                                           const void *indices, size_t indices_bytes, void *output,
                                           size_t output_bytes);

/* ------------------------------------------------------------------------------------------------ */
/* GatherTree-1                                                                                     */
/* ------------------------------------------------------------------------------------------------ */

/** GatherTree-1 inputs: step_ids and parent_ids [T, B, W], max_seq_len [B], end_token a scalar, all
 *  of one numeric type (i8..i64, u8..u64, f16, f32, f64, on every device: floats are decoded from their
 *  bits with integer operations, so no cl_khr_fp16 or cl_khr_fp64 is needed). The output is [T, B, W]
 *  of that type.
 *
 *  Semantics (GatherTree-1 with the decisions of docs/semantics.md):
 *   - L = min(T, max_seq_len[b]); L <= 0 leaves the beam all end_token; positions t >= L are end_token.
 *   - The backtrack follows parent_ids[L-1, b, beam], then parent_ids[t, b, parent] for t = L-2 .. 1:
 *     only those ids are used as indices, and only those must lie in [0, W) (and be integral for
 *     floats; -0.0 counts as 0). Any other id may hold anything. A followed id outside the range fails
 *     the call with CLG_ERR_INVALID_PARENT naming batch, time, beam and value; nothing is written.
 *   - The first failure reported is the first in batch order; within a batch, an invalid max_seq_len
 *     comes first, then beams in order, each at the first bad id its backtrack meets (walking back).
 *   - Float max_seq_len must be finite and integral (NaN, +-inf or a fraction: CLG_ERR_INVALID_SEQ_LEN);
 *     huge values clamp to T. Unsigned lengths above INT64_MAX clamp to T.
 *   - end_token is compared with C ==: -0.0 matches +0.0, and a NaN end_token matches nothing. */
typedef struct clg_gather_tree_desc {
    clg_tensor_desc step_ids;    /**< [MAX_TIME, BATCH, BEAM_WIDTH] token ids per step */
    clg_tensor_desc parent_ids;  /**< [MAX_TIME, BATCH, BEAM_WIDTH] parent beam of each step */
    clg_tensor_desc max_seq_len; /**< [BATCH] sequence lengths (clamped to MAX_TIME; <= 0: all end_token) */
    clg_tensor_desc end_token;   /**< scalar end marker */
} clg_gather_tree_desc;

/** Validate a GatherTree descriptor and give the output byte size (may be NULL). */
CLG_API clg_status clg_gather_tree_sizes(const clg_gather_tree_desc *desc, uint64_t *output_bytes);

/** Enqueue GatherTree on the caller's queue. Like clg_gather_enqueue, the call must learn whether a
 *  followed parent id is invalid before the output may be written: it runs the backtrack into a
 *  scratch buffer, waits for it (one 4-byte read of the first failure), and copies the result into
 *  the output only when every followed parent id is valid. It therefore blocks until the wait list's
 *  events and the backtrack have completed; the final copy is only enqueued (out_event is the copy).
 *  On a context with CLG_CONTEXT_DEFER_ERRORS it does not wait: the copy runs on the device only if
 *  the backtrack found every input valid, and clg_deferred_status gives the call's status.
 *  In verify mode the call also waits for the backtrack, compares its result with the reference, and
 *  copies it into the output only if they match.
 *  Offsets: the four input offsets must be multiples of the element size (CLG_ERR_MISALIGNED_OFFSET);
 *  the output offset may be any byte offset. */
CLG_API clg_status clg_gather_tree_enqueue(clg_context *ctx, const clg_gather_tree_desc *desc, cl_command_queue queue,
                                           cl_mem step_ids, size_t step_ids_offset, cl_mem parent_ids,
                                           size_t parent_ids_offset, cl_mem max_seq_len, size_t max_seq_len_offset,
                                           cl_mem end_token, size_t end_token_offset, cl_mem output,
                                           size_t output_offset, cl_uint num_events, const cl_event *wait_list,
                                           cl_event *out_event);

/** Synchronous GatherTree over host memory. */
CLG_API clg_status clg_gather_tree(clg_context *ctx, const clg_gather_tree_desc *desc, const void *step_ids,
                                   size_t step_ids_bytes, const void *parent_ids, size_t parent_ids_bytes,
                                   const void *max_seq_len, size_t max_seq_len_bytes, const void *end_token,
                                   size_t end_token_bytes, void *output, size_t output_bytes);

/** The CPU reference for GatherTree. */
CLG_API clg_status clg_gather_tree_reference(const clg_gather_tree_desc *desc, const void *step_ids,
                                             size_t step_ids_bytes, const void *parent_ids, size_t parent_ids_bytes,
                                             const void *max_seq_len, size_t max_seq_len_bytes, const void *end_token,
                                             size_t end_token_bytes, void *output, size_t output_bytes);

/* ------------------------------------------------------------------------------------------------ */
/* Dequantizing gather                                                                              */
/* ------------------------------------------------------------------------------------------------ */

/** Where a quantized table comes from: each layout packs values and scales its own way
 *  (docs/semantics.md, "Dequantizing gather", gives every byte). */
typedef enum clg_quant_layout {
    CLG_QUANT_LAYOUT_INVALID = 0, /**< not a layout */
    /** ONNX Runtime's com.microsoft.GatherBlockQuantized (version 1): u4, i4 or u8 data, a scale per
     *  block_size values along quantize_axis, optional zero points. Out of range: error. */
    CLG_QUANT_ORT_BLOCK = 1,
    /** ggml's q4_0 rows (llama.cpp get_rows): blocks of 32 values, an f16 scale and 16 bytes of
     *  nibbles each. Out of range: error. */
    CLG_QUANT_GGML_Q4_0,
    /** ggml's q8_0 rows: blocks of 32 values, an f16 scale and 32 int8 each. Out of range: error. */
    CLG_QUANT_GGML_Q8_0,
    /** OpenVINO's compressed embedding (the pattern its GatherCompressed replaces): u8, i8, u4 or i4
     *  data, a scale per row or per group along the last axis, an optional zero point per scale or one
     *  for the whole table. Out of range: zeros. */
    CLG_QUANT_OV_COMPRESSED,
    /* ggml's other blocks of 32 values, appended so that the values above keep their meaning. */
    /** ggml's q4_1 rows: blocks of an f16 scale d, an f16 minimum m and 16 bytes of nibbles q;
     *  value = q * d + m. Out of range: error. */
    CLG_QUANT_GGML_Q4_1,
    /** ggml's q5_0 rows: blocks of an f16 scale d, 4 bytes of fifth bits and 16 bytes of nibbles;
     *  value = (q - 16) * d for the 5-bit q. Out of range: error. */
    CLG_QUANT_GGML_Q5_0,
    /** ggml's q5_1 rows: blocks of f16 d, f16 m, 4 bytes of fifth bits and 16 bytes of nibbles;
     *  value = q * d + m. Out of range: error. */
    CLG_QUANT_GGML_Q5_1,
    /** ggml's iq4_nl rows: blocks of an f16 scale d and 16 bytes of nibbles, each an index into
     *  ggml's table of 16 non-linear values (kvalues_iq4nl); value = kvalue * d. Out of range: error. */
    CLG_QUANT_GGML_IQ4_NL,
    /* ggml's super-blocks of 256 values (QK_K), appended likewise: each holds 8 or 16 sub-blocks whose
     * integer scales (and minimums) multiply the super-block's f16 d (and dmin). */
    /** ggml's q2_K rows: 84-byte blocks, 16 bytes of 4-bit scale and minimum, 2-bit q, f16 d and dmin;
     *  value = (d * scale) * q - dmin * min. Out of range: error. */
    CLG_QUANT_GGML_Q2_K,
    /** ggml's q3_K rows: 110-byte blocks, a high-bit mask, 2-bit low parts, twelve bytes of 6-bit
     *  scales, f16 d; value = (d * (scale - 32)) * q for the 3-bit q in -4..3. Out of range: error. */
    CLG_QUANT_GGML_Q3_K,
    /** ggml's q4_K rows: 144-byte blocks, f16 d and dmin, twelve bytes of 6-bit scales and minimums,
     *  nibbles q; value = (d * scale) * q - dmin * min. Out of range: error. */
    CLG_QUANT_GGML_Q4_K,
    /** ggml's q5_K rows: 176-byte blocks, q4_K's with a fifth bit a value. Out of range: error. */
    CLG_QUANT_GGML_Q5_K,
    /** ggml's q6_K rows: 210-byte blocks, 6-bit q, sixteen int8 scales, f16 d;
     *  value = (d * scale) * (q - 32). Out of range: error. */
    CLG_QUANT_GGML_Q6_K,
    /** ggml's iq4_xs rows: 136-byte blocks, f16 d, eight 6-bit scales, nibbles indexing
     *  kvalues_iq4nl; value = (d * (scale - 32)) * kvalue. Out of range: error. */
    CLG_QUANT_GGML_IQ4_XS,
    /* FBGEMM's fused rowwise rows (PyTorch's quantized EmbeddingBag tables), appended likewise: each row
     * holds its own scale and bias after its values. */
    /** FBGEMM's fused 8-bit rowwise rows (Fused8BitRowwiseQuantizedSBFloat, PyTorch's
     *  embedding_bag_byte_prepack): D uint8 q, then an f32 scale and an f32 bias (little-endian, any
     *  alignment), D + 8 bytes a row; value = q * scale + bias in f32, not fused (the product rounded,
     *  then the sum), where FBGEMM and PyTorch fuse: docs/semantics.md section 8.8 bounds the difference.
     *  Out of range: error. */
    CLG_QUANT_FBGEMM_8BIT_ROWWISE,
    /** FBGEMM's fused 4-bit rowwise rows (FusedNBitRowwiseQuantizedSBHalf with bit rate 4, PyTorch's
     *  embedding_bag_4bit_prepack): bytes of two 4-bit q, the low nibble first, then an f16 scale and
     *  an f16 bias, B + 4 bytes a row of D = 2B values (an odd-width table's padding nibble is a value,
     *  as FBGEMM's dequantization gives it); value = q * scale + bias. Out of range: error. */
    CLG_QUANT_FBGEMM_4BIT_ROWWISE,
    CLG_QUANT_LAYOUT_COUNT /**< number of values, not a layout */
} clg_quant_layout;

/** Name of a layout ("ort-block", "ggml-q4_0", "ggml-q8_0", "ov-compressed", "ggml-q4_1", "ggml-q5_0",
 *  "ggml-q5_1", "ggml-iq4_nl", "ggml-q2_K", "ggml-q3_K", "ggml-q4_K", "ggml-q5_K", "ggml-q6_K",
 *  "ggml-iq4_xs", "fbgemm-8bit-rowwise", "fbgemm-4bit-rowwise"), "invalid" if unknown. */
CLG_API const char *clg_quant_layout_name(clg_quant_layout layout);
/** Inverse of clg_quant_layout_name; CLG_QUANT_LAYOUT_INVALID if unknown. */
CLG_API clg_quant_layout clg_quant_layout_from_name(const char *name);

/** Element types of quantized tensors. The 4-bit types hold two values a byte, the lower-indexed in
 *  the low nibble, packed over the whole tensor in row-major order (an odd count leaves the last high
 *  nibble unused): ONNX's uint4 / int4 and OpenVINO's u4 / i4. */
typedef enum clg_quant_type {
    CLG_QUANT_TYPE_INVALID = 0, /**< not a type */
    CLG_QUANT_U4 = 1,           /**< unsigned 4-bit, 0..15 */
    CLG_QUANT_I4,               /**< signed 4-bit (two's complement nibble), -8..7 */
    CLG_QUANT_U8,               /**< unsigned 8-bit, 0..255 (ONNX Runtime with bits 4 / 2: two / four values a byte) */
    CLG_QUANT_I8,               /**< signed 8-bit, -128..127 */
    CLG_QUANT_TYPE_COUNT        /**< number of values, not a type */
} clg_quant_type;

/** Name of a quantized type ("u4", "i4", "u8", "i8"), "invalid" if unknown. */
CLG_API const char *clg_quant_type_name(clg_quant_type type);
/** Inverse of clg_quant_type_name; CLG_QUANT_TYPE_INVALID if unknown. */
CLG_API clg_quant_type clg_quant_type_from_name(const char *name);

/** Type and shape of a quantized tensor (row-major). type 0 marks an absent optional tensor. */
typedef struct clg_quant_tensor_desc {
    clg_quant_type type;         /**< element type; CLG_QUANT_TYPE_INVALID (0): absent */
    int32_t rank;                /**< number of dimensions */
    int64_t shape[CLG_MAX_RANK]; /**< extents as the layout defines them (see data) */
} clg_quant_tensor_desc;

/** A dequantizing gather: out[m, n, i] = ((q - zero_point) as f32) * scale, rounded to the output
 *  type, for the values q of data[m, indices[n], i] and the scale and zero point of each value's
 *  block. Zero-initialise it, then fill in. Per layout (docs/semantics.md gives every rule):
 *   - CLG_QUANT_ORT_BLOCK: data u4 / i4 with its logical shape, or u8 with the shape the model gives
 *     (bits 4 / 2: the last dimension counts bytes of two / four values, lowest bits first, and the
 *     output's is twice / four times it). scales: data's rank, ceil(values / block_size) along
 *     quantize_axis, data's extents elsewhere. zero_points (optional, data's type): scales' shape, but
 *     u8 with bits 4 / 2 packs two / four a byte along the last axis (ceil(n / 2) / ceil(n / 4) bytes a
 *     row). Default zero point: 0 for u4 / i4, 2 (bits 2), 8 (bits 4) or 128 (bits 8) for u8. uint8
 *     data needs gather_axis 0 and quantize_axis the last axis.
 *   - CLG_QUANT_GGML_*: data u8 [..., bytes per row], a row being whole blocks of 32 values: 18
 *     bytes (q4_0, iq4_nl), 20 (q4_1), 22 (q5_0), 24 (q5_1) or 34 (q8_0); the output's last dimension
 *     is 32 values a block, each computed as ggml computes it (for q4_1 and q5_1 the product, then the
 *     sum, each rounded to f32). The super-blocks of 256 values: 84 bytes (q2_K), 110 (q3_K), 144
 *     (q4_K), 176 (q5_K), 210 (q6_K), 136 (iq4_xs), the output 256 values a block, each the f32
 *     operations of gguf.quants.dequantize in its order. No scales, no zero_points; gather_axis any
 *     axis but the last.
 *   - CLG_QUANT_FBGEMM_8BIT_ROWWISE / CLG_QUANT_FBGEMM_4BIT_ROWWISE: data u8 [..., bytes per row], each
 *     row one FBGEMM fused row: D = bytes - 8 (8-bit: D bytes of q, f32 scale, f32 bias) or
 *     D = 2 * (bytes - 4) (4-bit: nibbles, f16 scale, f16 bias); at least one value a row. The
 *     output's last dimension is D. No scales, no zero_points; block_size 0 or D; gather_axis any axis
 *     but the last; output f32 unless told.
 *   - CLG_QUANT_OV_COMPRESSED: data u8 / i8 / u4 / i4 [..., K]; scales [..., G] (data's other extents)
 *     with G dividing K: a scale per K / G values of a row (G = 1: per row). zero_points (optional,
 *     data's type): scales' shape, or one value for the whole table. */
typedef struct clg_gather_quantized_desc {
    clg_quant_layout layout;           /**< how data, scales and zero points are laid out */
    clg_quant_tensor_desc data;        /**< the quantized table, rank 1..CLG_MAX_RANK (ggml: 2..) */
    clg_tensor_desc indices;           /**< i32 or i64 (OpenVINO: any integer type), rank 0..CLG_MAX_RANK */
    clg_tensor_desc scales;            /**< f32, f16 or bf16 (ONNX Runtime, OpenVINO); empty for ggml */
    clg_quant_tensor_desc zero_points; /**< optional (type 0: absent); never for ggml */
    /** ONNX Runtime's bits attribute: u8 data 2, 4 or 8, u4 / i4 data 4; 0 means 4, ONNX Runtime's
     *  default. Other layouts: 0, or the width of their values. */
    int32_t bits;
    /** ONNX Runtime: a power of two >= 16 (0 means 128, ONNX Runtime's default). OpenVINO: 0, or the
     *  values per scale (K / G). ggml: 0 or 32 (256 for the super-blocks). FBGEMM: 0 or D. */
    int64_t block_size;
    /** The axis indices select along, in [-r, r-1] (ggml: not the last axis). */
    int64_t gather_axis;
    /** ONNX Runtime: the axis blocks run along, in [-r, r-1]. ONNX Runtime's default is 1: pass it
     *  when a model leaves the attribute out. Ignored by the other layouts (their last axis). */
    int64_t quantize_axis;
    /** f32, f16 or bf16; 0 (CLG_DTYPE_INVALID) means the scales' type (ONNX Runtime's and OpenVINO's
     *  rule), f32 for ggml (get_rows' output). */
    clg_dtype output_type;
    /** CLG_OOB_PRESET (the layout's rule: error for ONNX Runtime and ggml, zeros for OpenVINO), or an
     *  override. */
    clg_oob_policy oob_policy;
} clg_gather_quantized_desc;

/** Validate a descriptor and infer the output shape (out_shape holds CLG_MAX_OUTPUT_RANK entries) and
 *  type (out_type may be NULL). */
CLG_API clg_status clg_gather_quantized_output_shape(const clg_gather_quantized_desc *desc, int32_t *out_rank,
                                                     int64_t out_shape[CLG_MAX_OUTPUT_RANK], clg_dtype *out_type);

/** Validate a descriptor and give the byte size of each input and of the output (an absent input:
 *  0). Any pointer may be NULL. */
CLG_API clg_status clg_gather_quantized_sizes(const clg_gather_quantized_desc *desc, uint64_t *data_bytes,
                                              uint64_t *indices_bytes, uint64_t *scales_bytes,
                                              uint64_t *zero_points_bytes, uint64_t *output_bytes);

/** Enqueue a dequantizing gather on the caller's queue, as clg_gather_enqueue does: everything is
 *  validated before anything is enqueued; under the error policy the call checks the indices on the
 *  device and waits for 4 bytes (or, on a context with CLG_CONTEXT_DEFER_ERRORS, gates the kernel
 *  and returns at once); verify mode waits and compares. Absent inputs (ggml's scales, zero points)
 *  take NULL. Byte offsets: data and zero_points any; indices, scales and output a multiple of their
 *  element size (CLG_ERR_MISALIGNED_OFFSET). */
CLG_API clg_status clg_gather_quantized_enqueue(clg_context *ctx, const clg_gather_quantized_desc *desc,
                                                cl_command_queue queue, cl_mem data, size_t data_offset, cl_mem indices,
                                                size_t indices_offset, cl_mem scales, size_t scales_offset,
                                                cl_mem zero_points, size_t zero_points_offset, cl_mem output,
                                                size_t output_offset, cl_uint num_events, const cl_event *wait_list,
                                                cl_event *out_event);

/** Synchronous dequantizing gather over host memory (the CPU reference on a CPU-reference context).
 *  An absent input takes NULL and 0 bytes; the output is written only on success. */
CLG_API clg_status clg_gather_quantized(clg_context *ctx, const clg_gather_quantized_desc *desc, const void *data,
                                        size_t data_bytes, const void *indices, size_t indices_bytes,
                                        const void *scales, size_t scales_bytes, const void *zero_points,
                                        size_t zero_points_bytes, void *output, size_t output_bytes);

/** The CPU reference of the dequantizing gather: plain C over host memory, no OpenCL involved. */
CLG_API clg_status clg_gather_quantized_reference(const clg_gather_quantized_desc *desc, const void *data,
                                                  size_t data_bytes, const void *indices, size_t indices_bytes,
                                                  const void *scales, size_t scales_bytes, const void *zero_points,
                                                  size_t zero_points_bytes, void *output, size_t output_bytes);

/* ------------------------------------------------------------------------------------------------ */
/* EmbeddingBag                                                                                     */
/* ------------------------------------------------------------------------------------------------ */

/** Which EmbeddingBag specification the call follows (docs/semantics.md, "EmbeddingBag"). */
typedef enum clg_embedding_bag_preset {
    CLG_EMBEDDING_BAG_PRESET_INVALID = 0, /**< not a preset */
    CLG_OV_EMBEDDING_BAG_OFFSETS_3 = 1,   /**< OpenVINO EmbeddingBagOffsetsSum-3: offsets, sum */
    CLG_OV_EMBEDDING_BAG_OFFSETS_15,      /**< OpenVINO EmbeddingBagOffsets-15: offsets, sum or mean */
    CLG_OV_EMBEDDING_BAG_PACKED_3,        /**< OpenVINO EmbeddingBagPackedSum-3: packed [B, K], sum */
    CLG_OV_EMBEDDING_BAG_PACKED_15,       /**< OpenVINO EmbeddingBagPacked-15: packed, sum or mean */
    CLG_OV_EMBEDDING_SEGMENTS_SUM_3,      /**< OpenVINO EmbeddingSegmentsSum-3: sorted segment ids, sum */
    CLG_TORCH_EMBEDDING_BAG,              /**< torch.nn.functional.embedding_bag: offsets or packed; sum, mean, max */
    CLG_EMBEDDING_BAG_PRESET_COUNT        /**< number of values, not a preset */
} clg_embedding_bag_preset;

/** Name of an EmbeddingBag preset ("ov-embedding-bag-offsets-3", "ov-embedding-bag-offsets-15",
 *  "ov-embedding-bag-packed-3", "ov-embedding-bag-packed-15", "ov-embedding-segments-sum-3",
 *  "torch-embedding-bag"), "invalid" if unknown. */
CLG_API const char *clg_embedding_bag_preset_name(clg_embedding_bag_preset preset);
/** Inverse of clg_embedding_bag_preset_name; CLG_EMBEDDING_BAG_PRESET_INVALID if unknown. */
CLG_API clg_embedding_bag_preset clg_embedding_bag_preset_from_name(const char *name);

/** How each bag's values are reduced. Sum is 0, so that a zero-initialised descriptor sums. */
typedef enum clg_bag_mode {
    CLG_BAG_SUM = 0,   /**< sum of w_i * x_i (w_i = 1 without per_sample_weights) */
    CLG_BAG_MEAN,      /**< the sum divided by the bag's count */
    CLG_BAG_MAX,       /**< the largest value, NaN if any is NaN (torch only) */
    CLG_BAG_MODE_COUNT /**< number of values, not a mode */
} clg_bag_mode;

/** How the indices are grouped into bags. */
typedef enum clg_bag_form {
    CLG_BAG_FORM_INVALID = 0, /**< not a form */
    CLG_BAG_OFFSETS = 1,      /**< indices [L] and offsets: bag b is indices[offsets[b] .. offsets[b+1]) */
    CLG_BAG_PACKED,           /**< indices [B, K]: bag b is row b */
    CLG_BAG_SEGMENTS,         /**< indices [L] and sorted segment_ids [L]: segment s holds the ids equal to s */
    CLG_BAG_FORM_COUNT        /**< number of values, not a form */
} clg_bag_form;

/** Name of a mode ("sum", "mean", "max"), "invalid" if unknown. */
CLG_API const char *clg_bag_mode_name(clg_bag_mode mode);
/** Inverse of clg_bag_mode_name; CLG_BAG_MODE_COUNT (not a mode) if unknown. */
CLG_API clg_bag_mode clg_bag_mode_from_name(const char *name);

/** An EmbeddingBag: gather rows of a table by indices, and reduce each bag of them to one output row.
 *  out[b, :] = reduce over the bag's indices i (in order) of table[indices[i], :], the table's trailing
 *  dimensions flattened into a row. Output [B, table.shape[1:]...] of the table's type. Zero-initialise
 *  it, then fill in. Accumulation: in f32 for f32, f16 and bf16 tables, in f64 for f64 tables, in bag
 *  order, each product w_i * x_i rounded before it is added; the result rounded once to the table's
 *  type. A bag with no index counted (empty, or only padding_idx) gives the default_index row where one
 *  is given, else zeros. Every index must lie in [0, N) (no negative wrap), every offset in
 *  [0, len(indices)] and not below the one before it, every segment id in [0, num_segments) and not below
 *  the one before it; the first bad value fails the call (CLG_ERR_INDEX_OUT_OF_RANGE,
 *  CLG_ERR_INVALID_OFFSETS, CLG_ERR_INVALID_SEGMENT_IDS), naming its position and value, output
 *  untouched. The bag structure (offsets, segment ids) is checked before the indices. */
typedef struct clg_embedding_bag_desc {
    clg_embedding_bag_preset preset; /**< which specification the call follows */
    clg_bag_form bag_form;           /**< offsets, packed or segments (each preset takes its own) */
    clg_bag_mode mode;               /**< sum (0), mean or max, as the preset allows */
    clg_tensor_desc table;           /**< f32, f16, bf16 or f64, rank 1..CLG_MAX_RANK: [N, ...] */
    clg_tensor_desc indices;         /**< any integer type: [L] (offsets, segments) or [B, K] (packed) */
    /** offsets form: [B] of any integer type ([B + 1] with include_last_offset); else absent (type 0) */
    clg_tensor_desc offsets;
    /** segments form: [L] of any integer type, sorted; else absent (type 0) */
    clg_tensor_desc segment_ids;
    /** optional (type 0: absent), sum only: the indices' shape and the table's type */
    clg_tensor_desc per_sample_weights;
    int64_t num_segments; /**< segments form: the number of output rows B, >= 0; else 0 */
    int32_t
        include_last_offset; /**< torch, offsets form: 1 if offsets holds B + 1 entries, the last ending the last bag */
    int32_t has_default_index; /**< OpenVINO presets: 1 if default_index is given */
    /** OpenVINO: the row that fills empty bags, in [0, N), or negative for zeros (OpenVINO's -1) */
    int64_t default_index;
    int32_t has_padding_idx; /**< torch: 1 if padding_idx is given */
    /** torch: entries equal to it contribute nothing and are not counted; in [-N, N), negative meaning N + it */
    int64_t padding_idx;
} clg_embedding_bag_desc;

/** Validate a descriptor and give the output shape ([B] followed by table.shape[1:]); out_shape must
 *  hold CLG_MAX_OUTPUT_RANK entries. The output type is the table's. */
CLG_API clg_status clg_embedding_bag_output_shape(const clg_embedding_bag_desc *desc, int32_t *out_rank,
                                                  int64_t out_shape[CLG_MAX_OUTPUT_RANK]);

/** Validate a descriptor and give the byte size of each input and of the output; bags_bytes is the
 *  size of the offsets or the segment ids (0 for the packed form), weights_bytes that of
 *  per_sample_weights (0 when absent). Any pointer may be NULL. */
CLG_API clg_status clg_embedding_bag_sizes(const clg_embedding_bag_desc *desc, uint64_t *table_bytes,
                                           uint64_t *indices_bytes, uint64_t *bags_bytes, uint64_t *weights_bytes,
                                           uint64_t *output_bytes);

/** Enqueue an EmbeddingBag on the caller's queue, as clg_gather_enqueue does under the error policy:
 *  everything is validated before anything is enqueued; a check kernel reads the offsets or segment ids
 *  and the indices, the reduction is enqueued behind it, gated by it (it writes nothing if the check
 *  failed), and the call then waits for the check's 4-byte verdict alone (on a context with
 *  CLG_CONTEXT_DEFER_ERRORS it does not wait, and clg_deferred_status gives the call's status); verify
 *  mode waits and compares. bags is the offsets
 *  or the segment ids buffer (NULL for the packed form), weights NULL when absent. Byte offsets: each a
 *  multiple of its tensor's element size (CLG_ERR_MISALIGNED_OFFSET). */
CLG_API clg_status clg_embedding_bag_enqueue(clg_context *ctx, const clg_embedding_bag_desc *desc,
                                             cl_command_queue queue, cl_mem table, size_t table_offset, cl_mem indices,
                                             size_t indices_offset, cl_mem bags, size_t bags_offset, cl_mem weights,
                                             size_t weights_offset, cl_mem output, size_t output_offset,
                                             cl_uint num_events, const cl_event *wait_list, cl_event *out_event);

/** Synchronous EmbeddingBag over host memory (the CPU reference on a CPU-reference context). An absent
 *  input takes NULL and 0 bytes; the output is written only on success. */
CLG_API clg_status clg_embedding_bag(clg_context *ctx, const clg_embedding_bag_desc *desc, const void *table,
                                     size_t table_bytes, const void *indices, size_t indices_bytes, const void *bags,
                                     size_t bags_bytes, const void *weights, size_t weights_bytes, void *output,
                                     size_t output_bytes);

/** The CPU reference for EmbeddingBag: plain C over host memory, no OpenCL involved. */
CLG_API clg_status clg_embedding_bag_reference(const clg_embedding_bag_desc *desc, const void *table,
                                               size_t table_bytes, const void *indices, size_t indices_bytes,
                                               const void *bags, size_t bags_bytes, const void *weights,
                                               size_t weights_bytes, void *output, size_t output_bytes);

/* ------------------------------------------------------------------------------------------------ */
/* Table-batched EmbeddingBag (FBGEMM's TBE)                                                        */
/* ------------------------------------------------------------------------------------------------ */

/** One table of a table-batched EmbeddingBag: N_t rows of D_t values, stored row-major at byte_offset
 *  in the call's one tables buffer (OpenCL kernels cannot index an array of buffers). A table is plain
 *  (quant_layout 0: rows of `type` values) or quantized (quant_layout a clg_quant_layout whose rows hold
 *  their own scales: ggml's q4_0 ... iq4_xs, rows of whole 32- or 256-value blocks, D_t a multiple of the
 *  block; fbgemm-8bit-rowwise, rows of D_t + 8 bytes; fbgemm-4bit-rowwise, rows of D_t / 2 + 4 bytes, D_t
 *  even), each value the f32 clg_gather_quantized gives it. ONNX Runtime's and OpenVINO's layouts keep their
 *  scales in a tensor of their own, which this call has no place for: CLG_ERR_INVALID_LAYOUT (use
 *  clg_embedding_bag_quantized, a call a table). */
typedef struct clg_embedding_bag_table {
    /** plain tables: f32, f16, bf16 or f64 (see clg_embedding_bag_tables_desc for which may mix); quantized
     *  tables: 0 (the layout gives the type) */
    clg_dtype type;
    /** 0: plain rows of `type` values; else a clg_quant_layout with self-contained rows (see above) */
    int32_t quant_layout;
    int64_t rows;  /**< N_t >= 0 */
    int64_t width; /**< D_t >= 0: values a row (a quantized row's logical values) */
    /** where row 0 starts in the tables buffer; plain tables: a multiple of the type's size; quantized: any */
    uint64_t byte_offset;
} clg_embedding_bag_table;

/** A table-batched EmbeddingBag (FBGEMM's SplitTableBatchedEmbeddingBagsCodegen forward, and with
 *  quantized tables its IntNBitTableBatchedEmbeddingBagsCodegen): T tables in one call, one indices array,
 *  and offsets laid out table-major, bag (t, b) being offsets entry k = t * B + b: indices
 *  [offsets[k], offsets[k+1]) (the last bag runs to len(indices), or to offsets[T*B] with include_last_offset,
 *  which FBGEMM always uses). Output [B, sum of D_t], table t's bags in columns [sum of D_<t, sum of D_<=t).
 *  Each bag is reduced exactly as clg_embedding_bag_desc's torch-embedding-bag offsets form reduces it (bag
 *  order, f32 accumulation, f64 for f64 tables, one rounding; mean one division; max NaN-propagating), an
 *  empty bag giving zeros in every mode. Types:
 *   - every table plain of one type, output_type 0 or that type: the output has the tables' type, and so do
 *     per_sample_weights (as before output_type existed);
 *   - otherwise (a quantized table, plain tables of different types, or another output_type): each table its
 *     own type or layout, every value widened or dequantized to f32 exactly as clg_embedding_bag_quantized
 *     does, reduced in f32 and rounded once to output_type (f32, f16 or bf16; 0 means f32);
 *     per_sample_weights f32; no f64 table. The quantized tables of one call share one block family (ggml's
 *     32-value blocks, ggml's super-blocks, FBGEMM's rows: each is a program of its own), plain tables mix
 *     with any; two families are CLG_ERR_INVALID_LAYOUT naming a table of each.
 *  offsets[0] must be 0 and, with include_last_offset, offsets[T*B] must be len(indices) (as FBGEMM's bounds
 *  check requires), offsets must not decrease; each index must lie in [0, N_t) of the table whose bag holds
 *  it. The offsets are checked before the indices, each in position order, and the first bad value fails
 *  the call naming its position, table and bag (CLG_ERR_INVALID_OFFSETS, CLG_ERR_INDEX_OUT_OF_RANGE), output
 *  untouched. Zero-initialise it, then fill in. */
typedef struct clg_embedding_bag_tables_desc {
    clg_bag_mode mode;                     /**< sum (0), mean or max */
    int32_t num_tables;                    /**< T >= 1 */
    const clg_embedding_bag_table *tables; /**< T entries, read during the call only */
    clg_tensor_desc indices;               /**< [L] of any integer type */
    clg_tensor_desc offsets;               /**< [T*B] of any integer type ([T*B + 1] with include_last_offset) */
    /** optional (type 0: absent), sum only: [L] of the tables' type (f32 where the call converts, above) */
    clg_tensor_desc per_sample_weights;
    int32_t include_last_offset; /**< 1 if offsets holds T*B + 1 entries, the last ending the last bag */
    /** 0: the tables' type where every table is plain of one type, else f32; or f32, f16, bf16 (or the
     *  plain tables' one type) */
    clg_dtype output_type;
} clg_embedding_bag_tables_desc;

/** Validate a table-batched descriptor and give the output shape [B, sum of D_t]; out_shape must hold
 *  CLG_MAX_OUTPUT_RANK entries. The output type is clg_embedding_bag_tables_desc.output_type's rule. */
CLG_API clg_status clg_embedding_bag_tables_output_shape(const clg_embedding_bag_tables_desc *desc, int32_t *out_rank,
                                                         int64_t out_shape[CLG_MAX_OUTPUT_RANK]);

/** Validate a table-batched descriptor and give the output's type (clg_embedding_bag_tables_desc.output_type's
 *  rule: the plain tables' one type, else output_type, 0 meaning f32). */
CLG_API clg_status clg_embedding_bag_tables_output_type(const clg_embedding_bag_tables_desc *desc, clg_dtype *out_type);

/** Validate a table-batched descriptor and give the byte size of each input and of the output: tables_bytes
 *  is the largest byte_offset + N_t * (bytes of a row) (the tables buffer must hold that many bytes), weights_bytes
 *  0 when per_sample_weights are absent. Any pointer may be NULL. */
CLG_API clg_status clg_embedding_bag_tables_sizes(const clg_embedding_bag_tables_desc *desc, uint64_t *tables_bytes,
                                                  uint64_t *indices_bytes, uint64_t *offsets_bytes,
                                                  uint64_t *weights_bytes, uint64_t *output_bytes);

/** Enqueue a table-batched EmbeddingBag, one reduction kernel over every table, as clg_embedding_bag_enqueue
 *  does (check kernel and its verdict, or under CLG_CONTEXT_DEFER_ERRORS a gated kernel; verify mode waits
 *  and compares). weights NULL when absent. Byte offsets: each a multiple of its tensor's element size
 *  (CLG_ERR_MISALIGNED_OFFSET; tables_offset a multiple of the largest plain table type's size, any where
 *  every table is quantized); tables_offset is added to every table's byte_offset. */
CLG_API clg_status clg_embedding_bag_tables_enqueue(clg_context *ctx, const clg_embedding_bag_tables_desc *desc,
                                                    cl_command_queue queue, cl_mem tables, size_t tables_offset,
                                                    cl_mem indices, size_t indices_offset, cl_mem offsets,
                                                    size_t offsets_offset, cl_mem weights, size_t weights_offset,
                                                    cl_mem output, size_t output_offset, cl_uint num_events,
                                                    const cl_event *wait_list, cl_event *out_event);

/** Synchronous table-batched EmbeddingBag over host memory (the CPU reference on a CPU-reference context).
 *  Absent weights take NULL and 0 bytes; the output is written only on success. */
CLG_API clg_status clg_embedding_bag_tables(clg_context *ctx, const clg_embedding_bag_tables_desc *desc,
                                            const void *tables, size_t tables_bytes, const void *indices,
                                            size_t indices_bytes, const void *offsets, size_t offsets_bytes,
                                            const void *weights, size_t weights_bytes, void *output,
                                            size_t output_bytes);

/** The CPU reference for the table-batched EmbeddingBag: plain C over host memory, no OpenCL involved. */
CLG_API clg_status clg_embedding_bag_tables_reference(const clg_embedding_bag_tables_desc *desc, const void *tables,
                                                      size_t tables_bytes, const void *indices, size_t indices_bytes,
                                                      const void *offsets, size_t offsets_bytes, const void *weights,
                                                      size_t weights_bytes, void *output, size_t output_bytes);

/* ------------------------------------------------------------------------------------------------ */
/* EmbeddingBag over a quantized table                                                              */
/* ------------------------------------------------------------------------------------------------ */

/** An EmbeddingBag over a quantized table (docs/semantics.md, "EmbeddingBag", quantized tables): each
 *  value of a gathered row dequantized to f32 exactly as clg_gather_quantized computes it (gather axis
 *  0, f32 output), then reduced as clg_embedding_bag_desc describes, in f32, and rounded once to
 *  output_type. The table's rows are its first axis: N = its logical shape[0], a row its other values
 *  (ggml rows unpacked to 32 or 256 values a block). Zero-initialise it, then fill in. The bag part
 *  keeps every rule of clg_embedding_bag_desc (presets, forms, modes, checks, default_index, padding_idx,
 *  include_last_offset), except that bag.table is left absent (type 0; the table is described by the
 *  fields below) and per_sample_weights, where given, are f32. The default_index row of an empty bag is
 *  dequantized like any other. The table part is clg_gather_quantized_desc's, for the same layouts
 *  (ONNX Runtime's blocks need quantize axis the last axis, which is implied). */
typedef struct clg_embedding_bag_quantized_desc {
    /** preset, form, mode, indices, offsets or segment ids, weights (f32), num_segments, include_last_offset,
     *  default_index, padding_idx; table absent (type 0) */
    clg_embedding_bag_desc bag;
    clg_quant_layout layout;           /**< how data, scales and zero points are laid out */
    clg_quant_tensor_desc data;        /**< the quantized table [N, ...] as clg_gather_quantized_desc's data */
    clg_tensor_desc scales;            /**< as clg_gather_quantized_desc's; empty for ggml */
    clg_quant_tensor_desc zero_points; /**< optional (type 0: absent), as clg_gather_quantized_desc's */
    int32_t bits;                      /**< as clg_gather_quantized_desc's bits */
    int64_t block_size;                /**< as clg_gather_quantized_desc's block_size */
    /** f32, f16 or bf16; 0 (CLG_DTYPE_INVALID) means f32 */
    clg_dtype output_type;
} clg_embedding_bag_quantized_desc;

/** Validate a descriptor and give the output shape ([B] followed by the table's logical shape[1:]);
 *  out_shape must hold CLG_MAX_OUTPUT_RANK entries; out_type (may be NULL) the output's type. */
CLG_API clg_status clg_embedding_bag_quantized_output_shape(const clg_embedding_bag_quantized_desc *desc,
                                                            int32_t *out_rank, int64_t out_shape[CLG_MAX_OUTPUT_RANK],
                                                            clg_dtype *out_type);

/** Validate a descriptor and give the byte size of each input and of the output (an absent input: 0).
 *  bags_bytes is the size of the offsets or the segment ids. Any pointer may be NULL. */
CLG_API clg_status clg_embedding_bag_quantized_sizes(const clg_embedding_bag_quantized_desc *desc, uint64_t *data_bytes,
                                                     uint64_t *scales_bytes, uint64_t *zero_points_bytes,
                                                     uint64_t *indices_bytes, uint64_t *bags_bytes,
                                                     uint64_t *weights_bytes, uint64_t *output_bytes);

/** Enqueue an EmbeddingBag over a quantized table, as clg_embedding_bag_enqueue does (the bag structure
 *  and the indices checked on the device before the reduction; CLG_CONTEXT_DEFER_ERRORS gates it
 *  instead; verify mode waits and compares). Absent inputs take NULL. Byte offsets: data and
 *  zero_points any; scales, indices, bags, weights and output a multiple of their element size
 *  (CLG_ERR_MISALIGNED_OFFSET). */
CLG_API clg_status clg_embedding_bag_quantized_enqueue(
    clg_context *ctx, const clg_embedding_bag_quantized_desc *desc, cl_command_queue queue, cl_mem data,
    size_t data_offset, cl_mem scales, size_t scales_offset, cl_mem zero_points, size_t zero_points_offset,
    cl_mem indices, size_t indices_offset, cl_mem bags, size_t bags_offset, cl_mem weights, size_t weights_offset,
    cl_mem output, size_t output_offset, cl_uint num_events, const cl_event *wait_list, cl_event *out_event);

/** Synchronous EmbeddingBag over a quantized table in host memory (the CPU reference on a CPU-reference
 *  context). An absent input takes NULL and 0 bytes; the output is written only on success. */
CLG_API clg_status clg_embedding_bag_quantized(clg_context *ctx, const clg_embedding_bag_quantized_desc *desc,
                                               const void *data, size_t data_bytes, const void *scales,
                                               size_t scales_bytes, const void *zero_points, size_t zero_points_bytes,
                                               const void *indices, size_t indices_bytes, const void *bags,
                                               size_t bags_bytes, const void *weights, size_t weights_bytes,
                                               void *output, size_t output_bytes);

/** The CPU reference for EmbeddingBag over a quantized table: plain C over host memory, no OpenCL. */
CLG_API clg_status clg_embedding_bag_quantized_reference(const clg_embedding_bag_quantized_desc *desc, const void *data,
                                                         size_t data_bytes, const void *scales, size_t scales_bytes,
                                                         const void *zero_points, size_t zero_points_bytes,
                                                         const void *indices, size_t indices_bytes, const void *bags,
                                                         size_t bags_bytes, const void *weights, size_t weights_bytes,
                                                         void *output, size_t output_bytes);

#ifdef __cplusplus
}
#endif
#endif /* CLGATHER_H */
