"""Usage errors exit 2 with one error line; --help and --version exit 0."""
from cli_common import *

fresh_work_dir()
d = save("d.npy", np.arange(6, dtype=np.float32))
i = save("i.npy", np.array([0, 1], dtype=np.int64))
o = path("o.npy")

out, _ = expect_status(["--help"], 0, "--help")
check("clgather gather --op PRESET" in out, "--help shows the gather usage")
out, _ = expect_status(["--version"], 0, "--version")
check(out.startswith("clgather "), "--version output")

expect_status([], 2, "no command")
expect_status(["frobnicate"], 2, "unknown command", "unknown command")
expect_status(["gather"], 2, "gather without options", "--op is required")
expect_status(["gather", "--op", "onnx-13", "--data", d, "--indices", i], 2, "missing --out", "--out is required")
expect_status(["gather", "--op", "onnx-99", "--data", d, "--indices", i, "--out", o], 2, "bad preset", "unknown --op")
expect_status(["gather", "--op", "onnx-13", "--data", d, "--indices", i, "--out", o, "--axis", "x1"], 2,
              "non-numeric axis", "--axis")
expect_status(["gather", "--op", "onnx-13", "--data", d, "--indices", i, "--out", o, "--axis", "99999999999999999999"],
              2, "axis overflowing int64")
expect_status(["gather", "--op", "onnx-13", "--data", d, "--indices", i, "--out", o, "--batch-dims", ""], 2,
              "empty batch-dims")
expect_status(["gather", "--op", "onnx-13", "--data", d, "--indices", i, "--out", o, "--oob", "wrap"], 2, "bad --oob")
expect_status(["gather", "--op", "ov-gather-8", "--data", d, "--indices", i, "--out", o, "--axis", "0",
               "--axis-file", d], 2, "--axis with --axis-file")
expect_status(["gather", "--op", "onnx-13", "--data", d, "--indices", i, "--out", o, "--axis-file", d], 2,
              "--axis-file with an ONNX preset")
expect_status(["gather", "--op", "onnx-13", "--data", d, "--indices", i, "--out", o, "--bogus"], 2, "unknown option")
expect_status(["gather", "--op", "onnx-13", "--data", d, "--indices", i, "--out", o, "--data", d], 2,
              "repeated option", "more than once")
expect_status(["gather", "--op", "onnx-13", "--data", d, "--indices", i, "--out"], 2, "option without value")
expect_status(["gather", "--op", "onnx-13", "--data", d, "--indices", i, "--out", o, "stray"], 2, "stray argument")
expect_status(["gather", "--op", "onnx-13", "--data", d, "--indices", i, "--out", o, "--verify=yes"], 2,
              "flag with a value")
expect_status(["gather-tree", "--step-ids", d], 2, "gather-tree missing options", "is required")
expect_status(["devices", "--all"], 2, "devices with an option")
expect_status(["demo", "--fast"], 2, "demo with an unknown option")
expect_status(["conformance"], 2, "conformance without directories")
check(not os.path.exists(o), "no output after usage errors")
finish()
