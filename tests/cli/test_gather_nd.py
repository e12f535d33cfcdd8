"""clgather gather-nd: every preset and policy on .npy files, compared with numpy (the slice formula
written independently); refusals exit 1 or 2 and leave no output file."""
from cli_common import *

fresh_work_dir()
rng = np.random.default_rng(13)


def gather_nd(args, what, device=None, status=0, stderr_contains=None):
    out = path("out.npy")
    if os.path.exists(out):
        os.remove(out)
    full = ["gather-nd"] + args + ["--out", out] + (["--device", device] if device else [])
    expect_status(full, status, what, stderr_contains)
    if status != 0:
        check(not os.path.exists(out), f"{what}: no output file after a failure")
        return None
    return np.load(out) if os.path.exists(out) else None


def numpy_gather_nd(data, indices, b=0, oob="zero", flatten_batch=False):
    """Tuple t of batch bb selects data[bb, t_0, .., t_{m-1}, :]; each component wraps once; zero: any
    component out of range gives a zero slice; clamp: each component clamped alone."""
    m = indices.shape[-1]
    batch_shape = data.shape[:b]
    B = int(np.prod(batch_shape, dtype=np.int64))
    d = data.reshape((B,) + data.shape[b:])
    idx = indices.astype(np.int64).reshape((B, -1, m))
    slice_shape = data.shape[b + m:]
    out = np.zeros((B, idx.shape[1]) + slice_shape, data.dtype)
    for bb in range(B):
        for n in range(idx.shape[1]):
            coords, ok = [], True
            for j in range(m):
                s = data.shape[b + j]
                v = int(idx[bb, n, j])
                v = v + s if v < 0 else v
                if not 0 <= v < s:
                    if oob == "clamp":
                        v = 0 if int(idx[bb, n, j]) < 0 else s - 1
                    else:
                        ok = False
                coords.append(v)
            if ok:
                out[bb, n] = d[bb][tuple(coords)]
    lead = (B,) if flatten_batch and b > 0 else batch_shape
    return out.reshape(lead + indices.shape[b:-1] + slice_shape)


# ONNX's examples 1, 3 and 5 (batch_dims 1) on every preset that allows them, both devices, verify mode
d1 = save("d1.npy", np.array([[0, 1], [2, 3]], dtype=np.int32))
i1 = save("i1.npy", np.array([[0, 0], [1, 1]], dtype=np.int64))
d3 = save("d3.npy", np.arange(8, dtype=np.int32).reshape(2, 2, 2))
i3 = save("i3.npy", np.array([[0, 1], [1, 0]], dtype=np.int64))
i5 = save("i5.npy", np.array([[1], [0]], dtype=np.int64))
for preset in ["onnx-11", "onnx-12", "onnx-13", "ov-gather-nd-5", "ov-gather-nd-8"]:
    for device in [None, "cpu"]:
        got = gather_nd(["--op", preset, "--data", d1, "--indices", i1], f"{preset} example 1 on {device}", device)
        check(got is not None and np.array_equal(got, np.array([0, 3], np.int32)), f"{preset} example 1")
        got = gather_nd(["--op", preset, "--data", d3, "--indices", i3], f"{preset} example 3 on {device}", device)
        check(got is not None and np.array_equal(got, np.array([[2, 3], [4, 5]], np.int32)), f"{preset} example 3")
        if preset != "onnx-11":
            got = gather_nd(["--op", preset, "--data", d3, "--indices", i5, "--batch-dims", "1"],
                            f"{preset} example 5 on {device}", device)
            check(got is not None and np.array_equal(got, np.array([[2, 3], [4, 5]], np.int32)), f"{preset} example 5")
    got = gather_nd(["--op", preset, "--data", d3, "--indices", i3, "--verify"], f"{preset} --verify")
    check(got is not None and np.array_equal(got, np.array([[2, 3], [4, 5]], np.int32)), f"{preset} --verify")
gather_nd(["--op", "onnx-11", "--data", d3, "--indices", i5, "--batch-dims", "1"], "onnx-11 has no batch_dims", None, 1,
          "CLG_ERR_INVALID_BATCH_DIMS")

