"""The names outside code relies on, with the signatures the package promises."""

import inspect

import clgather
import clgather.onnx_backend


def parameters(function):
    return list(inspect.signature(function).parameters)


def test_public_names():
    for name in ("devices", "Context", "gather", "gather_elements", "gather_nd", "gather_tree", "gather_quantized",
                 "reference", "Error", "IndexOutOfRangeError", "ShapeError", "UnsupportedError"):
        assert hasattr(clgather, name), name
    for cls in (clgather.IndexOutOfRangeError, clgather.ShapeError, clgather.UnsupportedError):
        assert issubclass(cls, clgather.Error)
    for name in ("prepare", "run_model", "run_node", "supports_device", "is_compatible"):
        assert callable(getattr(clgather.onnx_backend, name)), name
    assert callable(clgather.Context.from_pyopencl)


def test_signatures():
    assert parameters(clgather.gather)[:8] == ["data", "indices", "axis", "batch_dims", "op", "oob", "ctx", "wait_for"]
    assert parameters(clgather.gather_elements)[:6] == ["data", "indices", "axis", "op", "oob", "ctx"]
    assert parameters(clgather.gather_nd)[:6] == ["data", "indices", "batch_dims", "op", "oob", "ctx"]
    assert parameters(clgather.gather_tree)[:5] == ["step_ids", "parent_ids", "max_seq_len", "end_token", "ctx"]
    quantized = inspect.signature(clgather.gather_quantized).parameters
    for name, default in [("scales", None), ("zero_points", None), ("bits", 4), ("block_size", None), ("axis", 0),
                          ("out_dtype", "float32"), ("ctx", None)]:
        assert quantized[name].default == default, name
    assert quantized["layout"].kind is inspect.Parameter.KEYWORD_ONLY
    assert inspect.signature(clgather.gather).parameters["op"].default == "onnx-13"
    context = inspect.signature(clgather.Context).parameters
    assert [(n, p.default) for n, p in context.items()] == [("device", None), ("verify", False),
                                                            ("defer_errors", False)]
    for name in ("gather", "gather_elements", "gather_nd", "gather_tree", "gather_quantized"):
        assert callable(getattr(clgather.reference, name)), name
