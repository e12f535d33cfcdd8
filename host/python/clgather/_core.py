"""Contexts, dtypes and the calls shared by the OpenCL functions and clgather.reference."""

import ctypes
import dataclasses
import operator
import threading

import numpy as np

from . import _lib
from ._errors import ArgumentError, DTypeError, ShapeError, UnsupportedError, raise_for_status

lib = _lib.lib

# numpy dtype names and the library's element types; bfloat16 is ml_dtypes' (the type onnx uses)
_CLG_TYPE_OF_NUMPY = {
    "bool": "bool",
    "int8": "i8",
    "uint8": "u8",
    "int16": "i16",
    "uint16": "u16",
    "int32": "i32",
    "uint32": "u32",
    "int64": "i64",
    "uint64": "u64",
    "float16": "f16",
    "bfloat16": "bf16",
    "float32": "f32",
    "float64": "f64",
    "complex64": "c64",
    "complex128": "c128",
}
_CLG_DTYPE = {numpy_name: lib.clg_dtype_from_name(clg.encode()) for numpy_name, clg in _CLG_TYPE_OF_NUMPY.items()}


def numpy_dtype(name):
    """The numpy dtype of a name ("float32", "bfloat16", ...) or dtype."""
    if isinstance(name, str) and name == "bfloat16":
        import ml_dtypes

        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


# by dtype object too: numpy's dtype.name is a slow Python property, and this lookup is on every call
_CLG_DTYPE_OF_DTYPE = {np.dtype(name): code for name, code in _CLG_DTYPE.items() if name != "bfloat16"}


def clg_dtype(dtype, argument):
    """The library's element type of a numpy dtype; TypeError naming the argument if it has none."""
    code = _CLG_DTYPE_OF_DTYPE.get(dtype)
    if code is not None:
        return code
    code = _CLG_DTYPE.get(np.dtype(dtype).name)
    if code is None:
        raise DTypeError(f"{argument}: dtype {np.dtype(dtype)} has no clgather element type", _lib.ERR_INVALID_DTYPE)
    return code


def tensor_desc(shape, code, argument, desc_type=_lib.TensorDesc):
    if len(shape) > _lib.MAX_RANK:
        raise ShapeError(
            f"{argument}: rank {len(shape)} exceeds clgather's largest rank {_lib.MAX_RANK}", _lib.ERR_INVALID_RANK
        )
    desc = desc_type()
    desc.type = code
    desc.rank = len(shape)
    for i, extent in enumerate(shape):
        desc.shape[i] = extent
    return desc


def describe(array, argument):
    return tensor_desc(array.shape, clg_dtype(array.dtype, argument), argument)


_device_array_type = None  # pyopencl.array.Array, once a device call has imported pyopencl


def is_device_array(value):
    """A pyopencl array: of pyopencl's class, or with the attributes the binding uses (no pyopencl
    import needed)."""
    return type(value) is _device_array_type or (
        hasattr(value, "base_data") and hasattr(value, "queue") and hasattr(value, "offset")
    )


def host_array(value, argument):
    """A C-contiguous, native-byte-order numpy array of the value (a device array is refused)."""
    array = np.asarray(value)
    if array.dtype.kind in "OUSVMm":
        raise DTypeError(f"{argument}: dtype {array.dtype} has no clgather element type", _lib.ERR_INVALID_DTYPE)
    if not array.dtype.isnative:
        array = array.astype(array.dtype.newbyteorder("="))
    # (np.ascontiguousarray would turn a 0-d array into a 1-d one)
    return array if array.flags.c_contiguous else np.ascontiguousarray(array)


def output_shape(function, desc, what):
    rank = ctypes.c_int32()
    shape = _lib.shape_out()
    raise_for_status(function(ctypes.byref(desc), ctypes.byref(rank), shape), what)
    return tuple(shape[i] for i in range(rank.value))


def oob_policy(oob):
    if oob is None:
        return _lib.OOB_PRESET
    code = lib.clg_oob_policy_from_name(str(oob).encode())
    if code == _lib.OOB_COUNT:
        raise ArgumentError(f"oob={oob!r} is not a policy (error, zero, clamp)", _lib.ERR_INVALID_POLICY)
    return code


def name_code(from_name, value, argument, choices, status):
    code = from_name(str(value).encode())
    if code == 0:
        raise UnsupportedError(f"{argument}={value!r} is not one of {', '.join(choices)}", status)
    return code


# ---- devices and contexts ----


