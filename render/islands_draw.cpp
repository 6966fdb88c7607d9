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

uint32_t agent_type_color(int type) {
    // well apart for the first few (the usual lists), then the hash's spread
    static constexpr uint32_t kFirst[] = {rgba(70, 140, 230), rgba(80, 200, 110), rgba(240, 170, 40),
                                          rgba(200, 80, 200), rgba(230, 70, 70), rgba(60, 210, 220)};
    if (type < 0) return rgba(128, 128, 128);
    return type < 6 ? kFirst[type] : hash_color(static_cast<uint32_t>(type) * 7919u + 3u);
}

void build_agent_types_layer(const NavMesh& mesh, DrawList& out, DrawList& edges) {
    out.clear();
    edges.clear();
    edges.line_width = 3.0f;
    if (mesh.types.size() != static_cast<size_t>(mesh.npolys)) return;
    auto largest = [&](uint32_t p) {
        const uint16_t m = mesh.types[p];
        if (m == kAllAgentTypes) return -1;
        int t = -1;
        for (int b = 0; b < 16; ++b)
            if (m & (1u << b)) t = b;
        return t;
    };
    add_navmesh_fills(mesh, [&](uint32_t p) { return color_with_alpha(agent_type_color(largest(p)), colors::kIslandFillAlpha); }, out);
    add_navmesh_edges(mesh, kNavmeshLift, colors::kNavBoundary, edges, 0, nullptr);
}

}  // namespace nav::render
