"""The six operations, over numpy arrays or pyopencl arrays, on a context or on the CPU reference."""

import ctypes
import operator

import numpy as np

from . import _lib
from ._core import (
    Call,
    address,
    clg_dtype,
    host_args,
    is_device_array,
    describe,
    device_queue,
    host_array,
    lib,
    name_code,
    numpy_dtype,
    oob_policy,
    output_shape,
    run_device,
    run_host,
    tensor_desc,
    to_device,
)
from ._errors import ArgumentError, DTypeError, ShapeError, raise_for_status

GATHER_OPS = ("onnx-1", "onnx-11", "onnx-13", "ov-gather-1", "ov-gather-7", "ov-gather-8")
GATHER_ELEMENTS_OPS = ("onnx-11", "onnx-13", "ov-gather-elements-6")
GATHER_ND_OPS = ("onnx-11", "onnx-12", "onnx-13", "ov-gather-nd-5", "ov-gather-nd-8")
# clg_quant_layout's names, in its order
LAYOUTS = (
    "ort-block",
    "ggml-q4_0",
    "ggml-q8_0",
    "ov-compressed",
    "ggml-q4_1",
    "ggml-q5_0",
    "ggml-q5_1",
    "ggml-iq4_nl",
    "ggml-q2_K",
    "ggml-q3_K",
    "ggml-q4_K",
    "ggml-q5_K",
    "ggml-q6_K",
    "ggml-iq4_xs",
    "fbgemm-8bit-rowwise",
    "fbgemm-4bit-rowwise",
)

_GATHER = Call("gather", "clgather.gather")
_GATHER_ELEMENTS = Call("gather_elements", "clgather.gather_elements")
_GATHER_ND = Call("gather_nd", "clgather.gather_nd")
_GATHER_TREE = Call("gather_tree", "clgather.gather_tree")
_GATHER_QUANTIZED = Call("gather_quantized", "clgather.gather_quantized")


def _dispatch(call, desc_ref, named_inputs, shape, dtype, ctx, wait_for, use_reference, out=None):
    """Run on the device when any input is a pyopencl array (the others are copied there), else on
    host memory; clgather.reference always runs on the host."""
    values = [value for _, value in named_inputs]
    queue = None if use_reference else device_queue(values)
    if queue is None:
        inputs = [v if v is None or type(v) is np.ndarray or not hasattr(v, "get") else v.get() for v in values]
        return run_host(call, desc_ref, host_args(inputs), shape, dtype, ctx, use_reference, out)
    inputs = [to_device(queue, value, name) for name, value in named_inputs]
    return run_device(call, desc_ref, inputs, shape, dtype, ctx, queue, wait_for, out)


def _run_pair(plan, data, indices, ctx, wait_for, use_reference, out):
    """_dispatch for the data-and-indices operations, with numpy arrays taken the short way: this
    path is most of a small call's cost in Python."""
    call, desc_ref, shape, _ = plan
    if type(data) is np.ndarray and type(indices) is np.ndarray:
        input_args = (address(data), data.nbytes, address(indices), indices.nbytes)
        return run_host(call, desc_ref, input_args, shape, data.dtype, ctx, use_reference, out)
    if (
        not use_reference
        and is_device_array(data)
        and is_device_array(indices)
        and data.flags.c_contiguous
        and indices.flags.c_contiguous
    ):
        return run_device(call, desc_ref, (data, indices), shape, data.dtype, ctx, data.queue, wait_for, out)
    named = (("data", data), ("indices", indices))
    return _dispatch(call, desc_ref, named, shape, data.dtype, ctx, wait_for, use_reference, out)


def _prepare(value, argument):
    """Host inputs as contiguous native arrays; device arrays as they are."""
    if type(value) is np.ndarray and value.flags.c_contiguous and value.dtype.isnative:
        return value
    if value is None or (hasattr(value, "base_data") and hasattr(value, "queue")):
        return value
    return host_array(value, argument)


# Validated descriptors and output shapes by call signature: a repeated call skips building and
# checking them again in Python (the library checks every call anyway). A key is the plan's builder
# and its arguments (operation, attributes, shapes and dtypes); a plan is (Call, the descriptor's
# byref, the output shape, what the byref needs kept alive). Entries are never changed once made; the
# cache is emptied when it is full.
_PLAN_LIMIT = 512
_plans = {}


def _plan(key):
    """The plan of a call signature not met yet (or not since the cache was emptied)."""
    plan = key[0](*key[1:])
    if len(_plans) >= _PLAN_LIMIT:
        _plans.clear()
    _plans[key] = plan
    return plan


