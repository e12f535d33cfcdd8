"""numpy arrays in, numpy arrays out: every operation, on the default OpenCL device, bit for bit
against the CPU reference (clgather.reference) and, where one is simple, against numpy itself."""

import numpy as np
import pytest
from conftest import random_array, same_bits

import clgather

DTYPES = ["bool", "int8", "uint16", "float16", "int32", "float32", "float64", "int64", "complex64", "complex128"]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("index_dtype", ["int32", "int64"])
def test_gather_onnx_matches_reference_and_numpy(ctx, dtype, index_dtype):
    rng = np.random.default_rng(abs(hash((dtype, index_dtype))) % 2**32)
    data = random_array(rng, (5, 6, 3), dtype)
    indices = rng.integers(-6, 6, size=(2, 4)).astype(index_dtype)
    out = clgather.gather(data, indices, 1, ctx=ctx)
    ref = clgather.reference.gather(data, indices, 1)
    assert same_bits(out, ref)
    assert same_bits(out, np.take(data, indices, axis=1))


@pytest.mark.parametrize("op", ["onnx-1", "onnx-11", "onnx-13"])
def test_gather_every_onnx_op(ctx, op):
    data = np.arange(24, dtype=np.float32).reshape(4, 6)
    indices = np.array([[3, 0], [-1, 2]], dtype=np.int64)
    out = clgather.gather(data, indices, 0, op=op, ctx=ctx)
    assert same_bits(out, clgather.reference.gather(data, indices, 0, op=op))
    assert out.shape == (2, 2, 6)


@pytest.mark.parametrize("oob", [None, "zero", "clamp"])
def test_gather_openvino_batch_dims_and_policies(ctx, oob):
    rng = np.random.default_rng(7)
    data = random_array(rng, (2, 5, 4), "float32")
    indices = rng.integers(-7, 7, size=(2, 3)).astype(np.int32)
    out = clgather.gather(data, indices, 1, batch_dims=1, op="ov-gather-8", oob=oob, ctx=ctx)
    ref = clgather.reference.gather(data, indices, 1, batch_dims=1, op="ov-gather-8", oob=oob)
    assert same_bits(out, ref)
    assert out.shape == (2, 3, 4)
    if oob is None:  # ov-gather-8's own rule: an index outside [-5, 4] gives a zero row
        assert np.all(out.view(np.uint32)[np.abs(indices + 0.5) > 5] == 0)


def test_gather_scalar_index_and_default_context():
    data = np.arange(10, dtype=np.int16)
    out = clgather.gather(data, np.int64(-2))
    assert out.shape == () and out == 8


@pytest.mark.parametrize("dtype", ["uint8", "float32", "complex128"])
@pytest.mark.parametrize("op", ["onnx-11", "onnx-13", "ov-gather-elements-6"])
def test_gather_elements_matches_reference_and_numpy(ctx, dtype, op):
    rng = np.random.default_rng(11)
    data = random_array(rng, (4, 5, 3), dtype)
    indices = rng.integers(-5, 5, size=(3, 7, 2)).astype(np.int64)
    out = clgather.gather_elements(data, indices, axis=1, op=op, ctx=ctx)
    assert same_bits(out, clgather.reference.gather_elements(data, indices, axis=1, op=op))
    wrapped = np.where(indices < 0, indices + 5, indices)
    assert same_bits(out, np.take_along_axis(data[:3, :, :2], wrapped, axis=1))


@pytest.mark.parametrize("op", ["onnx-12", "onnx-13", "ov-gather-nd-5", "ov-gather-nd-8"])
def test_gather_nd_batch_dims_matches_reference(ctx, op):
    rng = np.random.default_rng(13)
    data = random_array(rng, (2, 3, 4, 5), "float64")
    indices = rng.integers(-3, 3, size=(2, 6, 2)).astype(np.int64)
    indices[..., 1] = rng.integers(-4, 4, size=(2, 6))
    out = clgather.gather_nd(data, indices, batch_dims=1, op=op, ctx=ctx)
    assert same_bits(out, clgather.reference.gather_nd(data, indices, batch_dims=1, op=op))
    # (with one batch dimension, ov-gather-nd-5's flattening of the batch dimensions changes nothing)
    expected = np.stack([data[b][tuple(indices[b].T)] for b in range(2)])
    assert same_bits(out, expected)


