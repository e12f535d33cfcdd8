/* The row-copy kernels that Gather and GatherND share (kernels_cl/row_copy_cpu.h, row_copy_gpu.h): a
 * call flattened to [B, O, A, N, I], where output row (bb, o, n) of I elements is data row
 * (bb*O + o)*A + source(bb, n), the source being one index (Gather) or an index tuple (GatherND). This
 * chooses the specialization (mapping, move width, 32- or 64-bit offsets, streaming stores) from the
 * shape, the device and the buffers, and enqueues it. */
#ifndef CLG_ROW_GATHER_H
#define CLG_ROW_GATHER_H

#include "core/gather_io.h"
#include "core/operation.h"

typedef struct clg_row_gather {
    uint64_t B, O, A, N, I; /* I: elements per row */
    size_t elem_size;
    clg_dtype index_type;
    clg_oob_policy policy; /* ZERO or CLAMP: the error policy has been applied, or gates the launch */
    uint64_t data_bytes, index_elems, out_bytes;
    int32_t tuple_len;                   /* 0: one index per row; m >= 1: tuples of m components */
    int64_t tuple_dims[CLG_MAX_RANK];    /* the data extent each component indexes (A is their product) */
    const clg_kernel_source *cpu_source; /* the row-runs and row-units programs of the row source */
    const clg_kernel_source *gpu_source;
} clg_row_gather;

/* The row copy of a planned operation (io: core/gather_io.h) of shape [B, O, A, N, I], one index per
 * row (tuple_len 0), with the row-runs and row-units programs of its row source. */
clg_row_gather clg_row_gather_of(const clg_gather_io *io, uint64_t B, uint64_t O, uint64_t A, uint64_t N, uint64_t I,
                                 const clg_kernel_source *cpu_source, const clg_kernel_source *gpu_source);

/* Enqueue the row copy: buffers are data, indices and the output. The kernel writes nothing if the
 * gate's flag (a failure record, or the context's open gate) is set. */
clg_status clg_row_gather_launch(clg_context *ctx, const clg_row_gather *rows, cl_command_queue queue,
                                 const clg_buffer *buffers, cl_mem gate, cl_uint num_events, const cl_event *wait_list,
                                 cl_event *done);

#endif
