"""The shared library, loaded with ctypes, and the C structs of include/clgather.h mirrored field for field."""

import ctypes
import os

# CLGATHER_ABI_VERSION of the include/clgather.h these declarations mirror.
ABI_VERSION = 4

MAX_RANK = 8
MAX_OUTPUT_RANK = 2 * MAX_RANK - 1

SUCCESS = 0
ERR_NULL_ARGUMENT = -2001
ERR_INVALID_PRESET = -2002
ERR_INVALID_DTYPE = -2003
ERR_INVALID_INDEX_TYPE = -2004
ERR_INVALID_RANK = -2005
ERR_INVALID_DIMENSION = -2006
ERR_INVALID_AXIS = -2007
ERR_INVALID_AXIS_TENSOR = -2008
ERR_INVALID_BATCH_DIMS = -2009
ERR_BATCH_SHAPE_MISMATCH = -2010
ERR_SIZE_OVERFLOW = -2011
ERR_BUFFER_TOO_SMALL = -2012
ERR_INVALID_POLICY = -2013
ERR_INDEX_OUT_OF_RANGE = -2014
ERR_VERIFY_MISMATCH = -2015
ERR_NO_DEVICE = -2016
ERR_OUT_OF_HOST_MEMORY = -2017
ERR_KERNEL_BUILD = -2018
ERR_MISALIGNED_OFFSET = -2019
ERR_TOO_LARGE_FOR_DEVICE = -2020
ERR_NO_OPENCL = -2021
ERR_TYPE_MISMATCH = -2022
ERR_SHAPE_MISMATCH = -2023
ERR_INVALID_PARENT = -2024
ERR_UNSUPPORTED_BY_DEVICE = -2025
ERR_INVALID_DEVICE_SPEC = -2026
ERR_INTERNAL = -2027
ERR_INVALID_SEQ_LEN = -2028
ERR_INVALID_BINARY_BLOB = -2029
ERR_DEVICE_OUT_OF_MEMORY = -2030
ERR_INVALID_LAYOUT = -2040
ERR_INVALID_BLOCK_SIZE = -2041
ERR_INVALID_BITS = -2042
ERR_INPUT_NOT_ALLOWED = -2043
ERR_INVALID_MODE = -2060
ERR_INVALID_BAG_FORM = -2061
ERR_INVALID_OFFSETS = -2062
ERR_INVALID_SEGMENT_IDS = -2063
ERR_INPUT_MISSING = -2064

CONTEXT_VERIFY = 0x1
CONTEXT_DEFER_ERRORS = 0x2

OOB_PRESET = 0
OOB_COUNT = 4

# clg_bag_form and clg_bag_mode
BAG_OFFSETS = 1
BAG_PACKED = 2
BAG_SEGMENTS = 3
BAG_MODE_COUNT = 3

status = ctypes.c_int32
cl_handle = ctypes.c_void_p  # cl_context, cl_device_id, cl_command_queue, cl_mem, cl_event


class TensorDesc(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("rank", ctypes.c_int32), ("shape", ctypes.c_int64 * MAX_RANK)]


class QuantTensorDesc(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("rank", ctypes.c_int32), ("shape", ctypes.c_int64 * MAX_RANK)]


class GatherDesc(ctypes.Structure):
    _fields_ = [
        ("preset", ctypes.c_int),
        ("data", TensorDesc),
        ("indices", TensorDesc),
        ("axis", ctypes.c_int64),
        ("axis_tensor", TensorDesc),
        ("axis_value", ctypes.c_void_p),
        ("batch_dims", ctypes.c_int64),
        ("oob_policy", ctypes.c_int),
    ]


class GatherElementsDesc(ctypes.Structure):
    _fields_ = [
        ("preset", ctypes.c_int),
        ("data", TensorDesc),
        ("indices", TensorDesc),
        ("axis", ctypes.c_int64),
        ("oob_policy", ctypes.c_int),
    ]


