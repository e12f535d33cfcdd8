#!/usr/bin/env bash
# The Python package: `pip install .` from this checkout into a venv (default <repo>/.venv-python,
# gitignored) beside pinned test packages, then its pytest suite (tests/python): numpy and pyopencl
# paths, every error, and ONNX's backend test runner over the family's node tests (the test data ships
# in the onnx 1.20.1 wheel), and com.microsoft.GatherBlockQuantized against ONNX Runtime (the models
# tests/cli/oracle_cases.py makes in the oracle venv of ci/setup_oracles.sh). Runs on the default
# device; ci/test.sh selects PoCL alone. A missing pyopencl or device fails rather than skips (and a
# missing oracle venv too where CLGATHER_REQUIRE_ORACLES=1, as ci/test.sh sets it), and so does a run
# that collects no tests (pytest's 5).
# Usage: ci/python.sh [VENV]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
venv="${1:-$CLGATHER_ROOT/.venv-python}"
python="${PYTHON:-python3}"
pins=(numpy==2.3.5 onnx==1.20.1 ml_dtypes==0.6.0 pyopencl==2026.1.4 pytest==9.2.0)

[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
pip=("$venv/bin/python" -m pip --disable-pip-version-check --quiet)
"${pip[@]}" install "${pins[@]}"
# the library is built by scikit-build-core in build-python/ (kept: a rerun rebuilds only what changed)
"${pip[@]}" install --force-reinstall --no-deps "$CLGATHER_ROOT"

cd "$CLGATHER_ROOT"
# the tests import the installed package (tests/python holds no package of its name)
CLGATHER_REQUIRE_PYOPENCL=1 "$venv/bin/python" -m pytest -q -p no:cacheprovider tests/python
