"""Held-out random EmbeddingBag cases of every preset and mode, with the outputs of two outside oracles:
PyTorch (torch.nn.functional.embedding_bag: the torch preset, and the OpenVINO presets where torch can say
the same: offsets from 0 and no default_index, packed, sorted segments as offsets) and OpenVINO's CPU
plugin (opset3 EmbeddingBagOffsetsSum, EmbeddingBagPackedSum, EmbeddingSegmentsSum; opset15
EmbeddingBagOffsets, EmbeddingBagPacked), the inputs Parameters so that the plugin's kernel computes them
(not constant folding), at f32 inference precision. Run in the oracle venv (ci/setup_oracles.sh):
    embedding_bag_oracle_cases.py OUT_DIR [SEED]
It writes OUT_DIR/CASE/*.npy and OUT_DIR/cases.json: per case, the clgather embedding-bag arguments (file
names relative to the case folder), each oracle's output file, magnitude.npy (sum |w_i x_i| per output
value, divided by the count for mean: the scale of the tolerance) and whether the values must be equal."""
import json
import os
import sys

import numpy as np

out_dir = sys.argv[1]
seed = int(sys.argv[2]) if len(sys.argv) > 2 else 20261127  # not a seed the other EmbeddingBag tests use
rng = np.random.default_rng(seed)

import openvino as ov  # noqa: E402
import openvino.opset3 as ov3  # noqa: E402
import openvino.opset15 as ov15  # noqa: E402

try:  # optional: PyPI's torch is its CUDA build, some 3 GB with its requirements (ci/setup_oracles.sh)
    import torch  # noqa: E402
    torch.set_num_threads(1)
except ImportError:
    torch = None
core = ov.Core()
OV_CONFIG = {"INFERENCE_PRECISION_HINT": "f32"}

# (preset, modes, form)
PRESETS = [
    ("ov-embedding-bag-offsets-3", ("sum",), "offsets"),
    ("ov-embedding-bag-offsets-15", ("sum", "mean"), "offsets"),
    ("ov-embedding-bag-packed-3", ("sum",), "packed"),
    ("ov-embedding-bag-packed-15", ("sum", "mean"), "packed"),
    ("ov-embedding-segments-sum-3", ("sum",), "segments"),
    ("torch-embedding-bag", ("sum", "mean", "max"), "offsets"),
    ("torch-embedding-bag", ("sum", "mean", "max"), "packed"),
]
CASES_EACH = 3


def random_offsets(length, bags, below_length):
    """Sorted offsets from 0, with some empty bags; below_length: each < length (OpenVINO's CPU plugin
    refuses an offset equal to it, an empty last bag, which clgather and PyTorch take)."""
    cuts = np.sort(rng.integers(0, length + (0 if below_length else 1), size=bags - 1))
    return np.concatenate([[0], cuts])


def make_case(op, mode, form, k):
    """The inputs and options of one random case (a dict), the table f32 or, now and then, f64."""
    n = int(rng.integers(1, 40))
    row_shape = (int(rng.integers(1, 20)),) if k != 2 else (int(rng.integers(1, 4)), int(rng.integers(1, 6)))
    dtype = np.float64 if (op.startswith("torch") and k == 1) else np.float32
    table = (rng.standard_normal((n,) + row_shape) * rng.choice([1e-3, 1.0, 1e3])).astype(dtype)
    index_dtype = np.int64 if k % 2 == 0 else np.int32
    c = {"op": op, "mode": mode, "form": form, "table": table}
    if form == "packed":
        bags, per_bag = int(rng.integers(1, 9)), int(rng.integers(1, 7))
        c["indices"] = rng.integers(0, n, size=(bags, per_bag)).astype(index_dtype)
    else:
        ov_offsets = op.startswith("ov") and form == "offsets"
        length, bags = int(rng.integers(1 if ov_offsets else 0, 40)), int(rng.integers(1, 10))
        c["indices"] = rng.integers(0, n, size=length).astype(index_dtype)
        if form == "offsets":
            # the torch preset's third case: no empty last bag, so that OpenVINO says its sum and mean too
            c["offsets"] = random_offsets(length, bags, ov_offsets or k == 2).astype(index_dtype)
            if op.startswith("torch") and k == 2:
                c["include_last_offset"] = True
                c["offsets"] = np.append(c["offsets"], length).astype(index_dtype)
        else:
            c["segment_ids"] = np.sort(rng.integers(0, bags, size=length)).astype(index_dtype)
            c["num_segments"] = bags + int(rng.integers(0, 3))  # trailing segments with no index
    if mode == "sum" and k != 0:
        c["weights"] = rng.standard_normal(c["indices"].shape).astype(dtype)
    # OpenVINO's EmbeddingSegmentsSum takes weights only after a default_index, and its CPU plugin reads -1
    # there as an index, so the segments cases with weights have one
    if op.startswith("ov") and form != "packed" and (k != 1 or (form == "segments" and "weights" in c)):
        c["default_index"] = int(rng.integers(0, n))
    if op.startswith("torch") and k == 0:
        c["padding_idx"] = int(rng.integers(-n, n))
        if c["indices"].size:  # make sure the padding row occurs
            c["indices"].reshape(-1)[0] = c["padding_idx"] % n
    return c


