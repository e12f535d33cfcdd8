#!/usr/bin/env bash
# Reliability checks beyond the test suites: a ThreadSanitizer build of the concurrency test (on the
# CPU reference and on the default OpenCL device), and valgrind memcheck of the CPU path and the
# command-line tool (zero errors, no definite leaks).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
onnx_tests="$CLGATHER_ROOT/.deps/onnx-1.20.1"  # ci/fetch_onnx_tests.sh

echo "== ThreadSanitizer: 8 threads sharing one context"
tsan="$CLGATHER_ROOT/build-tsan"
cmake -S "$CLGATHER_ROOT" -B "$tsan" -DCMAKE_BUILD_TYPE=Debug -DCLGATHER_WERROR=ON -DCMAKE_C_FLAGS="-fsanitize=thread -fno-omit-frame-pointer" \
      -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=thread" >/dev/null
cmake --build "$tsan" -j "$JOBS" --target test_concurrency
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"
# the kernel caches: those the caller set (ci/test.sh shares the release build's), else this build's own
export CLGATHER_CACHE_DIR="${CLGATHER_CACHE_DIR:-$tsan/clgather-cache}" POCL_CACHE_DIR="${POCL_CACHE_DIR:-$tsan/pocl-cache}"
CLGATHER_DEVICE=cpu "$tsan/tests/test_concurrency"
CLGATHER_STRESS_CALLS=250 "$tsan/tests/test_concurrency"
unset TSAN_OPTIONS

echo "== valgrind memcheck: the CPU reference path and the command-line tool"
cli="$CLGATHER_ROOT/build/host/cli/clgather"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
memcheck() { valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
                      --show-leak-kinds=definite "$@"; }
memcheck "$cli" demo --device cpu >/dev/null
memcheck "$cli" conformance --device cpu "$onnx_tests"/node/test_gather_[0-9n]*/ "$onnx_tests"/pytorch-converted/*/ \
         >/dev/null
/usr/bin/python3 - "$work" <<'PY'
import sys, numpy as np
w = sys.argv[1]
np.save(f"{w}/data.npy", np.arange(60, dtype=np.float32).reshape(5, 12))
np.save(f"{w}/idx.npy", np.array([[4, -1], [0, 7]], dtype=np.int64))
PY
memcheck "$cli" gather --op ov-gather-8 --data "$work/data.npy" --indices "$work/idx.npy" --axis 0 --device cpu \
         --out "$work/out.npy"
# refusals must be clean too (exit 1 is the expected answer here, 99 would be a memcheck error)
set +e
memcheck "$cli" gather --op onnx-13 --data "$work/data.npy" --indices "$work/idx.npy" --device cpu --out "$work/bad.npy" \
         2>/dev/null
status=$?
set -e
[ "$status" -eq 1 ] || { echo "memcheck of a refused gather: exit $status (want 1)"; exit 1; }
echo "reliability checks: ok"
