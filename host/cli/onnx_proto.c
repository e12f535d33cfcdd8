#include "onnx_proto.h"

#include "byte_order.h"
#include "cli_error.h"
#include "onnx_external.h"

#include <stdio.h>
#include <string.h>

/* Field numbers of onnx.proto (onnx/onnx.proto, IR version 3 onwards). */
enum {
    MODEL_IR_VERSION = 1,
    MODEL_GRAPH = 7,
    MODEL_OPSET_IMPORT = 8,
    OPSET_DOMAIN = 1,
    OPSET_VERSION = 2,
    GRAPH_NODE = 1,
    GRAPH_INITIALIZER = 5,
    GRAPH_INPUT = 11,
    GRAPH_OUTPUT = 12,
    VALUE_INFO_NAME = 1,
    NODE_INPUT = 1,
    NODE_OUTPUT = 2,
    NODE_OP_TYPE = 4,
    NODE_ATTRIBUTE = 5,
    NODE_DOMAIN = 7,
    ATTRIBUTE_NAME = 1,
    ATTRIBUTE_I = 3,
    ATTRIBUTE_TYPE = 20,
    ATTRIBUTE_REF_NAME = 21,
    TENSOR_DIMS = 1,
    TENSOR_DATA_TYPE = 2,
    TENSOR_SEGMENT = 3,
    TENSOR_FLOAT_DATA = 4,
    TENSOR_INT32_DATA = 5,
    TENSOR_STRING_DATA = 6,
    TENSOR_INT64_DATA = 7,
    TENSOR_NAME = 8,
    TENSOR_RAW_DATA = 9,
    TENSOR_DOUBLE_DATA = 10,
    TENSOR_UINT64_DATA = 11,
    TENSOR_EXTERNAL_DATA = 13,
    TENSOR_DATA_LOCATION = 14,
};
enum { ATTRIBUTE_TYPE_INT = 2 };
/* TensorProto.DataType of the 4-bit types, read only where packed tensors are accepted */
enum { ONNX_UINT4 = 21, ONNX_INT4 = 22 };
enum { LOCATION_DEFAULT = 0, LOCATION_EXTERNAL = 1 };

/* TensorProto.DataType values and the clg_dtype each maps to. */
static const struct {
    int onnx_type;
    const char *onnx_name;
    clg_dtype type;
} tensor_types[] = {
    {1, "FLOAT", CLG_F32},   {2, "UINT8", CLG_U8},       {3, "INT8", CLG_I8},          {4, "UINT16", CLG_U16},
    {5, "INT16", CLG_I16},   {6, "INT32", CLG_I32},      {7, "INT64", CLG_I64},        {8, "STRING", CLG_DTYPE_INVALID},
    {9, "BOOL", CLG_BOOL},   {10, "FLOAT16", CLG_F16},   {11, "DOUBLE", CLG_F64},      {12, "UINT32", CLG_U32},
    {13, "UINT64", CLG_U64}, {14, "COMPLEX64", CLG_C64}, {15, "COMPLEX128", CLG_C128}, {16, "BFLOAT16", CLG_BF16},
};

/* Report a failure in a message, with its absolute byte offset in the file. */
typedef struct onnx_source {
    const char *where;
    const unsigned char *base;
} onnx_source;

static int fail_at(const onnx_source *src, const char *message_name, const proto_reader *r, const char *reason)
{
    size_t offset = (size_t)(r->data - src->base) + r->pos;
    return cli_fail(CLI_EXIT_REFUSED, "%s: %s at byte %zu: %s", src->where, message_name, offset, reason);
}

static int wire_mismatch(const onnx_source *src, const char *message_name, const proto_reader *r, const proto_field *f)
{
    char reason[96];
    snprintf(reason, sizeof reason, "field %u has the wrong wire type %d", f->number, f->wire_type);
    return fail_at(src, message_name, r, reason);
}

/* ---- ModelProto ------------------------------------------------------------------------------ */

