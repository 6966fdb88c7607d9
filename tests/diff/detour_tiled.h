// Detour's tiled navmesh built from Recast's tile-by-tile bake (the same bordered boxes and
// triangles as our tiled bake, as Sample_TileMesh::buildTileMesh), for the tiled path
// differential test (test_diff_tiles_paths.cpp) and the query benchmark (tests/bench/querybench.cpp).
// Detour is a reference for tests and benchmarks only; nothing in core/ includes this header.
#pragma once
#include <string>

#include "core/pipeline/tiling.h"
#include "diff/detour_ref.h"
#include "diff/recast_ref.h"

namespace navdiff {

// Detour's tiled navmesh from Recast's tile builds; false with err set on failure.
inline bool build_detour_tiled(const nav::InputMesh& mesh, const nav::BakeConfig& c, nav::Partition part,
                        DetourMesh& out, int& tiles, std::string& err) {
    nav::TileLayout L;
    if (!nav::make_tile_layout(c, L)) {
        err = "tile layout";
        return false;
    }
    nav::TriangleBins bins;
    bins.build(mesh, c, L);
    int tile_bits = 1;
    while ((1 << tile_bits) < L.count()) ++tile_bits;
    dtNavMeshParams np{};
    np.orig[0] = c.bmin[0], np.orig[1] = c.bmin[1], np.orig[2] = c.bmin[2];
    np.tileWidth = np.tileHeight = static_cast<float>(L.tile_size) * c.cs;
    np.maxTiles = 1 << tile_bits;
    np.maxPolys = 1 << (22 - tile_bits);
    out.release();
    out.mesh = dtAllocNavMesh();
    if (!out.mesh || dtStatusFailed(out.mesh->init(&np))) {
        err = "dtNavMesh::init";
        return false;
    }
    RecastVoxels rv;
    nav::InputMesh sub;
    sub.verts = mesh.verts;
    tiles = 0;
    for (int tz = 0; tz < L.rows; ++tz)
        for (int tx = 0; tx < L.cols; ++tx) {
            sub.tris.clear();
            for (int i : bins.tile(tx, tz))
                for (int k = 0; k < 3; ++k) sub.tris.push_back(mesh.tris[static_cast<size_t>(i) * 3 + k]);
            if (sub.tris.empty()) continue;
            const nav::BakeConfig tc = nav::tile_config(c, L, tx, tz);
            const VoxelRun run = run_recast(sub, tc, rv, partition_bit(part), false, true,
                                                                tile_keep_cells(c, L, tx, tz).data());
            if (!run.ok) {
                err = run.error;
                return false;
            }
            rcPolyMesh* pm = rv.pmesh[static_cast<int>(part)];
            rcPolyMeshDetail* dm = rv.dmesh[static_cast<int>(part)];
            if (!pm || !dm || pm->npolys == 0) continue;
            for (int i = 0; i < pm->npolys; ++i) pm->flags[i] = kWalkFlag;
            dtNavMeshCreateParams p{};
            p.verts = pm->verts, p.vertCount = pm->nverts;
            p.polys = pm->polys, p.polyAreas = pm->areas, p.polyFlags = pm->flags, p.polyCount = pm->npolys, p.nvp = pm->nvp;
            p.detailMeshes = dm->meshes, p.detailVerts = dm->verts, p.detailVertsCount = dm->nverts;
            p.detailTris = dm->tris, p.detailTriCount = dm->ntris;
            p.walkableHeight = static_cast<float>(tc.walkable_height) * tc.ch;
            p.walkableRadius = static_cast<float>(tc.walkable_radius) * tc.cs;
            p.walkableClimb = static_cast<float>(tc.walkable_climb) * tc.ch;
            p.tileX = tx, p.tileY = tz, p.tileLayer = 0;
            dtVcopy(p.bmin, pm->bmin);
            dtVcopy(p.bmax, pm->bmax);
            p.cs = tc.cs, p.ch = tc.ch;
            p.buildBvTree = true;
            unsigned char* data = nullptr;
            int size = 0;
            if (!dtCreateNavMeshData(&p, &data, &size)) {
                err = "dtCreateNavMeshData failed for tile " + std::to_string(tx) + "," + std::to_string(tz);
                return false;
            }
            if (dtStatusFailed(out.mesh->addTile(data, size, DT_TILE_FREE_DATA, 0, nullptr))) {
                dtFree(data);
                err = "addTile failed";
                return false;
            }
            ++tiles;
        }
    out.query = dtAllocNavMeshQuery();
    if (!out.query || dtStatusFailed(out.query->init(out.mesh, kDetourNodes))) {
        err = "dtNavMeshQuery::init";
        return false;
    }
    return true;
}

}  // namespace navdiff