@pytest.mark.parametrize("op", ["ov-gather-nd-5", "ov-gather-nd-8"])
def test_gather_nd_two_batch_dims_output_shapes(ctx, op):
    data = np.arange(2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4)
    indices = np.zeros((2, 3, 5, 1), dtype=np.int64)
    out = clgather.gather_nd(data, indices, batch_dims=2, op=op, ctx=ctx)
    assert same_bits(out, clgather.reference.gather_nd(data, indices, batch_dims=2, op=op))
    assert out.shape == ((6, 5) if op == "ov-gather-nd-5" else (2, 3, 5))


def test_gather_nd_onnx_11_tuples_of_full_rank(ctx):
    data = np.arange(12, dtype=np.int32).reshape(3, 4)
    indices = np.array([[2, 3], [0, -1]], dtype=np.int64)
    out = clgather.gather_nd(data, indices, op="onnx-11", ctx=ctx)
    assert same_bits(out, np.array([11, 3], dtype=np.int32))


def beams(rng, time, batch, width, dtype):
    step_ids = rng.integers(0, 50, size=(time, batch, width)).astype(dtype)
    parent_ids = rng.integers(0, width, size=(time, batch, width)).astype(dtype)
    max_seq_len = rng.integers(0, time + 2, size=(batch,)).astype(dtype)
    return step_ids, parent_ids, max_seq_len


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64"])
def test_gather_tree_matches_reference(ctx, dtype):
    rng = np.random.default_rng(17)
    step_ids, parent_ids, max_seq_len = beams(rng, 6, 3, 4, dtype)
    out = clgather.gather_tree(step_ids, parent_ids, max_seq_len, -1, ctx=ctx)
    ref = clgather.reference.gather_tree(step_ids, parent_ids, max_seq_len, np.array(-1, dtype=dtype))
    assert same_bits(out, ref)
    assert out.dtype == np.dtype(dtype) and out.shape == (6, 3, 4)


def test_gather_tree_backtracks_one_beam(ctx):
    step_ids = np.array([[[1, 2]], [[3, 4]], [[5, 6]]], dtype=np.int32)  # [T=3, B=1, W=2]
    parent_ids = np.array([[[0, 0]], [[1, 0]], [[1, 0]]], dtype=np.int32)
    out = clgather.gather_tree(step_ids, parent_ids, [3], 0, ctx=ctx)
    # beam 0 ends at 5, its parent at t=2 is beam 1 (4), whose parent at t=1 is beam 0 (1)
    assert out[:, 0, 0].tolist() == [1, 4, 5]


