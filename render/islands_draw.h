// The `islands` layer: every connected component of the navmesh (NavMesh::poly_island) filled in
// its own colour over the detail surface, boundary edges dark; polygons flagged
// kPolyFlagDisabled (pruned) drawn muted and hatched (colors::kNavDisabled, kNavDisabledHatch).
#pragma once
#include <cstdint>

#include "core/runtime/navmesh.h"
#include "render/draw_list.h"

namespace nav::render {

// The fill colour of island i (stable, well spread; the same as the Islands panel's swatches).
uint32_t island_color(uint32_t island);
void build_islands_layer(const NavMesh& mesh, DrawList& out, DrawList& edges);

}  // namespace nav::render
