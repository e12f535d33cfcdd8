/* What each EmbeddingBag preset allows: its modes, its bag forms, and whether it is PyTorch's
 * (padding_idx, include_last_offset, offsets[0] == 0) or OpenVINO's (default_index). */
#ifndef CLG_EMBEDDING_BAG_PRESETS_H
#define CLG_EMBEDDING_BAG_PRESETS_H

#include "clgather.h"

#include <stdbool.h>

typedef struct clg_embedding_bag_rules {
    unsigned modes;         /* bit m: mode m allowed */
    unsigned forms;         /* bit f: bag form f allowed */
    const char *mode_names; /* the allowed modes, in messages */
    const char *form_names; /* the allowed forms, in messages */
    bool torch;             /* PyTorch's rules, else OpenVINO's */
} clg_embedding_bag_rules;

/* The rules of a valid preset. */
clg_embedding_bag_rules clg_embedding_bag_rules_of(clg_embedding_bag_preset preset);

#endif
