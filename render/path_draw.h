// Drawing of the path tool's query (navdebug's `path` layer): the corridor, its portals, the
// straight path with its corners, start and end markers, optionally the A* search (polygons
// coloured open / closed) and one step of the funnel. Colours are colors::kPath* / kNode* /
// kFunnel* in render/layers.h. CPU only, like the layer builders.
#pragma once
#include <cstdint>

#include "core/navmesh.h"
#include "core/query.h"
#include "render/draw_list.h"

namespace nav::render {

struct PathDrawInput {
    const NavMesh* mesh = nullptr;
    bool has_start = false, has_end = false;
    float start[3] = {0, 0, 0}, end[3] = {0, 0, 0};  // the points as picked (markers stand here)
    const PathResult* path = nullptr;                // corridor; null or empty: none
    const StraightPath* straight = nullptr;
    const AStarTrace* astar = nullptr;               // non-null: fill open / closed polygons
    const FunnelTrace* funnel = nullptr;             // non-null with funnel_step in range: draw that step
    int funnel_step = -1;
};

// Fills three batches (each cleared first):
//   fill   - depth-tested: corridor (or A* node) polygons over their detail surface, portal lines;
//   path   - depth-tested, thick: straight path polyline, its corner points, start / end markers;
//   funnel - drawn without depth test: a dashed line from a partial path's end to the goal (often
//            inside the geometry that makes it unreachable) and the funnel step (portal, apex,
//            apex->left, apex->right).
void build_path(const PathDrawInput& in, DrawList& fill, DrawList& path, DrawList& funnel);

}  // namespace nav::render
