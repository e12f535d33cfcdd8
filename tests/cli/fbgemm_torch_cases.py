"""Write the FBGEMM row cases test_fbgemm_torch_oracle.py compares with, each made and dequantized by
PyTorch's own quantized EmbeddingBag operators (FBGEMM's kernels on the CPU): rows.npy, the prepacked
uint8 rows (embedding_bag_byte_prepack / embedding_bag_4bit_prepack); indices.npy (int64, negatives
among them); expected.npy, the unpacked f32 rows (embedding_bag_byte_unpack / embedding_bag_4bit_unpack)
at those indices. The non-negative indices are also run through embedding_bag_byte_rowwise_offsets /
embedding_bag_4bit_rowwise_offsets, one index a bag, which must give the same bits: the EmbeddingBag a
later clgather operation reads these rows for. Some rows' scale and bias are then set to infinities and
NaNs by hand; their expected values come from the unpack operators too. Usage: fbgemm_torch_cases.py DIR
(run by a Python that imports torch)."""
import os
import sys

import numpy as np
import torch

out_dir = sys.argv[1]
rng = np.random.default_rng(0xFB6E)
ops = torch.ops.quantized


def table(rows, d):
    """Rows of values of very different sizes: scales from tiny to large, biases of either sign."""
    magnitude = rng.choice([1e-30, 1e-4, 1.0, 37.0, 1e20], size=(rows, 1))
    return torch.from_numpy((rng.standard_normal((rows, d)) * magnitude + rng.standard_normal((rows, 1))).astype(np.float32))


def bag_rows(layout, packed, indices):
    """The rows the EmbeddingBag operator gives, one index a bag (sum of one row)."""
    idx = torch.from_numpy(indices.astype(np.int64))
    offsets = torch.arange(len(indices), dtype=torch.int64)
    op = ops.embedding_bag_byte_rowwise_offsets if layout == "fbgemm-8bit-rowwise" else \
        ops.embedding_bag_4bit_rowwise_offsets
    return op(packed, idx, offsets, False, 0, False, None, None, False).numpy()


def write(name, layout, packed, unpack, indices):
    rows = packed.numpy()
    expected = unpack(packed).numpy()[indices]
    chosen = indices[indices >= 0]
    if layout is not None and len(chosen):
        bag = bag_rows(layout, packed, chosen)
        if not np.array_equal(bag.view(np.uint32), unpack(packed).numpy()[chosen].view(np.uint32)):
            sys.exit(f"{name}: PyTorch's EmbeddingBag rows differ from its unpacked rows")
    d = os.path.join(out_dir, name)
    os.makedirs(d, exist_ok=True)
    np.save(os.path.join(d, "rows.npy"), np.ascontiguousarray(rows))
    np.save(os.path.join(d, "indices.npy"), indices.astype(np.int64))
    np.save(os.path.join(d, "expected.npy"), np.ascontiguousarray(expected.astype(np.float32)))


count = 0
for layout, prepack, unpack, widths in (
        ("fbgemm-8bit-rowwise", ops.embedding_bag_byte_prepack, ops.embedding_bag_byte_unpack, (1, 8, 37, 64)),
        ("fbgemm-4bit-rowwise", ops.embedding_bag_4bit_prepack, ops.embedding_bag_4bit_unpack, (2, 8, 30, 64))):
    short = layout.split("-")[1]
    for d in widths:
        rows = 11
        packed = prepack(table(rows, d))
        indices = rng.integers(-rows, rows, size=17)
        write(f"{short}_d{d}", layout, packed, unpack, indices)
        count += 1
    # infinite and NaN scales and biases, set by hand in the prepacked bytes
    packed = prepack(table(6, 8)).clone()
    raw = packed.numpy()
    if short == "8bit":
        fields = raw[:, 8:16].view(np.float32)
        fields[0] = [np.inf, 1.0]
        fields[1] = [0.5, -np.inf]
        fields[2] = [np.nan, 2.0]
        fields[3] = [-np.inf, np.inf]
        fields[4] = [3.4e38, -np.inf]
    else:
        fields = raw[:, 4:8].view(np.float16)
        fields[0] = [np.inf, 1.0]
        fields[1] = [0.5, -np.inf]
        fields[2] = [np.nan, 2.0]
        fields[3] = [-np.inf, np.inf]
        fields[4] = [65504.0, -np.inf]
    packed = torch.from_numpy(raw)
    write(f"{short}_special", None, packed, unpack, np.arange(6, dtype=np.int64))
    count += 1
print(f"fbgemm_torch_cases.py: {count} cases from torch {torch.__version__}")
