"""Shared helpers of the clgather CLI tests: run the program, check the exit status and stderr."""
import os
import shutil
import subprocess
import sys

import numpy as np

CLGATHER = sys.argv[1]
ONNX_TESTS_DIR = sys.argv[2]  # ci/fetch_onnx_tests.sh puts ONNX's node tests here
WORK = sys.argv[3]
SKIP_STATUS = 77  # CTest's SKIP_RETURN_CODE for these tests

failures = []


def fresh_work_dir():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    return WORK


def path(name):
    return os.path.join(WORK, name)


def run(*args, env=None, timeout=300):
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    proc = subprocess.run([CLGATHER] + [str(a) for a in args], capture_output=True, text=True, env=full_env,
                          timeout=timeout)
    return proc.returncode, proc.stdout, proc.stderr


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


def expect_status(args, status, what, stderr_contains=None, env=None):
    """Run, and check the exit status and the one-line error convention. Returns (stdout, stderr)."""
    rc, out, err = run(*args, env=env)
    check(rc == status, f"{what}: exit status {rc}, expected {status}; stderr={err!r}")
    if rc < 0:
        check(False, f"{what}: killed by signal {-rc}")
    if status == 0:
        check(err == "", f"{what}: unexpected stderr {err!r}")
    else:
        lines = err.splitlines()
        check(len(lines) == 1 and lines[0].startswith("clgather: error: ") and err.endswith("\n"),
              f"{what}: stderr must be one 'clgather: error:' line, got {err!r}")
        if stderr_contains:
            check(stderr_contains in err, f"{what}: stderr lacks {stderr_contains!r}: {err!r}")
    return out, err


def onnx_test(name):
    """An ONNX backend test directory (node/ or pytorch-converted/) fetched from the onnx wheel. Where
    the fetch has not been run, the test skips (CLGATHER_REQUIRE_ONNX_TESTS=1: fails) saying how."""
    for group in ("node", "pytorch-converted"):
        d = os.path.join(ONNX_TESTS_DIR, group, name)
        if os.path.isdir(d):
            return d
    why = (f"ONNX test {name} not found under {ONNX_TESTS_DIR}: run ci/fetch_onnx_tests.sh "
           "(it downloads the onnx 1.20.1 wheel from PyPI and unpacks its gather node tests)")
    if os.environ.get("CLGATHER_REQUIRE_ONNX_TESTS") == "1":
        print("FAIL:", why)
        sys.exit(1)
    print("SKIP:", why)
    sys.exit(SKIP_STATUS)


def onnx_gather_tests():
    """Every test_gather* directory of ONNX's node tests (see onnx_test)."""
    onnx_test("test_gather_0")
    node = os.path.join(ONNX_TESTS_DIR, "node")
    return sorted(os.path.join(node, n) for n in os.listdir(node) if n.startswith("test_gather"))


def oracle_venv_python(modules):
    """The Python of the oracle venv ci/setup_oracles.sh makes (CLGATHER_ORACLES_VENV, default
    <repo>/.venv-oracles), once it imports `modules` ("onnx, gguf"). Where it cannot, the test skips saying
    how to make it, or fails when CLGATHER_REQUIRE_ORACLES=1 (CI)."""
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    venv = os.environ.get("CLGATHER_ORACLES_VENV") or os.path.join(repo, ".venv-oracles")
    python = os.path.join(venv, "bin", "python")
    probe = subprocess.run([python, "-c", f"import {modules}"], capture_output=True, text=True) \
        if os.path.exists(python) else None
    if probe is not None and probe.returncode == 0:
        return python
    why = (f"the oracle venv {venv} lacks {modules}: run ci/setup_oracles.sh "
           f"({probe.stderr.strip().splitlines()[-1] if probe and probe.stderr.strip() else 'no venv'})")
    if os.environ.get("CLGATHER_REQUIRE_ORACLES") == "1":
        print("FAIL:", why)
        sys.exit(1)
    print("SKIP:", why)
    sys.exit(SKIP_STATUS)


def save(name, array):
    p = path(name)
    np.save(p, array)
    return p


def leftovers():
    """Temporary files the program may have left in the work directory."""
    return [f for f in os.listdir(WORK) if "clgather-tmp" in f]


def finish():
    if failures:
        print(f"{len(failures)} check(s) failed")
        sys.exit(1)
    print("all checks passed")
    sys.exit(0)
