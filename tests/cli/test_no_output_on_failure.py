"""After any failure no output file is created, a pre-existing one is left unchanged, and no temporary
file remains."""
from cli_common import *

fresh_work_dir()
data = save("d.npy", np.array([1, 2, 3, 4, 5], dtype=np.int32))
good = save("i.npy", np.array([0, 4], dtype=np.int64))
oob = save("oob.npy", np.array([0, 9], dtype=np.int64))
broken = path("broken.npy")
with open(data, "rb") as f:
    raw = f.read()
with open(broken, "wb") as f:
    f.write(raw[:-3])

failing = [
    (["--op", "onnx-13", "--data", data, "--indices", oob], 1, "out-of-range index"),
    (["--op", "onnx-13", "--data", broken, "--indices", good], 1, "truncated data file"),
    (["--op", "onnx-13", "--data", data, "--indices", good, "--axis", "3"], 1, "invalid axis"),
    (["--op", "onnx-13", "--data", data, "--indices", good, "--oob", "never"], 2, "usage error"),
]
for args, status, what in failing:
    for device in [None, "cpu"]:
        dev = ["--device", device] if device else []
        target = path("fresh.npy")
        expect_status(["gather"] + args + dev + ["--out", target], status, f"{what} ({device})")
        check(not os.path.exists(target), f"{what} ({device}): no output file created")
        existing = path("existing.npy")
        with open(existing, "wb") as f:
            f.write(b"precious contents")
        expect_status(["gather"] + args + dev + ["--out", existing], status, f"{what} over an existing file ({device})")
        with open(existing, "rb") as f:
            check(f.read() == b"precious contents", f"{what} ({device}): existing output unchanged")

# gather-tree with an invalid parent id leaves an existing output alone too
s = save("s.npy", np.zeros((2, 1, 2), np.int32))
p = save("p.npy", np.array([[[0, 0]], [[5, 0]]], np.int32))
l = save("l.npy", np.array([2], np.int32))
e = save("e.npy", np.array(1, np.int32))
existing = path("existing.npy")
expect_status(["gather-tree", "--step-ids", s, "--parent-ids", p, "--max-seq-len", l, "--end-token", e, "--out",
               existing], 1, "invalid parent over an existing file")
with open(existing, "rb") as f:
    check(f.read() == b"precious contents", "gather-tree: existing output unchanged")

# an output in a directory that does not exist: refused, nothing created
expect_status(["gather", "--op", "onnx-13", "--data", data, "--indices", good, "--out", path("nodir/out.npy")], 1,
              "output directory missing", "nodir")
# success replaces an existing output
expect_status(["gather", "--op", "onnx-13", "--data", data, "--indices", good, "--out", existing], 0, "overwrite")
check(np.array_equal(np.load(existing), np.array([1, 5], np.int32)), "successful run replaces the output")
check(not leftovers(), f"temporary files left behind: {leftovers()}")
finish()