def bags_of(c):
    """Each bag's positions in the flattened indices (the positions past include_last_offset's end in none)."""
    indices = c["indices"]
    if c["form"] == "packed":
        width = indices.shape[1]
        return [range(b * width, (b + 1) * width) for b in range(indices.shape[0])]
    if c["form"] == "segments":
        seg = c["segment_ids"]
        return [np.flatnonzero(seg == s) for s in range(c["num_segments"])]
    offsets = [int(o) for o in c["offsets"]]
    ends = offsets[1:] + ([] if c.get("include_last_offset") else [len(indices)])
    return [range(start, end) for start, end in zip(offsets, ends)]


def magnitude(c):
    """sum |w_i x_i| over each bag's counted entries (divided by their count for mean), in f64."""
    table = c["table"].astype(np.float64).reshape(c["table"].shape[0], -1)
    flat = c["indices"].reshape(-1)
    weights = c["weights"].reshape(-1).astype(np.float64) if "weights" in c else np.ones(flat.size)
    n = table.shape[0]
    pad = c.get("padding_idx")
    pad = None if pad is None else pad % n
    rows = []
    for bag in bags_of(c):
        counted = [i for i in bag if pad is None or flat[i] != pad]
        total = sum((np.abs(weights[i] * table[flat[i]]) for i in counted), np.zeros(table.shape[1]))
        rows.append(total / len(counted) if c["mode"] == "mean" and counted else total)
    return np.array(rows, dtype=np.float64).reshape((len(rows),) + c["table"].shape[1:])


def torch_result(c):
    """torch.nn.functional.embedding_bag's output, or None where torch cannot express the case or is absent."""
    if torch is None or (c["op"].startswith("ov") and c.get("default_index") is not None):
        return None
    table = torch.from_numpy(c["table"].reshape(c["table"].shape[0], -1))
    indices = torch.from_numpy(c["indices"].astype(np.int64))
    offsets = None
    if c["form"] == "offsets":
        offsets = torch.from_numpy(c["offsets"].astype(np.int64))
    elif c["form"] == "segments":
        ids = c["segment_ids"].astype(np.int64)
        offsets = torch.from_numpy(np.searchsorted(ids, np.arange(c["num_segments"]), side="left").astype(np.int64))
    weights = torch.from_numpy(c["weights"].reshape(-1 if offsets is not None else c["weights"].shape)) \
        if "weights" in c else None
    result = torch.nn.functional.embedding_bag(indices, table, offsets, mode=c["mode"], per_sample_weights=weights,
                                               include_last_offset=bool(c.get("include_last_offset")),
                                               padding_idx=c.get("padding_idx"))
    return result.numpy().reshape((result.shape[0],) + c["table"].shape[1:])


