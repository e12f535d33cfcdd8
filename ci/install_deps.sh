#!/usr/bin/env bash
# Install everything clgather needs on Debian 12, from Debian's packages only. Idempotent: does
# nothing when every package is already installed.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  opencl-headers opencl-c-headers ocl-icd-opencl-dev  # Khronos headers and the ICD loader
  pocl-opencl-icd clinfo                               # the CI device: PoCL on the CPU
  check                                                # unit tests
  python3 python3-numpy                                # command-level tests of the CLI (.npy round trips)
  python3-pip                                          # ci/fetch_onnx_tests.sh: ONNX's node tests from the onnx wheel
  python3-venv                                         # the oracle venv and the Python package's (ci/python.sh)
  clang-format git                                     # ci/check_format.sh
  doxygen                                              # API documentation from the header
  valgrind                                             # memcheck of the CPU path and the CLI
  clang libclang-rt-14-dev                             # libFuzzer targets
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "ci/install_deps.sh: all packages present"
  exit 0
fi

as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
echo "ci/install_deps.sh: installing ${missing[*]}"
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
