// Stage 6: distance field to region boundaries (two sweeps with +2 / +3 costs, then a box blur),
// used by the watershed partition (a viewer draws it in grey-scale).
#pragma once
#include <cstdint>
#include <vector>

#include "core/bake/compact.h"

namespace nav {

struct DistanceField {
    std::vector<uint16_t> dist;  // per compact span
    uint16_t max_dist = 0;
};

// A span is on a boundary when it lacks a link in any direction or a neighbour has another area.
Status build_distance_field(const CompactHeightfield& chf, const std::vector<uint8_t>& areas,
                            DistanceField& out, const CancelFlag* cancel = nullptr);

}  // namespace nav
