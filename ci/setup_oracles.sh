#!/usr/bin/env bash
# Make the virtual environment of the outside oracles the dequantizing-gather tests compare with:
# ONNX Runtime (com.microsoft.GatherBlockQuantized on its CPU execution provider), the onnx helper API
# that builds its single-node models, and gguf (llama.cpp's Python package: Q4_0 / Q8_0 quantization,
# and the dequantization of every ggml layout the tests compare). Pinned versions, from PyPI; idempotent: a venv that already holds them is left
# alone. Usage: ci/setup_oracles.sh [VENV] (default <repo>/.venv-oracles, gitignored).
#
# onnxruntime 1.32.0: its CPU kernel takes uint8 (bits 4 and 8), uint4 and int4 data, f32 and f16
# scales, optional zero points, any gather_axis and quantize_axis for the 4-bit types (docs/semantics.md,
# "Dequantizing gather", lists what each version changed that the tests depend on).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
venv="${1:-$CLGATHER_ROOT/.venv-oracles}"
python="${PYTHON:-python3}"
pins=(numpy==2.3.5 onnx==1.20.1 onnxruntime==1.32.0 gguf==0.17.1)

if [ -x "$venv/bin/python" ] && "$venv/bin/python" - "${pins[@]}" <<'PY' 2>/dev/null; then
import importlib.metadata as md, sys
for pin in sys.argv[1:]:
    name, version = pin.split("==")
    if md.version(name) != version:
        sys.exit(1)
PY
  echo "ci/setup_oracles.sh: $venv holds ${pins[*]}"
  exit 0
fi
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
pip=("$venv/bin/python" -m pip --disable-pip-version-check --quiet)
"${pip[@]}" install "${pins[@]}"
"$venv/bin/python" - <<'PY'
import gguf, numpy, onnx, onnxruntime
print("ci/setup_oracles.sh: numpy", numpy.__version__, "onnx", onnx.__version__, "onnxruntime",
      onnxruntime.__version__, "gguf", gguf.__version__ if hasattr(gguf, "__version__") else "(imported)")
PY
