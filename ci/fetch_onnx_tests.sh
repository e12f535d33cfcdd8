#!/usr/bin/env bash
# Fetch ONNX's own backend node tests for the gather family, as `clgather conformance` and the CLI tests
# read them: the test_gather* directories of onnx/backend/test/data/node and pytorch-converted's
# test_Embedding*, from the onnx 1.20.1 wheel on PyPI (1.23 no longer ships the test data). Needs the
# network once; idempotent. Usage: ci/fetch_onnx_tests.sh [DEST] (default .deps/onnx-1.20.1).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
version=1.20.1
dest="${1:-$CLGATHER_ROOT/.deps/onnx-$version}"
if [ -f "$dest/.complete" ]; then
  echo "ci/fetch_onnx_tests.sh: ONNX $version node tests present in $dest"
  exit 0
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# one fixed wheel, whatever this machine's Python: the test data is the same in every wheel of a release
python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
  --platform manylinux_2_28_x86_64 --python-version 3.11 --implementation cp --abi cp311 \
  "onnx==$version" -d "$work"
rm -rf "$dest"
mkdir -p "$dest"
python3 - "$work"/onnx-"$version"-*.whl "$dest" <<'PY'
import os, sys, zipfile
wheel, dest = sys.argv[1], sys.argv[2]
prefix = "onnx/backend/test/data/"
wanted = ("node/test_gather", "pytorch-converted/test_Embedding")
count = 0
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        if not name.startswith(prefix) or name.endswith("/"):
            continue
        rel = name[len(prefix):]
        if rel.startswith(wanted):
            target = os.path.join(dest, rel)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with z.open(name) as src, open(target, "wb") as out:
                out.write(src.read())
            count += 1
if count == 0:
    sys.exit(f"no gather node tests found in {wheel}")
print(f"ci/fetch_onnx_tests.sh: {count} files from {os.path.basename(wheel)} into {dest}")
PY
touch "$dest/.complete"
