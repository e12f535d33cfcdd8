"""pyopencl arrays in, a pyopencl array out on the same queue: every operation bit for bit against the
CPU reference, the wait list honoured, the call's event on the output, offsets into shared buffers."""

import numpy as np
import pytest
from conftest import random_array, same_bits

import clgather



def device(queue, array):
    import pyopencl.array as cl_array

    return cl_array.to_device(queue, np.ascontiguousarray(array))


def check_device_result(queue, out, expected):
    import pyopencl.array as cl_array

    assert isinstance(out, cl_array.Array)
    assert out.queue is queue
    assert out.events, "the call's event is added to the output's events"
    assert same_bits(out.get(), expected)


@pytest.mark.parametrize("op", ["onnx-13", "ov-gather-8"])
def test_gather(queue, ctx, op):
    rng = np.random.default_rng(41)
    data = random_array(rng, (6, 5), "float32")
    indices = rng.integers(-5, 5, size=(3, 2)).astype(np.int64)
    axis = 1 if op == "onnx-13" else 0
    if op == "ov-gather-8":
        indices[0, 0] = 7  # outside axis 0's 6 rows: a zero row under OpenVINO's rule
    out = clgather.gather(device(queue, data), device(queue, indices), axis, op=op)
    check_device_result(queue, out, clgather.reference.gather(data, indices, axis, op=op))


def test_gather_elements(queue):
    rng = np.random.default_rng(43)
    data = random_array(rng, (4, 6), "uint16")
    indices = rng.integers(-6, 6, size=(3, 9)).astype(np.int32)
    out = clgather.gather_elements(device(queue, data), device(queue, indices), axis=1)
    check_device_result(queue, out, clgather.reference.gather_elements(data, indices, axis=1))


def test_gather_nd(queue):
    rng = np.random.default_rng(47)
    data = random_array(rng, (2, 4, 3), "complex64")
    indices = rng.integers(-4, 4, size=(2, 5, 1)).astype(np.int64)
    out = clgather.gather_nd(device(queue, data), device(queue, indices), batch_dims=1)
    check_device_result(queue, out, clgather.reference.gather_nd(data, indices, batch_dims=1))


def test_gather_tree_with_host_scalars(queue):
    rng = np.random.default_rng(53)
    step_ids = rng.integers(0, 9, size=(5, 2, 3)).astype(np.int32)
    parent_ids = rng.integers(0, 3, size=(5, 2, 3)).astype(np.int32)
    max_seq_len = np.array([5, 3], dtype=np.int32)
    # step_ids on the device; the rest host values, copied to the queue's device by the call
    out = clgather.gather_tree(device(queue, step_ids), device(queue, parent_ids), max_seq_len, -1)
    check_device_result(queue, out, clgather.reference.gather_tree(step_ids, parent_ids, max_seq_len, -1))


def test_gather_quantized(queue):
    rng = np.random.default_rng(59)
    data = rng.integers(0, 256, size=(8, 16), dtype=np.uint8)
    scales = rng.standard_normal((8, 2)).astype(np.float32)
    indices = np.array([7, 0, -1], dtype=np.int64)
    kwargs = dict(layout="ort-block", bits=4, block_size=16, quantize_axis=1)
    out = clgather.gather_quantized(device(queue, data), device(queue, indices), scales=device(queue, scales), **kwargs)
    check_device_result(queue, out, clgather.reference.gather_quantized(data, indices, scales=scales, **kwargs))


def test_offsets_into_one_buffer(queue):
    """Views at an offset into larger device arrays (base_data + offset), not copies."""
    rng = np.random.default_rng(61)
    whole = random_array(rng, (10, 4), "int8")
    whole_indices = np.array([9, 9, 2, 0, 1, 3], dtype=np.int64)
    data_view = device(queue, whole)[3:]
    indices_view = device(queue, whole_indices)[2:]
    assert data_view.offset > 0 and indices_view.offset > 0
    out = clgather.gather(data_view, indices_view, 0)
    check_device_result(queue, out, clgather.reference.gather(whole[3:], whole_indices[2:], 0))


def test_wait_for_is_honoured(queue):
    """A zero-policy gather only enqueues: it waits for the user event on the device, so its output
    event stays pending until the event is set."""
    import pyopencl as cl

    data = np.arange(16, dtype=np.float32).reshape(4, 4)
    indices = np.array([3, 1], dtype=np.int32)
    gate = cl.UserEvent(queue.context)
    d, i = device(queue, data), device(queue, indices)
    queue.finish()
    out = clgather.gather(d, i, 0, op="ov-gather-8", wait_for=[gate])
    event = out.events[-1]
    assert event.command_execution_status != cl.command_execution_status.COMPLETE
    gate.set_status(cl.command_execution_status.COMPLETE)
    event.wait()
    check_device_result(queue, out, data[[3, 1]])


