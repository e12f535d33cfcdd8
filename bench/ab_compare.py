#!/usr/bin/env python3
"""Paired A/B comparison of two clgather-bench builds on a noisy machine.

A shared machine drifts by up to 2x within minutes, so two builds timed one after the other are not
comparable. This runs the two builds' clgather-bench binaries in rounds, A B B A, A B B A, ..., each
on the same cases, and for every round takes the ratio of B's kernel median to A's. The median of
those per-round ratios is the figure to quote: drift slower than a round cancels out.

    bench/ab_compare.py --a build-a/bench/clgather-bench --b build-b/bench/clgather-bench \\
        --case embedding-f32 --case batched --rounds 8 [--repeat 15] [-- extra bench args]

Prints, per case, the median time of each build over all runs, the per-round B/A ratios, their median
and range. Below 1 means B is faster.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile


def run_bench(binary, cases, repeat, extra):
    """One clgather-bench run; returns {case: median_s}."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "result.json")
        cmd = [binary, "--repeat", str(repeat), "--ref-repeat", "1", "--no-first-call", "--json", path]
        for c in cases:
            cmd += ["--case", c]
        cmd += extra
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            sys.exit(f"ab_compare: {' '.join(cmd)} failed ({done.returncode}):\n{done.stderr}")
        with open(path) as f:
            result = json.load(f)
    return {c["name"]: c["median_s"] for c in result["cases"] if c.get("median_s")}


def main():
    parser = argparse.ArgumentParser(description="paired A/B of two clgather-bench binaries")
    parser.add_argument("--a", required=True, help="baseline clgather-bench")
    parser.add_argument("--b", required=True, help="candidate clgather-bench")
    parser.add_argument("--case", action="append", required=True, help="bench case (repeatable)")
    parser.add_argument("--rounds", type=int, default=8, help="rounds of A B B A (default 8)")
    parser.add_argument("--repeat", type=int, default=15, help="timed runs per case per bench run")
    parser.add_argument("extra", nargs="*", help="further clgather-bench arguments, after --")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")

    times = {"a": {c: [] for c in args.case}, "b": {c: [] for c in args.case}}
    ratios = {c: [] for c in args.case}
    for r in range(args.rounds):
        got = {"a": [], "b": []}
        for which in ("a", "b", "b", "a"):
            got[which].append(run_bench(getattr(args, which), args.case, args.repeat, args.extra))
        for c in args.case:
            a = [g[c] for g in got["a"]]
            b = [g[c] for g in got["b"]]
            times["a"][c] += a
            times["b"][c] += b
            ratios[c].append(sum(b) / sum(a))
        line = " ".join(f"{c} {ratios[c][-1]:.3f}" for c in args.case)
        print(f"round {r + 1}/{args.rounds}: B/A {line}", flush=True)

    print(f"\n{'case':<20} {'A median':>10} {'B median':>10} {'B/A median':>11} {'B/A range':>15}")
    for c in args.case:
        ta = statistics.median(times["a"][c]) * 1e3
        tb = statistics.median(times["b"][c]) * 1e3
        q = ratios[c]
        print(f"{c:<20} {ta:8.3f}ms {tb:8.3f}ms {statistics.median(q):11.3f} {min(q):7.3f}-{max(q):.3f}")


if __name__ == "__main__":
    main()
