#!/usr/bin/env python3
"""Run clgather-bench's cases through CPU peers and print one table.

    bench/setup_peers.sh            # once: makes .venv with numpy, onnx, onnxruntime, openvino, gguf, ggml, torch
    .venv/bin/python bench/peers.py [--bench build/bench/clgather-bench] [--repeat N] [--case NAME]... [--scale N]
    python3 bench/peers.py --list   # the case names, one a line (needs nothing installed)

The cases are bench/cases.txt, the table clgather-bench reads too. Same shapes, same index values and
same data as clgather-bench: both generate them with the counter-based splitmix64 (value i of stream s =
mix64(s + (i + 1) * 0x9E3779B97F4A7C15)); the index fingerprint (FNV-1a of the index bytes) is checked
against the one clgather-bench writes in its JSON, and each case runs at the scale factor that JSON
gives it.

Peers: numpy.take, torch.index_select (batched: advanced indexing, which has no batch_dims), ONNX
Runtime CPU (one-node Gather model; batched: GatherND with batch_dims=1), the OpenVINO CPU plugin
(Gather-8; GatherTree-1 for the tree case); for GatherElements numpy.take_along_axis, torch.gather,
ONNX Runtime's GatherElements and OpenVINO's GatherElements-6; for GatherND advanced indexing in numpy
and torch, ONNX Runtime's GatherND and OpenVINO's GatherND-8; and a numpy / torch GatherTree written as
a loop over time steps vectorized over batch and beam. The dequantizing-gather cases run through ONNX Runtime's
com.microsoft GatherBlockQuantized, numpy and torch (gather the packed rows, then dequantize in f32) for
layouts ort-u4, ort-u8 and ggml-q8_0, and, for every ggml layout (ggml-q8_0, ggml-q4_K, ...), gguf-py's
gguf.quants.dequantize (gather the rows, then dequantize) and ggml's own CPU get_rows (ggml-python, which
builds ggml from source), on as many threads as clgather has cores.
Each peer is timed like clgather's wall time: median over --repeat runs after warm-up, output
preallocated where the API allows, caches flushed between runs by copying a scratch array twice the
last-level cache (at least 64 MiB) on the host thread, as clgather-bench does under --evict host, which
this script passes it (its default, a copy on the device, leaves the caches in another state).
clgather's figure is clgather-bench's wall time (API call + wait). Outputs of all peers are checked
against the first peer's, bit for bit (clgather-bench checks clgather's against its CPU reference).

Page size: random rows of a large table cost a TLB miss each on 4 KiB pages and far less on 2 MiB
ones, and numpy asks for transparent huge pages on its large arrays while a CPU OpenCL driver's buffers
come from malloc. --pages gives every system the same pages (the script starts itself again with the
environment that does it): huge (the default: GLIBC_TUNABLES glibc.malloc.hugetlb=1 for malloc, so PoCL's
buffers too, THP_MEM_ALLOC_ENABLE=1 for torch's allocator, numpy's own madvise on) or small (4 KiB pages
for all: hugetlb=0, numpy's madvise off). The table's first line says which, and how much of the peers'
memory the kernel gave in huge pages; clgather-bench's --json says the same of its process. The case data
start on a page (numpy's own large arrays start 16 bytes past one), as a driver's buffers and PyTorch's
tensors are aligned.

A shared machine's speed can drift within minutes, so clgather is timed next to its peers: each case
runs through clgather-bench just before its peers and again just after, and clgather's figure is the
mean of the two wall medians (linear drift cancels). --clgather-json instead takes every case from one
earlier clgather-bench run, which can sit minutes away from the peers' times.

--paired (the EmbeddingBag cases): no clgather-bench; clgather runs in this process through its Python
package (installed in this venv: pip install .), numpy arrays read in place, the output preallocated,
several tables packed once (clgather.PackedTables), and each timed run of it is paired with one of the
peer's, the same eviction before each, the order alternating. The table gives both medians and the
median of the pairs' ratios with its range: a drift of the machine within a pair cancels, where
between processes it does not. clgather's time then includes the Python call (tens of microseconds,
bench/python_overhead.py), and its output is checked against the peer's bit for bit (the cases' values
make every sum exact in f32, whatever the order).
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases as case_table  # noqa: E402

try:
    import numpy as np
except ImportError:  # --list needs no numpy; everything else does
    np = None

SYSTEMS = ["numpy", "torch", "onnxruntime", "openvino", "gguf", "ggml", "fbgemm"]
# the table's element type names, as numpy types
NUMPY_TYPES = {"f32": "float32", "f16": "float16", "u8": "uint8", "i32": "int32", "i64": "int64"}


def np_type(name):
    return np.dtype(NUMPY_TYPES[name])


def sm_values(seed, count, start=0):
    """Values start..start+count-1 of splitmix64 stream `seed`, as uint64 (wrapping arithmetic)."""
    golden, m1, m2 = np.uint64(0x9E3779B97F4A7C15), np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
    out = np.empty(count, dtype=np.uint64)
    chunk = 1 << 22
    with np.errstate(over="ignore"):
        for lo in range(0, count, chunk):
            hi = min(count, lo + chunk)
            z = np.arange(start + lo + 1, start + hi + 1, dtype=np.uint64) * golden + np.uint64(seed)
            z = (z ^ (z >> np.uint64(30))) * m1
            z = (z ^ (z >> np.uint64(27))) * m2
            out[lo:hi] = z ^ (z >> np.uint64(31))
    return out


def aligned_empty(shape, dtype):
    """An empty array that starts on a page. numpy puts a large array 16 bytes past one, where a 512-byte
    f32 row spans nine lines instead of eight; PyTorch's own tensors start on 64 bytes at least. The case
    data every system reads are made this way (bench/RESULTS.md, 2026-11-29 13:55-15:30: a misaligned f32
    table cost clgather's bag call a quarter more time, PyTorch's an eighth)."""
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape)) * dtype.itemsize
    raw = np.empty(nbytes + 4096, dtype=np.uint8)
    start = -raw.ctypes.data % 4096
    return raw[start:start + nbytes].view(dtype).reshape(shape)


def page_aligned(array):
    """A copy of array that starts on a page (aligned_empty)."""
    out = aligned_empty(array.shape, array.dtype)
    out[...] = array
    return out


def fill_bytes(nbytes, seed):
    """nbytes of stream seed's words, little-endian, in an array that starts on a page."""
    words = (nbytes + 7) // 8
    out = aligned_empty((words * 8,), np.uint8)
    out.view("<u8")[:] = sm_values(seed, words)
    return out[:nbytes]


def same_bits(a, b):
    """Whether two outputs have the same shape and the same bytes."""
    return a.shape == b.shape and np.array_equal(a.view(np.uint8), b.view(np.uint8))