static int parse_opset(const onnx_source *src, proto_bytes message, onnx_gather_model *model)
{
    proto_reader r = proto_reader_over(message);
    proto_field f;
    proto_bytes domain = {NULL, 0};
    int64_t version = -1;
    int got;
    while ((got = proto_next_field(&r, &f)) > 0) {
        if (f.number == OPSET_DOMAIN) {
            if (f.wire_type != PROTO_BYTES) return wire_mismatch(src, "OperatorSetIdProto", &r, &f);
            domain = f.bytes;
        } else if (f.number == OPSET_VERSION) {
            if (f.wire_type != PROTO_VARINT) return wire_mismatch(src, "OperatorSetIdProto", &r, &f);
            version = (int64_t)f.number_value;
        }
    }
    if (got < 0) return fail_at(src, "OperatorSetIdProto", &r, r.error);
    if (domain.len == 0 || proto_bytes_equal(domain, "ai.onnx")) {
        if (version < 1)
            return fail_at(src, "OperatorSetIdProto", &r, "the default domain's opset version is not positive");
        if (model->opset >= 0 && model->opset != version)
            return fail_at(src, "OperatorSetIdProto", &r,
                           "the default domain is imported twice with different versions");
        model->opset = version;
    } else if (proto_bytes_equal(domain, "com.microsoft")) {
        if (model->microsoft_opset >= 0 && model->microsoft_opset != version)
            return fail_at(src, "OperatorSetIdProto", &r, "com.microsoft is imported twice with different versions");
        model->microsoft_opset = version;
    }
    return 0;
}

const char *onnx_gather_op_name(onnx_gather_op op)
{
    return op == ONNX_GATHER_ELEMENTS ? "GatherElements" : op == ONNX_GATHER_ND ? "GatherND" : "Gather";
}

/* An INT attribute: its name and value. */
static int parse_int_attribute(const onnx_source *src, proto_bytes message, proto_bytes *name, int64_t *value)
{
    proto_reader r = proto_reader_over(message);
    proto_field f;
    int64_t type = -1;
    int has_value = 0, is_reference = 0, got;
    name->data = NULL;
    name->len = 0;
    *value = 0;
    while ((got = proto_next_field(&r, &f)) > 0) {
        if (f.number == ATTRIBUTE_NAME) {
            if (f.wire_type != PROTO_BYTES) return wire_mismatch(src, "AttributeProto", &r, &f);
            *name = f.bytes;
        } else if (f.number == ATTRIBUTE_TYPE) {
            if (f.wire_type != PROTO_VARINT) return wire_mismatch(src, "AttributeProto", &r, &f);
            type = (int64_t)f.number_value;
        } else if (f.number == ATTRIBUTE_I) {
            if (f.wire_type != PROTO_VARINT) return wire_mismatch(src, "AttributeProto", &r, &f);
            *value = (int64_t)f.number_value;
            has_value = 1;
        } else if (f.number == ATTRIBUTE_REF_NAME) {
            is_reference = 1;
        }
    }
    if (got < 0) return fail_at(src, "AttributeProto", &r, r.error);
    if (is_reference) return fail_at(src, "AttributeProto", &r, "the attribute refers to a function attribute");
    /* models from before AttributeProto.type was filled in leave it unset (0) */
    if (type != ATTRIBUTE_TYPE_INT && !(type <= 0 && has_value))
        return fail_at(src, "AttributeProto", &r, "the attribute is not an INT attribute");
    return 0;
}

/* The attribute names each node takes, and where their values go. */
static int64_t *attribute_slot(onnx_gather_model *model, proto_bytes name)
{
    if (!model->quantized && model->op == ONNX_GATHER_ND)
        return proto_bytes_equal(name, "batch_dims") ? &model->batch_dims : NULL;
    if (!model->quantized) return proto_bytes_equal(name, "axis") ? &model->axis : NULL;
    if (proto_bytes_equal(name, "gather_axis")) return &model->gather_axis;
    if (proto_bytes_equal(name, "quantize_axis")) return &model->quantize_axis;
    if (proto_bytes_equal(name, "block_size")) return &model->block_size;
    if (proto_bytes_equal(name, "bits")) return &model->bits;
    return NULL;
}

