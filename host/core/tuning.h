/* Every number that makes a kernel fast on one device and not another, in one struct, filled from one
 * table (core/tuning_table.c) keyed by implementation and device type, then from the device's stored
 * profile (core/tuning_profile.c) if the tuner wrote one. Launchers read their choices from here
 * only. A tuning changes speed, never results: every value in range gives the same output. */
#ifndef CLG_TUNING_H
#define CLG_TUNING_H

#include "clgather.h"
#include "core/device_profile.h"

#include <stddef.h>
#include <stdint.h>

/* How kernels map work-items to memory. */
typedef enum clg_mapping {
    CLG_MAPPING_RUNS = 0,     /* each work-item a contiguous run (CPUs: one thread walks a group's items) */
    CLG_MAPPING_ADJACENT = 1, /* adjacent work-items to adjacent memory (GPUs: loads coalesce) */
} clg_mapping;

/* The dequantizing gather's x86 nibble lookups, where the device compiler targets x86. */
typedef enum clg_nibble_lookups {
    CLG_LOOKUPS_TARGET = 0, /* the widest the compiler's target allows */
    CLG_LOOKUPS_SSSE3 = 1,  /* at most SSSE3's byte tables */
    CLG_LOOKUPS_AVX2 = 2,   /* at most AVX2's byte tables */
    CLG_LOOKUPS_NONE = 3,   /* the arithmetic form only */
} clg_nibble_lookups;

typedef struct clg_tuning {
    uint32_t mapping; /* clg_mapping */
    /* kernels_cl/hints.h: what the device compiler may be asked for */
    uint32_t prefetch;     /* HINT_PREFETCH: 0 none, 1 clang's builtin, 2 OpenCL's prefetch() */
    uint32_t stream;       /* HINT_STREAM: streaming stores and the x86 sfence builtin */
    uint32_t item_loops;   /* HINT_ITEM_LOOPS */
    uint32_t force_inline; /* HINT_FORCE_INLINE */
    /* every mapping */
    uint32_t grid_groups_per_cu;  /* grid-stride kernels: work-groups per compute unit */
    uint32_t runs_groups_per_cu;  /* runs mapping: work-groups per compute unit a run length keeps */
    uint32_t runs_local_size;     /* runs mapping: work-group size */
    uint32_t adjacent_local_size; /* adjacent mapping: work-group size */
    uint32_t runs_move_bytes;     /* runs mapping: widest move of a row gather's work-item */
    uint32_t adjacent_move_bytes; /* adjacent mapping: widest move that still coalesces */
    /* Gather and GatherND rows, and GatherElements runs */
    uint32_t run_bytes;             /* runs mapping: bytes a work-item moves */
    uint32_t stream_min_bytes;      /* streaming stores only for outputs this large (else they stay cached) */
    uint32_t stream_min_row_bytes;  /* ... and rows of several moves this long */
    uint32_t stream_min_unit_bytes; /* ... or rows of one move this long (a whole line a store) */
    /* local-memory staging of gathered slabs (adjacent mapping, where local memory is on chip) */
    uint32_t stage_groups_per_cu; /* (group, chunk) work-groups per compute unit */
    uint32_t stage_sector_bytes;  /* the least a read from global memory costs */
    /* GatherElements column blocks (runs mapping) */
    uint32_t block_row_min_bytes;    /* a block's row is at least this long */
    uint32_t block_bytes_per_output; /* staged bytes an output may cost */
    uint32_t blocks_per_cu;          /* blocks per compute unit */
    /* the dequantizing gather */
    uint32_t dequant_run_bytes;          /* runs mapping: output bytes a work-item writes */
    uint32_t dequant_prefetch_bytes;     /* runs mapping: how far ahead the gathered slabs are prefetched */
    uint32_t dequant_prefetch_slabs_max; /* ... at most this many slabs */
    uint32_t dequant_piece_values;       /* adjacent mapping: values a work-item dequantizes */
    uint32_t dequant_super_piece_values; /* the same for ggml's 256-value super-blocks (q2_K .. iq4_xs) */
    uint32_t nibble_lookups;             /* clg_nibble_lookups */
    /* GatherTree */
    uint32_t tree_local_size; /* work-group size (the kernel's local array is sized by it) */
    /* index checks and gated copies */
    uint32_t check_per_item;   /* runs mapping: indices a check work-item scans */
    uint32_t check_local_size; /* work-group size of the checks */
    uint32_t copy_local_size;  /* work-group size of the gated copy */
    /* the kernels' own constants, passed to every build as the macros named in the registry */
    uint32_t cache_line_bytes;               /* CACHE_LINE: the step of prefetch loops */
    uint32_t prefetch_locality;              /* PREFETCH_LOCALITY: the prefetch builtin's locality, 3 (every
                                              * cache level; x86 prefetcht0) down to 0 (non-temporal) */
    uint32_t bag_prefetch_locality;          /* BAG_PREFETCH_LOCALITY: the same in the EmbeddingBag programs */
    uint32_t rows_prefetch_ahead_bytes;      /* row runs: short rows are prefetched whole this far ahead */
    uint32_t rows_prefetch_max_rows;         /* ... at most this many rows ahead */
    uint32_t rows_prefetch_head_from_bytes;  /* rows this long have only their head prefetched, a row ahead */
    uint32_t rows_prefetch_head_bytes;       /* ... this much of it */
    uint32_t group_prefetch_bytes;           /* one-unit rows: a group's data this small is prefetched in order */
    uint32_t group_prefetch_spread;          /* ... spread over chunks of this many rows */
    uint32_t unit_rows_prefetch_ahead;       /* one-unit rows of larger groups: rows prefetched ahead */
    uint32_t elements_prefetch_index_rows;   /* GatherElements runs: index rows prefetched ahead */
    uint32_t elements_prefetch_data_rows;    /* GatherElements runs: data rows prefetched ahead */
    uint32_t dequant_slab_prefetch_bytes;    /* dequantizing: most bytes prefetched of a slab's values or scales */
    uint32_t bag_prefetch_ahead;             /* EmbeddingBag runs: a work-item prefetches the rows of the bag
                                              * this many bags on (0: none) */
    uint32_t bag_prefetch_rows;              /* ... and, reducing index i, the row of index i + this (0: none) */
    uint32_t bag_sum_columns;                /* ... an f32 sum's widest pass: columns accumulated at once */
    uint32_t bag_quantized_piece_values;     /* EmbeddingBag over a quantized table: values of a unit a
                                              * work-item reduces at once, in registers */
    uint32_t bag_quantized_lanes;            /* ... lanes of the vectors FBGEMM's rows are summed in (8, 16) */
    uint32_t bag_quantized_prefetch_rows;    /* ... runs: reducing index i, the row of index i + this (0: none) */
    uint32_t bag_quantized_prefetch_ahead;   /* ... and the rows of its bag this many of its bags on (0: none) */
    uint32_t bag_quantized_prefetch_current; /* ... and (1) the rows of each bag (up to
                                              * rows_prefetch_max_rows) as its reduction starts */
    /* the synchronous calls over host memory */
    uint32_t host_memory_in_place; /* 1: inputs read, the output written, where they lie (USE_HOST_PTR) */
} clg_tuning;

