"""clgather embedding-bag: the OpenVINO examples, PyTorch's documented call in each mode, the segments and
packed forms, and random f32 cases against a NumPy loop written here (bag order, f32 products then f32
sums, one division for mean), exact; refusals exit 1 or 2 and leave no output file."""
from cli_common import *

fresh_work_dir()
rng = np.random.default_rng(32)


def bag(args, what, device=None, status=0, stderr_contains=None):
    out = path("out.npy")
    if os.path.exists(out):
        os.remove(out)
    full = ["embedding-bag"] + args + ["--out", out] + (["--device", device] if device else [])
    expect_status(full, status, what, stderr_contains)
    if status != 0:
        check(not os.path.exists(out), f"{what}: no output file after a failure")
        return None
    return np.load(out) if os.path.exists(out) else None


def numpy_bags(table, indices, bounds, mode="sum", weights=None, padding=None, default=None):
    """bounds: (start, end) of each bag over the flat indices; f32 arithmetic in bag order."""
    rows = table.reshape(table.shape[0], -1)
    flat = indices.reshape(-1)
    out = np.zeros((len(bounds), rows.shape[1]), np.float32)
    for b, (s, e) in enumerate(bounds):
        picked = [i for i in range(s, e) if padding is None or int(flat[i]) != padding]
        if not picked:
            if default is not None and default >= 0:
                out[b] = rows[default]
            continue
        for c in range(rows.shape[1]):
            acc = np.float32(-np.inf) if mode == "max" else np.float32(0)
            for i in picked:
                x = rows[int(flat[i]), c]
                if mode == "max":
                    acc = x if x > acc else acc
                else:
                    p = np.float32(weights.reshape(-1)[i] * x) if weights is not None else x
                    acc = np.float32(acc + p)
            out[b, c] = np.float32(acc / np.float32(len(picked))) if mode == "mean" else acc
    return out.reshape((len(bounds),) + table.shape[1:])


def offset_bounds(offsets, L, last=False):
    ends = list(offsets[1:]) + ([] if last else [L])
    return list(zip(offsets[: len(ends)], ends))


ov_table = save("ov_table.npy", np.array([[-0.2, -0.6], [-0.1, -0.4], [-1.9, -1.8], [-1., 1.5], [0.8, -0.7]],
                                         np.float32))
t = np.load(ov_table)
ov_idx = save("ov_idx.npy", np.array([0, 2, 3, 4], np.int32))
ov_off = save("ov_off.npy", np.array([0, 2, 2], np.int32))
ov_w = save("ov_w.npy", np.full(4, 0.5, np.float32))
want = numpy_bags(t, np.load(ov_idx), [(0, 2), (2, 2), (2, 4)], weights=np.load(ov_w), default=0)
check(np.array_equal(want[1], t[0]), "the NumPy loop fills the empty bag with row 0")
for preset in ["ov-embedding-bag-offsets-3", "ov-embedding-bag-offsets-15"]:
    for device in [None, "cpu"]:
        got = bag(["--op", preset, "--table", ov_table, "--indices", ov_idx, "--offsets", ov_off, "--weights", ov_w,
                   "--default-index", "0"], f"{preset} example on {device}", device)
        check(got is not None and got.tobytes() == want.tobytes(), f"{preset} example: {got}")
seg = save("seg.npy", np.array([0, 0, 2, 2], np.int64))
got = bag(["--op", "ov-embedding-segments-sum-3", "--table", ov_table, "--indices", ov_idx, "--segment-ids", seg,
           "--num-segments", "3", "--weights", ov_w, "--default-index", "0", "--verify"], "segments example")
check(got is not None and got.tobytes() == want.tobytes(), f"segments example: {got}")
packed = save("packed.npy", np.array([[0, 2], [1, 2], [3, 4]], np.int64))
got = bag(["--op", "ov-embedding-bag-packed-15", "--table", ov_table, "--indices", packed, "--mode", "mean"],
          "packed mean")
want = numpy_bags(t, np.load(packed), [(0, 2), (2, 4), (4, 6)], mode="mean")
check(got is not None and got.tobytes() == want.tobytes(), f"packed mean: {got}")

# PyTorch's documented call over rows [3r+1, 3r+2, 3r+3], each mode, and padding_idx
torch_table = save("torch_table.npy", np.arange(1, 31, dtype=np.float32).reshape(10, 3))
tt = np.load(torch_table)
inp = save("input.npy", np.array([1, 2, 4, 5, 4, 3, 2, 9], np.int64))
off = save("offsets.npy", np.array([0, 4], np.int64))
hand = {"sum": [[40, 44, 48], [58, 62, 66]], "mean": [[10, 11, 12], [14.5, 15.5, 16.5]],
        "max": [[16, 17, 18], [28, 29, 30]]}
