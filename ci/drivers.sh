#!/usr/bin/env bash
# The test suite on the OpenCL implementations beside PoCL, on the release build ci/test.sh made, each
# installed by ci/install_drivers.sh and selected alone through OCL_ICD_VENDORS:
#   Intel's CPU runtime (PyPI wheels): every suite of the release build, the randomized ones at 15%
#     of their cases;
#   Mesa rusticl on llvmpipe: every suite of the release build but the dequantizing gather's
#     exhaustive sweep (test_gather_quantized_differential: 7 minutes there; its examples, policies,
#     validation and CLI suites run) and its fuzz seeds' replay (fuzz_replay_differential_quantized:
#     about 4 minutes there, most of it kernel builds), cli_npy_roundtrip (the .npy reader and writer
#     on every dtype and byte order: host code, 56 s there, run on PoCL and Intel), bench_kernel_option
#     (a benchmark over 100 MB, 76 s there; the option it tests is the host's, run on PoCL and Intel),
#     and the outside-oracle CLI tests cli_quantized_oracles, cli_gguf and cli_embedding_bag_oracles
#     (107, 76 and some 40 s there, most of it the oracles' start-up; the programs they run are
#     cli_gather_quantized's and cli_embedding_bag's, held against the oracles on PoCL and Intel), and
#     test_embedding_bag_quantized (360 s there in the clean-clone run of 927e756; cli_embedding_bag and
#     cli_demo run quantized bags on rusticl, PoCL and Intel run the suite) and
#     test_embedding_bag_tables_quantized (the same three programs, 3 minutes there at 10%; cli_embedding_bag
#     and cli_demo run a table-batched FBGEMM mix there), test_embedding_bag_tables (68 s there;
#     cli_embedding_bag runs the table-batched call there), the replays of EmbeddingBag's differential
#     fuzz seeds (fuzz_replay_embedding_bag_differential*: 116 s there for the float tables' alone; the
#     suites above hold its kernels to the reference there) and test_gather_tree (about 100 s there,
#     most of it builds of its one small kernel; cli_gather_tree and cli_demo run it there, and PoCL,
#     Intel and Oclgrind run the suite) and cli_gather_quantized (74 s there: the command's host paths,
#     run on PoCL and Intel; test_gather_quantized_examples runs every layout's kernels there) (CI time);
#     the randomized ones at a
#     tenth of their cases and the eight-thread stress at 60 calls a thread (each
#     call and each kernel build costs about 0.1 s);
#   Oclgrind, with its data-race, uninitialized-read and API checks: every suite but the one that
#     hammers a context from eight threads (tests/drivers/oclgrind_threads), cli_npy_roundtrip and the
#     outside-oracle CLI tests (as on rusticl), test_embedding_bag_quantized (almost 4 minutes simulated
#     even at 2%, clean of reports since the workaround of tests/drivers/oclgrind_stale_shadow; its
#     decode is the dequantizing gather's and its reduction the float EmbeddingBag's, both simulated
#     here, and cli_embedding_bag and cli_demo run quantized bags) and test_embedding_bag_tables_quantized
#     (since the quantized bag kernel decodes into registers, Oclgrind 21.10's uninitialized-value plugin
#     segfaults in its own memcpy on it, as on the whole-block K-quants: docs/drivers.md) and the
#     replays of EmbeddingBag's differential fuzz seeds (386 s simulated for the float tables' alone;
#     test_embedding_bag_validation's hostile values run there), the randomized
#     ones at 2% of their
#     cases, CK_FORK=no;
#     any Oclgrind report (ci/oclgrind_reports.awk) fails the run;
# then every driver reproducer of tests/drivers on every implementation against expected.txt.
# Prints how long each part takes. Usage: ci/drivers.sh [BUILD_DIR] [implementation...]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
build="${1:-$CLGATHER_ROOT/build}"
shift || true
only=("$@")
icd="$CLGATHER_ROOT/.deps/icd"
bash "$CLGATHER_ROOT/ci/install_drivers.sh" "$icd" >/dev/null
timings=()

