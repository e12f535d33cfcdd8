#!/usr/bin/env bash
# Make the virtual environment of the outside oracles the dequantizing-gather tests compare with:
# ONNX Runtime (com.microsoft.GatherBlockQuantized on its CPU execution provider), the onnx helper API
# that builds its single-node models, and gguf (llama.cpp's Python package: Q4_0 / Q8_0 quantization,
# and the dequantization of every ggml layout the tests compare), and for EmbeddingBag OpenVINO (its
# CPU plugin runs the opset3 / opset15 bag operations) and, with CLGATHER_ORACLES_TORCH=1, PyTorch
# (torch.nn.functional.embedding_bag: the only oracle of max mode and padding_idx). Pinned versions, from
# PyPI; idempotent: a venv that already holds them is left alone.
# Usage: [CLGATHER_ORACLES_TORCH=1] ci/setup_oracles.sh [VENV] (default <repo>/.venv-oracles, gitignored).
#
# torch 2.15.0 is opt-in because PyPI, the one registry CI reaches, serves Linux only its CUDA build:
# with its requirements some 3 GB, about 5 minutes of every CI run (measured: 213 s cold, 346 s with a
# warm pip cache on two cores). Its libraries must still load at import. On a machine with the CUDA 13
# toolkit (cuBLAS, cuFFT, cuSPARSE, cuDNN, NVRTC, ...) torch is installed without its requirements,
# beside the pure-Python packages it imports and the four CUDA libraries it links that the toolkit lacks
# or has too old (NCCL; cuFile, cuSPARSELt, NVSHMEM), some 0.5 GB; where it then does not import, its
# full requirements follow.
#
# onnxruntime 1.32.0: its CPU kernel takes uint8 (bits 4 and 8), uint4 and int4 data, f32 and f16
# scales, optional zero points, any gather_axis and quantize_axis for the 4-bit types (docs/semantics.md,
# "Dequantizing gather", lists what each version changed that the tests depend on).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
venv="${1:-$CLGATHER_ROOT/.venv-oracles}"
python="${PYTHON:-python3}"
pins=(numpy==2.3.5 onnx==1.20.1 onnxruntime==1.32.0 gguf==0.17.1 openvino==2026.4.1)
torch_pins=(torch==2.15.0 filelock==4.3.1 typing-extensions==4.16.0 sympy==1.14.0 mpmath==1.3.0
            networkx==3.6.1 jinja2==3.1.6 markupsafe==3.0.4 fsspec==2026.9.0 nvidia-nccl-cu13==2.30.7
            nvidia-cufile==1.20.0.107 nvidia-cusparselt-cu13==0.8.1 nvidia-nvshmem-cu13==3.7.2)
modules="gguf, numpy, onnx, onnxruntime, openvino"
with_torch="${CLGATHER_ORACLES_TORCH:-0}"
if [ "$with_torch" = 1 ]; then modules="$modules, torch"; else torch_pins=(); fi

# held pins alone are not enough: a venv whose torch cannot load its libraries is made again
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import $modules" 2>/dev/null &&
  "$venv/bin/python" - "${pins[@]}" ${torch_pins[@]+"${torch_pins[@]}"} <<'PY' 2>/dev/null; then
import importlib.metadata as md, sys
for pin in sys.argv[1:]:
    name, version = pin.split("==")
    if md.version(name) != version:
        sys.exit(1)
PY
  echo "ci/setup_oracles.sh: $venv holds ${pins[*]} ${torch_pins[0]:-}"
  exit 0
fi
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
pip=("$venv/bin/python" -m pip --disable-pip-version-check --quiet)
"${pip[@]}" install "${pins[@]}"
if [ "$with_torch" = 1 ]; then
  "${pip[@]}" install --no-deps "${torch_pins[@]}"
  "$venv/bin/python" -c "import torch" 2>/dev/null || "${pip[@]}" install "${torch_pins[0]}"
fi
"$venv/bin/python" - <<'PY'
import gguf, numpy, onnx, onnxruntime, openvino
try:
    import torch
    torch_version = torch.__version__
except ImportError:
    torch_version = "absent (CLGATHER_ORACLES_TORCH=1 installs it)"
print("ci/setup_oracles.sh: numpy", numpy.__version__, "onnx", onnx.__version__, "onnxruntime",
      onnxruntime.__version__, "gguf", gguf.__version__ if hasattr(gguf, "__version__") else "(imported)",
      "openvino", openvino.__version__, "torch", torch_version)
PY