def _gather_plan(op, oob, axis, batch_dims, data_shape, data_dtype, indices_shape, indices_dtype):
    desc = _lib.GatherDesc()
    desc.preset = name_code(lib.clg_preset_from_name, op, "op", GATHER_OPS, _lib.ERR_INVALID_PRESET)
    desc.data = tensor_desc(data_shape, clg_dtype(data_dtype, "data"), "data")
    desc.indices = tensor_desc(indices_shape, clg_dtype(indices_dtype, "indices"), "indices")
    axis_value = ctypes.c_int64(axis)
    if str(op).startswith("ov-"):  # OpenVINO takes the axis as a tensor input
        desc.axis_tensor = tensor_desc((), clg_dtype(np.dtype(np.int64), "axis"), "axis")
        desc.axis_value = ctypes.cast(ctypes.byref(axis_value), ctypes.c_void_p)
    else:
        desc.axis = axis
    desc.batch_dims = batch_dims
    desc.oob_policy = oob_policy(oob)
    shape = output_shape(lib.clg_gather_output_shape, desc, _GATHER.label)
    return _GATHER, ctypes.byref(desc), shape, (desc, axis_value)


def gather(data, indices, axis=0, *, batch_dims=0, op="onnx-13", oob=None, ctx=None, wait_for=None, out=None,
           _reference=False):
    """Gather slices of data along axis: out[b, o, n, i] = data[b, o, indices[b, n], i].

    op: "onnx-1", "onnx-11", "onnx-13" (out of range: IndexOutOfRangeError), "ov-gather-1",
    "ov-gather-7", "ov-gather-8" (out of range: zeros; the axis is passed to OpenVINO as its axis
    input); batch_dims for ov-gather-7/8. oob: None (the op's rule), "error", "zero" or "clamp".
    numpy arrays give a numpy array; pyopencl arrays (any input) give a pyopencl array on their
    queue, enqueued after wait_for and the inputs' events, with its event in out.events. out: an
    array of the result's shape and dtype to write instead of a new one (untouched on failure)."""
    data, indices = _prepare(data, "data"), _prepare(indices, "indices")
    key = (_gather_plan, op, oob, int(axis), int(batch_dims), data.shape, data.dtype, indices.shape, indices.dtype)
    return _run_pair(_plans.get(key) or _plan(key), data, indices, ctx, wait_for, _reference, out)


def _gather_elements_plan(op, oob, axis, data_shape, data_dtype, indices_shape, indices_dtype):
    desc = _lib.GatherElementsDesc()
    desc.preset = name_code(
        lib.clg_gather_elements_preset_from_name, op, "op", GATHER_ELEMENTS_OPS, _lib.ERR_INVALID_PRESET
    )
    desc.data = tensor_desc(data_shape, clg_dtype(data_dtype, "data"), "data")
    desc.indices = tensor_desc(indices_shape, clg_dtype(indices_dtype, "indices"), "indices")
    desc.axis = axis
    desc.oob_policy = oob_policy(oob)
    shape = output_shape(lib.clg_gather_elements_output_shape, desc, _GATHER_ELEMENTS.label)
    return _GATHER_ELEMENTS, ctypes.byref(desc), shape, desc


def gather_elements(data, indices, axis=0, *, op="onnx-13", oob=None, ctx=None, wait_for=None, out=None,
                    _reference=False):
    """GatherElements: out[p] = data[p with p[axis] replaced by indices[p]]; the indices' shape.
    op: "onnx-11", "onnx-13", "ov-gather-elements-6". The other arguments as for gather."""
    data, indices = _prepare(data, "data"), _prepare(indices, "indices")
    key = (_gather_elements_plan, op, oob, int(axis), data.shape, data.dtype, indices.shape, indices.dtype)
    return _run_pair(_plans.get(key) or _plan(key), data, indices, ctx, wait_for, _reference, out)


def _gather_nd_plan(op, oob, batch_dims, data_shape, data_dtype, indices_shape, indices_dtype):
    desc = _lib.GatherNdDesc()
    desc.preset = name_code(lib.clg_gather_nd_preset_from_name, op, "op", GATHER_ND_OPS, _lib.ERR_INVALID_PRESET)
    desc.data = tensor_desc(data_shape, clg_dtype(data_dtype, "data"), "data")
    desc.indices = tensor_desc(indices_shape, clg_dtype(indices_dtype, "indices"), "indices")
    desc.batch_dims = batch_dims
    desc.oob_policy = oob_policy(oob)
    shape = output_shape(lib.clg_gather_nd_output_shape, desc, _GATHER_ND.label)
    return _GATHER_ND, ctypes.byref(desc), shape, desc