static int parse_node(const onnx_source *src, proto_bytes message, onnx_gather_model *model)
{
    proto_reader r = proto_reader_over(message);
    proto_field f;
    proto_bytes op_type = {NULL, 0}, domain = {NULL, 0};
    proto_bytes inputs[4] = {{NULL, 0}, {NULL, 0}, {NULL, 0}, {NULL, 0}};
    int input_count = 0, output_count = 0, got;
    /* first pass: what the node is, its inputs and output */
    while ((got = proto_next_field(&r, &f)) > 0) {
        switch (f.number) {
        case NODE_INPUT:
            if (f.wire_type != PROTO_BYTES) return wire_mismatch(src, "NodeProto", &r, &f);
            if (input_count < 4) inputs[input_count] = f.bytes;
            ++input_count;
            break;
        case NODE_OUTPUT:
            if (f.wire_type != PROTO_BYTES) return wire_mismatch(src, "NodeProto", &r, &f);
            if (output_count == 0) model->output_name = f.bytes;
            ++output_count;
            break;
        case NODE_OP_TYPE:
            if (f.wire_type != PROTO_BYTES) return wire_mismatch(src, "NodeProto", &r, &f);
            op_type = f.bytes;
            break;
        case NODE_DOMAIN:
            if (f.wire_type != PROTO_BYTES) return wire_mismatch(src, "NodeProto", &r, &f);
            domain = f.bytes;
            break;
        case NODE_ATTRIBUTE:
            if (f.wire_type != PROTO_BYTES) return wire_mismatch(src, "NodeProto", &r, &f);
            break;
        default: break;
        }
    }
    if (got < 0) return fail_at(src, "NodeProto", &r, r.error);
    const int default_domain = domain.len == 0 || proto_bytes_equal(domain, "ai.onnx");
    model->op = ONNX_GATHER;
    if (proto_bytes_equal(op_type, "GatherBlockQuantized")) {
        if (!proto_bytes_equal(domain, "com.microsoft"))
            return fail_at(src, "NodeProto", &r, "GatherBlockQuantized is not in the com.microsoft domain");
        model->quantized = 1;
    } else {
        if (proto_bytes_equal(op_type, "GatherElements"))
            model->op = ONNX_GATHER_ELEMENTS;
        else if (proto_bytes_equal(op_type, "GatherND"))
            model->op = ONNX_GATHER_ND;
        else if (!proto_bytes_equal(op_type, "Gather"))
            return fail_at(src, "NodeProto", &r,
                           "the node is not a Gather, GatherElements, GatherND or GatherBlockQuantized");
        if (!default_domain) {
            char where_reason[96];
            snprintf(where_reason, sizeof where_reason, "the %s node is not in the default ONNX domain",
                     onnx_gather_op_name(model->op));
            return fail_at(src, "NodeProto", &r, where_reason);
        }
    }
    const char *op = model->quantized ? "GatherBlockQuantized" : onnx_gather_op_name(model->op);
    char reason[128];
    if (model->quantized ? (input_count < 3 || input_count > 4) : input_count != 2) {
        snprintf(reason, sizeof reason, "%s needs %s inputs, not %d", op, model->quantized ? "3 or 4" : "exactly two",
                 input_count);
        return fail_at(src, "NodeProto", &r, reason);
    }
    if (output_count != 1) {
        snprintf(reason, sizeof reason, "%s needs exactly one output", op);
        return fail_at(src, "NodeProto", &r, reason);
    }
    for (int i = 0; i < (input_count < 3 ? input_count : 3); ++i)
        if (inputs[i].len == 0) {
            snprintf(reason, sizeof reason, "a %s input is unnamed", op);
            return fail_at(src, "NodeProto", &r, reason);
        }
    model->data_name = inputs[0];
    model->indices_name = inputs[1];
    model->scales_name = inputs[2];
    model->zero_points_name = inputs[3]; /* an empty name is an omitted optional input */

    /* second pass: the attributes, each at most once */
    model->axis = 0;
    model->batch_dims = 0;
    model->gather_axis = 0;
    model->quantize_axis = 1;
    model->block_size = 128;
    model->bits = 4;
    int64_t *seen[8];
    int seen_count = 0;
    proto_reader again = proto_reader_over(message);
    while (proto_next_field(&again, &f) > 0) {
        if (f.number != NODE_ATTRIBUTE) continue;
        proto_bytes name;
        int64_t value;
        if (parse_int_attribute(src, f.bytes, &name, &value) != 0) return CLI_EXIT_REFUSED;
        int64_t *slot = attribute_slot(model, name);
        if (!slot) {
            snprintf(reason, sizeof reason, "%s has no INT attribute '%.*s'", op, (int)(name.len > 40 ? 40 : name.len),
                     (const char *)name.data);
            return fail_at(src, "NodeProto", &again, reason);
        }
        for (int i = 0; i < seen_count; ++i)
            if (seen[i] == slot) {
                snprintf(reason, sizeof reason, "attribute '%.*s' given twice", (int)(name.len > 40 ? 40 : name.len),
                         (const char *)name.data);
                return fail_at(src, "NodeProto", &again, reason);
            }
        if (seen_count < 8) seen[seen_count++] = slot;
        *slot = value;
    }
    return 0;
}