def q4_table(rng, rows, cols):
    """uint8 bytes of two 4-bit values each, f32 scales per block of 16 along the last axis."""
    data = rng.integers(0, 256, size=(rows, cols // 2), dtype=np.uint8)
    scales = rng.standard_normal((rows, cols // 16)).astype(np.float32)
    return data, scales


@pytest.mark.parametrize("out_dtype", ["float32", "float16", None])
def test_gather_quantized_ort_block_bits4(ctx, out_dtype):
    rng = np.random.default_rng(19)
    data, scales = q4_table(rng, 10, 64)
    zero_points = rng.integers(0, 256, size=(10, 2), dtype=np.uint8)  # 4 blocks a row, two a byte
    indices = np.array([[3, 9], [-1, 0]], dtype=np.int64)
    kwargs = dict(layout="ort-block", scales=scales, zero_points=zero_points, bits=4, block_size=16,
                  quantize_axis=1, out_dtype=out_dtype)
    out = clgather.gather_quantized(data, indices, ctx=ctx, **kwargs)
    ref = clgather.reference.gather_quantized(data, indices, **kwargs)
    assert same_bits(out, ref)
    assert out.shape == (2, 2, 64)
    if out_dtype is None:
        assert out.dtype == np.float32  # the scales' type
    # an independent dequantization of row 3: (q - zero point) * scale
    q = np.stack([data[3] & 0x0F, data[3] >> 4], axis=1).reshape(-1).astype(np.int32)
    z = np.stack([zero_points[3] & 0x0F, zero_points[3] >> 4], axis=1).reshape(-1).astype(np.int32)
    expected = ((q - np.repeat(z, 16)).astype(np.float32) * np.repeat(scales[3], 16)).astype(out.dtype)
    assert same_bits(out[0, 0], expected)


@pytest.mark.parametrize("out_dtype", ["float32", "bfloat16"])
def test_gather_quantized_ort_block_bits2(ctx, out_dtype):
    rng = np.random.default_rng(29)
    data = rng.integers(0, 256, size=(7, 10), dtype=np.uint8)  # 40 values a row: blocks of 16, 16 and 8
    scales = rng.standard_normal((7, 3)).astype(np.float16)
    zero_points = rng.integers(0, 256, size=(7, 1), dtype=np.uint8)  # three 2-bit zero points a row
    indices = np.array([6, -7, 2], dtype=np.int32)
    kwargs = dict(layout="ort-block", scales=scales, zero_points=zero_points, bits=2, block_size=16,
                  quantize_axis=1, out_dtype=out_dtype)
    out = clgather.gather_quantized(data, indices, ctx=ctx, **kwargs)
    assert out.shape == (3, 40)
    assert same_bits(out, clgather.reference.gather_quantized(data, indices, **kwargs))
    # an independent dequantization of row 6: value k in bits 2(k % 4) of byte k // 4, from the low bits
    q = ((data[6][:, None] >> np.array([0, 2, 4, 6])) & 3).reshape(-1).astype(np.int32)
    z = ((zero_points[6, 0] >> np.array([0, 2, 4])) & 3).astype(np.int32)
    expected = (q - np.repeat(z, 16)[:40]).astype(np.float32) * np.repeat(scales[6].astype(np.float32), 16)[:40]
    assert same_bits(out[0], expected.astype(out.dtype))
    # without zero points the default is 2
    del kwargs["zero_points"]
    out = clgather.gather_quantized(data, indices, ctx=ctx, **kwargs)
    expected = (q - 2).astype(np.float32) * np.repeat(scales[6].astype(np.float32), 16)[:40]
    assert same_bits(out[0], expected.astype(out.dtype))


def test_gather_quantized_ort_block_uint4_values(ctx):
    import ml_dtypes

    rng = np.random.default_rng(23)
    values = rng.integers(0, 16, size=(6, 32)).astype(ml_dtypes.uint4)
    scales = rng.standard_normal((6, 2)).astype(np.float32)
    indices = np.array([5, 0], dtype=np.int32)
    out = clgather.gather_quantized(values, indices, layout="ort-block", scales=scales, block_size=16,
                                    quantize_axis=1, ctx=ctx)
    expected = values[[5, 0]].astype(np.float32) * np.repeat(scales[[5, 0]], 16, axis=1)
    assert same_bits(out, expected)


def ggml_q8_0_rows(rng, rows, blocks):
    """ggml q8_0 rows: per block an f16 scale and 32 int8 values."""
    row = []
    for _ in range(blocks):
        scale = rng.standard_normal((rows, 1)).astype(np.float16).view(np.uint8)
        quants = rng.integers(-128, 128, size=(rows, 32), dtype=np.int8).view(np.uint8)
        row += [scale, quants]
    return np.concatenate(row, axis=1)


@pytest.mark.parametrize("layout", ["ggml-q4_0", "ggml-q8_0"])
def test_gather_quantized_ggml(ctx, layout):
    rng = np.random.default_rng(29)
    if layout == "ggml-q8_0":
        data = ggml_q8_0_rows(rng, 7, 2)
    else:
        data = rng.integers(0, 256, size=(7, 2 * 18), dtype=np.uint8)
        for block in range(2):  # finite f16 scales
            data[:, 18 * block : 18 * block + 2] = rng.standard_normal((7, 1)).astype(np.float16).view(np.uint8)
    indices = np.array([6, 0, 3], dtype=np.int64)
    out = clgather.gather_quantized(data, indices, layout=layout, ctx=ctx)
    assert same_bits(out, clgather.reference.gather_quantized(data, indices, layout=layout))
    assert out.shape == (3, 64) and out.dtype == np.float32
    if layout == "ggml-q8_0":
        scale = data[6, 0:2].view(np.float16).astype(np.float32)
        expected = data[6, 2:34].view(np.int8).astype(np.float32) * scale
        assert same_bits(out[0, :32], expected)


# ggml's blocks of 32 values beyond q4_0 / q8_0: (block bytes, f16 fields before the quants, fifth bits)
GGML_BLOCKS = {"ggml-q4_1": (20, 2, False), "ggml-q5_0": (22, 1, True), "ggml-q5_1": (24, 2, True),
               "ggml-iq4_nl": (18, 1, False)}
IQ4_NL_VALUES = np.array([-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113], np.float32)


def ggml_block_values(layout, block):
    """ggml-quants.c's dequantize_row_* for one block, in NumPy f32: q * d, or q * d + m."""
    _, fields, fifth = GGML_BLOCKS[layout]
    d = block[0:2].view(np.float16).astype(np.float32)[0]
    quants = block[-16:]
    q = np.concatenate([quants & 0x0F, quants >> 4]).astype(np.int32)
    if fifth:
        high = int(block[2 * fields : 2 * fields + 4].view(np.uint32)[0])
        q |= np.array([(high >> j) & 1 for j in range(32)], np.int32) << 4
    if layout == "ggml-iq4_nl":
        return IQ4_NL_VALUES[q] * d
    if layout == "ggml-q5_0":
        return (q - 16).astype(np.float32) * d
    return q.astype(np.float32) * d + block[2:4].view(np.float16).astype(np.float32)[0]


@pytest.mark.parametrize("layout", sorted(GGML_BLOCKS))
@pytest.mark.parametrize("out_dtype", ["float32", "float16"])
def test_gather_quantized_ggml_more_layouts(ctx, layout, out_dtype):
    block_bytes, fields, _ = GGML_BLOCKS[layout]
    rng = np.random.default_rng(37)
    data = rng.integers(0, 256, size=(5, 2, block_bytes), dtype=np.uint8)
    data[:, :, : 2 * fields] = rng.standard_normal((5, 2, fields)).astype(np.float16).view(np.uint8)
    data = data.reshape(5, 2 * block_bytes)
    indices = np.array([4, 1], dtype=np.int32)
    out = clgather.gather_quantized(data, indices, layout=layout, out_dtype=out_dtype, ctx=ctx)
    assert out.shape == (2, 64) and out.dtype == np.dtype(out_dtype)
    ref = clgather.reference.gather_quantized(data, indices, layout=layout, out_dtype=out_dtype)
    assert same_bits(out, ref)
    expected = np.concatenate([ggml_block_values(layout, data[4, k * block_bytes : (k + 1) * block_bytes])
                               for k in range(2)])
    assert same_bits(out[0], expected.astype(out_dtype))


# ggml's 256-value super-blocks: (block bytes, offsets of the f16 d and dmin)
SUPER_BLOCKS = {"ggml-q2_K": (84, [80, 82]), "ggml-q3_K": (110, [108]), "ggml-q4_K": (144, [0, 2]),
                "ggml-q5_K": (176, [0, 2]), "ggml-q6_K": (210, [208]), "ggml-iq4_xs": (136, [0])}


def super_block_values(layout, block):
    """One super-block as gguf.quants.dequantize computes it, in NumPy f32: (d * scale) * q, less
    dmin * min for q2_K, q4_K, q5_K (ggml-common.h gives the fields)."""
    v = np.arange(256)
    f16 = lambda at: block[at : at + 2].view(np.float16).astype(np.float32)[0]
    pair = (block[(v // 128) * 32 + v % 32 + {"ggml-q2_K": 16, "ggml-q3_K": 32, "ggml-q6_K": 128}.get(layout, 0)]
            >> (2 * ((v // 32) % 4))) & 3
    k_nibble = lambda base: (block[base + (v // 64) * 32 + v % 32] >> np.where(v % 64 < 32, 0, 4)) & 15
    minimum = None
    if layout == "ggml-q2_K":
        q, scale, minimum, d, dmin = pair, block[v // 16] & 15, block[v // 16] >> 4, f16(80), f16(82)
    elif layout == "ggml-q3_K":
        s = v // 16
        scale = (((block[96 + s % 8] >> (4 * (s // 8))) & 15) | (((block[104 + s % 4] >> (2 * (s // 4))) & 3) << 4))
        q, scale, d = pair.astype(np.int32) - 4 * (1 - ((block[v % 32] >> (v // 32)) & 1)), scale.astype(np.int32) - 32, f16(108)
    elif layout in ("ggml-q4_K", "ggml-q5_K"):
        p, j = block[4:16].astype(np.int32), v // 32
        scale = np.where(j < 4, p[j % 4] & 63, (p[(j + 4) % 12] & 15) | ((p[(j - 4) % 12] >> 6) << 4))
        minimum = np.where(j < 4, p[(j + 4) % 12] & 63, (p[(j + 4) % 12] >> 4) | ((p[j % 12] >> 6) << 4))
        q, d, dmin = k_nibble(16 if layout == "ggml-q4_K" else 48).astype(np.int32), f16(0), f16(2)
        if layout == "ggml-q5_K":
            q |= ((block[16 + v % 32] >> (v // 32)) & 1).astype(np.int32) << 4
    elif layout == "ggml-q6_K":
        low = (block[(v // 128) * 64 + v % 64] >> np.where(v % 128 < 64, 0, 4)) & 15
        q, scale, d = (low | (pair << 4)).astype(np.int32) - 32, block[192 + v // 16].view(np.int8), f16(208)
    else:  # iq4_xs
        s, at = v // 32, v % 32
        high = (int(block[2]) | int(block[3]) << 8) >> (2 * s) & 3
        scale = (((block[4 + s // 2] >> (4 * (s % 2))) & 15) | (high << 4)).astype(np.int32) - 32
        q, d = IQ4_NL_VALUES[(block[8 + 16 * s + at % 16] >> np.where(at < 16, 0, 4)) & 15], f16(0)
    values = (d * scale.astype(np.float32)) * q.astype(np.float32)
    return values if minimum is None else values - dmin * minimum.astype(np.float32)


@pytest.mark.parametrize("layout", sorted(SUPER_BLOCKS))
@pytest.mark.parametrize("out_dtype", ["float32", "float16"])
def test_gather_quantized_ggml_super_blocks(ctx, layout, out_dtype):
    block_bytes, fields = SUPER_BLOCKS[layout]
    rng = np.random.default_rng(41)
    data = rng.integers(0, 256, size=(4, 2, block_bytes), dtype=np.uint8)
    for at in fields:
        data[:, :, at : at + 2] = (rng.standard_normal((4, 2, 1)) * 0.01).astype(np.float16).view(np.uint8)
    data = data.reshape(4, 2 * block_bytes)
    indices = np.array([3, 0, 3], dtype=np.int64)
    out = clgather.gather_quantized(data, indices, layout=layout, out_dtype=out_dtype, ctx=ctx)
    assert out.shape == (3, 512) and out.dtype == np.dtype(out_dtype)
    assert same_bits(out, clgather.reference.gather_quantized(data, indices, layout=layout, out_dtype=out_dtype))
    expected = np.concatenate([super_block_values(layout, data[3, k * block_bytes : (k + 1) * block_bytes])
                               for k in range(2)])
    assert same_bits(out[0], expected.astype(out_dtype))


def fbgemm_rows(layout, rng, rows, d):
    """FBGEMM fused rows of d values: values, then the scale and bias (f32 for 8-bit, f16 for 4-bit),
    chosen so that q * scale + bias is exact in f32 (scales and biases of few bits)."""
    scale = rng.integers(1, 64, size=rows) / 64.0
    bias = rng.integers(-64, 64, size=rows) / 8.0
    if layout == "fbgemm-8bit-rowwise":
        q = rng.integers(0, 256, size=(rows, d), dtype=np.uint8)
        fields = np.stack([scale, bias], axis=1).astype("<f4").view(np.uint8)
        packed = q
    else:
        q = rng.integers(0, 16, size=(rows, d), dtype=np.uint8)
        fields = np.stack([scale, bias], axis=1).astype("<f2").view(np.uint8)
        packed = q[:, 0::2] | (q[:, 1::2] << 4)
    values = q.astype(np.float32) * scale[:, None].astype(np.float32) + bias[:, None].astype(np.float32)
    return np.ascontiguousarray(np.concatenate([packed, fields], axis=1)), values


@pytest.mark.parametrize("layout", ["fbgemm-8bit-rowwise", "fbgemm-4bit-rowwise"])
def test_gather_quantized_fbgemm_rows(ctx, layout):
    rng = np.random.default_rng(43)
    data, values = fbgemm_rows(layout, rng, 5, 12)
    assert data.shape == (5, 20 if layout == "fbgemm-8bit-rowwise" else 10)
    indices = np.array([4, -5, 2], dtype=np.int64)
    out = clgather.gather_quantized(data, indices, layout=layout, ctx=ctx)
    assert out.shape == (3, 12) and out.dtype == np.float32
    assert same_bits(out, values[indices])
    assert same_bits(out, clgather.reference.gather_quantized(data, indices, layout=layout))
    with pytest.raises(clgather.ShapeError, match="cannot be a fbgemm"):
        clgather.gather_quantized(data[:, :4], indices, layout=layout, ctx=ctx)


@pytest.mark.parametrize("bits", [8, 4])
def test_gather_quantized_ov_compressed(ctx, bits):
    rng = np.random.default_rng(31)
    data = rng.integers(0, 256, size=(9, 16), dtype=np.uint8)
    groups = 4
    values = 16 if bits == 8 else 32
    scales = rng.standard_normal((9, groups)).astype(np.float16)
    indices = np.array([[8, 2], [20, -1]], dtype=np.int32)  # 20: out of range, zeros under OpenVINO's rule
    kwargs = dict(layout="ov-compressed", scales=scales, bits=bits, out_dtype="float32")
    out = clgather.gather_quantized(data, indices, ctx=ctx, **kwargs)
    assert same_bits(out, clgather.reference.gather_quantized(data, indices, **kwargs))
    assert out.shape == (2, 2, values)
    assert np.all(out[1, 0].view(np.uint32) == 0)


def test_context_device_and_reference_context():
    ctx = clgather.Context(device=0)
    assert ctx.device.index == 0
    assert ctx.device in clgather.devices()
    assert sum(d.is_default for d in clgather.devices()) == 1
    with clgather.Context(device="cpu") as reference:
        assert reference.device.is_reference
        data = np.arange(6, dtype=np.float32)
        assert same_bits(clgather.gather(data, np.array([5, 1]), ctx=reference), np.array([5, 1], np.float32))
    assert "closed" in repr(reference)


def test_verify_mode_context():
    ctx = clgather.Context(verify=True)
    data = np.arange(30, dtype=np.uint8).reshape(5, 6)
    assert same_bits(clgather.gather(data, np.array([4, 0]), 0, ctx=ctx), data[[4, 0]])


def test_version_and_abi():
    assert clgather.__version__.count(".") == 2
    assert clgather._lib.lib.clg_abi_version() == clgather.ABI_VERSION


def test_out_argument_is_written_on_success_only(ctx):
    data = np.arange(40, dtype=np.float64).reshape(8, 5)
    indices = np.array([7, 0, -2], dtype=np.int64)
    out = np.full((3, 5), np.nan).view(np.uint64)
    out[...] = 0xA5A5A5A5A5A5A5A5  # poisoned
    out = out.view(np.float64)
    assert clgather.gather(data, indices, 0, ctx=ctx, out=out) is out
    assert same_bits(out, data[[7, 0, 6]])
    out.view(np.uint64)[...] = 0xA5A5A5A5A5A5A5A5
    with pytest.raises(clgather.IndexOutOfRangeError):
        clgather.gather(data, np.array([1, 8, 0], dtype=np.int64), 0, ctx=ctx, out=out)
    assert np.all(out.view(np.uint64) == 0xA5A5A5A5A5A5A5A5), "a failed call left the output untouched"


def test_out_argument_is_checked(ctx):
    data = np.arange(10, dtype=np.int32)
    with pytest.raises(clgather.ShapeError) as e:
        clgather.gather(data, np.array([1, 2]), ctx=ctx, out=np.empty(3, np.int32))
    assert "out" in str(e.value) and "(3,)" in str(e.value)
    with pytest.raises(TypeError) as e:
        clgather.gather(data, np.array([1, 2]), ctx=ctx, out=np.empty(2, np.int64))
    assert "out" in str(e.value) and "int64" in str(e.value)
    with pytest.raises(clgather.Error):
        clgather.gather(data, np.array([1, 2]), ctx=ctx, out=np.empty(4, np.int32)[::2])


def test_strided_and_byte_swapped_inputs_are_taken_as_values(ctx):
    base = np.arange(60, dtype=np.int32).reshape(6, 10)
    strided = base[::2, ::3]  # not contiguous: gathered from a contiguous copy
    swapped = base.astype(base.dtype.newbyteorder(">"))  # big-endian: converted to native order
    indices = np.array([2, 0], dtype=np.int64)
    assert same_bits(clgather.gather(strided, indices, 0, ctx=ctx), np.ascontiguousarray(strided[[2, 0]]))
    out = clgather.gather(swapped, indices, 0, ctx=ctx)
    assert out.dtype == np.dtype(np.int32) and out.tolist() == base[[2, 0]].tolist()


def test_bfloat16_data(ctx):
    import ml_dtypes

    rng = np.random.default_rng(37)
    data = random_array(rng, (4, 6), ml_dtypes.bfloat16)
    indices = np.array([3, -4], dtype=np.int32)
    out = clgather.gather(data, indices, 0, op="onnx-13", ctx=ctx)
    assert out.dtype == np.dtype(ml_dtypes.bfloat16)
    assert same_bits(out, data[[3, 0]])
    with pytest.raises(TypeError) as e:  # ONNX Gather-13 added bfloat16; Gather-11 does not take it
        clgather.gather(data, indices, 0, op="onnx-11", ctx=ctx)
    assert "bf16" in str(e.value)


@pytest.mark.parametrize("byte_offset", [0, 17])
def test_tables_in_a_read_only_memory_map_are_read_and_never_written(ctx, tmp_path, byte_offset):
    # A model file's table mapped read-only (a write would fault): a CPU device reads 16-byte aligned host
    # inputs where they lie (the tuning's host_memory_in_place), other drivers and other addresses (byte
    # offset 17) through a copy; either way the results are the reference's and the file is unchanged.
    rng = np.random.default_rng(29)
    rows, d = 300, 24
    table = np.concatenate([rng.integers(0, 256, size=(rows, d), dtype=np.uint8),
                            np.stack([rng.integers(1, 64, size=rows) / 64.0, rng.integers(-64, 64, size=rows) / 8.0],
                                     axis=1).astype("<f4").view(np.uint8)], axis=1)
    path = tmp_path / "table.bin"
    path.write_bytes(bytes(byte_offset) + table.tobytes())
    mapped = np.memmap(path, dtype=np.uint8, mode="r", offset=byte_offset, shape=table.shape)
    assert not mapped.flags.writeable
    indices = rng.integers(0, rows, size=40).astype(np.int64)
    offsets = np.array([0, 7, 7, 30], dtype=np.int64)
    bag = clgather.embedding_bag(mapped, indices, offsets, layout="fbgemm-8bit-rowwise", ctx=ctx)
    assert same_bits(bag, clgather.reference.embedding_bag(table, indices, offsets, layout="fbgemm-8bit-rowwise"))
    got = clgather.gather_quantized(mapped, indices, layout="fbgemm-8bit-rowwise", ctx=ctx)
    assert same_bits(got, clgather.reference.gather_quantized(table, indices, layout="fbgemm-8bit-rowwise"))
    floats = np.memmap(path, dtype=np.uint8, mode="r", offset=byte_offset, shape=(rows * (d + 8),))
    assert same_bits(clgather.gather(floats, indices, 0, ctx=ctx), np.take(table.reshape(-1), indices))
    del mapped, floats
    assert path.read_bytes() == bytes(byte_offset) + table.tobytes()
