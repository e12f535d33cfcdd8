"""EmbeddingBag against outside oracles: held-out random cases of every preset and mode (made by
embedding_bag_oracle_cases.py in the oracle venv) that PyTorch's torch.nn.functional.embedding_bag and
OpenVINO's CPU plugin (opset3 / opset15 EmbeddingBagOffsets(Sum), EmbeddingBagPacked(Sum),
EmbeddingSegmentsSum) computed. clgather embedding-bag, on the default device and on the CPU reference,
must agree with each within |a - b| <= 1e-5 * sum |w_i x_i| + 1e-30 (they accumulate in their own
order; mean: the bound divided by the count), and exactly in max mode. The oracles live in the venv
ci/setup_oracles.sh makes (CLGATHER_ORACLES_VENV, default <repo>/.venv-oracles); where it is missing
the test skips saying how to make it, or fails when CLGATHER_REQUIRE_ORACLES=1 (CI). OpenVINO is
required; PyTorch is compared where the venv has it (CLGATHER_ORACLES_TORCH=1 ci/setup_oracles.sh:
PyPI's torch is its CUDA build, some 3 GB with its requirements, so CI leaves it out), and then must
meet every preset; without it the cases only torch says (max, padding_idx) are named as not compared."""
import json

from cli_common import *

oracle_python = oracle_venv_python("openvino")
with_torch = subprocess.run([oracle_python, "-c", "import torch"], capture_output=True).returncode == 0

fresh_work_dir()
cases = path("bag_oracles")
made = subprocess.run([oracle_python, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                   "embedding_bag_oracle_cases.py"), cases],
                      capture_output=True, text=True, timeout=600)
check(made.returncode == 0, f"embedding_bag_oracle_cases.py failed: {made.stderr[-2000:]}")
if made.returncode != 0:
    finish()
print(made.stdout.strip())

manifest = json.load(open(os.path.join(cases, "cases.json")))
check(len(manifest) >= 39, f"expected at least 39 cases, found {len(manifest)}")
for oracle in ("torch", "openvino") if with_torch else ("openvino",):
    check(sum(oracle in m["expected"] for m in manifest) >= 20, f"at least 20 cases against {oracle}")
presets = {m["args"][1] for m in manifest if m["expected"]}
check(len(presets) == 6, f"every preset meets an oracle: {sorted(presets)}")
if not with_torch:
    unmet = [m["name"] for m in manifest if not m["expected"]]
    print(f"SKIP (part): PyTorch is not in the oracle venv: {len(unmet)} cases only it says were not compared "
          f"({', '.join(unmet)}); CLGATHER_ORACLES_TORCH=1 ci/setup_oracles.sh installs it")

compared = 0
for m in manifest:
    d = os.path.join(cases, m["name"])
    args = [os.path.join(d, a) if a.endswith(".npy") else a for a in m["args"]]
    magnitude = np.load(os.path.join(d, "magnitude.npy"))
    for device in [None, "cpu"]:
        what = f"{m['name']} ({device or 'default'})"
        result = path("bag_out.npy")
        if os.path.exists(result):
            os.remove(result)
        command = ["embedding-bag"] + args + ["--out", result] + (["--device", device] if device else [])
        if np.load(os.path.join(d, "table.npy"), mmap_mode="r").dtype == np.float64:
            rc, _, err = run(*command)
            if rc != 0 and "CLG_ERR_UNSUPPORTED_BY_DEVICE" in err:
                print(f"SKIP: {what}: the device lacks f64 ({err.strip()})")
                continue
        expect_status(command, 0, what)
        got = np.load(result) if os.path.exists(result) else None
        for oracle, name in sorted(m["expected"].items()):
            want = np.load(os.path.join(d, name))
            if got is None or got.shape != want.shape or got.dtype != want.dtype:
                check(False, f"{what} vs {oracle}: shape/dtype {None if got is None else (got.shape, got.dtype)} "
                             f"against {want.shape, want.dtype}")
                continue
            if m["exact"]:
                ok = np.array_equal(got, want)
                worst = "" if ok else f"first differing at {np.argwhere(got != want)[0]}"
            else:
                error = np.abs(got.astype(np.float64) - want.astype(np.float64))
                bound = 1e-5 * magnitude + 1e-30
                ok = bool(np.all(error <= bound))
                worst = "" if ok else f"worst error / bound {float(np.max(error / bound)):.3g}"
            check(ok, f"{what} agrees with {oracle} {'exactly' if m['exact'] else 'within the tolerance'} {worst}")
            compared += 1
check(compared >= (90 if with_torch else 40), f"compared {compared} outputs with the oracles")
print(f"{compared} comparisons with the oracles")
finish()
