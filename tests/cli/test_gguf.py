"""GGUF files: clgather gguf lists a file's tensors, and clgather gather-quantized --gguf FILE --tensor NAME
gathers rows of a quantized tensor straight from the file, equal bit for bit to gguf.quants.dequantize
(llama.cpp's own Python implementation) for f32 output and to that value rounded to nearest-even for
f16 and bf16, on the default device and the CPU reference. Hostile files (each with one field made to
lie: gguf_cases.py) are refused with exit status 1, a message naming what is wrong, and no output file.
The files are written by the gguf package in the venv of ci/setup_oracles.sh: where it is missing the
test skips saying how to make it, or fails when CLGATHER_REQUIRE_ORACLES=1 (CI)."""
import json

from cli_common import *

# the ggml types clgather reads (its ggml-* layouts)
TYPES = ["q4_0", "q8_0", "q4_1", "q5_0", "q5_1", "iq4_nl", "q2_K", "q3_K", "q4_K", "q5_K", "q6_K", "iq4_xs"]

oracle_python = oracle_venv_python("gguf")

fresh_work_dir()
cases = path("cases")
made = subprocess.run([oracle_python, os.path.join(os.path.dirname(os.path.abspath(__file__)), "gguf_cases.py"), cases]
                      + TYPES, capture_output=True, text=True, timeout=600)
check(made.returncode == 0, f"gguf_cases.py failed: {made.stderr[-2000:]}")
if made.returncode != 0:
    finish()
print(made.stdout.strip())
model = os.path.join(cases, "model.gguf")
manifest = json.load(open(os.path.join(cases, "manifest.json")))

# the listing: every tensor with its type, shape (outermost first) and bytes, for versions 3 and 2
for version, file in ((3, model), (2, os.path.join(cases, "model-v2.gguf"))):
    out, _ = expect_status(["gguf", file], 0, f"gguf lists version {version}")
    check(f"GGUF version {version}, {len(manifest)} tensors" in out, f"version {version} header: {out}")
    for t in manifest:
        shape = "[" + ", ".join(str(d) for d in t["shape"]) + "]"
        check(any(line.split()[:2] == [t["name"], t["type"]] and shape in line and line.split()[-2] == str(t["bytes"])
                  for line in out.splitlines()), f"version {version} lists {t}: {out}")

indices = os.path.join(cases, "indices.npy")
for t in manifest:
    kind = t["type"]
    if kind not in TYPES:
        continue
    for out_type in ("f32", "f16", "bf16"):
        want = np.load(os.path.join(cases, f"expected_{kind}_{out_type}.npy"))
        for device in (None, "cpu"):
            result = path(f"{kind}_{out_type}.npy")
            what = f"--gguf {kind} to {out_type} ({device or 'default device'})"
            expect_status(["gather-quantized", "--gguf", model, "--tensor", t["name"], "--indices", indices,
                           "--output-type", out_type, "--out", result] + (["--device", device] if device else []),
                          0, what)
            got = np.load(result) if os.path.exists(result) else None
            check(got is not None and got.dtype == want.dtype and got.shape == want.shape and
                  np.array_equal(got.view(np.uint8), want.view(np.uint8)),
                  f"{what} matches gguf.quants.dequantize bit for bit")
            if os.path.exists(result):
                os.remove(result)

# refusals of a good file: a tensor it lacks, a type the gather does not read, flags the tensor gives
result = path("refused.npy")
quantized = next(t["name"] for t in manifest if t["type"] in TYPES)
expect_status(["gather-quantized", "--gguf", model, "--tensor", "no.such.tensor", "--indices", indices, "--out", result],
              1, "an absent tensor", "has no tensor named 'no.such.tensor'")
expect_status(["gather-quantized", "--gguf", model, "--tensor", "output_norm.weight", "--indices", indices, "--out",
               result], 1, "an f32 tensor", "is f32, which the dequantizing gather does not read")
expect_status(["gather-quantized", "--gguf", model, "--tensor", quantized, "--layout", "ggml-q4_0", "--indices", indices,
               "--out", result], 2, "--layout with --gguf", "--layout does not go with --gguf")
expect_status(["gather-quantized", "--gguf", model, "--indices", indices, "--out", result], 2, "--gguf without --tensor",
              "--tensor is required with --gguf")
expect_status(["gather-quantized", "--tensor", quantized, "--layout", "ggml-q4_0", "--data", indices, "--indices",
               indices, "--out", result], 2, "--tensor without --gguf", "--tensor needs --gguf")
expect_status(["gguf"], 2, "gguf without a file", "give one GGUF file")
expect_status(["gguf", path("absent.gguf")], 1, "gguf on an absent file", "cannot open GGUF file")
check(not os.path.exists(result), "no output file after a refusal")

# hostile files: refused by both commands, naming what is wrong, writing nothing
hostile = json.load(open(os.path.join(cases, "hostile.json")))
check(len(hostile) >= 14, f"expected at least 14 hostile files, found {len(hostile)}")
for case, fragment in sorted(hostile.items()):
    file = os.path.join(cases, "hostile", case + ".gguf")
    expect_status(["gguf", file], 1, f"gguf on hostile {case}", fragment)
    expect_status(["gather-quantized", "--gguf", file, "--tensor", quantized, "--indices", indices, "--out", result], 1,
                  f"gather-quantized on hostile {case}", fragment)
    check(not os.path.exists(result), f"hostile {case}: no output file")
finish()
