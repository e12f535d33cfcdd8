"""ONNX's own backend node tests of Gather, GatherElements and GatherND (from the onnx 1.20.1 wheel, see ci/fetch_onnx_tests.sh) pass
bit for bit, on the default device and on the CPU reference."""
from cli_common import *

fresh_work_dir()
names = ["test_Embedding", "test_Embedding_sparse", "test_gather_0", "test_gather_1", "test_gather_2d_indices",
         "test_gather_negative_indices", "test_gather_elements_0", "test_gather_elements_1",
         "test_gather_elements_negative_indices", "test_gathernd_example_float32", "test_gathernd_example_int32",
         "test_gathernd_example_int32_batch_dim1"]
dirs = [onnx_test(n) for n in names]
for d in dirs:
    check(os.path.isdir(d), f"conformance directory {d} exists")
for device in [None, "cpu"]:
    out, _ = expect_status(["conformance"] + (["--device", device] if device else []) + dirs, 0,
                           f"conformance on {device}")
    for d in dirs:
        check(f"PASS  {d}" in out, f"{os.path.basename(d)} passes on {device}")
    check(f"{len(dirs)} of {len(dirs)} passed" in out, f"summary on {device}")
    check("GatherElements opset 13 -> onnx-13" in out and "GatherND opset 13 -> onnx-13, batch_dims 1" in out,
          f"operators and presets named on {device}")

# a wrong expected output makes that directory fail: exit 1, the others still pass
bad = path("bad_case")
shutil.copytree(dirs[2], bad)
out_pb = os.path.join(bad, "test_data_set_0", "output_0.pb")
os.chmod(out_pb, 0o644)
blob = bytearray(open(out_pb, "rb").read())
blob[len(blob) // 2] ^= 0x01  # flip one bit in the middle of raw_data (288 of the 304 bytes)
open(out_pb, "wb").write(bytes(blob))
out, _ = expect_status(["conformance", dirs[0], bad], 1, "a mismatching output", "1 of 2 directories failed")
check(f"FAIL  {bad}" in out and f"PASS  {dirs[0]}" in out, "per-directory lines")
check("bit for bit" in out, "the mismatch is described")
expect_status(["conformance", path("nowhere")], 1, "a missing directory")
finish()