def gather_nd(data, indices, *, batch_dims=0, op="onnx-13", oob=None, ctx=None, wait_for=None, out=None,
              _reference=False):
    """GatherND: each tuple of indices' last axis selects a slice of data, after batch_dims shared
    leading dimensions. op: "onnx-11", "onnx-12", "onnx-13", "ov-gather-nd-5", "ov-gather-nd-8".
    The other arguments as for gather."""
    data, indices = _prepare(data, "data"), _prepare(indices, "indices")
    key = (_gather_nd_plan, op, oob, int(batch_dims), data.shape, data.dtype, indices.shape, indices.dtype)
    return _run_pair(_plans.get(key) or _plan(key), data, indices, ctx, wait_for, _reference, out)


def _like(value, dtype, argument):
    """A plain Python number or list takes step_ids' dtype; arrays keep theirs."""
    if value is None or hasattr(value, "dtype"):
        return _prepare(value, argument)
    return host_array(np.asarray(value, dtype=dtype), argument)


def gather_tree(step_ids, parent_ids, max_seq_len, end_token, *, ctx=None, wait_for=None, out=None,
                _reference=False):
    """GatherTree-1 (beam-search backtracking): step_ids and parent_ids [T, B, W], max_seq_len [B],
    end_token a scalar, all of one numeric type (plain Python numbers and lists take step_ids').
    A followed parent id outside [0, W) is an IndexOutOfRangeError. The other arguments as for gather."""
    step_ids, parent_ids = _prepare(step_ids, "step_ids"), _prepare(parent_ids, "parent_ids")
    max_seq_len = _like(max_seq_len, step_ids.dtype, "max_seq_len")
    end_token = _like(end_token, step_ids.dtype, "end_token")
    desc = _lib.GatherTreeDesc()
    desc.step_ids = describe(step_ids, "step_ids")
    desc.parent_ids = describe(parent_ids, "parent_ids")
    desc.max_seq_len = describe(max_seq_len, "max_seq_len")
    desc.end_token = describe(end_token, "end_token")
    raise_for_status(lib.clg_gather_tree_sizes(ctypes.byref(desc), None), _GATHER_TREE.label)
    named = [("step_ids", step_ids), ("parent_ids", parent_ids), ("max_seq_len", max_seq_len), ("end_token", end_token)]
    shape = tuple(step_ids.shape)
    return _dispatch(_GATHER_TREE, ctypes.byref(desc), named, shape, step_ids.dtype, ctx, wait_for, _reference, out)


# ---- the dequantizing gather ----

_QUANT_TYPE = {name: lib.clg_quant_type_from_name(name.encode()) for name in ("u4", "i4", "u8", "i8")}


def _pack_nibbles(values):
    """ml_dtypes' uint4 / int4 (one value a byte) packed two a byte, the lower-indexed in the low nibble."""
    nibbles = values.reshape(-1).view(np.uint8) & 0x0F
    if nibbles.size % 2:
        nibbles = np.append(nibbles, np.uint8(0))
    return np.ascontiguousarray(nibbles[0::2] | (nibbles[1::2] << 4))


