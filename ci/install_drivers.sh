#!/usr/bin/env bash
# ci/install_drivers.sh [ICD_ROOT]: install the OpenCL implementations clgather is checked on, next to
# Debian's PoCL, on a fresh Debian 12 machine (root, or sudo), idempotently:
#   PoCL 3.1 (pocl-opencl-icd), Mesa rusticl (mesa-opencl-icd), Oclgrind (oclgrind) from Debian;
#   Intel's CPU runtime from the PyPI wheels intel-opencl-rt, tbb 2023.*, intel-cmplr-lib-rt.
# Writes ICD_ROOT/{pocl,rusticl,oclgrind,intel}/<name>.icd (one .icd per folder: select one with
# OCL_ICD_VENDORS=ICD_ROOT/<name>) and ICD_ROOT/env/<name>.sh to source.
# ICD_ROOT defaults to .deps/icd. Intel's wheels (about 270 MB, 1.1 GB unpacked) go to INTEL_OCL_ROOT
# (default .deps/intel-opencl).
# Note: installing mesa-opencl-icd also drops mesa.icd (clover) and rusticl.icd into /etc/OpenCL/vendors;
# without RUSTICL_ENABLE neither exposes a device on a machine without a GPU, so PoCL stays the default.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
ICD_ROOT=${1:-$CLGATHER_ROOT/.deps/icd}
INTEL_OCL_ROOT=${INTEL_OCL_ROOT:-$CLGATHER_ROOT/.deps/intel-opencl}
INTEL_OCL_VERSION=${INTEL_OCL_VERSION:-2026.2.0} # intel-opencl-rt and intel-cmplr-lib-rt
TBB_VERSION=${TBB_VERSION:-2023.2.0}
mkdir -p "$ICD_ROOT"
ICD_ROOT=$(cd "$ICD_ROOT" && pwd)

as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)

# --- Debian packages -------------------------------------------------------------------------------
packages=(ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-headers clinfo pocl-opencl-icd mesa-opencl-icd oclgrind
          python3-pip unzip)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install_drivers.sh: apt-get install ${missing[*]}"
  "${as_root[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

pocl_lib=$(dpkg -L pocl-opencl-icd libpocl2 2>/dev/null | grep -m1 -E '/libpocl\.so\.[0-9]+$' || true)
rusticl_lib=$(dpkg -L mesa-opencl-icd | grep -m1 -E '/libRusticlOpenCL\.so\.[0-9]+$')
oclgrind_lib=$(dpkg -L oclgrind | grep -m1 -E '/liboclgrind-rt-icd\.so$')

# --- Intel's CPU runtime from PyPI --------------------------------------------------------------------
mkdir -p "$INTEL_OCL_ROOT"
wheels=("intel-opencl-rt==$INTEL_OCL_VERSION" "tbb==$TBB_VERSION" "intel-cmplr-lib-rt==$INTEL_OCL_VERSION")
for spec in "${wheels[@]}"; do
  name=${spec%%==*}; version=${spec##*==}
  stem="${name//-/_}-$version"
  if ! ls "$INTEL_OCL_ROOT/$stem"-*.whl >/dev/null 2>&1; then
    echo "install_drivers.sh: pip download $spec"
    python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$INTEL_OCL_ROOT" "$spec"
  fi
  if [ ! -d "$INTEL_OCL_ROOT/$stem" ]; then
    whl=$(ls "$INTEL_OCL_ROOT/$stem"-*.whl | head -1)
    unzip -q -o "$whl" -d "$INTEL_OCL_ROOT/$stem.tmp" && mv "$INTEL_OCL_ROOT/$stem.tmp" "$INTEL_OCL_ROOT/$stem"
  fi
done
intel_lib=$(ls "$INTEL_OCL_ROOT"/intel_opencl_rt-"$INTEL_OCL_VERSION"/*.data/data/lib/libintelocl.so)
tbb_dir=$(ls -d "$INTEL_OCL_ROOT"/tbb-"$TBB_VERSION"/*.data/data/lib)
cmplr_dir=$(ls -d "$INTEL_OCL_ROOT"/intel_cmplr_lib_rt-"$INTEL_OCL_VERSION"/*.data/data/lib)

# --- one folder per implementation, holding just its .icd -------------------------------------------
write() { mkdir -p "$(dirname "$1")"; [ -f "$1" ] && [ "$(cat "$1")" = "$2" ] || printf '%s\n' "$2" > "$1"; }
write "$ICD_ROOT/pocl/pocl.icd" "${pocl_lib:-libpocl.so.2}"
write "$ICD_ROOT/rusticl/rusticl.icd" "$rusticl_lib"
write "$ICD_ROOT/oclgrind/oclgrind.icd" "$oclgrind_lib"
write "$ICD_ROOT/intel/intel.icd" "$intel_lib"

# --- sourceable environment snippets ------------------------------------------------------------------
mkdir -p "$ICD_ROOT/env"
cat > "$ICD_ROOT/env/pocl.sh" <<SNIP
# source me: PoCL (Debian pocl-opencl-icd)
export OCL_ICD_VENDORS=$ICD_ROOT/pocl
unset RUSTICL_ENABLE
SNIP
cat > "$ICD_ROOT/env/rusticl.sh" <<SNIP
# source me: Mesa rusticl on llvmpipe (Debian mesa-opencl-icd). No fp64.
export OCL_ICD_VENDORS=$ICD_ROOT/rusticl
export RUSTICL_ENABLE=llvmpipe
# Mesa caches compiled kernels in ~/.cache/mesa_shader_cache; a warm cache skips the compiler (and its warnings)
export MESA_SHADER_CACHE_DISABLE=true
SNIP
cat > "$ICD_ROOT/env/oclgrind.sh" <<SNIP
# source me: Oclgrind (Debian oclgrind), every check on. Slow: small cases only; 128 MiB max allocation.
export OCL_ICD_VENDORS=$ICD_ROOT/oclgrind
export OCLGRIND_DATA_RACES=1 OCLGRIND_UNINITIALIZED=1 OCLGRIND_CHECK_API=1
unset RUSTICL_ENABLE
SNIP
cat > "$ICD_ROOT/env/intel.sh" <<SNIP
# source me: Intel's CPU runtime (PyPI wheels in $INTEL_OCL_ROOT).
export OCL_ICD_VENDORS=$ICD_ROOT/intel
unset RUSTICL_ENABLE
# tbb and the compiler runtime on the library path; libintelocl.so finds its own folder by RUNPATH.
# intel_opencl_rt's folder is left out on purpose: its libOpenCL.so.1 (a Khronos loader) would replace
# Debian's ocl-icd for the whole process.
export LD_LIBRARY_PATH=$tbb_dir:$cmplr_dir\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
SNIP

# --- check: each folder exposes exactly one platform with a device ------------------------------------
status=0
for name in pocl rusticl oclgrind intel; do
  line=$(bash -c ". '$ICD_ROOT/env/$name.sh'; clinfo --list 2>/dev/null" | head -2 | tr '\n' ' ')
  if echo "$line" | grep -q "Device #0"; then
    echo "install_drivers.sh: $name: $line"
  else
    echo "install_drivers.sh: $name exposes no device: $line" >&2
    status=1
  fi
done
exit $status
