#!/usr/bin/env python3
"""PyTorch on a CUDA GPU over clgather-bench's cases (same shapes, indices and data as bench/peers.py
generates), for bench/gpu.sh: torch.index_select (Gather; advanced indexing for batch_dims 1),
torch.gather (GatherElements), advanced indexing (GatherND), gather-then-dequantize in torch for
the quantized tables, and F.embedding_bag (EmbeddingBag). Times each call with CUDA events: median of --repeat after two warm-ups. Bytes
moved as clgather-bench counts them. Every output is checked bit for bit against numpy on the CPU.
Writes JSON; exits 0 with "skipped" when torch or CUDA is absent. The cases are bench/cases.txt.

    python3 bench/torch_cuda.py --json torch.json [--repeat N] [--case NAME ...] [--bench-json FILE] [--cpu]

--bench-json: a clgather-bench --json output; each case runs at the scale factor it ran at there
(--scale N instead: every case at N; default 1, the table's sizes).
--cpu runs the same cases on the CPU, timed on the host: a check of the script where no GPU is.
"""
import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import cases as case_table  # noqa: E402
from peers import (family_attr, make_bag_inputs, make_family_inputs, make_gather_inputs,  # noqa: E402
                   make_quant_inputs, numpy_bag, numpy_dequant, numpy_family)


def gather_case(torch, dev, case):
    shape, axis, bd = case.data_shape, case.axis, case.batch_dims
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
    kind, attr = case.op, family_attr(case)
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
    """Gather the packed rows, then dequantize them (the order that reads least). torch has no
    dequantizer of ggml's other block layouts (K-quants, i-quants): for those only the gather of the
    packed rows is timed, the first pass of any gather-then-dequantize and so a bound on it."""
    qin = make_quant_inputs(case)
    if qin["kind"] == "ggml":
        blocks = qin["blocks"]
        rows = torch.from_numpy(np.ascontiguousarray(blocks.reshape(blocks.shape[0], -1))).to(dev)
        ti = torch.from_numpy(qin["idx"]).to(dev)
        ref = blocks.reshape(blocks.shape[0], -1)[qin["idx"]]
        return ((lambda: rows.index_select(0, ti)), "gather of the packed rows only (a bound: no dequantize)", ref,
                qin["idx"].nbytes + 2 * ref.nbytes)
    fill, result = numpy_dequant(qin)
    fill()
    ref = result().copy()
    ti = torch.from_numpy(qin["idx"]).to(dev)
    n = ti.numel()
    if qin["kind"] == "q4":
        packed = torch.from_numpy(qin["packed"]).to(dev)
        scales = torch.from_numpy(qin["scales"]).to(dev)
        blocks = qin["scales"].shape[1]
        zero_points = torch.from_numpy(qin["zero_points"]).to(dev) if "zero_points" in qin else None

        def run():
            p = packed.index_select(0, ti)
            v = torch.stack((p & 15, p >> 4), dim=-1).to(torch.float32).reshape(n, -1, 32)
            if zero_points is not None:
                z = zero_points.index_select(0, ti)
                z = torch.stack((z & 15, z >> 4), dim=-1).reshape(n, -1)[:, :blocks]
                v = v - z.to(torch.float32)[:, :, None]
            s = scales.index_select(0, ti).to(torch.float32)
            return (v * s[:, :, None]).to(torch.float16).reshape(n, -1)
        row_bytes = qin["packed"].shape[1] + qin["scales"].shape[1] * 2
        if zero_points is not None:
            row_bytes += qin["zero_points"].shape[1]
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


