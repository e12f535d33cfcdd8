"""clgather from Python: the Gather family of tensor operations as OpenCL kernels.

numpy arrays in, a numpy array out; pyopencl arrays in, a pyopencl array out on the same queue
(nothing copied to the host). clgather.reference holds the same functions on the CPU reference,
and clgather.onnx_backend runs single-node ONNX models of the family."""

from . import _lib
from ._core import Context, DeviceDescription, devices
from ._errors import ArgumentError, DTypeError, Error, IndexOutOfRangeError, ShapeError, UnsupportedError
from ._ops import PackedTables, embedding_bag, embedding_bag_tables, gather, gather_elements, gather_nd, gather_quantized, gather_tree
from . import reference

__version__ = _lib.lib.clg_version().decode()
ABI_VERSION = _lib.ABI_VERSION

__all__ = [
    "ABI_VERSION",
    "ArgumentError",
    "Context",
    "DTypeError",
    "DeviceDescription",
    "Error",
    "IndexOutOfRangeError",
    "PackedTables",
    "ShapeError",
    "UnsupportedError",
    "devices",
    "embedding_bag",
    "embedding_bag_tables",
    "gather",
    "gather_elements",
    "gather_nd",
    "gather_quantized",
    "gather_tree",
    "reference",
]
