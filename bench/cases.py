"""The benchmark's case table, bench/cases.txt, read as clgather-bench reads it.

Standard library only, so that listing the cases needs no peer installed. The file's header says what
each field means; a field this module does not know is an error, as it is in clgather-bench.
"""
import os

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases.txt")
OPS = ("gather", "elements", "nd", "tree", "quantized", "bag")
# The ggml layouts the library reads: (values, bytes, offsets of the f16 fields) of a block, as
# host/cli/gguf_types.c lists them
GGML_BLOCKS = {"q4_0": (32, 18, (0,)), "q4_1": (32, 20, (0, 2)), "q5_0": (32, 22, (0,)), "q5_1": (32, 24, (0, 2)),
               "q8_0": (32, 34, (0,)), "iq4_nl": (32, 18, (0,)), "q2_K": (256, 84, (80, 82)),
               "q3_K": (256, 110, (108,)), "q4_K": (256, 144, (0, 2)), "q5_K": (256, 176, (0, 2)),
               "q6_K": (256, 210, (208,)), "iq4_xs": (256, 136, (0,))}
# ONNX Runtime's two table forms, and every ggml layout (clgather-bench's table takes any)
LAYOUTS = ("ort-u4", "ort-u8") + tuple("ggml-" + t for t in GGML_BLOCKS)
# EmbeddingBag's table forms (op=bag): FBGEMM's and PyTorch's rowwise rows, fbgemm-8bit-rowwise (D u8
# values, then an f32 scale and an f32 bias) and fbgemm-4bit-rowwise (D / 2 bytes of two nibbles, the
# lower-indexed value in the low one, then an f16 scale and an f16 bias)
BAG_LAYOUTS = ("fbgemm-8bit-rowwise", "fbgemm-4bit-rowwise")
BAG_FORMS = ("offsets", "packed")
BAG_MODES = ("sum", "mean", "max")


class Case:
    """One line of the table. Shapes are tuples; types are the library's names (f32, i64, ...)."""

    def __init__(self, name):
        self.name = name
        self.op = None
        self.preset = None
        self.layout = None
        self.data_type, self.data_shape = None, ()
        self.index_type, self.index_shape = None, ()
        self.axis = 0
        self.batch_dims = 0
        self.seed = 0
        self.time = "kernel"
        self.scaled_dims = []  # (tensor, dim): tensor "data" or "indices"
        self.scale = 1
        self.form = "offsets"  # bag: the bag form
        self.mode = "sum"  # bag: the reduction
        self.tables = 1  # bag: how many tables of data's shape one call reads (a table-batched call)

    def scaled(self, factor):
        """The case with each dimension its scale= names multiplied by factor, as clgather-bench
        scales it (its JSON gives each case's factor)."""
        out = Case(self.name)
        out.__dict__.update(self.__dict__)
        shapes = {"data": list(self.data_shape), "indices": list(self.index_shape)}
        for tensor, dim in self.scaled_dims:
            shapes[tensor][dim] *= factor
        out.data_shape, out.index_shape = tuple(shapes["data"]), tuple(shapes["indices"])
        out.scale = factor if self.scaled_dims else 1
        return out

    def __repr__(self):
        return f"Case({self.name!r}, op={self.op}, data={self.data_type}{list(self.data_shape)})"


def _tensor(text, where):
    if "[" not in text or not text.endswith("]"):
        raise ValueError(f"{where}: '{text}' is not TYPE[d0,d1,...]")
    dtype, dims = text[:-1].split("[", 1)
    return dtype, tuple(int(d) for d in dims.split(","))


def parse(text, origin=TABLE):
    cases = []
    for number, line in enumerate(text.splitlines(), 1):
        fields = line.split("#", 1)[0].split()
        if not fields:
            continue
        where = f"{origin}:{number}"
        case = Case(fields[0])
        # op first, wherever it stands: the fields a bag case has depend on it
        case.op = next((f[3:] for f in fields[1:] if f.startswith("op=")), None)
        for field in fields[1:]:
            if "=" not in field:
                raise ValueError(f"{where}: '{field}' is not key=value")
            key, value = field.split("=", 1)
            if key == "op":
                if value not in OPS:
                    raise ValueError(f"{where}: unknown op '{value}'")
                case.op = value
            elif key == "preset":
                case.preset = value
            elif key == "layout":
                if value not in (BAG_LAYOUTS if case.op == "bag" else LAYOUTS):
                    raise ValueError(f"{where}: unknown layout '{value}'")
                case.layout = value
            elif key == "form" and case.op == "bag":
                if value not in BAG_FORMS:
                    raise ValueError(f"{where}: form is offsets or packed, not '{value}'")
                case.form = value
            elif key == "mode" and case.op == "bag":
                if value not in BAG_MODES:
                    raise ValueError(f"{where}: unknown mode '{value}'")
                case.mode = value
            elif key == "tables" and case.op == "bag":
                case.tables = int(value)
            elif key == "data":
                case.data_type, case.data_shape = _tensor(value, where)
            elif key == "indices":
                case.index_type, case.index_shape = _tensor(value, where)
            elif key in ("axis", "batch_dims", "seed"):
                setattr(case, key, int(value))
            elif key == "time":
                case.time = value
            elif key == "scale":
                if value != "none":
                    for item in value.split(","):
                        tensor, dim = item.split(":")
                        case.scaled_dims.append((tensor, int(dim)))
            else:
                raise ValueError(f"{where}: unknown field '{key}'")
        if case.op is None:
            raise ValueError(f"{where}: no op=")
        cases.append(case)
    return cases


def load(path=TABLE):
    with open(path) as f:
        return parse(f.read(), path)
