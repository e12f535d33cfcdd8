"""clgather.embedding_bag: every preset and mode on numpy and pyopencl arrays, bit for bit against the CPU
reference (clgather.reference), PyTorch's documented calls by value, and every refusal as the package's
exception naming the argument. Two table dtypes on the device (f32, bf16): each is one kernel program to build."""

import numpy as np
import pytest
from conftest import same_bits

import clgather

N, D = 7, 5
# (op, modes, bag form): docs/semantics.md section 9.1
PRESETS = [
    ("ov-embedding-bag-offsets-3", ("sum",), "offsets"),
    ("ov-embedding-bag-offsets-15", ("sum", "mean"), "offsets"),
    ("ov-embedding-bag-packed-3", ("sum",), "packed"),
    ("ov-embedding-bag-packed-15", ("sum", "mean"), "packed"),
    ("ov-embedding-segments-sum-3", ("sum",), "segments"),
    ("torch-embedding-bag", ("sum", "mean", "max"), "offsets"),
    ("torch-embedding-bag", ("sum", "mean", "max"), "packed"),
]
CASES = [(op, mode, form) for op, modes, form in PRESETS for mode in modes]


def table_of(rng, dtype, shape=(N, D)):
    return rng.standard_normal(shape).astype(np.float32).astype(dtype)


def call_arguments(rng, op, mode, form, dtype, weights):
    """The arguments of a random call: some empty bags, and the options the preset takes."""
    kwargs = {"op": op, "mode": mode}
    if form == "packed":
        indices = rng.integers(0, N, size=(3, 4)).astype(np.int32)
    else:
        indices = rng.integers(0, N, size=9).astype(np.int64)
        if form == "offsets":
            kwargs["offsets"] = np.array([0, 2, 2, 6, 9][: 4 if op.startswith("ov") else 5], dtype=np.int32)
            kwargs["include_last_offset"] = op.startswith("torch")
        else:
            kwargs["segment_ids"] = np.array([0, 0, 2, 2, 2, 3, 3, 3, 5], dtype=np.uint8)
            kwargs["num_segments"] = 6
    if weights and mode == "sum":
        kwargs["per_sample_weights"] = rng.standard_normal(indices.shape).astype(np.float32).astype(dtype)
    if op.startswith("ov") and form != "packed":
        kwargs["default_index"] = 4
    if op.startswith("torch"):
        kwargs["padding_idx"] = -2  # row N - 2
    return indices, kwargs


@pytest.mark.parametrize("op,mode,form", CASES)
def test_every_preset_and_mode_matches_the_reference(ctx, op, mode, form):
    rng = np.random.default_rng(abs(hash((op, mode, form))) % 2**32)
    table = table_of(rng, np.float32)
    for weights in (False, True):
        indices, kwargs = call_arguments(rng, op, mode, form, np.float32, weights)
        out = clgather.embedding_bag(table, indices, ctx=ctx, **kwargs)
        ref = clgather.reference.embedding_bag(table, indices, **kwargs)
        assert same_bits(out, ref), (op, mode, form, weights)
        assert out.dtype == np.float32 and out.shape[1:] == (D,)
        cpu = clgather.embedding_bag(table, indices, ctx=clgather.Context("cpu"), **kwargs)
        assert same_bits(cpu, ref)


# bfloat16 (ml_dtypes') on the device; float16 and float64 on the CPU-reference context: the kernels of every
# table type are held to the reference by the C suites, and each type here would be one more program to build
@pytest.mark.parametrize("dtype,device", [("bfloat16", True), ("float16", False), ("float64", False)])
def test_table_dtypes(ctx, dtype, device):
    dtype = clgather._core.numpy_dtype(dtype)
    ctx = ctx if device else clgather.Context("cpu")
    rng = np.random.default_rng(3)
    table = table_of(rng, dtype, (N, 2, 3))  # trailing dimensions flattened into rows of 6
    indices = rng.integers(0, N, size=10)
    weights = rng.standard_normal(10).astype(np.float32).astype(dtype)
    for kwargs in ({"mode": "mean"}, {"mode": "max"}, {"per_sample_weights": weights}):
        out = clgather.embedding_bag(table, indices, [0, 3, 3, 7], ctx=ctx, **kwargs)
        assert out.dtype == dtype and out.shape == (4, 2, 3)
        assert same_bits(out, clgather.reference.embedding_bag(table, indices, [0, 3, 3, 7], **kwargs))


