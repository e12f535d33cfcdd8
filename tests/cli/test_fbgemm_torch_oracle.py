"""FBGEMM's fused rowwise rows against PyTorch, an outside oracle: fbgemm_torch_cases.py prepacks tables
with PyTorch's quantized EmbeddingBag operators and unpacks them with PyTorch's own (FBGEMM's CPU
kernels); clgather gather-quantized must give the unpacked rows bit for bit as f32 (a NaN where PyTorch
has one, of any sign and payload: docs/semantics.md fixes clgather's NaN bits, the CPU's fused
multiply-add its own), and those values rounded to nearest even as f16. torch is not in the oracle venv
of ci/setup_oracles.sh: the test runs the Python named by CLGATHER_TORCH_PYTHON, else the oracle venv's
where it imports torch, and skips saying so where neither does (fails instead with
CLGATHER_REQUIRE_TORCH=1)."""
from cli_common import *


def torch_python():
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    venv = os.environ.get("CLGATHER_ORACLES_VENV") or os.path.join(repo, ".venv-oracles")
    tried = []
    for python in (os.environ.get("CLGATHER_TORCH_PYTHON"), os.path.join(venv, "bin", "python")):
        if not python or not os.path.exists(python):
            continue
        probe = subprocess.run([python, "-c", "import numpy, torch"], capture_output=True, text=True)
        if probe.returncode == 0:
            return python
        tried.append(python)
    why = ("no Python with torch for the FBGEMM oracle (set CLGATHER_TORCH_PYTHON, or install torch into the "
           f"oracle venv {venv}); tried: {', '.join(tried) or 'none'}")
    if os.environ.get("CLGATHER_REQUIRE_TORCH") == "1":
        print("FAIL:", why)
        sys.exit(1)
    print("SKIP:", why)
    sys.exit(SKIP_STATUS)


python = torch_python()
fresh_work_dir()
cases = path("fbgemm")
made = subprocess.run([python, os.path.join(os.path.dirname(os.path.abspath(__file__)), "fbgemm_torch_cases.py"),
                       cases], capture_output=True, text=True, timeout=600)
check(made.returncode == 0, f"fbgemm_torch_cases.py failed: {made.stderr[-2000:]}")
if made.returncode != 0:
    finish()
print(made.stdout.strip())

names = sorted(os.listdir(cases))
check(len(names) == 10, f"expected 10 FBGEMM cases, found {names}")
for case in names:
    d = os.path.join(cases, case)
    layout = "fbgemm-8bit-rowwise" if case.startswith("8bit") else "fbgemm-4bit-rowwise"
    want32 = np.load(os.path.join(d, "expected.npy"))
    nan = np.isnan(want32)
    for output_type in ("f32", "f16"):
        want = want32 if output_type == "f32" else want32.astype(np.float16)
        bits = np.uint32 if output_type == "f32" else np.uint16
        for device in [None, "cpu"]:
            what = f"{case} -> {output_type} ({device or 'default'})"
            result = path(f"{case}_{output_type}.npy")
            if os.path.exists(result):
                os.remove(result)
            expect_status(["gather-quantized", "--layout", layout, "--data", os.path.join(d, "rows.npy"),
                           "--indices", os.path.join(d, "indices.npy"), "--output-type", output_type, "--out",
                           result] + (["--device", device] if device else []), 0, what)
            got = np.load(result) if os.path.exists(result) else None
            same = got is not None and got.dtype == want.dtype and got.shape == want.shape
            if same:
                same = np.array_equal(got.view(bits)[~nan], want.view(bits)[~nan]) and \
                    bool(np.isnan(got.astype(np.float32)[nan]).all())
            check(same, f"{what} matches PyTorch's unpacked rows bit for bit (NaN for NaN)")
finish()
