/* The tuning table: one row per implementation and device type (and, where measured apart, the
 * device's vendor), each the defaults and the entries
 * that differ from them, written as a profile is. Every row holds the values of
 * both mappings, since tests and the tuner may run either mapping on any device. The first row that
 * matches a device is its tuning; a stored profile (core/tuning_profile.c) may then override it.
 *
 * "measured": the values were timed on that implementation (bench/RESULTS.md has the runs).
 * "untested": taken from the vendor's optimisation guide; no run of ours backs them. */
#include "core/tuning.h"

#include "core/status.h"

#include <string.h>

/* Every row starts from these. CPU runtimes run a work-group's items on one thread: a work-item walks a
 * contiguous run of a few KiB, and groups of 64 items are enough to share out over the cores. GPUs
 * (the adjacent mapping): adjacent work-items move adjacent 16-byte units, the widest load that still
 * coalesces, 256 to a group, with enough groups a compute unit to hide memory latency. */
static const clg_tuning defaults = {
    .mapping = CLG_MAPPING_RUNS,
    .grid_groups_per_cu = 64,
    .runs_groups_per_cu = 4,
    .runs_local_size = 64,
    .adjacent_local_size = 256,
    .runs_move_bytes = 64, /* two AVX2 or one AVX-512 move */
    .adjacent_move_bytes = 16,
    .run_bytes = 4096,
    .stream_min_bytes = 8u << 20, /* below it the output stays in cache for its consumer */
    .stream_min_row_bytes = 128,
    .stream_min_unit_bytes = 64,
    .stage_groups_per_cu = 8,
    .stage_sector_bytes = 32, /* an L2 sector */
    .block_row_min_bytes = 64,
    .block_bytes_per_output = 16,
    .blocks_per_cu = 4,
    .dequant_run_bytes = 8192,
    .dequant_prefetch_bytes = 4096, /* one small slab ahead leaves part of a random row's latency exposed */
    .dequant_prefetch_slabs_max = 8,
    .dequant_piece_values = 8, /* one 8-value step: adjacent items read and write adjacent vectors */
    .dequant_super_piece_values = 8,
    .nibble_lookups = CLG_LOOKUPS_TARGET,
    .tree_local_size = 64,
    .check_per_item = 256,
    .check_local_size = 64,
    .copy_local_size = 256,
    .cache_line_bytes = 64,
    .prefetch_locality = 3, /* into every level, as the builtin's default */
    .bag_prefetch_locality = 3,
    .rows_prefetch_ahead_bytes = 4096,
    .rows_prefetch_max_rows = 64,
    .rows_prefetch_head_from_bytes = 2048, /* longer rows: the hardware prefetcher streams all but the head */
    .rows_prefetch_head_bytes = 256,
    .group_prefetch_bytes = 65536, /* a group's data that fits in L2 is prefetched in order */
    .group_prefetch_spread = 64,
    .unit_rows_prefetch_ahead = 64,
    .elements_prefetch_index_rows = 8,
    .elements_prefetch_data_rows = 16,
    .dequant_slab_prefetch_bytes = 4096,
    /* a row 16 indices on for each row reduced, and no bag asked for whole: the cores keep a steady
     * stream of misses in flight, where a bag's rows at once arrive in bursts (bench/RESULTS.md) */
    .bag_prefetch_ahead = 0,
    .bag_prefetch_rows = 16,
    .bag_sum_columns = 128, /* sixteen AVX2 vectors: a row of 128 values read in one pass */
    .bag_quantized_piece_values = 64,
    .bag_quantized_lanes = 8, /* an AVX2 vector */
    .bag_quantized_prefetch_rows = 16,
    .bag_quantized_prefetch_ahead = 2,
    .bag_quantized_prefetch_current = 0,
    .host_memory_in_place = 0, /* a copy in the device's own memory */
};

/* Streaming stores need the x86 sfence builtin: only a compiler targeting x86 has it. */
#if defined(__x86_64__) || defined(__i386__)
#define STREAM_ON_X86 "stream = 1\n"
#else
#define STREAM_ON_X86 ""
#endif

/* CPU runtimes whose kernels use a CL_MEM_USE_HOST_PTR buffer in the caller's memory: a host-memory
 * call then reads its inputs and writes its output where they lie instead of copying them (a whole
 * table, for a few of its rows) through fresh pages each call (bench/RESULTS.md). Not Oclgrind (its
 * checker reports such buffers' values as uninitialized: tests/drivers/oclgrind_use_host_ptr_uninit),
 * nor rusticl (unmeasured). */
