"""Every failure is an exception of its own class under clgather.Error, naming the argument and the
value, with the library's status; the ABI check refuses a mismatched library loudly."""

import ctypes

import numpy as np
import pytest

import clgather
from clgather import _lib

DATA = np.arange(12, dtype=np.float32).reshape(3, 4)


def status_of(excinfo, name):
    assert isinstance(excinfo.value, clgather.Error)
    assert excinfo.value.status_name == name
    assert excinfo.value.status == getattr(_lib, name[len("CLG_") :])
    return str(excinfo.value)


@pytest.mark.parametrize("device_kind", ["opencl", "reference"])
def test_index_out_of_range_names_position_and_value(ctx, device_kind):
    call = clgather.gather if device_kind == "opencl" else clgather.reference.gather
    kwargs = {"ctx": ctx} if device_kind == "opencl" else {}
    with pytest.raises(clgather.IndexOutOfRangeError) as e:
        call(DATA, np.array([0, 2, 7], dtype=np.int64), 0, **kwargs)
    message = status_of(e, "CLG_ERR_INDEX_OUT_OF_RANGE")
    assert "indices[2]" in message and "7" in message
    assert isinstance(e.value, IndexError)


def test_index_out_of_range_every_operation(ctx):
    with pytest.raises(clgather.IndexOutOfRangeError) as e:
        clgather.gather_elements(DATA, np.array([[0, 5]], dtype=np.int64), axis=1, ctx=ctx)
    assert "5" in status_of(e, "CLG_ERR_INDEX_OUT_OF_RANGE")
    with pytest.raises(clgather.IndexOutOfRangeError) as e:
        clgather.gather_nd(DATA, np.array([[1, -9]], dtype=np.int64), ctx=ctx)
    assert "-9" in status_of(e, "CLG_ERR_INDEX_OUT_OF_RANGE")
    table = np.zeros((4, 8), dtype=np.uint8)
    with pytest.raises(clgather.IndexOutOfRangeError) as e:
        clgather.gather_quantized(table, np.array([4]), layout="ort-block", scales=np.ones((4, 1), np.float32),
                                  block_size=16, ctx=ctx)
    assert "4" in status_of(e, "CLG_ERR_INDEX_OUT_OF_RANGE")


def test_gather_tree_bad_parent_names_batch_time_beam(ctx):
    step_ids = np.zeros((2, 1, 2), dtype=np.int32)
    parent_ids = np.array([[[0, 0]], [[5, 0]]], dtype=np.int32)  # 5: no such beam
    with pytest.raises(clgather.IndexOutOfRangeError) as e:
        clgather.gather_tree(step_ids, parent_ids, [2], 0, ctx=ctx)
    message = status_of(e, "CLG_ERR_INVALID_PARENT")
    assert "5" in message and "batch" in message


@pytest.mark.parametrize(
    "call, status, words",
    [
        (lambda c: clgather.gather(DATA, np.array([0]), 2, ctx=c), "CLG_ERR_INVALID_AXIS", ["axis", "2"]),
        (lambda c: clgather.gather(DATA, np.array([0]), 0, batch_dims=1, op="onnx-13", ctx=c),
         "CLG_ERR_INVALID_BATCH_DIMS", ["batch_dims", "1"]),
        (lambda c: clgather.gather_elements(DATA, np.zeros((4, 1), np.int64), axis=1, ctx=c),
         "CLG_ERR_SHAPE_MISMATCH", ["indices", "4"]),
        (lambda c: clgather.gather_nd(DATA, np.zeros((2, 3), np.int64), ctx=c), "CLG_ERR_SHAPE_MISMATCH", ["3"]),
        (lambda c: clgather.gather_tree(np.zeros((2, 1, 2), np.int32), np.zeros((2, 1, 3), np.int32), [2], 0, ctx=c),
         "CLG_ERR_SHAPE_MISMATCH", ["parent_ids"]),
        (lambda c: clgather.gather(np.zeros((1,) * 9, np.int8), np.array([0]), ctx=c), "CLG_ERR_INVALID_RANK",
         ["data", "9"]),
    ],
)
def test_shape_errors(ctx, call, status, words):
    with pytest.raises(clgather.ShapeError) as e:
        call(ctx)
    message = status_of(e, status)
    for word in words:
        assert word in message


