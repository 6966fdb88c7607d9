// Detour's own writer and loader applied to our Detour files (tests/diff/test_diff_detour_write.cpp
// and tests/bench/savebench.cpp): dtCreateNavMeshData on the same DetourTileSource
// our write_detour_tile reads, and a dtNavMesh loaded from our MSET as RecastDemo's loadAll does.
// Detour is a reference for tests and benchmarks only; nothing in core/ includes this header.
#pragma once
#include <DetourAlloc.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <DetourNavMeshQuery.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/runtime/detour_format.h"
#include "diff/detour_ref.h"

namespace navdiff {

// dtNavMeshCreateParams from a DetourTileSource, field for field (Detour reads but never writes
// through the pointers; its API is not const).
inline dtNavMeshCreateParams detour_create_params(const nav::DetourTileSource& s) {
    dtNavMeshCreateParams p;
    std::memset(&p, 0, sizeof(p));
    p.verts = const_cast<unsigned short*>(s.verts);
    p.vertCount = s.vert_count;
    p.polys = const_cast<unsigned short*>(s.polys);
    p.polyFlags = const_cast<unsigned short*>(s.poly_flags);
    p.polyAreas = const_cast<unsigned char*>(s.poly_areas);
    p.polyCount = s.poly_count;
    p.nvp = s.nvp;
    p.detailMeshes = const_cast<unsigned int*>(s.detail_meshes);
    p.detailVerts = const_cast<float*>(s.detail_verts);
    p.detailVertsCount = s.detail_vert_count;
    p.detailTris = const_cast<unsigned char*>(s.detail_tris);
    p.detailTriCount = s.detail_tri_count;
    p.offMeshConVerts = const_cast<float*>(s.offmesh_verts);
    p.offMeshConRad = const_cast<float*>(s.offmesh_rad);
    p.offMeshConFlags = const_cast<unsigned short*>(s.offmesh_flags);
    p.offMeshConAreas = const_cast<unsigned char*>(s.offmesh_areas);
    p.offMeshConDir = const_cast<unsigned char*>(s.offmesh_dir);
    p.offMeshConUserID = const_cast<unsigned int*>(s.offmesh_user_id);
    p.offMeshConCount = s.offmesh_count;
    p.userId = s.user_id;
    p.tileX = s.tile_x;
    p.tileY = s.tile_y;
    p.tileLayer = s.tile_layer;
    for (int k = 0; k < 3; ++k) {
        p.bmin[k] = s.bmin[k];
        p.bmax[k] = s.bmax[k];
    }
    p.walkableHeight = s.walkable_height;
    p.walkableRadius = s.walkable_radius;
    p.walkableClimb = s.walkable_climb;
    p.cs = s.cs;
    p.ch = s.ch;
    p.buildBvTree = s.build_bv_tree;
    return p;
}

// Detour's bytes for the same input; false when dtCreateNavMeshData refuses it.
inline bool detour_tile_bytes(const nav::DetourTileSource& s, std::vector<uint8_t>& out) {
    dtNavMeshCreateParams p = detour_create_params(s);
    unsigned char* data = nullptr;
    int size = 0;
    if (!dtCreateNavMeshData(&p, &data, &size)) return false;
    out.assign(data, data + size);
    dtFree(data);
    return true;
}

// Detour's navmesh from the bytes of an MSET file, as RecastDemo's Sample_TileMesh loadAll reads
// it: the header (magic, version, tile count, dtNavMeshParams), init, then per tile its reference
// and size, and addTile of its data with that reference (which addTile must hand back).
inline bool load_detour_mset(const std::vector<uint8_t>& file, DetourMesh& out, std::string& err) {
    out.release();
    struct SetHeader {
        int magic, version, num_tiles;
        dtNavMeshParams params;
    } h;
    static_assert(sizeof(SetHeader) == 40 && sizeof(dtTileRef) == 4, "RecastDemo's layout, 32-bit references");
    if (file.size() < sizeof h) {
        err = "MSET shorter than its header";
        return false;
    }
    std::memcpy(&h, file.data(), sizeof h);
    if (h.magic != ('M' << 24 | 'S' << 16 | 'E' << 8 | 'T') || h.version != 1) {
        err = "not an MSET version 1 file";
        return false;
    }
    out.mesh = dtAllocNavMesh();
    if (!out.mesh || dtStatusFailed(out.mesh->init(&h.params))) {
        err = "dtNavMesh::init refused the MSET parameters";
        return false;
    }
    size_t at = sizeof h;
    for (int i = 0; i < h.num_tiles; ++i) {
        dtTileRef ref = 0;
        int size = 0;
        if (file.size() - at < 8) {
            err = "MSET ends in tile " + std::to_string(i) + "'s header";
            return false;
        }
        std::memcpy(&ref, file.data() + at, 4);
        std::memcpy(&size, file.data() + at + 4, 4);
        at += 8;
        if (size <= 0 || file.size() - at < static_cast<size_t>(size)) {
            err = "MSET tile " + std::to_string(i) + " size " + std::to_string(size) + " beyond the file";
            return false;
        }
        auto* data = static_cast<unsigned char*>(dtAlloc(static_cast<size_t>(size), DT_ALLOC_PERM));
        std::memcpy(data, file.data() + at, static_cast<size_t>(size));
        at += static_cast<size_t>(size);
        dtTileRef got = 0;
        if (dtStatusFailed(out.mesh->addTile(data, size, DT_TILE_FREE_DATA, ref, &got))) {
            dtFree(data);
            err = "addTile refused tile " + std::to_string(i);
            return false;
        }
        if (got != ref) {
            err = "tile " + std::to_string(i) + " got reference " + std::to_string(got) + ", the file says " +
                  std::to_string(ref);
            return false;
        }
    }
    if (at != file.size()) {
        err = "MSET has " + std::to_string(file.size() - at) + " bytes after its tiles";
        return false;
    }
    out.query = dtAllocNavMeshQuery();
    if (!out.query || dtStatusFailed(out.query->init(out.mesh, kDetourNodes))) {
        err = "dtNavMeshQuery::init";
        return false;
    }
    return true;
}

}  // namespace navdiff
