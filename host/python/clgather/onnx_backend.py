"""An ONNX backend (onnx.backend.base's interface) for single-node models of the gather family:
Gather, GatherElements and GatherND of every opset, and com.microsoft.GatherBlockQuantized.

    import clgather.onnx_backend as backend
    outputs = backend.run_model(model, [data, indices])

Each node runs through clgather's numpy path on a clgather Context (prepare(..., ctx=...) names
one; the default is clgather's default device)."""

import numpy as np
import onnx
import onnx.checker
import onnx.defs
import onnx.numpy_helper
from onnx.backend.base import Backend, BackendRep, namedtupledict

from . import _ops
from ._errors import ArgumentError, UnsupportedError
from ._lib import ERR_INVALID_PRESET

_ONNX_DOMAINS = ("", "ai.onnx")
_MICROSOFT_DOMAIN = "com.microsoft"
_ONNX_OPS = ("Gather", "GatherElements", "GatherND")


def _preset(op_type, opset):
    """The clgather op name of an ONNX operator at a model's opset: the newest version not past it."""
    versions = {"Gather": (1, 11, 13), "GatherElements": (11, 13), "GatherND": (11, 12, 13)}[op_type]
    taken = [v for v in versions if v <= opset]
    return f"onnx-{taken[-1]}" if taken else None


def _attributes(node):
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


def _is_family_node(node, opsets):
    if node.domain in _ONNX_DOMAINS and node.op_type in _ONNX_OPS:
        return _preset(node.op_type, opsets.get("", 1)) is not None
    return node.domain == _MICROSOFT_DOMAIN and node.op_type == "GatherBlockQuantized"


def _opsets(model):
    opsets = {}
    for entry in model.opset_import:
        opsets["" if entry.domain == "ai.onnx" else entry.domain] = entry.version
    return opsets


class _NodeRunner:
    """One family node, ready to run on numpy inputs in the node's input order."""

    def __init__(self, node, opset, ctx):
        self.node = node
        self.attributes = _attributes(node)
        self.preset = _preset(node.op_type, opset) if node.op_type in _ONNX_OPS else None
        self.ctx = ctx

    def run(self, inputs):
        a, kind = self.attributes, self.node.op_type
        if kind == "Gather":
            return _ops.gather(inputs[0], inputs[1], a.get("axis", 0), op=self.preset, ctx=self.ctx)
        if kind == "GatherElements":
            return _ops.gather_elements(inputs[0], inputs[1], a.get("axis", 0), op=self.preset, ctx=self.ctx)
        if kind == "GatherND":
            return _ops.gather_nd(inputs[0], inputs[1], batch_dims=a.get("batch_dims", 0), op=self.preset, ctx=self.ctx)
        # com.microsoft.GatherBlockQuantized, with ONNX Runtime's attribute defaults; the output takes
        # the scales' type
        return _ops.gather_quantized(
            inputs[0],
            inputs[1],
            layout="ort-block",
            scales=inputs[2],
            zero_points=inputs[3] if len(inputs) > 3 else None,
            bits=a.get("bits", 4),
            block_size=a.get("block_size", 128),
            axis=a.get("gather_axis", 0),
            quantize_axis=a.get("quantize_axis", 1),
            out_dtype=None,
            ctx=self.ctx,
        )


class ClgatherRep(BackendRep):
    """A prepared single-node model: run(inputs) takes the graph's inputs as a list (in graph order)
    or a dict by name, and gives the outputs as a named tuple."""

    def __init__(self, model, ctx):
        graph = model.graph
        self._node = graph.node[0]
        self._runner = _NodeRunner(self._node, _opsets(model).get("", 1), ctx)
        self._constants = {t.name: onnx.numpy_helper.to_array(t) for t in graph.initializer}
        self._input_names = [i.name for i in graph.input]
        self._output_names = [o.name for o in graph.output]

    def run(self, inputs, **kwargs):
        values = dict(self._constants)
        if isinstance(inputs, dict):
            values.update(inputs)
        else:
            values.update(zip(self._input_names, inputs))
        missing = [name for name in self._node.input if name and name not in values]
        if missing:
            raise ArgumentError(f"inputs: no value for {', '.join(map(repr, missing))} (graph inputs: "
                                f"{', '.join(map(repr, self._input_names))})")
        node_inputs = [values[name] if name else None for name in self._node.input]
        output = self._runner.run(node_inputs)
        return namedtupledict("Outputs", self._output_names)(output)


class ClgatherBackend(Backend):
    @classmethod
    def is_compatible(cls, model, device="CPU", **kwargs):
        graph = model.graph
        return (
            len(graph.node) == 1
            and len(graph.output) == 1
            and _is_family_node(graph.node[0], _opsets(model))
            and cls.supports_device(device)
        )

    @classmethod
    def prepare(cls, model, device="CPU", **kwargs):
        # No onnx.checker.check_model here: it refuses graph inputs declared without a shape, which
        # models ONNX Runtime runs may have. The structure is checked below, and the library checks
        # every attribute and input it is given.
        if not cls.is_compatible(model, device):
            ops = ", ".join(f"{n.domain or 'ai.onnx'}.{n.op_type}" for n in model.graph.node)
            raise UnsupportedError(
                f"model: clgather runs single-node Gather, GatherElements, GatherND and "
                f"com.microsoft.GatherBlockQuantized models, not [{ops}] on {device}",
                ERR_INVALID_PRESET,
            )
        return ClgatherRep(model, kwargs.get("ctx"))

    @classmethod
    def run_node(cls, node, inputs, device="CPU", outputs_info=None, **kwargs):
        opset = kwargs.get("opset_version", onnx.defs.onnx_opset_version())
        if not _is_family_node(node, {"": opset}):
            raise UnsupportedError(
                f"node: clgather does not run {node.domain or 'ai.onnx'}.{node.op_type} (opset {opset})",
                ERR_INVALID_PRESET,
            )
        if node.domain in _ONNX_DOMAINS:
            super().run_node(node, inputs, device, outputs_info, **kwargs)
        if isinstance(inputs, dict):
            inputs = [inputs[name] if name else None for name in node.input]
        inputs = [None if x is None else np.asarray(x) if not hasattr(x, "dtype") else x for x in inputs]
        return (_NodeRunner(node, opset, kwargs.get("ctx")).run(inputs),)

    @classmethod
    def supports_device(cls, device):
        # "CPU" is ONNX's host device: the arrays live in host memory, and clgather runs them on its
        # default OpenCL device (or the context prepare() is given)
        return str(device).upper() == "CPU"


is_compatible = ClgatherBackend.is_compatible
prepare = ClgatherBackend.prepare
run_model = ClgatherBackend.run_model
run_node = ClgatherBackend.run_node
supports_device = ClgatherBackend.supports_device
