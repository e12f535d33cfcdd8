#include "quant_table_args.h"

#include "cli_args.h"
#include "cli_error.h"

#include <string.h>

static int is_4bit(clg_quant_type t) { return t == CLG_QUANT_U4 || t == CLG_QUANT_I4; }

int cli_layout_is_ggml(clg_quant_layout l) { return l != CLG_QUANT_ORT_BLOCK && l != CLG_QUANT_OV_COMPRESSED; }

int cli_parse_layout(const char *command, const char *text, clg_quant_layout *out)
{
    *out = clg_quant_layout_from_name(text);
    if (*out == CLG_QUANT_LAYOUT_INVALID)
        return cli_fail(
            CLI_EXIT_USAGE,
            "%s: unknown --layout '%s' (ort-block, ggml-q4_0, ggml-q4_1, ggml-q5_0, ggml-q5_1, ggml-q8_0, "
            "ggml-iq4_nl, ggml-q2_K, ggml-q3_K, ggml-q4_K, ggml-q5_K, ggml-q6_K, ggml-iq4_xs, ov-compressed, "
            "fbgemm-8bit-rowwise, fbgemm-4bit-rowwise)",
            command, text);
    return 0;
}

int cli_parse_output_type(const char *command, const char *text, clg_dtype *out)
{
    *out = CLG_DTYPE_INVALID;
    if (!text) return 0;
    *out = clg_dtype_from_name(text);
    if (*out != CLG_F32 && *out != CLG_F16 && *out != CLG_BF16)
        return cli_fail(CLI_EXIT_USAGE, "%s: --output-type must be f32, f16 or bf16, not '%s'", command, text);
    return 0;
}

/* The quantized type of a file's elements: uint8 or int8, or (4-bit) uint8 bytes of packed nibbles. */
static int quant_type_of(const char *command, const char *what, const char *path, const cli_tensor *t,
                         const char *type_flag, clg_quant_type *out)
{
    if (type_flag) {
        *out = clg_quant_type_from_name(type_flag);
        if (*out == CLG_QUANT_TYPE_INVALID)
            return cli_fail(CLI_EXIT_USAGE, "%s: --data-type must be u4, i4, u8 or i8, not '%s'", command, type_flag);
    } else {
        *out = t->type == CLG_I8 ? CLG_QUANT_I8 : CLG_QUANT_U8;
    }
    const clg_dtype want = *out == CLG_QUANT_I8 ? CLG_I8 : CLG_U8;
    if (t->type != want)
        return cli_fail(CLI_EXIT_REFUSED, "%s '%s' holds %s; %s %s data is stored as %s", what, path,
                        clg_dtype_name(t->type), command, clg_quant_type_name(*out), clg_dtype_name(want));
    return 0;
}

/* A quantized tensor's description: its own shape, or for 4-bit data the logical shape given as text
 * (default: fallback_shape) while the file holds the packed bytes. */
static int quant_desc(const char *command, const char *name, const char *shape_text, const cli_tensor *t,
                      clg_quant_type type, const clg_tensor_desc *fallback_shape, clg_quant_tensor_desc *out)
{
    memset(out, 0, sizeof *out);
    out->type = type;
    if (!is_4bit(type)) {
        if (shape_text)
            return cli_fail(CLI_EXIT_USAGE, "%s: --%s is for 4-bit data only; the file's shape is used", command, name);
        out->rank = t->rank;
        memcpy(out->shape, t->shape, sizeof(int64_t) * (size_t)t->rank);
        return 0;
    }
    if (shape_text) return cli_parse_shape(command, name, shape_text, &out->rank, out->shape);
    if (!fallback_shape)
        return cli_fail(CLI_EXIT_USAGE, "%s: --%s is required for %s data (the file holds packed bytes)", command, name,
                        clg_quant_type_name(type));
    out->rank = fallback_shape->rank;
    memcpy(out->shape, fallback_shape->shape, sizeof out->shape);
    return 0;
}

int cli_read_quant_table(const char *command, clg_quant_layout layout, const cli_quant_table_options *o,
                         const cli_quant_table *t)
{
    if (cli_layout_is_ggml(layout) && (o->scales || o->zero_points))
        return cli_fail(CLI_EXIT_USAGE, "%s: %s rows hold their own scales: no --scales, no --zero-points", command,
                        clg_quant_layout_name(layout));
    if (!cli_layout_is_ggml(layout) && !o->scales)
        return cli_fail(CLI_EXIT_USAGE, "%s: --scales is required for layout %s", command,
                        clg_quant_layout_name(layout));
    /* a GGUF tensor's bytes are in place already */
    if (!t->data->bytes && cli_npy_read("data", o->data, t->data) != 0) return CLI_EXIT_REFUSED;
    clg_quant_type data_type = CLG_QUANT_TYPE_INVALID;
    int rc = quant_type_of(command, "data", o->data, t->data, o->data_type, &data_type);
    if (rc == 0) rc = quant_desc(command, "data-shape", o->data_shape, t->data, data_type, NULL, t->data_desc);
    if (rc != 0) return rc;

    if (o->scales) {
        if (cli_npy_read("scales", o->scales, t->scales) != 0) return CLI_EXIT_REFUSED;
        *t->scales_desc = cli_tensor_desc(t->scales);
        if (o->scales_type) {
            if (strcmp(o->scales_type, "bf16") != 0)
                return cli_fail(CLI_EXIT_USAGE, "%s: --scales-type takes only bf16 (uint16 bits), not '%s'", command,
                                o->scales_type);
            if (t->scales->type != CLG_U16)
                return cli_fail(CLI_EXIT_REFUSED, "scales '%s' holds %s; bf16 scales are stored as u16 bits", o->scales,
                                clg_dtype_name(t->scales->type));
            t->scales_desc->type = CLG_BF16;
        }
    } else if (o->scales_type) {
        return cli_fail(CLI_EXIT_USAGE, "%s: --scales-type without --scales", command);
    }
    if (o->zero_points) {
        if (cli_npy_read("zero_points", o->zero_points, t->zero_points) != 0) return CLI_EXIT_REFUSED;
        clg_quant_type z = CLG_QUANT_TYPE_INVALID;
        rc = quant_type_of(command, "zero_points", o->zero_points, t->zero_points, clg_quant_type_name(data_type), &z);
        if (rc == 0)
            rc = quant_desc(command, "zero-points-shape", o->zero_points_shape, t->zero_points, z, t->scales_desc,
                            t->zero_points_desc);
        if (rc != 0) return rc;
    } else if (o->zero_points_shape) {
        return cli_fail(CLI_EXIT_USAGE, "%s: --zero-points-shape without --zero-points", command);
    }
    return 0;
}
