/* The names of EmbeddingBag's presets and modes, and what each preset allows. */
#include "ops/embedding_bag/embedding_bag_presets.h"

#include "core/name_table.h"

static const char *const preset_names[CLG_EMBEDDING_BAG_PRESET_COUNT] = {
    [CLG_EMBEDDING_BAG_PRESET_INVALID] = "invalid",
    [CLG_OV_EMBEDDING_BAG_OFFSETS_3] = "ov-embedding-bag-offsets-3",
    [CLG_OV_EMBEDDING_BAG_OFFSETS_15] = "ov-embedding-bag-offsets-15",
    [CLG_OV_EMBEDDING_BAG_PACKED_3] = "ov-embedding-bag-packed-3",
    [CLG_OV_EMBEDDING_BAG_PACKED_15] = "ov-embedding-bag-packed-15",
    [CLG_OV_EMBEDDING_SEGMENTS_SUM_3] = "ov-embedding-segments-sum-3",
    [CLG_TORCH_EMBEDDING_BAG] = "torch-embedding-bag",
};

static const char *const mode_names[CLG_BAG_MODE_COUNT] = {
    [CLG_BAG_SUM] = "sum",
    [CLG_BAG_MEAN] = "mean",
    [CLG_BAG_MAX] = "max",
};

const char *clg_embedding_bag_preset_name(clg_embedding_bag_preset preset)
{
    return clg_name_of(preset_names, CLG_EMBEDDING_BAG_PRESET_COUNT, (int)preset);
}

clg_embedding_bag_preset clg_embedding_bag_preset_from_name(const char *name)
{
    return (clg_embedding_bag_preset)clg_value_named(preset_names, CLG_EMBEDDING_BAG_PRESET_COUNT, name);
}

/* Sum is value 0, a valid mode: not the name table's convention. */
const char *clg_bag_mode_name(clg_bag_mode mode)
{
    return (int)mode >= 0 && mode < CLG_BAG_MODE_COUNT ? mode_names[mode] : "invalid";
}

clg_bag_mode clg_bag_mode_from_name(const char *name)
{
    for (int m = 0; name && m < CLG_BAG_MODE_COUNT; ++m)
        if (strcmp(mode_names[m], name) == 0) return (clg_bag_mode)m;
    return CLG_BAG_MODE_COUNT;
}

clg_embedding_bag_rules clg_embedding_bag_rules_of(clg_embedding_bag_preset preset)
{
    const unsigned sum = 1u << CLG_BAG_SUM, mean = 1u << CLG_BAG_MEAN, max = 1u << CLG_BAG_MAX;
    const unsigned offsets = 1u << CLG_BAG_OFFSETS, packed = 1u << CLG_BAG_PACKED, segments = 1u << CLG_BAG_SEGMENTS;
    switch (preset) {
    case CLG_OV_EMBEDDING_BAG_OFFSETS_3: return (clg_embedding_bag_rules){sum, offsets, "sum", "offsets", false};
    case CLG_OV_EMBEDDING_BAG_OFFSETS_15:
        return (clg_embedding_bag_rules){sum | mean, offsets, "sum or mean", "offsets", false};
    case CLG_OV_EMBEDDING_BAG_PACKED_3: return (clg_embedding_bag_rules){sum, packed, "sum", "packed", false};
    case CLG_OV_EMBEDDING_BAG_PACKED_15:
        return (clg_embedding_bag_rules){sum | mean, packed, "sum or mean", "packed", false};
    case CLG_OV_EMBEDDING_SEGMENTS_SUM_3: return (clg_embedding_bag_rules){sum, segments, "sum", "segments", false};
    default:
        return (clg_embedding_bag_rules){sum | mean | max, offsets | packed, "sum, mean or max", "offsets or packed",
                                         true};
    }
}