@dataclasses.dataclass(frozen=True)
class DeviceDescription:
    """One device of clgather.devices(); `index` is what Context(device=...) takes."""

    index: int
    name: str
    platform: str
    platform_version: str
    vendor: str
    driver_version: str
    opencl_c_version: str
    type: int
    is_default: bool
    is_reference: bool
    global_mem_bytes: int
    max_alloc_bytes: int
    has_fp16: bool
    has_fp64: bool


def _description(info):
    return DeviceDescription(
        index=info.index,
        name=info.device_name.decode(errors="replace"),
        platform=info.platform_name.decode(errors="replace"),
        platform_version=info.platform_version.decode(errors="replace"),
        vendor=info.vendor.decode(errors="replace"),
        driver_version=info.driver_version.decode(errors="replace"),
        opencl_c_version=info.opencl_c_version.decode(errors="replace"),
        type=info.type,
        is_default=bool(info.is_default),
        is_reference=bool(info.is_reference),
        global_mem_bytes=info.global_mem_bytes,
        max_alloc_bytes=info.max_alloc_bytes,
        has_fp16=bool(info.has_fp16),
        has_fp64=bool(info.has_fp64),
    )


def devices():
    """The OpenCL devices of every platform, in the order device specs index them."""
    count = ctypes.c_size_t()
    raise_for_status(lib.clg_list_devices(None, 0, ctypes.byref(count)), "clgather.devices")
    infos = (_lib.DeviceInfo * max(count.value, 1))()
    raise_for_status(lib.clg_list_devices(infos, count.value, ctypes.byref(count)), "clgather.devices")
    return [_description(infos[i]) for i in range(count.value)]


def _flags(verify, defer_errors):
    return (_lib.CONTEXT_VERIFY if verify else 0) | (_lib.CONTEXT_DEFER_ERRORS if defer_errors else 0)


class Context:
    """A clgather context: compiled kernels are cached in it. `device` is a spec as CLGATHER_DEVICE
    takes it (an index into clgather.devices(), "cpu" for the CPU reference, or a substring of the
    platform or device name); None means CLGATHER_DEVICE, else the first GPU, else the first device."""

    def __init__(self, device=None, verify=False, defer_errors=False):
        self._handle = ctypes.c_void_p()
        self._pyopencl_queue = None
        spec = None if device is None else str(device).encode()
        status = lib.clg_context_create_default(spec, _flags(verify, defer_errors), ctypes.byref(self._handle))
        raise_for_status(status, f"clgather.Context(device={device!r})")

    @classmethod
    def from_pyopencl(cls, queue, verify=False, defer_errors=False):
        """A context over a pyopencl queue's own OpenCL context and device (retained, not copied)."""
        self = cls.__new__(cls)
        self._handle = ctypes.c_void_p()
        self._pyopencl_queue = queue  # keeps the OpenCL context alive as long as this object
        status = lib.clg_context_create(
            queue.context.int_ptr, queue.device.int_ptr, _flags(verify, defer_errors), ctypes.byref(self._handle)
        )
        raise_for_status(status, "clgather.Context.from_pyopencl(queue)")
        return self

    @property
    def device(self):
        """The DeviceDescription of the device the context runs on."""
        info = _lib.DeviceInfo()
        raise_for_status(lib.clg_context_device_info(self.handle, ctypes.byref(info)), "clgather.Context.device")
        return _description(info)

    @property
    def handle(self):
        if not self._handle:
            raise ArgumentError("ctx: the context is closed", _lib.ERR_NULL_ARGUMENT)
        return self._handle

    def check_deferred(self, event=None):
        """Under defer_errors: wait for a call's event (a pyopencl Event, or None for every call not
        yet settled) and raise the failure it had, if any."""
        handle = None if event is None else event.int_ptr
        raise_for_status(lib.clg_deferred_status(self.handle, handle), "clgather.Context.check_deferred")

    def close(self):
        """Release the context (its kernels); later calls on it raise clgather.Error."""
        if getattr(self, "_handle", None):
            lib.clg_context_release(self._handle)
            self._handle = ctypes.c_void_p()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # at interpreter exit the module's globals may already be gone
            pass

    def __repr__(self):
        if not self._handle:
            return "<clgather.Context (closed)>"
        d = self.device
        return f"<clgather.Context on {d.name!r} ({d.platform})>"


_default_lock = threading.Lock()
_default_context = None
_pyopencl_contexts = {}


def default_context():
    global _default_context
    with _default_lock:
        if _default_context is None:
            _default_context = Context()
        return _default_context