def _quantized(value, argument, layout, bits):
    """(the bytes to pass, their clg_quant_tensor_desc) of data or zero_points."""
    if value is None:
        return None, _lib.QuantTensorDesc()
    device = hasattr(value, "base_data") and hasattr(value, "queue")
    kind = np.dtype(value.dtype).name if hasattr(value, "dtype") else np.asarray(value).dtype.name
    shape = tuple(value.shape) if hasattr(value, "shape") else np.shape(value)
    if kind in ("uint4", "int4"):
        if device:
            raise DTypeError(f"{argument}: a device array of {kind}; pass its packed bytes as uint8 with bits=4")
        packed = _pack_nibbles(np.ascontiguousarray(np.asarray(value)))
        return packed, tensor_desc(shape, _QUANT_TYPE[kind[0] + "4"], argument, _lib.QuantTensorDesc)
    if kind not in ("uint8", "int8"):
        raise DTypeError(
            f"{argument}: dtype {kind} is not a quantized table's (uint8, int8, or ml_dtypes uint4 / int4)",
            _lib.ERR_INVALID_DTYPE,
        )
    array = value if device else host_array(value, argument)
    letter = "u" if kind == "uint8" else "i"
    if layout == "ov-compressed" and bits == 4 and len(shape) > 0:
        # bytes of two 4-bit values each: the logical last extent is twice the bytes'
        shape = shape[:-1] + (2 * shape[-1],)
        return array, tensor_desc(shape, _QUANT_TYPE[letter + "4"], argument, _lib.QuantTensorDesc)
    return array, tensor_desc(shape, _QUANT_TYPE[letter + "8"], argument, _lib.QuantTensorDesc)


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
    ctx=None,
    wait_for=None,
    out=None,
    _reference=False,
):
    """The dequantizing gather: rows of a 2-, 4- or 8-bit table, dequantized to out_dtype ("float32",
    "float16", "bfloat16", or None for the scales' type).

    layout "ort-block" (ONNX Runtime's GatherBlockQuantized): data uint8 (bits 2: four values a byte,
    the first in the low two bits; bits 4: two values a byte; bits 8: one; the last axis holds bytes,
    and zero points for bits 2 / 4 are packed four / two a byte along it) or ml_dtypes uint4 / int4
    values; scales per block_size values (None: 128) along
    quantize_axis (None: the last axis); zero_points optional, of data's type. "ggml-q4_0",
    "ggml-q4_1", "ggml-q5_0", "ggml-q5_1", "ggml-q8_0", "ggml-iq4_nl": uint8 rows of whole 32-value
    blocks as ggml stores them, no scales or zero points; "ggml-q2_K", "ggml-q3_K", "ggml-q4_K",
    "ggml-q5_K", "ggml-q6_K", "ggml-iq4_xs" the same with 256-value super-blocks.
    "fbgemm-8bit-rowwise", "fbgemm-4bit-rowwise": uint8 rows as FBGEMM (PyTorch's
    embedding_bag_byte_prepack / embedding_bag_4bit_prepack) stores them, each row its values then its
    scale and bias (f32 / f16): D = bytes - 8, or 2 * (bytes - 4) values a row; no scales or zero
    points. "ov-compressed": uint8 / int8
    data (bits 8: one value a byte; bits 4: two, so the last axis holds twice its extent in values)
    or uint4 / int4 values, scales per group of the last axis. axis: the axis indices select along.
    The other arguments as for gather."""
    desc = _lib.GatherQuantizedDesc()
    desc.layout = name_code(lib.clg_quant_layout_from_name, layout, "layout", LAYOUTS, _lib.ERR_INVALID_LAYOUT)
    data_bytes, desc.data = _quantized(data, "data", layout, bits)
    zero_point_bytes, desc.zero_points = _quantized(zero_points, "zero_points", layout, bits)
    indices = _prepare(indices, "indices")
    desc.indices = describe(indices, "indices")
    scales = _prepare(scales, "scales")
    if scales is not None:
        desc.scales = describe(scales, "scales")
    desc.bits = int(bits) if layout == "ort-block" else 0
    desc.block_size = 0 if block_size is None else int(block_size)
    desc.gather_axis = int(axis)
    desc.quantize_axis = -1 if quantize_axis is None else int(quantize_axis)
    desc.output_type = 0 if out_dtype is None else clg_dtype(numpy_dtype(out_dtype), "out_dtype")
    desc.oob_policy = oob_policy(oob)
    out_type = ctypes.c_int()
    rank = ctypes.c_int32()
    shape = _lib.shape_out()
    status = lib.clg_gather_quantized_output_shape(ctypes.byref(desc), ctypes.byref(rank), shape, ctypes.byref(out_type))
    raise_for_status(status, _GATHER_QUANTIZED.label)
    dtype = numpy_dtype({"f32": "float32", "f16": "float16", "bf16": "bfloat16"}[lib.clg_dtype_name(out_type.value).decode()])
    named = [
        ("data", data_bytes),
        ("indices", indices),
        ("scales", scales),
        ("zero_points", zero_point_bytes),
    ]
    out_shape = tuple(shape[i] for i in range(rank.value))
    return _dispatch(_GATHER_QUANTIZED, ctypes.byref(desc), named, out_shape, dtype, ctx, wait_for, _reference, out)


# ---- EmbeddingBag ----

# clg_embedding_bag_preset's names, in its order
EMBEDDING_BAG_OPS = (
    "ov-embedding-bag-offsets-3",
    "ov-embedding-bag-offsets-15",
    "ov-embedding-bag-packed-3",
    "ov-embedding-bag-packed-15",
    "ov-embedding-segments-sum-3",
    "torch-embedding-bag",
)
_EMBEDDING_BAG = Call("embedding_bag", "clgather.embedding_bag")
_INT64_RANGE = (-(2**63), 2**63 - 1)


