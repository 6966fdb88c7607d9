// Which parameter changes matter to the bake once rounded to voxels: shared by Pipeline::set_inputs
// (a change that leaves every derived voxel value unchanged re-runs nothing) and the warnings'
// fixes (core/explain/diagnose.h: such a change is never offered as a fix).
#pragma once
#include "core/pipeline/params.h"

namespace nav {

// The parameters the stages read only through their rounded voxel value in BakeConfig.
inline bool rounded_to_voxels(VoxelRule r) {
    return r == VoxelRule::CeilByCellHeight || r == VoxelRule::FloorByCellHeight || r == VoxelRule::CeilByCellSize ||
           r == VoxelRule::FloorByCellSize || r == VoxelRule::SquareCells;
}

inline bool same_voxel_values(const BakeConfig& a, const BakeConfig& b) {
    return a.walkable_height == b.walkable_height && a.walkable_climb == b.walkable_climb &&
           a.walkable_radius == b.walkable_radius && a.min_region_area == b.min_region_area &&
           a.merge_region_area == b.merge_region_area && a.max_edge_len == b.max_edge_len;
}

}  // namespace nav
