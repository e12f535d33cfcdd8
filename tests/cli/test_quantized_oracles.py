"""The dequantizing gather against outside oracles: ONNX Runtime runs single-node com.microsoft
GatherBlockQuantized models (clgather conformance must match its outputs bit for bit), and gguf.quants
dequantizes ggml rows of every layout, the 32-value blocks and the 256-value super-blocks (clgather
gather-quantized must match bit for bit as f32,
and that value rounded to nearest even as f16 and bf16). The oracles live
in the venv ci/setup_oracles.sh makes (CLGATHER_ORACLES_VENV, default <repo>/.venv-oracles); where it is
missing the test skips saying how to make it, or fails when CLGATHER_REQUIRE_ORACLES=1 (CI)."""
from cli_common import *

oracle_python = oracle_venv_python("onnx, onnxruntime, gguf")

fresh_work_dir()
cases = path("oracles")
made = subprocess.run([oracle_python, os.path.join(os.path.dirname(os.path.abspath(__file__)), "oracle_cases.py"),
                       cases], capture_output=True, text=True, timeout=600)
check(made.returncode == 0, f"oracle_cases.py failed: {made.stderr[-2000:]}")
if made.returncode != 0:
    finish()
print(made.stdout.strip())

ort_dirs = sorted(os.path.join(cases, "ort", d) for d in os.listdir(os.path.join(cases, "ort")))
check(len(ort_dirs) >= 20, f"expected at least 20 ONNX Runtime cases, found {len(ort_dirs)}")
for device in [None, "cpu"]:
    out, _ = expect_status(["conformance"] + (["--device", device] if device else []) + ort_dirs, 0,
                           f"conformance on ONNX Runtime's GatherBlockQuantized outputs ({device or 'default'})")
    check(out.count("PASS ") == len(ort_dirs), f"every ONNX Runtime case passes: {out}")

# every encoding onnx.proto allows passes above (raw_data, typed fields, external data); models whose
# tensors lie about theirs are refused, naming what is wrong
import json
hostile = json.load(open(os.path.join(cases, "hostile.json")))
check(len(hostile) >= 14, f"expected at least 14 hostile models, found {len(hostile)}")
for case, fragment in sorted(hostile.items()):
    rc, out, err = run("conformance", "--device", "cpu", os.path.join(cases, "hostile", case))
    check(rc == 1 and f"FAIL  " in out and fragment in out, f"hostile {case}: status {rc}, wants {fragment!r}: {out}")

ggml_cases = sorted(os.listdir(os.path.join(cases, "ggml")))
check(len(ggml_cases) == 14, f"expected 14 ggml cases, found {ggml_cases}")
for case in ggml_cases:
    d = os.path.join(cases, "ggml", case)
    layout = "ggml-" + case.removeprefix("random_")
    for output_type, expected in (("f32", "expected.npy"), ("f16", "expected_f16.npy"), ("bf16", "expected_bf16.npy")):
        want = np.load(os.path.join(d, expected))
        for device in [None, "cpu"]:
            what = f"ggml {case} -> {output_type} ({device or 'default'})"
            result = path(f"{case}_{output_type}.npy")
            if os.path.exists(result):
                os.remove(result)
            expect_status(["gather-quantized", "--layout", layout, "--data", os.path.join(d, "rows.npy"),
                           "--indices", os.path.join(d, "indices.npy"), "--output-type", output_type, "--out",
                           result] + (["--device", device] if device else []), 0, what)
            got = np.load(result) if os.path.exists(result) else None
            bits = np.uint32 if output_type == "f32" else np.uint16
            check(got is not None and got.dtype == want.dtype and got.shape == want.shape and
                  np.array_equal(got.view(bits), want.view(bits)),
                  f"{what} matches gguf.quants.dequantize bit for bit (f16 / bf16: rounded to nearest even)")
finish()
