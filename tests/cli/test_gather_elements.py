"""clgather gather-elements: every preset and policy on .npy files, compared with numpy (ONNX's formula
written independently); refusals exit 1 or 2 and leave no output file."""
from cli_common import *

fresh_work_dir()
rng = np.random.default_rng(11)


def gather_elements(args, what, device=None, status=0, stderr_contains=None):
    out = path("out.npy")
    if os.path.exists(out):
        os.remove(out)
    full = ["gather-elements"] + args + ["--out", out] + (["--device", device] if device else [])
    expect_status(full, status, what, stderr_contains)
    if status != 0:
        check(not os.path.exists(out), f"{what}: no output file after a failure")
        return None
    return np.load(out) if os.path.exists(out) else None


def numpy_gather_elements(data, indices, axis, oob="zero"):
    """out[p] = data[p with p[axis] replaced by idx[p]], one wrap; zero or clamp out of range."""
    axis %= data.ndim
    size = data.shape[axis]
    idx = indices.astype(np.int64)
    idx = np.where(idx < 0, idx + size, idx)
    bad = (idx < 0) | (idx >= size)
    if oob == "clamp":
        idx = np.clip(idx, 0, size - 1)
        bad = np.zeros_like(bad)
    safe = np.where(bad, 0, idx)
    region = data[tuple(slice(0, n) if d != axis else slice(None) for d, n in enumerate(indices.shape))]
    taken = np.take_along_axis(region, safe, axis=axis)
    return np.where(bad, np.zeros((), data.dtype), taken)


# ONNX's examples (spec: axis 1 of [[1,2],[3,4]]; axis 0 of a 3x3) under each ONNX preset, on the
# default device, the CPU reference and in verify mode
d1 = save("d1.npy", np.array([[1, 2], [3, 4]], dtype=np.float32))
i1 = save("i1.npy", np.array([[0, 0], [1, 0]], dtype=np.int64))
want1 = np.array([[1, 1], [4, 3]], dtype=np.float32)
d2 = save("d2.npy", np.arange(1, 10, dtype=np.int32).reshape(3, 3))
i2 = save("i2.npy", np.array([[1, 2, 0], [2, 0, 0]], dtype=np.int32))
want2 = np.array([[4, 8, 3], [7, 2, 3]], dtype=np.int32)
for preset in ["onnx-11", "onnx-13", "ov-gather-elements-6"]:
    for device in [None, "cpu"]:
        got = gather_elements(["--op", preset, "--data", d1, "--indices", i1, "--axis", "1"],
                              f"{preset} example 1 on {device}", device)
        check(got is not None and got.dtype == np.float32 and np.array_equal(got, want1), f"{preset} example 1")
        got = gather_elements(["--op", preset, "--data", d2, "--indices", i2], f"{preset} example 2 on {device}", device)
        check(got is not None and got.dtype == np.int32 and np.array_equal(got, want2), f"{preset} example 2")
    got = gather_elements(["--op", preset, "--data", d1, "--indices", i1, "--axis", "-1", "--verify"],
                          f"{preset} --verify")
    check(got is not None and np.array_equal(got, want1), f"{preset} --verify values")

# random cases against numpy: ranks 1..4, every axis, indices narrower than the data off the axis,
# out-of-range values under zero and clamp, several element and index types
for case in range(8):
    rank = 1 + case % 4
    shape = tuple(int(n) for n in rng.integers(1, 6, rank))
    axis = int(rng.integers(-rank, rank))
    ishape = tuple(int(rng.integers(1, 7)) if d == axis % rank else int(rng.integers(1, n + 1))
                   for d, n in enumerate(shape))
    dtype = [np.float32, np.int8, np.float64, np.uint16][case % 4]
    itype = [np.int64, np.int32, np.uint8, np.int16][case % 4]
    data = (rng.standard_normal(shape) * 100).astype(dtype)
    lo = 0 if itype == np.uint8 else -shape[axis % rank] - 2
    indices = rng.integers(lo, shape[axis % rank] + 2, ishape).astype(itype)
    dp, ip = save("rd.npy", data), save("ri.npy", indices)
    for oob in ["zero", "clamp"]:
        got = gather_elements(["--op", "ov-gather-elements-6", "--data", dp, "--indices", ip, "--axis", str(axis),
                               "--oob", oob], f"random case {case} ({oob})")
        want = numpy_gather_elements(data, indices, axis, oob)
        check(got is not None and got.dtype == data.dtype and got.tobytes() == want.tobytes(),
              f"random case {case} ({oob}) matches numpy")

# refusals: exit 1 with the library's detail, no output file
oob_idx = save("oob.npy", np.array([[0, 5], [1, 0]], dtype=np.int64))
for device in [None, "cpu"]:
    gather_elements(["--op", "onnx-13", "--data", d1, "--indices", oob_idx, "--axis", "1"], f"out of range on {device}",
                    device, 1, "CLG_ERR_INDEX_OUT_OF_RANGE")
gather_elements(["--op", "onnx-13", "--data", d1, "--indices", i1, "--axis", "2"], "axis out of range", None, 1,
                "CLG_ERR_INVALID_AXIS")
wide = save("wide.npy", np.zeros((2, 3), np.int64))
gather_elements(["--op", "onnx-13", "--data", d1, "--indices", wide, "--axis", "0"], "indices wider than data", None, 1,
                "CLG_ERR_SHAPE_MISMATCH")
u8 = save("u8.npy", np.zeros((2, 2), np.uint8))
gather_elements(["--op", "onnx-13", "--data", d1, "--indices", u8], "u8 indices under ONNX", None, 1,
                "CLG_ERR_INVALID_INDEX_TYPE")
got = gather_elements(["--op", "ov-gather-elements-6", "--data", d1, "--indices", u8], "u8 indices under OpenVINO")
check(got is not None and np.array_equal(got, np.array([[1, 2], [1, 2]], np.float32)), "u8 indices values")
got = gather_elements(["--op", "onnx-13", "--data", d1, "--indices", oob_idx, "--axis", "1", "--oob", "zero"],
                      "--oob zero override")
check(got is not None and np.array_equal(got, np.array([[1, 0], [4, 3]], np.float32)), "--oob zero values")
# usage errors: exit 2
gather_elements(["--op", "onnx-7", "--data", d1, "--indices", i1], "unknown preset", None, 2, "unknown --op")
gather_elements(["--op", "onnx-13", "--data", d1], "missing --indices", None, 2, "--indices is required")
gather_elements(["--op", "onnx-13", "--data", d1, "--indices", i1, "--axis", "x"], "bad --axis", None, 2, "--axis")
gather_elements(["--op", "onnx-13", "--data", d1, "--indices", i1, "--oob", "wrap"], "bad --oob", None, 2, "--oob")
gather_elements(["--op", "onnx-13", "--data", d1, "--indices", i1, "--batch-dims", "1"], "unknown option", None, 2)
finish()
