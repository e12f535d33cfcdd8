#!/usr/bin/env python3
"""What the Python binding adds to a call: the benchmark's `tiny` case (ov-gather-8, f32 data [16, 16],
i32 indices [4], axis 0) through clgather.gather, next to the same C call made with its arguments
prepared once (ctypes, straight into the library the package loads).

  numpy:     clgather.gather(numpy, numpy)            vs  clg_gather (host memory in and out)
  pyopencl:  clgather.gather(device, device) + wait   vs  clCreateBuffer, clg_gather_enqueue into it, wait,
                                                          clReleaseMemObject (out=: into a fixed buffer)
  reference: clgather.reference.gather(numpy, numpy)  vs  clg_gather_reference (no OpenCL: the
             binding's own cost, without the device's noise)
  stubbed:   clgather.gather(device, device) with clg_gather_enqueue replaced by a stub that hands back
             a complete user event  vs  clCreateBuffer, the stub, the event's and the buffer's release
             (the device path's own cost in Python, without the device's noise)
Each Python side is timed twice: allocating its output, and into a caller's array (out=), as the C
side does.

Rounds alternate the two sides (C, Python, Python, C) so both see the same seconds of a shared
machine; each figure is the median over rounds of the mean time per call. ctypes itself costs
something on the C side too: the `dispatch` line times a 7-argument library call that returns at
once (clg_gather_reference with a NULL descriptor), so C + dispatch bounds the C call from below.

The machine's load average is printed (and kept in the JSON) before and after the rounds: on a shared
machine the figures move with it.

Usage: python3 bench/python_overhead.py [--rounds N] [--calls N] [--device SPEC] [--json FILE]"""

import argparse
import ctypes
import json
import os
import platform
import statistics
import time

import numpy as np
import pyopencl as cl
import pyopencl.array as cl_array

import clgather
from clgather import _lib


