#include "core/gather_io.h"

clg_run_plan clg_gather_io_run_plan(const clg_operation *op, const void *plan, const clg_gather_io *io,
                                    size_t scratch_offset_modulus)
{
    return (clg_run_plan){
        .op = op,
        .plan = plan,
        .input_count = 2,
        .operands = {{"data", io->size.data_bytes, CLG_DTYPE_INVALID},
                     {"indices", io->size.index_bytes, io->index_type},
                     {"output", io->size.out_bytes, CLG_DTYPE_INVALID}},
        .out_elems = io->size.out_elems,
        .out_elem_size = io->elem_size,
        .out_rank = io->out_rank,
        .out_shape = io->out_shape,
        .flag_mode = io->policy == CLG_OOB_ERROR ? CLG_FLAG_CHECK_KERNEL : CLG_FLAG_NO_CHECK,
        .scratch_offset_modulus = scratch_offset_modulus,
    };
}

void clg_gather_io_types(clg_gather_io *io, clg_dtype data_type, clg_dtype index_type, clg_oob_policy policy,
                         bool error_by_default)
{
    io->elem_size = clg_dtype_size(data_type);
    io->index_type = index_type;
    io->index_size = clg_dtype_size(index_type);
    io->policy = clg_resolve_policy(policy, error_by_default);
}
