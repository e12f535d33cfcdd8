"""com.microsoft.GatherBlockQuantized through clgather.onnx_backend against ONNX Runtime: the models
and outputs tests/cli/oracle_cases.py makes in the oracle venv of ci/setup_oracles.sh (onnxruntime's
CPU execution provider computed each output), bit for bit. Where that venv is missing the tests skip
saying so, or fail when CLGATHER_REQUIRE_ORACLES=1 (CI)."""

import os
import pathlib
import subprocess

import numpy as np
import pytest
from conftest import same_bits

onnx = pytest.importorskip("onnx")
from onnx import numpy_helper  # noqa: E402

import clgather.onnx_backend as backend  # noqa: E402

REPO = pathlib.Path(__file__).resolve().parents[2]
VENV = pathlib.Path(os.environ.get("CLGATHER_ORACLES_VENV") or REPO / ".venv-oracles")


@pytest.fixture(scope="module")
def ort_cases(tmp_path_factory):
    python = VENV / "bin" / "python"
    probe = subprocess.run([str(python), "-c", "import onnx, onnxruntime"], capture_output=True, text=True) \
        if python.exists() else None
    if probe is None or probe.returncode != 0:
        why = f"the oracle venv {VENV} lacks onnx or onnxruntime: run ci/setup_oracles.sh"
        if os.environ.get("CLGATHER_REQUIRE_ORACLES") == "1":
            pytest.fail(why)
        pytest.skip(why)
    out = tmp_path_factory.mktemp("oracles")
    made = subprocess.run([str(python), str(REPO / "tests" / "cli" / "oracle_cases.py"), str(out)],
                          capture_output=True, text=True, timeout=600)
    assert made.returncode == 0, made.stderr[-2000:]
    cases = sorted((out / "ort").iterdir())
    assert len(cases) >= 7
    return cases


def load_tensor(path):
    tensor = onnx.TensorProto()
    tensor.ParseFromString(path.read_bytes())
    return numpy_helper.to_array(tensor)


def test_gather_block_quantized_matches_onnx_runtime(ort_cases):
    for case in ort_cases:
        model = onnx.load(str(case / "model.onnx"))
        assert backend.is_compatible(model), case.name
        data_set = case / "test_data_set_0"
        inputs = [load_tensor(p) for p in sorted(data_set.glob("input_*.pb"))]
        expected = load_tensor(data_set / "output_0.pb")
        (out,) = backend.prepare(model).run(inputs)
        assert same_bits(out, expected), case.name
        assert np.isfinite(out.astype(np.float32)).any(), case.name