class GatherNdDesc(ctypes.Structure):
    _fields_ = [
        ("preset", ctypes.c_int),
        ("data", TensorDesc),
        ("indices", TensorDesc),
        ("batch_dims", ctypes.c_int64),
        ("oob_policy", ctypes.c_int),
    ]


class GatherTreeDesc(ctypes.Structure):
    _fields_ = [
        ("step_ids", TensorDesc),
        ("parent_ids", TensorDesc),
        ("max_seq_len", TensorDesc),
        ("end_token", TensorDesc),
    ]


class GatherQuantizedDesc(ctypes.Structure):
    _fields_ = [
        ("layout", ctypes.c_int),
        ("data", QuantTensorDesc),
        ("indices", TensorDesc),
        ("scales", TensorDesc),
        ("zero_points", QuantTensorDesc),
        ("bits", ctypes.c_int32),
        ("block_size", ctypes.c_int64),
        ("gather_axis", ctypes.c_int64),
        ("quantize_axis", ctypes.c_int64),
        ("output_type", ctypes.c_int),
        ("oob_policy", ctypes.c_int),
    ]


class EmbeddingBagDesc(ctypes.Structure):
    _fields_ = [
        ("preset", ctypes.c_int),
        ("bag_form", ctypes.c_int),
        ("mode", ctypes.c_int),
        ("table", TensorDesc),
        ("indices", TensorDesc),
        ("offsets", TensorDesc),
        ("segment_ids", TensorDesc),
        ("per_sample_weights", TensorDesc),
        ("num_segments", ctypes.c_int64),
        ("include_last_offset", ctypes.c_int32),
        ("has_default_index", ctypes.c_int32),
        ("default_index", ctypes.c_int64),
        ("has_padding_idx", ctypes.c_int32),
        ("padding_idx", ctypes.c_int64),
    ]


class EmbeddingBagQuantizedDesc(ctypes.Structure):
    _fields_ = [
        ("bag", EmbeddingBagDesc),
        ("layout", ctypes.c_int),
        ("data", QuantTensorDesc),
        ("scales", TensorDesc),
        ("zero_points", QuantTensorDesc),
        ("bits", ctypes.c_int32),
        ("block_size", ctypes.c_int64),
        ("output_type", ctypes.c_int),
    ]


class EmbeddingBagTable(ctypes.Structure):
    _fields_ = [
        ("type", ctypes.c_int),
        ("quant_layout", ctypes.c_int32),
        ("rows", ctypes.c_int64),
        ("width", ctypes.c_int64),
        ("byte_offset", ctypes.c_uint64),
    ]


class EmbeddingBagTablesDesc(ctypes.Structure):
    _fields_ = [
        ("mode", ctypes.c_int),
        ("num_tables", ctypes.c_int32),
        ("tables", ctypes.POINTER(EmbeddingBagTable)),
        ("indices", TensorDesc),
        ("offsets", TensorDesc),
        ("per_sample_weights", TensorDesc),
        ("include_last_offset", ctypes.c_int32),
        ("output_type", ctypes.c_int),
    ]


class DeviceInfo(ctypes.Structure):
    _fields_ = [
        ("index", ctypes.c_int32),
        ("is_default", ctypes.c_int32),
        ("is_reference", ctypes.c_int32),
        ("type", ctypes.c_uint64),
        ("platform_name", ctypes.c_char * 128),
        ("platform_version", ctypes.c_char * 128),
        ("device_name", ctypes.c_char * 128),
        ("vendor", ctypes.c_char * 128),
        ("driver_version", ctypes.c_char * 128),
        ("opencl_c_version", ctypes.c_char * 128),
        ("global_mem_bytes", ctypes.c_uint64),
        ("max_alloc_bytes", ctypes.c_uint64),
        ("has_fp16", ctypes.c_int32),
        ("has_fp64", ctypes.c_int32),
    ]


