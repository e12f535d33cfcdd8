#!/usr/bin/env python3
"""torch.index_select on a CUDA GPU over clgather-bench's gather cases (same shapes, indices and data
as bench/peers.py generates), for bench/gpu.sh. Times each call with CUDA events: median of --repeat
after two warm-ups, the output preallocated. Bytes moved as clgather-bench counts them: indices +
gathered rows read + output written. Writes JSON; exits 0 with "skipped" when torch or CUDA is absent.

    python3 bench/torch_cuda.py --json torch.json [--repeat N]
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
from peers import CASES, make_gather_inputs  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", required=True)
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    try:
        import torch
        if not torch.cuda.is_available():
            raise RuntimeError("torch sees no CUDA device")
    except Exception as e:  # no torch, or no GPU: say so, never fail the run
        json.dump({"skipped": str(e)}, open(args.json, "w"))
        print(f"torch_cuda.py: skipped ({e})")
        return 0
    dev = torch.device("cuda")
    results = []
    for case in CASES:
        name, dt, shape, it, ishape, axis, bd, _ = case
        if name == "onnx-checked":
            continue  # the same gather as embedding-f32: torch checks nothing on the GPU
        data, idx = make_gather_inputs(case)
        td = torch.from_numpy(data.view(np.int16) if data.dtype == np.float16 else data).to(dev)
        ti = torch.from_numpy(idx.astype(np.int64)).to(dev)
        if bd:  # batch_dims 1: advanced indexing, torch has no batch_dims
            rows = torch.arange(shape[0], device=dev)[:, None]
            def run():
                return td[rows, ti]
        else:
            out = torch.empty(shape[:axis] + (idx.size,) + shape[axis + 1:], dtype=td.dtype, device=dev)
            flat = ti.reshape(-1)
            def run():
                return torch.index_select(td, axis, flat, out=out)
        for _ in range(2):
            run()
        torch.cuda.synchronize()
        times = []
        for _ in range(args.repeat):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            got = run()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end) / 1e3)
        # bit-exact against numpy, as clgather is checked
        ref = np.take(data, idx.astype(np.int64), axis=axis) if not bd else \
            np.stack([np.take(data[b], idx[b].astype(np.int64), axis=0) for b in range(shape[0])])
        host = got.cpu().numpy().view(data.dtype).reshape(ref.shape)
        ok = bool(np.array_equal(host.view(np.uint8), ref.view(np.uint8)))
        moved = idx.nbytes + 2 * ref.nbytes
        median = float(np.median(times))
        results.append({"name": name, "median_s": median, "bytes": moved, "gbps": moved / median / 1e9,
                        "check": "ok" if ok else "MISMATCH"})
        print(f"torch {name:20s} {median * 1e3:9.3f} ms {moved / median / 1e9:8.1f} GB/s  {results[-1]['check']}")
    json.dump({"device": torch.cuda.get_device_name(0), "torch": torch.__version__, "cases": results},
              open(args.json, "w"), indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
