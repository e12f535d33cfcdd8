"""Outside oracles of the dequantizing gather, run in the venv of ci/setup_oracles.sh (onnx, onnxruntime,
gguf). Writes under OUT:
  ort/<case>/model.onnx + test_data_set_0/{input_0.pb, output_0.pb}: single-node com.microsoft
    GatherBlockQuantized models (data, scales, zero points as initializers; indices fed), the expected
    output being what ONNX Runtime's CPU execution provider computed; each tensor encoded as raw_data, as
    the typed fields (4-bit values two a byte in int32_data, f16 bits in int32_data, float_data,
    int64_data: what helper.make_tensor writes without raw), or as external data in a file beside the
    model (onnx.save's save_as_external_data);
  ggml/<case>/{rows.npy, indices.npy, expected.npy, expected_f16.npy, expected_bf16.npy}: ggml rows and
    the rows gguf.quants.dequantize gives for the indices (f32), that rounded to nearest even as f16, and
    as bf16 (uint16 bits, as clgather writes bf16): q4_0 / q8_0 rows quantized by gguf.quants from
    normal values, and random blocks of every layout (q4_0, q4_1, q5_0, q5_1, q8_0, iq4_nl, and the
    256-value q2_K, q3_K, q4_K, q5_K, q6_K, iq4_xs) whose f16 fields (d, and m or dmin where there is
    one) are random finite bits, subnormals and overflowing products included;
  hostile/<case>/ and hostile.json: copies of the ONNX Runtime models with one tensor lying about its
    encoding (external data outside the model's folder or past its file's end, int32_data that is not
    bytes, ...) or with bits or shapes ONNX Runtime refuses (bits 3, bits 2 with u4 data, 2-bit zero
    points or scales counted as if packed otherwise), and the fragment of the message that must refuse
    each.
Usage: python oracle_cases.py OUT"""
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

OUT = sys.argv[1]
rng = np.random.default_rng(20261123)


def pack_nibbles(values):
    """Two 4-bit values a byte, the lower-indexed in the low nibble, over the flattened tensor."""
    flat = (np.asarray(values).reshape(-1).astype(np.int64) & 0xF).astype(np.uint8)
    if flat.size % 2:
        flat = np.concatenate([flat, np.zeros(1, np.uint8)])
    return (flat[0::2] | (flat[1::2] << 4)).astype(np.uint8)


def quant_tensor(name, kind, values, typed=False):
    """A TensorProto for data or zero points: kind 'u4' / 'i4' (logical values), 'u8' (bytes); typed: in
    int32_data (4-bit values as helper.make_tensor packs them, two a byte an element)."""
    values = np.asarray(values)
    if kind == "u8":
        if typed:
            return helper.make_tensor(name, TensorProto.UINT8, list(values.shape), values.reshape(-1).tolist())
        return numpy_helper.from_array(values.astype(np.uint8), name)
    onnx_type = TensorProto.UINT4 if kind == "u4" else TensorProto.INT4
    if typed:
        tensor = helper.make_tensor(name, onnx_type, list(values.shape), values.reshape(-1).tolist())
        assert not tensor.raw_data and len(tensor.int32_data) == (values.size + 1) // 2
        return tensor
    return helper.make_tensor(name, onnx_type, list(values.shape), pack_nibbles(values).tobytes(), raw=True)


def plain_tensor(array, name, typed):
    """raw_data, or the typed field onnx.proto assigns the type (f16 bits in int32_data)."""
    if not typed:
        return numpy_helper.from_array(array, name)
    onnx_type = helper.np_dtype_to_tensor_dtype(array.dtype)
    values = array.view(np.uint16) if array.dtype == np.float16 else array
    tensor = helper.make_tensor(name, onnx_type, list(array.shape), values.reshape(-1).tolist())
    assert not tensor.raw_data
    return tensor