wanted() { [ ${#only[@]} -eq 0 ] || [[ " ${only[*]} " == *" $1 "* ]]; }

# ctest on one implementation, fresh caches; extra arguments go to ctest
suite_on() { # implementation, ctest args...
  local impl="$1"
  shift
  local start log
  start=$(date +%s)
  log="$build/ctest-$impl.log"
  rm -rf "$build/pocl-cache" "$build/clgather-cache"
  echo "== the test suite on $impl"
  set +e
  (
    # shellcheck disable=SC1090
    source "$icd/env/$impl.sh"
    cd "$build" && ctest --output-on-failure "$@"
  ) >"$log" 2>&1
  local status=$?
  set -e
  grep -E "tests passed|tests failed|\*\*\*|Not Run" "$log" || true
  timings+=("$impl: $(($(date +%s) - start)) s")
  if [ "$status" -ne 0 ]; then
    echo "the test suite failed on $impl (exit $status); its log:"
    cat "$log"
    return 1
  fi
}

# Two tests at a time: most of a cold run is kernel builds (and on Oclgrind, simulation), each on one core.
# The differential suites' runs under tests/tuning/extreme.profile (*_extreme_tuning) are PoCL's: a
# tuning changes no kernel's semantics, and one implementation proves the host's choices hold. The
# tuner's own test (cli_tune, which times each case dozens of times) runs on PoCL and Intel's runtime:
# on rusticl every build and call costs about 0.1 s, and Oclgrind simulates each work-item (which
# also keeps bench_kernel_option, a benchmark run over 100 MB, off it).
if wanted intel; then CLGATHER_TEST_SCALE=0.15 suite_on intel -j "$JOBS" -E '_extreme_tuning$'; fi
if wanted rusticl; then
  CLGATHER_TEST_SCALE=0.1 CLGATHER_STRESS_CALLS=60 suite_on rusticl -j "$JOBS" \
    -E '^(test_gather_quantized_differential(_sweeps|_lookups)?|fuzz_replay_differential_quantized|fuzz_replay_embedding_bag_differential(_quantized|_tables)?|cli_tune|bench_kernel_option|bench_versus_option|bench_evict_option|cli_quantized_oracles|cli_embedding_bag_oracles|cli_gguf|cli_npy_roundtrip|cli_gather_quantized|test_embedding_bag_quantized|test_embedding_bag_tables(_quantized)?|test_gather_tree)$|_extreme_tuning$'
fi
if wanted oclgrind; then
  # the report filter must see a report where ctest puts it (after the test's number, interleaved)
  fixture=$'3: Oclgrind - OpenCL runtime error detected\n5: Invalid read of size 4 at global memory address 0x0\n3: \tFunction: clBuildProgram\n3: \tError:    CL_BUILD_PROGRAM_FAILURE\n4: Oclgrind - OpenCL runtime error detected\n4: \tFunction: clSetKernelArg\n4: \tError:    CL_INVALID_ARG_SIZE'
  [ "$(printf '%s\n' "$fixture" | awk -f "$CLGATHER_ROOT/ci/oclgrind_reports.awk" | wc -l)" -eq 2 ] ||
    { echo "ci/oclgrind_reports.awk does not find the reports of its fixture"; exit 1; }
  # -V: every test's output, where Oclgrind writes its reports; two at a time (the simulator runs on one core)
  CLGATHER_TEST_SCALE=0.02 CK_FORK=no CLGATHER_STRESS_CALLS=20 suite_on oclgrind -V -j "$JOBS" -E '^(test_concurrency|fuzz_replay_embedding_bag_differential(_quantized|_tables)?|cli_tune|bench_kernel_option|bench_versus_option|bench_evict_option|cli_quantized_oracles|cli_embedding_bag_oracles|cli_gguf|cli_npy_roundtrip|test_embedding_bag_quantized|test_embedding_bag_tables_quantized)$|_extreme_tuning$'
  reports="$(awk -f "$CLGATHER_ROOT/ci/oclgrind_reports.awk" "$build/ctest-oclgrind.log" | sort | uniq -c || true)"
  if [ -n "$reports" ]; then
    echo "Oclgrind reported:"
    echo "$reports"
    exit 1
  fi
  echo "Oclgrind: no data race, uninitialized read, out-of-bounds access, divergence or API error reported"
fi

echo "== driver reproducers (tests/drivers/expected.txt; CPU: $(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo), $(if grep -q avx512f /proc/cpuinfo; then echo AVX-512; else echo 'no AVX-512'; fi))"
start=$(date +%s)
failures=0
for impl in pocl intel rusticl oclgrind; do
  wanted "$impl" || [ "$impl" = pocl ] || continue
  for repro in "$build"/tests/drivers/repro_*; do
    name="$(basename "$repro")"
    name="${name#repro_}"
    want="$(awk -v n="$name" -v i="$impl" '$1 == n && $2 == i {print $3}' "$CLGATHER_ROOT/tests/drivers/expected.txt")"
    want="${want:-PASS}"
    set +e
    (
      # shellcheck disable=SC1090
      source "$icd/env/$impl.sh"
      [ "$impl" = oclgrind ] && export OCLGRIND_UNINITIALIZED=1
      timeout 300 "$repro"
    ) >/dev/null 2>&1
    rc=$?
    set -e
    got=PASS
    [ "$rc" -eq 0 ] || got=FAIL
    # EITHER: a bug whose appearance depends on the CPU the driver compiles for (the reproducer's README
    # says where it was seen); the outcome is printed, and neither counts as a difference
    printf '  %-30s %-9s %s (expected %s)\n' "$name" "$impl" "$got" "$want"
    [ "$got" = "$want" ] || [ "$want" = EITHER ] || failures=$((failures + 1))
  done
done
timings+=("reproducers: $(($(date +%s) - start)) s")
echo "driver timings: ${timings[*]}"
[ "$failures" -eq 0 ] || { echo "$failures reproducer outcomes differ from tests/drivers/expected.txt"; exit 1; }
echo "drivers: ok"