def per_call_us(function, calls):
    start = time.perf_counter_ns()
    for _ in range(calls):
        function()
    return (time.perf_counter_ns() - start) / calls / 1000.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--device", default=None, help="a device spec as CLGATHER_DEVICE takes it")
    parser.add_argument("--json", default=None)
    args = parser.parse_args()

    ctx = clgather.Context(device=args.device)
    info = ctx.device
    lib = _lib.lib
    data = np.arange(256, dtype=np.float32).reshape(16, 16)
    indices = np.array([3, 15, 0, 7], dtype=np.int32)
    output = np.empty((4, 16), dtype=np.float32)

    desc = _lib.GatherDesc()
    desc.preset = lib.clg_preset_from_name(b"ov-gather-8")
    desc.data = clgather._core.describe(data, "data")
    desc.indices = clgather._core.describe(indices, "indices")
    axis = ctypes.c_int64(0)
    desc.axis_tensor = clgather._core.tensor_desc((), lib.clg_dtype_from_name(b"i64"), "axis")
    desc.axis_value = ctypes.cast(ctypes.byref(axis), ctypes.c_void_p)
    desc_ref = ctypes.byref(desc)
    handle = ctx.handle
    host_args = (data.ctypes.data, data.nbytes, indices.ctypes.data, indices.nbytes, output.ctypes.data, output.nbytes)

    def c_host():
        lib.clg_gather(handle, desc_ref, *host_args)

    def py_host():
        clgather.gather(data, indices, 0, op="ov-gather-8", ctx=ctx)

    # the pyopencl side: a queue on the context's own device, the clgather context over it
    cl_ctx = cl.Context([d for p in cl.get_platforms() for d in p.get_devices() if d.name == info.name][:1])
    queue = cl.CommandQueue(cl_ctx)
    device_ctx = clgather.Context.from_pyopencl(queue)
    d_data, d_indices = cl_array.to_device(queue, data), cl_array.to_device(queue, indices)
    d_output = cl_array.empty(queue, (4, 16), np.float32)
    opencl = ctypes.CDLL("libOpenCL.so.1")
    opencl.clWaitForEvents.argtypes = [ctypes.c_uint32, ctypes.POINTER(ctypes.c_void_p)]
    opencl.clReleaseEvent.argtypes = [ctypes.c_void_p]
    event = ctypes.c_void_p()
    event_ref = ctypes.byref(event)
    device_handle, queue_ptr = device_ctx.handle, queue.int_ptr
    mems = (d_data.base_data.int_ptr, d_indices.base_data.int_ptr, d_output.base_data.int_ptr)

    # the inputs' events (their uploads, long complete), which the binding waits for as pyopencl's
    # arrays ask: the C side is given the same wait list
    input_events = d_data.events + d_indices.events
    wait_list = (ctypes.c_void_p * len(input_events))(*[e.int_ptr for e in input_events])

    def c_device():
        lib.clg_gather_enqueue(device_handle, desc_ref, queue_ptr, mems[0], 0, mems[1], 0, mems[2], 0,
                               len(input_events), wait_list, event_ref)
        opencl.clWaitForEvents(1, event_ref)
        opencl.clReleaseEvent(event)

    opencl.clCreateBuffer.restype = ctypes.c_void_p
    opencl.clCreateBuffer.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_size_t, ctypes.c_void_p,
                                      ctypes.POINTER(ctypes.c_int32)]
    opencl.clReleaseMemObject.argtypes = [ctypes.c_void_p]
    cl_context_ptr = cl_ctx.int_ptr
    read_write = cl.mem_flags.READ_WRITE

    def c_device_alloc():
        # as the binding does without out=: a new output buffer each call, released when done with
        fresh = opencl.clCreateBuffer(cl_context_ptr, read_write, 256, None, None)
        lib.clg_gather_enqueue(device_handle, desc_ref, queue_ptr, mems[0], 0, mems[1], 0, fresh, 0,
                               len(input_events), wait_list, event_ref)
        opencl.clWaitForEvents(1, event_ref)
        opencl.clReleaseEvent(event)
        opencl.clReleaseMemObject(fresh)

    def py_device():
        clgather.gather(d_data, d_indices, 0, op="ov-gather-8", ctx=device_ctx).events[-1].wait()

    def py_device_out():
        d_output.events.clear()  # the caller's array: its events are the caller's to keep or drop
        clgather.gather(d_data, d_indices, 0, op="ov-gather-8", ctx=device_ctx, out=d_output).events[-1].wait()

    def py_host_out():
        clgather.gather(data, indices, 0, op="ov-gather-8", ctx=ctx, out=output)

    # the device path without the device: the library's enqueue replaced by a Python stub that hands
    # back a retained, complete user event (the binding wraps it and releases it when done with)
    done = cl.UserEvent(cl_ctx)
    done.set_status(cl.command_execution_status.COMPLETE)
    done_ptr = done.int_ptr
    opencl.clRetainEvent.argtypes = [ctypes.c_void_p]
    retain_event = opencl.clRetainEvent
    gather_call = clgather._ops._GATHER
    real_enqueue = gather_call.enqueue

    def enqueue_stub(*stub_args):
        retain_event(done_ptr)
        stub_args[-1]._obj.value = done_ptr
        return 0

    def c_stub():
        fresh = opencl.clCreateBuffer(cl_context_ptr, read_write, 256, None, None)
        enqueue_stub(device_handle, desc_ref, queue_ptr, mems[0], 0, mems[1], 0, fresh, 0, len(input_events),
                     wait_list, event_ref)
        opencl.clReleaseEvent(event)
        opencl.clReleaseMemObject(fresh)

    def py_stub():
        clgather.gather(d_data, d_indices, 0, op="ov-gather-8", ctx=device_ctx)

    def c_reference():
        lib.clg_gather_reference(desc_ref, *host_args)

    def py_reference():
        clgather.reference.gather(data, indices, 0, op="ov-gather-8")

    def dispatch():
        lib.clg_gather_reference(None, None, 0, None, 0, None, 0)

    # the results agree before anything is timed
    c_host()
    assert output.tobytes() == clgather.gather(data, indices, 0, op="ov-gather-8", ctx=ctx).tobytes()
    c_device()
    assert d_output.get().tobytes() == clgather.gather(d_data, d_indices, 0, op="ov-gather-8").get().tobytes()

    sides = {"c_host": c_host, "py_host": py_host, "py_host_out": py_host_out, "c_device": c_device,
             "c_device_alloc": c_device_alloc,
             "py_device": py_device, "py_device_out": py_device_out, "c_reference": c_reference,
             "py_reference": py_reference, "c_stub": c_stub, "py_stub": py_stub, "dispatch": dispatch}
    stubbed = {"c_stub", "py_stub"}  # run with the enqueue replaced by the stub
    def sample(name):
        if name in stubbed:
            gather_call.enqueue = enqueue_stub
        try:
            return per_call_us(sides[name], args.calls)
        finally:
            gather_call.enqueue = real_enqueue

    for name in sides:  # warm-up
        sample(name)
    samples = {name: [] for name in sides}
    load_before = os.getloadavg()
    for _ in range(args.rounds):
        for name in ("c_host", "py_host", "py_host_out", "c_host", "c_device_alloc", "py_device", "py_device",
                     "c_device_alloc", "c_device", "py_device_out", "py_device_out", "c_device", "c_reference",
                     "py_reference", "py_reference", "c_reference", "c_stub", "py_stub", "py_stub", "c_stub",
                     "dispatch"):
            samples[name].append(sample(name))
    median = {name: statistics.median(values) for name, values in samples.items()}
    load_after = os.getloadavg()

    result = {
        "date_utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
        "machine": f"{platform.node()} {platform.processor() or platform.machine()}",
        "python": platform.python_version(),
        "device": info.name,
        "platform": info.platform,
        "driver": info.driver_version,
        "clgather": clgather.__version__,
        "rounds": args.rounds,
        "calls_per_round": args.calls,
        "load_average_1_5_15": {"before": load_before, "after": load_after},
        "median_us": median,
        "overhead_us": {
            "numpy": median["py_host"] - median["c_host"],
            "numpy_out": median["py_host_out"] - median["c_host"],
            "pyopencl": median["py_device"] - median["c_device_alloc"],
            "pyopencl_out": median["py_device_out"] - median["c_device"],
            "reference": median["py_reference"] - median["c_reference"],
            "stubbed": median["py_stub"] - median["c_stub"],
        },
    }
    print(f"tiny (ov-gather-8, f32 [16, 16], i32 [4]) on {info.name} ({info.platform}, driver {info.driver_version})")
    print(f"{args.rounds} rounds of {args.calls} calls per side; medians of the per-round means, us per call")
    print(f"load average (1, 5, 15 min) {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f} before the "
          f"rounds, {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f} after")
    rows = [("numpy", "c_host", "py_host"), ("numpy, out=", "c_host", "py_host_out"),
            ("pyopencl", "c_device_alloc", "py_device"), ("pyopencl, out=", "c_device", "py_device_out"),
            ("reference", "c_reference", "py_reference"), ("pyopencl, stub", "c_stub", "py_stub")]
    for label, c, py in rows:
        print(f"  {label:15s} C {median[c]:8.2f}   Python {median[py]:8.2f}   overhead {median[py] - median[c]:6.2f}")
    print(f"  dispatch (ctypes, a 7-argument call that returns at once) {median['dispatch']:.2f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)


if __name__ == "__main__":
    main()
