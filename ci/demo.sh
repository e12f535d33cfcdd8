#!/usr/bin/env bash
# Set up and run the main job: build clgather and run `clgather demo` on the default device (a GPU if
# there is one, else PoCL): every worked example of the specs, cross-checked with the CPU reference.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
bash "$CLGATHER_ROOT/ci/install_deps.sh"
cmake -S "$CLGATHER_ROOT" -B "$CLGATHER_ROOT/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$CLGATHER_ROOT/build" -j "$JOBS"
"$CLGATHER_ROOT/build/host/cli/clgather" devices
"$CLGATHER_ROOT/build/host/cli/clgather" demo "$@"
