/* Names of the gather presets. */
#include "clgather.h"
#include "core/name_table.h"

static const char *const preset_names[CLG_PRESET_COUNT] = {
    [CLG_PRESET_INVALID] = "invalid",  [CLG_ONNX_1] = "onnx-1",           [CLG_ONNX_11] = "onnx-11",
    [CLG_ONNX_13] = "onnx-13",         [CLG_OV_GATHER_1] = "ov-gather-1", [CLG_OV_GATHER_7] = "ov-gather-7",
    [CLG_OV_GATHER_8] = "ov-gather-8",
};

const char *clg_preset_name(clg_preset preset) { return clg_name_of(preset_names, CLG_PRESET_COUNT, (int)preset); }

clg_preset clg_preset_from_name(const char *name)
{
    return (clg_preset)clg_value_named(preset_names, CLG_PRESET_COUNT, name);
}