#define HOST_IN_PLACE "host_memory_in_place = 1\n"

/* GPUs map adjacent work-items to adjacent memory; the quantized EmbeddingBag gives a work-item one
 * 8-value step of a unit, as the dequantizing gather does (dequant_piece_values), not a CPU's long piece
 * (untested on a GPU) */
#define GPU                \
    "mapping = adjacent\n" \
    "bag_quantized_piece_values = 8\n"

#define ANY_DRIVER (-1)

typedef struct tuning_row {
    const char *name;
    int driver; /* a clg_driver, or ANY_DRIVER */
    cl_device_type types;
    const char *vendor;   /* CL_DEVICE_VENDOR exactly, or NULL: any */
    unsigned float_lanes; /* CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT at least this (0: any) */
    int measured;
    const char *entries; /* what differs from the defaults, as profile lines */
} tuning_row;

/* the clang-based CPU runtimes compile the prefetch builtin and always_inline */
#define POCL_CPU     \
    "prefetch = 1\n" \
    "force_inline = 1\n" HOST_IN_PLACE STREAM_ON_X86

/* the bags' prefetches on AMD's cores, float and quantized: measured on Zen 4 (below), the quantized
 * distance kept by the tuner on Zen 3 (bench/RESULTS.md, 2026-11-30) */
#define AMD_BAG_PREFETCHES               \
    "bag_prefetch_locality = 2\n"        \
    "bag_prefetch_ahead = 8\n"           \
    "bag_quantized_prefetch_rows = 32\n" \
    "bag_quantized_prefetch_ahead = 0\n"

static const tuning_row rows[] = {
    /* AMD's cores: EmbeddingBag's prefetches into L2 only (prefetcht1), which leaves the L1's few miss
     * buffers to the loads: on a Zen 4 core the four bag cases took 0.58-0.77 of their time with
     * prefetcht0. Not the other kernels: the dequantizing gathers, GatherElements and GatherND's points
     * lost 3-35%. With prefetches into L2, a float bag's rows asked for whole 8 bags ahead took 0.74 of
     * the time of none (the rows 16 indices on alone) on the float bag cases (bench/RESULTS.md,
     * 2026-11-29). Intel's cores are unmeasured.
     * Where PoCL compiles for AVX-512 (16 f32 lanes: Zen 4), FBGEMM's 8-bit rows summed in 16-lane
     * vectors, pieces of 128 values: 0.81-0.94 of the 8-lane 64-value pieces' time on embedding-bag-8bit,
     * 0.95-1.00 on embedding-bag-tbe-8bit (rows of 64, the half-piece loop). With those faster loops, the
     * quantized rows prefetched 32 indices on and no whole bags ahead took 0.77-0.86 of the time of 16
     * and 2 bags on, on both 8-bit cases. */
    {"pocl-cpu-amd-avx512", CLG_DRIVER_POCL, CL_DEVICE_TYPE_CPU, "AuthenticAMD", 16, 1,
     POCL_CPU AMD_BAG_PREFETCHES "bag_quantized_lanes = 16\n"
                                 "bag_quantized_piece_values = 128\n"},
    /* AVX2 (8 f32 lanes: Zen 3): a piece of 128 values is 16 accumulator registers, all AVX2 has, and
     * the loop kept a third of them on the stack; pieces of 64 in 8-lane vectors took 0.77-0.83 of that
     * time on embedding-bag-8bit and 1.00-1.09 on the other three quantized bag cases (2026-11-30) */
    {"pocl-cpu-amd", CLG_DRIVER_POCL, CL_DEVICE_TYPE_CPU, "AuthenticAMD", 0, 1, POCL_CPU AMD_BAG_PREFETCHES},
    {"pocl-cpu", CLG_DRIVER_POCL, CL_DEVICE_TYPE_CPU, NULL, 0, 1, POCL_CPU},
    /* Intel's CPU compiler vectorizes across work-items, which turns the run loops into gathers */
    {"intel-cpu", CLG_DRIVER_INTEL_CPU, CL_DEVICE_TYPE_CPU, NULL, 0, 1,
     "prefetch = 1\n"
     "force_inline = 1\n"
     "item_loops = 1\n" HOST_IN_PLACE},
    /* rusticl's SPIR-V path aborts on the prefetch builtin and Oclgrind cannot run it: no hints. rusticl
     * inlines and unrolls everything (NIR): the quantized EmbeddingBag's 64-value pieces doubled its
     * builds (cli_embedding_bag 36 -> 66 s), 8 values keep them as they were (29 s); f32 sums of 128
     * columns a pass more than doubled them too (test_embedding_bag_examples 33 -> 166 s) */
    {"rusticl-cpu", CLG_DRIVER_RUSTICL, CL_DEVICE_TYPE_CPU, NULL, 0, 1,
     "bag_quantized_piece_values = 8\n"
     "bag_sum_columns = 32\n"},
    {"oclgrind-gpu", CLG_DRIVER_OCLGRIND, CL_DEVICE_TYPE_GPU, NULL, 0, 1, GPU}, /* Oclgrind reports the GPU type */
    {"oclgrind", CLG_DRIVER_OCLGRIND, CL_DEVICE_TYPE_ALL, NULL, 0, 1, ""},
    /* each super-block item decodes its sub-block's scales again: 16 values an item halve that work (an
     * H200: q4_K 0.46 -> 0.60 of copy, q6_K 0.44 -> 0.58, iq4_xs 0.37 -> 0.47), where the 32-value
     * layouts lose (ONNX Runtime's 4-bit 0.67 -> 0.38): bench/RESULTS.md */
    {"nvidia-gpu", CLG_DRIVER_NVIDIA, CL_DEVICE_TYPE_GPU, NULL, 0, 1, GPU "dequant_super_piece_values = 16\n"},
    /* AMD's guide: wavefronts of 64 (RDNA: 32 or 64), groups of 256, at least 4 waves a compute unit
     * in flight; 64-byte cache lines */
    {"amd-gpu", CLG_DRIVER_AMD, CL_DEVICE_TYPE_GPU, NULL, 0, 0,
     GPU "stage_sector_bytes = 64\n"
         "grid_groups_per_cu = 32\n"},
    /* Intel's GPU guide: a compute unit is one EU (hundreds of them), SIMD8 to SIMD32, groups of 256,
     * 64-byte cache lines */
    {"intel-gpu", CLG_DRIVER_INTEL_GPU, CL_DEVICE_TYPE_GPU, NULL, 0, 0,
     GPU "stage_sector_bytes = 64\n"
         "grid_groups_per_cu = 8\n"},
    {"other-gpu", ANY_DRIVER, CL_DEVICE_TYPE_GPU, NULL, 0, 0, GPU},
    {"other", ANY_DRIVER, CL_DEVICE_TYPE_ALL, NULL, 0, 0, ""},
};

