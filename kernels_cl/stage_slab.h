/* Copying a group of data into local memory for the staged kernels (row_stage_gpu.h,
 * gather_elements_gpu.cl): coalesced loads, 16 bytes at a time where the host proved that every group
 * starts and ends on 16 bytes (SLAB_WIDE=1), so that a work-item has a whole vector in flight per load
 * instead of one unit. The kernels declare their local buffer as uint4, so it is aligned for either.
 *
 * Build options: MOVE_T, SLAB_WIDE (0 or 1; 0 if absent), and offset_t from index_rules.h. */
#ifndef CLG_STAGE_SLAB_H
#define CLG_STAGE_SLAB_H

#ifndef SLAB_WIDE
#define SLAB_WIDE 0
#endif

/* slab16 and slab: the local buffer as vectors and as units; from: the group's first unit; units: its
 * length; item, items: this work-item's place in the work-group and the group's size */
#define STAGE_SLAB(slab16, slab, from, units, item, items)                                        \
    do {                                                                                          \
        if (SLAB_WIDE) {                                                                          \
            __global const uint4 *from16 = (__global const uint4 *)(from);                        \
            const offset_t vectors = (offset_t)(units) * (offset_t)sizeof(MOVE_T) / 16u;          \
            for (offset_t a = (item); a < vectors; a += (items)) (slab16)[a] = from16[a];         \
        } else {                                                                                  \
            for (offset_t a = (item); a < (offset_t)(units); a += (items)) (slab)[a] = (from)[a]; \
        }                                                                                         \
    } while (0)

#endif /* CLG_STAGE_SLAB_H */
