#!/usr/bin/env python3
"""What a host-memory call pays for its memory: clgather's numpy calls on three of the benchmark's large
shapes, with the inputs read and the output written where they lie (the tuning's host_memory_in_place,
on by default on PoCL and Intel's CPU runtime) and with them copied through fresh device buffers each
call (host_memory_in_place = 0, as before 2026-11-28 and on every other driver). One process, two contexts on the same device, rounds
alternating them (copy, in place, in place, copy); PyTorch's call on the same arrays beside them where
torch is installed.

  embedding-bag-8bit  clgather.embedding_bag, FBGEMM 8-bit rows [1,000,000, 136], 4096 bags of 32 (torch:
                      torch.ops.quantized.embedding_bag_byte_rowwise_offsets)
  embedding-bag-sum   clgather.embedding_bag, f32 [1,000,000, 128], 4096 bags of 32 (F.embedding_bag)
  embedding-f32       clgather.gather, f32 [100,000, 768], 32768 i32 indices, axis 0 (torch.index_select)

Each figure is the median over rounds of a round's median call, in ms. The arrays are numpy's, in the
pages numpy gives large arrays (transparent huge pages where the system allows madvise).

Usage: python3 bench/host_memory.py [--rounds N] [--calls N] [--device SPEC] [--case NAME]..."""

import argparse
import statistics
import time

import numpy as np

import clgather
from clgather import _lib


def make_cases(rng):
    """(name, the clgather call on a context, the torch call or None)."""
    cases = {}
    n, d, bags, per_bag = 1_000_000, 128, 4096, 32
    idx = rng.integers(0, n, size=bags * per_bag).astype(np.int64)
    offsets = np.arange(bags, dtype=np.int64) * per_bag
    rows = rng.integers(0, 256, size=(n, d + 8), dtype=np.uint8)
    fields = np.stack([np.full(n, 1 / 128), rng.integers(-64, 64, size=n) / 64.0], axis=1).astype("<f4")
    rows[:, d:] = fields.view(np.uint8)
    table = (rng.integers(-32768, 32768, size=(n, d), dtype=np.int32) / 256).astype(np.float32)
    data = (rng.integers(-32768, 32768, size=(100_000, 768), dtype=np.int32) / 256).astype(np.float32)
    rows_idx = rng.integers(0, 100_000, size=32768).astype(np.int32)

    def torch_calls():
        try:
            import torch
            import torch.nn.functional as F
        except ImportError:
            return {}
        t_idx, t_off = torch.from_numpy(idx), torch.from_numpy(offsets)
        packed, t_table = torch.from_numpy(rows), torch.from_numpy(table)
        t_data, t_rows = torch.from_numpy(data), torch.from_numpy(rows_idx.astype(np.int64))
        return {
            "embedding-bag-8bit": lambda: torch.ops.quantized.embedding_bag_byte_rowwise_offsets(
                packed, t_idx, t_off, mode=0),
            "embedding-bag-sum": lambda: F.embedding_bag(t_idx, t_table, t_off, mode="sum"),
            "embedding-f32": lambda: torch.index_select(t_data, 0, t_rows),
        }

    torch_of = torch_calls()
    cases["embedding-bag-8bit"] = (
        lambda ctx: clgather.embedding_bag(rows, idx, offsets, layout="fbgemm-8bit-rowwise", ctx=ctx),
        torch_of.get("embedding-bag-8bit"))
    cases["embedding-bag-sum"] = (lambda ctx: clgather.embedding_bag(table, idx, offsets, ctx=ctx),
                                  torch_of.get("embedding-bag-sum"))
    cases["embedding-f32"] = (lambda ctx: clgather.gather(data, rows_idx, 0, op="ov-gather-8", ctx=ctx),
                              torch_of.get("embedding-f32"))
    return cases


def median_call_ms(call, calls):
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return 1e3 * statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--calls", type=int, default=10)
    parser.add_argument("--device", default=None)
    parser.add_argument("--case", action="append", help="a case name (repeatable; default all three)")
    args = parser.parse_args()

    in_place = clgather.Context(args.device)
    copying = clgather.Context(args.device)
    st = _lib.lib.clg_context_set_tuning(copying.handle, b"host_memory_in_place = 0\n")
    if st != 0:
        raise SystemExit(f"host_inputs.py: clg_context_set_tuning failed ({st})")
    cases = make_cases(np.random.default_rng(1))
    names = args.case or list(cases)
    print(f"device: {in_place.device.name} ({in_place.device.platform}); {args.rounds} rounds of "
          f"{args.calls} calls each side")
    print(f"{'case':20} {'copied ms':>10} {'in place':>10} {'torch ms':>10} {'in place / copied':>18} "
          f"{'in place / torch':>17}")
    for name in names:
        call, torch_call = cases[name]
        for ctx in (copying, in_place):  # builds and warms both
            call(ctx)
        if torch_call:
            torch_call()
        copied, placed, torched = [], [], []
        for _ in range(args.rounds):
            for ctx, into in ((copying, copied), (in_place, placed), (in_place, placed), (copying, copied)):
                into.append(median_call_ms(lambda: call(ctx), args.calls))
            if torch_call:
                torched.append(median_call_ms(torch_call, args.calls))
        c, p = statistics.median(copied), statistics.median(placed)
        t = statistics.median(torched) if torched else float("nan")
        print(f"{name:20} {c:10.2f} {p:10.2f} {t:10.2f} {p / c:18.3f} {p / t:17.2f}")


if __name__ == "__main__":
    main()
