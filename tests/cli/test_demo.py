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
    for example in ["onnx GatherElements-11/13: example 1", "onnx GatherElements-11/13: example 2",
                    "openvino GatherElements-6: example 3", "onnx GatherND-11/12/13: example 4",
                    "onnx GatherND-12/13: example 5", "openvino GatherND-5/8: example 6", "openvino GatherND-8: example 7"]:
        check(example in out, f"demo on {device} shows {example}")
    for preset in ["ov-gather-elements-6", "onnx-12", "ov-gather-nd-5", "ov-gather-nd-8"]:
        check(f"{preset} " in out and "PASS" in out, f"demo on {device} runs {preset}")
    check("driver" in out, "demo names the driver")
    for layout in ["ort-block", "ggml-q4_0", "ggml-q4_1", "ggml-q5_0", "ggml-q5_1", "ggml-q8_0", "ggml-iq4_nl",
                   "ggml-q2_K", "ggml-q3_K", "ggml-q4_K", "ggml-q5_K", "ggml-q6_K", "ggml-iq4_xs", "ov-compressed",
                   "fbgemm-8bit-rowwise", "fbgemm-4bit-rowwise"]:
        check(f"{layout} " in out and "dequantizing gather: " + layout in out,
              f"demo on {device} shows a {layout} example")
    for example in ["EmbeddingBagOffsetsSum-3: example", "EmbeddingBagPackedSum-3: example",
                    "EmbeddingSegmentsSum-3: example", "torch embedding_bag: documented call, mode mean",
                    "torch embedding_bag: documented call, mode max", "torch EmbeddingBag: padding_idx example"]:
        check("embedding bag: openvino " + example in out or "embedding bag: " + example in out,
              f"demo on {device} shows {example}")
    check(out.count("= reference = the spec's values") == 6, f"demo on {device}: every EmbeddingBag example passes")
    check("embedding bag: table-batched (FBGEMM TBE)" in out and "tables       PASS  = reference = hand-checked values"
          in out, f"demo on {device}: the table-batched EmbeddingBag example passes")
    check("embedding bag: table-batched FBGEMM mix" in out and "tables mix   PASS  = reference = hand-checked values"
          in out, f"demo on {device}: the table-batched FBGEMM mix (f32 and 8-bit rowwise tables) passes")
    check("embedding bag: over a quantized table" in out and "PASS  = reference = the values worked out by hand" in out,
          f"demo on {device}: the EmbeddingBag over a quantized table passes")
expect_status(["demo", "--device", "no-such-device-xyz"], 1, "demo on an unknown device", "CLG_ERR_NO_DEVICE")
finish()
