#!/usr/bin/env bash
# One command on a machine with an NVIDIA GPU and no package registry (or, with --device, on any
# OpenCL device): set up OpenCL from the .debs bench/gpu_fetch.sh carried in .gpu/, build clgather,
# run its test suite on the device, clgather-bench, and torch.index_select on the same shapes, and
# write bench/GPU.md (also into $OUT when the device tool's $OUT is set). About 5-10 minutes.
#
#   bash bench/gpu.sh [--device SPEC] [--quick] [--repeat N]
#
# --device: a clgather device spec (index, name substring); default: the first GPU.
# --quick: only the tests labelled quick (for trying the script on a slow CPU device).
# --note TEXT: a line for bench/GPU.md (what the run was, where it was not a GPU).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
device=""
note=""
quick=0
repeat=20
while [ $# -gt 0 ]; do
  case "$1" in
  --device) device="$2"; shift 2 ;;
  --quick) quick=1; shift ;;
  --note) note="$2"; shift 2 ;;
  --repeat) repeat="$2"; shift 2 ;;
  *) echo "bench/gpu.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
work="${CLGATHER_GPU_WORK:-/tmp/clgather-gpu}"
mkdir -p "$work"
log="$work/gpu.log"
: >"$log"
say() { echo "$@" | tee -a "$log"; }
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }

