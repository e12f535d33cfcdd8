"""GGUF files for the clgather gguf and gather-quantized --gguf tests, written with the gguf package's own
writer (llama.cpp's Python package), run in the venv of ci/setup_oracles.sh. Writes under OUT:
  model.gguf: one tensor of each ggml type named on the command line (random blocks, every scale field a
    finite f16), an f32 tensor, and metadata of every kind (strings, arrays, nested arrays);
  model-v2.gguf: the same bytes marked version 2 (the layout of versions 2 and 3 is the same);
  indices.npy, and expected_<type>_<out>.npy: gguf.quants.dequantize of the gathered rows (f32), and that
    rounded to nearest-even for f16 and bf16 (bf16 as uint16 bits);
  manifest.json: each tensor's name, type, shape (outermost first) and bytes;
  hostile/<case>.gguf and hostile.json: model.gguf with one field made to lie, and the fragment of the
    message that must name it.
Usage: python gguf_cases.py OUT TYPE...   (TYPE: q4_0, q8_0, ...; GGUF_CASES_ROWS and GGUF_CASES_WIDTH set each
tensor's shape, 40 x 512 by default: tests/fuzz/corpus/gguf holds files of 2 x 32)"""
import json
import os
import struct
import sys

import gguf
import numpy as np

OUT = sys.argv[1]
TYPES = sys.argv[2:]
rng = np.random.default_rng(20261127)
Q = gguf.GGMLQuantizationType

# the byte offsets of each block's f16 scale fields (ggml-common.h): made finite, so values are numbers
F16_FIELDS = {"q4_0": [0], "q8_0": [0], "q4_1": [0, 2], "q5_0": [0], "q5_1": [0, 2], "iq4_nl": [0],
              "q2_K": [80, 82], "q3_K": [108], "q4_K": [0, 2], "q5_K": [0, 2], "q6_K": [208], "iq4_xs": [0]}


def random_blocks(kind, rows, values_per_row):
    qtype = Q[kind.upper()] if kind.upper() in Q.__members__ else Q[kind]
    block_values, block_bytes = gguf.GGML_QUANT_SIZES[qtype]
    blocks = values_per_row // block_values
    raw = rng.integers(0, 256, size=(rows, blocks, block_bytes), dtype=np.uint8)
    for at in F16_FIELDS[kind]:
        scales = rng.uniform(-3, 3, size=(rows, blocks)).astype(np.float16)
        raw[:, :, at:at + 2] = scales.view(np.uint8).reshape(rows, blocks, 2)
    return qtype, raw.reshape(rows, blocks * block_bytes)


def bf16_bits(f32):
    bits = f32.astype(np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16  # nearest, ties to even (every value finite)
    return rounded.astype(np.uint16)


def write_model(path, tensors):
    writer = gguf.GGUFWriter(path, "llama")
    writer.add_string("general.name", "clgather gguf test")
    writer.add_uint32("llama.context_length", 4096)
    writer.add_float32("llama.rope.freq_base", 10000.0)
    writer.add_bool("general.flag", True)
    writer.add_array("tokenizer.ggml.tokens", ["<s>", "</s>", "hello", "world"])
    writer.add_array("tokenizer.ggml.scores", [0.0, -1.5, -2.25, -3.0])
    writer.add_array("test.nested", [[1, 2, 3], [4, 5]])
    for name, array, qtype in tensors:
        writer.add_tensor(name, array, raw_dtype=qtype)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


os.makedirs(os.path.join(OUT, "hostile"), exist_ok=True)
rows, width = int(os.environ.get("GGUF_CASES_ROWS", 40)), int(os.environ.get("GGUF_CASES_WIDTH", 512))
indices = np.concatenate([[0, rows - 1], rng.integers(0, rows, 9)]).astype(np.int64)  # the first and last rows too
np.save(os.path.join(OUT, "indices.npy"), indices)
tensors, manifest = [], []
for kind in TYPES:
    qtype, raw = random_blocks(kind, rows, width)
    name = f"blk.{len(tensors):02d}.{kind.ljust(7, '_')}.weight"  # one length for every type
    tensors.append((name, raw, qtype))
    manifest.append({"name": name, "type": kind, "shape": [rows, width], "bytes": int(raw.nbytes)})
    f32 = gguf.quants.dequantize(raw[indices], qtype).astype(np.float32)
    assert f32.shape == (len(indices), width) and np.all(np.isfinite(f32))
    np.save(os.path.join(OUT, f"expected_{kind}_f32.npy"), f32)
    np.save(os.path.join(OUT, f"expected_{kind}_f16.npy"), f32.astype(np.float16))
    np.save(os.path.join(OUT, f"expected_{kind}_bf16.npy"), bf16_bits(f32))
norm = rng.standard_normal(width).astype(np.float32)
tensors.append(("output_norm.weight", norm, None))
manifest.append({"name": "output_norm.weight", "type": "f32", "shape": [width], "bytes": int(norm.nbytes)})
model = os.path.join(OUT, "model.gguf")
write_model(model, tensors)
with open(os.path.join(OUT, "manifest.json"), "w") as f:
    json.dump(manifest, f)

data = bytearray(open(model, "rb").read())
with open(os.path.join(OUT, "model-v2.gguf"), "wb") as f:
    f.write(data[:4] + struct.pack("<I", 2) + data[8:])


# the byte positions of the fields the hostile cases change, found by walking the file as GGUF lays it out
def walk(blob):
    at = 24
    tensor_count, kv_count = struct.unpack_from("<QQ", blob, 8)
    sizes = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}

    def skip(at, vtype):
        if vtype == 8:
            (n,) = struct.unpack_from("<Q", blob, at)
            return at + 8 + n
        if vtype == 9:
            etype, count = struct.unpack_from("<IQ", blob, at)
            at += 12
            for _ in range(count):
                at = skip(at, etype)
            return at
        return at + sizes[vtype]

    first_key = None
    for _ in range(kv_count):
        (n,) = struct.unpack_from("<Q", blob, at)
        first_key = first_key or at
        (vtype,) = struct.unpack_from("<I", blob, at + 8 + n)
        at = skip(at + 8 + n + 4, vtype)
    infos = []
    for _ in range(tensor_count):
        (n,) = struct.unpack_from("<Q", blob, at)
        name_at = at + 8
        (rank,) = struct.unpack_from("<I", blob, at + 8 + n)
        dims_at = at + 8 + n + 4
        type_at = dims_at + 8 * rank
        infos.append({"name_at": name_at, "name_len": n, "rank": rank, "dims_at": dims_at, "type_at": type_at,
                      "offset_at": type_at + 4})
        at = type_at + 12
    return first_key, infos