/* The name field (a string, the last one given wins) of a ValueInfoProto or TensorProto. */
static int message_name(const onnx_source *src, proto_bytes message, uint32_t field, const char *message_type,
                        proto_bytes *name)
{
    proto_reader r = proto_reader_over(message);
    proto_field f;
    int got;
    name->data = NULL;
    name->len = 0;
    while ((got = proto_next_field(&r, &f)) > 0)
        if (f.number == field) {
            if (f.wire_type != PROTO_BYTES) return wire_mismatch(src, message_type, &r, &f);
            *name = f.bytes;
        }
    if (got < 0) return fail_at(src, message_type, &r, r.error);
    return 0;
}

static int is_initializer(const onnx_gather_model *model, proto_bytes name)
{
    for (int i = 0; i < model->initializer_count; ++i)
        if (model->initializer_names[i].len == name.len &&
            (name.len == 0 || memcmp(model->initializer_names[i].data, name.data, name.len) == 0))
            return 1;
    return 0;
}

static int parse_graph(const onnx_source *src, proto_bytes message, onnx_gather_model *model)
{
    proto_reader r = proto_reader_over(message);
    proto_field f;
    proto_bytes node = {NULL, 0};
    proto_bytes inputs[ONNX_MAX_GRAPH_VALUES];
    int node_count = 0, input_count = 0, got;
    while ((got = proto_next_field(&r, &f)) > 0) {
        if (f.number != GRAPH_NODE && f.number != GRAPH_INITIALIZER && f.number != GRAPH_INPUT &&
            f.number != GRAPH_OUTPUT)
            continue;
        if (f.wire_type != PROTO_BYTES) return wire_mismatch(src, "GraphProto", &r, &f);
        if (f.number == GRAPH_NODE) {
            node = f.bytes;
            ++node_count;
        } else if (f.number == GRAPH_INITIALIZER) {
            if (model->initializer_count >= ONNX_MAX_GRAPH_VALUES)
                return fail_at(src, "GraphProto", &r, "too many initializers");
            if (message_name(src, f.bytes, TENSOR_NAME, "TensorProto",
                             &model->initializer_names[model->initializer_count]) != 0)
                return CLI_EXIT_REFUSED;
            model->initializers[model->initializer_count++] = f.bytes;
        } else if (f.number == GRAPH_INPUT) {
            if (input_count >= ONNX_MAX_GRAPH_VALUES) return fail_at(src, "GraphProto", &r, "too many graph inputs");
            if (message_name(src, f.bytes, VALUE_INFO_NAME, "ValueInfoProto", &inputs[input_count]) != 0)
                return CLI_EXIT_REFUSED;
            ++input_count;
        } else {
            if (model->graph_output_count >= ONNX_MAX_GRAPH_VALUES)
                return fail_at(src, "GraphProto", &r, "too many graph outputs");
            if (message_name(src, f.bytes, VALUE_INFO_NAME, "ValueInfoProto",
                             &model->graph_outputs[model->graph_output_count]) != 0)
                return CLI_EXIT_REFUSED;
            ++model->graph_output_count;
        }
    }
    if (got < 0) return fail_at(src, "GraphProto", &r, r.error);
    if (node_count != 1) {
        char reason[96];
        snprintf(reason, sizeof reason, "the graph has %d nodes; the runner takes one node of the Gather family",
                 node_count);
        return fail_at(src, "GraphProto", &r, reason);
    }
    /* Up to IR version 3 initializers are listed among the graph inputs too; they are not fed. */
    for (int i = 0; i < input_count; ++i)
        if (!is_initializer(model, inputs[i])) model->feeds[model->feed_count++] = inputs[i];
    return parse_node(src, node, model);
}

