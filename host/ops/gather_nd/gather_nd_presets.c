/* Names of the GatherND presets. */
#include "clgather.h"
#include "core/name_table.h"

static const char *const preset_names[CLG_GATHER_ND_PRESET_COUNT] = {
    [CLG_GATHER_ND_PRESET_INVALID] = "invalid", [CLG_ONNX_GATHER_ND_11] = "onnx-11",
    [CLG_ONNX_GATHER_ND_12] = "onnx-12",        [CLG_ONNX_GATHER_ND_13] = "onnx-13",
    [CLG_OV_GATHER_ND_5] = "ov-gather-nd-5",    [CLG_OV_GATHER_ND_8] = "ov-gather-nd-8",
};

const char *clg_gather_nd_preset_name(clg_gather_nd_preset preset)
{
    return clg_name_of(preset_names, CLG_GATHER_ND_PRESET_COUNT, (int)preset);
}

clg_gather_nd_preset clg_gather_nd_preset_from_name(const char *name)
{
    return (clg_gather_nd_preset)clg_value_named(preset_names, CLG_GATHER_ND_PRESET_COUNT, name);
}
