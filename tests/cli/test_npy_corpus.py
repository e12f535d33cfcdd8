"""A corpus of malformed .npy files: each is refused with exit status 1 and one 'clgather: error:' line,
whether it is the data, the indices or the axis file; random corruptions never crash the program."""
import struct

from cli_common import *

fresh_work_dir()


def npy_bytes(header, payload=b"", version=(1, 0), pad=True, header_len=None):
    text = header
    if pad:
        prefix = 10 if version == (1, 0) else 12
        total = prefix + len(text) + 1
        text = text + " " * ((64 - total % 64) % 64) + "\n"
    raw = text.encode("latin-1")
    n = len(raw) if header_len is None else header_len
    if version == (1, 0):
        head = b"\x93NUMPY\x01\x00" + struct.pack("<H", n)
    else:
        head = b"\x93NUMPY" + bytes(version) + struct.pack("<I", n)
    return head + raw + payload


def hdr(descr="'<f4'", order="False", shape="(2,)"):
    return "{'descr': %s, 'fortran_order': %s, 'shape': %s, }" % (descr, order, shape)


good = npy_bytes(hdr(), b"\0" * 8)
corpus = {
    "empty file": b"",
    "short file": b"\x93NUM",
    "bad magic": b"\x93NUMPZ" + good[6:],
    "version 4.0": b"\x93NUMPY\x04\x00" + good[8:],
    "version 1.1": b"\x93NUMPY\x01\x01" + good[8:],
    "header length past the end": npy_bytes(hdr(), b"\0" * 8, header_len=60000),
    "v2 header length past the end": npy_bytes(hdr(), b"\0" * 8, version=(2, 0), header_len=0xFFFFFFF0),
    "header without newline": npy_bytes(hdr(), b"\0" * 8, pad=False),
    "not a dict": npy_bytes("['descr', '<f4']", b"\0" * 8),
    "missing descr": npy_bytes("{'fortran_order': False, 'shape': (2,), }", b"\0" * 8),
    "missing shape": npy_bytes("{'descr': '<f4', 'fortran_order': False, }", b"\0" * 8),
    "missing fortran_order": npy_bytes("{'descr': '<f4', 'shape': (2,), }", b"\0" * 8),
    "extra key": npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1, }", b"\0" * 8),
    "repeated key": npy_bytes("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,), }",
                              b"\0" * 8),
    "unterminated dict": npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), ", b"\0" * 8),
    "garbage after dict": npy_bytes(hdr() + " junk", b"\0" * 8),
    "unterminated string": npy_bytes("{'descr: '<f4', 'fortran_order': False, 'shape': (2,), }", b"\0" * 8),
    "fortran order": npy_bytes(hdr(order="True"), b"\0" * 8),
    "fortran_order not a bool": npy_bytes(hdr(order="0"), b"\0" * 8),
    "object dtype": npy_bytes(hdr(descr="'|O'"), b"\0" * 16),
    "unicode dtype": npy_bytes(hdr(descr="'<U3'"), b"\0" * 24),
    "bytes dtype": npy_bytes(hdr(descr="'|S4'"), b"\0" * 8),
    "void dtype": npy_bytes(hdr(descr="'|V4'"), b"\0" * 8),
    "datetime dtype": npy_bytes(hdr(descr="'<M8[s]'"), b"\0" * 16),
    "timedelta dtype": npy_bytes(hdr(descr="'<m8[s]'"), b"\0" * 16),
    "f16 dtype": npy_bytes(hdr(descr="'<f16'"), b"\0" * 32),
    "unknown dtype": npy_bytes(hdr(descr="'<q9'"), b"\0" * 8),
    "structured dtype": npy_bytes(hdr(descr="[('a', '<i4')]"), b"\0" * 8),
    "descr not a string": npy_bytes(hdr(descr="4"), b"\0" * 8),
    "truncated payload": npy_bytes(hdr(), b"\0" * 7),
    "payload missing": npy_bytes(hdr(shape="(1000,)")),
    "trailing bytes": npy_bytes(hdr(), b"\0" * 9),
    "negative dimension": npy_bytes(hdr(shape="(-2,)"), b"\0" * 8),
    "dimension not a number": npy_bytes(hdr(shape="(a,)"), b"\0" * 8),
    "shape not a tuple": npy_bytes(hdr(shape="[2]"), b"\0" * 8),
    "shape parenthesised int": npy_bytes(hdr(shape="(2)"), b"\0" * 8),
    "shape unclosed": npy_bytes(hdr(shape="(2,"), b"\0" * 8),
    "shape double comma": npy_bytes(hdr(shape="(2,,)"), b"\0" * 8),
    "dimension overflowing int64": npy_bytes(hdr(shape="(99999999999999999999,)"), b"\0" * 8),
    "element count overflow": npy_bytes(hdr(shape="(4294967296, 4294967296, 4)"), b"\0" * 8),
    "absurd size": npy_bytes(hdr(shape="(1000000000000,)"), b"\0" * 8),
    "absurd dims with a zero": npy_bytes(hdr(shape="(0, 9223372036854775807, 9223372036854775807)")),
    "rank 9": npy_bytes(hdr(shape="(1, 1, 1, 1, 1, 1, 1, 1, 2)"), b"\0" * 8),
    "non-ASCII header": npy_bytes(hdr().replace("descr", "d\xe9scr"), b"\0" * 8),
    "NUL in header": npy_bytes(hdr().replace(" 'shape'", "\0'shape'"), b"\0" * 8),
}

