"""The protobuf reader treats models and tensors as hostile: truncated, corrupted and crafted inputs
give exit status 1 with one error line, never a crash."""
from cli_common import *

fresh_work_dir()
rng = np.random.default_rng(9)
sources = [onnx_test(n) for n in ["test_gather_0", "test_Embedding", "test_gather_2d_indices"]]


def clone(src, name):
    dst = path(name)
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst)
    for root, dirs, files in os.walk(dst):
        os.chmod(root, 0o755)
        for f in files:
            os.chmod(os.path.join(root, f), 0o644)
    return dst


def conformance_status(case_dir, what, allowed=(0, 1)):
    rc, out, err = run("conformance", "--device", "cpu", case_dir)
    check(rc in allowed, f"{what}: exit status {rc}")
    if rc == 1:
        check(err.count("\n") == 1 and err.startswith("clgather: error: "), f"{what}: stderr {err!r}")
        check("FAIL" in out, f"{what}: a FAIL line")
    return rc


# crafted models
crafted = {
    "empty model": b"",
    "truncated varint": b"\x08\xff\xff",
    "varint too long": b"\x08" + b"\xff" * 10 + b"\x01",
    "length past the end": b"\x3a\x7f\x0a",
    "huge length": b"\x3a\xff\xff\xff\xff\x0f",
    "group wire type": b"\x0b\x0c",
    "field number zero": b"\x00\x01",
    "no graph": b"\x08\x07\x42\x02\x10\x0d",
    "graph without nodes": b"\x42\x02\x10\x0d\x3a\x00",
    "no opset": b"\x3a\x0e\x0a\x0c\x22\x06Gather\x0a\x01a\x0a\x01b",
}
for name, blob in crafted.items():
    case = clone(sources[0], "crafted")
    open(os.path.join(case, "model.onnx"), "wb").write(blob)
    check(conformance_status(case, f"crafted model: {name}", (1,)) == 1, f"crafted model {name} refused")

# crafted tensors
for name, blob in {"empty tensor": b"", "dims only": b"\x08\x05", "string tensor": b"\x08\x01\x10\x08\x32\x01a",
                   "raw data too short": b"\x08\x05\x10\x01\x4a\x04\0\0\0\0",
                   "typed count wrong": b"\x08\x02\x10\x07\x3a\x01\x01",
                   "external data": b"\x08\x01\x10\x01\x70\x01"}.items():
    case = clone(sources[0], "tensor")
    open(os.path.join(case, "test_data_set_0", "input_1.pb"), "wb").write(blob)
    check(conformance_status(case, f"crafted tensor: {name}", (1,)) == 1, f"crafted tensor {name} refused")

# typed (non-raw) encodings decode like raw_data: rewrite test_gather_2d_indices' indices as packed int64_data
case = clone(sources[2], "typed")
# indices [[0, 2]] as int64: dims 1, 2; data_type 7; int64_data packed [0, 2]
open(os.path.join(case, "test_data_set_0", "input_1.pb"), "wb").write(b"\x08\x01\x08\x02\x10\x07\x3a\x02\x00\x02")
check(conformance_status(case, "packed int64_data indices", (0,)) == 0, "packed int64_data accepted")
open(os.path.join(case, "test_data_set_0", "input_1.pb"), "wb").write(b"\x0a\x02\x01\x02\x10\x07\x38\x00\x38\x02")
check(conformance_status(case, "unpacked int64_data, packed dims", (0,)) == 0, "unpacked int64_data accepted")

# random corruption of every file of the real tests
for trial in range(120):
    src = sources[trial % len(sources)]
    case = clone(src, "fuzz")
    files = [os.path.join(r, f) for r, _, fs in os.walk(case) for f in fs]
    victim = files[int(rng.integers(0, len(files)))]
    blob = bytearray(open(victim, "rb").read())
    for _ in range(int(rng.integers(1, 4))):
        at = int(rng.integers(0, max(1, len(blob))))
        kind = rng.integers(0, 3)
        if kind == 0 and blob:
            blob[at] = int(rng.integers(0, 256))
        elif kind == 1 and blob:
            del blob[at:at + int(rng.integers(1, 8))]
        else:
            blob.insert(at, int(rng.integers(0, 256)))
    open(victim, "wb").write(bytes(blob))
    conformance_status(case, f"fuzz {trial} ({os.path.relpath(victim, case)})")
finish()
