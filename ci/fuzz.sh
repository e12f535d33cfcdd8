#!/usr/bin/env bash
# Build the libFuzzer targets with clang (ASan + UBSan) and run each for a short fixed time, starting
# from the seed corpora in tests/fuzz/corpus. Any crash, sanitizer report or OpenCL/reference mismatch
# fails the run and leaves the input under build-fuzz/artifacts. FUZZ_SECONDS sets the time per target.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
seconds="${FUZZ_SECONDS:-12}"
build="$CLGATHER_ROOT/build-fuzz"
CC=clang cmake -S "$CLGATHER_ROOT" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLGATHER_WERROR=ON -DCLGATHER_FUZZ=ON \
      -DCLGATHER_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j "$JOBS"
mkdir -p "$build/artifacts"
export LSAN_OPTIONS="suppressions=$CLGATHER_ROOT/ci/lsan.supp:print_suppressions=0"
# the kernel caches: those the caller set (ci/test.sh shares the release build's), else this build's own
export POCL_CACHE_DIR="${POCL_CACHE_DIR:-$build/pocl-cache}" CLGATHER_CACHE_DIR="${CLGATHER_CACHE_DIR:-$build/clgather-cache}"
for target in npy onnx gguf plan differential quantized_plan embedding_bag_plan embedding_bag_differential; do
  corpus="$(mktemp -d)"
  cp -r "$CLGATHER_ROOT/tests/fuzz/corpus/$target/." "$corpus/"
  # a differential target's seeds of its costlier cases sit in folders of their own (tests/fuzz/CMakeLists.txt)
  for part in quantized tables; do
    if [ -d "$CLGATHER_ROOT/tests/fuzz/corpus/${target}_$part" ]; then
      cp -r "$CLGATHER_ROOT/tests/fuzz/corpus/${target}_$part/." "$corpus/"
    fi
  done
  extra=()
  leaks=1
  # PoCL's LLVM leaks through operator new during kernel builds, with stacks that name no library
  # frame LSan could suppress; the differential targets check results, the ASan test suites check leaks.
  case "$target" in *differential) leaks=0 extra=(-detect_leaks=0) ;; esac
  echo "== fuzz_$target for ${seconds}s"
  # the fuzzer's own status: with pipefail, "|| true" after the pipe would also swallow it (it did)
  set +e
  ASAN_OPTIONS="detect_leaks=$leaks" \
    "$build/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -rss_limit_mb=4096 \
    -artifact_prefix="$build/artifacts/$target-" "${extra[@]}" "$corpus" 2>&1 | grep -E "^#[0-9]+[[:space:]]+DONE|ERROR|SUMMARY|fuzz_"
  status=${PIPESTATUS[0]}
  set -e
  rm -rf "$corpus"
  [ "$status" -eq 0 ] || { echo "fuzz_$target failed (exit $status); inputs in $build/artifacts"; exit 1; }
done
echo "fuzzing: ok"
