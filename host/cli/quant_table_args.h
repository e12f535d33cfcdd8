/* The quantized table's options that gather-quantized and embedding-bag share: --data-type and
 * --data-shape (4-bit tensors travel as uint8 arrays of their packed bytes), --scales (--scales-type
 * bf16: uint16 bits, since NumPy has no bf16), --zero-points (--zero-points-shape), --output-type. */
#ifndef CLI_QUANT_TABLE_ARGS_H
#define CLI_QUANT_TABLE_ARGS_H

#include "npy.h"

/* The option values a quantized table is read from (NULL where not given). */
typedef struct cli_quant_table_options {
    const char *data, *data_type, *data_shape;
    const char *scales, *scales_type, *zero_points, *zero_points_shape;
} cli_quant_table_options;

/* A quantized table's tensors: data as read (or placed, for a GGUF tensor), scales and zero points. */
typedef struct cli_quant_table {
    cli_tensor *data, *scales, *zero_points;
    clg_quant_tensor_desc *data_desc, *zero_points_desc;
    clg_tensor_desc *scales_desc;
} cli_quant_table;

/* Whether a layout's rows hold their own scales (ggml's blocks, FBGEMM's rows). */
int cli_layout_is_ggml(clg_quant_layout layout);

/* --layout's value as a layout, or a usage failure listing the layouts. */
int cli_parse_layout(const char *command, const char *text, clg_quant_layout *out);

/* --output-type: f32, f16 or bf16 (NULL: CLG_DTYPE_INVALID, the operation's default). */
int cli_parse_output_type(const char *command, const char *text, clg_dtype *out);

/* Read data (unless t.data already holds bytes), scales and zero points as the options give them and
 * describe them; the scales' presence is checked against the layout. */
int cli_read_quant_table(const char *command, clg_quant_layout layout, const cli_quant_table_options *o,
                         const cli_quant_table *t);

#endif
