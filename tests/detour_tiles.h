// A hand-made Detour tile source for the writer's tests: the unit test checks its bytes field by
// field (tests/unit/test_detour_write.cpp), the differential test against dtCreateNavMeshData
// (tests/diff/test_diff_detour_write.cpp), in the variants both build from it.
#pragma once
#include <cstdint>
#include <vector>

#include "core/runtime/detour_format.h"

namespace navtest {

// Two quads side by side in x (cells 0..2 and 2..4 in x, 0..2 in z), sharing the edge x = 2; the
// right quad's far edge (x = 4) is a portal to the x+ tile (Recast's side 2). nvp 6.
//   vertices: 0 (0,0)  1 (0,2)  2 (2,2)  3 (2,0)  4 (4,2)  5 (4,0)   (x, z; y = 3 cells)
struct TwoQuads {
    std::vector<uint16_t> verts = {0, 3, 0, 0, 3, 2, 2, 3, 2, 2, 3, 0, 4, 3, 2, 4, 3, 0};
    static constexpr uint16_t N = 0xffff;
    // poly 0: 0 1 2 3 (edge 2: 2-3 shared with poly 1); poly 1: 3 2 4 5 (edge 0: 3-2 shared, edge 2: 4-5 portal x+)
    std::vector<uint16_t> polys = {0, 1, 2, 3, N, N, N, N, 1, N, N, N,   //
                                   3, 2, 4, 5, N, N, 0, N, 0x8002, N, N, N};
    std::vector<uint16_t> flags = {1, 5};
    std::vector<uint8_t> areas = {63, 7};
    // detail: poly 0 = its 4 vertices + 1 interior vertex, 4 triangles; poly 1 = its 4, 2 triangles
    std::vector<uint32_t> dmeshes = {0, 5, 0, 4, 5, 4, 4, 2};
    std::vector<float> dverts;
    std::vector<uint8_t> dtris = {0, 1, 4, 1, 1, 2, 4, 1, 2, 3, 4, 1, 3, 0, 4, 1, 0, 1, 2, 5, 0, 2, 3, 20};
    nav::DetourTileSource src;

    TwoQuads(const TwoQuads&) = delete;  // src points into the vectors
    TwoQuads& operator=(const TwoQuads&) = delete;
    TwoQuads() {
        const float bmin[3] = {10, 2, 20};
        auto world = [&](int v) {
            dverts.push_back(bmin[0] + verts[v * 3] * 0.5f);
            dverts.push_back(bmin[1] + verts[v * 3 + 1] * 0.25f);
            dverts.push_back(bmin[2] + verts[v * 3 + 2] * 0.5f);
        };
        for (int v : {0, 1, 2, 3}) world(v);
        dverts.insert(dverts.end(), {10.5f, 3.0f, 20.5f});  // the interior vertex, 0.25 above the corners
        for (int v : {3, 2, 4, 5}) world(v);
        src.verts = verts.data();
        src.vert_count = 6;
        src.polys = polys.data();
        src.poly_flags = flags.data();
        src.poly_areas = areas.data();
        src.poly_count = 2;
        src.nvp = 6;
        src.detail_meshes = dmeshes.data();
        src.detail_verts = dverts.data();
        src.detail_vert_count = 9;
        src.detail_tris = dtris.data();
        src.detail_tri_count = 6;
        src.tile_x = 3;
        src.tile_y = 4;
        for (int k = 0; k < 3; ++k) src.bmin[k] = bmin[k];
        src.bmax[0] = 12, src.bmax[1] = 4, src.bmax[2] = 21;
        src.walkable_height = 2, src.walkable_radius = 0.6f, src.walkable_climb = 0.9f;
        src.cs = 0.5f, src.ch = 0.25f;
    }
};

// Two off-mesh connections for TwoQuads: connection 0 starts inside (stored; its end lies
// outside towards x+, side 0), connection 1 starts outside (dropped; its end inside).
struct TwoConnections {
    std::vector<float> verts = {11, 2.75f, 20.5f, 13, 2.75f, 20.5f, 30, 2.75f, 20.5f, 11, 2.75f, 20.5f};
    std::vector<float> rad = {0.5f, 0.5f};
    std::vector<uint16_t> flags = {8, 8};
    std::vector<uint8_t> areas = {5, 5}, dir = {1, 0};
    std::vector<uint32_t> user_id = {77, 78};
    void attach(nav::DetourTileSource& s) const {
        s.offmesh_verts = verts.data();
        s.offmesh_rad = rad.data();
        s.offmesh_flags = flags.data();
        s.offmesh_areas = areas.data();
        s.offmesh_dir = dir.data();
        s.offmesh_user_id = user_id.data();
        s.offmesh_count = 2;
    }
};

}  // namespace navtest
