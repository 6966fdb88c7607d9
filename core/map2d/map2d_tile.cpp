// The polygon mesh of a 2D map as a NavTile; see map2d_tile.h.
#include "core/map2d/map2d_tile.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

namespace nav::map2d {

Status make_map2d_tile(const PolyMesh2D& m, NavTile& out) {
    out = NavTile{};
    NavTile t;
    const uint32_t nv = m.nverts(), np = m.npolys();
    if (np == 0) return Status::bad_input("map2d tile: the mesh has no polygons");
    t.verts.resize(3 * size_t(nv));
    for (uint32_t v = 0; v < nv; ++v) {
        t.verts[3 * v] = float(m.xz[2 * v]);
        t.verts[3 * v + 1] = 0.0f;
        t.verts[3 * v + 2] = float(m.xz[2 * v + 1]);
    }
    t.poly_first.push_back(0);
    for (uint32_t p = 0; p < np; ++p) {
        const uint32_t f = m.poly_first[p], n = m.poly_first[p + 1] - f;
        if (n > uint32_t(kMaxPolyEdges))
            return Status::bad_input("map2d tile: polygon " + std::to_string(p) + " has " + std::to_string(n) +
                                     " vertices, more than " + std::to_string(kMaxPolyEdges));
        // reversed: edge j runs from v[n-1-j] to v[n-2-j], the original slot n-2-j backwards
        for (uint32_t j = 0; j < n; ++j) {
            t.edge_vert.push_back(m.poly_verts[f + n - 1 - j]);
            const uint32_t q = m.poly_nei[f + (2 * n - 2 - j) % n];
            t.edge_nei.push_back(q == kNoPoly2 ? kNoPoly : q);
        }
        t.poly_first.push_back(uint32_t(t.edge_vert.size()));
    }
    t.areas.assign(np, kWalkableArea);
    t.flags.assign(np, kPolyFlagDefault);
    t.bmin[0] = t.bmin[1] = t.bmin[2] = HUGE_VALF;
    t.bmax[0] = t.bmax[1] = t.bmax[2] = -HUGE_VALF;
    for (uint32_t v = 0; v < nv; ++v)
        for (int k = 0; k < 3; ++k) {
            t.bmin[k] = std::min(t.bmin[k], t.verts[3 * v + k]);
            t.bmax[k] = std::max(t.bmax[k], t.verts[3 * v + k]);
        }
    Status st = validate_tile(t);
    if (!st) return Status::bad_input("map2d tile: " + st.message);
    build_tile_bvtree(t);
    out = std::move(t);
    return Status::ok();
}

Status build_map2d_navmesh(const PolyMesh2D& m, NavMesh& out) {
    auto tile = std::make_shared<NavTile>();
    Status st = make_map2d_tile(m, *tile);
    if (!st) return st;
    const std::shared_ptr<const NavTile> tiles[1] = {tile};
    return build_navmesh(tiles, nullptr, out);
}

}  // namespace nav::map2d
