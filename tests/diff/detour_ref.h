// Shared harness of the path-query comparisons (tests/diff/test_diff_paths.cpp and the queries
// section of tests/bench/navbench.cpp): Detour 1.5.1 on Recast's polygon mesh against our
// NavMesh / NavQuery, asked the same questions.
//
// What each side answers a "route" with, given two points:
//  - Detour: findNearestPoly for both points, findPath (node pool kDetourNodes, corridor buffer
//    kMaxCorridor) from the start polygon to the end polygon, then findStraightPath from the start
//    nearest point to the end nearest point (Detour clamps the end into the last polygon when the
//    path is partial). Reached = findPath's status has no DT_PARTIAL_RESULT.
//  - ours: NavQuery::find_route (find_nearest_poly for both points, find_path, find_straight_path).
// Both use the same half extents (kHalfExtents) and their default filter; every polygon carries
// flag 1 (Detour's needs a set flag; our bake leaves flags 0 and build_navmesh gives them
// kPolyFlagDefault = 1).
//
// Query pairs are random points on OUR navmesh (NavQuery::random_point, area-uniform over the
// polygons, from a fixed nav::Rng seed): deterministic and independent of Detour's global-rand
// callback. The same points then go to both sides.
//
// Detour is a reference for tests and benchmarks only; nothing in core/ includes this header.
#pragma once
#include <DetourCommon.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <DetourNavMeshQuery.h>
#include <DetourStatus.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/pipeline/tile_builder.h"
#include "core/runtime/navmesh.h"
#include "core/runtime/query.h"
#include "diff/recast_ref.h"

namespace navdiff {

constexpr int kDetourNodes = 2048;   // dtNavMeshQuery node pool (the Recast demo's setting)
constexpr int kMaxCorridor = 2048;   // findPath's corridor buffer, in polygons
constexpr int kMaxStraight = 2048;   // findStraightPath's buffer, in vertices
inline constexpr float kHalfExtents[3] = {2.0f, 4.0f, 2.0f};
constexpr uint16_t kWalkFlag = 1;    // the flag every polygon carries on both sides

// Detour's navmesh (one tile) and a query bound to it. Owns both.
struct DetourMesh {
    dtNavMesh* mesh = nullptr;
    dtNavMeshQuery* query = nullptr;