def bag_case(torch, dev, case):
    """EmbeddingBag (op=bag, offsets form): F.embedding_bag, one call a table (a table-batched case
    concatenates the tables' outputs to [B, T * D], as FBGEMM lays them out). The 8-bit and 4-bit rowwise
    tables: gather the rows' values (the 4-bit ones unpacked, a value a byte), scales and biases, dequantize
    in f32 and sum each bag (PyTorch's quantized embedding_bag_byte_rowwise_offsets and
    embedding_bag_4bit_rowwise_offsets run on the CPU only). Bytes: indices and offsets read, every
    gathered row read, output written, as clgather-bench counts them."""
    import torch.nn.functional as F
    inp = make_bag_inputs(case)
    fill, result = numpy_bag(inp)
    fill()
    ref = result().copy()
    B, K, D, T = inp["B"], inp["K"], inp["D"], inp["T"]
    offsets = torch.from_numpy(inp["offsets"]).to(dev)
    idx = [torch.from_numpy(inp["idx"][t]).to(dev) for t in range(T)]
    index_bytes = inp["idx"].nbytes + T * inp["offsets"].nbytes
    if inp["kind"] in ("8bit", "4bit"):  # tables [T, N, D] (q, one value a byte) and [T, N] (scale, bias)
        q = torch.from_numpy(inp["q"]).to(dev)
        scale, bias = torch.from_numpy(inp["scale"]).to(dev), torch.from_numpy(inp["bias"]).to(dev)

        def bag_8bit(t):
            x = q[t].index_select(0, idx[t]).to(torch.float32) * scale[t].index_select(0, idx[t])[:, None]
            return (x + bias[t].index_select(0, idx[t])[:, None]).reshape(B, K, D).sum(dim=1)

        def run_8bit():
            return bag_8bit(0) if T == 1 else torch.cat([bag_8bit(t) for t in range(T)], 1)
        moved = index_bytes + T * B * K * inp["rows"].shape[2] + ref.nbytes  # the packed rows' bytes
        return run_8bit, "gather, dequantize, sum (torch ops)" + (" a table, then cat" if T > 1 else ""), ref, moved
    tables = [torch.from_numpy(inp["tables"][t]).to(dev) for t in range(T)]
    moved = index_bytes + T * B * K * D * 4 + ref.nbytes
    if T == 1:
        return (lambda: F.embedding_bag(idx[0], tables[0], offsets, mode=inp["mode"])), "embedding_bag", ref, moved
    return ((lambda: torch.cat([F.embedding_bag(idx[t], tables[t], offsets, mode=inp["mode"]) for t in range(T)], 1)),
            "embedding_bag a table, then cat", ref, moved)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", required=True)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--case", action="append", help="repeatable; default: all")
    ap.add_argument("--cpu", action="store_true", help="run on the CPU, host-timed: to try the script without a GPU")
    ap.add_argument("--cases", help="the case table (default bench/cases.txt)")
    ap.add_argument("--bench-json", help="clgather-bench --json output: run each case at its scale there")
    ap.add_argument("--scale", type=int, default=1, help="every case at this factor (without --bench-json)")
    args = ap.parse_args()
    table = case_table.load(args.cases) if args.cases else case_table.load()
    factors = {}
    if args.bench_json and os.path.exists(args.bench_json):
        with open(args.bench_json) as f:
            factors = {c["name"]: c.get("scale", 1) for c in json.load(f).get("cases", [])}
    try:
        import torch
        if not args.cpu and not torch.cuda.is_available():
            raise RuntimeError("torch sees no CUDA device")
    except Exception as e:  # no torch, or no GPU: say so, never fail the run
        json.dump({"skipped": str(e)}, open(args.json, "w"))
        print(f"torch_cuda.py: skipped ({e})")
        return 0
    dev = torch.device("cpu" if args.cpu else "cuda")
    builders = {"gather": gather_case, "elements": family_case, "nd": family_case, "quantized": quant_case,
                "bag": bag_case}
    results = []
    for base in table:
        name = base.name
        # torch has no GatherTree, and the ONNX presets check every index, which torch does not
        if base.op not in builders or (base.preset or "").startswith("onnx-") or (args.case and name not in args.case):
            continue
        case = base.scaled(factors.get(name, args.scale))
        build = builders[case.op]
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
        results.append({"name": name, "op": op, "scale": case.scale, "median_s": median, "bytes": moved,
                        "gbps": moved / median / 1e9, "check": "ok" if ok else "MISMATCH"})
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