@pytest.mark.parametrize(
    "call, argument",
    [
        (lambda c: clgather.gather(DATA, np.array([0.0]), ctx=c), "indices"),
        (lambda c: clgather.gather(DATA, np.array([0], np.uint16), op="onnx-13", ctx=c), "indices"),
        (lambda c: clgather.gather(np.array(["a", "b"]), np.array([0]), ctx=c), "data"),
        (lambda c: clgather.gather_nd(DATA, np.zeros((1, 2), np.int32), ctx=c), "indices"),
        (lambda c: clgather.gather_tree(np.zeros((1, 1, 1), np.int32), np.zeros((1, 1, 1), np.int64), [1], 0, ctx=c),
         "parent_ids"),
        (lambda c: clgather.gather_quantized(DATA, np.array([0]), layout="ort-block", scales=DATA, ctx=c), "data"),
    ],
)
def test_dtype_errors_are_type_errors(ctx, call, argument):
    with pytest.raises(TypeError) as e:
        call(ctx)
    assert isinstance(e.value, clgather.Error)
    assert argument in str(e.value)


def test_unsupported_names_and_contexts(ctx):
    with pytest.raises(clgather.UnsupportedError) as e:
        clgather.gather(DATA, np.array([0]), op="onnx-12", ctx=ctx)
    assert "op='onnx-12'" in status_of(e, "CLG_ERR_INVALID_PRESET")
    with pytest.raises(clgather.UnsupportedError) as e:
        clgather.gather_quantized(DATA, np.array([0]), layout="q4_k", ctx=ctx)
    assert "layout='q4_k'" in status_of(e, "CLG_ERR_INVALID_LAYOUT")
    with pytest.raises(clgather.UnsupportedError) as e:
        clgather.gather_quantized(np.zeros((2, 18), np.uint8), np.array([0]), layout="ggml-q4_0",
                                  scales=np.ones((2, 1), np.float32), ctx=ctx)
    assert "scales" in status_of(e, "CLG_ERR_INPUT_NOT_ALLOWED")


def test_other_errors(ctx):
    with pytest.raises(clgather.Error) as e:
        clgather.gather(DATA, np.array([0]), oob="wrap", ctx=ctx)
    assert "oob='wrap'" in status_of(e, "CLG_ERR_INVALID_POLICY")
    with pytest.raises(clgather.Error) as e:
        clgather.Context(device="no such device anywhere")
    assert "no such device anywhere" in str(e.value)
    assert e.value.status_name in ("CLG_ERR_NO_DEVICE", "CLG_ERR_INVALID_DEVICE_SPEC")


def test_the_output_is_not_returned_on_failure(ctx):
    # the library writes nothing on failure; the binding raises before returning any array
    result = None
    with pytest.raises(clgather.IndexOutOfRangeError):
        result = clgather.gather(DATA, np.array([3]), 0, ctx=ctx)
    assert result is None


class FakeLibrary:
    def __init__(self, abi):
        self._abi = abi
        if abi is not None:
            self.clg_abi_version = ctypes.CFUNCTYPE(ctypes.c_int32)(lambda: abi)

    def __getattr__(self, name):
        raise AttributeError(name)


@pytest.mark.parametrize("abi", [None, _lib.ABI_VERSION + 1])
def test_abi_mismatch_fails_loudly(abi):
    with pytest.raises(ImportError) as e:
        _lib.check_abi(FakeLibrary(abi), "/some/libclgather.so")
    assert "/some/libclgather.so" in str(e.value)
    assert str(_lib.ABI_VERSION) in str(e.value)


def test_abi_match_passes():
    _lib.check_abi(FakeLibrary(_lib.ABI_VERSION), "/some/libclgather.so")
