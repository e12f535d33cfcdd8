#!/usr/bin/env bash
# Run here, on a machine with Debian's package registry: download what bench/gpu.sh needs on a GPU
# machine that has none (the ICD loader and its headers, clinfo, Check for the tests) into .gpu/
# (ignored by git through .git/info/exclude), to be carried along with the working tree.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
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
apt-get download -q ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-c-headers clinfo check libsubunit0 libsubunit-dev \
  2>&1 | grep -v "^W: Download is performed unsandboxed" || true
ls -1 "$dest"