static int row_matches(const tuning_row *row, const clg_device_info *info, clg_driver driver, unsigned float_lanes)
{
    return (row->driver == ANY_DRIVER || row->driver == (int)driver) && (row->types & info->type) != 0 &&
           (!row->vendor || strcmp(row->vendor, info->vendor) == 0) && float_lanes >= row->float_lanes;
}

static const tuning_row *row_for(const clg_device_info *info, clg_driver driver, unsigned float_lanes)
{
    const size_t count = sizeof rows / sizeof rows[0];
    size_t i = 0;
    while (i + 1 < count && !row_matches(&rows[i], info, driver, float_lanes)) ++i;
    return &rows[i];
}

static clg_status row_tuning(const tuning_row *row, clg_tuning *tuning)
{
    *tuning = defaults;
    return clg_tuning_parse(row->entries, tuning);
}

void clg_tuning_from_table(const clg_device_info *info, clg_driver driver, unsigned float_lanes, clg_tuning *tuning,
                           const char **row, int *measured)
{
    const tuning_row *r = row_for(info, driver, float_lanes);
    /* every row parses (test_tuning checks them all): the defaults alone are only a safeguard */
    if (row_tuning(r, tuning) != CLG_SUCCESS) *tuning = defaults;
    *row = r->name;
    *measured = r->measured;
}

size_t clg_tuning_table_size(void) { return sizeof rows / sizeof rows[0]; }

clg_status clg_tuning_table_row(size_t i, clg_tuning *tuning, const char **name)
{
    if (i >= sizeof rows / sizeof rows[0]) return clg_fail(CLG_ERR_INTERNAL, "tuning table row %zu does not exist", i);
    *name = rows[i].name;
    return row_tuning(&rows[i], tuning);
}