def pyopencl_context(queue):
    """The context of a pyopencl queue, made on first use. Looked up by the queue's address, which
    the entry keeps alive (so it cannot be reused while the entry lives)."""
    entry = _pyopencl_contexts.get(queue.int_ptr)
    if entry is None:
        with _default_lock:
            # queues of one OpenCL context and device share a clgather context (and its kernels)
            key = (queue.context.int_ptr, queue.device.int_ptr)
            ctx = _pyopencl_contexts.get(key) or Context.from_pyopencl(queue)
            _pyopencl_contexts[key] = ctx
            entry = _pyopencl_contexts[queue.int_ptr] = (ctx, queue)
    return entry[0]


# ---- running an operation ----


class Call:
    """One operation's entry points: name (gather, gather_tree, ...) and the API label for messages."""

    def __init__(self, op, label):
        self.label = label
        self.host = getattr(lib, f"clg_{op}")
        self.reference = getattr(lib, f"clg_{op}_reference")
        self.enqueue = getattr(lib, f"clg_{op}_enqueue")


_char_from_buffer = ctypes.c_char.from_buffer
_addressof = ctypes.addressof


def address(array):
    """The data address of a C-contiguous numpy array. ctypes' from_buffer is several times quicker
    than array.ctypes.data (which builds __array_interface__), but takes only writable, non-empty
    buffers; the others take the slow way."""
    try:
        return _addressof(_char_from_buffer(array))
    except (TypeError, ValueError):
        return array.ctypes.data


def host_output(out, shape, dtype):
    """A new output array, or the caller's out= after checking it can take the result as it is."""
    if out is None:
        return np.empty(shape, dtype)
    if type(out) is not np.ndarray or not out.flags.c_contiguous or not out.flags.writeable:
        raise ArgumentError("out: not a writable C-contiguous numpy array")
    if out.dtype != dtype:
        raise DTypeError(f"out: dtype {out.dtype}, the result's is {np.dtype(dtype)}", _lib.ERR_INVALID_DTYPE)
    if out.shape != tuple(shape):
        raise ShapeError(f"out: shape {out.shape}, the result's is {tuple(shape)}", _lib.ERR_SHAPE_MISMATCH)
    return out


def host_args(inputs):
    """The (address, bytes) pairs of the C call's inputs: numpy arrays, or None for an absent input."""
    args = []
    for array in inputs:
        args += (None, 0) if array is None else (address(array), array.nbytes)
    return args


def run_host(call, desc, input_args, shape, dtype, ctx, use_reference, out=None):
    """The call on host memory, the library's or the CPU reference's, into a new output or out=.
    input_args: the inputs' (address, bytes) pairs in the C call's order (host_args makes them; the
    data-and-indices operations make their two inline, a small call's cost being mostly Python)."""
    output = np.empty(shape, dtype) if out is None else host_output(out, shape, dtype)
    if use_reference:
        status = call.reference(desc, *input_args, address(output), output.nbytes)
    else:
        status = call.host((ctx or default_context()).handle, desc, *input_args, address(output), output.nbytes)
    if status:
        raise_for_status(status, call.label)
    return output


def device_queue(values):
    """The queue of the first device array among values, or None when all are host arrays."""
    for value in values:
        if value is not None and type(value) is not np.ndarray and is_device_array(value):
            return value.queue
    return None


def to_device(queue, value, argument):
    """A device array as it is (contiguous ones only), a host value copied to the queue's device."""
    if value is None:
        return None
    if is_device_array(value):
        if not value.flags.c_contiguous:
            raise ArgumentError(f"{argument}: a non-contiguous pyopencl array (strides {value.strides})")
        return value
    import pyopencl.array as cl_array

    return cl_array.to_device(queue, host_array(value, argument))


_cl = None  # pyopencl and pyopencl.array, imported on the first device call
_cl_array = None

# The attributes pyopencl's Array constructor sets (as of pyopencl 2026.1): a new output is a copy of
# those of one array made once per queue, shape and dtype, with its own buffer and events. Where
# pyopencl sets others, new_device_array uses its public constructor instead.
_ARRAY_ATTRIBUTES = frozenset(
    ("_flags", "allocator", "base_data", "context", "dtype", "events", "nbytes", "offset", "queue", "shape", "size",
     "strides")
)
_array_templates = {}  # (id(queue), shape, dtype): (the attributes, or None where they cannot serve)


def _import_pyopencl():
    global _cl, _cl_array, _device_array_type
    import pyopencl
    import pyopencl.array

    _cl, _cl_array, _device_array_type = pyopencl, pyopencl.array, pyopencl.array.Array


