"""clgather gather: every preset on .npy files, compared with numpy; refusals exit 1."""
from cli_common import *

fresh_work_dir()
rng = np.random.default_rng(7)


def gather(args, what, device=None):
    out = path("out.npy")
    if os.path.exists(out):
        os.remove(out)
    full = ["gather"] + args + ["--out", out] + (["--device", device] if device else [])
    expect_status(full, 0, what)
    return np.load(out) if os.path.exists(out) else None


def numpy_gather(data, indices, axis, batch_dims=0, oob="zero"):
    """The semantics from docs/semantics.md, written with numpy."""
    axis %= data.ndim
    batch_dims = batch_dims + indices.ndim if batch_dims < 0 else batch_dims
    size = data.shape[axis]
    idx = indices.astype(np.int64)
    idx = np.where(idx < 0, idx + size, idx)
    bad = (idx < 0) | (idx >= size)
    if oob == "clamp":
        idx = np.clip(idx, 0, size - 1)
        bad = np.zeros_like(bad)
    safe = np.where(bad, 0, idx)
    batch = int(np.prod(data.shape[:batch_dims], dtype=np.int64))
    outer = data.shape[batch_dims:axis]
    d = data.reshape((batch,) + outer + data.shape[axis:])
    s = safe.reshape((batch, -1))
    b_ = bad.reshape((batch, -1))
    parts = []
    for bi in range(batch):
        taken = np.take(d[bi], s[bi], axis=len(outer))
        mask_shape = [1] * taken.ndim
        mask_shape[len(outer)] = -1
        taken = np.where(b_[bi].reshape(mask_shape), np.zeros((), data.dtype), taken)
        parts.append(taken)
    out = np.stack(parts)
    return out.reshape(data.shape[:axis] + indices.shape[batch_dims:] + data.shape[axis + 1:])


# ONNX example 1 and 2 on every ONNX preset, default device, CPU reference, and verify mode
d1 = save("d1.npy", np.array([[1.0, 1.2], [2.3, 3.4], [4.5, 5.7]], dtype=np.float32))
i1 = save("i1.npy", np.array([[0, 1], [1, 2]], dtype=np.int64))
want1 = np.array([[[1.0, 1.2], [2.3, 3.4]], [[2.3, 3.4], [4.5, 5.7]]], dtype=np.float32)
for preset in ["onnx-1", "onnx-11", "onnx-13"]:
    for device in [None, "cpu"]:
        got = gather(["--op", preset, "--data", d1, "--indices", i1], f"{preset} example 1 on {device}", device)
        check(got is not None and got.dtype == np.float32 and np.array_equal(got, want1), f"{preset} example 1 values")
    got = gather(["--op", preset, "--data", d1, "--indices", i1, "--verify"], f"{preset} --verify")
    check(got is not None and np.array_equal(got, want1), f"{preset} --verify values")

d2 = save("d2.npy", np.array([[1.0, 1.2, 1.9], [2.3, 3.4, 3.9], [4.5, 5.7, 5.9]], dtype=np.float32))
i2 = save("i2.npy", np.array([[0, 2]], dtype=np.int32))
got = gather(["--op", "onnx-13", "--data", d2, "--indices", i2, "--axis", "1"], "onnx example 2")
check(got is not None and np.array_equal(got, np.array([[[1.0, 1.9]], [[2.3, 3.9]], [[4.5, 5.9]]], np.float32)),
      "onnx example 2 values")
got = gather(["--op", "onnx-13", "--data", d2, "--indices", i2, "--axis=-1"], "onnx negative axis")
check(got is not None and got.shape == (3, 1, 2), "negative axis shape")

# random cases on every preset against numpy
for preset in ["onnx-1", "onnx-11", "onnx-13", "ov-gather-1", "ov-gather-7", "ov-gather-8"]:
    for trial in range(3):
        shape = tuple(int(x) for x in rng.integers(1, 5, size=int(rng.integers(1, 4))))
        data = rng.standard_normal(shape).astype(np.float32)
        axis = int(rng.integers(-len(shape), len(shape)))
        a = axis % len(shape)
        bd = 0
        if preset in ("ov-gather-7", "ov-gather-8") and a >= 1:
            bd = 1
        ishape = (shape[:bd] if bd else ()) + tuple(int(x) for x in rng.integers(0, 4, size=int(rng.integers(0, 3))))
        idx = rng.integers(-shape[a], shape[a], size=ishape).astype(np.int64 if trial % 2 else np.int32)
        dp, ip = save("rd.npy", data), save("ri.npy", idx)
        args = ["--op", preset, "--data", dp, "--indices", ip, "--axis", str(axis)]
        if bd:
            args += ["--batch-dims", str(bd)]
        got = gather(args, f"{preset} random {shape} axis {axis} bd {bd} indices {ishape}")
        want = numpy_gather(data, idx, axis, bd)
        check(got is not None and got.shape == want.shape and np.array_equal(got, want),
              f"{preset} random case matches numpy")

# OpenVINO: the axis as a tensor of its own type and shape
data = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
dp = save("ov_d.npy", data)
ip = save("ov_i.npy", np.array([2, 0], dtype=np.uint8))
for axis_array in [np.array(1, np.int32), np.array([1], np.int64), np.array(-2, np.int8), np.array([1], np.uint16)]:
    ap = save("axis.npy", axis_array)
    got = gather(["--op", "ov-gather-8", "--data", dp, "--indices", ip, "--axis-file", ap],
                 f"axis file {axis_array.dtype} {axis_array.shape}")
    check(got is not None and np.array_equal(got, np.take(data, [2, 0], axis=1)), "axis file values")
