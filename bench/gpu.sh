#!/usr/bin/env bash
# One command on a machine with an NVIDIA GPU and no package registry (or, with --device, on any
# OpenCL device): set up OpenCL from the .debs bench/gpu_fetch.sh carried in .gpu/, build clgather,
# run clgather-bench, PyTorch on the same shapes (bench/torch_cuda.py) and the test suite on the device,
# and write bench/GPU.md. Where $OUT is set, the logs, JSON and GPU.md are written there as they come,
# so a run cut short still returns what it did. Where the test suite cannot be configured (no Check),
# the benchmark and its table are still made. A few minutes on a 16-core machine.
#
#   bash bench/gpu.sh [--device SPEC] [--quick] [--repeat N] [--scale auto|N] [--test-seconds N]
#                     [--case NAME]... [--tests REGEX] [--sweep TUNABLE=V1,V2,...]
#
# --device: a clgather device spec (index, name substring); default: the first GPU.
# --quick: only the tests labelled quick (for trying the script on a slow CPU device).
# --note TEXT: a line for bench/GPU.md (what the run was, where it was not a GPU).
# --scale: passed to clgather-bench (default auto: about 1 GiB moved a case on a GPU, so that no case
#   times the launch); PyTorch runs each case at the same size.
# --test-seconds N: stop the test suite after N seconds (default 240); the benchmark runs first.
# --case NAME: only this benchmark case (repeatable), for clgather and PyTorch alike.
# --tests REGEX: only the test suites ctest -R selects.
# --sweep TUNABLE=V1,V2,...: after the benchmark, the same cases again under each value of one tunable
#   (a one-line CLGATHER_TUNING profile over the device's row of the tuning table), into sweep.txt.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
device=""
note=""
quick=0
repeat=20
scale=auto
test_seconds=240
cases=()
tests_regex=""
sweep=""
while [ $# -gt 0 ]; do
  case "$1" in
  --device) device="$2"; shift 2 ;;
  --quick) quick=1; shift ;;
  --note) note="$2"; shift 2 ;;
  --repeat) repeat="$2"; shift 2 ;;
  --scale) scale="$2"; shift 2 ;;
  --test-seconds) test_seconds="$2"; shift 2 ;;
  --case) cases+=("$2"); shift 2 ;;
  --tests) tests_regex="$2"; shift 2 ;;
  --sweep) sweep="$2"; shift 2 ;;
  *) echo "bench/gpu.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
work="${CLGATHER_GPU_WORK:-/tmp/clgather-gpu}"
results="${OUT:-$work}"  # at most 8 files come back from $OUT: log, bench.{json,txt}, torch.json, sweep.txt, ctest.log, GPU.md
mkdir -p "$work" "$results"
log="$results/gpu.log"
: >"$log"
say() { echo "$@" | tee -a "$log"; }
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }

