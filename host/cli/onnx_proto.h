/* The few ONNX protobuf messages the conformance runner needs: ModelProto (opset_import, graph),
 * GraphProto (node, initializer, input, output), NodeProto (a Gather, GatherElements or GatherND, or a
 * com.microsoft GatherBlockQuantized), AttributeProto (int attributes), OperatorSetIdProto and
 * TensorProto (dims, data_type, raw_data, the typed repeated fields and external data beside the model;
 * 4-bit tensors from raw_data, int32_data or external data). */
#ifndef CLI_ONNX_PROTO_H
#define CLI_ONNX_PROTO_H

#include "proto_wire.h"
#include "tensor.h"

/* At most this many graph inputs, outputs and initializers (a Gather model has two or three). */
#define ONNX_MAX_GRAPH_VALUES 64

/* The node's operator: one of the Gather family. */
typedef enum onnx_gather_op { ONNX_GATHER = 0, ONNX_GATHER_ELEMENTS, ONNX_GATHER_ND } onnx_gather_op;

typedef struct onnx_gather_model {
    int64_t ir_version;
    int64_t opset;           /* of the default domain ("" or "ai.onnx"); -1 when the model imports none */
    int64_t microsoft_opset; /* of the com.microsoft domain; -1 when the model imports none */
    onnx_gather_op op;       /* the default domain's operator (when not quantized) */
    int64_t axis;            /* Gather and GatherElements: the node's attribute, 0 when absent */
    int64_t batch_dims;      /* GatherND: the node's attribute, 0 when absent */
    /* The node is com.microsoft's GatherBlockQuantized: its attributes, ONNX Runtime's defaults when
     * absent (gather_axis 0, quantize_axis 1, block_size 128, bits 4), and its third and fourth
     * inputs (zero_points_name empty when not given). */
    int quantized;
    int64_t gather_axis, quantize_axis, block_size, bits;
    proto_bytes scales_name, zero_points_name;
    proto_bytes data_name, indices_name, output_name; /* the node's first two inputs and its output */
    int feed_count; /* graph inputs that are not initializers, in order: what input_<k>.pb feed */
    proto_bytes feeds[ONNX_MAX_GRAPH_VALUES];
    int initializer_count;
    proto_bytes initializer_names[ONNX_MAX_GRAPH_VALUES];
    proto_bytes initializers[ONNX_MAX_GRAPH_VALUES]; /* TensorProto messages */
    int graph_output_count;
    proto_bytes graph_outputs[ONNX_MAX_GRAPH_VALUES];
} onnx_gather_model;

/* The operator's name in ONNX ("Gather", "GatherElements", "GatherND"). */
const char *onnx_gather_op_name(onnx_gather_op op);

/* Parse a model holding exactly one node: a Gather, GatherElements or GatherND of the default domain,
 * or a GatherBlockQuantized of com.microsoft (version 1). The spans point into file, which must
 * outlive the model. Returns 0, or CLI_EXIT_REFUSED with the failure recorded. */
int onnx_parse_gather_model(const char *where, const unsigned char *file, size_t len, onnx_gather_model *model);

/* Decode a TensorProto into a host tensor (host byte order). name (may be NULL) receives its name.
 * 4-bit tensors and external data are refused. */
int onnx_parse_tensor(const char *where, proto_bytes message, cli_tensor *out, proto_bytes *name);

/* The logical type and shape of a 4-bit TensorProto (UINT4, INT4), whose bytes stay packed. */
typedef struct onnx_packed_info {
    clg_quant_type type; /* CLG_QUANT_U4 or CLG_QUANT_I4; CLG_QUANT_TYPE_INVALID: not a 4-bit tensor */
    int32_t rank;
    int64_t shape[CLG_MAX_RANK];
} onnx_packed_info;

/* As onnx_parse_tensor, but a UINT4 or INT4 tensor is accepted (raw_data, external data, or int32_data of
 * one packed byte an element): out receives its packed bytes as u8 [ceil(count / 2)] and packed (may be
 * NULL, then 4-bit tensors are refused) its logical type and shape. External data is read from
 * base_dir (the model's folder; NULL refuses it). */
int onnx_parse_tensor_packed(const char *where, proto_bytes message, const char *base_dir, cli_tensor *out,
                             proto_bytes *name, onnx_packed_info *packed);

#endif