def _int64(value, argument):
    """A Python integer for an int64 descriptor field; ArgumentError naming the argument otherwise
    (ctypes would wrap a value outside int64 silently)."""
    try:
        number = operator.index(value)
    except TypeError:
        raise ArgumentError(f"{argument}={value!r} is not an integer", _lib.ERR_NULL_ARGUMENT) from None
    if not _INT64_RANGE[0] <= number <= _INT64_RANGE[1]:
        raise ArgumentError(f"{argument}={number} does not fit in int64", _lib.ERR_INVALID_DIMENSION)
    return number


_EMBEDDING_BAG_QUANTIZED = Call("embedding_bag_quantized", "clgather.embedding_bag")
_EMBEDDING_BAG_TABLES = Call("embedding_bag_tables", "clgather.embedding_bag_tables")
_QUANT_OPTIONS = ("scales", "zero_points", "bits", "block_size", "out_dtype")


def _bag_mode(mode):
    code = lib.clg_bag_mode_from_name(str(mode).encode())
    if code == _lib.BAG_MODE_COUNT:
        raise ArgumentError(f"mode={mode!r} is not one of sum, mean, max", _lib.ERR_INVALID_MODE)
    return code


def _output_type_name(code):
    return {"f32": "float32", "f16": "float16", "bf16": "bfloat16"}[lib.clg_dtype_name(code).decode()]


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
    ctx=None,
    wait_for=None,
    out=None,
    _reference=False,
):
    """EmbeddingBag: gather rows of table [N, ...] and reduce each bag of them to one output row;
    the result is [B] + table.shape[1:] of the table's dtype (float32, float16, ml_dtypes bfloat16 or
    float64), accumulated in bag order in float32 (float64 for float64 tables) and rounded once.

    The bags: offsets [B] (bag b is indices[offsets[b]:offsets[b + 1]], the last running to the end;
    [B + 1] with include_last_offset, torch only), or segment_ids [len(indices)] (sorted) with
    num_segments = B, or neither: packed indices [B, K], bag b being row b. Indices, offsets and
    segment ids: any integer dtype, each its own.

    op: "ov-embedding-bag-offsets-3" (offsets, sum), "ov-embedding-bag-offsets-15" (offsets, sum or
    mean), "ov-embedding-bag-packed-3" (packed, sum), "ov-embedding-bag-packed-15" (packed, sum or
    mean), "ov-embedding-segments-sum-3" (segments, sum), "torch-embedding-bag" (offsets or packed;
    sum, mean or max). mode: "sum", "mean" or "max". per_sample_weights: the indices' shape and the
    table's dtype, sum only. default_index (OpenVINO presets): the row an empty bag takes (negative:
    zeros). padding_idx (torch): entries equal to it (negative: N + it) add nothing and are not counted.
    An index outside [0, N), a bad offset or a bad segment id raises IndexOutOfRangeError naming its
    position and value.

    A quantized table: layout (one of gather_quantized's) with table, scales, zero_points, bits and
    block_size as gather_quantized takes data and those (bits None: 4; the rows are the table's first
    axis, ort-block's blocks run along its last); each value is dequantized to float32 as
    gather_quantized computes it, the bags reduced in float32 and rounded once to out_dtype ("float32",
    "float16", "bfloat16"; None: float32). per_sample_weights are then float32.

    The device is the context's: ctx=clgather.Context(device=SPEC) as the CLI's --device. The other
    arguments as for gather."""
    if offsets is not None and segment_ids is not None:
        raise ArgumentError("offsets and segment_ids exclude each other: give one, or neither for packed indices")
    if (segment_ids is None) != (num_segments is None):
        raise ArgumentError(
            "segment_ids and num_segments go together: "
            + ("num_segments is missing" if num_segments is None else "segment_ids is missing"),
            _lib.ERR_INPUT_MISSING,
        )
    if layout is None:
        given = [name for name, value in zip(_QUANT_OPTIONS, (scales, zero_points, bits, block_size, out_dtype))
                 if value is not None]
        if given:
            raise ArgumentError(f"{given[0]} describes a quantized table: it needs layout", _lib.ERR_INPUT_NOT_ALLOWED)
        quantized = None
        desc = bag = _lib.EmbeddingBagDesc()
    else:
        quantized = desc = _lib.EmbeddingBagQuantizedDesc()
        bag = desc.bag
    bag.preset = name_code(
        lib.clg_embedding_bag_preset_from_name, op, "op", EMBEDDING_BAG_OPS, _lib.ERR_INVALID_PRESET
    )
    bag.mode = _bag_mode(mode)
    indices = _prepare(indices, "indices")
    if quantized is None:
        table = _prepare(table, "table")
        bag.table = describe(table, "table")
        weights_dtype = table.dtype
    else:
        bits = 4 if bits is None else bits
        quantized.layout = name_code(
            lib.clg_quant_layout_from_name, layout, "layout", LAYOUTS, _lib.ERR_INVALID_LAYOUT
        )
        table, quantized.data = _quantized(table, "table", layout, bits)
        zero_points, quantized.zero_points = _quantized(zero_points, "zero_points", layout, bits)
        scales = _prepare(scales, "scales")
        if scales is not None:
            quantized.scales = describe(scales, "scales")
        quantized.bits = _int64(bits, "bits") if layout == "ort-block" else 0
        quantized.block_size = 0 if block_size is None else _int64(block_size, "block_size")
        quantized.output_type = 0 if out_dtype is None else clg_dtype(numpy_dtype(out_dtype), "out_dtype")
        weights_dtype = np.dtype(np.float32)
    bag.indices = describe(indices, "indices")
    bags = None
    if offsets is not None:
        bag.bag_form = _lib.BAG_OFFSETS
        bags = _prepare(offsets, "offsets")
        bag.offsets = describe(bags, "offsets")
    elif segment_ids is not None:
        bag.bag_form = _lib.BAG_SEGMENTS
        bags = _prepare(segment_ids, "segment_ids")
        bag.segment_ids = describe(bags, "segment_ids")
        bag.num_segments = _int64(num_segments, "num_segments")
    else:
        bag.bag_form = _lib.BAG_PACKED
    weights = None
    if per_sample_weights is not None:
        weights = _like(per_sample_weights, weights_dtype, "per_sample_weights")
        bag.per_sample_weights = describe(weights, "per_sample_weights")
    bag.include_last_offset = 1 if include_last_offset else 0
    if default_index is not None:
        bag.has_default_index = 1
        bag.default_index = _int64(default_index, "default_index")
    if padding_idx is not None:
        bag.has_padding_idx = 1
        bag.padding_idx = _int64(padding_idx, "padding_idx")
    bags_name = "offsets" if offsets is not None else "segment_ids"
    if quantized is None:
        shape = output_shape(lib.clg_embedding_bag_output_shape, desc, _EMBEDDING_BAG.label)
        named = [("table", table), ("indices", indices), (bags_name, bags), ("per_sample_weights", weights)]
        return _dispatch(_EMBEDDING_BAG, ctypes.byref(desc), named, shape, table.dtype, ctx, wait_for, _reference,
                         out)
    out_type = ctypes.c_int()
    rank = ctypes.c_int32()
    shape = _lib.shape_out()
    status = lib.clg_embedding_bag_quantized_output_shape(
        ctypes.byref(desc), ctypes.byref(rank), shape, ctypes.byref(out_type)
    )
    raise_for_status(status, _EMBEDDING_BAG_QUANTIZED.label)
    dtype = numpy_dtype(_output_type_name(out_type.value))
    named = [("table", table), ("scales", scales), ("zero_points", zero_points), ("indices", indices),
             (bags_name, bags), ("per_sample_weights", weights)]
    out_shape = tuple(shape[i] for i in range(rank.value))
    return _dispatch(_EMBEDDING_BAG_QUANTIZED, ctypes.byref(desc), named, out_shape, dtype, ctx, wait_for, _reference,
                     out)