/* One tunable: its name in profiles, where it lives, its range and, for choices, its values' names. */
typedef struct clg_tunable {
    const char *name;
    size_t offset;
    uint32_t min, max;
    uint32_t multiple_of;       /* values must be multiples of this (1: any) */
    int power_of_two;           /* values must be powers of two */
    const char *const *choices; /* NULL, or names of the values 0, 1, ... (then max + 1 of them) */
    const char *macro;          /* NULL, or the kernel macro every build gets the value as */
    const char *what;
} clg_tunable;

/* The tunables, in profile order. */
const clg_tunable *clg_tunables(size_t *count);

/* A tunable's value in a tuning. */
uint32_t clg_tuning_value(const clg_tuning *t, const clg_tunable *tunable);

/* The table's tuning for a device (its driver, type, vendor and float_lanes: its
 * CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT), and the table row's name and whether it was measured on that
 * implementation or taken from its vendor's guide. */
void clg_tuning_from_table(const clg_device_info *info, clg_driver driver, unsigned float_lanes, clg_tuning *tuning,
                           const char **row, int *measured);

/* The table's rows, for tests: row i's tuning (the status of parsing its entries) and name. */
size_t clg_tuning_table_size(void);
clg_status clg_tuning_table_row(size_t i, clg_tuning *tuning, const char **name);

/* Apply `name = value` lines ('#' starts a comment) to *tuning: all or nothing. On a bad line returns
 * CLG_ERR_INVALID_TUNING with the line, the name and the value in the message. */
clg_status clg_tuning_parse(const char *text, clg_tuning *tuning);

/* The build options that give kernels the tuning's constants (" -DCACHE_LINE=64 ..."); returns the
 * length it needs (snprintf's rule). */
size_t clg_tuning_build_options(const clg_tuning *tuning, char *buf, size_t size);

/* A tuning as `name = value` lines; returns the length it needs (snprintf's rule). */
size_t clg_tuning_format(const clg_tuning *tuning, char *buf, size_t size);

#endif
