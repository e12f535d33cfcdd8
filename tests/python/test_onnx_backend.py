"""clgather.onnx_backend driven by ONNX's own backend test runner over the gather family's node tests
(and the pytorch-converted Embedding models, one Gather each), plus GatherBlockQuantized models, which
ONNX's tests do not cover, against the CPU reference and an independent dequantization."""

import re
import unittest

import numpy as np
import pytest
from conftest import same_bits

onnx = pytest.importorskip("onnx")
import onnx.backend.test  # noqa: E402
from onnx import TensorProto, helper  # noqa: E402

import clgather  # noqa: E402
import clgather.onnx_backend as backend  # noqa: E402

FAMILY = r"^test_(gather|gathernd|gather_elements|Embedding)"
backend_test = onnx.backend.test.BackendTest(backend, __name__).include(FAMILY + r".*_cpu$")


def family_tests():
    """(class, method) of every runner test of the family on the CPU device."""
    found = []
    for cls in backend_test.test_cases.values():
        for name in sorted(dir(cls)):
            if re.match(FAMILY, name) and name.endswith("_cpu"):
                found.append((cls, name))
    return found


FAMILY_TESTS = family_tests()


def test_the_runner_finds_the_family():
    names = {name for _, name in FAMILY_TESTS}
    for expected in ("test_gather_0_cpu", "test_gather_elements_negative_indices_cpu",
                     "test_gathernd_example_int32_batch_dim1_cpu", "test_Embedding_cpu"):
        assert expected in names
    assert len(names) >= 12


@pytest.mark.parametrize("case", FAMILY_TESTS, ids=[name for _, name in FAMILY_TESTS])
def test_onnx_backend_runner(case):
    cls, name = case
    try:
        getattr(cls(name), name)()
    except unittest.SkipTest as skip:  # every test of the family must run
        pytest.fail(f"{name} was skipped: {skip}")


def test_backend_interface():
    assert backend.supports_device("CPU") and not backend.supports_device("CUDA")
    node = helper.make_node("Gather", ["d", "i"], ["o"], axis=1)
    data = np.arange(12, dtype=np.float32).reshape(3, 4)
    (out,) = backend.run_node(node, [data, np.array([3, -4], dtype=np.int64)])
    assert same_bits(out, data[:, [3, 0]])
    two_nodes = helper.make_model(helper.make_graph(
        [node, helper.make_node("Identity", ["o"], ["p"])], "g",
        [helper.make_tensor_value_info("d", TensorProto.FLOAT, [3, 4]),
         helper.make_tensor_value_info("i", TensorProto.INT64, [2])],
        [helper.make_tensor_value_info("p", TensorProto.FLOAT, [3, 2])]))
    assert not backend.is_compatible(two_nodes)
    one_node = helper.make_model(helper.make_graph(
        [node], "g", two_nodes.graph.input, [helper.make_tensor_value_info("o", TensorProto.FLOAT, [3, 2])]))
    with pytest.raises(clgather.Error) as e:
        backend.prepare(one_node).run([data])
    assert "'i'" in str(e.value)
    with pytest.raises(clgather.UnsupportedError):
        backend.prepare(two_nodes)


@pytest.mark.parametrize("opset, preset", [(9, "onnx-1"), (11, "onnx-11"), (12, "onnx-11"), (21, "onnx-13")])
def test_gather_opsets_pick_their_preset(opset, preset):
    from clgather.onnx_backend import _preset

    assert _preset("Gather", opset) == preset
    assert _preset("GatherND", 12) == "onnx-12" and _preset("GatherElements", 10) is None


def block_quantized_model(data_type, data_shape, scale_type, with_zero_points, **attributes):
    rank = len(data_shape)
    inputs = [helper.make_tensor_value_info("data", data_type, data_shape),
              helper.make_tensor_value_info("indices", TensorProto.INT64, ["n"]),
              helper.make_tensor_value_info("scales", scale_type, [f"s{d}" for d in range(rank)])]
    names = ["data", "indices", "scales"]
    if with_zero_points:
        inputs.append(helper.make_tensor_value_info("zero_points", data_type, [f"z{d}" for d in range(rank)]))
        names.append("zero_points")
    node = helper.make_node("GatherBlockQuantized", names, ["output"], domain="com.microsoft", **attributes)
    output = helper.make_tensor_value_info("output", scale_type, [f"o{d}" for d in range(rank)])
    graph = helper.make_graph([node], "gbq", inputs, [output])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21), helper.make_opsetid("com.microsoft", 1)])