def write_ort_case(case, kind, data, scales, zero_points, indices, attributes, encoding="raw"):
    directory = os.path.join(OUT, "ort", case)
    os.makedirs(os.path.join(directory, "test_data_set_0"), exist_ok=True)
    typed = encoding == "typed"
    initializers = [quant_tensor("data", kind, data, typed), plain_tensor(scales, "scales", typed)]
    node_inputs = ["data", "indices", "scales"]
    if zero_points is not None:
        initializers.append(quant_tensor("zero_points", kind, zero_points, typed))
        node_inputs.append("zero_points")
    node = helper.make_node("GatherBlockQuantized", node_inputs, ["output"], domain="com.microsoft", **attributes)
    index_type = TensorProto.INT64 if indices.dtype == np.int64 else TensorProto.INT32
    scale_type = helper.np_dtype_to_tensor_dtype(scales.dtype)
    graph = helper.make_graph([node], case, [helper.make_tensor_value_info("indices", index_type, list(indices.shape))],
                              [helper.make_tensor_value_info("output", scale_type, None)], initializer=initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21), helper.make_opsetid("com.microsoft", 1)])
    model.ir_version = 10
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    (output,) = session.run(None, {"indices": indices})
    if encoding == "external":
        onnx.save(model, os.path.join(directory, "model.onnx"), save_as_external_data=True,
                  all_tensors_to_one_file=True, location="weights.bin", size_threshold=0)
        assert os.path.getsize(os.path.join(directory, "weights.bin")) > 0
    else:
        onnx.save(model, os.path.join(directory, "model.onnx"))
    with open(os.path.join(directory, "test_data_set_0", "input_0.pb"), "wb") as f:
        f.write(plain_tensor(np.asarray(indices), "indices", typed).SerializeToString())
    with open(os.path.join(directory, "test_data_set_0", "output_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(np.asarray(output)).SerializeToString())


def random_scales(shape, dtype):
    return (rng.standard_normal(shape) * 0.05).astype(dtype)


def ort_cases():
    # u4, quantize along the last axis, zero points, f32 scales, block 16
    data = rng.integers(0, 16, size=(8, 64))
    write_ort_case("u4_zero_points_f32", "u4", data, random_scales((8, 4), np.float32), rng.integers(0, 16, (8, 4)),
                   np.array([7, 0, 3, 3, -1], np.int64), dict(gather_axis=0, quantize_axis=1, block_size=16))
    # i4, rank 3, gather along the middle axis, f16 scales, block 32, no zero points
    data = rng.integers(-8, 8, size=(3, 6, 64))
    write_ort_case("i4_rank3_f16", "i4", data, random_scales((3, 6, 2), np.float16), None,
                   np.array([[5, 1], [0, -6]], np.int64), dict(gather_axis=1, quantize_axis=2, block_size=32))
    # i4 quantized along the gathered axis (blocks run across rows)
    data = rng.integers(-8, 8, size=(64, 5))
    write_ort_case("i4_quantize_axis_0", "i4", data, random_scales((4, 5), np.float32), rng.integers(-8, 8, (4, 5)),
                   np.array([63, 16, 0], np.int64), dict(gather_axis=0, quantize_axis=0, block_size=16))
    # u4 with a row of 40 values: the last block of each row is short
    data = rng.integers(0, 16, size=(6, 40))
    write_ort_case("u4_short_last_block", "u4", data, random_scales((6, 3), np.float16), rng.integers(0, 16, (6, 3)),
                   np.array([5, 2, 2], np.int32), dict(gather_axis=0, quantize_axis=1, block_size=16))
    # u8 with bits 4: two values a byte; zero points packed two a byte along the last axis
    data = rng.integers(0, 256, size=(10, 32))  # 64 values a row
    write_ort_case("u8_bits4_zero_points", "u8", data, random_scales((10, 4), np.float16), rng.integers(0, 256, (10, 2)),
                   np.array([9, 4, 0, -10], np.int64), dict(gather_axis=0, quantize_axis=1, block_size=16, bits=4))
    # the same with three blocks a row: each row of zero points ends in a padding nibble
    data = rng.integers(0, 256, size=(7, 24))  # 48 values a row
    write_ort_case("u8_bits4_zero_points_odd_blocks", "u8", data, random_scales((7, 3), np.float32),
                   rng.integers(0, 256, (7, 2)), np.array([6, 0, -1, 3], np.int64),
                   dict(gather_axis=0, quantize_axis=1, block_size=16, bits=4))
    # u8 with bits 8, default zero point 128, block 64
    data = rng.integers(0, 256, size=(5, 128))
    write_ort_case("u8_bits8_f32", "u8", data, random_scales((5, 2), np.float32), None, np.array([4, 1], np.int32),
                   dict(gather_axis=0, quantize_axis=1, block_size=64, bits=8))
    # u8 with bits 8 and zero points, the default block size (128)
    data = rng.integers(0, 256, size=(4, 256))
    write_ort_case("u8_bits8_zero_points_default_block", "u8", data, random_scales((4, 2), np.float16),
                   rng.integers(0, 256, (4, 2)), np.array([3, 0, 2], np.int64), dict(gather_axis=0, quantize_axis=1,
                                                                                    bits=8))
    # u8 with bits 2: four values a byte (value 0 in the low two bits); zero points four a byte along the
    # last axis: 4 blocks a row fill a byte, 3 leave two padding bits; without zero points the default is 2
    data = rng.integers(0, 256, size=(9, 16))  # 64 values a row
    write_ort_case("u8_bits2_zero_points_f16", "u8", data, random_scales((9, 4), np.float16),
                   rng.integers(0, 256, (9, 1)), np.array([8, 0, -9, 4], np.int64),
                   dict(gather_axis=0, quantize_axis=1, block_size=16, bits=2))
    data = rng.integers(0, 256, size=(6, 10))  # 40 values a row: blocks of 16, 16 and 8
    write_ort_case("u8_bits2_zero_points_odd_blocks", "u8", data, random_scales((6, 3), np.float32),
                   rng.integers(0, 256, (6, 1)), np.array([5, 1, 1, -2], np.int32),
                   dict(gather_axis=0, quantize_axis=-1, block_size=16, bits=2))
    data = rng.integers(0, 256, size=(5, 24))  # 96 values a row: blocks of 32
    write_ort_case("u8_bits2_f32", "u8", data, random_scales((5, 3), np.float32), None, np.array([4, 0, 2], np.int64),
                   dict(gather_axis=0, quantize_axis=1, block_size=32, bits=2))
    data = rng.integers(0, 256, size=(3, 2, 48))  # rank 3, 192 values a row: the default block size (128)
    write_ort_case("u8_bits2_rank3_f16_default_block", "u8", data, random_scales((3, 2, 2), np.float16), None,
                   np.array([[2], [0]], np.int64), dict(gather_axis=0, quantize_axis=2, bits=2))
    # every other encoding onnx.proto allows: the typed fields (4-bit values in int32_data, f16 scales as
    # int32_data bits, f32 scales in float_data, indices in int64_data / int32_data), and external data
    for encoding in ("typed", "external"):
        data = rng.integers(0, 16, size=(8, 64))
        write_ort_case(f"u4_zero_points_f32_{encoding}", "u4", data, random_scales((8, 4), np.float32),
                       rng.integers(0, 16, (8, 4)), np.array([7, 0, 3, 3, -1], np.int64),
                       dict(gather_axis=0, quantize_axis=1, block_size=16), encoding)
        data = rng.integers(-8, 8, size=(3, 6, 63))  # an odd count: the last byte holds one value
        write_ort_case(f"i4_rank3_f16_odd_{encoding}", "i4", data, random_scales((3, 6, 2), np.float16), None,
                       np.array([[5, 1], [0, -6]], np.int32), dict(gather_axis=1, quantize_axis=2, block_size=32),
                       encoding)
        data = rng.integers(0, 256, size=(10, 32))
        write_ort_case(f"u8_bits4_zero_points_{encoding}", "u8", data, random_scales((10, 4), np.float16),
                       rng.integers(0, 256, (10, 2)), np.array([9, 4, 0, -10], np.int64),
                       dict(gather_axis=0, quantize_axis=1, block_size=16, bits=4), encoding)
        data = rng.integers(0, 256, size=(6, 10))
        write_ort_case(f"u8_bits2_zero_points_{encoding}", "u8", data, random_scales((6, 3), np.float16),
                       rng.integers(0, 256, (6, 1)), np.array([5, 1, -6], np.int64),
                       dict(gather_axis=0, quantize_axis=1, block_size=16, bits=2), encoding)


def bf16_bits(f32):
    """f32 values (none NaN) rounded to nearest even as bf16, as uint16 bits."""
    bits = np.ascontiguousarray(f32, np.float32).view(np.uint32).astype(np.uint64)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def write_ggml_case(name, kind, packed, indices):
    from gguf.quants import dequantize

    expected = dequantize(packed, kind)[indices].astype(np.float32)
    assert np.isfinite(expected).all(), name
    directory = os.path.join(OUT, "ggml", name)
    os.makedirs(directory, exist_ok=True)
    np.save(os.path.join(directory, "rows.npy"), np.ascontiguousarray(packed, np.uint8))
    np.save(os.path.join(directory, "indices.npy"), indices)
    np.save(os.path.join(directory, "expected.npy"), expected)
    with np.errstate(over="ignore"):  # products beyond f16's range round to infinity, as they must
        np.save(os.path.join(directory, "expected_f16.npy"), expected.astype(np.float16))
    np.save(os.path.join(directory, "expected_bf16.npy"), bf16_bits(expected))


def ggml_cases():
    from gguf import GGMLQuantizationType as T
    from gguf.quants import quantize

    for name, kind, rows, values in (("q4_0", T.Q4_0, 12, 96), ("q8_0", T.Q8_0, 9, 160)):
        table = rng.standard_normal((rows, values)).astype(np.float32)
        packed = quantize(table, kind)  # uint8 [rows, bytes per row]
        write_ggml_case(name, kind, packed, np.array([rows - 1, 0, 3, 3, rows // 2], np.int64))

    # random blocks: every byte random, then each f16 field made finite (an exponent of all ones loses
    # its top bit), so that d and m take every finite value, zeros and subnormals included
    for name, kind, block_bytes, fields in (("q4_0", T.Q4_0, 18, 1), ("q4_1", T.Q4_1, 20, 2),
                                            ("q5_0", T.Q5_0, 22, 1), ("q5_1", T.Q5_1, 24, 2),
                                            ("q8_0", T.Q8_0, 34, 1), ("iq4_nl", T.IQ4_NL, 18, 1)):
        rows, blocks = 40, 5
        packed = rng.integers(0, 256, size=(rows, blocks, block_bytes), dtype=np.uint8)
        halves = np.ascontiguousarray(packed[:, :, : 2 * fields]).view(np.uint16)
        halves = np.where((halves & 0x7C00) == 0x7C00, halves & ~np.uint16(0x4000), halves).astype(np.uint16)
        packed[:, :, : 2 * fields] = halves.view(np.uint8)
        indices = rng.integers(0, rows, size=(3, 7)).astype(np.int32 if kind == T.Q5_1 else np.int64)
        write_ggml_case(f"random_{name}", kind, packed.reshape(rows, blocks * block_bytes), indices)

    # the 256-value super-blocks, the same way: random bytes, each f16 field (d, and dmin where there
    # is one, at the offsets ggml-common.h gives) made finite; a generator of their own, so that the
    # blocks above stay what they were
    super_rng = np.random.default_rng(20261127)
    for name, kind, block_bytes, offsets in (("q2_K", T.Q2_K, 84, (80, 82)), ("q3_K", T.Q3_K, 110, (108,)),
                                             ("q4_K", T.Q4_K, 144, (0, 2)), ("q5_K", T.Q5_K, 176, (0, 2)),
                                             ("q6_K", T.Q6_K, 210, (208,)), ("iq4_xs", T.IQ4_XS, 136, (0,))):
        rows, blocks = 24, 3
        packed = super_rng.integers(0, 256, size=(rows, blocks, block_bytes), dtype=np.uint8)
        for at in offsets:
            halves = np.ascontiguousarray(packed[:, :, at : at + 2]).view(np.uint16)
            halves = np.where((halves & 0x7C00) == 0x7C00, halves & ~np.uint16(0x4000), halves).astype(np.uint16)
            packed[:, :, at : at + 2] = halves.view(np.uint8)
        indices = super_rng.integers(0, rows, size=(3, 5)).astype(np.int32 if kind == T.Q3_K else np.int64)
        write_ggml_case(f"random_{name}", kind, packed.reshape(rows, blocks * block_bytes), indices)


def hostile_cases():
    """Models whose tensors lie about their encoding, under OUT/hostile/<case>, and hostile.json: the case's
    fragment of the message that must refuse it."""
    import json
    import shutil

    hostile = {}

    def lie(case, source, fragment, change):
        directory = os.path.join(OUT, "hostile", case)
        shutil.copytree(os.path.join(OUT, "ort", source), directory)
        model = onnx.load(os.path.join(directory, "model.onnx"), load_external_data=False)
        change(next(t for t in model.graph.initializer if t.name == "data"))
        with open(os.path.join(directory, "model.onnx"), "wb") as f:
            f.write(model.SerializeToString())
        hostile[case] = fragment

    def set_entry(key, value):
        def change(tensor):
            entries = [e for e in tensor.external_data if e.key != key]
            del tensor.external_data[:]
            for e in entries:
                tensor.external_data.add(key=e.key, value=e.value)
            tensor.external_data.add(key=key, value=value)
        return change

    external = "u4_zero_points_f32_external"
    lie("external_parent_folder", external, "'..' component", set_entry("location", "../weights.bin"))
    lie("external_absolute", external, "absolute external data location", set_entry("location", "/etc/hostname"))
    lie("external_missing_file", external, "is not a readable file", set_entry("location", "missing.bin"))
    lie("external_offset_past_end", external, "past the end", set_entry("offset", "1000000"))
    lie("external_length_past_end", external, "past the end", set_entry("length", "999999"))
    lie("external_offset_not_a_count", external, "not a decimal count", set_entry("offset", "12x"))
    lie("external_length_short", external, "does not hold the", set_entry("length", "255"))
    lie("external_without_location", external, "is not EXTERNAL",
        lambda t: t.__setattr__("data_location", TensorProto.DEFAULT))

    def int32_not_a_byte(tensor):
        tensor.int32_data[3] = 300
    lie("int32_data_not_a_byte", "u4_zero_points_f32_typed", "is not a byte", int32_not_a_byte)

    def int32_short(tensor):
        del tensor.int32_data[-1]
    lie("int32_data_short", "u4_zero_points_f32_typed", "does not hold the", int32_short)

    # models ONNX Runtime refuses for their bits or shapes: clgather refuses them too, naming why
    def change_model(case, source, fragment, change):
        directory = os.path.join(OUT, "hostile", case)
        shutil.copytree(os.path.join(OUT, "ort", source), directory)
        model = onnx.load(os.path.join(directory, "model.onnx"))
        change(model)
        onnx.save(model, os.path.join(directory, "model.onnx"))
        hostile[case] = fragment

    def set_bits(value):
        def change(model):
            node = model.graph.node[0]
            kept = [a for a in node.attribute if a.name != "bits"]
            del node.attribute[:]
            node.attribute.extend(kept + [helper.make_attribute("bits", value)])
        return change

    def replace_initializer(name, array):
        def change(model):
            tensor = next(t for t in model.graph.initializer if t.name == name)
            tensor.CopyFrom(numpy_helper.from_array(array, name))
        return change

    bits2 = "u8_bits2_zero_points_odd_blocks"  # data [6, 10] bytes: 40 values a row, 3 blocks of 16
    change_model("bits3_u8", bits2, "bits = 3: u8 data takes bits 2, 4 or 8", set_bits(3))
    change_model("bits2_u4", "u4_zero_points_f32", "bits = 2: u4 data has 4 bits", set_bits(2))
    change_model("bits2_zero_points_two_a_byte", bits2, "four 2-bit zero points a byte",
                 replace_initializer("zero_points", np.zeros((6, 2), np.uint8)))
    change_model("bits2_scales_counting_bytes", bits2, "scales.shape[1] = 1 but 3 expected",
                 replace_initializer("scales", np.ones((6, 1), np.float32)))
    with open(os.path.join(OUT, "hostile.json"), "w") as f:
        json.dump(hostile, f)


ort_cases()
ggml_cases()
hostile_cases()
print("oracle_cases.py: onnxruntime", ort.__version__, "onnx", onnx.__version__)
