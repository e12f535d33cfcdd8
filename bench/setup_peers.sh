#!/usr/bin/env bash
# Make the virtual environment bench/peers.py runs in: numpy, onnx, onnxruntime, openvino, gguf, ggml-python
# and a CPU torch, all from PyPI, and clgather's Python package from this checkout. Idempotent: re-running only installs what is missing.
#
#   bench/setup_peers.sh            # creates <repo>/.venv (gitignored)
#   VENV=/some/where bench/setup_peers.sh
#   FBGEMM=1 bench/setup_peers.sh   # also FBGEMM's CPU embedding kernels (fbgemm-gpu-cpu), the EmbeddingBag
#                                   # cases' fbgemm peer, with the torch it was built against (see below)
#
# torch: the PyPI wheel for Linux x86_64 declares the CUDA runtime (nvidia-* packages, several GiB) as
# dependencies. PyPI has no CPU-only Linux wheel, so we install the torch wheel itself with --no-deps plus
# its small pure-Python dependencies, then check that it imports and runs index_select on the CPU. If it
# does not load, the few CUDA runtime wheels a CUDA toolkit install lacks are added (see below); if it
# still does not, set TORCH_WITH_DEPS=1 to install torch the ordinary way, CUDA packages included.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
venv="${VENV:-$repo/.venv}"
python="${PYTHON:-python3}"

if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv"
fi
pip=("$venv/bin/python" -m pip --disable-pip-version-check)
"${pip[@]}" install --quiet --upgrade pip

"${pip[@]}" install --quiet numpy onnx onnxruntime openvino gguf
# clgather's own Python package, from this checkout (bench/peers.py --paired calls it in process)
"${pip[@]}" install --quiet --force-reinstall --no-deps "$repo"
# ggml's own CPU get_rows: ggml-python compiles ggml from source (a few minutes; cmake and a C compiler)
"${pip[@]}" install --quiet ggml-python ||
  echo "setup_peers.sh: ggml-python did not build; peers.py leaves its ggml column empty" >&2

torch_works() {
  "$venv/bin/python" - <<'EOF'
import torch
x = torch.arange(12, dtype=torch.float32).reshape(4, 3)
y = torch.index_select(x, 0, torch.tensor([2, 0]))
assert y.tolist() == [[6.0, 7.0, 8.0], [0.0, 1.0, 2.0]], y
print("torch", torch.__version__, "CPU index_select ok; threads:", torch.get_num_threads())
EOF
}

# fbgemm-gpu-cpu's compiled operators link against one torch release: 1.9.0 fails to load under torch
# 2.15.0 (undefined symbol c10::report_overflow) and loads under 2.14.0. FBGEMM=1 pins that pair.
fbgemm_spec="${FBGEMM_SPEC:-fbgemm-gpu-cpu==1.9.0}"
if [ "${FBGEMM:-0}" = 1 ]; then
  TORCH_SPEC="${TORCH_SPEC:-torch==2.14.0}"
fi
fbgemm_install() {
  [ "${FBGEMM:-0}" = 1 ] || return 0
  "${pip[@]}" install --quiet --no-deps "$fbgemm_spec"
  if ! "$venv/bin/python" -c "import torch, fbgemm_gpu; torch.ops.fbgemm.asynchronous_complete_cumsum" 2>/dev/null; then
    echo "setup_peers.sh: $fbgemm_spec does not load beside torch $("$venv/bin/python" -c 'import torch; print(torch.__version__)');" \
      "peers.py leaves its fbgemm column empty (set TORCH_SPEC to the torch it was built against)" >&2
  fi
}

torch_matches() {
  [ -z "${TORCH_SPEC:-}" ] || [ "${TORCH_SPEC#torch==}" = "$TORCH_SPEC" ] ||
    "$venv/bin/python" -c "import sys, torch; sys.exit(torch.__version__.split('+')[0] != '${TORCH_SPEC#torch==}')"
}

if torch_works 2>/dev/null && torch_matches 2>/dev/null; then
  fbgemm_install
  exit 0
fi
if [ "${TORCH_WITH_DEPS:-0}" = 1 ]; then
  "${pip[@]}" install --quiet torch
else
  # torch's own pure-Python requirements (the nvidia-* and triton requirements are left out)
  "${pip[@]}" install --quiet filelock typing-extensions sympy networkx jinja2 fsspec setuptools
  "${pip[@]}" install --quiet --no-deps "${TORCH_SPEC:-torch}"
fi
if torch_works 2>/dev/null; then
  fbgemm_install
  exit 0
fi
# libtorch_cuda.so is loaded even for CPU work. A machine with NVIDIA's CUDA toolkit has most of what it
# links, but not cuFile, cuSPARSELt or NVSHMEM, and its NCCL may be older than torch's (on Debian 12 with
# CUDA 13.0: "libcufile.so.0: cannot open shared object file", then "undefined symbol: ncclCommResume"). Those four wheels alone (about 300 MB), at the versions torch pins, without their
# own dependencies.
runtime_wheels="$("$venv/bin/python" - <<'PY'
import importlib.metadata as md
import re
wheels = []
for req in md.requires("torch") or []:
    if "extra ==" in req:
        continue
    m = re.match(r"(nvidia-(?:cufile|cusparselt|nccl|nvshmem)[\w-]*)\s*(==\s*[\w.]+)?", req)
    if m:
        wheels.append(m.group(1) + (m.group(2) or "").replace(" ", ""))
    elif req.startswith("cuda-toolkit") and "cufile" in req.split(";")[0]:
        wheels.append("nvidia-cufile")
print(" ".join(wheels))
PY
)"
if [ -n "$runtime_wheels" ]; then
  echo "setup_peers.sh: torch does not load on its own; adding $runtime_wheels"
  # shellcheck disable=SC2086 # one word per wheel
  "${pip[@]}" install --quiet --no-deps $runtime_wheels
fi
if ! torch_works; then
  echo "setup_peers.sh: torch still does not load; rerun with TORCH_WITH_DEPS=1 (installs its CUDA packages)" >&2
  exit 1
fi
fbgemm_install
