"""clgather gather-tree: the hand-checked case, a generated one vs the CPU reference, an invalid parent."""
from cli_common import *

fresh_work_dir()
steps = np.array([[[1, 2], [7, 8]], [[3, 10], [9, 10]], [[5, 6], [11, 12]]], dtype=np.int32)
parents = np.array([[[0, 0], [0, 0]], [[1, 0], [0, 1]], [[1, 0], [0, 0]]], dtype=np.int32)
want = np.array([[[1, 2], [7, 8]], [[10, 3], [9, 10]], [[10, 6], [10, 10]]], dtype=np.int32)


def files(dtype, s=steps, p=parents, lengths=(3, 2), end=10):
    return ["--step-ids", save("s.npy", s.astype(dtype)), "--parent-ids", save("p.npy", p.astype(dtype)),
            "--max-seq-len", save("l.npy", np.array(lengths, dtype=dtype)),
            "--end-token", save("e.npy", np.array(end, dtype=dtype))]


out = path("tree.npy")
# every type on every device: f16 and f64 need neither cl_khr_fp16 nor cl_khr_fp64
for dtype in [np.int32, np.int64, np.float16, np.float32, np.float64, np.uint8]:
    for device in [None, "cpu"]:
        if os.path.exists(out):
            os.remove(out)
        expect_status(["gather-tree"] + files(dtype) + ["--out", out] + (["--device", device] if device else []), 0,
                      f"gather-tree {np.dtype(dtype).name} on {device}")
        got = np.load(out) if os.path.exists(out) else None
        check(got is not None and got.dtype == np.dtype(dtype) and np.array_equal(got, want.astype(dtype)),
              f"gather-tree {np.dtype(dtype).name} values")
expect_status(["gather-tree"] + files(np.int32) + ["--out", out, "--verify"], 0, "gather-tree --verify")

# generated [100, 1, 10]: the OpenCL device and the CPU reference agree
rng = np.random.default_rng(3)
s = rng.integers(0, 40, size=(100, 1, 10)).astype(np.int32)
p = rng.integers(0, 10, size=(100, 1, 10)).astype(np.int32)
expect_status(["gather-tree"] + files(np.int32, s, p, (93,), 0) + ["--out", path("a.npy")], 0, "generated on device")
expect_status(["gather-tree"] + files(np.int32, s, p, (93,), 0) + ["--out", path("b.npy"), "--device", "cpu"], 0,
              "generated on cpu")
if os.path.exists(path("a.npy")) and os.path.exists(path("b.npy")):
    check(np.array_equal(np.load(path("a.npy")), np.load(path("b.npy"))), "device and reference agree")

# refusals: an invalid parent id, mismatched types, mismatched shapes
bad = parents.copy()
bad[2, 0, 0] = 7
expect_status(["gather-tree"] + files(np.int32, steps, bad) + ["--out", path("x.npy")], 1, "invalid parent",
              "CLG_ERR_INVALID_PARENT")
# the library's own message reaches stderr (it names the offending parent id)
expect_status(["gather-tree"] + files(np.int32, steps, bad) + ["--out", path("x.npy")], 1, "invalid parent detail",
              "parent_ids[2, 0, 0] = 7")
expect_status(["gather-tree"] + files(np.int32, steps, bad) + ["--out", path("x.npy"), "--device", "cpu"], 1,
              "invalid parent on cpu", "CLG_ERR_INVALID_PARENT")
args = files(np.int32)
args[args.index("--end-token") + 1] = save("e64.npy", np.array(10, dtype=np.int64))
expect_status(["gather-tree"] + args + ["--out", path("x.npy")], 1, "type mismatch", "CLG_ERR_TYPE_MISMATCH")
args = files(np.int32)
args[args.index("--parent-ids") + 1] = save("p2.npy", np.zeros((3, 2, 3), np.int32))
expect_status(["gather-tree"] + args + ["--out", path("x.npy")], 1, "shape mismatch", "CLG_ERR_SHAPE_MISMATCH")
check(not os.path.exists(path("x.npy")), "no output after refusals")
check(not leftovers(), "no temporary files left")
finish()
