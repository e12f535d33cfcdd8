"""clgather gather-quantized: each layout against a NumPy model of the rules (docs/semantics.md, section 8),
on the default device and the CPU reference; bf16 scales and outputs as uint16 bits; usage errors (2),
refused inputs (1) with no output file left behind."""
from cli_common import *

fresh_work_dir()
rng = np.random.default_rng(16)


def pack(values):
    flat = (np.asarray(values).reshape(-1).astype(np.int64) & 0xF).astype(np.uint8)
    if flat.size % 2:
        flat = np.append(flat, np.uint8(0))
    return (flat[0::2] | (flat[1::2] << 4)).astype(np.uint8)


def bf16_bits(f32):
    """Round f32 to bf16 (nearest even), as uint16 bits."""
    bits = np.asarray(f32, np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def bf16_to_f32(bits):
    return (np.asarray(bits, np.uint16).astype(np.uint32) << 16).view(np.float32)


def to_output(f32, output_type):
    if output_type == "f16":
        return f32.astype(np.float16)
    if output_type == "bf16":
        return bf16_bits(f32)
    return f32.astype(np.float32)


def expect_output(args, want, what, device=None):
    out = path("out.npy")
    if os.path.exists(out):
        os.remove(out)
    expect_status(["gather-quantized"] + args + ["--out", out] + (["--device", device] if device else []), 0, what)
    got = np.load(out) if os.path.exists(out) else None
    check(got is not None and got.dtype == want.dtype and got.shape == want.shape and
          np.array_equal(got.view(np.uint8), want.view(np.uint8)), f"{what}: values (bit for bit)")


def both_devices(args, want, what):
    for device in [None, "cpu"]:
        expect_output(args, want, f"{what} on {device or 'the default device'}", device)


# ---- ONNX Runtime's layout: u4 [6, 40] (short last block), block 16, f16 scales, zero points -> f16
q = rng.integers(0, 16, size=(6, 40))
scales = (rng.standard_normal((6, 3)) * 0.1).astype(np.float16)
zero_points = rng.integers(0, 16, size=(6, 3))
idx = np.array([5, -6, 2], np.int64)
per_value_scale = np.repeat(scales.astype(np.float32), 16, axis=1)[:, :40]
per_value_zero = np.repeat(zero_points, 16, axis=1)[:, :40]
f32 = (q - per_value_zero).astype(np.float32) * per_value_scale
args = ["--layout", "ort-block", "--data", save("u4.npy", pack(q)), "--data-type", "u4", "--data-shape", "6,40",
        "--indices", save("i.npy", idx), "--scales", save("s.npy", scales), "--zero-points",
        save("z.npy", pack(zero_points)), "--block-size", "16"]
both_devices(args, to_output(f32[idx], "f16"), "ort-block u4 zero points")
for output_type in ["f32", "bf16"]:
    both_devices(args + ["--output-type", output_type], to_output(f32[idx], output_type), f"ort-block u4 -> {output_type}")
expect_output(args + ["--verify"], to_output(f32[idx], "f16"), "ort-block u4 --verify")

# u8 bits 8, bf16 scales (uint16 bits), default zero point 128, gather along axis 0 of [5, 64]
q = rng.integers(0, 256, size=(5, 64))
scale_bits = bf16_bits(rng.standard_normal((5, 2)) * 0.01)
f32 = (q - 128).astype(np.float32) * np.repeat(bf16_to_f32(scale_bits), 32, axis=1)
idx = np.array([4, 0, 0], np.int32)
both_devices(["--layout", "ort-block", "--data", save("u8.npy", q.astype(np.uint8)), "--bits", "8", "--block-size",
              "32", "--indices", save("i32.npy", idx), "--scales", save("sb.npy", scale_bits), "--scales-type", "bf16"],
             to_output(f32[idx], "bf16"), "ort-block u8 bits 8 bf16 scales")

# u8 bits 2: four values a byte, value 0 in the low two bits; [4, 10] bytes hold [4, 40] values, blocks of 16
# (the last one short), f32 scales, zero points four a byte along the row ([4, 1]: 3 a row, the byte padded),
# then the default zero point 2
q = rng.integers(0, 4, size=(4, 40))
packed2 = (q[:, 0::4] | q[:, 1::4] << 2 | q[:, 2::4] << 4 | q[:, 3::4] << 6).astype(np.uint8)
scales = (rng.standard_normal((4, 3)) * 0.1).astype(np.float32)
zero_points = rng.integers(0, 4, size=(4, 3))
packed_zero_points = (zero_points[:, 0] | zero_points[:, 1] << 2 | zero_points[:, 2] << 4 | 0xC0).astype(np.uint8)
idx = np.array([3, -4, 1], np.int64)
per_value_scale = np.repeat(scales, 16, axis=1)[:, :40]
args = ["--layout", "ort-block", "--data", save("u2.npy", packed2), "--bits", "2", "--block-size", "16",
        "--indices", save("i.npy", idx), "--scales", save("s2.npy", scales)]
f32 = (q - np.repeat(zero_points, 16, axis=1)[:, :40]).astype(np.float32) * per_value_scale
both_devices(args + ["--zero-points", save("z2.npy", packed_zero_points.reshape(4, 1))], to_output(f32[idx], "f32"),
             "ort-block u8 bits 2 zero points")
f32 = (q - 2).astype(np.float32) * per_value_scale
for output_type in ["f16", "bf16"]:
    both_devices(args + ["--output-type", output_type], to_output(f32[idx], output_type),
                 f"ort-block u8 bits 2 -> {output_type}")

# i4 quantized along the gathered axis: data [32, 3], scales [2, 3], gather_axis 0, quantize_axis 0
q = rng.integers(-8, 8, size=(32, 3))
scales = (rng.standard_normal((2, 3)) * 0.1).astype(np.float32)
f32 = q.astype(np.float32) * np.repeat(scales, 16, axis=0)
idx = np.array([31, 16, 15], np.int64)
both_devices(["--layout", "ort-block", "--data", save("i4.npy", pack(q)), "--data-type", "i4", "--data-shape", "32,3",
              "--block-size", "16", "--quantize-axis", "0", "--indices", save("i.npy", idx), "--scales",
              save("s.npy", scales)], to_output(f32[idx], "f32"), "ort-block i4 quantize_axis 0")

# ---- ggml q4_0 and q8_0 rows: uint8 [rows, bytes per row]
def ggml_rows(kind, rows, blocks):
    d = (rng.standard_normal((rows, blocks)) * 0.05).astype(np.float16)
    if kind == "q4_0":
        nibbles = rng.integers(0, 16, size=(rows, blocks, 32))
        body = (nibbles[:, :, :16] | (nibbles[:, :, 16:] << 4)).astype(np.uint8)
        values = (nibbles - 8).astype(np.float32)
    else:
        q8 = rng.integers(-128, 128, size=(rows, blocks, 32)).astype(np.int8)
        body = q8.view(np.uint8)
        values = q8.astype(np.float32)
    packed = np.concatenate([d.reshape(rows, blocks, 1).view(np.uint8), body], axis=2).reshape(rows, -1)
    return packed, (values * d.astype(np.float32)[:, :, None]).reshape(rows, blocks * 32)


for kind in ["q4_0", "q8_0"]:
    packed, f32 = ggml_rows(kind, 7, 3)
    idx = np.array([6, 0, 3, 3], np.int64)
    args = ["--layout", f"ggml-{kind}", "--data", save(f"{kind}.npy", packed), "--indices", save("i.npy", idx)]
    both_devices(args, f32[idx], f"ggml {kind}")
    both_devices(args + ["--output-type", "f16"], f32[idx].astype(np.float16), f"ggml {kind} -> f16")


# ---- ggml's other 32-value blocks: f16 d (and m), q5's fifth bits (bit j of a little-endian word), nibbles
IQ4_NL = np.array([-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113], np.float32)


def ggml_more_rows(kind, rows, blocks):
    d = (rng.standard_normal((rows, blocks, 1)) * 0.05).astype(np.float16)
    m = (rng.standard_normal((rows, blocks, 1)) * 0.5).astype(np.float16)
    q = rng.integers(0, 32 if kind.startswith("q5") else 16, size=(rows, blocks, 32))
    nibbles = (q[:, :, :16] & 15 | (q[:, :, 16:] & 15) << 4).astype(np.uint8)
    fifth = ((q >> 4) << np.arange(32)).sum(axis=2, keepdims=True).astype(np.uint32).view(np.uint8)
    fields = {"q4_1": [d, m], "q5_0": [d], "q5_1": [d, m], "iq4_nl": [d]}[kind]
    parts = [f.view(np.uint8) for f in fields] + ([fifth] if kind.startswith("q5") else []) + [nibbles]
    packed = np.concatenate(parts, axis=2).reshape(rows, -1)
    df, mf = d.astype(np.float32), m.astype(np.float32)
    values = {"q4_1": lambda: q.astype(np.float32) * df + mf, "q5_0": lambda: (q - 16).astype(np.float32) * df,
              "q5_1": lambda: q.astype(np.float32) * df + mf, "iq4_nl": lambda: IQ4_NL[q] * df}[kind]()
    return packed, values.reshape(rows, blocks * 32)


for kind in ["q4_1", "q5_0", "q5_1", "iq4_nl"]:
    packed, f32 = ggml_more_rows(kind, 6, 2)
    idx = np.array([5, 0, 2], np.int32)
    args = ["--layout", f"ggml-{kind}", "--data", save(f"{kind}.npy", packed), "--indices", save("i.npy", idx)]
    both_devices(args, f32[idx], f"ggml {kind}")
    both_devices(args + ["--output-type", "bf16"], bf16_bits(f32[idx]), f"ggml {kind} -> bf16")

# ---- ggml's 256-value super-blocks, packed here from chosen integers (ggml-common.h's fields): q4_K,
# q6_K and iq4_xs, each value (d * scale) * q (less dmin * min for q4_K) in f32 as gguf orders it
def super_block_rows(kind, rows, blocks):
    n = rows * blocks
    d = (rng.standard_normal((n, 1)) * 0.01).astype(np.float16)
    v = np.arange(256)
    if kind == "q4_K":
        dmin = (rng.standard_normal((n, 1)) * 0.01).astype(np.float16)
        sc, mn, q = rng.integers(0, 64, (n, 8)), rng.integers(0, 64, (n, 8)), rng.integers(0, 16, (n, 256))
        scales = np.concatenate([sc[:, :4] | (sc[:, 4:] >> 4) << 6, mn[:, :4] | (mn[:, 4:] >> 4) << 6,
                                 (sc[:, 4:] & 15) | (mn[:, 4:] & 15) << 4], axis=1)
        quads = q.reshape(n, 4, 2, 32)  # value 64c + 32k + l: nibble k of byte 32c + l
        qs = (quads[:, :, 0] | quads[:, :, 1] << 4).reshape(n, 128)
        parts = [d.view(np.uint8), dmin.view(np.uint8), scales.astype(np.uint8), qs.astype(np.uint8)]
        f32 = ((d.astype(np.float32) * sc[:, v // 32].astype(np.float32)) * q.astype(np.float32)
               - dmin.astype(np.float32) * mn[:, v // 32].astype(np.float32))
    elif kind == "q6_K":
        sc, q = rng.integers(-128, 128, (n, 16)), rng.integers(0, 64, (n, 256))
        halves = q.reshape(n, 2, 2, 64)  # value 128h + 64k + t: nibble k of ql[64h + t]
        ql = ((halves[:, :, 0] & 15) | (halves[:, :, 1] & 15) << 4).reshape(n, 128)
        pairs = (q.reshape(n, 2, 4, 32) >> 4) << (2 * np.arange(4)).reshape(1, 1, 4, 1)  # pair s of qh[32h + l]
        qh = pairs.sum(axis=2).reshape(n, 64)
        parts = [ql.astype(np.uint8), qh.astype(np.uint8), sc.astype(np.int8).view(np.uint8), d.view(np.uint8)]
        f32 = (d.astype(np.float32) * sc[:, v // 16].astype(np.float32)) * (q - 32).astype(np.float32)
    else:  # iq4_xs
        ls, nib = rng.integers(0, 64, (n, 8)), rng.integers(0, 16, (n, 256))
        scales_h = ((ls >> 4) << (2 * np.arange(8))).sum(axis=1).astype(np.uint16).reshape(n, 1)
        scales_l = (ls[:, 0::2] & 15) | (ls[:, 1::2] & 15) << 4
        halves = nib.reshape(n, 8, 2, 16)  # value 32j + 16k + t: nibble k of qs[16j + t]
        qs = (halves[:, :, 0] | halves[:, :, 1] << 4).reshape(n, 128)
        parts = [d.view(np.uint8), scales_h.view(np.uint8), scales_l.astype(np.uint8), qs.astype(np.uint8)]
        f32 = (d.astype(np.float32) * (ls[:, v // 32] - 32).astype(np.float32)) * IQ4_NL[nib]
    packed = np.concatenate(parts, axis=1).reshape(rows, -1)
    return packed, f32.astype(np.float32).reshape(rows, blocks * 256)


for kind in ["q4_K", "q6_K", "iq4_xs"]:
    packed, f32 = super_block_rows(kind, 5, 2)
    idx = np.array([4, 0, 4, 2], np.int64)
    args = ["--layout", f"ggml-{kind}", "--data", save(f"{kind}.npy", packed), "--indices", save("i.npy", idx)]
    both_devices(args, f32[idx], f"ggml {kind}")
    both_devices(args + ["--output-type", "f16"], f32[idx].astype(np.float16), f"ggml {kind} -> f16")
    both_devices(args + ["--output-type", "bf16"], bf16_bits(f32[idx]), f"ggml {kind} -> bf16")

# ---- FBGEMM's fused rows (PyTorch's prepacked EmbeddingBag tables): values, then scale and bias in each row.
# Scales and biases of few bits, so that q * scale + bias is exact in f32 (fused or not); D not a multiple
# of 8 for both, so that both share one kernel build.
def fbgemm_rows(eight, rows, d):
    scale = (rng.integers(1, 64, size=rows) / 64.0).astype(np.float32)
    bias = (rng.integers(-64, 64, size=rows) / 8.0).astype(np.float32)
    q = rng.integers(0, 256 if eight else 16, size=(rows, d)).astype(np.uint8)
    packed = q if eight else (q[:, 0::2] | (q[:, 1::2] << 4)).astype(np.uint8)
    fields = np.stack([scale, bias], axis=1).astype("<f4" if eight else "<f2").view(np.uint8)
    return np.concatenate([packed, fields], axis=1), q.astype(np.float32) * scale[:, None] + bias[:, None]


for layout, eight, d in (("fbgemm-8bit-rowwise", True, 13), ("fbgemm-4bit-rowwise", False, 10)):
    rows, f32 = fbgemm_rows(eight, 5, d)
    idx = np.array([4, -5, 2, 4], np.int64)
    both_devices(["--layout", layout, "--data", save("fbgemm.npy", rows), "--indices", save("i.npy", idx)],
                 f32[idx], layout)

# ---- OpenVINO's compressed embedding: u8 [6, 64] in 4 groups, zero points, zeros out of range; i4 per row
q = rng.integers(0, 256, size=(6, 64))
scales = (rng.standard_normal((6, 4)) * 0.01).astype(np.float32)
zero_points = rng.integers(0, 256, size=(6, 4))
f32 = (q - np.repeat(zero_points, 16, axis=1)).astype(np.float32) * np.repeat(scales, 16, axis=1)
idx = np.array([5, 9, 0, -1, -7], np.int64)  # 9 and -7 lie outside [-6, 5]; -1 is row 5
want = f32[np.clip(idx % 6, 0, 5)]
want[1] = 0
want[4] = 0
both_devices(["--layout", "ov-compressed", "--data", save("ov.npy", q.astype(np.uint8)), "--indices",
              save("i.npy", idx), "--scales", save("s.npy", scales), "--zero-points",
              save("z.npy", zero_points.astype(np.uint8))], to_output(want, "f32"), "ov-compressed u8 groups")
q = rng.integers(-8, 8, size=(4, 33))
scales = (rng.standard_normal((4, 1)) * 0.1).astype(np.float16)
f32 = (q - 3).astype(np.float32) * scales.astype(np.float32)
idx = np.array([3, 1], np.int64)
both_devices(["--layout", "ov-compressed", "--data", save("ov4.npy", pack(q)), "--data-type", "i4", "--data-shape",
              "4,33", "--indices", save("i.npy", idx), "--scales", save("s.npy", scales), "--zero-points",
              save("z.npy", pack([3])), "--zero-points-shape", "1"], to_output(f32[idx], "f16"),
             "ov-compressed i4 per row, one zero point, odd row")

# ---- failures: usage (2) and refused (1); never an output file
out = path("never.npy")
base = ["gather-quantized", "--layout", "ort-block", "--data", path("u4.npy"), "--data-type", "u4", "--data-shape",
        "6,40", "--indices", save("i.npy", np.array([0], np.int64)), "--scales",
        save("s.npy", np.ones((6, 3), np.float16)), "--block-size", "16", "--out", out]
usage_cases = [
    (["--layout", "nope"], "unknown --layout 'nope'"),
    (["--data-type", "u3"], "--data-type must be u4, i4, u8 or i8, not 'u3'"),
    (["--block-size", "x"], "--block-size 'x' is not an integer"),
    (["--output-type", "f64"], "--output-type must be f32, f16 or bf16, not 'f64'"),
    (["--data-shape", "6,,40"], "--data-shape '6,,40' is not a shape"),
    (["--oob", "wrap"], "--oob must be error, zero or clamp, not 'wrap'"),
    (["--bits", "65"], "--bits 65 is not 2, 4 or 8"),
    (["--zero-points-shape", "6,3"], "--zero-points-shape without --zero-points"),
]


def replace(args, extra):
    args = list(args)
    for i in range(0, len(extra), 2):
        if extra[i] in args:
            args[args.index(extra[i]) + 1] = extra[i + 1]
        else:
            args += extra[i:i + 2]
    return args


for extra, message in usage_cases:
    expect_status(replace(base, extra), 2, f"usage {extra}", message)
    check(not os.path.exists(out), f"no output after usage error {extra}")
expect_status(["gather-quantized", "--layout", "ggml-q4_0", "--data", path("q4_0.npy"), "--indices", path("i.npy"),
               "--scales", path("s.npy"), "--out", out], 2, "ggml with scales", "no --scales")
expect_status(["gather-quantized", "--layout", "ort-block"], 2, "missing --data", "--data is required")
expect_status(["gather-quantized", "--layout", "ggml-q5_0", "--data", save("q5_short.npy", np.zeros((2, 21), np.uint8)),
               "--indices", path("i.npy"), "--out", out], 1, "a q5_0 row short of a block",
              "not a whole number of 22-byte ggml-q5_0 blocks")
expect_status(["gather-quantized", "--layout", "ggml-q4_K", "--data", save("q4_K_short.npy", np.zeros((2, 144 + 18), np.uint8)),
               "--indices", path("i.npy"), "--out", out], 1, "a row of a super-block and a bit",
              "162 bytes is not a whole number of 144-byte ggml-q4_K blocks (256 values each)")
expect_status(["gather-quantized", "--layout", "fbgemm-4bit-rowwise", "--data", save("fbgemm_short.npy", np.zeros((2, 4), np.uint8)),
               "--indices", path("i.npy"), "--out", out], 1, "a 4-bit FBGEMM row of its scale and bias alone",
              "data.shape[1] = 4 bytes cannot be a fbgemm-4bit-rowwise row: it needs at least 5")
expect_status(["gather-quantized", "--layout", "fbgemm-8bit-rowwise", "--data", path("fbgemm.npy"), "--indices",
               path("i.npy"), "--scales", path("s.npy"), "--out", out], 2, "FBGEMM rows with scales", "no --scales")
refused_cases = [
    (["--block-size", "48"], "CLG_ERR_INVALID_BLOCK_SIZE"),
    (["--bits", "8"], "CLG_ERR_INVALID_BITS"),
    (["--bits", "2"], "bits = 2: u4 data has 4 bits"),
    (["--gather-axis", "2"], "CLG_ERR_INVALID_AXIS"),
    (["--indices", save("bad.npy", np.array([6], np.int64))], "CLG_ERR_INDEX_OUT_OF_RANGE"),
    (["--indices", save("hostile.npy", np.array([np.iinfo(np.int64).min], np.int64))], "CLG_ERR_INDEX_OUT_OF_RANGE"),
    (["--scales", save("s_bad.npy", np.ones((6, 2), np.float16))], "CLG_ERR_SHAPE_MISMATCH"),
    (["--scales", save("s_i32.npy", np.ones((6, 3), np.int32))], "CLG_ERR_INVALID_DTYPE"),
    (["--data-shape", "6,42"], "holds 120 bytes; the descriptor calls for 126"),
    (["--data", save("f32data.npy", np.ones((6, 40), np.float32))], "holds f32"),
    (["--data", path("missing.npy")], "missing.npy"),
]
for extra, message in refused_cases:
    expect_status(replace(base, extra), 1, f"refused {extra}", message)
    check(not os.path.exists(out), f"no output after refused {extra}")
u8_base = ["gather-quantized", "--layout", "ort-block", "--data", path("u2.npy"), "--bits", "2", "--block-size", "16",
           "--indices", path("i.npy"), "--scales", path("s2.npy"), "--out", out]
for extra, message in [(["--bits", "3"], "bits = 3: u8 data takes bits 2, 4 or 8"),
                       (["--zero-points", save("z2_bad.npy", np.zeros((4, 3), np.uint8))],
                        "zero_points.shape[1] = 3 but 1 expected (four 2-bit zero points a byte"),
                       (["--scales", save("s2_bytes.npy", np.ones((4, 1), np.float32))],
                        "scales.shape[1] = 1 but 3 expected")]:
    expect_status(replace(u8_base, extra), 1, f"refused u8 {extra}", message)
    check(not os.path.exists(out), f"no output after refused u8 {extra}")
check(not leftovers(), "no temporary files left behind")
finish()
