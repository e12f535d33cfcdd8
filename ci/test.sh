#!/usr/bin/env bash
# Set up and run every test: install packages and the OpenCL implementations, fetch ONNX's node tests
# (network), check the format, build (warnings are errors), run the whole CTest suite on the default
# device (PoCL where there is no GPU), the Python package (pip install ., pytest, ONNX's backend
# runner), then the suite again in an AddressSanitizer + UndefinedBehaviorSanitizer build; the
# reliability checks, fuzzing, and the suite on Intel's CPU runtime, Mesa rusticl and Oclgrind. Prints
# how long each part took.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
started=$(date +%s)
timings=()
part() { # name: close the previous part's timing and announce the next
  local now
  now=$(date +%s)
  [ -n "${part_name:-}" ] && timings+=("$part_name $((now - part_start)) s")
  part_name="$1"
  part_start=$now
  echo "== $1"
}

part "setup (packages, OpenCL implementations, ONNX's node tests, the oracle venv)"
bash "$CLGATHER_ROOT/ci/install_deps.sh"
bash "$CLGATHER_ROOT/ci/install_drivers.sh" >/dev/null
bash "$CLGATHER_ROOT/ci/fetch_onnx_tests.sh"
export CLGATHER_REQUIRE_ONNX_TESTS=1 # fetched above: the tests that read them must run, not skip
bash "$CLGATHER_ROOT/ci/setup_oracles.sh" # ONNX Runtime, gguf, PyTorch, OpenVINO: the outside oracles
export CLGATHER_REQUIRE_ORACLES=1
# Mesa's ICDs are loaded into every process once installed (they expose no device without
# RUSTICL_ENABLE); the PoCL runs below select PoCL alone, so its leak suppressions are the only ones needed
pocl_only="$CLGATHER_ROOT/.deps/icd/pocl"

part "format (.clang-format)"
bash "$CLGATHER_ROOT/ci/check_format.sh"

# Every PoCL run shares the release build's kernel caches, emptied once here: a stale cache must never
# hide a broken kernel, but the sanitizer builds compile the same kernels, and with the cache warm they
# skip the builds that are most of a cold run's time.
caches="$CLGATHER_ROOT/build"
rm -rf "$caches/pocl-cache" "$caches/clgather-cache"
export POCL_CACHE_DIR="$caches/pocl-cache" CLGATHER_CACHE_DIR="$caches/clgather-cache" # for ci/reliability.sh, ci/fuzz.sh

run_suite() { # build-dir, extra cmake args...
  local build="$1"; shift
  cmake -S "$CLGATHER_ROOT" -B "$build" -DCLGATHER_WERROR=ON -DCLGATHER_TEST_CACHE_DIR="$caches" "$@" >/dev/null
  cmake --build "$build" -j "$JOBS"
  (cd "$build" && ctest --output-on-failure -j "$JOBS" ${SUITE_EXCLUDE:+-E "$SUITE_EXCLUDE"})
  echo "kernel programs each suite built (its own context; PoCL compiles each again for every local size):"
  awk -f "$CLGATHER_ROOT/ci/program_builds.awk" "$build/Testing/Temporary/LastTest.log"
}

part "release build and tests (default device)"
# The randomized suites at 30% of their cases, to keep .ci/run under 30 minutes on two cores (with cold
# kernel caches most of their time is kernel builds); `ctest` in a build runs them whole.
CLGATHER_TEST_SCALE=0.3 run_suite "$CLGATHER_ROOT/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo

part "API documentation (Doxygen; an undocumented public item is an error)"
cmake --build "$CLGATHER_ROOT/build" --target docs

part "install into a temporary prefix; consumers via find_package and pkg-config; header as C99/C11/C++"
bash "$CLGATHER_ROOT/ci/check_install.sh" "$CLGATHER_ROOT/build"

part "Python package: pip install . into a venv, its pytest suite and ONNX's backend runner, on PoCL"
OCL_ICD_VENDORS="$pocl_only" bash "$CLGATHER_ROOT/ci/python.sh"

part "AddressSanitizer + UndefinedBehaviorSanitizer build (with fault injection) and tests, on PoCL"
# LLVM inside PoCL leaks on cold builds: suppress PoCL's and LLVM's leaks only, never the library's.
export LSAN_OPTIONS="suppressions=$CLGATHER_ROOT/ci/lsan.supp:print_suppressions=0"
# intercept_tls_get_addr=0: GCC 12's runtime mistakes a malloc'd dynamic-TLS block (PoCL's and LLVM's
# thread-locals) for a glibc-2.19 one when it lands 16 bytes into a page, then LeakSanitizer's tracer
# reads garbage bounds and dies ("Tracer caught signal 11") after a passing test (google/sanitizers#1322).
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:intercept_tls_get_addr=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# the randomized suites run a tenth of their cases here: the release run above has more breadth
export CLGATHER_TEST_SCALE=0.1 CLGATHER_STRESS_CALLS=250
# Left to the release run: the suites that only repeat host code this run already checks on other kernels
# (the differential suites under the extreme tuning profile, the dequantizing sweeps with the x86 nibble
# lookups held back) and the outside-oracle CLI tests (the oracles' own start-up; their CLI paths run in
# cli_gather_quantized and cli_embedding_bag here). cli_gguf stays: it feeds the GGUF reader hostile files.
SUITE_EXCLUDE='_extreme_tuning$|^(test_gather_quantized_differential_lookups|cli_quantized_oracles|cli_embedding_bag_oracles|cli_fbgemm_torch_oracle)$' \
  OCL_ICD_VENDORS="$pocl_only" run_suite "$CLGATHER_ROOT/build-asan" -DCMAKE_BUILD_TYPE=Debug -DCLGATHER_SANITIZE=ON \
  -DCLGATHER_FAULT_INJECTION=ON
unset LSAN_OPTIONS ASAN_OPTIONS UBSAN_OPTIONS CLGATHER_TEST_SCALE CLGATHER_STRESS_CALLS

part "reliability: ThreadSanitizer and valgrind, on PoCL"
OCL_ICD_VENDORS="$pocl_only" bash "$CLGATHER_ROOT/ci/reliability.sh"

part "fuzz targets, a short fixed time each, on PoCL"
OCL_ICD_VENDORS="$pocl_only" bash "$CLGATHER_ROOT/ci/fuzz.sh"

part "the other OpenCL implementations: Intel's CPU runtime, Mesa rusticl, Oclgrind"
bash "$CLGATHER_ROOT/ci/drivers.sh" "$CLGATHER_ROOT/build"

part "done"
echo "timings: ${timings[*]}"
echo "ci/test.sh: all passed in $(($(date +%s) - started)) s"
