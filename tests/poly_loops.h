// Hand-made polygon meshes for the navmesh and islands tests: polygons from vertex loops in
// voxel units, their adjacency from shared edges, and a detail mesh copying each polygon.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "core/common.h"
#include "core/bake/detail.h"
#include "core/bake/polymesh.h"

namespace navtest {

// Polygons from vertex loops (voxel units, wound clockwise in (x, z) as Recast does), neighbours
// found by matching reversed edges, and a detail mesh that copies each polygon as a fan.
struct Loops {
    std::vector<std::array<int, 3>> verts;
    std::vector<std::vector<int>> polys;
    std::vector<uint8_t> areas;
    std::vector<uint16_t> flags;

    int v(int x, int y, int z) {
        verts.push_back({x, y, z});
        return static_cast<int>(verts.size()) - 1;
    }
    void poly(std::vector<int> p, uint8_t area = nav::kWalkableArea, uint16_t fl = 0) {
        polys.push_back(std::move(p));
        areas.push_back(area);
        flags.push_back(fl);
    }
    void build(nav::PolyMesh& pm, nav::PolyMeshDetail& dm, float cs = 0.5f, float ch = 0.25f) const {
        const int nvp = 6;
        pm = nav::PolyMesh{};
        pm.nvp = nvp;
        pm.cs = cs;
        pm.ch = ch;
        pm.bmin[0] = 10, pm.bmin[1] = -2, pm.bmin[2] = 20;
        pm.nverts = static_cast<int>(verts.size());
        for (const auto& v : verts)
            for (int k = 0; k < 3; ++k) pm.verts.push_back(static_cast<uint16_t>(v[static_cast<size_t>(k)]));
        pm.npolys = static_cast<int>(polys.size());
        pm.polys.assign(polys.size() * 2 * nvp, nav::kMeshNullIdx);
        std::map<std::pair<int, int>, int> edge_owner;
        for (size_t p = 0; p < polys.size(); ++p)
            for (size_t j = 0; j < polys[p].size(); ++j)
                edge_owner[{polys[p][j], polys[p][(j + 1) % polys[p].size()]}] = static_cast<int>(p);
        for (size_t p = 0; p < polys.size(); ++p) {
            uint16_t* row = &pm.polys[p * 2 * nvp];
            const size_t n = polys[p].size();
            for (size_t j = 0; j < n; ++j) {
                row[j] = static_cast<uint16_t>(polys[p][j]);
                const auto it = edge_owner.find({polys[p][(j + 1) % n], polys[p][j]});
                if (it != edge_owner.end()) row[nvp + j] = static_cast<uint16_t>(it->second);
            }
        }
        pm.areas = areas;
        pm.flags = flags;
        pm.regs.assign(polys.size(), 1);
        dm = nav::PolyMeshDetail{};
        for (size_t p = 0; p < polys.size(); ++p) {
            const uint32_t vb = static_cast<uint32_t>(dm.verts.size() / 3), tb = static_cast<uint32_t>(dm.tris.size() / 4);
            for (int i : polys[p]) {
                dm.verts.push_back(pm.bmin[0] + static_cast<float>(verts[static_cast<size_t>(i)][0]) * cs);
                dm.verts.push_back(pm.bmin[1] + static_cast<float>(verts[static_cast<size_t>(i)][1]) * ch);
                dm.verts.push_back(pm.bmin[2] + static_cast<float>(verts[static_cast<size_t>(i)][2]) * cs);
            }
            const size_t n = polys[p].size();
            for (size_t j = 1; j + 1 < n; ++j) dm.tris.insert(dm.tris.end(), {0, static_cast<uint8_t>(j), static_cast<uint8_t>(j + 1), 0});
            dm.meshes.insert(dm.meshes.end(), {vb, static_cast<uint32_t>(n), tb, static_cast<uint32_t>(n - 2)});
        }
        dm.nmeshes = static_cast<int>(polys.size());
        dm.nverts = static_cast<int>(dm.verts.size() / 3);
        dm.ntris = static_cast<int>(dm.tris.size() / 4);
    }
};

// A row of `n` unit squares (2 voxels of 0.5) along +x, plus optionally a second, separate row.
inline Loops strip(int n, int gap_row = 0) {
    Loops L;
    std::vector<int> lo, hi;
    for (int i = 0; i <= n; ++i) {
        lo.push_back(L.v(2 * i, 0, 0));
        hi.push_back(L.v(2 * i, 0, 2));
    }
    for (int i = 0; i < n; ++i) L.poly({lo[static_cast<size_t>(i)], hi[static_cast<size_t>(i)], hi[static_cast<size_t>(i) + 1], lo[static_cast<size_t>(i) + 1]});
    if (gap_row > 0) {
        std::vector<int> lo2, hi2;
        for (int i = 0; i <= gap_row; ++i) {
            lo2.push_back(L.v(2 * i, 0, 6));
            hi2.push_back(L.v(2 * i, 0, 8));
        }
        for (int i = 0; i < gap_row; ++i)
            L.poly({lo2[static_cast<size_t>(i)], hi2[static_cast<size_t>(i)], hi2[static_cast<size_t>(i) + 1], lo2[static_cast<size_t>(i) + 1]});
    }
    return L;
}

}  // namespace navtest