int onnx_parse_gather_model(const char *where, const unsigned char *file, size_t len, onnx_gather_model *model)
{
    memset(model, 0, sizeof *model);
    model->opset = -1;
    model->microsoft_opset = -1;
    onnx_source src = {where, file};
    proto_bytes whole = {file, len};
    proto_reader r = proto_reader_over(whole);
    proto_field f;
    proto_bytes graph = {NULL, 0};
    int graph_count = 0, got;
    while ((got = proto_next_field(&r, &f)) > 0) {
        if (f.number == MODEL_IR_VERSION) {
            if (f.wire_type != PROTO_VARINT) return wire_mismatch(&src, "ModelProto", &r, &f);
            model->ir_version = (int64_t)f.number_value;
        } else if (f.number == MODEL_OPSET_IMPORT) {
            if (f.wire_type != PROTO_BYTES) return wire_mismatch(&src, "ModelProto", &r, &f);
            if (parse_opset(&src, f.bytes, model) != 0) return CLI_EXIT_REFUSED;
        } else if (f.number == MODEL_GRAPH) {
            if (f.wire_type != PROTO_BYTES) return wire_mismatch(&src, "ModelProto", &r, &f);
            graph = f.bytes;
            ++graph_count;
        }
    }
    if (got < 0) return fail_at(&src, "ModelProto", &r, r.error);
    if (graph_count != 1) return fail_at(&src, "ModelProto", &r, "the model needs exactly one graph");
    if (parse_graph(&src, graph, model) != 0) return CLI_EXIT_REFUSED;
    if (model->quantized && model->microsoft_opset != 1)
        return fail_at(&src, "ModelProto", &r, "GatherBlockQuantized needs com.microsoft version 1 in opset_import");
    if (!model->quantized && model->opset < 0)
        return fail_at(&src, "ModelProto", &r, "no opset_import for the default ONNX domain");
    return 0;
}

/* ---- TensorProto ----------------------------------------------------------------------------- */

/* Count the values of a repeated numeric field occurrence (packed or not); -1 if malformed. */
static int64_t count_values(const proto_field *f, int element_wire_type, proto_reader *r)
{
    if (f->wire_type == element_wire_type) return 1;
    if (f->wire_type != PROTO_BYTES) {
        r->error = "repeated numeric field with the wrong wire type";
        return -1;
    }
    if (element_wire_type == PROTO_FIXED32 || element_wire_type == PROTO_FIXED64) {
        size_t width = element_wire_type == PROTO_FIXED32 ? 4 : 8;
        if (f->bytes.len % width != 0) {
            r->error = "packed fixed-width field length is not a multiple of the width";
            return -1;
        }
        return (int64_t)(f->bytes.len / width);
    }
    proto_reader packed = proto_reader_over(f->bytes);
    int64_t n = 0;
    uint64_t ignored;
    while (packed.pos < packed.len) {
        if (proto_read_varint(&packed, &ignored) < 0) {
            r->error = packed.error;
            return -1;
        }
        ++n;
    }
    return n;
}

/* Store one decoded value at element slot `slot` (a complex element has two slots). */
static void store_value(cli_tensor *t, uint64_t slot, uint64_t bits)
{
    size_t width = clg_dtype_size(t->type);
    if (t->type == CLG_C64 || t->type == CLG_C128) width /= 2;
    unsigned char *p = t->bytes + slot * width;
    switch (width) {
    case 1: {
        uint8_t v = t->type == CLG_BOOL ? (uint8_t)(bits != 0) : (uint8_t)bits;
        memcpy(p, &v, 1);
        break;
    }
    case 2: {
        uint16_t v = (uint16_t)bits;
        memcpy(p, &v, 2);
        break;
    }
    case 4: {
        uint32_t v = (uint32_t)bits;
        memcpy(p, &v, 4);
        break;
    }
    default: memcpy(p, &bits, 8); break;
    }
}