# 1. OpenCL: the loader and headers from the carried .debs where the machine has none; an .icd file
#    naming NVIDIA's library where the driver has one and no vendor file points at it.
prefix="$work/prefix"
cmake_prefix=()
if [ -d "$root/.gpu" ] && ls "$root"/.gpu/*.deb >/dev/null 2>&1; then
  for deb in "$root"/.gpu/*.deb; do dpkg -x "$deb" "$prefix"; done
  libdir="$prefix/usr/lib/x86_64-linux-gnu"
  export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export PATH="$prefix/usr/bin:$PATH"
  cmake_prefix=(-DCMAKE_PREFIX_PATH="$prefix/usr" -DOpenCL_INCLUDE_DIR="$prefix/usr/include"
                -DOpenCL_LIBRARY="$libdir/libOpenCL.so")
  say "OpenCL loader and headers: unpacked from $(ls "$root"/.gpu/*.deb | wc -l) carried .debs into $prefix"
fi
nvidia_lib="$(ldconfig -p 2>/dev/null | awk '/libnvidia-opencl.so.1/ {print $NF; exit}')"
if [ -z "${OCL_ICD_VENDORS:-}" ] && [ -n "$nvidia_lib" ] && ! grep -qs nvidia /etc/OpenCL/vendors/*.icd; then
  mkdir -p "$work/icd"
  echo "libnvidia-opencl.so.1" >"$work/icd/nvidia.icd"
  export OCL_ICD_VENDORS="$work/icd"
  say "ICD: $OCL_ICD_VENDORS/nvidia.icd names libnvidia-opencl.so.1 ($nvidia_lib)"
fi
command -v clinfo >/dev/null && clinfo -l 2>&1 | tee -a "$log" || true
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader \
  2>&1 | tee -a "$log" || true

# 2. Build (the CLI tests need a python3 with numpy: CLGATHER_PYTHON, else the one on PATH).
build="$work/build"
python="${CLGATHER_PYTHON:-$(command -v python3 || true)}"
say "== build ($(elapsed) s)"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCLGATHER_WERROR=ON "${cmake_prefix[@]}" \
  ${python:+-DCLGATHER_PYTHON3="$python"} >>"$log" 2>&1
cmake --build "$build" -j "$(nproc)" >>"$log" 2>&1
"$build/host/cli/clgather" devices | tee -a "$log"
export CLGATHER_DEVICE="${device:-}"
export CLGATHER_CACHE_DIR="$work/clgather-cache"
# every spec example on the device, cross-checked: a wrong --device stops here, not ten minutes later
"$build/host/cli/clgather" demo ${device:+--device "$device"} >>"$log" 2>&1 ||
  { say "bench/gpu.sh: clgather demo failed on device '${device:-default}' (see $log)"; exit 1; }

# 3. The test suite on the device (ONNX's node tests only if they were fetched and carried).
say "== tests ($(elapsed) s)"
labels=()
[ "$quick" = 1 ] && labels=(-L quick)
set +e
(cd "$build" && ctest "${labels[@]}" --timeout 600 2>&1) | tee "$work/ctest.log" >>"$log"
set -e
tests_line="$(grep -E "tests passed|tests failed" "$work/ctest.log" | tail -1)"
failed_tests="$(grep -E "^\s+[0-9]+ - " "$work/ctest.log" || true)"
say "tests: $tests_line"

# 4. The benchmark, and torch on the same shapes.
say "== clgather-bench ($(elapsed) s)"
"$build/bench/clgather-bench" ${device:+--device "$device"} --repeat "$repeat" --json "$work/bench.json" \
  2>&1 | tee "$work/bench.txt" >>"$log"
say "== torch.index_select ($(elapsed) s)"
${python:-python3} "$root/bench/torch_cuda.py" --json "$work/torch.json" --repeat "$repeat" 2>&1 | tee -a "$log" || true

# 5. bench/GPU.md
say "== bench/GPU.md ($(elapsed) s)"
${python:-python3} - "$work" "$root/bench/GPU.md" "$tests_line" "$failed_tests" "$(elapsed)" "$note" <<'PY'
import json, os, sys, datetime
work, out, tests_line, failed, seconds, note = sys.argv[1:7]
bench = json.load(open(os.path.join(work, "bench.json")))
torch = json.load(open(os.path.join(work, "torch.json"))) if os.path.exists(os.path.join(work, "torch.json")) else {}
tcases = {c["name"]: c for c in torch.get("cases", [])}
lines = [
    "# clgather on a GPU",
    "",
    "## How to run it",
    "",
    "On a machine with Debian's package registry, `bash bench/gpu_fetch.sh` downloads into `.gpu/` (ignored",
    "through `.git/info/exclude`) what a GPU machine without a registry lacks: the OpenCL ICD loader",
    "(`ocl-icd-libopencl1`, `ocl-icd-opencl-dev`, `opencl-c-headers`), `clinfo`, and Check for the tests",
    "(`check`, `libsubunit0`, `libsubunit-dev`), about 400 kB. Carry `.gpu` to the GPU machine with the",
    "working tree (and `.deps` for ONNX's node tests), then run `bash bench/gpu.sh` there: it unpacks the",
    "debs with `dpkg -x` into a private prefix, writes an `.icd` file naming `libnvidia-opencl.so.1` into",
    "its own directory and points `OCL_ICD_VENDORS` at it, builds, runs `clgather demo` and the test suite",
    "on the GPU, `clgather-bench`, and `torch.index_select` on the same shapes (`bench/torch_cuda.py`, CUDA",
    "events), and rewrites this file.",
    "",
    "## Results",
    "",
    f"Written by `bench/gpu.sh` on {datetime.date.today().isoformat()} in {seconds} s.",
    "",
] + ([f"**{note}**", ""] if note else []) + [
    f"- Device: {bench.get('device', '?')}",
    f"- Driver: {bench.get('driver', '?')}",
    f"- Copy kernel (16 bytes per work-item, read + write): {bench.get('copy_gbps', 0):.1f} GB/s",
    f"- Empty-kernel round trip: {(bench.get('empty_kernel_roundtrip_s') or 0) * 1e6:.1f} us",
    f"- Test suite on this device: {tests_line}",
]
if failed.strip():
    lines += ["- Failed tests:", "", "```", failed.rstrip(), "```"]
lines += ["", "| case | clgather median (kernel, or wall where noted) | GB/s | ratio to copy | wall median | torch.index_select | torch GB/s | clgather / torch (time) |",
          "| --- | --- | --- | --- | --- | --- | --- | --- |"]
for c in bench.get("cases", []):
    if not c.get("available"):
        lines.append(f"| {c['name']} | not run: {c.get('note', '')} | | | | | | |")
        continue
    t = tcases.get(c["name"])
    kernel = c.get("median_s")
    timing = "" if c.get("timing") == "kernel" else f" ({c.get('timing')})"
    row = [c["name"], f"{kernel * 1e3:.3f} ms{timing}" if kernel else "", f"{c.get('gbps') or 0:.1f}",
           f"{c.get('ratio_to_copy') or 0:.3f}", f"{(c.get('wall_median_s') or 0) * 1e3:.3f} ms",
           f"{t['median_s'] * 1e3:.3f} ms" if t else "", f"{t['gbps']:.1f}" if t else "",
           f"{kernel / t['median_s']:.2f}" if t and kernel else ""]
    lines.append("| " + " | ".join(row) + " |")
if torch.get("skipped"):
    lines += ["", f"torch: skipped ({torch['skipped']})."]
elif torch:
    lines += ["", f"torch {torch.get('torch')} on {torch.get('device')}: CUDA-event time of one call, median; "
              "outputs checked bit for bit against numpy."]
open(out, "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
if [ -n "${OUT:-}" ]; then cp "$root/bench/GPU.md" "$work/bench.json" "$work/bench.txt" "$log" "$OUT/" 2>/dev/null || true; fi
say "bench/gpu.sh: done in $(elapsed) s"
