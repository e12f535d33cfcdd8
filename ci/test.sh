#!/usr/bin/env bash
# Set up and run every test: install packages, fetch ONNX's node tests (network), check the format, build
# (warnings are errors), run the whole CTest suite on the default device (PoCL where there is no GPU), then
# again in an AddressSanitizer + UndefinedBehaviorSanitizer build; then the reliability checks and fuzzing.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
bash "$CLGATHER_ROOT/ci/install_deps.sh"
bash "$CLGATHER_ROOT/ci/fetch_onnx_tests.sh"
export CLGATHER_REQUIRE_ONNX_TESTS=1 # fetched above: the tests that read them must run, not skip

echo "== format (.clang-format)"
bash "$CLGATHER_ROOT/ci/check_format.sh"

run_suite() { # build-dir, extra cmake args...
  local build="$1"; shift
  rm -rf "$build/pocl-cache" "$build/clgather-cache"  # stale caches must never hide a broken kernel
  cmake -S "$CLGATHER_ROOT" -B "$build" -DCLGATHER_WERROR=ON "$@" >/dev/null
  cmake --build "$build" -j "$JOBS"
  (cd "$build" && ctest --output-on-failure -j 1)
}

echo "== release build and tests"
run_suite "$CLGATHER_ROOT/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo

echo "== API documentation (Doxygen; an undocumented public item is an error)"
cmake --build "$CLGATHER_ROOT/build" --target docs

echo "== install into a temporary prefix; consumers via find_package and pkg-config; header as C99/C11/C++"
bash "$CLGATHER_ROOT/ci/check_install.sh" "$CLGATHER_ROOT/build"

echo "== AddressSanitizer + UndefinedBehaviorSanitizer build (with fault injection) and tests"
# LLVM inside PoCL leaks on cold builds: suppress PoCL's and LLVM's leaks only, never the library's.
export LSAN_OPTIONS="suppressions=$CLGATHER_ROOT/ci/lsan.supp:print_suppressions=0"
# intercept_tls_get_addr=0: GCC 12's runtime mistakes a malloc'd dynamic-TLS block (PoCL's and LLVM's
# thread-locals) for a glibc-2.19 one when it lands 16 bytes into a page, then LeakSanitizer's tracer
# reads garbage bounds and dies ("Tracer caught signal 11") after a passing test (google/sanitizers#1322).
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:intercept_tls_get_addr=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# the randomized suites run a quarter of their cases here: the release run above has the full breadth
export CLGATHER_TEST_SCALE=0.25 CLGATHER_STRESS_CALLS=250
run_suite "$CLGATHER_ROOT/build-asan" -DCMAKE_BUILD_TYPE=Debug -DCLGATHER_SANITIZE=ON -DCLGATHER_FAULT_INJECTION=ON
unset LSAN_OPTIONS ASAN_OPTIONS UBSAN_OPTIONS CLGATHER_TEST_SCALE CLGATHER_STRESS_CALLS

bash "$CLGATHER_ROOT/ci/reliability.sh"

echo "== fuzz targets, a short fixed time each"
bash "$CLGATHER_ROOT/ci/fuzz.sh"
