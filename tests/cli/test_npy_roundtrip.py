"""Every dtype through .npy: numpy writes (little- and big-endian, format versions 1, 2 and 3),
clgather reads and gathers, numpy reads the result back and compares bit for bit."""
import numpy.lib.format as npformat

from cli_common import *

fresh_work_dir()
rng = np.random.default_rng(11)
codes = ["b1", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8", "c8", "c16"]


def sample(dtype, shape):
    raw = rng.integers(0, 256, size=int(np.prod(shape, dtype=np.int64)) * dtype.itemsize, dtype=np.uint8)
    if dtype.kind == "b":
        raw = raw % 2
    return raw.view(dtype.newbyteorder("<") if dtype.itemsize > 1 else dtype).reshape(shape).astype(dtype)


def write(name, array, version):
    p = path(name)
    with open(p, "wb") as f:
        npformat.write_array(f, array, version=version, allow_pickle=False)
    return p


indices = save("idx.npy", np.array([2, 0, 2, 1], dtype=np.int64))
for code in codes:
    for order in ["<", ">"]:
        dtype = np.dtype(order + code) if code not in ("b1", "i1", "u1") else np.dtype("|" + code)
        for version in [(1, 0), (2, 0), (3, 0)]:
            data = sample(dtype, (3, 2))
            dp = write(f"d_{code}.npy", data, version)
            out = path(f"o_{code}.npy")
            if os.path.exists(out):
                os.remove(out)
            what = f"{dtype.str} v{version[0]}"
            expect_status(["gather", "--op", "onnx-13", "--data", dp, "--indices", indices, "--out", out,
                           "--device", "cpu" if version == (2, 0) else ""], 0, what)
            if not os.path.exists(out):
                continue
            got = np.load(out)
            want = np.take(data, [2, 0, 2, 1], axis=0)
            check(got.dtype == dtype.newbyteorder("<") or got.dtype == dtype, f"{what}: dtype {got.dtype}")
            check(got.shape == want.shape, f"{what}: shape {got.shape}")
            check(got.tobytes() == want.astype(got.dtype).tobytes(), f"{what}: bits differ")
            # the identity gather over every row returns the input itself
            full = save("all.npy", np.arange(3, dtype=np.int32))
            expect_status(["gather", "--op", "onnx-13", "--data", dp, "--indices", full, "--out", out], 0,
                          f"{what} identity")
            got = np.load(out)
            check(got.tobytes() == data.astype(got.dtype).tobytes(), f"{what}: identity round trip bits differ")

# index files of every integer type, both byte orders (OpenVINO presets take any integer type)
data = np.arange(10, dtype=np.float32) * 1.5
dp = save("data.npy", data)
for code in ["i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8"]:
    for order in ["<", ">"]:
        dtype = np.dtype(order + code) if code not in ("i1", "u1") else np.dtype(code)
        ip = save("i.npy", np.array([[9, 0], [3, 3]], dtype=dtype))
        out = path("o.npy")
        expect_status(["gather", "--op", "ov-gather-8", "--data", dp, "--indices", ip, "--out", out], 0,
                      f"indices {dtype.str}")
        check(np.array_equal(np.load(out), data[[[9, 0], [3, 3]]]), f"indices {dtype.str} values")

# NaN payloads and -0.0 survive bit for bit
special = np.array([np.nan, -0.0, np.inf, -np.inf], dtype=np.float32)
special_bits = special.view(np.uint32).copy()
special_bits[0] = 0x7fc12345
special = special_bits.view(np.float32)
dp = save("special.npy", special)
ip = save("sidx.npy", np.array([0, 1, 2, 3], dtype=np.int32))
expect_status(["gather", "--op", "onnx-13", "--data", dp, "--indices", ip, "--out", path("so.npy")], 0, "special")
check(np.load(path("so.npy")).view(np.uint32).tolist() == special_bits.tolist(), "NaN payload and -0.0 preserved")

# output shapes: scalar index on 1-D data gives a 0-d array; a rank-15 output loads in numpy
dp = save("v.npy", np.arange(4, dtype=np.int16))
ip = save("s.npy", np.array(3, dtype=np.int64))
expect_status(["gather", "--op", "onnx-13", "--data", dp, "--indices", ip, "--out", path("scalar_out.npy")], 0,
              "0-d output")
got = np.load(path("scalar_out.npy"))
check(got.shape == () and int(got) == 3, "0-d output loads")
dp = save("big_rank.npy", np.arange(2 ** 8, dtype=np.uint8).reshape((2,) * 8))
ip = save("big_idx.npy", np.zeros((1,) * 8, dtype=np.int64))
expect_status(["gather", "--op", "onnx-13", "--data", dp, "--indices", ip, "--axis", "3", "--out",
               path("rank15.npy")], 0, "rank-15 output")
got = np.load(path("rank15.npy"))
check(got.shape == (2, 2, 2) + (1,) * 8 + (2, 2, 2, 2), f"rank-15 output shape {got.shape}")
check(not leftovers(), "no temporary files left")
finish()