# sanity: the well-formed variants of the same builder are accepted
ok_variants = {
    "plain": good,
    "trailing comma absent": npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2,)}", b"\0" * 8),
    "double quotes, odd spacing": npy_bytes('{ "shape" : ( 2 , ) ,"fortran_order":False,"descr":"<f4"}', b"\0" * 8),
    "big-endian": npy_bytes(hdr(descr="'>f4'"), b"\0" * 8),
    "version 2.0": npy_bytes(hdr(), b"\0" * 8, version=(2, 0)),
    "version 3.0": npy_bytes(hdr(), b"\0" * 8, version=(3, 0)),
    "python 2 long": npy_bytes(hdr(shape="(2L,)"), b"\0" * 8),
}

indices = save("idx.npy", np.array([0], dtype=np.int64))
data_ok = save("data.npy", np.arange(4, dtype=np.int64))
out = path("out.npy")
for name, blob in ok_variants.items():
    p = path("ok.npy")
    open(p, "wb").write(blob)
    expect_status(["gather", "--op", "onnx-13", "--data", p, "--indices", indices, "--out", out, "--device", "cpu"], 0,
                  f"well-formed variant: {name}")
os.remove(out)

for name, blob in corpus.items():
    p = path("bad.npy")
    open(p, "wb").write(blob)
    expect_status(["gather", "--op", "onnx-13", "--data", p, "--indices", indices, "--out", out, "--device", "cpu"], 1,
                  f"malformed data: {name}", "bad.npy")
    expect_status(["gather", "--op", "onnx-13", "--data", data_ok, "--indices", p, "--out", out, "--device", "cpu"],
                  1, f"malformed indices: {name}", "indices")
    expect_status(["gather", "--op", "ov-gather-8", "--data", data_ok, "--indices", indices, "--axis-file", p, "--out",
                   out], 1, f"malformed axis file: {name}", "axis")
    check(not os.path.exists(out), f"{name}: no output")

# a few messages say precisely what is wrong
for name, needle in [("fortran order", "Fortran"), ("object dtype", "'|O'"), ("truncated payload", "truncated"),
                     ("negative dimension", "negative"), ("rank 9", "rank"), ("bad magic", "magic")]:
    p = path("bad.npy")
    open(p, "wb").write(corpus[name])
    expect_status(["gather", "--op", "onnx-13", "--data", p, "--indices", indices, "--out", out, "--device", "cpu"], 1,
                  f"message for {name}", needle)

# random corruption of valid files: exit 0 or 1, never a crash, always the error convention on failure
rng = np.random.default_rng(5)
seed_file = npy_bytes(hdr(descr="'<i8'", shape="(4,)"), bytes(range(32)))
for trial in range(150):
    blob = bytearray(seed_file)
    for _ in range(int(rng.integers(1, 6))):
        kind = rng.integers(0, 3)
        at = int(rng.integers(0, len(blob)))
        if kind == 0:
            blob[at] = int(rng.integers(0, 256))
        elif kind == 1 and len(blob) > 1:
            del blob[at]
        else:
            blob.insert(at, int(rng.integers(0, 256)))
    p = path("fuzz.npy")
    open(p, "wb").write(bytes(blob))
    rc, _, err = run("gather", "--op", "onnx-13", "--data", p, "--indices", indices, "--out", out, "--device", "cpu")
    check(rc in (0, 1), f"fuzz {trial}: exit status {rc}")
    if rc != 0:
        check(err.count("\n") == 1 and err.startswith("clgather: error: "), f"fuzz {trial}: stderr {err!r}")
check(not leftovers(), "no temporary files left")
finish()