def test_torch_documented_calls_by_value(ctx):
    # PyTorch's embedding_bag example: input [1, 2, 4, 5, 4, 3, 2, 9], offsets [0, 4], over row r = [3r+1, 3r+2, 3r+3]
    table = (np.arange(30, dtype=np.float32) + 1).reshape(10, 3)
    indices = np.array([1, 2, 4, 5, 4, 3, 2, 9])
    rows = table[indices]
    out = clgather.embedding_bag(table, indices, [0, 4], mode="sum", ctx=ctx)
    assert np.array_equal(out, np.stack([rows[:4].sum(0), rows[4:].sum(0)]))
    out = clgather.embedding_bag(table, indices, [0, 4], mode="mean", ctx=ctx)
    assert np.array_equal(out, np.stack([rows[:4].mean(0), rows[4:].mean(0)]))
    out = clgather.embedding_bag(table, indices, [0, 4], mode="max", ctx=ctx)
    assert np.array_equal(out, np.stack([rows[:4].max(0), rows[4:].max(0)]))
    # include_last_offset: offsets [0, 4, 8] are two bags; padding_idx 2 is neither added nor counted
    out = clgather.embedding_bag(table, indices, [0, 4, 8], mode="mean", include_last_offset=True, padding_idx=2,
                                 ctx=ctx)
    assert np.array_equal(out, np.stack([table[[1, 4, 5]].mean(0), table[[4, 3, 9]].mean(0)]))
    # packed [B, K]; empty bags are zeros
    out = clgather.embedding_bag(table, indices.reshape(2, 4), ctx=ctx)
    assert np.array_equal(out, np.stack([rows[:4].sum(0), rows[4:].sum(0)]))
    out = clgather.embedding_bag(table, indices, [0, 0, 8], ctx=ctx)
    assert np.array_equal(out, np.stack([np.zeros(3), rows.sum(0), np.zeros(3)]))


def test_openvino_default_index_and_segments_by_value(ctx):
    table = (np.arange(15, dtype=np.float32) + 1).reshape(5, 3)
    indices = np.array([0, 2, 3, 4], dtype=np.int32)
    weights = np.array([0.5, 0.5, 0.5, 0.5], dtype=np.float32)
    # offsets [0, 2, 2]: the empty bag 1 takes default_index 0's row
    out = clgather.embedding_bag(table, indices, np.array([0, 2, 2], dtype=np.int32), op="ov-embedding-bag-offsets-3",
                                 per_sample_weights=weights, default_index=0, ctx=ctx)
    assert np.array_equal(out, np.array([[4, 5, 6], [1, 2, 3], [11.5, 12.5, 13.5]], dtype=np.float32))
    out = clgather.embedding_bag(table, indices, op="ov-embedding-segments-sum-3", segment_ids=[0, 0, 2, 2],
                                 num_segments=3, per_sample_weights=weights, default_index=-1, ctx=ctx)
    assert np.array_equal(out, np.array([[4, 5, 6], [0, 0, 0], [11.5, 12.5, 13.5]], dtype=np.float32))


def test_lists_and_out_argument(ctx):
    table = np.arange(12, dtype=np.float32).reshape(4, 3)
    out = np.full((2, 3), np.nan, dtype=np.float32)
    got = clgather.embedding_bag(table, [3, 1, 0], [0, 1], per_sample_weights=[2, 1, 1], ctx=ctx, out=out)
    assert got is out
    assert np.array_equal(out, np.stack([2 * table[3], table[1] + table[0]]))