P = ctypes.POINTER
vp = ctypes.c_void_p
sz = ctypes.c_size_t
u32 = ctypes.c_uint32
i32p = P(ctypes.c_int32)
shape_out = ctypes.c_int64 * MAX_OUTPUT_RANK
u64p = P(ctypes.c_uint64)
evp = P(cl_handle)

# name: (restype, argtypes)
_SIGNATURES = {
    "clg_abi_version": (ctypes.c_int32, []),
    "clg_version": (ctypes.c_char_p, []),
    "clg_status_string": (ctypes.c_char_p, [status]),
    "clg_last_error_message": (ctypes.c_char_p, []),
    "clg_dtype_from_name": (ctypes.c_int, [ctypes.c_char_p]),
    "clg_dtype_name": (ctypes.c_char_p, [ctypes.c_int]),
    "clg_preset_from_name": (ctypes.c_int, [ctypes.c_char_p]),
    "clg_gather_elements_preset_from_name": (ctypes.c_int, [ctypes.c_char_p]),
    "clg_gather_nd_preset_from_name": (ctypes.c_int, [ctypes.c_char_p]),
    "clg_quant_layout_from_name": (ctypes.c_int, [ctypes.c_char_p]),
    "clg_quant_type_from_name": (ctypes.c_int, [ctypes.c_char_p]),
    "clg_oob_policy_from_name": (ctypes.c_int, [ctypes.c_char_p]),
    "clg_embedding_bag_preset_from_name": (ctypes.c_int, [ctypes.c_char_p]),
    "clg_bag_mode_from_name": (ctypes.c_int, [ctypes.c_char_p]),
    "clg_context_create": (status, [cl_handle, cl_handle, u32, P(vp)]),
    "clg_context_create_default": (status, [ctypes.c_char_p, u32, P(vp)]),
    "clg_context_release": (None, [vp]),
    "clg_deferred_status": (status, [vp, cl_handle]),
    "clg_list_devices": (status, [P(DeviceInfo), sz, P(sz)]),
    "clg_context_device_info": (status, [vp, P(DeviceInfo)]),
    "clg_context_cl_queue": (cl_handle, [vp]),
    "clg_context_cl_context": (cl_handle, [vp]),
    "clg_context_cl_device": (cl_handle, [vp]),
}
for _op, _desc in (("gather", GatherDesc), ("gather_elements", GatherElementsDesc), ("gather_nd", GatherNdDesc)):
    _d = P(_desc)
    _SIGNATURES[f"clg_{_op}_output_shape"] = (status, [_d, i32p, shape_out])
    _SIGNATURES[f"clg_{_op}"] = (status, [vp, _d, vp, sz, vp, sz, vp, sz])
    _SIGNATURES[f"clg_{_op}_reference"] = (status, [_d, vp, sz, vp, sz, vp, sz])
    _SIGNATURES[f"clg_{_op}_enqueue"] = (
        status,
        [vp, _d, cl_handle, cl_handle, sz, cl_handle, sz, cl_handle, sz, u32, evp, evp],
    )
_SIGNATURES["clg_gather_tree_sizes"] = (status, [P(GatherTreeDesc), u64p])
_SIGNATURES["clg_gather_tree"] = (status, [vp, P(GatherTreeDesc)] + [vp, sz] * 5)
_SIGNATURES["clg_gather_tree_reference"] = (status, [P(GatherTreeDesc)] + [vp, sz] * 5)
_SIGNATURES["clg_gather_tree_enqueue"] = (
    status,
    [vp, P(GatherTreeDesc), cl_handle] + [cl_handle, sz] * 5 + [u32, evp, evp],
)
_SIGNATURES["clg_gather_quantized_output_shape"] = (
    status,
    [P(GatherQuantizedDesc), i32p, shape_out, P(ctypes.c_int)],
)
_SIGNATURES["clg_gather_quantized"] = (status, [vp, P(GatherQuantizedDesc)] + [vp, sz] * 5)
_SIGNATURES["clg_gather_quantized_reference"] = (status, [P(GatherQuantizedDesc)] + [vp, sz] * 5)
_SIGNATURES["clg_gather_quantized_enqueue"] = (
    status,
    [vp, P(GatherQuantizedDesc), cl_handle] + [cl_handle, sz] * 5 + [u32, evp, evp],
)