for mode, values in hand.items():
    got = bag(["--op", "torch-embedding-bag", "--table", torch_table, "--indices", inp, "--offsets", off, "--mode",
               mode], f"torch {mode}")
    check(got is not None and np.array_equal(got, np.array(values, np.float32)), f"torch {mode}: {got}")
pad_in = save("pad_in.npy", np.array([2, 2, 2, 2, 4, 3, 2, 9], np.int64))
got = bag(["--op", "torch-embedding-bag", "--table", torch_table, "--indices", pad_in, "--offsets", off,
           "--padding-idx", "2"], "torch padding_idx")
check(got is not None and np.array_equal(got, np.array([[0, 0, 0], [51, 54, 57]], np.float32)), f"padding: {got}")
last = save("last.npy", np.array([0, 4, 8], np.int64))
got = bag(["--op", "torch-embedding-bag", "--table", torch_table, "--indices", inp, "--offsets", last,
           "--include-last-offset"], "include_last_offset")
check(got is not None and np.array_equal(got, np.array(hand["sum"], np.float32)), f"include_last_offset: {got}")

# random f32 cases against the NumPy loop, exactly
for k in range(6):
    N, D, L, B = int(rng.integers(1, 12)), int(rng.integers(1, 9)), int(rng.integers(0, 20)), int(rng.integers(1, 6))
    table = rng.standard_normal((N, D)).astype(np.float32)
    indices = rng.integers(0, N, L).astype(np.int64)
    offsets = np.sort(rng.integers(0, L + 1, B)).astype(np.int64)
    offsets[0] = 0
    mode = ["sum", "mean", "max"][k % 3]
    weights = rng.standard_normal(L).astype(np.float32) if mode == "sum" else None
    args = ["--op", "torch-embedding-bag", "--table", save("rt.npy", table), "--indices", save("ri.npy", indices),
            "--offsets", save("ro.npy", offsets), "--mode", mode]
    if weights is not None:
        args += ["--weights", save("rw.npy", weights)]
    want = numpy_bags(table, indices, offset_bounds(list(offsets), L), mode, weights)
    got = bag(args, f"random case {k}")
    check(got is not None and got.tobytes() == want.tobytes(), f"random case {k} ({mode}): {got} vs {want}")

# bf16 as uint16 bits: the torch table (integers, exact in bf16), weights 0.5 and 2; sums exact too
bits = lambda a: (np.asarray(a, np.float32).view(np.uint32) >> 16).astype(np.uint16)
bf_table = save("bf_table.npy", bits(tt))
bf_w = save("bf_w.npy", bits([0.5, 2, 0.5, 2, 0.5, 2, 0.5, 2]))
got = bag(["--op", "torch-embedding-bag", "--table", bf_table, "--table-type", "bf16", "--indices", inp, "--offsets",
           off, "--weights", bf_w], "bf16 table and weights")
want = numpy_bags(tt, np.load(inp), [(0, 4), (4, 8)], weights=np.array([0.5, 2, 0.5, 2, 0.5, 2, 0.5, 2], np.float32))
check(got is not None and got.dtype == np.uint16 and np.array_equal(got, bits(want)), f"bf16: {got} vs {bits(want)}")
bag(["--op", "torch-embedding-bag", "--table", torch_table, "--table-type", "bf16", "--indices", inp, "--offsets",
     off], "bf16 from an f32 file", None, 1, "a bf16 table is stored as u16 bits")
bag(["--op", "torch-embedding-bag", "--table", bf_table, "--table-type", "f8", "--indices", inp, "--offsets", off],
    "unknown table type", None, 2, "--table-type takes only bf16")

# refusals: exit 1 with the library's detail, no output file
bad_off = save("bad_off.npy", np.array([0, 3, 2], np.int32))
bag(["--op", "ov-embedding-bag-offsets-3", "--table", ov_table, "--indices", ov_idx, "--offsets", bad_off],
    "decreasing offsets", None, 1, "offsets[2] = 2 is less than offsets[1] = 3")
bad_idx = save("bad_idx.npy", np.array([0, 2, 5, 4], np.int32))
bag(["--op", "ov-embedding-bag-offsets-3", "--table", ov_table, "--indices", bad_idx, "--offsets", ov_off],
    "index past the table", None, 1, "CLG_ERR_INDEX_OUT_OF_RANGE")
bag(["--op", "ov-embedding-bag-offsets-3", "--table", ov_table, "--indices", ov_idx, "--offsets", ov_off, "--mode",
     "mean"], "mean on a sum-only preset", None, 1, "CLG_ERR_INVALID_MODE")
# usage errors: exit 2
bag(["--op", "ov-embedding-bag-offsets-4", "--table", ov_table, "--indices", ov_idx], "unknown preset", None, 2,
    "unknown --op")