def test_pyopencl_arrays(queue):
    import pyopencl.array as cl_array

    rng = np.random.default_rng(5)
    table = table_of(rng, np.float32)
    for op, mode, form in [("torch-embedding-bag", "max", "offsets"), ("ov-embedding-bag-packed-15", "mean", "packed"),
                           ("ov-embedding-segments-sum-3", "sum", "segments")]:
        indices, kwargs = call_arguments(rng, op, mode, form, np.float32, True)
        ref = clgather.reference.embedding_bag(table, indices, **kwargs)
        device = {k: cl_array.to_device(queue, v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}
        out = clgather.embedding_bag(cl_array.to_device(queue, table), cl_array.to_device(queue, indices), **device)
        assert isinstance(out, cl_array.Array) and out.queue is queue
        assert same_bits(out.get(), ref), (op, mode, form)
        # host bags and weights beside a device table are copied to the device
        out = clgather.embedding_bag(cl_array.to_device(queue, table), indices, **kwargs)
        assert isinstance(out, cl_array.Array) and same_bits(out.get(), ref)
        # the reference reads device arrays back
        assert same_bits(clgather.reference.embedding_bag(cl_array.to_device(queue, table), indices, **kwargs), ref)


def test_pyopencl_bad_offsets_leave_out_alone(queue):
    import pyopencl.array as cl_array

    table = cl_array.to_device(queue, np.ones((4, 3), np.float32))
    out = cl_array.to_device(queue, np.full((2, 3), 7, np.float32))
    with pytest.raises(clgather.IndexOutOfRangeError, match=r"offsets\[1\] = 9"):
        clgather.embedding_bag(table, np.array([0, 1, 2]), np.array([0, 9]), out=out)
    assert np.all(out.get() == 7)


def raises(cls, status, words, call, **kwargs):
    with pytest.raises(cls) as info:
        call(**kwargs)
    assert info.value.status_name == status, str(info.value)
    for word in words:
        assert word in str(info.value), (word, str(info.value))


def test_errors_name_the_argument(ctx):
    table = np.ones((4, 3), np.float32)
    idx = np.array([0, 1, 2, 3])

    def bag(**kwargs):
        args = {"table": table, "indices": idx, "offsets": np.array([0, 2]), "ctx": ctx}
        args.update(kwargs)
        return clgather.embedding_bag(**args)

    E = clgather
    raises(E.UnsupportedError, "CLG_ERR_INVALID_PRESET", ["op='onnx-13'", "torch-embedding-bag"], bag, op="onnx-13")
    raises(E.ArgumentError, "CLG_ERR_INVALID_MODE", ["mode='median'"], bag, mode="median")
    raises(E.ArgumentError, "CLG_ERR_INVALID_MODE", ["max"], bag, op="ov-embedding-bag-offsets-15", mode="max")
    raises(E.ArgumentError, "CLG_ERR_INVALID_MODE", ["per_sample_weights"], bag, mode="mean",
           per_sample_weights=np.ones(4, np.float32))
    raises(E.ArgumentError, "CLG_ERR_INVALID_BAG_FORM", ["packed"], bag, op="ov-embedding-bag-packed-3")
    raises(E.ArgumentError, "CLG_ERR_INVALID_BAG_FORM", [], bag, op="ov-embedding-segments-sum-3")
    raises(E.ArgumentError, "CLG_ERR_NULL_ARGUMENT", ["offsets", "segment_ids"], bag, segment_ids=[0, 0, 1, 1],
           num_segments=2)
    raises(E.ArgumentError, "CLG_ERR_INPUT_MISSING", ["num_segments"], bag, offsets=None, segment_ids=[0, 0, 1, 1])
    raises(E.ArgumentError, "CLG_ERR_INPUT_MISSING", ["segment_ids"], bag, offsets=None, num_segments=2)
    raises(E.ArgumentError, "CLG_ERR_INVALID_DIMENSION", ["default_index", str(2**70)], bag,
           op="ov-embedding-bag-offsets-3", default_index=2**70)
    raises(E.ArgumentError, "CLG_ERR_NULL_ARGUMENT", ["padding_idx"], bag, padding_idx="one")
    raises(E.UnsupportedError, "CLG_ERR_INPUT_NOT_ALLOWED", ["padding_idx"], bag, op="ov-embedding-bag-offsets-3",
           padding_idx=1)
    raises(E.UnsupportedError, "CLG_ERR_INPUT_NOT_ALLOWED", ["default_index"], bag, default_index=1)
    raises(E.UnsupportedError, "CLG_ERR_INPUT_NOT_ALLOWED", ["include_last_offset"], bag,
           op="ov-embedding-bag-offsets-3", include_last_offset=True)
    raises(E.DTypeError, "CLG_ERR_INVALID_DTYPE", ["table"], bag, table=np.ones((4, 3), np.int32))
    raises(E.DTypeError, "CLG_ERR_INVALID_INDEX_TYPE", ["indices"], bag, indices=np.zeros(4, np.float32))
    raises(E.DTypeError, "CLG_ERR_INVALID_INDEX_TYPE", ["offsets"], bag, offsets=np.zeros(2, np.float32))
    raises(E.DTypeError, "CLG_ERR_TYPE_MISMATCH", ["per_sample_weights"], bag,
           per_sample_weights=np.ones(4, np.float64))
    raises(E.ShapeError, "CLG_ERR_SHAPE_MISMATCH", ["per_sample_weights"], bag, per_sample_weights=np.ones(3, np.float32))
    raises(E.ShapeError, "CLG_ERR_INVALID_RANK", ["indices"], bag, indices=idx.reshape(2, 2))
    raises(E.IndexOutOfRangeError, "CLG_ERR_INDEX_OUT_OF_RANGE", ["indices[2] = 9"], bag, indices=np.array([0, 1, 9, 3]))
    raises(E.IndexOutOfRangeError, "CLG_ERR_INDEX_OUT_OF_RANGE", ["indices[0] = -1"], bag, indices=np.array([-1, 1, 2, 3]))
    raises(E.IndexOutOfRangeError, "CLG_ERR_INDEX_OUT_OF_RANGE", ["default_index"], bag,
           op="ov-embedding-bag-offsets-3", default_index=4)
    raises(E.IndexOutOfRangeError, "CLG_ERR_INVALID_OFFSETS", ["offsets[1] = 5"], bag, offsets=np.array([0, 5]))
    raises(E.IndexOutOfRangeError, "CLG_ERR_INVALID_OFFSETS", ["offsets[0] = 1"], bag, offsets=np.array([1, 2]))
    raises(E.IndexOutOfRangeError, "CLG_ERR_INVALID_SEGMENT_IDS", ["segment_ids[2] = 0"], bag, offsets=None,
           op="ov-embedding-segments-sum-3", segment_ids=np.array([0, 1, 0, 1]), num_segments=2)
    raises(E.IndexOutOfRangeError, "CLG_ERR_INVALID_SEGMENT_IDS", ["segment_ids[3] = 2"], bag, offsets=None,
           op="ov-embedding-segments-sum-3", segment_ids=np.array([0, 1, 1, 2]), num_segments=2)


def test_failures_leave_out_untouched(ctx):
    table = np.ones((4, 3), np.float32)
    out = np.full((2, 3), 7, np.float32)
    for context in (ctx, clgather.Context("cpu")):
        with pytest.raises(clgather.IndexOutOfRangeError):
            clgather.embedding_bag(table, np.array([0, 4]), [0, 1], ctx=context, out=out)
        assert np.all(out == 7)
    with pytest.raises(clgather.ShapeError):
        clgather.embedding_bag(table, np.array([0, 1]), [0, 1], ctx=ctx, out=np.empty((3, 3), np.float32))
