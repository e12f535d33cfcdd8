"""clgather devices lists the OpenCL devices, marks the default, and mentions the CPU reference."""
from cli_common import *

fresh_work_dir()
out, _ = expect_status(["devices"], 0, "devices")
for word in ["OpenCL device", "driver:", "OpenCL C:", "global memory:", "max allocation:", "fp16:", "fp64:",
             "(default)", "cpu"]:
    check(word in out, f"devices output mentions {word!r}")
finish()