# ov-gather-nd-5 flattens the batch dimensions; ov-gather-nd-8 keeps them
d6 = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
i6 = rng.integers(0, 4, (2, 3, 2, 1)).astype(np.int32)
dp, ip = save("d6.npy", d6), save("i6.npy", i6)
got5 = gather_nd(["--op", "ov-gather-nd-5", "--data", dp, "--indices", ip, "--batch-dims", "2"], "ov-gather-nd-5 b=2")
got8 = gather_nd(["--op", "ov-gather-nd-8", "--data", dp, "--indices", ip, "--batch-dims", "2"], "ov-gather-nd-8 b=2")
check(got5 is not None and got5.shape == (6, 2, 5), f"ov-gather-nd-5 flattens: {None if got5 is None else got5.shape}")
check(got8 is not None and got8.shape == (2, 3, 2, 5), f"ov-gather-nd-8 keeps: {None if got8 is None else got8.shape}")
check(got5 is not None and got8 is not None and got5.tobytes() == got8.tobytes(), "same values either way")

# random cases against numpy: batch_dims, tuple lengths, out-of-range components under zero and clamp
for case in range(8):
    r = 1 + case % 4
    shape = tuple(int(n) for n in rng.integers(1, 5, r))
    b = int(rng.integers(0, r))
    m = int(rng.integers(1, r - b + 1))
    q_extra = int(rng.integers(0, 3))
    ishape = shape[:b] + tuple(int(n) for n in rng.integers(1, 4, q_extra)) + (m,)
    dtype = [np.float32, np.int8, np.float64, np.uint16][case % 4]
    itype = [np.int64, np.int32, np.uint8, np.int16][case % 4]
    data = (rng.standard_normal(shape) * 100).astype(dtype)
    comps = np.stack([rng.integers(0 if itype == np.uint8 else -shape[b + j] - 1, shape[b + j] + 1,
                                   ishape[:-1]) for j in range(m)], axis=-1) if ishape[:-1] else \
        np.array([int(rng.integers(0, shape[b + j])) for j in range(m)])
    indices = comps.astype(itype).reshape(ishape)
    dp, ip = save("rd.npy", data), save("ri.npy", indices)
    for oob in ["zero", "clamp"]:
        got = gather_nd(["--op", "ov-gather-nd-8", "--data", dp, "--indices", ip, "--batch-dims", str(b), "--oob", oob],
                        f"random case {case} ({oob})")
        want = numpy_gather_nd(data, indices, b, oob)
        check(got is not None and got.dtype == data.dtype and got.shape == want.shape and
              got.tobytes() == want.tobytes(), f"random case {case} ({oob}) matches numpy")

# refusals: exit 1 with the library's detail, no output file
bad = save("bad.npy", np.array([[0, 0], [1, 2]], dtype=np.int64))
for device in [None, "cpu"]:
    gather_nd(["--op", "onnx-13", "--data", d1, "--indices", bad], f"component out of range on {device}", device, 1,
              "CLG_ERR_INDEX_OUT_OF_RANGE")
got = gather_nd(["--op", "onnx-13", "--data", d1, "--indices", bad, "--oob", "zero"], "--oob zero override")
check(got is not None and np.array_equal(got, np.array([0, 0], np.int32)), "--oob zero: a zero slice")
got = gather_nd(["--op", "onnx-13", "--data", d1, "--indices", bad, "--oob", "clamp"], "--oob clamp override")
check(got is not None and np.array_equal(got, np.array([0, 3], np.int32)), "--oob clamp: each component clamped")
i32 = save("i32.npy", np.array([[0, 0]], dtype=np.int32))
gather_nd(["--op", "onnx-13", "--data", d1, "--indices", i32], "i32 indices under ONNX", None, 1,
          "CLG_ERR_INVALID_INDEX_TYPE")
long_tuple = save("long.npy", np.zeros((1, 3), np.int64))
gather_nd(["--op", "onnx-13", "--data", d1, "--indices", long_tuple], "tuple longer than the rank", None, 1,
          "CLG_ERR_SHAPE_MISMATCH")
# usage errors: exit 2
gather_nd(["--op", "ov-gather-nd-7", "--data", d1, "--indices", i1], "unknown preset", None, 2, "unknown --op")
gather_nd(["--op", "onnx-13", "--indices", i1], "missing --data", None, 2, "--data is required")
gather_nd(["--op", "onnx-13", "--data", d1, "--indices", i1, "--batch-dims", "1.5"], "bad --batch-dims", None, 2,
          "--batch-dims")
gather_nd(["--op", "onnx-13", "--data", d1, "--indices", i1, "--axis", "0"], "unknown option", None, 2)
finish()
