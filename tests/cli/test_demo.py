"""clgather demo runs every worked example on the default device and on the CPU reference."""
from cli_common import *

fresh_work_dir()
for device in [None, "cpu"]:
    out, _ = expect_status(["demo"] + (["--device", device] if device else []), 0, f"demo on {device}")
    check("FAIL" not in out, f"demo on {device} reports no failure")
    for spec in ["onnx-gather-1-11-13.md", "openvino-gather-1.rst", "openvino-gather-7.rst", "openvino-gather-8.txt",
                 "openvino-gathertree-1.rst"]:
        check(spec in out, f"demo on {device} covers {spec}")
    for example in range(1, 8):
        check(f"openvino-gather-8.txt: example {example}:" in out, f"demo covers Gather-8 example {example}")
    check("driver" in out, "demo names the driver")
    for layout in ["ort-block", "ggml-q4_0", "ggml-q8_0", "ov-compressed"]:
        check(f"{layout} " in out and "dequantizing gather: " + layout in out,
              f"demo on {device} shows a {layout} example")
expect_status(["demo", "--device", "no-such-device-xyz"], 1, "demo on an unknown device", "CLG_ERR_NO_DEVICE")
finish()
