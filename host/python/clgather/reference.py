"""The CPU reference: the same functions as clgather's, in plain C on the host, no OpenCL.
pyopencl arrays are read back; the results are numpy arrays."""

from . import _ops


def gather(data, indices, axis=0, *, batch_dims=0, op="onnx-13", oob=None):
    return _ops.gather(data, indices, axis, batch_dims=batch_dims, op=op, oob=oob, _reference=True)


def gather_elements(data, indices, axis=0, *, op="onnx-13", oob=None):
    return _ops.gather_elements(data, indices, axis, op=op, oob=oob, _reference=True)


def gather_nd(data, indices, *, batch_dims=0, op="onnx-13", oob=None):
    return _ops.gather_nd(data, indices, batch_dims=batch_dims, op=op, oob=oob, _reference=True)


def gather_tree(step_ids, parent_ids, max_seq_len, end_token):
    return _ops.gather_tree(step_ids, parent_ids, max_seq_len, end_token, _reference=True)


def gather_quantized(
    data,
    indices,
    *,
    layout,
    scales=None,
    zero_points=None,
    bits=4,
    block_size=None,
    axis=0,
    quantize_axis=None,
    out_dtype="float32",
    oob=None,
):
    return _ops.gather_quantized(
        data,
        indices,
        layout=layout,
        scales=scales,
        zero_points=zero_points,
        bits=bits,
        block_size=block_size,
        axis=axis,
        quantize_axis=quantize_axis,
        out_dtype=out_dtype,
        oob=oob,
        _reference=True,
    )


def embedding_bag(
    table,
    indices,
    offsets=None,
    *,
    op="torch-embedding-bag",
    mode="sum",
    per_sample_weights=None,
    segment_ids=None,
    num_segments=None,
    default_index=None,
    padding_idx=None,
    include_last_offset=False,
    layout=None,
    scales=None,
    zero_points=None,
    bits=None,
    block_size=None,
    out_dtype=None,
):
    return _ops.embedding_bag(
        table,
        indices,
        offsets,
        op=op,
        mode=mode,
        per_sample_weights=per_sample_weights,
        segment_ids=segment_ids,
        num_segments=num_segments,
        default_index=default_index,
        padding_idx=padding_idx,
        include_last_offset=include_last_offset,
        layout=layout,
        scales=scales,
        zero_points=zero_points,
        bits=bits,
        block_size=block_size,
        out_dtype=out_dtype,
        _reference=True,
    )


def embedding_bag_tables(tables, indices, offsets, *, mode="sum", per_sample_weights=None, include_last_offset=False,
                         layouts=None, out_dtype=None):
    return _ops.embedding_bag_tables(
        tables,
        indices,
        offsets,
        mode=mode,
        per_sample_weights=per_sample_weights,
        include_last_offset=include_last_offset,
        layouts=layouts,
        out_dtype=out_dtype,
        _reference=True,
    )