bag(["--op", "torch-embedding-bag", "--indices", ov_idx], "missing --table", None, 2, "--table is required")
bag(["--op", "torch-embedding-bag", "--table", ov_table, "--indices", ov_idx, "--offsets", ov_off, "--segment-ids",
     seg, "--num-segments", "3"], "offsets and segment ids", None, 2, "exclude each other")
bag(["--op", "torch-embedding-bag", "--table", ov_table, "--indices", ov_idx, "--mode", "min"], "bad mode", None, 2,
    "--mode must be sum, mean or max")
# embedding-bag-tables: two tables (the OpenVINO and PyTorch ones, widths 2 and 3), B = 2, offsets table-major;
# each table's columns are its own single-table call's output
def tables_call(args, what, device=None, status=0, stderr_contains=None):
    out = path("out.npy")
    if os.path.exists(out):
        os.remove(out)
    expect_status(["embedding-bag-tables"] + args + ["--out", out] + (["--device", device] if device else []), status,
                  what, stderr_contains)
    if status != 0:
        check(not os.path.exists(out), f"{what}: no output file after a failure")
        return None
    return np.load(out) if os.path.exists(out) else None


tb_idx = save("tb_idx.npy", np.array([0, 4, 9, 1, 2, 3], np.int64))
tb_off = save("tb_off.npy", np.array([0, 2, 2, 3, 6], np.int32))
tb_w = save("tb_w.npy", np.array([0.5, 2, 1, 1, -1, 0.25], np.float32))
for mode in ["sum", "mean", "max"]:
    for device in [None, "cpu"]:
        got = tables_call(["--tables", f"{ov_table},{torch_table}", "--indices", tb_idx, "--offsets", tb_off,
                           "--include-last-offset", "--mode", mode], f"tables {mode} on {device}", device)
        want = np.concatenate([numpy_bags(t, np.array([0, 4]), [(0, 2), (2, 2)], mode=mode),
                               numpy_bags(tt, np.array([9, 1, 2, 3]), [(0, 1), (1, 4)], mode=mode)], axis=1)
        check(got is not None and got.tobytes() == want.tobytes(), f"tables {mode}: {got} vs {want}")
got = tables_call(["--tables", f"{ov_table},{torch_table}", "--indices", tb_idx, "--offsets", tb_off,
                   "--include-last-offset", "--weights", tb_w, "--verify"], "tables weighted sum")
w = np.load(tb_w)
want = np.concatenate([numpy_bags(t, np.array([0, 4]), [(0, 2), (2, 2)], weights=w[:2]),
                       numpy_bags(tt, np.array([9, 1, 2, 3]), [(0, 1), (1, 4)], weights=w[2:])], axis=1)
check(got is not None and got.tobytes() == want.tobytes(), f"tables weighted: {got} vs {want}")
# row 9 is in the second table's range only
tables_call(["--tables", f"{torch_table},{ov_table}", "--indices", tb_idx, "--offsets", tb_off, "--include-last-offset"],
            "index past its table", None, 1, "indices[2] = 9 is outside [0, 5) (tables[1].rows; bag 0 of table 1)")
f64_table = save("f64_table.npy", tt.astype(np.float64))
tables_call(["--tables", f"{ov_table},{f64_table}", "--indices", tb_idx, "--offsets", tb_off, "--include-last-offset"],
            "an f64 table beside an f32 one", None, 1, "tables[1].type f64 in a call that converts to f32")
# FBGEMM's inference mix: the torch table as fbgemm-8bit-rowwise rows (q = value, scale 0.5, bias -1: every value
# q * 0.5 - 1 exact) beside the f32 OpenVINO table, f32 and f16 out, on the suite's device and the CPU reference
fb8 = np.zeros((10, 3 + 8), np.uint8)
fb8[:, :3] = tt.astype(np.uint8)
fb8[:, 3:7] = np.frombuffer(np.float32(0.5).tobytes(), np.uint8)
fb8[:, 7:11] = np.frombuffer(np.float32(-1).tobytes(), np.uint8)
fb8_table, fb8_values = save("fb8.npy", fb8), tt * np.float32(0.5) - np.float32(1)
for mode in ["sum", "max"]:
    want = np.concatenate([numpy_bags(t, np.array([0, 4]), [(0, 2), (2, 2)], mode=mode),
                           numpy_bags(fb8_values, np.array([9, 1, 2, 3]), [(0, 1), (1, 4)], mode=mode)], axis=1)
    for device in [None, "cpu"]:
        got = tables_call(["--tables", f"{ov_table},{fb8_table}", "--layouts", "plain,fbgemm-8bit-rowwise", "--indices",
                           tb_idx, "--offsets", tb_off, "--include-last-offset", "--mode", mode],
                          f"f32 + fbgemm-8bit {mode} on {device}", device)
        check(got is not None and got.dtype == np.float32 and got.tobytes() == want.tobytes(),
              f"f32 + fbgemm-8bit {mode}: {got} vs {want}")
    got = tables_call(["--tables", f"{ov_table},{fb8_table}", "--layouts", "plain,fbgemm-8bit-rowwise", "--indices",
                       tb_idx, "--offsets", tb_off, "--include-last-offset", "--mode", mode, "--output-type", "f16",
                       "--verify"], f"f32 + fbgemm-8bit {mode}, f16 out")
    check(got is not None and got.dtype == np.float16 and got.tobytes() == want.astype(np.float16).tobytes(),
          f"f32 + fbgemm-8bit {mode}, f16 out: {got} vs {want}")
