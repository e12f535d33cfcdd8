"""Fixtures of the Python package's tests. They run on clgather's default device (CLGATHER_DEVICE
picks another); CLGATHER_REQUIRE_PYOPENCL=1 turns a missing pyopencl or device into a failure
instead of a skip, as CI sets it."""

import os

import numpy as np
import pytest

import clgather

REQUIRE_PYOPENCL = os.environ.get("CLGATHER_REQUIRE_PYOPENCL") == "1"


@pytest.fixture(scope="session")
def ctx():
    context = clgather.Context()
    assert not context.device.is_reference, "the tests need an OpenCL device"
    return context


@pytest.fixture(scope="session")
def queue(ctx):
    """A pyopencl queue on the device clgather's default context runs on."""
    try:
        import pyopencl as cl
    except ImportError:
        if REQUIRE_PYOPENCL:
            pytest.fail("pyopencl is required (CLGATHER_REQUIRE_PYOPENCL=1) but cannot be imported")
        pytest.skip("pyopencl is not installed")
    wanted = ctx.device
    for platform in cl.get_platforms():
        for device in platform.get_devices():
            if device.name == wanted.name and platform.name == wanted.platform:
                context = cl.Context([device])
                return cl.CommandQueue(context)
    pytest.fail(f"pyopencl sees no device {wanted.name!r} of {wanted.platform!r}")


def same_bits(a, b):
    """Bit-for-bit equality of two arrays: dtype, shape and every byte (NaN payloads included)."""
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes()


def random_array(rng, shape, dtype):
    """Random values of any dtype clgather takes, as raw bytes (floats include NaNs and payloads)."""
    dtype = np.dtype(dtype)
    count = int(np.prod(shape, dtype=np.int64))
    raw = rng.integers(0, 256, size=count * dtype.itemsize, dtype=np.uint8)
    if dtype == np.bool_:
        raw &= 1
    return raw.view(dtype).reshape(shape)