    DetourMesh() = default;
    DetourMesh(const DetourMesh&) = delete;
    DetourMesh& operator=(const DetourMesh&) = delete;
    ~DetourMesh() { release(); }
    void release() {
        if (query) dtFreeNavMeshQuery(query);
        if (mesh) dtFreeNavMesh(mesh);
        query = nullptr;
        mesh = nullptr;
    }
    // Polygon index within the single tile of a polygon reference.
    uint32_t poly_index(dtPolyRef ref) const { return mesh->decodePolyIdPoly(ref); }
    int poly_count() const {
        const dtMeshTile* t = static_cast<const dtNavMesh*>(mesh)->getTile(0);
        return t && t->header ? t->header->polyCount : 0;
    }
};

// Builds Detour's navmesh from Recast's polygon and detail meshes, as Sample_SoloMesh does (BV
// tree on, no off-mesh links), with a query of `nodes` nodes. Gives every polygon kWalkFlag (in
// pm.flags, which Detour copies). Returns false with `err` set on failure.
inline bool build_detour(rcPolyMesh& pm, const rcPolyMeshDetail& dm, const nav::BakeConfig& cfg, DetourMesh& out,
                         std::string& err, int nodes = kDetourNodes) {
    out.release();
    for (int i = 0; i < pm.npolys; ++i) pm.flags[i] = kWalkFlag;
    dtNavMeshCreateParams p;
    std::memset(&p, 0, sizeof(p));
    p.verts = pm.verts;
    p.vertCount = pm.nverts;
    p.polys = pm.polys;
    p.polyAreas = pm.areas;
    p.polyFlags = pm.flags;
    p.polyCount = pm.npolys;
    p.nvp = pm.nvp;
    p.detailMeshes = dm.meshes;
    p.detailVerts = dm.verts;
    p.detailVertsCount = dm.nverts;
    p.detailTris = dm.tris;
    p.detailTriCount = dm.ntris;
    p.walkableHeight = static_cast<float>(cfg.walkable_height) * cfg.ch;
    p.walkableRadius = static_cast<float>(cfg.walkable_radius) * cfg.cs;
    p.walkableClimb = static_cast<float>(cfg.walkable_climb) * cfg.ch;
    dtVcopy(p.bmin, pm.bmin);
    dtVcopy(p.bmax, pm.bmax);
    p.cs = pm.cs;
    p.ch = pm.ch;
    p.buildBvTree = true;
    unsigned char* data = nullptr;
    int size = 0;
    if (!dtCreateNavMeshData(&p, &data, &size)) {
        err = "detour: dtCreateNavMeshData failed";
        return false;
    }
    out.mesh = dtAllocNavMesh();
    if (!out.mesh || dtStatusFailed(out.mesh->init(data, size, DT_TILE_FREE_DATA))) {
        dtFree(data);  // the mesh takes ownership only when the tile was added
        err = "detour: dtNavMesh::init failed";
        return false;
    }
    out.query = dtAllocNavMeshQuery();
    if (!out.query || dtStatusFailed(out.query->init(out.mesh, nodes))) {
        err = "detour: dtNavMeshQuery::init failed";
        return false;
    }
    return true;
}

// Recast's polygon and detail meshes copied into our types, so that our NavMesh can be built on
// exactly Recast's polygons (the query comparison without the bake's differences). Flags stay 0,
// as our bake leaves them.
inline void to_nav_meshes(const rcPolyMesh& pm, const rcPolyMeshDetail& dm, nav::PolyMesh& m, nav::PolyMeshDetail& d) {
    m.nverts = pm.nverts;
    m.npolys = pm.npolys;
    m.nvp = pm.nvp;
    m.verts.assign(pm.verts, pm.verts + static_cast<size_t>(pm.nverts) * 3);
    m.polys.assign(pm.polys, pm.polys + static_cast<size_t>(pm.npolys) * 2 * static_cast<size_t>(pm.nvp));
    m.regs.assign(pm.regs, pm.regs + pm.npolys);
    m.flags.assign(static_cast<size_t>(pm.npolys), 0);
    m.areas.assign(pm.areas, pm.areas + pm.npolys);
    for (int k = 0; k < 3; ++k) {
        m.bmin[k] = pm.bmin[k];
        m.bmax[k] = pm.bmax[k];
    }
    m.cs = pm.cs;
    m.ch = pm.ch;
    m.border_size = pm.borderSize;
    m.max_edge_error = pm.maxEdgeError;
    m.warnings.clear();
    d.nmeshes = dm.nmeshes;
    d.nverts = dm.nverts;
    d.ntris = dm.ntris;
    d.meshes.assign(dm.meshes, dm.meshes + static_cast<size_t>(dm.nmeshes) * 4);
    d.verts.assign(dm.verts, dm.verts + static_cast<size_t>(dm.nverts) * 3);
    d.tris.assign(dm.tris, dm.tris + static_cast<size_t>(dm.ntris) * 4);
}

// `count` pairs of random points on `q`'s mesh (x, y, z start then x, y, z end per pair, appended
// to `out` after clearing it), from a fixed seed. False when the mesh has no area to sample.
inline bool make_pairs(const nav::NavQuery& q, uint64_t seed, int count, std::vector<float>& out) {
    out.clear();
    nav::Rng rng(seed);
    const nav::QueryFilter filter;
    nav::RandomPoint rp;
    for (int i = 0; i < 2 * count; ++i) {
        if (!q.random_point(filter, rng, rp) || rp.poly == nav::kNoRef) return false;
        out.insert(out.end(), rp.point, rp.point + 3);
    }
    return true;
}

// What one side answered for one pair.
struct RouteOutcome {
    bool ok = true;                 // no error status
    bool start_found = false, end_found = false;  // nearest polygon found for each point
    bool reached = false;           // the corridor ends in the end polygon
    bool out_of_nodes = false;
    uint32_t start_poly = nav::kNoPoly, end_poly = nav::kNoPoly;  // polygon indices within their tile
    float start[3] = {0, 0, 0}, end[3] = {0, 0, 0};  // nearest points
    int corridor = 0;               // polygons in the corridor (0 when not searched)
    int corners = 0;                // straight-path vertices
    float length = 0;               // 3D length of the straight path
};

inline float polyline_length(const float* pts, int n) {
    float len = 0;
    for (int k = 1; k < n; ++k) len += dtVdist(pts + (k - 1) * 3, pts + k * 3);
    return len;
}

// Detour's answer to a route query; reusable buffers.
class DetourRoutes {
public:
    explicit DetourRoutes(DetourMesh& dt) : dt_(dt), corridor_(kMaxCorridor), straight_(kMaxStraight * 3),
                                            flags_(kMaxStraight), refs_(kMaxStraight) {}