tables_call(["--tables", f"{ov_table},{fb8_table}", "--layouts", "plain,ort-block", "--indices", tb_idx, "--offsets",
             tb_off, "--include-last-offset"], "an ONNX Runtime table", None, 1,
            "tables[1].quant_layout = ort-block: its scales are a tensor of their own")
tables_call(["--tables", f"{ov_table},{fb8_table}", "--layouts", "plain", "--indices", tb_idx, "--offsets", tb_off,
             "--include-last-offset"], "--layouts too short", None, 2, "--layouts has no entry for table 1")
tables_call(["--tables", ov_table, "--indices", tb_idx], "missing --offsets", None, 2, "--offsets is required")

# quantized tables (--layout): ggml q8_0 rows (value = q * d, exact) against the NumPy loop over the
# dequantized table, on the suite's device and the CPU reference
q8 = np.zeros((4, 2 * 34), np.uint8)
q8_values = np.zeros((4, 64), np.float32)
for r in range(4):
    for blk in range(2):
        d = np.float16(0.25 * (r + 1) * (1 if blk == 0 else -2))
        q = rng.integers(-128, 128, 32).astype(np.int8)
        q8[r, 34 * blk:34 * blk + 2] = np.frombuffer(d.tobytes(), np.uint8)
        q8[r, 34 * blk + 2:34 * blk + 34] = q.view(np.uint8)
        q8_values[r, 32 * blk:32 * blk + 32] = q.astype(np.float32) * np.float32(d)
q8_file, q8_idx, q8_off = save("q8.npy", q8), save("q8_idx.npy", np.array([3, 0, 1, 1, 2], np.int64)), save(
    "q8_off.npy", np.array([0, 2, 2], np.int64))
for mode in ["sum", "mean", "max"]:
    want = numpy_bags(q8_values, np.load(q8_idx), [(0, 2), (2, 2), (2, 5)], mode)
    for device in [None, "cpu"]:
        got = bag(["--op", "torch-embedding-bag", "--layout", "ggml-q8_0", "--table", q8_file, "--indices", q8_idx,
                   "--offsets", q8_off, "--mode", mode], f"q8_0 {mode}", device)
        check(got is not None and got.dtype == np.float32 and got.tobytes() == want.tobytes(),
              f"q8_0 {mode} ({device}): {got} vs {want}")
# ONNX Runtime u4, packed nibbles with their logical shape, a zero point per row, f16 output
u4 = np.zeros((2, 8), np.uint8)
for j in range(16):
    u4[0, j // 2] |= j << (4 * (j % 2))
    u4[1, j // 2] |= (15 - j) << (4 * (j % 2))
got = bag(["--op", "torch-embedding-bag", "--layout", "ort-block", "--table", save("u4.npy", u4), "--data-type", "u4",
           "--data-shape", "2,16", "--scales", save("u4_s.npy", np.array([[0.25], [4]], np.float32)), "--zero-points",
           save("u4_z.npy", np.array([8 | 3 << 4], np.uint8)), "--zero-points-shape", "2,1", "--block-size", "16",
           "--output-type", "f16", "--mode", "mean", "--indices", save("u4_i.npy", np.array([[0, 1]], np.int32))],
          "ort u4 mean, f16 output")
check(got is not None and got.dtype == np.float16 and np.array_equal(got[0], 23 - 1.875 * np.arange(16)),
      f"ort u4 mean: {got}")
bag(["--op", "torch-embedding-bag", "--layout", "ggml-q8_0", "--table", q8_file, "--indices", q8_idx, "--offsets",
     q8_off, "--scales", ov_w], "scales for ggml", None, 2, "hold their own scales")
bag(["--op", "torch-embedding-bag", "--table", ov_table, "--indices", ov_idx, "--offsets", ov_off, "--block-size",
     "32"], "a quantized option without --layout", None, 2, "--block-size is for a quantized table")
bag(["--op", "torch-embedding-bag", "--layout", "ggml-q8_0", "--table", q8_file, "--indices", bad_idx, "--offsets",
     ov_off], "quantized: index past the table", None, 1, "indices[2] = 5 is outside [0, 4)")
finish()