/* Which typed field carries the values of each element type (onnx.proto's comments). */
static int typed_field_for(clg_dtype type)
{
    switch (type) {
    case CLG_F32:
    case CLG_C64: return TENSOR_FLOAT_DATA;
    case CLG_F64:
    case CLG_C128: return TENSOR_DOUBLE_DATA;
    case CLG_I64: return TENSOR_INT64_DATA;
    case CLG_U32:
    case CLG_U64: return TENSOR_UINT64_DATA;
    default: return TENSOR_INT32_DATA; /* i32, i16, i8, u16, u8, bool, f16 and bf16 bits */
    }
}

static int element_wire_type_of(uint32_t field_number)
{
    switch (field_number) {
    case TENSOR_FLOAT_DATA: return PROTO_FIXED32;
    case TENSOR_DOUBLE_DATA: return PROTO_FIXED64;
    default: return PROTO_VARINT;
    }
}

int onnx_parse_tensor(const char *where, proto_bytes message, cli_tensor *out, proto_bytes *name)
{
    return onnx_parse_tensor_packed(where, message, NULL, out, name, NULL);
}

int onnx_parse_tensor_packed(const char *where, proto_bytes message, const char *base_dir, cli_tensor *out,
                             proto_bytes *name, onnx_packed_info *packed)
{
    memset(out, 0, sizeof *out);
    if (packed) memset(packed, 0, sizeof *packed);
    onnx_source src = {where, message.data};
    proto_reader r = proto_reader_over(message);
    proto_field f;
    int64_t dims[CLG_MAX_RANK];
    int32_t rank = 0;
    int64_t data_type = 0;
    int64_t typed_counts[16] = {0};
    int raw_seen = 0, got;
    proto_bytes raw = {NULL, 0};
    onnx_external external;
    memset(&external, 0, sizeof external);
    uint64_t data_location = LOCATION_DEFAULT;
    if (name) {
        name->data = NULL;
        name->len = 0;
    }

    /* first pass: shape, type, where the values are */
    while ((got = proto_next_field(&r, &f)) > 0) {
        switch (f.number) {
        case TENSOR_DIMS: {
            proto_reader packed = proto_reader_over(f.bytes);
            uint64_t value = f.number_value;
            int single = f.wire_type == PROTO_VARINT;
            if (!single && f.wire_type != PROTO_BYTES) return wire_mismatch(&src, "TensorProto", &r, &f);
            while (single || packed.pos < packed.len) {
                if (!single && proto_read_varint(&packed, &value) < 0)
                    return fail_at(&src, "TensorProto", &r, packed.error);
                if (rank >= CLG_MAX_RANK)
                    return fail_at(&src, "TensorProto", &r, "more dims than clgather's maximum rank");
                if ((int64_t)value < 0) return fail_at(&src, "TensorProto", &r, "a negative dimension");
                dims[rank++] = (int64_t)value;
                if (single) break;
            }
            break;
        }
        case TENSOR_DATA_TYPE:
            if (f.wire_type != PROTO_VARINT) return wire_mismatch(&src, "TensorProto", &r, &f);
            data_type = (int64_t)f.number_value;
            break;
        case TENSOR_FLOAT_DATA:
        case TENSOR_INT32_DATA:
        case TENSOR_INT64_DATA:
        case TENSOR_DOUBLE_DATA:
        case TENSOR_UINT64_DATA: {
            int64_t n = count_values(&f, element_wire_type_of(f.number), &r);
            if (n < 0) return fail_at(&src, "TensorProto", &r, r.error);
            typed_counts[f.number] += n; /* bounded by the message length */
            break;
        }
        case TENSOR_STRING_DATA: return fail_at(&src, "TensorProto", &r, "string tensors are not supported");
        case TENSOR_SEGMENT: return fail_at(&src, "TensorProto", &r, "segmented tensors are not supported");
        case TENSOR_EXTERNAL_DATA: {
            if (f.wire_type != PROTO_BYTES) return wire_mismatch(&src, "TensorProto", &r, &f);
            const char *why = onnx_external_entry(&external, f.bytes);
            if (why) return fail_at(&src, "TensorProto", &r, why);
            break;
        }
        case TENSOR_DATA_LOCATION:
            if (f.wire_type != PROTO_VARINT) return wire_mismatch(&src, "TensorProto", &r, &f);
            if (f.number_value > LOCATION_EXTERNAL)
                return fail_at(&src, "TensorProto", &r, "data_location is neither DEFAULT (0) nor EXTERNAL (1)");
            data_location = f.number_value;
            break;
        case TENSOR_NAME:
            if (f.wire_type != PROTO_BYTES) return wire_mismatch(&src, "TensorProto", &r, &f);
            if (name) *name = f.bytes;
            break;
        case TENSOR_RAW_DATA:
            if (f.wire_type != PROTO_BYTES) return wire_mismatch(&src, "TensorProto", &r, &f);
            if (raw_seen) return fail_at(&src, "TensorProto", &r, "raw_data given twice");
            raw = f.bytes;
            raw_seen = 1;
            break;
        default: break;
        }
    }
    if (got < 0) return fail_at(&src, "TensorProto", &r, r.error);

    /* external data stands for raw_data: its bytes are read once the shape has said how many */
    const int from_external = data_location == LOCATION_EXTERNAL;
    if (external.entries && !from_external)
        return fail_at(&src, "TensorProto", &r, "external_data entries, but data_location is not EXTERNAL");
    if (from_external) {
        if (raw_seen) return fail_at(&src, "TensorProto", &r, "both raw_data and external data are given");
        char reason[4400];
        const char *why = onnx_external_resolve(&external, base_dir, reason, sizeof reason);
        if (why) return fail_at(&src, "TensorProto", &r, why);
        if (external.length > SIZE_MAX) return fail_at(&src, "TensorProto", &r, "external data larger than memory");
        raw.len = (size_t)external.length;
        raw_seen = 1;
    }

    /* 4-bit values from int32_data: one packed byte (two values) an element, checked to be a byte */
    int bytes_in_int32 = 0;
    if (packed && (data_type == ONNX_UINT4 || data_type == ONNX_INT4)) {
        /* two values a byte, low nibble first: the bytes are kept as they are, u8 [ceil(count / 2)] */
        bytes_in_int32 = !raw_seen;
        uint64_t count = 0;
        if (cli_shape_size(rank, dims, 1, &count, NULL, NULL) != 0)
            return fail_at(&src, "TensorProto", &r, "the dims' element count overflows");
        packed->type = data_type == ONNX_UINT4 ? CLG_QUANT_U4 : CLG_QUANT_I4;
        packed->rank = rank;
        memcpy(packed->shape, dims, sizeof(int64_t) * (size_t)rank);
        rank = 1;
        dims[0] = (int64_t)(count / 2 + count % 2);
        data_type = 2; /* UINT8 */
    }
    clg_dtype type = CLG_DTYPE_INVALID;
    const char *onnx_name = "unknown";
    for (size_t i = 0; i < sizeof tensor_types / sizeof tensor_types[0]; ++i)
        if (tensor_types[i].onnx_type == data_type) {
            type = tensor_types[i].type;
            onnx_name = tensor_types[i].onnx_name;
        }
    if (type == CLG_DTYPE_INVALID) {
        char reason[96];
        snprintf(reason, sizeof reason, "data_type %lld (%s) is not supported", (long long)data_type, onnx_name);
        return fail_at(&src, "TensorProto", &r, reason);
    }
    /* The payload must hold what the shape claims before anything is allocated: a tiny hostile
     * message must not make us allocate what its dims say (found by fuzz_onnx). */
    uint64_t claimed_count = 0, claimed_bytes = 0;
    int32_t bad_dim = -1;
    if (cli_shape_size(rank, dims, clg_dtype_size(type), &claimed_count, &claimed_bytes, &bad_dim) == 0) {
        uint64_t per_element = (type == CLG_C64 || type == CLG_C128) ? 2 : 1;
        int typed_ok = claimed_count <= UINT64_MAX / per_element &&
                       (uint64_t)typed_counts[typed_field_for(type)] == claimed_count * per_element;
        if (raw_seen ? raw.len != claimed_bytes : !typed_ok) {
            char reason[160];
            snprintf(reason, sizeof reason, "the payload (%s) does not hold the %llu elements the dims claim",
                     from_external ? "external data"
                     : raw_seen    ? "raw_data"
                                   : "typed values",
                     (unsigned long long)claimed_count);
            return fail_at(&src, "TensorProto", &r, reason);
        }
    }
    char label[600];
    snprintf(label, sizeof label, "%s: TensorProto", where);
    if (cli_tensor_alloc(out, type, rank, dims, label) != 0) return CLI_EXIT_REFUSED;

    int wanted_field = typed_field_for(type);
    uint64_t slots = out->count * ((type == CLG_C64 || type == CLG_C128) ? 2 : 1);
    for (int field = 0; field < 16; ++field)
        if (typed_counts[field] > 0 && field != wanted_field) {
            char reason[128];
            snprintf(reason, sizeof reason, "typed field %d cannot hold %s values", field, onnx_name);
            cli_tensor_free(out);
            return fail_at(&src, "TensorProto", &r, reason);
        }
    if (raw_seen) {
        if (typed_counts[wanted_field] > 0) {
            cli_tensor_free(out);
            return fail_at(&src, "TensorProto", &r, "both raw_data and typed values are given");
        }
        if (raw.len != out->byte_size) {
            char reason[128];
            snprintf(reason, sizeof reason, "raw_data holds %zu bytes, the shape needs %zu", raw.len, out->byte_size);
            cli_tensor_free(out);
            return fail_at(&src, "TensorProto", &r, reason);
        }
        if (from_external) {
            const char *why = raw.len ? onnx_external_read(&external, out->bytes) : NULL;
            if (why) {
                cli_tensor_free(out);
                return fail_at(&src, "TensorProto", &r, why);
            }
        } else if (raw.len) {
            memcpy(out->bytes, raw.data, raw.len);
        }
        if (!cli_host_is_little_endian()) {
            size_t word = clg_dtype_size(type);
            if (type == CLG_C64 || type == CLG_C128) word /= 2;
            cli_swap_words(out->bytes, out->byte_size, word);
        }
        return 0;
    }
    if ((uint64_t)typed_counts[wanted_field] != slots) {
        char reason[128];
        snprintf(reason, sizeof reason, "%lld typed values given, the shape needs %llu",
                 (long long)typed_counts[wanted_field], (unsigned long long)slots);
        cli_tensor_free(out);
        return fail_at(&src, "TensorProto", &r, reason);
    }

    /* second pass: decode the typed values (already validated by the first pass) */
    proto_reader again = proto_reader_over(message);
    uint64_t slot = 0;
    while (proto_next_field(&again, &f) > 0) {
        if ((int)f.number != wanted_field) continue;
        int element_wire = element_wire_type_of(f.number);
        if (f.wire_type == element_wire) {
            if (bytes_in_int32 && f.number_value > 0xFF) break;
            store_value(out, slot++, f.number_value);
            continue;
        }
        proto_reader packed = proto_reader_over(f.bytes);
        while (packed.pos < packed.len && slot < slots) {
            uint64_t bits = 0;
            if (element_wire == PROTO_FIXED32) {
                bits = cli_load_le32(packed.data + packed.pos);
                packed.pos += 4;
            } else if (element_wire == PROTO_FIXED64) {
                bits = cli_load_le64(packed.data + packed.pos);
                packed.pos += 8;
            } else if (proto_read_varint(&packed, &bits) < 0) {
                break;
            }
            if (bytes_in_int32 && bits > 0xFF) break;
            store_value(out, slot++, bits);
        }
        if (bytes_in_int32 && slot < slots) break;
    }
    if (bytes_in_int32 && slot < slots) {
        char reason[128];
        snprintf(reason, sizeof reason, "int32_data element %llu of a 4-bit tensor is not a byte (two 4-bit values)",
                 (unsigned long long)slot);
        cli_tensor_free(out);
        return fail_at(&src, "TensorProto", &r, reason);
    }
    return 0;
}
