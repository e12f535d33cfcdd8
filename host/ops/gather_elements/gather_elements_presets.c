/* Names of the GatherElements presets. */
#include "clgather.h"
#include "core/name_table.h"

static const char *const preset_names[CLG_GATHER_ELEMENTS_PRESET_COUNT] = {
    [CLG_GATHER_ELEMENTS_PRESET_INVALID] = "invalid",
    [CLG_ONNX_GATHER_ELEMENTS_11] = "onnx-11",
    [CLG_ONNX_GATHER_ELEMENTS_13] = "onnx-13",
    [CLG_OV_GATHER_ELEMENTS_6] = "ov-gather-elements-6",
};

const char *clg_gather_elements_preset_name(clg_gather_elements_preset preset)
{
    return clg_name_of(preset_names, CLG_GATHER_ELEMENTS_PRESET_COUNT, (int)preset);
}

clg_gather_elements_preset clg_gather_elements_preset_from_name(const char *name)
{
    return (clg_gather_elements_preset)clg_value_named(preset_names, CLG_GATHER_ELEMENTS_PRESET_COUNT, name);
}