    // Nearest polygons, A* and funnel. Fills *out when given (the timing loop passes nullptr);
    // returns the number of straight-path vertices.
    int route(const float* s, const float* e, RouteOutcome* out) {
        dtNavMeshQuery& q = *dt_.query;
        dtPolyRef sr = 0, er = 0;
        float sp[3] = {0, 0, 0}, ep[3] = {0, 0, 0};
        const dtStatus s1 = q.findNearestPoly(s, kHalfExtents, &filter_, &sr, sp);
        const dtStatus s2 = q.findNearestPoly(e, kHalfExtents, &filter_, &er, ep);
        int n = 0, ns = 0;
        dtStatus st = 0;
        if (sr && er) {
            st = q.findPath(sr, er, sp, ep, &filter_, corridor_.data(), &n, kMaxCorridor);
            if (n > 0)
                q.findStraightPath(sp, ep, corridor_.data(), n, straight_.data(), flags_.data(), refs_.data(), &ns,
                                   kMaxStraight);
        }
        if (out) {
            *out = RouteOutcome{};
            out->ok = !dtStatusFailed(s1) && !dtStatusFailed(s2) && (!(sr && er) || !dtStatusFailed(st));
            out->start_found = sr != 0;
            out->end_found = er != 0;
            if (sr) out->start_poly = dt_.poly_index(sr);
            if (er) out->end_poly = dt_.poly_index(er);
            dtVcopy(out->start, sp);
            dtVcopy(out->end, ep);
            out->corridor = n;
            out->reached = n > 0 && dtStatusSucceed(st) && !dtStatusDetail(st, DT_PARTIAL_RESULT) &&
                           corridor_[static_cast<size_t>(n) - 1] == er;
            out->out_of_nodes = dtStatusDetail(st, DT_OUT_OF_NODES);
            out->corners = ns;
            out->length = polyline_length(straight_.data(), ns);
        }
        return ns;
    }
    // Detour's include flags for the next routes (an agent type's bit: agent_type_flag_bits).
    void set_include_flags(unsigned short f) { filter_.setIncludeFlags(f); }
    // The last corridor (polygon indices) and straight path.
    void last_corridor(int n, std::vector<uint32_t>& out) const {
        out.clear();
        for (int i = 0; i < n; ++i) out.push_back(dt_.poly_index(corridor_[static_cast<size_t>(i)]));
    }
    const float* last_straight() const { return straight_.data(); }
    // The last corridor's references (RouteOutcome::corridor of them).
    const dtPolyRef* last_refs() const { return corridor_.data(); }

private:
    DetourMesh& dt_;
    dtQueryFilter filter_;  // include all flags, exclude none, area cost 1
    std::vector<dtPolyRef> corridor_;
    std::vector<float> straight_;
    std::vector<unsigned char> flags_;
    std::vector<dtPolyRef> refs_;
};

// Our answer to a route query, in the same form.
inline void our_outcome(const nav::Status& st, const nav::Route& r, RouteOutcome& out) {
    out = RouteOutcome{};
    out.ok = st.is_ok();
    out.start_found = r.start.poly != nav::kNoRef;
    out.end_found = r.end.poly != nav::kNoRef;
    // the polygon within its tile, as Detour's decodePolyIdPoly gives it
    out.start_poly = out.start_found ? nav::ref_poly(r.start.poly) : nav::kNoPoly;
    out.end_poly = out.end_found ? nav::ref_poly(r.end.poly) : nav::kNoPoly;
    dtVcopy(out.start, r.start.point);
    dtVcopy(out.end, r.end.point);
    out.corridor = static_cast<int>(r.path.polys.size());
    out.reached = st.is_ok() && r.found() && r.path.reached;
    out.out_of_nodes = r.path.out_of_nodes;
    out.corners = r.straight.size();
    out.length = r.found() ? polyline_length(r.straight.points.data(), r.straight.size()) : 0.0f;
}

}  // namespace navdiff