def _array_template(queue, shape, dtype):
    """The attributes of cl_array.empty(queue, shape, dtype) that every array of it shares, or None
    when pyopencl's array is not laid out as _ARRAY_ATTRIBUTES says. The entry holds the queue, so
    id(queue) in its key names that queue while the entry lives."""
    if _cl is None:
        _import_pyopencl()
    model = _cl_array.empty(queue, shape, dtype)
    attributes = dict(vars(model))
    if (
        attributes.keys() != _ARRAY_ATTRIBUTES
        or type(model) is not _cl_array.Array
        or model.allocator is not None
        or model.offset != 0
        or not (model.base_data is None or type(model.base_data) is _cl.Buffer)
    ):
        attributes = None
    else:
        attributes["_flags"] = model.flags  # computed once and shared, as pyopencl's own methods share it
        attributes["events"] = attributes["base_data"] = None
    if len(_array_templates) >= 512:
        _array_templates.clear()
    _array_templates[(id(queue), shape, dtype)] = attributes
    return attributes


def new_device_array(queue, shape, dtype):
    """cl_array.empty(queue, shape, dtype), made as a copy of the attributes such an array has: the
    public constructor checks the shape with numpy (some 30 us a call, several times a small gather),
    and its fast form, run as Python, costs about twice the copy."""
    attributes = _array_templates.get((id(queue), shape, dtype), False)
    if attributes is False:
        attributes = _array_template(queue, shape, dtype)
    if attributes is None:
        return _cl_array.empty(queue, shape, dtype)
    array = _cl_array.Array.__new__(_cl_array.Array)
    own = attributes.copy()
    nbytes = own["nbytes"]
    own["base_data"] = _cl.Buffer(own["context"], _cl.mem_flags.READ_WRITE, nbytes) if nbytes else None
    own["events"] = []
    array.__dict__ = own
    return array


def device_output(out, queue, shape, dtype):
    """The caller's out= after checking it can take the result as it is."""
    if not is_device_array(out) or not out.flags.c_contiguous:
        raise ArgumentError("out: not a C-contiguous pyopencl array")
    if out.queue != queue:
        raise ArgumentError("out: a pyopencl array on another queue than the inputs'")
    if out.dtype != dtype:
        raise DTypeError(f"out: dtype {out.dtype}, the result's is {np.dtype(dtype)}", _lib.ERR_INVALID_DTYPE)
    if out.shape != shape:
        raise ShapeError(f"out: shape {out.shape}, the result's is {tuple(shape)}", _lib.ERR_SHAPE_MISMATCH)
    return out


_WAIT_LIST_TYPES = [_lib.cl_handle * n for n in range(17)]
_int_ptr = operator.attrgetter("int_ptr")
# The last wait list made, (events, handles): calls on the same inputs wait on the same events (an
# uploaded array keeps its upload's event until its owner clears it), so the list is made once. Holding
# the events keeps their handles from being reused while the entry lives.
_last_wait = ((), None)


def _wait_list(events):
    """The ctypes array of the events' handles."""
    global _last_wait
    events = tuple(events)
    last = _last_wait
    if events == last[0]:
        return last[1]
    count = len(events)
    wait_type = _WAIT_LIST_TYPES[count] if count < len(_WAIT_LIST_TYPES) else _lib.cl_handle * count
    wait_list = wait_type(*map(_int_ptr, events))
    _last_wait = (events, wait_list)
    return wait_list


def run_device(call, desc, inputs, shape, dtype, ctx, queue, wait_for, out=None):
    """inputs: pyopencl arrays (or None), in the C call's order. The output is a pyopencl array on
    queue, with the call's event added to its events; nothing is copied to the host."""
    if _cl is None:
        _import_pyopencl()
    output = new_device_array(queue, shape, dtype) if out is None else device_output(out, queue, shape, dtype)
    events = [*wait_for] if wait_for else []
    scratch = None
    args = []
    for array in (*inputs, output):
        if array is None:
            args += (None, 0)
            continue
        if array.events:
            events += array.events
        base = array.base_data
        if base is None:  # an empty pyopencl array owns no buffer; the call reads nothing from it
            if scratch is None:
                scratch = _cl.Buffer(queue.context, _cl.mem_flags.READ_WRITE, 16)
            args += (scratch.int_ptr, 0)
        else:
            args += (base.int_ptr, array.offset)
    count = len(events)
    wait_list = _wait_list(events) if count else None
    event = _lib.cl_handle()
    ctx = ctx or pyopencl_context(queue)
    status = call.enqueue(ctx.handle, desc, queue.int_ptr, *args, count, wait_list, ctypes.byref(event))
    if status:
        raise_for_status(status, call.label)
    event = _cl.Event.from_int_ptr(event.value, retain=False)
    if out is None:
        output.events.append(event)  # a new array's list is empty: add_event's trimming has nothing to do
    else:
        output.add_event(event)
    return output
