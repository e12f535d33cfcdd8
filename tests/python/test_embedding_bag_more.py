"""clgather.embedding_bag over quantized tables (layout=...) and clgather.embedding_bag_tables (several tables in
one launch): bit for bit against the CPU reference (clgather.reference) and against calls composed from ones
tested elsewhere, on numpy and pyopencl arrays, and the refusals naming their argument. Kept cheap: four
quantized layouts and three table-batched modes, each one kernel program or two to build."""

import ml_dtypes
import numpy as np
import pytest
from conftest import same_bits

import clgather


def ggml_q8_0_rows(rng, rows, blocks):
    """ggml q8_0 rows: per block an f16 scale and 32 int8 values."""
    parts = []
    for _ in range(blocks):
        parts.append((rng.integers(1, 64, size=(rows, 1)) / 256.0).astype(np.float16).view(np.uint8))
        parts.append(rng.integers(-128, 128, size=(rows, 32), dtype=np.int8).view(np.uint8))
    return np.ascontiguousarray(np.concatenate(parts, axis=1))


def fbgemm_8bit_rows(rng, rows, d):
    """FBGEMM 8-bit rowwise rows: d uint8 values, then an f32 scale and an f32 bias."""
    q = rng.integers(0, 256, size=(rows, d), dtype=np.uint8)
    fields = np.stack([rng.integers(1, 64, size=rows) / 64.0, rng.integers(-64, 64, size=rows) / 8.0], axis=1)
    return np.ascontiguousarray(np.concatenate([q, fields.astype("<f4").view(np.uint8)], axis=1))


