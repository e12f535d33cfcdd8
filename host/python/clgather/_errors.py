"""Exceptions: one class per kind of failure, each carrying the library's status."""

from . import _lib


class Error(Exception):
    """A failed clgather call. `status` is the library's code (a CLG_ERR_* value or an OpenCL
    error), `status_name` its name, and the message names the argument and the value."""

    def __init__(self, message, status=_lib.ERR_NULL_ARGUMENT):
        super().__init__(message)
        self.status = status
        self.status_name = _status_name(status)


class IndexOutOfRangeError(Error, IndexError):
    """An index (or a followed GatherTree parent id, an EmbeddingBag offset or segment id) outside its
    range under the error policy."""


class ShapeError(Error, ValueError):
    """A rank, dimension, axis, batch_dims, block size or shape the operation does not accept."""


class UnsupportedError(Error):
    """Something the operation, the device or the context cannot do: an unknown op or layout name,
    an extension the device lacks, OpenCL work on the CPU reference."""


class DTypeError(Error, TypeError):
    """An input dtype the operation does not take."""


class ArgumentError(Error, ValueError):
    """Any other argument the library refuses (an unknown oob policy or EmbeddingBag mode, a malformed
    device spec, an input the call needs left out)."""


_CLASS_OF_STATUS = {
    _lib.ERR_INDEX_OUT_OF_RANGE: IndexOutOfRangeError,
    _lib.ERR_INVALID_PARENT: IndexOutOfRangeError,
    _lib.ERR_INVALID_OFFSETS: IndexOutOfRangeError,
    _lib.ERR_INVALID_SEGMENT_IDS: IndexOutOfRangeError,
    _lib.ERR_INVALID_RANK: ShapeError,
    _lib.ERR_INVALID_DIMENSION: ShapeError,
    _lib.ERR_INVALID_AXIS: ShapeError,
    _lib.ERR_INVALID_AXIS_TENSOR: ShapeError,
    _lib.ERR_INVALID_BATCH_DIMS: ShapeError,
    _lib.ERR_BATCH_SHAPE_MISMATCH: ShapeError,
    _lib.ERR_SHAPE_MISMATCH: ShapeError,
    _lib.ERR_SIZE_OVERFLOW: ShapeError,
    _lib.ERR_INVALID_BLOCK_SIZE: ShapeError,
    _lib.ERR_INVALID_DTYPE: DTypeError,
    _lib.ERR_INVALID_INDEX_TYPE: DTypeError,
    _lib.ERR_TYPE_MISMATCH: DTypeError,
    _lib.ERR_INVALID_PRESET: UnsupportedError,
    _lib.ERR_INVALID_LAYOUT: UnsupportedError,
    _lib.ERR_INVALID_BITS: UnsupportedError,
    _lib.ERR_INPUT_NOT_ALLOWED: UnsupportedError,
    _lib.ERR_UNSUPPORTED_BY_DEVICE: UnsupportedError,
    _lib.ERR_NO_OPENCL: UnsupportedError,
    _lib.ERR_TOO_LARGE_FOR_DEVICE: UnsupportedError,
    _lib.ERR_NO_DEVICE: UnsupportedError,
    _lib.ERR_INVALID_POLICY: ArgumentError,
    _lib.ERR_INVALID_DEVICE_SPEC: ArgumentError,
    _lib.ERR_INVALID_SEQ_LEN: ArgumentError,
    _lib.ERR_INVALID_MODE: ArgumentError,
    _lib.ERR_INVALID_BAG_FORM: ArgumentError,
    _lib.ERR_INPUT_MISSING: ArgumentError,
    _lib.ERR_NULL_ARGUMENT: ArgumentError,
}


def _status_name(status):
    return _lib.lib.clg_status_string(status).decode()


def raise_for_status(status, what):
    """Raise the exception of a failed call, with the library's message for this thread."""
    if status == _lib.SUCCESS:
        return
    message = _lib.lib.clg_last_error_message().decode(errors="replace")
    cls = _CLASS_OF_STATUS.get(status, Error)
    raise cls(f"{what}: {_status_name(status)}: {message}", status)