def _quantized_width(array, layout, argument):
    """D of a quantized table given as uint8 rows [N, bytes]: the values the library finds in a row (0 for a
    layout whose scales are a tensor of their own: the call refuses it, naming why)."""
    if np.dtype(array.dtype) != np.uint8 or len(array.shape) != 2:
        raise DTypeError(f"{argument}: a {layout} table is uint8 rows [rows, bytes a row], not {array.dtype} "
                         f"{tuple(array.shape)}", _lib.ERR_INVALID_DTYPE)
    desc = _lib.GatherQuantizedDesc()
    desc.layout = name_code(lib.clg_quant_layout_from_name, layout, argument, LAYOUTS, _lib.ERR_INVALID_LAYOUT)
    desc.data = tensor_desc(tuple(array.shape), _QUANT_TYPE["u8"], argument, _lib.QuantTensorDesc)
    desc.indices = tensor_desc((1,), clg_dtype(np.dtype(np.int64), "indices"), "indices")
    rank, shape = ctypes.c_int32(), _lib.shape_out()
    out_type = ctypes.c_int()
    if lib.clg_gather_quantized_output_shape(ctypes.byref(desc), ctypes.byref(rank), shape, ctypes.byref(out_type)):
        return 0
    return int(shape[1])


def _table_kinds(layouts, count):
    """Each table's quantized layout, or None for a float table (layouts None, or an entry None or "plain")."""
    return tuple(None if layouts is None or layouts[t] in (None, "plain") else layouts[t] for t in range(count))


