#!/usr/bin/env python3
"""PyTorch on a CUDA GPU over clgather-bench's cases (same shapes, indices and data as bench/peers.py
generates), for bench/gpu.sh: torch.index_select (Gather; advanced indexing for batch_dims 1),
torch.gather (GatherElements), advanced indexing (GatherND), and gather-then-dequantize in torch for
the quantized tables. Times each call with CUDA events: median of --repeat after two warm-ups. Bytes
moved as clgather-bench counts them. Every output is checked bit for bit against numpy on the CPU.
Writes JSON; exits 0 with "skipped" when torch or CUDA is absent.

    python3 bench/torch_cuda.py --json torch.json [--repeat N] [--case NAME ...] [--cpu]

--cpu runs the same cases on the CPU, timed on the host: a check of the script where no GPU is.
"""
import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
from peers import (CASES, FAMILY, QUANT_CASES, make_family_inputs, make_gather_inputs,  # noqa: E402
                   make_quant_inputs, numpy_dequant, numpy_family)


def gather_case(torch, dev, case):
    name, dt, shape, it, ishape, axis, bd, _ = case
    data, idx = make_gather_inputs(case)
    td = torch.from_numpy(data.view(np.int16) if data.dtype == np.float16 else data).to(dev)
    ti = torch.from_numpy(idx.astype(np.int64)).to(dev)
    if bd:  # batch_dims 1: advanced indexing, torch has no batch_dims
        rows = torch.arange(shape[0], device=dev)[:, None]
        run, op = (lambda: td[rows, ti]), "advanced indexing"
        ref = np.stack([np.take(data[b], idx[b].astype(np.int64), axis=0) for b in range(shape[0])])
    else:
        out = torch.empty(shape[:axis] + (idx.size,) + shape[axis + 1:], dtype=td.dtype, device=dev)
        flat = ti.reshape(-1)
        run, op = (lambda: torch.index_select(td, axis, flat, out=out)), "index_select"
        ref = np.take(data, idx.astype(np.int64), axis=axis)
    return run, op, ref, idx.nbytes + 2 * ref.nbytes


def family_case(torch, dev, case):
    name, kind, dt, shape, it, ishape, attr, _ = case
    data, idx = make_family_inputs(case)
    fill, result = numpy_family(data, idx, kind, attr)
    fill()
    ref = result().copy()
    td, ti = torch.from_numpy(data).to(dev), torch.from_numpy(idx).to(dev)
    if kind == "elements":  # torch.gather takes indices narrower than the input off the axis
        out = torch.empty(idx.shape, dtype=td.dtype, device=dev)
        return (lambda: torch.gather(td, attr, ti, out=out)), "gather", ref, idx.nbytes + 2 * ref.nbytes
    b, m = attr, idx.shape[-1]
    lead = tuple(torch.arange(data.shape[k], device=dev).reshape((-1,) + (1,) * (idx.ndim - 2 - k))
                 for k in range(b))
    comps = tuple(ti[..., j] for j in range(m))  # views, made once: the indexing is what is timed
    return (lambda: td[lead + comps]), "advanced indexing", ref, idx.nbytes + 2 * ref.nbytes


def quant_case(torch, dev, case):
    """Gather the packed rows, then dequantize them (the order that reads least)."""
    qin = make_quant_inputs(case)
    fill, result = numpy_dequant(qin)
    fill()
    ref = result().copy()
    ti = torch.from_numpy(qin["idx"]).to(dev)
    n = ti.numel()
    if qin["kind"] == "q4":
        packed = torch.from_numpy(qin["packed"]).to(dev)
        scales = torch.from_numpy(qin["scales"]).to(dev)

        def run():
            p = packed.index_select(0, ti)
            v = torch.stack((p & 15, p >> 4), dim=-1).to(torch.float32).reshape(n, -1, 32)
            s = scales.index_select(0, ti).to(torch.float32)
            return (v * s[:, :, None]).to(torch.float16).reshape(n, -1)
        row_bytes = qin["packed"].shape[1] + qin["scales"].shape[1] * 2
    else:
        blocks = qin["blocks"]
        q = torch.from_numpy(np.ascontiguousarray(blocks[:, :, 2:]).view(np.int8).reshape(blocks.shape[0], -1)).to(dev)
        d = torch.from_numpy(np.ascontiguousarray(blocks[:, :, 0:2]).view(np.float16)
                             .reshape(blocks.shape[:2])).to(dev)

        def run():
            v = q.index_select(0, ti).to(torch.float32).reshape(n, -1, 32)
            return (v * d.index_select(0, ti).to(torch.float32)[:, :, None]).reshape(n, -1)
        row_bytes = blocks.shape[1] * blocks.shape[2]
    return run, "gather, then dequantize", ref, qin["idx"].nbytes + row_bytes * n + ref.nbytes


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", required=True)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--case", action="append", help="repeatable; default: all")
    ap.add_argument("--cpu", action="store_true", help="run on the CPU, host-timed: to try the script without a GPU")
    args = ap.parse_args()
    try:
        import torch
        if not args.cpu and not torch.cuda.is_available():
            raise RuntimeError("torch sees no CUDA device")
    except Exception as e:  # no torch, or no GPU: say so, never fail the run
        json.dump({"skipped": str(e)}, open(args.json, "w"))
        print(f"torch_cuda.py: skipped ({e})")
        return 0
    dev = torch.device("cpu" if args.cpu else "cuda")
    builders = [(c[0], gather_case, c) for c in CASES if c[0] != "onnx-checked"]  # torch checks nothing
    builders += [(c[0], family_case, c) for c in FAMILY] + [(c[0], quant_case, c) for c in QUANT_CASES]
    results = []
    for name, build, case in builders:
        if args.case and name not in args.case:
            continue
        run, op, ref, moved = build(torch, dev, case)
        for _ in range(2):
            run()
        times = []
        for _ in range(args.repeat):
            if args.cpu:
                t0 = time.perf_counter()
                got = run()
                times.append(time.perf_counter() - t0)
                continue
            torch.cuda.synchronize()
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            got = run()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end) / 1e3)
        host = got.cpu().numpy().reshape(ref.shape)
        ok = bool(np.array_equal(host.view(np.uint8), ref.view(np.uint8)))
        median = float(np.median(times))
        results.append({"name": name, "op": op, "median_s": median, "bytes": moved, "gbps": moved / median / 1e9,
                        "check": "ok" if ok else "MISMATCH"})
        print(f"torch {name:22s} {median * 1e3:9.3f} ms {moved / median / 1e9:8.1f} GB/s  {results[-1]['check']}"
              f"  ({op})", flush=True)
        del run, got
        if not args.cpu:
            torch.cuda.empty_cache()
    json.dump({"device": "cpu" if args.cpu else torch.cuda.get_device_name(0), "torch": torch.__version__, "cases": results},
              open(args.json, "w"), indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