ap = save("axis_bad.npy", np.array([1, 2], np.int64))
expect_status(["gather", "--op", "ov-gather-8", "--data", dp, "--indices", ip, "--axis-file", ap, "--out",
               path("x.npy")], 1, "two-element axis tensor", "CLG_ERR_INVALID_AXIS_TENSOR")
ap = save("axis_float.npy", np.array(1.0, np.float32))
expect_status(["gather", "--op", "ov-gather-1", "--data", dp, "--indices", ip, "--axis-file", ap, "--out",
               path("x.npy")], 1, "float axis tensor", "CLG_ERR_INVALID_AXIS_TENSOR")

# Gather-7 example 2 with batch_dims 1 and -1
dp = save("b_d.npy", np.arange(1, 11, dtype=np.int32).reshape(2, 5))
ip = save("b_i.npy", np.array([[0, 0, 4], [4, 0, 0]], dtype=np.int64))
for bd in ["1", "-1"]:
    got = gather(["--op", "ov-gather-7", "--data", dp, "--indices", ip, "--axis", "1", "--batch-dims", bd],
                 f"gather-7 batch_dims {bd}")
    check(got is not None and np.array_equal(got, np.array([[1, 1, 5], [10, 6, 6]], np.int32)), "batch_dims values")

# out-of-range policies
dp = save("p_d.npy", np.array([1, 2, 3, 4, 5], dtype=np.int32))
ip = save("p_i.npy", np.array([3, 10, -20], dtype=np.int64))
got = gather(["--op", "ov-gather-8", "--data", dp, "--indices", ip], "gather-8 example 7")
check(got is not None and list(got) == [4, 0, 0], "gather-8 example 7 values")
got = gather(["--op", "ov-gather-8", "--data", dp, "--indices", ip, "--oob", "clamp"], "clamp policy")
check(got is not None and list(got) == [4, 5, 1], "clamp values")
got = gather(["--op", "onnx-13", "--data", dp, "--indices", ip, "--oob", "zero"], "zero policy on onnx")
check(got is not None and list(got) == [4, 0, 0], "zero policy values")
for device in [None, "cpu"]:
    expect_status(["gather", "--op", "onnx-13", "--data", dp, "--indices", ip, "--out", path("x.npy")] +
                  (["--device", device] if device else []), 1, f"onnx out-of-range index on {device}",
                  "CLG_ERR_INDEX_OUT_OF_RANGE")
    expect_status(["gather", "--op", "ov-gather-8", "--data", dp, "--indices", ip, "--oob", "error", "--out",
                   path("x.npy")] + (["--device", device] if device else []), 1, f"--oob error on {device}",
                  "CLG_ERR_INDEX_OUT_OF_RANGE")
    # the library's own message reaches stderr: it names the first bad index
    expect_status(["gather", "--op", "onnx-13", "--data", dp, "--indices", ip, "--out", path("x.npy")] +
                  (["--device", device] if device else []), 1, f"out-of-range detail on {device}",
                  "indices[1] (flat position 1) = 10")

# validation refusals exit 1 and name the status
expect_status(["gather", "--op", "onnx-13", "--data", dp, "--indices", ip, "--axis", "1", "--out", path("x.npy")], 1,
              "axis out of range", "CLG_ERR_INVALID_AXIS")
ip16 = save("i16.npy", np.array([0], dtype=np.int16))
expect_status(["gather", "--op", "onnx-13", "--data", dp, "--indices", ip16, "--out", path("x.npy")], 1,
              "ONNX with i16 indices", "CLG_ERR_INVALID_INDEX_TYPE")
ipf = save("if.npy", np.array([0], dtype=np.float32))
expect_status(["gather", "--op", "ov-gather-8", "--data", dp, "--indices", ipf, "--out", path("x.npy")], 1,
              "float indices", "CLG_ERR_INVALID_INDEX_TYPE")
expect_status(["gather", "--op", "onnx-13", "--data", dp, "--indices", ip, "--batch-dims", "1", "--out",
               path("x.npy")], 1, "batch_dims on ONNX", "CLG_ERR_INVALID_BATCH_DIMS")
scalar = save("scalar.npy", np.array(3.0, dtype=np.float32))
expect_status(["gather", "--op", "onnx-13", "--data", scalar, "--indices", ip, "--out", path("x.npy")], 1,
              "scalar data", "CLG_ERR_INVALID_RANK")
expect_status(["gather", "--op", "onnx-13", "--data", dp, "--indices", ip, "--device", "no-such-device-xyz", "--out",
               path("x.npy")], 1, "unknown device", "CLG_ERR_NO_DEVICE")
expect_status(["gather", "--op", "onnx-13", "--data", path("missing.npy"), "--indices", ip, "--out", path("x.npy")],
              1, "missing data file", "missing.npy")
expect_status(["gather", "--op", "onnx-13", "--data", WORK, "--indices", ip, "--out", path("x.npy")], 1,
              "data path is a directory", "not a regular file")
check(not os.path.exists(path("x.npy")), "no output file after refusals")

# zero-sized and scalar-index edge cases
dp = save("z_d.npy", np.zeros((0, 3), dtype=np.float64))
ip = save("z_i.npy", np.zeros((0,), dtype=np.int64))
got = gather(["--op", "onnx-13", "--data", dp, "--indices", ip], "empty data and indices")
check(got is not None and got.shape == (0, 3), "empty output shape")
dp = save("s_d.npy", np.arange(12, dtype=np.uint64).reshape(3, 4))
ip = save("s_i.npy", np.array(2, dtype=np.int64))
got = gather(["--op", "onnx-13", "--data", dp, "--indices", ip, "--axis", "1"], "scalar index")
check(got is not None and got.shape == (3,) and list(got) == [2, 6, 10], "scalar index values")
check(not leftovers(), f"temporary files left behind: {leftovers()}")
finish()
