// The `islands` and `agent_types` layers. `islands`: every connected component of the navmesh (NavMesh::poly_island) filled in
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

// The `agent_types` layer: each polygon filled by the last agent type of the bake's list that fits
// it (NavMesh::types; list the types small to large and that is the largest), in
// agent_type_color(t); a polygon no type list covers (a bake of one type) grey; edges where the
// class changes drawn as portals, walls dark.
uint32_t agent_type_color(int type);
void build_agent_types_layer(const NavMesh& mesh, DrawList& out, DrawList& edges);

}  // namespace nav::render