def _packed_tables(tables, queue, layouts=None):
    """The tables as one buffer (host, or on queue's device), their clg_embedding_bag_table entries, and the
    plain tables' one dtype (None where they mix dtypes or a table is quantized): each table's rows at a
    byte offset after the one before it (a multiple of 8 where the tables are packed as bytes)."""
    if isinstance(tables, (str, bytes)) or not hasattr(tables, "__len__") or hasattr(tables, "shape"):
        raise ArgumentError("tables: not a list of 2-D arrays (one per table)")
    if len(tables) == 0:
        raise ArgumentError("tables: an empty list; give one 2-D array per table", _lib.ERR_INVALID_DIMENSION)
    if layouts is not None and (isinstance(layouts, str) or len(layouts) != len(tables)):
        raise ArgumentError(f"layouts: one entry per table ({len(tables)}), None or \"plain\" for a float table",
                            _lib.ERR_SHAPE_MISMATCH)
    kinds = _table_kinds(layouts, len(tables))
    prepared = []
    for t, value in enumerate(tables):
        argument = f"tables[{t}]"
        if queue is not None:
            array = to_device(queue, _prepare(value, argument), argument)
        else:  # the reference reads device arrays back
            array = value.get() if is_device_array(value) else host_array(value, argument)
        if len(array.shape) != 2:
            raise ShapeError(f"{argument}: shape {tuple(array.shape)} is not 2-D [rows, width]",
                             _lib.ERR_INVALID_RANK)
        prepared.append(array)
    plain = [array.dtype for array, kind in zip(prepared, kinds) if kind is None]
    dtype = plain[0] if len(plain) == len(prepared) and all(d == plain[0] for d in plain) else None
    entries = (_lib.EmbeddingBagTable * len(prepared))()
    if dtype is not None:  # one float dtype: the tables as one array of it
        code = clg_dtype(dtype, "tables[0]")
        offset = 0
        for entry, array in zip(entries, prepared):
            entry.type = code
            entry.rows, entry.width = (int(n) for n in array.shape)
            entry.byte_offset = offset
            offset += array.size * dtype.itemsize
        pieces = [array.reshape(-1) for array in prepared]
    else:  # bytes, each table at a multiple of 8
        offset, pieces = 0, []
        for t, (entry, array, kind) in enumerate(zip(entries, prepared, kinds)):
            argument = f"tables[{t}]"
            entry.rows = int(array.shape[0])
            if kind is None:
                entry.type = clg_dtype(array.dtype, argument)
                entry.width = int(array.shape[1])
            else:
                entry.quant_layout = name_code(lib.clg_quant_layout_from_name, kind, f"layouts[{t}]", LAYOUTS,
                                               _lib.ERR_INVALID_LAYOUT)
                entry.width = _quantized_width(array, kind, argument)
            pad = -offset % 8
            if pad:
                pieces.append(_zero_bytes(pad, queue))
            offset += pad
            entry.byte_offset = offset
            pieces.append(array.reshape(-1).view(np.uint8))
            offset += array.size * np.dtype(array.dtype).itemsize
    if queue is None:
        buffer = np.concatenate(pieces)
    else:
        buffer = _cl_concatenate(pieces, queue)
    return buffer, entries, dtype


def _zero_bytes(count, queue):
    if queue is None:
        return np.zeros(count, np.uint8)
    import pyopencl.array as cl_array

    return cl_array.zeros(queue, count, np.uint8)


def _cl_concatenate(arrays, queue):
    import pyopencl.array as cl_array

    return cl_array.concatenate(arrays, queue=queue)


class PackedTables:
    """Tables packed once for embedding_bag_tables, as FBGEMM's TBE module holds its weights: the table-batched
    kernel reads every table from one buffer, and a list of tables is packed into one on every call (a copy
    of every table). PackedTables(tables, layouts=None, queue=None) packs them once, each table's rows after
    the one before it (bytes: at a multiple of 8); pass it as embedding_bag_tables' tables, without layouts
    (it carries its own). On the host (numpy) unless queue is given or a table is a pyopencl array: then in
    one pyopencl array on that queue's device. A copy: later writes to the source tables are not seen.
    Attributes: buffer (the packed array), layouts (a tuple, None for a float table), shapes (each table's
    [N_t, D_t or bytes a row]), dtype (the tables' one float dtype, or None where the call converts)."""

    def __init__(self, tables, layouts=None, queue=None):
        if queue is None and isinstance(tables, (list, tuple)):
            queue = device_queue(list(tables))
        self.buffer, self._entries, self.dtype = _packed_tables(tables, queue, layouts)
        self.layouts = _table_kinds(layouts, len(tables))
        self.shapes = tuple(tuple(int(n) for n in t.shape) for t in tables)

    def __len__(self):
        return len(self.shapes)

    def __repr__(self):
        where = "host" if type(self.buffer) is np.ndarray else "device"
        return f"PackedTables({len(self)} tables, {self.buffer.nbytes} bytes on the {where}, dtype {self.dtype})"