@pytest.mark.parametrize("bits", [2, 4, 8])
def test_gather_block_quantized_uint8(bits):
    rng = np.random.default_rng(71)
    data = rng.integers(0, 256, size=(6, 32), dtype=np.uint8)
    values = 32 * (8 // bits)
    scales = rng.standard_normal((6, values // 16)).astype(np.float16)
    zero_points = rng.integers(0, 256, size=(6, (values // 16) * bits // 8), dtype=np.uint8)
    indices = np.array([5, 0, 2], dtype=np.int64)
    model = block_quantized_model(TensorProto.UINT8, [6, 32], TensorProto.FLOAT16, True, block_size=16, bits=bits)
    (out,) = backend.run_model(model, [data, indices, scales, zero_points])
    ref = clgather.reference.gather_quantized(data, indices, layout="ort-block", scales=scales,
                                              zero_points=zero_points, bits=bits, block_size=16,
                                              quantize_axis=1, out_dtype=None)
    assert same_bits(out, ref) and out.dtype == np.float16 and out.shape == (3, values)
    if bits == 8:  # (q - zero point) * scale, computed apart
        q = data[5].astype(np.float32) - np.repeat(zero_points[5], 16).astype(np.float32)
        assert same_bits(out[0], (q * np.repeat(scales[5].astype(np.float32), 16)).astype(np.float16))


def test_gather_block_quantized_int4_gather_axis_1():
    import ml_dtypes

    rng = np.random.default_rng(73)
    values = rng.integers(-8, 8, size=(2, 5, 32)).astype(ml_dtypes.int4)
    scales = rng.standard_normal((2, 5, 2)).astype(np.float32)
    indices = np.array([4, -5], dtype=np.int64)
    model = block_quantized_model(TensorProto.INT4, [2, 5, 32], TensorProto.FLOAT, False,
                                  block_size=16, gather_axis=1, quantize_axis=2)
    prepared = backend.prepare(model)
    (out,) = prepared.run({"data": values, "indices": indices, "scales": scales})
    expected = values[:, [4, 0]].astype(np.float32) * np.repeat(scales[:, [4, 0]], 16, axis=2)
    assert same_bits(out, expected)


def single_node_model(op_type, opset, data, indices, output_rank, **attributes):
    node = helper.make_node(op_type, ["data", "indices"], ["output"], **attributes)
    inputs = [helper.make_tensor_value_info("data", helper.np_dtype_to_tensor_dtype(data.dtype), data.shape),
              helper.make_tensor_value_info("indices", helper.np_dtype_to_tensor_dtype(indices.dtype), indices.shape)]
    output = helper.make_tensor_value_info("output", helper.np_dtype_to_tensor_dtype(data.dtype),
                                           [f"o{d}" for d in range(output_rank)])
    graph = helper.make_graph([node], op_type, inputs, [output])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=7)


@pytest.mark.parametrize(
    "op_type, opset, attributes",
    [("Gather", 1, {"axis": 1}), ("Gather", 11, {"axis": 1}), ("Gather", 13, {"axis": 1}),
     ("GatherElements", 11, {"axis": 1}), ("GatherElements", 13, {"axis": 1}),
     ("GatherND", 11, {}), ("GatherND", 12, {"batch_dims": 1}), ("GatherND", 13, {"batch_dims": 1})],
)
def test_every_opset_runs(op_type, opset, attributes):
    rng = np.random.default_rng(opset)
    data = rng.standard_normal((3, 4)).astype(np.float32)
    if op_type == "Gather":
        indices = np.array([[3, -1], [0, 2]], dtype=np.int64)
        expected = np.take(data, indices, axis=1)
    elif op_type == "GatherElements":
        indices = np.array([[3, -1], [0, 2], [1, 1]], dtype=np.int32)
        expected = np.take_along_axis(data, np.where(indices < 0, indices + 4, indices), axis=1)
    elif attributes.get("batch_dims"):
        indices = np.array([[1], [3], [-4]], dtype=np.int64)
        expected = data[np.arange(3), [1, 3, 0]]
    else:
        indices = np.array([[2, 3], [0, -1]], dtype=np.int64)
        expected = np.array([data[2, 3], data[0, 3]])
    model = single_node_model(op_type, opset, data, indices, expected.ndim, **attributes)
    assert backend.is_compatible(model)
    (out,) = backend.run_model(model, [data, indices])
    assert same_bits(out, expected)
