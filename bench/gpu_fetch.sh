#!/usr/bin/env bash
# Run here, on a machine with Debian's package registry: download what bench/gpu.sh needs on a GPU
# machine that has none (the ICD loader and its headers, clinfo, Check for the tests) into .gpu/
# (ignored by git through .git/info/exclude), to be carried along with the working tree.
#
#   bash bench/gpu_fetch.sh [--arch ARCH]
#
# --arch: the GPU machine's Debian architecture where it differs from this one's (arm64 for an aarch64
# machine such as a Grace Hopper); apt must know that architecture (dpkg --add-architecture ARCH, then
# apt-get update).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
arch="$(dpkg --print-architecture)"
while [ $# -gt 0 ]; do
  case "$1" in
  --arch) arch="$2"; shift 2 ;;
  *) echo "bench/gpu_fetch.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [ "$arch" != "$(dpkg --print-architecture)" ] && ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
  echo "bench/gpu_fetch.sh: apt does not know $arch: run dpkg --add-architecture $arch && apt-get update" >&2
  exit 1
fi
dest="$root/.gpu"
mkdir -p "$dest"
exclude="$(git -C "$root" rev-parse --git-path info/exclude)"
case "$exclude" in /*) ;; *) exclude="$root/$exclude" ;; esac
mkdir -p "$(dirname "$exclude")"
grep -qx '/.gpu/' "$exclude" 2>/dev/null || echo '/.gpu/' >>"$exclude"
cd "$dest"
rm -f ./*.deb
# apt-get download runs as _apt where it can; a folder root owns would make it warn, so allow it to write
chmod 777 "$dest"
# opencl-c-headers is architecture-independent: it takes no :ARCH
packages=(opencl-c-headers)
for p in ocl-icd-libopencl1 ocl-icd-opencl-dev clinfo check libsubunit0 libsubunit-dev; do packages+=("$p:$arch"); done
apt-get download -q "${packages[@]}" 2>&1 | grep -v "^W: Download is performed unsandboxed" || true
ls -1 "$dest"