def test_each_call_waits_for_its_own_events(queue):
    """Calls alike but for their wait lists: each waits for its own (the binding reuses the last
    wait list it made only for the same events)."""
    import pyopencl as cl

    data, indices = device(queue, np.arange(8, dtype=np.int32)), device(queue, np.array([7, 2], dtype=np.int32))
    queue.finish()
    for _ in range(2):
        gate = cl.UserEvent(queue.context)
        out = clgather.gather(data, indices, op="ov-gather-8", wait_for=[gate])
        again = clgather.gather(data, indices, op="ov-gather-8", wait_for=[gate])
        for result in (out, again):
            assert result.events[-1].command_execution_status != cl.command_execution_status.COMPLETE
        gate.set_status(cl.command_execution_status.COMPLETE)
        for result in (out, again):
            check_device_result(queue, result, np.array([7, 2], dtype=np.int32))


def test_explicit_context_from_pyopencl_and_defer_errors(queue):
    ctx = clgather.Context.from_pyopencl(queue, defer_errors=True)
    data = np.arange(8, dtype=np.int64)
    d = device(queue, data)
    out = clgather.gather(d, device(queue, np.array([7, 0])), ctx=ctx)
    ctx.check_deferred(out.events[-1])
    check_device_result(queue, out, np.array([7, 0], dtype=np.int64))
    out = clgather.gather(d, device(queue, np.array([8])), ctx=ctx)  # returns at once; fails later
    with pytest.raises(clgather.IndexOutOfRangeError) as e:
        ctx.check_deferred(out.events[-1])
    assert "8" in str(e.value)


def test_device_errors_leave_the_caller_output_alone(queue):
    data = device(queue, np.arange(4, dtype=np.float32))
    with pytest.raises(clgather.IndexOutOfRangeError):
        clgather.gather(data, device(queue, np.array([4])))
    with pytest.raises(clgather.UnsupportedError) as e:
        clgather.gather(data, device(queue, np.array([0])), ctx=clgather.Context(device="cpu"))
    assert e.value.status_name == "CLG_ERR_NO_OPENCL"


def test_reference_reads_device_arrays_back(queue):
    data = np.arange(6, dtype=np.uint8)
    out = clgather.reference.gather(device(queue, data), device(queue, np.array([5, 0])))
    assert isinstance(out, np.ndarray) and same_bits(out, np.array([5, 0], dtype=np.uint8))


def test_out_argument_on_the_device(queue):
    import pyopencl.array as cl_array

    data = np.arange(24, dtype=np.int16).reshape(6, 4)
    out = cl_array.empty(queue, (2, 4), np.int16)
    out.fill(np.int16(-23131))  # 0xA5A5: poisoned
    result = clgather.gather(device(queue, data), device(queue, np.array([5, 0])), out=out)
    assert result is out
    check_device_result(queue, out, data[[5, 0]])
    out.fill(np.int16(-23131))
    with pytest.raises(clgather.IndexOutOfRangeError):
        clgather.gather(device(queue, data), device(queue, np.array([6, 0])), out=out)
    assert np.all(out.get() == -23131), "a failed call left the output untouched"
    with pytest.raises(clgather.ShapeError):
        clgather.gather(device(queue, data), device(queue, np.array([1])), out=out)


def test_outputs_match_pyopencl_own_arrays(queue):
    """The binding makes its outputs as copies of an array cl_array.empty made: they must be what
    cl_array.empty would have made, each with its own buffer and events."""
    import pyopencl as cl
    import pyopencl.array as cl_array

    from clgather import _core

    for shape in [(3, 5), (), (0, 4), (2, 1, 3)]:
        made = _core.new_device_array(queue, shape, np.dtype(np.float32))
        again = _core.new_device_array(queue, shape, np.dtype(np.float32))
        own = cl_array.empty(queue, shape, np.float32)
        assert _core._array_templates[(id(queue), shape, np.dtype(np.float32))] is not None, "the short way was taken"
        assert type(made) is cl_array.Array and vars(made).keys() == vars(own).keys()
        assert (made.shape, made.strides, made.size, made.nbytes, made.offset, made.flags.c_contiguous) == (
            own.shape, own.strides, own.size, own.nbytes, own.offset, own.flags.c_contiguous)
        assert made.queue is queue and made.context == own.context and made.allocator is None
        assert made.events == [] and made.events is not again.events
        if own.size:
            assert isinstance(made.base_data, cl.Buffer) and made.base_data.size == own.nbytes
            assert made.base_data.int_ptr != again.base_data.int_ptr
        else:
            assert made.base_data is None
    data = np.arange(6, dtype=np.float32)
    out = clgather.gather(device(queue, data), device(queue, np.zeros((0, 2), np.int64)))
    assert out.shape == (0, 2) and out.get().shape == (0, 2)