# 1. OpenCL: the loader and headers from the carried .debs where the machine has none; an .icd file
#    naming NVIDIA's library where the driver has one and no vendor file points at it.
# Debian's name for this machine's library folder: x86_64-linux-gnu, aarch64-linux-gnu, ...
multiarch="$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch 2>/dev/null || true)"
[ -n "$multiarch" ] || multiarch="$(uname -m)-linux-gnu"
prefix="$work/prefix"
cmake_prefix=()
if [ -d "$root/.gpu" ] && ls "$root"/.gpu/*.deb >/dev/null 2>&1; then
  for deb in "$root"/.gpu/*.deb; do
    deb_arch="$(dpkg-deb -f "$deb" Architecture 2>/dev/null || echo all)"
    machine_arch="$(dpkg --print-architecture 2>/dev/null || echo "$deb_arch")"
    if [ "$deb_arch" != all ] && [ "$deb_arch" != "$machine_arch" ]; then
      say "bench/gpu.sh: $(basename "$deb") is for $deb_arch, this machine is $machine_arch" \
        "(bash bench/gpu_fetch.sh --arch $machine_arch fetches the right ones)"
    fi
    dpkg -x "$deb" "$prefix"
  done
  libdir="$prefix/usr/lib/$multiarch"
  export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export PATH="$prefix/usr/bin:$PATH"
  cmake_prefix=(-DCMAKE_PREFIX_PATH="$prefix/usr" -DOpenCL_INCLUDE_DIR="$prefix/usr/include"
                -DOpenCL_LIBRARY="$libdir/libOpenCL.so")
  say "OpenCL loader and headers: unpacked from $(ls "$root"/.gpu/*.deb | wc -l) carried .debs into $prefix"
fi
# NVIDIA's OpenCL library: on the loader's path, or in the driver's own folder where a container mounts it
nvidia_lib="$(ldconfig -p 2>/dev/null | awk '/libnvidia-opencl.so.1/ {print $NF; exit}')"
nvidia_name="libnvidia-opencl.so.1"
if [ -z "$nvidia_lib" ]; then
  nvidia_lib="$(find /usr/local/nvidia "/usr/lib/$multiarch" /usr/lib64 /usr/lib /usr/local/cuda/compat \
    -name 'libnvidia-opencl.so*' 2>/dev/null | sort | head -1 || true)"
  nvidia_name="$nvidia_lib"  # not on the loader's path: the .icd file names it by its full path
fi
if [ -z "${OCL_ICD_VENDORS:-}" ] && [ -n "$nvidia_lib" ] && ! grep -qs nvidia /etc/OpenCL/vendors/*.icd; then
  mkdir -p "$work/icd"
  echo "$nvidia_name" >"$work/icd/nvidia.icd"
  export OCL_ICD_VENDORS="$work/icd"
  say "ICD: $OCL_ICD_VENDORS/nvidia.icd names $nvidia_name ($nvidia_lib)"
elif [ -z "$nvidia_lib" ]; then
  say "no libnvidia-opencl.so found (ldconfig, /usr/local/nvidia, /usr/lib/$multiarch, /usr/lib*):" \
    "only other OpenCL platforms can run"
fi
say "compiler: $(cc --version 2>&1 | head -1); cmake: $(cmake --version 2>&1 | head -1)"
command -v clinfo >/dev/null && clinfo -l 2>&1 | tee -a "$log" || true
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader \
  2>&1 | tee -a "$log" || true

# 2. Build (the CLI tests need a python3 with numpy: CLGATHER_PYTHON, else the one on PATH).
build="$work/build"
python="${CLGATHER_PYTHON:-$(command -v python3 || true)}"
say "== build ($(elapsed) s)"
configure=(cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCLGATHER_WERROR=ON "${cmake_prefix[@]}"
           ${python:+-DCLGATHER_PYTHON3="$python"})
tests_configured=1
if ! "${configure[@]}" >>"$log" 2>&1; then
  # most often no Check: the benchmark needs only the library, so go on without the test suites
  say "bench/gpu.sh: cmake could not configure the test suites (see $log); building without them"
  tests_configured=0
  rm -f "$build/CMakeCache.txt"
  "${configure[@]}" -DCLGATHER_BUILD_TESTS=OFF >>"$log" 2>&1 ||
    { say "bench/gpu.sh: cmake configure failed (see $log)"; tail -30 "$log"; exit 1; }
fi
# the benchmark and the CLI first, so that a test suite that fails to build still leaves figures
cmake --build "$build" -j "$(nproc)" --target clgather_cli clgather-bench >>"$log" 2>&1 ||
  { say "bench/gpu.sh: build failed (see $log)"; tail -30 "$log"; exit 1; }
"$build/host/cli/clgather" devices | tee -a "$log"
export CLGATHER_DEVICE="${device:-}"
export CLGATHER_CACHE_DIR="$work/clgather-cache"
# every spec example on the device, cross-checked; a failure is reported, and the run goes on to show
# which cases and suites still work there
"$build/host/cli/clgather" demo ${device:+--device "$device"} >"$work/demo.txt" 2>&1 && demo_line="passed" ||
  demo_line="FAILED: $(grep -iE "mismatch|error|fail" "$work/demo.txt" | head -5 | tr '\n' ' ')"
say "demo: $demo_line"

# 3. The benchmark, and torch on the same shapes.
say "== clgather-bench ($(elapsed) s)"
# one CPU reference run a case: at about 1 GiB a case the single-thread reference takes seconds, and one
# run both times it and checks every output
bench=("$build/bench/clgather-bench" ${device:+--device "$device"} --repeat "$repeat" --scale "$scale" --ref-repeat 1)
case_args=()
for name in "${cases[@]}"; do case_args+=(--case "$name"); done
if ! "${bench[@]}" "${case_args[@]}" --json "$results/bench.json" 2>&1 | tee "$results/bench.txt" >>"$log"; then
  # one failing case ends a run: go case by case, so that the others still give figures
  say "bench/gpu.sh: clgather-bench failed (see bench.txt); running each case alone"
  for name in ${cases[@]:-$("$build/bench/clgather-bench" --list)}; do
    "${bench[@]}" --no-first-call --case "$name" --json "$work/bench-$name.json" >>"$results/bench.txt" 2>&1 ||
      say "  $name: failed: $(tail -1 "$results/bench.txt")"
  done
  ${python:-python3} - "$work" "$results/bench.json" <<'PY'
import glob, json, os, sys
runs = [json.load(open(p)) for p in sorted(glob.glob(os.path.join(sys.argv[1], "bench-*.json")))]
merged = dict(runs[0]) if runs else {}
merged["cases"] = [c for r in runs for c in r.get("cases", [])]
json.dump(merged, open(sys.argv[2], "w"), indent=1)
PY
fi
say "== torch on CUDA ($(elapsed) s)"
${python:-python3} "$root/bench/torch_cuda.py" --json "$results/torch.json" --repeat "$repeat" "${case_args[@]}" \
  --bench-json "$results/bench.json" 2>&1 | tee -a "$log" || true
if [ -n "$sweep" ]; then
  tunable="${sweep%%=*}"
  say "== $tunable sweep ($(elapsed) s)"
  for value in $(echo "${sweep#*=}" | tr , ' '); do
    echo "$tunable = $value" >"$work/sweep.profile"
    echo "== $tunable = $value" >>"$results/sweep.txt"
    CLGATHER_TUNING="$work/sweep.profile" "${bench[@]}" --no-first-call "${case_args[@]}" >>"$results/sweep.txt" 2>&1 ||
      say "  $tunable = $value: the benchmark failed (see sweep.txt)"
  done
fi

# 4. The test suite on the device, time-boxed (ONNX's node tests only if they were fetched and carried).
say "== tests ($(elapsed) s)"
labels=()
[ "$quick" = 1 ] && labels=(-L quick)
failed_tests=""
if [ "$tests_configured" = 1 ]; then
  set +e
  cmake --build "$build" -j "$(nproc)" >>"$log" 2>&1 || say "bench/gpu.sh: the test suites failed to build (see $log)"
  (cd "$build" && timeout "$test_seconds" ctest "${labels[@]}" ${tests_regex:+-R "$tests_regex"} -j 4 --timeout 600 2>&1) | tee "$results/ctest.log" >>"$log"
  set -e
  tests_line="$(grep -E "tests passed|tests failed" "$results/ctest.log" | tail -1)"
  [ -n "$tests_line" ] || tests_line="not finished within $test_seconds s: $(grep -c 'Test *#' "$results/ctest.log") suites ran, $(grep -c 'Passed' "$results/ctest.log") passed"
  failed_tests="$(grep -E "^\s+[0-9]+ - |\*\*\*Failed|Exception" "$results/ctest.log" || true)"
else
  tests_line="not run: cmake could not configure the test suites on this machine (see gpu.log)"
fi
say "tests: $tests_line"

# 5. bench/GPU.md
say "== bench/GPU.md ($(elapsed) s)"
${python:-python3} - "$results" "$root/bench/GPU.md" "$tests_line" "$failed_tests" "$(elapsed)" "$note" "$demo_line" <<'PY'
import json, os, sys, datetime
work, out, tests_line, failed, seconds, note, demo_line = sys.argv[1:8]
bench_path = os.path.join(work, "bench.json")
bench = json.load(open(bench_path)) if os.path.exists(bench_path) else {"cases": []}
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
    "(`check`, `libsubunit0`, `libsubunit-dev`), about 300 kB. Carry `.gpu` to the GPU machine with the",
    "working tree (and `.deps/onnx-1.20.1` for ONNX's node tests), then run `bash bench/gpu.sh` there: it",
    "unpacks the debs with `dpkg -x` into a private prefix, writes an `.icd` file naming NVIDIA's OpenCL",
    "library into its own directory and points `OCL_ICD_VENDORS` at it, builds, runs `clgather demo`,",
    "`clgather-bench`, PyTorch on the same shapes (`bench/torch_cuda.py`, CUDA events) and then the test",
    "suite on the GPU, time-boxed, and rewrites this file. Where Check is missing it builds without the",
    "test suites and still writes the table. The current figures beside their peers: docs/performance.md;",
    "the dated log of runs: bench/RESULTS.md.",
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
    f"- Case sizes: `--scale {bench.get('scale', 1)}`"
    + (f" (about {bench['scale_target_bytes'] / 2**20:.0f} MiB moved a case where its buffers fit)"
       if bench.get("scale_target_bytes") else ""),
    f"- `clgather demo` (every spec example, cross-checked): {demo_line}",
    f"- Test suite on this device: {tests_line}",
]
if failed.strip():
    lines += ["- Suites that did not pass (ctest's word for each):", "", "```", failed.rstrip(), "```"]
lines += ["", "| case | scale | MB moved | clgather median (kernel, or wall where noted) | GB/s | ratio to copy | wall median | PyTorch (CUDA) | torch GB/s | clgather / torch (time) |",
          "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
for c in bench.get("cases", []):
    if not c.get("available"):
        lines.append(f"| {c['name']} | | | not run: {c.get('note', '')} | | | | | | |")
        continue
    t = tcases.get(c["name"])
    kernel = c.get("median_s")
    timing = "" if c.get("timing") == "kernel" else f" ({c.get('timing')})"
    row = [c["name"], str(c.get("scale", 1)), f"{(c.get('bytes') or 0) / 1e6:.0f}",
           f"{kernel * 1e3:.3f} ms{timing}" if kernel else "", f"{c.get('gbps') or 0:.1f}",
           f"{c.get('ratio_to_copy') or 0:.3f}", f"{(c.get('wall_median_s') or 0) * 1e3:.3f} ms",
           f"{t['median_s'] * 1e3:.3f} ms, {t.get('op', 'index_select')}"
           + ("" if t.get("check", "ok") == "ok" else f" ({t['check']})") if t else "",
           f"{t['gbps']:.1f}" if t else "",
           f"{kernel / t['median_s']:.2f}" if t and kernel else ""]
    lines.append("| " + " | ".join(row) + " |")
if torch.get("skipped"):
    lines += ["", f"torch: skipped ({torch['skipped']})."]
elif torch:
    lines += ["", f"torch {torch.get('torch')} on {torch.get('device')}: CUDA-event time of one call, median; "
              "outputs checked bit for bit against numpy. The quantized cases gather the packed rows, then "
              "dequantize them in torch."]
open(out, "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
if [ -n "${OUT:-}" ]; then cp "$root/bench/GPU.md" "$OUT/" 2>/dev/null || true; fi
say "bench/gpu.sh: done in $(elapsed) s"