def fbgemm_4bit_rows(rng, rows, d):
    """FBGEMM 4-bit rowwise rows: d / 2 bytes of two nibbles, then an f16 scale and an f16 bias."""
    q = rng.integers(0, 256, size=(rows, d // 2), dtype=np.uint8)
    fields = np.stack([rng.integers(1, 64, size=rows) / 64.0, rng.integers(-64, 64, size=rows) / 8.0], axis=1)
    return np.ascontiguousarray(np.concatenate([q, fields.astype("<f2").view(np.uint8)], axis=1))


N = 6
INDICES = np.array([5, 0, 2, 2, 4, 1, 3], dtype=np.int64)
OFFSETS = np.array([0, 3, 3, 5], dtype=np.int32)  # bag 1 empty


def quantized_cases(rng):
    """(name, table, the layout's keywords, the call's bag keywords) of each layout tested."""
    weights = rng.standard_normal(len(INDICES)).astype(np.float32)
    return [
        ("ggml-q8_0", ggml_q8_0_rows(rng, N, 2), {"layout": "ggml-q8_0"},
         {"mode": "sum", "per_sample_weights": weights}),
        ("ort-block u4", rng.integers(0, 16, size=(N, 32)).astype(ml_dtypes.uint4),
         {"layout": "ort-block", "scales": rng.standard_normal((N, 2)).astype(np.float32), "block_size": 16,
          "zero_points": rng.integers(0, 16, size=(N, 2)).astype(ml_dtypes.uint4)},
         {"mode": "max", "padding_idx": 2}),
        ("fbgemm-8bit-rowwise", fbgemm_8bit_rows(rng, N, 12), {"layout": "fbgemm-8bit-rowwise"},
         {"mode": "mean", "include_last_offset": True}),
        ("ov-compressed", rng.integers(0, 256, size=(N, 8), dtype=np.uint8),
         {"layout": "ov-compressed", "bits": 4, "scales": rng.standard_normal((N, 2)).astype(np.float16),
          "out_dtype": "float16"},
         {"op": "ov-embedding-bag-offsets-15", "mode": "mean", "default_index": 1}),
    ]


@pytest.mark.parametrize("case", range(4))
def test_quantized_layouts_match_the_reference(ctx, case):
    name, table, quant, bag = quantized_cases(np.random.default_rng(7))[case]
    offsets = np.append(OFFSETS, len(INDICES)) if bag.get("include_last_offset") else OFFSETS
    out = clgather.embedding_bag(table, INDICES, offsets, ctx=ctx, **quant, **bag)
    ref = clgather.reference.embedding_bag(table, INDICES, offsets, **quant, **bag)
    assert same_bits(out, ref), name
    assert out.dtype == np.dtype(quant.get("out_dtype", "float32")) and out.shape[0] == 4
    assert same_bits(clgather.embedding_bag(table, INDICES, offsets, ctx=clgather.Context("cpu"), **quant, **bag),
                     ref)
    # the output width is the dequantized row's
    rows = clgather.reference.gather_quantized(table, INDICES, **{"bits": 4, **quant, "out_dtype": "float32"})
    assert out.shape[1:] == rows.shape[1:], name
    # out= on failure is left alone: an index out of range
    poison = np.full(out.shape, 7, out.dtype)
    with pytest.raises(clgather.IndexOutOfRangeError, match=r"indices\[1\] = 6"):
        bad = INDICES.copy()
        bad[1] = N
        clgather.embedding_bag(table, bad, offsets, ctx=ctx, out=poison, **quant, **bag)
    assert np.all(poison == 7)


def test_quantized_sum_is_the_dequantized_rows_added_in_order(ctx):
    # independent of the bag reference: rows from gather_quantized, added in bag order in float32
    rng = np.random.default_rng(11)
    table = ggml_q8_0_rows(rng, N, 2)
    rows = clgather.reference.gather_quantized(table, INDICES, layout="ggml-q8_0")
    expected = np.zeros((4, rows.shape[1]), np.float32)
    for b, (start, end) in enumerate(zip(OFFSETS, list(OFFSETS[1:]) + [len(INDICES)])):
        for i in range(start, end):
            expected[b] += rows[i]
    out = np.full(expected.shape, np.nan, np.float32)
    got = clgather.embedding_bag(table, INDICES, OFFSETS, layout="ggml-q8_0", ctx=ctx, out=out)
    assert got is out and same_bits(out, expected)


def test_quantized_pyopencl_arrays(queue):
    import pyopencl.array as cl_array

    name, table, quant, bag = quantized_cases(np.random.default_rng(7))[0]
    ref = clgather.reference.embedding_bag(table, INDICES, OFFSETS, **quant, **bag)
    device_bag = dict(bag, per_sample_weights=cl_array.to_device(queue, bag["per_sample_weights"]))
    out = clgather.embedding_bag(cl_array.to_device(queue, table), cl_array.to_device(queue, INDICES),
                                 cl_array.to_device(queue, OFFSETS), **quant, **device_bag)
    assert isinstance(out, cl_array.Array) and out.queue is queue
    assert same_bits(out.get(), ref)
    # host bags beside a device table are copied there; the reference reads device arrays back
    assert same_bits(clgather.embedding_bag(cl_array.to_device(queue, table), INDICES, OFFSETS, **quant, **bag).get(),
                     ref)
    assert same_bits(clgather.reference.embedding_bag(cl_array.to_device(queue, table), INDICES, OFFSETS, **quant,
                                                      **device_bag), ref)
    # packed 4-bit values on the device need their bytes
    with pytest.raises(clgather.DTypeError, match="table"):
        clgather.embedding_bag(cl_array.to_device(queue, np.zeros((N, 32), ml_dtypes.uint4)), INDICES, OFFSETS,
                               layout="ort-block", scales=np.ones((N, 2), np.float32), block_size=16)


def raises(cls, status, words, call, *args, **kwargs):
    with pytest.raises(cls) as info:
        call(*args, **kwargs)
    assert info.value.status_name == status, str(info.value)
    for word in words:
        assert word in str(info.value), (word, str(info.value))


def test_quantized_errors_name_the_argument(ctx):
    table = ggml_q8_0_rows(np.random.default_rng(3), N, 1)
    E, bag = clgather, clgather.embedding_bag
    raises(E.ArgumentError, "CLG_ERR_INPUT_NOT_ALLOWED", ["scales", "layout"], bag, np.ones((N, 4), np.float32),
           INDICES, OFFSETS, scales=np.ones((N, 1), np.float32), ctx=ctx)
    raises(E.ArgumentError, "CLG_ERR_INPUT_NOT_ALLOWED", ["out_dtype", "layout"], bag, np.ones((N, 4), np.float32),
           INDICES, OFFSETS, out_dtype="float16", ctx=ctx)
    raises(E.UnsupportedError, "CLG_ERR_INVALID_LAYOUT", ["layout='q8'", "ggml-q8_0"], bag, table, INDICES, OFFSETS,
           layout="q8", ctx=ctx)
    raises(E.DTypeError, "CLG_ERR_INVALID_DTYPE", ["table", "float32"], bag, np.ones((N, 34), np.float32), INDICES,
           OFFSETS, layout="ggml-q8_0", ctx=ctx)
    raises(E.DTypeError, "CLG_ERR_TYPE_MISMATCH", ["per_sample_weights"], bag, table, INDICES, OFFSETS,
           layout="ggml-q8_0", per_sample_weights=np.ones(len(INDICES), np.float16), ctx=ctx)
    raises(E.ArgumentError, "CLG_ERR_INVALID_MODE", ["mode='median'"], bag, table, INDICES, OFFSETS,
           layout="ggml-q8_0", mode="median", ctx=ctx)
    raises(E.ArgumentError, "CLG_ERR_NULL_ARGUMENT", ["block_size"], bag, table, INDICES, OFFSETS,
           layout="ggml-q8_0", block_size="big", ctx=ctx)
    raises(E.IndexOutOfRangeError, "CLG_ERR_INVALID_OFFSETS", ["offsets[1] = 9"], bag, table, INDICES,
           np.array([0, 9]), layout="ggml-q8_0", ctx=ctx)


# ---- the table-batched call ----


def tables_call(rng, widths, rows, bags, include_last_offset):
    """Random tables of the widths, a table-major offsets array with some empty bags, and their indices."""
    tables = [rng.standard_normal((n, d)).astype(np.float32) for n, d in zip(rows, widths)]
    sizes = rng.integers(0, 4, size=len(tables) * bags)
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    indices = np.concatenate([rng.integers(0, rows[k // bags], size=s) for k, s in enumerate(sizes)] + [[]])
    if not include_last_offset:
        offsets = offsets[:-1]
    return tables, indices.astype(np.int64), offsets.astype(np.int32)


def per_table(call, tables, indices, offsets, bags, include_last_offset, **kwargs):
    """The table-batched result composed of one single-table embedding_bag per table, side by side."""
    ends = np.append(offsets, len(indices)) if not include_last_offset else offsets
    columns = []
    for t, table in enumerate(tables):
        start, end = ends[t * bags], ends[(t + 1) * bags]
        part = {k: v[start:end] for k, v in kwargs.items() if k == "per_sample_weights"}
        part.update({k: v for k, v in kwargs.items() if k != "per_sample_weights"})
        columns.append(call(table, indices[start:end], ends[t * bags:(t + 1) * bags] - start, **part))
    return np.concatenate(columns, axis=1)


@pytest.mark.parametrize("mode,count,include_last_offset", [("sum", 2, True), ("mean", 3, False), ("max", 3, True)])
def test_tables_equal_single_calls_side_by_side(ctx, mode, count, include_last_offset):
    rng = np.random.default_rng(count * 10 + len(mode))
    bags = 4
    tables, indices, offsets = tables_call(rng, [3, 5, 2][:count], [4, 7, 5][:count], bags, include_last_offset)
    kwargs = {"mode": mode}
    if mode == "sum":
        kwargs["per_sample_weights"] = rng.standard_normal(len(indices)).astype(np.float32)
    out = np.full((bags, sum(t.shape[1] for t in tables)), np.nan, np.float32)
    got = clgather.embedding_bag_tables(tables, indices, offsets, include_last_offset=include_last_offset, ctx=ctx,
                                        out=out, **kwargs)
    assert got is out
    ref = clgather.reference.embedding_bag_tables(tables, indices, offsets, include_last_offset=include_last_offset,
                                                  **kwargs)
    assert same_bits(out, ref)
    composed = per_table(clgather.reference.embedding_bag, tables, indices, offsets, bags, include_last_offset,
                         **kwargs)
    assert same_bits(out, composed)


def test_tables_pyopencl_and_other_dtypes(ctx, queue):
    import pyopencl.array as cl_array

    rng = np.random.default_rng(5)
    tables, indices, offsets = tables_call(rng, [3, 5], [4, 7], 3, True)
    ref = clgather.reference.embedding_bag_tables(tables, indices, offsets, include_last_offset=True)
    device_tables = [cl_array.to_device(queue, t) for t in tables]
    out = clgather.embedding_bag_tables(device_tables, cl_array.to_device(queue, indices),
                                        cl_array.to_device(queue, offsets), include_last_offset=True)
    assert isinstance(out, cl_array.Array) and out.queue is queue
    assert same_bits(out.get(), ref)
    # a mix: host indices and offsets beside device tables; the reference reads device tables back
    mixed = clgather.embedding_bag_tables(device_tables, indices, offsets, include_last_offset=True)
    assert same_bits(mixed.get(), ref)
    assert same_bits(clgather.reference.embedding_bag_tables(device_tables, indices, offsets,
                                                             include_last_offset=True), ref)
    # float16 and float64 tables on the CPU-reference context, composed of single calls
    cpu = clgather.Context("cpu")
    for dtype in (np.float16, np.float64):
        typed = [t.astype(dtype) for t in tables]
        got = clgather.embedding_bag_tables(typed, indices, offsets, include_last_offset=True, ctx=cpu, mode="mean")
        assert got.dtype == dtype
        assert same_bits(got, per_table(clgather.reference.embedding_bag, typed, indices, offsets, 3, True,
                                        mode="mean"))


# FBGEMM's inference mix: a float16 table, 8-bit and 4-bit rowwise tables in one call
MIX_LAYOUTS = [None, "fbgemm-8bit-rowwise", "fbgemm-4bit-rowwise"]


def fbgemm_mix(rng, bags):
    plain, indices, offsets = tables_call(rng, [4, 3, 6], [4, 7, 5], bags, True)
    tables = [plain[0].astype(np.float16), fbgemm_8bit_rows(rng, 7, 3), fbgemm_4bit_rows(rng, 5, 6)]
    return tables, indices, offsets


@pytest.mark.parametrize("mode", ["sum", "max"])
def test_tables_fbgemm_mix_equals_single_calls(ctx, mode):
    rng = np.random.default_rng(31 + len(mode))
    bags = 3
    tables, indices, offsets = fbgemm_mix(rng, bags)
    got = clgather.embedding_bag_tables(tables, indices, offsets, include_last_offset=True, layouts=MIX_LAYOUTS,
                                        out_dtype="float16", mode=mode, ctx=ctx)
    assert got.dtype == np.float16 and got.shape == (bags, 4 + 3 + 6)
    ref = clgather.reference.embedding_bag_tables(tables, indices, offsets, include_last_offset=True,
                                                  layouts=MIX_LAYOUTS, out_dtype="float16", mode=mode)
    assert same_bits(got, ref)
    # each table's columns: its own single-table call (float16 out: the float16 table's own type)
    columns = []
    for t, (table, layout) in enumerate(zip(tables, MIX_LAYOUTS)):
        start, end = offsets[t * bags], offsets[(t + 1) * bags]
        keywords = {} if layout is None else {"layout": layout, "out_dtype": "float16"}
        columns.append(clgather.reference.embedding_bag(table, indices[start:end],
                                                        offsets[t * bags:(t + 1) * bags] - start, mode=mode,
                                                        **keywords))
    assert same_bits(got, np.concatenate(columns, axis=1))


def test_tables_fbgemm_mix_weights_pyopencl_and_refusals(ctx, queue):
    import pyopencl.array as cl_array

    rng = np.random.default_rng(41)
    tables, indices, offsets = fbgemm_mix(rng, 2)
    weights = rng.standard_normal(len(indices)).astype(np.float32)  # float32: the call converts
    ref = clgather.reference.embedding_bag_tables(tables, indices, offsets, include_last_offset=True,
                                                  layouts=MIX_LAYOUTS, per_sample_weights=weights)
    assert ref.dtype == np.float32
    device = clgather.embedding_bag_tables([cl_array.to_device(queue, t) for t in tables],
                                           cl_array.to_device(queue, indices), cl_array.to_device(queue, offsets),
                                           include_last_offset=True, layouts=MIX_LAYOUTS,
                                           per_sample_weights=cl_array.to_device(queue, weights))
    assert isinstance(device, cl_array.Array) and same_bits(device.get(), ref)
    got = clgather.embedding_bag_tables(tables, indices, offsets, include_last_offset=True, layouts=MIX_LAYOUTS,
                                        per_sample_weights=weights, out_dtype="bfloat16", ctx=ctx)
    assert got.dtype == ml_dtypes.bfloat16
    E, call = clgather, clgather.embedding_bag_tables
    raises(E.ArgumentError, "CLG_ERR_SHAPE_MISMATCH", ["layouts", "one entry per table"], call, tables, indices,
           offsets, layouts=MIX_LAYOUTS[:2], include_last_offset=True, ctx=ctx)
    raises(E.UnsupportedError, "CLG_ERR_INVALID_LAYOUT", ["tables[1].quant_layout = ort-block",
                                                          "clg_embedding_bag_quantized"], call, tables, indices,
           offsets, layouts=[None, "ort-block", None], include_last_offset=True, ctx=ctx)
    raises(E.DTypeError, "CLG_ERR_TYPE_MISMATCH", ["per_sample_weights type f16"], call, tables, indices, offsets,
           layouts=MIX_LAYOUTS, per_sample_weights=weights.astype(np.float16), include_last_offset=True, ctx=ctx)


def test_packed_tables_equal_lists_and_are_copies(ctx, queue):
    import pyopencl.array as cl_array

    rng = np.random.default_rng(51)
    tables, indices, offsets = fbgemm_mix(rng, 3)
    ref = clgather.reference.embedding_bag_tables(tables, indices, offsets, include_last_offset=True,
                                                  layouts=MIX_LAYOUTS, out_dtype="float16")
    packed = clgather.PackedTables(tables, layouts=MIX_LAYOUTS)
    assert len(packed) == 3 and packed.layouts == tuple(MIX_LAYOUTS) and packed.dtype is None
    assert type(packed.buffer) is np.ndarray and "host" in repr(packed)
    for _ in range(2):  # packed once, called twice
        got = clgather.embedding_bag_tables(packed, indices, offsets, include_last_offset=True, out_dtype="float16",
                                            ctx=ctx)
        assert same_bits(got, ref)
    assert same_bits(clgather.reference.embedding_bag_tables(packed, indices, offsets, include_last_offset=True,
                                                             out_dtype="float16"), ref)
    # a copy: the source tables written after packing change nothing
    assert offsets[3] < offsets[6], "table 1 holds no index: pick another seed"
    tables[1][:] = 0
    assert same_bits(clgather.embedding_bag_tables(packed, indices, offsets, include_last_offset=True,
                                                   out_dtype="float16", ctx=ctx), ref)
    # one float dtype: that dtype out; packed on the device, a device result on its queue
    plain, indices, offsets = tables_call(rng, [3, 5], [4, 7], 2, True)
    plain_ref = clgather.reference.embedding_bag_tables(plain, indices, offsets, include_last_offset=True)
    on_device = clgather.PackedTables(plain, queue=queue)
    assert isinstance(on_device.buffer, cl_array.Array) and on_device.dtype == np.float32
    out = clgather.embedding_bag_tables(on_device, cl_array.to_device(queue, indices),
                                        cl_array.to_device(queue, offsets), include_last_offset=True)
    assert isinstance(out, cl_array.Array) and same_bits(out.get(), plain_ref)
    assert same_bits(clgather.embedding_bag_tables(on_device, indices, offsets, include_last_offset=True).get(),
                     plain_ref)
    raises(clgather.ArgumentError, "CLG_ERR_INVALID_LAYOUT", ["layouts", "PackedTables"],
           clgather.embedding_bag_tables, packed, indices, offsets, layouts=MIX_LAYOUTS, include_last_offset=True)
    raises(clgather.ArgumentError, "CLG_ERR_SHAPE_MISMATCH", ["layouts", "one entry per table"],
           clgather.PackedTables, plain, layouts=MIX_LAYOUTS)


def test_tables_errors_name_the_argument(ctx):
    rng = np.random.default_rng(9)
    tables, indices, offsets = tables_call(rng, [3, 5], [4, 7], 2, True)
    E, call = clgather, clgather.embedding_bag_tables
    raises(E.ArgumentError, "CLG_ERR_NULL_ARGUMENT", ["tables", "list"], call, tables[0], indices, offsets, ctx=ctx)
    raises(E.ArgumentError, "CLG_ERR_INVALID_DIMENSION", ["tables", "empty"], call, [], indices, offsets, ctx=ctx)
    raises(E.ShapeError, "CLG_ERR_INVALID_RANK", ["tables[1]", "2-D"], call, [tables[0], tables[1].reshape(-1)],
           indices, offsets, ctx=ctx)
    raises(E.DTypeError, "CLG_ERR_INVALID_DTYPE", ["tables[1].type f64", "converts to f32"], call,
           [tables[0], tables[1].astype(np.float64)], indices, offsets, ctx=ctx)
    raises(E.DTypeError, "CLG_ERR_INVALID_DTYPE", ["tables[0]"], call, [t.astype(np.int32) for t in tables], indices,
           offsets, ctx=ctx)
    raises(E.ArgumentError, "CLG_ERR_INVALID_MODE", ["mode='median'"], call, tables, indices, offsets, mode="median",
           ctx=ctx)
    raises(E.ArgumentError, "CLG_ERR_INVALID_MODE", ["per_sample_weights"], call, tables, indices, offsets,
           mode="max", per_sample_weights=np.ones(len(indices), np.float32), include_last_offset=True, ctx=ctx)
    raises(E.DTypeError, "CLG_ERR_TYPE_MISMATCH", ["per_sample_weights"], call, tables, indices, offsets,
           per_sample_weights=np.ones(len(indices), np.float64), include_last_offset=True, ctx=ctx)
    raises(E.DTypeError, "CLG_ERR_INVALID_INDEX_TYPE", ["offsets"], call, tables, indices,
           offsets.astype(np.float32), include_last_offset=True, ctx=ctx)
    # an index of table 1 beyond its rows, on the device and on the reference; out= is left alone
    assert offsets[2] < offsets[4], "table 1 holds no index: pick another seed"
    bad = indices.copy()
    bad[offsets[2]] = 7
    out = np.full((2, 8), 7, np.float32)
    for context in (ctx, clgather.Context("cpu")):
        raises(E.IndexOutOfRangeError, "CLG_ERR_INDEX_OUT_OF_RANGE", [f"indices[{offsets[2]}] = 7"], call, tables,
               bad, offsets, include_last_offset=True, ctx=context, out=out)
        assert np.all(out == 7)
    bad_offsets = offsets.copy()
    bad_offsets[-1] += 1
    raises(E.IndexOutOfRangeError, "CLG_ERR_INVALID_OFFSETS", ["offsets"], call, tables, indices, bad_offsets,
           include_last_offset=True, ctx=ctx)
