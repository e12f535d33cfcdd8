"""FBGEMM's fused rowwise rows against PyTorch, an outside oracle: fbgemm_torch_cases.py prepacks tables
with PyTorch's quantized EmbeddingBag operators and unpacks them with PyTorch's own (FBGEMM's CPU
kernels). PyTorch fuses q * scale + bias (one rounding); clgather does not (the product rounded to f32,
then the sum: docs/semantics.md 8.8), so clgather gather-quantized's f32 values must be:
  - PyTorch's bits where the product q * scale is exact in f32 (every 4-bit value; 8-bit ones of few
    significant bits), where the two rules agree, and PyTorch's infinities where it has one;
  - a NaN where PyTorch has one, of any sign and payload (docs/semantics.md fixes clgather's NaN bits);
  - where the rounded product overflows (a finite scale, |q * scale| rounding to infinity), that infinity
    plus the bias in f32 (an infinity, or NaN against the opposite one), where PyTorch's may be finite;
  - elsewhere within the bound of docs/semantics.md 8.8, |clgather - torch| <= (ulp(P) + ulp(clgather) +
    ulp(torch)) / 2, P the product rounded to f32, ulp the f32 spacing at a value.
f16 outputs are clgather's own f32 values rounded to nearest even, and PyTorch's where the product is
exact. torch is not in the oracle venv of ci/setup_oracles.sh unless CLGATHER_ORACLES_TORCH=1 put it
there: the test runs the Python named by CLGATHER_TORCH_PYTHON, else the oracle venv's where it imports
torch, and skips saying so where neither does (fails instead with CLGATHER_REQUIRE_TORCH=1)."""
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
    why = ("no Python with torch for the FBGEMM oracle (set CLGATHER_TORCH_PYTHON, or CLGATHER_ORACLES_TORCH=1 "
           f"ci/setup_oracles.sh puts torch in the oracle venv {venv}); tried: {', '.join(tried) or 'none'}")
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



def row_fields(layout, rows, indices):
    """q, scale and bias (f32) of every output value: the rows the indices select (negatives wrap)."""
    chosen = rows[np.where(indices < 0, indices + len(rows), indices)]
    if layout == "fbgemm-8bit-rowwise":
        q = chosen[:, :-8].astype(np.float32)
        fields = np.ascontiguousarray(chosen[:, -8:]).view(np.float32)
    else:
        nibbles = chosen[:, :-4]
        q = np.stack([nibbles & 15, nibbles >> 4], axis=-1).reshape(len(chosen), -1).astype(np.float32)
        fields = np.ascontiguousarray(chosen[:, -4:]).view(np.float16).astype(np.float32)
    return q, np.broadcast_to(fields[:, :1], q.shape), np.broadcast_to(fields[:, 1:], q.shape)


def ulp(x):
    """The f32 spacing at |x| (2^-149 below 2^-126), as f64."""
    return np.spacing(np.abs(x).astype(np.float32)).astype(np.float64)


def f32_verdict(got, want, q, scale, bias):
    """Where the f32 values break the rules of the docstring: a list of reasons, empty if none."""
    with np.errstate(over="ignore", invalid="ignore"):
        product = q * scale  # f32: the product rounded
        exact = np.isfinite(product) & (product.astype(np.float64) == q.astype(np.float64) * scale.astype(np.float64))
        overflow = np.isfinite(scale) & np.isinf(product)
        overflow_value = product + bias
    reasons = []
    nan = np.isnan(want) & ~overflow
    if not np.isnan(got[nan]).all():
        reasons.append("not NaN where PyTorch has NaN")
    if not np.array_equal(got[overflow], overflow_value[overflow], equal_nan=True):
        reasons.append("an overflowing product plus the bias")
    same_bits = (exact | np.isinf(want)) & ~nan & ~overflow
    if not np.array_equal(got[same_bits].view(np.uint32), want[same_bits].view(np.uint32)):
        reasons.append("PyTorch's bits where the product is exact or PyTorch's value infinite")
    rest = ~(nan | overflow | same_bits)
    with np.errstate(over="ignore", invalid="ignore"):
        bound = (ulp(product) + ulp(got) + ulp(want))[rest] / 2
        gap = np.abs(got[rest].astype(np.float64) - want[rest].astype(np.float64))
    if not (gap <= bound).all():
        reasons.append(f"within the bound ({np.count_nonzero(~(gap <= bound))} values outside)")
    return reasons, int(np.count_nonzero(rest & (got.view(np.uint32) != want.view(np.uint32))))


names = sorted(os.listdir(cases))
check(len(names) == 10, f"expected 10 FBGEMM cases, found {names}")
differing = 0
for case in names:
    d = os.path.join(cases, case)
    layout = "fbgemm-8bit-rowwise" if case.startswith("8bit") else "fbgemm-4bit-rowwise"
    want32 = np.load(os.path.join(d, "expected.npy"))
    q, scale, bias = row_fields(layout, np.load(os.path.join(d, "rows.npy")), np.load(os.path.join(d, "indices.npy")))
    for device in [None, "cpu"]:
        got32 = None
        for output_type in ("f32", "f16"):
            what = f"{case} -> {output_type} ({device or 'default'})"
            result = path(f"{case}_{output_type}.npy")
            if os.path.exists(result):
                os.remove(result)
            expect_status(["gather-quantized", "--layout", layout, "--data", os.path.join(d, "rows.npy"),
                           "--indices", os.path.join(d, "indices.npy"), "--output-type", output_type, "--out",
                           result] + (["--device", device] if device else []), 0, what)
            got = np.load(result) if os.path.exists(result) else None
            want = want32 if output_type == "f32" else want32.astype(np.float16)
            if got is None or got.dtype != want.dtype or got.shape != want.shape:
                check(False, f"{what}: an output of PyTorch's type and shape")
                continue
            if output_type == "f32":
                got32 = got
                reasons, count = f32_verdict(got, want, q, scale, bias)
                differing += count if device is None else 0
                check(not reasons, f"{what}: " + "; ".join(reasons))
                continue
            if got32 is not None:
                own = got32.astype(np.float16)
                nan = np.isnan(own)
                check(np.array_equal(got.view(np.uint16)[~nan], own.view(np.uint16)[~nan]) and
                      bool(np.isnan(got[nan]).all()), f"{what}: clgather's f32 values rounded to nearest even")
            with np.errstate(over="ignore", invalid="ignore"):
                product = q * scale
            exact = ~np.isnan(want) & np.isfinite(product) & \
                (product.astype(np.float64) == q.astype(np.float64) * scale.astype(np.float64))
            check(np.array_equal(got.view(np.uint16)[exact], want.view(np.uint16)[exact]),
                  f"{what}: PyTorch's bits where the product is exact")
print(f"f32 values where clgather (unfused) and PyTorch (fused) differ, within the bound: {differing}")
finish()