_SIGNATURES["clg_embedding_bag_output_shape"] = (status, [P(EmbeddingBagDesc), i32p, shape_out])
_SIGNATURES["clg_embedding_bag"] = (status, [vp, P(EmbeddingBagDesc)] + [vp, sz] * 5)
_SIGNATURES["clg_embedding_bag_reference"] = (status, [P(EmbeddingBagDesc)] + [vp, sz] * 5)
_SIGNATURES["clg_embedding_bag_enqueue"] = (
    status,
    [vp, P(EmbeddingBagDesc), cl_handle] + [cl_handle, sz] * 5 + [u32, evp, evp],
)
_SIGNATURES["clg_embedding_bag_quantized_output_shape"] = (
    status,
    [P(EmbeddingBagQuantizedDesc), i32p, shape_out, P(ctypes.c_int)],
)
_SIGNATURES["clg_embedding_bag_quantized"] = (status, [vp, P(EmbeddingBagQuantizedDesc)] + [vp, sz] * 7)
_SIGNATURES["clg_embedding_bag_quantized_reference"] = (status, [P(EmbeddingBagQuantizedDesc)] + [vp, sz] * 7)
_SIGNATURES["clg_embedding_bag_quantized_enqueue"] = (
    status,
    [vp, P(EmbeddingBagQuantizedDesc), cl_handle] + [cl_handle, sz] * 7 + [u32, evp, evp],
)
_SIGNATURES["clg_embedding_bag_tables_output_shape"] = (status, [P(EmbeddingBagTablesDesc), i32p, shape_out])
_SIGNATURES["clg_embedding_bag_tables_output_type"] = (status, [P(EmbeddingBagTablesDesc), P(ctypes.c_int)])
_SIGNATURES["clg_embedding_bag_tables"] = (status, [vp, P(EmbeddingBagTablesDesc)] + [vp, sz] * 5)
_SIGNATURES["clg_embedding_bag_tables_reference"] = (status, [P(EmbeddingBagTablesDesc)] + [vp, sz] * 5)
_SIGNATURES["clg_embedding_bag_tables_enqueue"] = (
    status,
    [vp, P(EmbeddingBagTablesDesc), cl_handle] + [cl_handle, sz] * 5 + [u32, evp, evp],
)


class LibraryMismatchError(ImportError):
    """The library found is not the one this Python layer was written for."""


def library_path():
    """The packaged library, or the one CLGATHER_LIBRARY names (a build tree's, for development)."""
    override = os.environ.get("CLGATHER_LIBRARY")
    if override:
        return override
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "libclgather.so")


def check_abi(lib, path):
    """Refuse a library whose ABI differs from the one mirrored here: a silent mismatch would pass
    wrongly laid out structs to C."""
    try:
        abi_function = lib.clg_abi_version
    except AttributeError:
        raise LibraryMismatchError(
            f"clgather: {path} exports no clg_abi_version(); it predates this Python layer (ABI {ABI_VERSION})"
        ) from None
    abi_function.restype = ctypes.c_int32
    abi_function.argtypes = []
    found = abi_function()
    if found != ABI_VERSION:
        raise LibraryMismatchError(
            f"clgather: {path} has ABI version {found}, this Python layer needs {ABI_VERSION}; "
            "reinstall the package so the two match"
        )


def load():
    path = library_path()
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise ImportError(f"clgather: cannot load the library {path}: {e}") from e
    check_abi(lib, path)
    for name, (restype, argtypes) in _SIGNATURES.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes
    return lib


lib = load()
