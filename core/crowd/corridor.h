// An agent's path corridor (Detour's dtPathCorridor, on our types): the polygons from the one
// under the agent to the one holding its target, kept in step as the agent moves (the start
// merges what the move walked), as the target moves (the end merges a short walk), and shortened
// where a straight line cuts across it.
#pragma once
#include <span>

#include "core/crowd/crowd.h"

namespace nav {

// One polygon, the agent's.
void corridor_reset(Agent& a, PolyRef poly, const float* pos);
// A planned path (truncated to max_polys, Agent::corridor_truncated then set).
void corridor_set(Agent& a, const PathResult& path, int max_polys);
// The agent walked `visited` (start polygon first, SurfaceMove::visited): the corridor now starts
// in the last of them. A walk off the corridor is prepended (walking back to it).
void corridor_merge_start(Agent& a, std::span<const PolyRef> visited);
// The target walked `visited` from the corridor's last polygon: appended.
void corridor_merge_end(Agent& a, std::span<const PolyRef> visited);
// The next corners (up to kCrowdMaxCorners) from the agent to its target: Agent::corners.
// Corners closer than a centimetre are passed over (the agent is at them) unless a link starts there.
void corridor_corners(Agent& a, NavQuery& query, StraightPath& scratch);
// When nothing walls off the straight line from the agent toward `toward` (within `range`), the
// corridor's start is replaced by the polygons that line crosses. True when it changed.
bool corridor_shortcut(Agent& a, const float* toward, const QueryFilter& filter, NavQuery& query, RaycastHit& hit, float range);

}  // namespace nav