def openvino_result(c):
    """OpenVINO's CPU plugin's output, or None for f64 tables and the torch preset's cases no OpenVINO
    operation says: max, padding_idx, and an offset equal to len(indices) (the CPU plugin refuses an
    empty last bag). The torch preset's other cases are opset15's, without a default index."""
    if c["table"].dtype != np.float32:
        return None
    if c["op"].startswith("torch"):
        if c["mode"] == "max" or c.get("padding_idx") is not None:
            return None
        c = dict(c, op="ov-embedding-bag-" + c["form"] + "-15")
        if c["form"] == "offsets":
            if c.get("include_last_offset"):  # the last offset is len(indices): it only closes the last bag
                c["offsets"] = c["offsets"][:-1]
            if np.any(c["offsets"] >= c["indices"].size):
                return None
    names = ["table", "indices"] + (["offsets"] if c["form"] == "offsets" else []) + \
        (["segment_ids"] if c["form"] == "segments" else []) + (["weights"] if "weights" in c else [])
    params = {name: ov3.parameter(c[name].shape, ov.Type(c[name].dtype), name=name) for name in names}
    weights = params.get("weights")
    # OpenVINO takes default_index as an input; -1 (zeros) stands in for it where the weights follow it
    default = None
    if c.get("default_index") is not None or weights is not None:
        default = ov3.constant(np.array(c.get("default_index", -1), dtype=c["indices"].dtype))
    op = c["op"]
    if op == "ov-embedding-bag-offsets-3":
        node = ov3.embedding_bag_offsets_sum(params["table"], params["indices"], params["offsets"], default, weights)
    elif op == "ov-embedding-bag-offsets-15":
        node = ov15.embedding_bag_offsets(params["table"], params["indices"], params["offsets"], default, weights,
                                          reduction=c["mode"])
    elif op == "ov-embedding-bag-packed-3":
        node = ov3.embedding_bag_packed_sum(params["table"], params["indices"], weights)
    elif op == "ov-embedding-bag-packed-15":
        node = ov15.embedding_bag_packed(params["table"], params["indices"], weights, reduction=c["mode"])
    else:
        count = ov3.constant(np.array(c["num_segments"], dtype=c["indices"].dtype))
        node = ov3.embedding_segments_sum(params["table"], params["indices"], params["segment_ids"], count, default,
                                          weights)
    model = ov.Model([node], [params[name] for name in names])
    compiled = core.compile_model(model, "CPU", OV_CONFIG)
    return np.array(compiled([c[name] for name in names])[0])


os.makedirs(out_dir, exist_ok=True)
manifest = []
for op, modes, form in PRESETS:
    for mode in modes:
        for k in range(CASES_EACH):
            c = make_case(op, mode, form, k)
            name = f"{op}_{form}_{mode}_{k}"
            d = os.path.join(out_dir, name)
            os.makedirs(d, exist_ok=True)
            args = ["--op", op, "--mode", mode, "--table", "table.npy", "--indices", "indices.npy"]
            for key, option in (("offsets", "--offsets"), ("segment_ids", "--segment-ids"), ("weights", "--weights")):
                if key in c:
                    np.save(os.path.join(d, key + ".npy"), c[key])
                    args += [option, key + ".npy"]
            np.save(os.path.join(d, "table.npy"), c["table"])
            np.save(os.path.join(d, "indices.npy"), c["indices"])
            for key, option in (("num_segments", "--num-segments"), ("default_index", "--default-index"),
                                ("padding_idx", "--padding-idx")):
                if c.get(key) is not None:
                    args += [option, str(c[key])]
            if c.get("include_last_offset"):
                args.append("--include-last-offset")
            expected = {}
            for oracle, result in (("torch", torch_result(c)), ("openvino", openvino_result(c))):
                if result is not None:
                    np.save(os.path.join(d, oracle + ".npy"), result)
                    expected[oracle] = oracle + ".npy"
            np.save(os.path.join(d, "magnitude.npy"), magnitude(c))
            manifest.append({"name": name, "args": args, "expected": expected, "exact": mode == "max"})
with open(os.path.join(out_dir, "cases.json"), "w") as f:
    json.dump(manifest, f, indent=1)
print(f"embedding_bag_oracle_cases.py: {len(manifest)} cases (seed {seed}): "
      f"{sum('torch' in m['expected'] for m in manifest)} against PyTorch "
      f"{torch.__version__ if torch else '(absent: not compared)'}, "
      f"{sum('openvino' in m['expected'] for m in manifest)} against OpenVINO {ov.__version__}")
