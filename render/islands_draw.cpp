#include "render/islands_draw.h"

#include "render/layers.h"

namespace nav::render {

// The layer, its legend and the Islands panel's swatches all take their colour from here.
uint32_t island_color(uint32_t island) { return hash_color(island + 1); }

void build_islands_layer(const NavMesh& mesh, DrawList& out, DrawList& edges) {
    out.clear();
    edges.clear();
    edges.line_width = 3.0f;
    // Without labels (a mesh not made by build_navmesh) there is nothing to colour by.
    if (mesh.poly_island.size() != static_cast<size_t>(mesh.npolys)) return;
    add_navmesh_fills(
        mesh, [&](uint32_t p) { return color_with_alpha(island_color(mesh.poly_island[p]), colors::kIslandFillAlpha); },
        out);
    // Only walls: islands meet nowhere (no portal joins two of them), so the walls are exactly the
    // outlines of the islands and of their holes; portals inside an island would break its colour.
    add_navmesh_edges(mesh, kNavmeshLift, colors::kNavBoundary, edges, 0, nullptr);
}

}  // namespace nav::render