def fnv1a(b):
    h = 0xCBF29CE484222325
    for x in memoryview(np.ascontiguousarray(b)).cast("B"):
        h = ((h ^ x) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def make_gather_inputs(case):
    """Data from stream seed + 1, indices uniform over the axis from stream seed (as clgather_bench.c)."""
    dt, shape = np_type(case.data_type), case.data_shape
    nbytes = int(np.prod(shape)) * dt.itemsize
    data = fill_bytes(nbytes, case.seed + 1).view(dt).reshape(shape)
    extent = shape[case.axis]
    count = int(np.prod(case.index_shape))
    idx = (sm_values(case.seed, count) % np.uint64(extent)).astype(np_type(case.index_type)).reshape(case.index_shape)
    return data, idx


def family_attr(case):
    """GatherElements: the axis; GatherND: batch_dims."""
    return case.axis if case.op == "elements" else case.batch_dims


def make_family_inputs(case):
    """As clgather_bench.c: index i uniform over the extent it indexes (GatherElements: the axis;
    GatherND: component i % m against data.shape[batch_dims + i % m])."""
    dt, shape, ishape, attr = np_type(case.data_type), case.data_shape, case.index_shape, family_attr(case)
    nbytes = int(np.prod(shape)) * dt.itemsize
    data = fill_bytes(nbytes, case.seed + 1).view(dt).reshape(shape)
    count = int(np.prod(ishape))
    if case.op == "elements":
        extent = np.full(count, shape[attr], dtype=np.uint64)
    else:
        m = ishape[-1]
        extent = np.tile(np.array(shape[attr:attr + m], dtype=np.uint64), count // m)
    idx = (sm_values(case.seed, count) % extent).astype(np_type(case.index_type)).reshape(ishape)
    return data, idx


def make_tree_inputs(case):
    (T, B, W), seed = case.data_shape, case.seed
    n = T * B * W
    steps = (sm_values(seed, n) % np.uint64(1000)).astype(np.int32).reshape(T, B, W)
    parents = (sm_values(seed + 1, n) % np.uint64(W)).astype(np.int32).reshape(T, B, W)
    lens = (np.uint64(T // 2) + sm_values(seed + 2, B) % np.uint64(T // 2 + 1)).astype(np.int32)
    return steps, parents, lens, np.int32(0)


PAGES_ENV = "CLGATHER_PEERS_PAGES"


def glibc_tunables_with_hugetlb(tunables, value):
    """GLIBC_TUNABLES with glibc.malloc.hugetlb set to value, every other tunable kept."""
    kept = [t for t in (tunables or "").split(":") if t and not t.startswith("glibc.malloc.hugetlb=")]
    return ":".join(kept + [f"glibc.malloc.hugetlb={value}"])


def use_pages(mode):
    """Start this script again, once, in the environment that gives every system in it (and the
    clgather-bench it runs) `mode` pages; returns in that process."""
    if os.environ.get(PAGES_ENV) == mode:
        return
    env = dict(os.environ)
    env[PAGES_ENV] = mode
    env["GLIBC_TUNABLES"] = glibc_tunables_with_hugetlb(env.get("GLIBC_TUNABLES"), 1 if mode == "huge" else 0)
    if mode == "huge":
        env["THP_MEM_ALLOC_ENABLE"] = "1"
    else:
        env.pop("THP_MEM_ALLOC_ENABLE", None)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, [sys.executable, os.path.abspath(__file__)] + sys.argv[1:], env)


def numpy_madvise(enabled):
    """numpy's madvise(MADV_HUGEPAGE) on its large arrays, on or off (numpy 1 and 2 name it differently)."""
    core = getattr(np, "_core", None) or getattr(np, "core")
    core.multiarray._set_madvise_hugepage(enabled)


def thp_mode():
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
            found = re.search(r"\[(\w+)\]", f.read())
    except OSError:
        return "unknown"
    return found.group(1) if found else "unknown"


def anon_huge_bytes():
    """This process's anonymous memory in transparent huge pages now; None where Linux does not say."""
    try:
        with open("/proc/self/smaps_rollup") as f:
            for line in f:
                if line.startswith("AnonHugePages:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def flush_bytes():
    """As clgather-bench sizes its evicting copy: twice the largest CPU cache, at least 64 MiB."""
    largest = 0
    for path in glob.glob("/sys/devices/system/cpu/cpu0/cache/index*/size"):
        try:
            with open(path) as f:
                text = f.read().strip()
        except OSError:
            continue
        units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
        if text and text[-1] in units and text[:-1].isdigit():
            largest = max(largest, int(text[:-1]) * units[text[-1]])
    return max(64 << 20, 2 * largest)


class Flusher:
    def __init__(self, nbytes=None):
        self.a = np.ones(nbytes or flush_bytes(), dtype=np.uint8)
        self.b = np.empty_like(self.a)

    def __call__(self):
        np.copyto(self.b, self.a)


def time_it(fn, repeat, flush):
    fn()
    fn()
    ts = []
    for _ in range(repeat):
        flush()
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return float(np.median(ts))


# ---- peers for Gather ---------------------------------------------------------------------------------

def numpy_gather(data, idx, axis, bd):
    if bd:
        out = np.empty(idx.shape + data.shape[2:], dtype=data.dtype)
        rows = np.arange(data.shape[0])[:, None]
        return (lambda: out.__setitem__(Ellipsis, data[rows, idx])), (lambda: out)
    oshape = data.shape[:axis] + idx.shape + data.shape[axis + 1:]
    out = np.empty(oshape, dtype=data.dtype)
    return (lambda: np.take(data, idx, axis=axis, out=out)), (lambda: out)


def torch_gather(data, idx, axis, bd):
    import torch
    if data.dtype == np.float16:
        td = torch.from_numpy(data.view(np.int16))  # bits; index_select moves bits
    else:
        td = torch.from_numpy(data)
    ti = torch.from_numpy(idx.astype(np.int64) if idx.dtype != np.int64 else idx)
    if bd:
        rows = torch.arange(data.shape[0])[:, None]
        holder = {}

        def run():
            holder["o"] = td[rows, ti]
        return run, (lambda: holder["o"].numpy().view(data.dtype))
    oshape = data.shape[:axis] + idx.shape + data.shape[axis + 1:]
    out = torch.empty(tuple(int(s) for s in (data.shape[:axis] + (idx.size,) + data.shape[axis + 1:])), dtype=td.dtype)
    flat = ti.reshape(-1)
    return (lambda: torch.index_select(td, axis, flat, out=out)), (lambda: out.numpy().view(data.dtype).reshape(oshape))


def onnx_type(dt):
    from onnx import TensorProto
    return {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.float16): TensorProto.FLOAT16,
            np.dtype(np.uint8): TensorProto.UINT8, np.dtype(np.int32): TensorProto.INT32,
            np.dtype(np.int64): TensorProto.INT64}[np.dtype(dt)]


def ort_gather(data, idx, axis, bd):
    import onnx
    import onnxruntime as ort
    from onnx import helper
    if bd:
        idx_in = idx[..., None].astype(np.int64)
        node = helper.make_node("GatherND", ["data", "indices"], ["out"], batch_dims=1)
        oshape = list(idx.shape) + list(data.shape[2:])
    else:
        idx_in = idx
        node = helper.make_node("Gather", ["data", "indices"], ["out"], axis=axis)
        oshape = list(data.shape[:axis]) + list(idx.shape) + list(data.shape[axis + 1:])
    graph = helper.make_graph(
        [node], "g",
        [helper.make_tensor_value_info("data", onnx_type(data.dtype), list(data.shape)),
         helper.make_tensor_value_info("indices", onnx_type(idx_in.dtype), list(idx_in.shape))],
        [helper.make_tensor_value_info("out", onnx_type(data.dtype), oshape)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    # bind once: inputs by reference, output preallocated
    out = np.empty(oshape, dtype=data.dtype)
    binding = sess.io_binding()
    binding.bind_cpu_input("data", data)
    binding.bind_cpu_input("indices", idx_in)
    binding.bind_output("out", "cpu", 0, out.dtype, out.shape, out.ctypes.data)
    return (lambda: sess.run_with_iobinding(binding)), (lambda: out)


def ov_modules():
    import openvino as ov
    try:
        import openvino.opset8 as ops8
    except ImportError:
        import openvino.runtime.opset8 as ops8
    return ov, ops8


def ov_gather(data, idx, axis, bd):
    ov, ops = ov_modules()
    if data.dtype == np.float16:
        # The CPU plugin runs f16 through f32 (slow, and NaN payloads change); Gather moves bits, so
        # give it the same bits as u16.
        bits = ov_gather(data.view(np.uint16), idx, axis, bd)
        return bits[0], (lambda: bits[1]().view(np.float16))
    p = ops.parameter(list(data.shape), data.dtype, name="data")
    i = ops.parameter(list(idx.shape), idx.dtype, name="indices")
    g = ops.gather(p, i, ops.constant(np.int64(axis)), bd)
    model = ov.Model([g], [p, i], "gather")
    core = ov.Core()
    compiled = core.compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    req = compiled.create_infer_request()
    inputs = {0: data, 1: idx}
    return (lambda: req.infer(inputs, share_inputs=True)), (lambda: req.get_output_tensor(0).data)


# ---- peers for the dequantizing gather -----------------------------------------------------------------
# Every peer gets the same values as clgather-bench (data from stream seed + 1, finite f16 scales from
# stream 77, indices from stream seed), in the layout its API takes; repacking is not timed. numpy and
# torch gather the packed rows and scales, then dequantize them in f32 (q * scale, rounded once to the
# output type): dequantizing the whole table first would cost the table, not the gathered rows.

def finite_f16_bits(count):
    return (np.uint64(0x2000) | (sm_values(77, count) & np.uint64(0x8FFF))).astype(np.uint16)


def make_quant_inputs(case):
    """ort-u4 and ort-u8: packed nibbles (low nibble first) and f16 scales per 32 values; ort-u8 adds
    u8 zero points two a byte (stream seed + 2). ggml-TYPE: rows of ggml's blocks, random bytes with
    each f16 field finite (every field of block i the same value, stream 77), as clgather-bench makes them."""
    (rows, values), count, seed = case.data_shape, int(np.prod(case.index_shape)), case.seed
    idx = (sm_values(seed, count) % np.uint64(rows)).astype(np.int64)
    if case.layout in ("ort-u4", "ort-u8"):
        packed = fill_bytes(rows * values // 2, seed + 1).reshape(rows, values // 2)
        scales = finite_f16_bits(rows * values // 32).view(np.float16).reshape(rows, values // 32)
        inp = {"kind": "q4", "packed": packed, "scales": scales, "idx": idx}
        if case.layout == "ort-u8":
            per_row = (values // 32 + 1) // 2
            inp["zero_points"] = fill_bytes(rows * per_row, seed + 2).reshape(rows, per_row)
        return inp
    ggml_type = case.layout[len("ggml-"):]
    block_values, block_bytes, fields = case_table.GGML_BLOCKS[ggml_type]
    nblocks = values // block_values
    blocks = fill_bytes(rows * nblocks * block_bytes, seed + 1).reshape(rows, nblocks, block_bytes)
    d = finite_f16_bits(rows * nblocks).view(np.uint8).reshape(rows, nblocks, 2)
    for at in fields:
        blocks[:, :, at:at + 2] = d
    return {"kind": "q8_0" if ggml_type == "q8_0" else "ggml", "ggml_type": ggml_type, "blocks": blocks, "idx": idx}


def unpack_zero_points(packed, blocks):
    """[rows, blocks] zero points of [rows, (blocks + 1) // 2] bytes, low nibble first, as f32."""
    both = np.stack((packed & 15, packed >> 4), axis=-1).reshape(packed.shape[0], -1)
    return both[:, :blocks].astype(np.float32)


def q8_0_parts(blocks):
    """int8 quants [rows, values] and f32 scales [rows, blocks] of ggml q8_0 rows (not timed)."""
    q = np.ascontiguousarray(blocks[:, :, 2:]).view(np.int8).reshape(blocks.shape[0], -1)
    d = np.ascontiguousarray(blocks[:, :, 0:2]).view(np.float16).reshape(blocks.shape[:2]).astype(np.float32)
    return q, d


def numpy_dequant(inp):
    idx = inp["idx"]
    if inp["kind"] == "q4":
        packed, scales = inp["packed"], inp["scales"]
        out = np.empty((idx.size, packed.shape[1] * 2), dtype=np.float16)

        zero_points = inp.get("zero_points")

        def run():
            p = packed[idx]
            v = np.empty((idx.size, p.shape[1], 2), dtype=np.float32)
            v[:, :, 0] = p & 15
            v[:, :, 1] = p >> 4
            v = v.reshape(idx.size, -1, 32)
            if zero_points is not None:
                v -= unpack_zero_points(zero_points[idx], scales.shape[1])[:, :, None]
            s = scales[idx].astype(np.float32)
            out[...] = (v * s[:, :, None]).reshape(out.shape)
        return run, (lambda: out)
    blocks = inp["blocks"]
    out = np.empty((idx.size, blocks.shape[1] * 32), dtype=np.float32)

    def run_q8():
        g = blocks[idx]
        d = g[:, :, 0:2].copy().view(np.float16).astype(np.float32)
        q = g[:, :, 2:].view(np.int8).astype(np.float32)
        out[...] = (q * d).reshape(out.shape)
    return run_q8, (lambda: out)


def torch_dequant(inp):
    import torch
    ti = torch.from_numpy(inp["idx"])
    if inp["kind"] == "q4":
        packed = torch.from_numpy(inp["packed"])
        scales = torch.from_numpy(inp["scales"])
        blocks = inp["scales"].shape[1]
        zero_points = torch.from_numpy(inp["zero_points"]) if "zero_points" in inp else None
        holder = {}

        def run():
            p = packed.index_select(0, ti)
            v = torch.stack((p & 15, p >> 4), dim=-1).to(torch.float32).reshape(ti.numel(), -1, 32)
            if zero_points is not None:
                z = zero_points.index_select(0, ti)
                z = torch.stack((z & 15, z >> 4), dim=-1).reshape(ti.numel(), -1)[:, :blocks]
                v = v - z.to(torch.float32)[:, :, None]
            s = scales.index_select(0, ti).to(torch.float32)
            holder["o"] = (v * s[:, :, None]).to(torch.float16).reshape(ti.numel(), -1)
        return run, (lambda: holder["o"].numpy())
    q, d = q8_0_parts(inp["blocks"])
    tq, td = torch.from_numpy(q), torch.from_numpy(d)
    holder = {}

    def run_q8():
        v = tq.index_select(0, ti).to(torch.float32).reshape(ti.numel(), -1, 32)
        holder["o"] = (v * td.index_select(0, ti)[:, :, None]).reshape(ti.numel(), -1)
    return run_q8, (lambda: holder["o"].numpy())


def ort_dequant(inp):
    """com.microsoft GatherBlockQuantized, one node. u8 data: q4 as bits 4 with the case's zero points
    (ort-u8) or explicit zeros (ort-u4; absent ones would mean 8), q8_0 as q + 128 with zero point 128
    and f32 scales (the output takes the scales' type), so every value is the same product."""
    import onnx
    import onnxruntime as ort
    from onnx import TensorProto, helper
    idx = inp["idx"]
    if inp["kind"] == "q4":
        data, scales = inp["packed"], inp["scales"]
        zp = inp.get("zero_points")
        if zp is None:
            zp = np.zeros((data.shape[0], (scales.shape[1] + 1) // 2), dtype=np.uint8)
        bits, stype, out_dt = 4, TensorProto.FLOAT16, np.float16
        out_shape = [idx.size, data.shape[1] * 2]
    else:
        q, scales = q8_0_parts(inp["blocks"])
        data = (q.view(np.uint8) ^ np.uint8(0x80))  # q + 128
        zp = np.full(scales.shape, 128, dtype=np.uint8)
        bits, stype, out_dt = 8, TensorProto.FLOAT, np.float32
        out_shape = [idx.size, data.shape[1]]
    node = helper.make_node("GatherBlockQuantized", ["data", "indices", "scales", "zero_points"], ["out"],
                            domain="com.microsoft", bits=bits, block_size=32, gather_axis=0, quantize_axis=1)
    graph = helper.make_graph(
        [node], "g",
        [helper.make_tensor_value_info("data", TensorProto.UINT8, list(data.shape)),
         helper.make_tensor_value_info("indices", TensorProto.INT64, [idx.size]),
         helper.make_tensor_value_info("scales", stype, list(scales.shape)),
         helper.make_tensor_value_info("zero_points", TensorProto.UINT8, list(zp.shape))],
        [helper.make_tensor_value_info("out", stype, out_shape)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21), helper.make_opsetid("com.microsoft", 1)])
    model.ir_version = 10
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    out = np.empty(out_shape, dtype=out_dt)
    binding = sess.io_binding()
    for name, arr in (("data", data), ("indices", idx), ("scales", scales), ("zero_points", zp)):
        binding.bind_cpu_input(name, arr)
    binding.bind_output("out", "cpu", 0, out.dtype, out.shape, out.ctypes.data)
    return (lambda: sess.run_with_iobinding(binding)), (lambda: out)


def gguf_dequant(inp):
    """gguf-py's numpy dequantizer on the gathered rows (any ggml type it reads)."""
    from gguf import GGMLQuantizationType
    from gguf.quants import dequantize
    blocks, idx = inp["blocks"], inp["idx"]
    rows = blocks.reshape(blocks.shape[0], -1)
    qtype = GGMLQuantizationType[inp["ggml_type"].upper()]
    holder = {}

    def run():
        holder["o"] = dequantize(rows[idx], qtype)
    return run, (lambda: holder["o"].reshape(idx.size, -1))


def ggml_get_rows(inp):
    """ggml's CPU get_rows (the op llama.cpp runs for token embeddings) on the table, one graph computed
    on every core this process may use; the table is copied into ggml's context once (not timed)."""
    import ctypes

    import ggml
    blocks, idx = inp["blocks"], inp["idx"].astype(np.int32)
    block_values = case_table.GGML_BLOCKS[inp["ggml_type"]][0]
    rows, values = blocks.shape[0], blocks.shape[1] * block_values
    table_bytes = blocks.nbytes
    params = ggml.ggml_init_params(mem_size=table_bytes + idx.size * values * 4 + idx.nbytes + 64 * 1024 * 1024,
                                   mem_buffer=None, no_alloc=False)
    ctx = ggml.ggml_init(params)
    table = ggml.ggml_new_tensor_2d(ctx, getattr(ggml, "GGML_TYPE_" + inp["ggml_type"].upper()), values, rows)
    ctypes.memmove(ggml.ggml_get_data(table), np.ascontiguousarray(blocks).ctypes.data, table_bytes)
    ids = ggml.ggml_new_tensor_1d(ctx, ggml.GGML_TYPE_I32, idx.size)
    ctypes.memmove(ggml.ggml_get_data(ids), idx.ctypes.data, idx.nbytes)
    out = ggml.ggml_get_rows(ctx, table, ids)
    graph = ggml.ggml_new_graph(ctx)
    ggml.ggml_build_forward_expand(graph, out)
    threads = len(os.sched_getaffinity(0))
    result = np.ctypeslib.as_array(ctypes.cast(ggml.ggml_get_data(out), ctypes.POINTER(ctypes.c_float)),
                                   shape=(idx.size, values))
    inp.setdefault("keep", []).append(ctx)  # the context lives as long as the case's inputs

    def run():
        ggml.ggml_graph_compute_with_ctx(ctx, graph, threads)
    return run, (lambda: result)


# ---- peers for GatherElements and GatherND ------------------------------------------------------------
# (data, idx, kind, attr): kind "elements" with the axis, or "nd" with batch_dims

def _elements_region(data, idx, axis):
    """The data region GatherElements reads: indices may be narrower than the data off the axis."""
    return data[tuple(slice(None) if d == axis else slice(0, n) for d, n in enumerate(idx.shape))]


def numpy_family(data, idx, kind, attr):
    if kind == "elements":
        region = _elements_region(data, idx, attr)
        out = np.empty(idx.shape, dtype=data.dtype)
        return (lambda: out.__setitem__(Ellipsis, np.take_along_axis(region, idx, attr))), (lambda: out)
    b, m = attr, idx.shape[-1]
    lead = tuple(np.arange(data.shape[k]).reshape((-1,) + (1,) * (idx.ndim - 2 - k)) for k in range(b))
    comps = tuple(idx[..., j] for j in range(m))
    out = np.empty(idx.shape[:-1] + data.shape[b + m:], dtype=data.dtype)
    return (lambda: out.__setitem__(Ellipsis, data[lead + comps])), (lambda: out)


def torch_family(data, idx, kind, attr):
    import torch
    td, ti = torch.from_numpy(data), torch.from_numpy(idx)
    if kind == "elements":  # torch.gather takes indices narrower than the input off the axis
        out = torch.empty(idx.shape, dtype=td.dtype)
        return (lambda: torch.gather(td, attr, ti, out=out)), (lambda: out.numpy())
    b, m = attr, idx.shape[-1]
    lead = tuple(torch.arange(data.shape[k]).reshape((-1,) + (1,) * (idx.ndim - 2 - k)) for k in range(b))
    comps = tuple(ti[..., j] for j in range(m))
    holder = {}

    def run():  # advanced indexing: torch's GatherND
        holder["o"] = td[lead + comps]
    return run, (lambda: holder["o"].numpy())


def ort_family(data, idx, kind, attr):
    import onnx
    import onnxruntime as ort
    from onnx import helper
    if kind == "elements":
        node = helper.make_node("GatherElements", ["data", "indices"], ["out"], axis=attr)
        oshape = list(idx.shape)
    else:
        node = helper.make_node("GatherND", ["data", "indices"], ["out"], batch_dims=attr)
        oshape = list(idx.shape[:-1]) + list(data.shape[attr + idx.shape[-1]:])
    graph = helper.make_graph(
        [node], "g",
        [helper.make_tensor_value_info("data", onnx_type(data.dtype), list(data.shape)),
         helper.make_tensor_value_info("indices", onnx_type(idx.dtype), list(idx.shape))],
        [helper.make_tensor_value_info("out", onnx_type(data.dtype), oshape)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    out = np.empty(oshape, dtype=data.dtype)
    binding = sess.io_binding()
    binding.bind_cpu_input("data", data)
    binding.bind_cpu_input("indices", idx)
    binding.bind_output("out", "cpu", 0, out.dtype, out.shape, out.ctypes.data)
    return (lambda: sess.run_with_iobinding(binding)), (lambda: out)


def ov_family(data, idx, kind, attr):
    ov, ops = ov_modules()
    p = ops.parameter(list(data.shape), data.dtype, name="data")
    i = ops.parameter(list(idx.shape), idx.dtype, name="indices")
    g = ops.gather_elements(p, i, attr) if kind == "elements" else ops.gather_nd(p, i, attr)
    compiled = ov.Core().compile_model(ov.Model([g], [p, i], kind), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    req = compiled.create_infer_request()
    inputs = {0: data, 1: idx}
    return (lambda: req.infer(inputs, share_inputs=True)), (lambda: req.get_output_tensor(0).data)


# ---- peers for GatherTree -----------------------------------------------------------------------------

def numpy_tree(steps, parents, lens, end):
    T, B, W = steps.shape
    out = np.empty_like(steps)

    def run():
        out.fill(end)
        L = np.minimum(lens, T)
        beam = np.broadcast_to(np.arange(W, dtype=np.int64), (B, W)).copy()
        bidx = np.arange(B)[:, None]
        for t in range(T - 1, -1, -1):
            active = (t < L)[:, None]  # positions t >= L stay end_token
            cur = np.where(active, beam, 0)
            vals = steps[t, bidx, cur]
            out[t] = np.where(active, vals, end)
            beam = np.where(active, parents[t, bidx, cur], beam)
        # after the first end_token (in time order, t < L) everything becomes end_token
        seen = np.logical_or.accumulate(out == end, axis=0)
        out[seen] = end
    return run, (lambda: out)


def torch_tree(steps, parents, lens, end):
    import torch
    T, B, W = steps.shape
    s, p = torch.from_numpy(steps), torch.from_numpy(parents)
    L = torch.from_numpy(np.minimum(lens, T).astype(np.int64))
    out = torch.empty_like(s)

    def run():
        out.fill_(int(end))
        beam = torch.arange(W).expand(B, W).clone()
        for t in range(T - 1, -1, -1):
            active = (t < L)[:, None]
            cur = torch.where(active, beam, 0)
            out[t] = torch.where(active, torch.gather(s[t], 1, cur), int(end))
            beam = torch.where(active, torch.gather(p[t], 1, cur), beam)
        seen = torch.cummax((out == int(end)).to(torch.int8), dim=0).values.bool()
        out.masked_fill_(seen, int(end))
    return run, (lambda: out.numpy())


def ov_tree(steps, parents, lens, end):
    ov, ops = ov_modules()
    ps = ops.parameter(list(steps.shape), np.int32, name="step_ids")
    pp = ops.parameter(list(parents.shape), np.int32, name="parent_ids")
    pl = ops.parameter(list(lens.shape), np.int32, name="max_seq_len")
    pe = ops.parameter([], np.int32, name="end_token")
    g = ops.gather_tree(ps, pp, pl, pe)
    model = ov.Model([g], [ps, pp, pl, pe], "gather_tree")
    compiled = ov.Core().compile_model(model, "CPU")
    req = compiled.create_infer_request()
    inputs = {0: steps, 1: parents, 2: lens, 3: np.array(end, dtype=np.int32)}
    return (lambda: req.infer(inputs, share_inputs=True)), (lambda: req.get_output_tensor(0).data)


# ---- peers for EmbeddingBag ---------------------------------------------------------------------------
# A bag case (op=bag) is B bags of K rows each (indices [B, K]), in the offsets form: indices flattened to
# [B * K], offsets 0, K, 2K, ... (int64 for every peer). Table value i (f32) is the low 16 bits of data
# stream value i as a signed integer, divided by 256, so every bag's sum is exact in f32 and comes out the
# same in any order: each peer's output is compared bit for bit. tables=T: T tables of data's shape, one
# stream over all of them (table t holds values t*N*D ...) and indices [T, B, K] likewise from one
# stream, index j of table t uniform over its N rows; the output is [B, T * D] (table t in columns
# t*D ...), the table-batched layout FBGEMM gives. layout=fbgemm-8bit-rowwise: each row D u8 (data
# stream bytes, row r at r*D) then an f32 scale and an f32 bias (stream seed + 2, value r: scale
# 2^-(7 + (v & 3)), bias (int8)(v >> 8) / 64), so q * scale + bias and every sum are exact in f32.
# layout=fbgemm-4bit-rowwise: the same with D / 2 bytes of two nibbles a row (value 2j the low nibble of
# byte j; data stream bytes, row r at r*D/2) and the scale and bias in f16, where they are exact too.

def make_bag_inputs(case):
    (N, D), (B, K), T = case.data_shape, case.index_shape, case.tables
    idx = (sm_values(case.seed, T * B * K) % np.uint64(N)).astype(np.int64).reshape(T, B * K)
    offsets = np.arange(B, dtype=np.int64) * K
    inp = {"N": N, "D": D, "B": B, "K": K, "T": T, "idx": idx, "offsets": offsets, "mode": case.mode}
    if case.layout in ("fbgemm-8bit-rowwise", "fbgemm-4bit-rowwise"):
        # T tables of N rows, table t's rows after table t - 1's in both streams (as clgather-bench's)
        eight = case.layout == "fbgemm-8bit-rowwise"
        packed = D if eight else D // 2
        v = sm_values(case.seed + 2, T * N).reshape(T, N)
        scale = np.ldexp(np.float32(1), -(7 + (v & np.uint64(3)).astype(np.int32))).astype(np.float32)
        bias = ((v >> np.uint64(8)).astype(np.uint8).view(np.int8).astype(np.float32) / np.float32(64))
        field = np.float32 if eight else np.float16  # every scale and bias is exact in f16
        rows = aligned_empty((T, N, packed + 2 * np.dtype(field).itemsize), np.uint8)
        rows[:, :, :packed] = fill_bytes(T * N * packed, case.seed + 1).reshape(T, N, packed)
        rows[:, :, packed:] = np.stack([scale.astype(field), bias.astype(field)], axis=-1).view(np.uint8)
        if eight:
            q = rows[:, :, :D]
        else:  # the nibbles, value 2j the low one of byte j
            q = np.empty((T, N, D), np.uint8)
            q[:, :, 0::2], q[:, :, 1::2] = rows[:, :, :packed] & 15, rows[:, :, :packed] >> 4
        inp.update(kind="8bit" if eight else "4bit", layout=case.layout, rows=rows, q=q, scale=scale, bias=bias)
        return inp
    bits = sm_values(case.seed + 1, T * N * D).astype(np.uint16).view(np.int16)
    inp.update(kind="f32", tables=page_aligned((bits.astype(np.float32) / np.float32(256)).reshape(T, N, D)))
    return inp


def bag_output(inp):
    return np.empty((inp["B"], inp["T"] * inp["D"]), dtype=np.float32)


def numpy_bag(inp):
    """Gather each bag's rows and sum them in bag order (the plain reference; not fast)."""
    B, K, D, T = inp["B"], inp["K"], inp["D"], inp["T"]
    out = bag_output(inp)

    def run():
        for t in range(T):
            if inp["kind"] in ("8bit", "4bit"):
                rows = inp["idx"][t]
                x = inp["q"][t][rows].astype(np.float32) * inp["scale"][t][rows, None] + inp["bias"][t][rows, None]
            else:
                x = inp["tables"][t][inp["idx"][t]]
            out[:, t * D:(t + 1) * D] = x.reshape(B, K, D).sum(axis=1, dtype=np.float32)
    return run, (lambda: out)


def torch_bag(inp):
    """torch.nn.functional.embedding_bag, one call a table (f32); the 8-bit and 4-bit tables through
    torch.ops.quantized.embedding_bag_byte_rowwise_offsets and embedding_bag_4bit_rowwise_offsets, FBGEMM's
    kernels inside PyTorch, one call a table. Several tables: the calls' outputs joined into the
    [B, T * D] a table-batched call gives."""
    import torch
    import torch.nn.functional as F
    T, D = inp["T"], inp["D"]
    offsets = torch.from_numpy(inp["offsets"])
    idx = [torch.from_numpy(inp["idx"][t]) for t in range(T)]
    holder = {}
    if inp["kind"] in ("8bit", "4bit"):
        check_prepack_layout(torch, inp["kind"])
        packed = [torch.from_numpy(inp["rows"][t]) for t in range(T)]
        op = (torch.ops.quantized.embedding_bag_byte_rowwise_offsets if inp["kind"] == "8bit" else
              torch.ops.quantized.embedding_bag_4bit_rowwise_offsets)

        def bag_rows(t):
            return op(packed[t], idx[t], offsets, mode=0, include_last_offset=False)

        def run_rows():
            holder["o"] = bag_rows(0) if T == 1 else torch.cat([bag_rows(t) for t in range(T)], dim=1)
        return run_rows, (lambda: holder["o"].numpy())
    tables = [torch.from_numpy(inp["tables"][t]) for t in range(T)]
    if T == 1:
        def run_one():
            holder["o"] = F.embedding_bag(idx[0], tables[0], offsets, mode=inp["mode"])
        return run_one, (lambda: holder["o"].numpy())

    def run_each():  # one call a table, then the [B, T * D] layout a table-batched call gives
        holder["o"] = torch.cat([F.embedding_bag(idx[t], tables[t], offsets, mode=inp["mode"]) for t in range(T)],
                                dim=1)
    return run_each, (lambda: holder["o"].numpy())


def check_prepack_layout(torch, kind):
    """The 8-bit and 4-bit cases hand PyTorch their rows as they are; this checks on a small table that
    they are in the layout torch.ops.quantized.embedding_bag_byte_prepack (D u8, then an f32 scale and
    bias) or embedding_bag_4bit_prepack (D / 2 bytes, value 2j the low nibble of byte j, then an f16
    scale and bias) makes."""
    w = torch.tensor([[0.0, 1.0, 2.0, 3.0], [-1.0, -0.5, 0.5, 7.0]], dtype=torch.float32)
    if kind == "8bit":
        packed = torch.ops.quantized.embedding_bag_byte_prepack(w).numpy()
        q, fields, what = packed[:, :4], packed[:, 4:12].copy().view(np.float32), "D u8 + f32 scale + f32 bias"
        width = 12
    else:
        packed = torch.ops.quantized.embedding_bag_4bit_prepack(w).numpy()
        q = np.stack([packed[:, :2] & 15, packed[:, :2] >> 4], axis=-1).reshape(2, 4)
        fields, what = packed[:, 2:6].copy().view(np.float16).astype(np.float32), "D/2 nibble bytes + f16 scale + bias"
        width = 6
    scale, bias = fields[:, 0], fields[:, 1]
    if packed.shape != (2, width) or not np.allclose(
            q * scale[:, None] + bias[:, None], w.numpy(), atol=float(scale.max())):
        raise RuntimeError(f"PyTorch's {kind} prepacked rows are not {what} ({packed.shape})")


def openvino_bag(inp):
    """OpenVINO's EmbeddingBagOffsets (opset 15; the -3 op where the runtime lacks it), CPU plugin, the
    table a parameter so nothing is folded. f32 tables only."""
    if inp["kind"] != "f32" or inp["T"] != 1 or inp["mode"] not in ("sum", "mean"):
        raise NotImplementedError("OpenVINO peer: one f32 table, sum or mean")
    ov, _ = ov_modules()
    try:
        import openvino.opset15 as ops
        op = lambda *a: ops.embedding_bag_offsets(*a, reduction=inp["mode"])  # noqa: E731
    except ImportError:
        import openvino.opset3 as ops
        op = ops.embedding_bag_offsets_sum
    table, idx, offsets = inp["tables"][0], inp["idx"][0], inp["offsets"]
    p = [ops.parameter(list(a.shape), a.dtype, name=n)
         for a, n in ((table, "table"), (idx, "indices"), (offsets, "offsets"))]
    compiled = ov.Core().compile_model(ov.Model([op(*p)], p, "bag"), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    req = compiled.create_infer_request()
    inputs = {0: table, 1: idx, 2: offsets}
    return (lambda: req.infer(inputs, share_inputs=True)), (lambda: req.get_output_tensor(0).data)


def fbgemm_bag(inp):
    """FBGEMM's CPU table-batched embedding (fbgemm-gpu-cpu): f32 tables through
    SplitTableBatchedEmbeddingBagsCodegen (host tables, CPU compute), the 8-bit and 4-bit tables through the
    inference TBE IntNBitTableBatchedEmbeddingBagsCodegen with INT8 or INT4 rows (its rows carry the scale
    and bias as f16 before the values: the case's are exact in f16, so the values are the same). One call
    for all tables: indices of every table concatenated, offsets over T * B bags."""
    import torch
    import fbgemm_gpu  # noqa: F401  (registers torch.ops.fbgemm)
    from fbgemm_gpu.split_embedding_configs import SparseType
    from fbgemm_gpu.split_table_batched_embeddings_ops_common import EmbeddingLocation, PoolingMode
    if inp["mode"] not in ("sum", "mean"):
        raise NotImplementedError("FBGEMM pools by sum or mean")
    N, D, B, K, T = inp["N"], inp["D"], inp["B"], inp["K"], inp["T"]
    pooling = PoolingMode.SUM if inp["mode"] == "sum" else PoolingMode.MEAN
    indices = torch.from_numpy(inp["idx"].reshape(-1).copy())
    offsets = torch.arange(T * B + 1, dtype=torch.int64) * K
    if inp["kind"] in ("8bit", "4bit"):
        from fbgemm_gpu.split_table_batched_embeddings_ops_inference import IntNBitTableBatchedEmbeddingBagsCodegen
        eight = inp["kind"] == "8bit"
        emb = IntNBitTableBatchedEmbeddingBagsCodegen(
            [(f"t{t}", N, D, SparseType.INT8 if eight else SparseType.INT4, EmbeddingLocation.HOST)
             for t in range(T)], pooling_mode=pooling, device="cpu", output_dtype=SparseType.FP32)
        emb.fill_random_weights()
        # each table's packed values [N, D (4-bit: D / 2) (+ padding)] u8 and its rows' f16 scale and bias
        # [N, 4] (views of its rows)
        packed = D if eight else D // 2
        for t, (weights, scale_shift) in enumerate(emb.split_embedding_weights(split_scale_shifts=True)):
            weights.numpy()[:, :packed] = inp["rows"][t][:, :packed]
            qparams = scale_shift.numpy()
            qparams[:, 0:2] = inp["scale"][t].astype(np.float16).view(np.uint8).reshape(N, 2)
            qparams[:, 2:4] = inp["bias"][t].astype(np.float16).view(np.uint8).reshape(N, 2)
        idx32, off32 = indices.to(torch.int32), offsets.to(torch.int32)
        holder = {}

        def run_int8():
            holder["o"] = emb(idx32, off32)
        return run_int8, (lambda: holder["o"].numpy())
    from fbgemm_gpu.split_table_batched_embeddings_ops_training import (ComputeDevice,
                                                                        SplitTableBatchedEmbeddingBagsCodegen)
    emb = SplitTableBatchedEmbeddingBagsCodegen([(N, D, EmbeddingLocation.HOST, ComputeDevice.CPU)] * T,
                                                pooling_mode=pooling, weights_precision=SparseType.FP32,
                                                output_dtype=SparseType.FP32, device="cpu")
    with torch.no_grad():
        for t, w in enumerate(emb.split_embedding_weights()):
            w.copy_(torch.from_numpy(inp["tables"][t]))
    holder = {}

    def run():
        with torch.no_grad():
            holder["o"] = emb(indices, offsets)
    return run, (lambda: holder["o"].numpy())


def clgather_bag(inp, ctx):
    """clgather through its Python package on the context ctx: one embedding_bag call, or for several tables
    one embedding_bag_tables call over tables packed once, FBGEMM's offsets (T * B + 1, include_last_offset)."""
    import clgather
    T, B, K = inp["T"], inp["B"], inp["K"]
    out = bag_output(inp)
    layout = inp.get("layout")  # None: f32 tables
    tables = [inp["rows"][t] if layout else inp["tables"][t] for t in range(T)]
    if T == 1:
        indices, offsets = inp["idx"][0], inp["offsets"]

        def run_one():
            clgather.embedding_bag(tables[0], indices, offsets, mode=inp["mode"], layout=layout, ctx=ctx, out=out)
        return run_one, (lambda: out)
    packed = clgather.PackedTables(tables, layouts=[layout] * T if layout else None)
    indices = inp["idx"].reshape(-1)
    offsets = np.arange(T * B + 1, dtype=np.int64) * K

    def run_tables():
        clgather.embedding_bag_tables(packed, indices, offsets, mode=inp["mode"], include_last_offset=True, ctx=ctx,
                                      out=out)
    return run_tables, (lambda: out)


def time_paired(first, second, repeat, flush):
    """Medians of first's and second's times and the pairs' ratios first / second (median, min, max): each
    pair's runs one after the other, each after a flush, the order alternating."""
    for fn in (first, second, first, second):
        fn()
    times = ([], [])
    for r in range(repeat):
        for k in ((0, 1) if r % 2 == 0 else (1, 0)):
            flush()
            t0 = time.perf_counter()
            (first, second)[k]()
            times[k].append(time.perf_counter() - t0)
    ratios = [a / b for a, b in zip(*times)]
    return float(np.median(times[0])), float(np.median(times[1])), (float(np.median(ratios)), min(ratios), max(ratios))


def run_paired(args, table, names, systems):
    """--paired: each bag case's peers, each timed in pairs with clgather through its Python package."""
    try:
        import clgather
    except ImportError:
        sys.exit("peers.py --paired: the clgather package is not installed in this Python (pip install .)")
    ctx = clgather.Context(args.device) if args.device else clgather.Context()
    flush = Flusher()
    lines = ["| case | peer | clgather (ms) | peer (ms) | clgather / peer, pairs' median | range | notes |",
             "|" + " --- |" * 7]
    for n in names:
        case = table[n]
        if case.op != "bag":
            print(f"peers.py --paired: {n} skipped (the EmbeddingBag cases only)", file=sys.stderr)
            continue
        inputs, makers, _ = case_inputs(case)
        mine, mine_result = clgather_bag(inputs[0], ctx)
        mine()
        for s in systems:
            if s not in makers:
                continue
            notes = []
            try:
                run, result = makers[s](*inputs)
                run()
                if not same_bits(np.asarray(result()), np.asarray(mine_result())):
                    notes.append(f"clgather's output differs from {s}'s")
                t_mine, t_peer, (median, low, high) = time_paired(mine, run, args.repeat, flush)
            except Exception as e:  # noqa: BLE001
                lines.append(f"| {n} | {s} | - | - | - | - | {e.__class__.__name__}: {str(e).splitlines()[0][:80]} |")
                continue
            print(f"{n:22s} {s:8s} clgather {t_mine * 1e3:8.3f} ms, {s} {t_peer * 1e3:8.3f} ms, pairs' median "
                  f"{median:.3f}", file=sys.stderr)
            lines.append(f"| {n} | {s} | {t_mine * 1e3:.3f} | {t_peer * 1e3:.3f} | {median:.2f} | {low:.2f}-{high:.2f} "
                         f"| {'; '.join(notes)} |")
        del inputs
    d = ctx.device
    header = [f"clgather {clgather.__version__} through its Python package, device: {d.name} ({d.platform})",
              f"paired runs: {args.repeat} pairs a peer, each run after a host copy of {flush.a.nbytes >> 20} MiB, "
              "the order alternating; wall time of each call",
              f"pages: {args.pages} (GLIBC_TUNABLES {os.environ.get('GLIBC_TUNABLES')})",
              "ratio = clgather time / peer time: below 1 means clgather is faster", ""]
    text = "\n".join(header + lines)
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text + "\n")


# ---- driver -------------------------------------------------------------------------------------------

def run_clgather(bench, names, repeat, extra):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "clgather.json")
        cmd = [bench, "--repeat", str(repeat), "--json", path] + extra
        for n in names:
            cmd += ["--case", n]
        print("running:", " ".join(cmd), file=sys.stderr)
        subprocess.run(cmd, check=True, stdout=sys.stderr)
        with open(path) as f:
            return json.load(f)


def case_inputs(case):
    """The case's inputs, the peers that run it, and the fingerprint clgather-bench reports for it."""
    if case.op == "tree":
        steps, parents, lens, end = make_tree_inputs(case)
        return (steps, parents, lens, end), {"numpy": numpy_tree, "torch": torch_tree, "openvino": ov_tree}, fnv1a(parents)
    if case.op in ("elements", "nd"):
        data, idx = make_family_inputs(case)
        makers = {"numpy": numpy_family, "torch": torch_family, "onnxruntime": ort_family, "openvino": ov_family}
        return (data, idx, case.op, family_attr(case)), makers, fnv1a(idx)
    if case.op == "bag":
        bag = make_bag_inputs(case)
        makers = {"numpy": numpy_bag, "torch": torch_bag, "openvino": openvino_bag, "fbgemm": fbgemm_bag}
        if bag["kind"] != "f32" or bag["T"] > 1:
            del makers["openvino"]
        return (bag,), makers, fnv1a(bag["idx"])
    if case.op == "quantized":
        qin = make_quant_inputs(case)
        makers = {"gguf": gguf_dequant, "ggml": ggml_get_rows}  # ggml's own layouts: llama.cpp's readers
        if qin["kind"] != "ggml":  # q4 (ONNX Runtime's layouts) and q8_0: the generic dequantizers too
            makers.update({"numpy": numpy_dequant, "torch": torch_dequant, "onnxruntime": ort_dequant})
        if qin["kind"] == "q4":
            del makers["gguf"], makers["ggml"]
        return (qin,), makers, fnv1a(qin["idx"])
    data, idx = make_gather_inputs(case)
    makers = {"numpy": numpy_gather, "torch": torch_gather, "onnxruntime": ort_gather, "openvino": ov_gather}
    return (data, idx, case.axis, case.batch_dims), makers, fnv1a(idx)


def markdown_table(rows, systems):
    """Header and rows from one list of columns, so the two cannot disagree."""
    columns = [("case", lambda n, t, times, notes: n),
               ("clgather (ms)", lambda n, t, times, notes: f"{t * 1e3:.3f}" if t else "n/a")]
    columns += [(f"{s} (ms)", lambda n, t, times, notes, s=s: f"{times[s] * 1e3:.3f}" if times.get(s) else "n/a")
                for s in systems]
    columns += [(f"clgather / {s}", lambda n, t, times, notes, s=s: f"{t / times[s]:.2f}" if t and times.get(s) else "-")
                for s in systems]
    columns.append(("notes", lambda n, t, times, notes: "; ".join(notes)))
    lines = ["| " + " | ".join(c[0] for c in columns) + " |", "|" + " --- |" * len(columns)]
    for row in rows:
        lines.append("| " + " | ".join(c[1](*row) for c in columns) + " |")
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--bench", default=os.path.join(here, "..", "build", "bench", "clgather-bench"))
    ap.add_argument("--clgather-json", help="use this clgather-bench --json output instead of running it")
    ap.add_argument("--cases", help="the case table (default bench/cases.txt); passed to clgather-bench")
    ap.add_argument("--list", action="store_true", help="print the case names, one a line, and stop")
    ap.add_argument("--peers-only", action="store_true",
                    help="run no clgather-bench: the peers alone (cases the library does not run yet)")
    ap.add_argument("--device", help="passed to clgather-bench")
    ap.add_argument("--scale", help="passed to clgather-bench (auto or N); the peers run each case at its factor")
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--case", action="append", help="repeatable; default: all")
    ap.add_argument("--system", action="append", choices=SYSTEMS, help="repeatable; default: all")
    ap.add_argument("--markdown", help="also write the table as Markdown to this file")
    ap.add_argument("--pages", choices=("huge", "small"), default="huge",
                    help="the page size every system gets (see above); default huge")
    ap.add_argument("--paired", action="store_true",
                    help="EmbeddingBag cases: clgather through its Python package, each run paired with a peer's")
    args = ap.parse_args()

    table = {c.name: c for c in (case_table.load(args.cases) if args.cases else case_table.load())}
    if args.list:
        print("\n".join(table))
        return
    if np is None:
        sys.exit("peers.py: needs numpy (bench/setup_peers.sh makes a virtual environment with every peer)")
    use_pages(args.pages)
    numpy_madvise(args.pages == "huge")
    names = args.case or list(table)
    for n in names:
        if n not in table:
            ap.error(f"unknown case {n}")
    systems = args.system or SYSTEMS
    if args.paired:
        if args.clgather_json or args.peers_only or args.scale or args.cases:
            ap.error("--paired runs clgather in this process: no --clgather-json, --peers-only, --scale or --cases")
        run_paired(args, table, names, systems)
        return

    # clgather's caches evicted as the peers' are: a copy on the host thread, not the device copy
    # clgather-bench uses by default (which left the 8-bit bag cases at half their time: bench/RESULTS.md)
    extra = ["--evict", "host"]
    extra += ["--device", args.device] if args.device else []
    extra += ["--cases", args.cases] if args.cases else []
    extra += ["--scale", args.scale] if args.scale else []
    bracketed = not args.clgather_json and not args.peers_only
    if args.peers_only:
        clg = {"cases": []}
    elif bracketed:
        # one case per call, next to its peers: no first-call probe, a single CPU reference run
        extra += ["--no-first-call", "--ref-repeat", "1"]
        clg = run_clgather(args.bench, names[:1], args.repeat, extra)
    else:
        with open(args.clgather_json) as f:
            clg = json.load(f)
        if clg.get("quant_block_size"):
            sys.exit("peers.py: that clgather-bench run used --block-size; the peers gather blocks of 32")
        if clg.get("evict") != "host":
            print("peers.py: note: that clgather-bench run evicted its caches on the device, not with --evict host "
                  "as the peers are: its times are not comparable with theirs", file=sys.stderr)
    clg_cases = {c["name"]: c for c in clg["cases"]}

    versions = {"numpy": np.__version__}
    for mod, key in (("torch", "torch"), ("onnxruntime", "onnxruntime"), ("openvino", "openvino"), ("gguf", "gguf"),
                     ("ggml", "ggml-python"), ("fbgemm_gpu", "fbgemm-gpu-cpu")):
        try:
            versions[key] = __import__(mod).__version__
        except AttributeError:
            from importlib.metadata import version
            versions[key] = version(key)
        except Exception as e:  # noqa: BLE001
            versions[key] = f"unavailable ({e.__class__.__name__})"
    try:
        import torch
        torch_threads = torch.get_num_threads()
    except Exception:  # noqa: BLE001
        torch_threads = None

    flush = Flusher()
    rows = []
    most_huge = 0
    for n in names:
        times, notes = {}, []
        if bracketed and n not in clg_cases:
            clg_cases.update({x["name"]: x for x in run_clgather(args.bench, [n], args.repeat, extra)["cases"]})
        c = clg_cases.get(n)
        # the peers run the case at the size clgather-bench ran it
        case = table[n].scaled(c.get("scale", 1) if c else 1)
        if case.scale > 1:
            notes.append(f"scale {case.scale}")
        inputs, makers, fp = case_inputs(case)
        if c and c.get("index_fnv1a") and int(c["index_fnv1a"], 16) != fp:
            notes.append("INDEX FINGERPRINT DIFFERS FROM clgather-bench")
        expected, expected_from = None, None
        for s in systems:
            if s not in makers:
                times[s] = None
                continue
            try:
                run, result = makers[s](*inputs)
                run()
                got = np.asarray(result())
                if expected is None:
                    expected, expected_from = got.copy(), s
                elif not same_bits(got, expected):
                    notes.append(f"{s} output differs from {expected_from}'s")
                times[s] = time_it(run, args.repeat, flush)
            except Exception as e:  # noqa: BLE001
                times[s] = None
                notes.append(f"{s}: {e.__class__.__name__}: {str(e).splitlines()[0][:80] if str(e) else ''}")
            print(f"{n:18s} {s:12s} {times[s] * 1e3 if times[s] else float('nan'):10.3f} ms", file=sys.stderr)
            most_huge = max(most_huge, anon_huge_bytes() or 0)
        clg_t = c.get("wall_median_s") if c and c.get("available", True) else None
        if bracketed and clg_t:
            after = {x["name"]: x for x in run_clgather(args.bench, [n], args.repeat, extra)["cases"]}.get(n)
            if after and after.get("wall_median_s"):
                print(f"{n:18s} clgather     {clg_t * 1e3:10.3f} ms before, {after['wall_median_s'] * 1e3:.3f} ms after",
                      file=sys.stderr)
                clg_t = (clg_t + after["wall_median_s"]) / 2
        if c and not c.get("available", True):
            notes.append("clgather: " + c.get("note", "not available"))
        rows.append((n, clg_t, times, notes))
        del inputs

    lines = [
        f"clgather device: {clg.get('device')} ({clg.get('driver')}), copy {clg.get('copy_gbps', 0):.2f} GB/s",
        "clgather: " + ("mean of clgather-bench's wall medians just before and just after each case's peers"
                        if bracketed else f"wall medians from {args.clgather_json}"),
        "peers: " + ", ".join(f"{k} {v}" for k, v in versions.items()) +
        (f"; torch threads {torch_threads}" if torch_threads else "") + f"; median of {args.repeat} runs, wall time",
        f"pages: {args.pages} for every system (transparent huge pages {thp_mode()}; GLIBC_TUNABLES "
        f"{os.environ.get('GLIBC_TUNABLES')}); at most {most_huge >> 20} MiB of the peers' memory in huge pages"
        + (f", of clgather-bench's {max(c.get('huge_page_bytes') or 0 for c in clg_cases.values()) >> 20} MiB"
           if clg_cases else ""),
        "ratio = clgather time / peer time: below 1 means clgather is faster",
        "",
    ] + markdown_table(rows, systems)
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