first_key, infos = walk(data)
hostile = {}


def lie(case, fragment, change):
    blob = bytearray(data)
    change(blob)
    with open(os.path.join(OUT, "hostile", case + ".gguf"), "wb") as f:
        f.write(blob)
    hostile[case] = fragment


first, second = infos[0], infos[1]
lie("not_gguf", "is not a GGUF file", lambda b: b.__setitem__(slice(0, 4), b"GGUG"))
lie("version_1", "is version 1", lambda b: struct.pack_into("<I", b, 4, 1))
lie("big_endian", "is big-endian", lambda b: struct.pack_into(">I", b, 4, 3))
lie("tensor_count_huge", "cannot hold them", lambda b: struct.pack_into("<Q", b, 8, 1 << 60))
lie("metadata_count_huge", "cannot hold them", lambda b: struct.pack_into("<Q", b, 16, 1 << 62))
lie("key_length_past_end", "claims", lambda b: struct.pack_into("<Q", b, first_key, 1 << 40))
lie("unknown_type", "which this reader does not know", lambda b: struct.pack_into("<I", b, first["type_at"], 200))
lie("rank_5", "dimensions; ggml allows 1 to 4", lambda b: struct.pack_into("<I", b, first["dims_at"] - 4, 5))
lie("misaligned_offset", "not a multiple of the alignment",
    lambda b: struct.pack_into("<Q", b, second["offset_at"], struct.unpack_from("<Q", b, second["offset_at"])[0] + 1))
lie("offset_past_end", "runs past the end", lambda b: struct.pack_into("<Q", b, second["offset_at"], 1 << 40))
lie("elements_overflow", "more elements than 64 bits",
    lambda b: struct.pack_into("<QQ", b, first["dims_at"], 1 << 40, 1 << 40))
lie("rows_not_whole_blocks", "but its rows hold",
    lambda b: struct.pack_into("<Q", b, first["dims_at"], struct.unpack_from("<Q", b, first["dims_at"])[0] + 1))
# the quantized tensors' names all have one length: the second's made the first's
assert first["name_len"] == second["name_len"]
lie("duplicate_name", "two tensors are named",
    lambda b: b.__setitem__(slice(second["name_at"], second["name_at"] + second["name_len"]),
                            bytes(b[first["name_at"]:first["name_at"] + first["name_len"]])))
lie("truncated_data", "runs past the end", lambda b: b.__delitem__(slice(len(b) - 100, len(b))))
lie("truncated_header", "ends inside", lambda b: b.__delitem__(slice(first["dims_at"], len(b))))
with open(os.path.join(OUT, "hostile.json"), "w") as f:
    json.dump(hostile, f)
print(f"gguf_cases.py: {len(tensors)} tensors in model.gguf, {len(hostile)} hostile files")