def embedding_bag_tables(tables, indices, offsets, *, mode="sum", per_sample_weights=None, include_last_offset=False,
                         layouts=None, out_dtype=None, ctx=None, wait_for=None, out=None, _reference=False):
    """Table-batched EmbeddingBag (FBGEMM's TBE forward): T tables in one launch. tables: a list of 2-D
    arrays [N_t, D_t] (numpy arrays, or pyopencl arrays, which are copied into one device buffer: the
    kernel reads every table from one buffer). indices [L], any integer dtype; offsets table-major, bag
    (t, b) being entry t * B + b: [T * B] ([T * B + 1] with include_last_offset), offsets[0] 0. The
    result is [B, sum of D_t], table t's bags in its own columns, each bag reduced as embedding_bag's
    torch-embedding-bag offsets form does (an empty bag: zeros).

    layouts (FBGEMM's inference TBE, its tables of mixed types): None, or one entry a table, None or
    "plain" for a float table, else a layout whose rows hold their own scales (the ggml ones,
    "fbgemm-8bit-rowwise", "fbgemm-4bit-rowwise"), the table then uint8 rows [N_t, bytes a row] as
    gather_quantized takes them. out_dtype: "float32", "float16" or "bfloat16". Tables of one float dtype
    without out_dtype (or with theirs) give that dtype, per_sample_weights [L] of it, sum only; otherwise
    (a quantized table, float tables of several dtypes, another out_dtype) every value is widened or
    dequantized to float32, the bags reduced in float32 and rounded once to out_dtype (None: float32),
    per_sample_weights float32. An index outside its table's [0, N_t) or a bad offset raises
    IndexOutOfRangeError naming its position, table and bag. tables may be a PackedTables instead (packed
    once, layouts with it): a list is packed into one buffer on every call. The other arguments as for
    gather."""
    indices, offsets = _prepare(indices, "indices"), _prepare(offsets, "offsets")
    packed = isinstance(tables, PackedTables)
    if packed and layouts is not None:
        raise ArgumentError("layouts: given with a PackedTables, which carries the layouts it was packed with",
                            _lib.ERR_INVALID_LAYOUT)
    queue = None
    if not _reference:
        candidates = [indices, offsets, per_sample_weights]
        if packed:
            candidates.append(tables.buffer)
        elif isinstance(tables, (list, tuple)):
            candidates += list(tables)
        queue = device_queue(candidates)
    if packed:
        buffer, entries, dtype = tables.buffer, tables._entries, tables.dtype
    else:
        buffer, entries, dtype = _packed_tables(tables, queue, layouts)
    desc = _lib.EmbeddingBagTablesDesc()
    desc.mode = _bag_mode(mode)
    desc.num_tables = len(entries)
    desc.tables = entries
    desc.indices = describe(indices, "indices")
    desc.offsets = describe(offsets, "offsets")
    wanted = None if out_dtype is None else numpy_dtype(out_dtype)
    if wanted is not None:
        desc.output_type = clg_dtype(wanted, "out_dtype")
    converts = dtype is None or (wanted is not None and wanted != dtype)  # then the weights are float32
    weights = None
    if per_sample_weights is not None:
        weights = _like(per_sample_weights, np.dtype(np.float32) if converts else dtype, "per_sample_weights")
        desc.per_sample_weights = describe(weights, "per_sample_weights")
    desc.include_last_offset = 1 if include_last_offset else 0
    shape = output_shape(lib.clg_embedding_bag_tables_output_shape, desc, _EMBEDDING_BAG_TABLES.label)
    code = ctypes.c_int()
    raise_for_status(lib.clg_embedding_bag_tables_output_type(ctypes.byref(desc), ctypes.byref(code)),
                     _EMBEDDING_BAG_TABLES.label)
    names = {"f32": "float32", "f16": "float16", "bf16": "bfloat16", "f64": "float64"}
    out_type = numpy_dtype(names[lib.clg_dtype_name(code.value).decode()])
    named = [("tables", buffer), ("indices", indices), ("offsets", offsets), ("per_sample_weights", weights)]
    return _dispatch(_EMBEDDING_BAG_TABLES, ctypes.byref(desc), named, shape, out_type, ctx, wait_for, _reference, out)
