// Stage 4: erode the walkable area by the agent radius. A distance to the nearest boundary
// (a span that is kNullArea, or lacks a link or a walkable neighbour in any direction) is found
// with two sweeps (+2 orthogonal, +3 diagonal); spans nearer than radius*2 become kNullArea.
#pragma once
#include <cstdint>
#include <vector>

#include "core/bake/compact.h"

namespace nav {

// areas: per compact span, modified in place. scratch is resized and reused. Polls cancel once a
// row (Status::cancelled, areas then partly eroded).
Status erode_walkable_area(int radius, const CompactHeightfield& chf, std::vector<uint8_t>& areas,
                           std::vector<uint8_t>& scratch, const CancelFlag* cancel = nullptr);

}  // namespace nav
