// Stage 9: the convex polygon mesh. Each contour is triangulated by ear clipping (shortest
// diagonal first, with a loose fallback), triangles are merged greedily into convex polygons of at
// most verts_per_poly (longest shared edge first), vertices are welded, tile-border vertices are
// removed, and each polygon edge gets its neighbour polygon.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/bake/contours.h"

namespace nav {

constexpr uint16_t kMeshNullIdx = 0xffff;
constexpr int kMaxVertsPerPoly = 12;

struct PolyMesh {
    std::vector<uint16_t> verts;  // x, y, z per vertex in voxel units (y in cell heights)
    // Per polygon 2*nvp entries: nvp vertex indices (unused = kMeshNullIdx), then per edge the
    // neighbour polygon index (kMeshNullIdx = boundary; 0x8000 | side for tile-border portals).
    std::vector<uint16_t> polys;
    std::vector<uint16_t> regs;   // region id per polygon
    std::vector<uint16_t> flags;  // user flags per polygon (0 after the bake)
    std::vector<uint8_t> areas;   // area id per polygon
    std::vector<uint16_t> types;  // agent types mask per polygon (bit t: BakeInputs::agent_types[t]); empty: every type
    int nverts = 0, npolys = 0, nvp = 6;
    float bmin[3] = {0, 0, 0}, bmax[3] = {0, 0, 0};
    float cs = 0.3f, ch = 0.2f;
    int border_size = 0;
    float max_edge_error = 0.0f;
    std::vector<std::string> warnings;  // contours that could not be triangulated, etc.

    const uint16_t* poly(int i) const { return &polys[static_cast<size_t>(i) * 2 * static_cast<size_t>(nvp)]; }
    int poly_vert_count(int i) const;
};

// verts_per_poly in [3, kMaxVertsPerPoly]. Fails (BadInput) on out-of-range nvp or when the mesh
// would exceed 65535 vertices; contours that cannot be triangulated are skipped with a warning.
Status build_poly_mesh(const ContourSet& cset, int verts_per_poly, PolyMesh& out,
                       const CancelFlag* cancel = nullptr);

}  // namespace nav
