// Stage 11: the runtime navigation mesh. A query-ready copy of the polygon mesh and its detail
// mesh in world units, as flat arrays: polygon vertices, per polygon a range of edge slots (one
// per vertex: edge j runs from vertex j to vertex j+1), the neighbour across each edge, area and
// flags per polygon, the detail triangles for heights, and a bounding-volume tree for point
// location. Path queries on it live in core/query.h.
//
// Conventions (Recast's): polygons are convex and wound clockwise in the (x, z) plane, i.e. the
// signed area sum(x_i * z_i+1 - x_i+1 * z_i) is negative; for an edge slot the portal's "left"
// end is the edge's first vertex and its "right" end the second, seen from the polygon that owns
// the slot (Detour's getPortalPoints).
#pragma once
#include <cstdint>
#include <vector>

#include "core/common.h"
#include "core/build/detail.h"
#include "core/build/polymesh.h"

namespace nav {

constexpr uint32_t kNoPoly = 0xffffffffu;
constexpr uint32_t kNoEdge = 0xffffffffu;
// PolyMesh leaves polygon flags at 0. Such polygons get this flag in the NavMesh, so the default
// query filter (include 0xffff, Detour's "at least one included flag" rule) passes them.
constexpr uint16_t kPolyFlagDefault = 0x0001;
// Set on polygons a prune left unreachable; the default query filter excludes it.
constexpr uint16_t kPolyFlagDisabled = 0x8000;
constexpr int kMaxAreas = 64;

// Bounding-volume tree node over polygon bounds, stored in pre-order. A leaf (index >= 0) holds
// one polygon; an interior node stores -(size of its subtree), the jump past it when the query
// box misses its bounds.
struct BVNode {
    float bmin[3], bmax[3];
    int32_t index;
};

struct NavMesh {
    std::vector<float> verts;          // x, y, z per vertex, world units
    std::vector<uint32_t> poly_first;  // npolys + 1: polygon p owns edge slots [poly_first[p], poly_first[p+1])
    std::vector<uint32_t> edge_vert;   // per edge slot: its first vertex (the polygon's vertices in order)
    std::vector<uint32_t> edge_nei;    // per edge slot: neighbour polygon across it, kNoPoly = wall
    std::vector<uint32_t> edge_opp;    // per edge slot: the neighbour's edge slot of the same portal, kNoEdge = wall
    std::vector<uint32_t> edge_poly;   // per edge slot: the polygon that owns it
    std::vector<float> edge_mid;       // per edge slot: x, y, z of the edge midpoint
    std::vector<uint8_t> areas;        // per polygon: area id (0..63)
    std::vector<uint16_t> flags;       // per polygon: user flags (filter include / exclude masks)
    std::vector<float> poly_bounds;    // per polygon: bmin xyz, bmax xyz (y range includes the detail mesh)
    std::vector<float> poly_area_cum;  // per polygon: cumulative xz area of polygons 0..p (random points)
    // Distances between the edge midpoints of each polygon: polygon p with n edges owns the n x n
    // block at pair_first[p], row = entry edge (local index), column = exit edge.
    std::vector<uint32_t> pair_first;  // npolys
    std::vector<float> pair_dist;
    std::vector<uint8_t> poly_portals; // per polygon: number of edges with a neighbour (1 = dead end)
    // Islands: polygons connected through portals (ignoring flags) share an island id. Different
    // islands mean no path under any filter. island_portals lists, per island, its portal edge slots.
    std::vector<uint32_t> poly_island;    // per polygon
    std::vector<uint32_t> island_first;   // nislands + 1
    std::vector<uint32_t> island_portals;
    int nislands = 0;
    // Landmarks for the A* heuristic (ALT): per island up to kLandmarks portal edge slots; for
    // every edge slot the shortest distance, walking between portal midpoints through the
    // polygons, to each landmark of its island (0 in unused columns and for walls).
    // Distances are metric, so |d(L, goal) - d(L, s)| is a lower bound on the walk from s to goal.
    static constexpr int kLandmarks = 8;
    std::vector<float> landmark_dist;      // nedges * kLandmarks
    std::vector<uint8_t> island_landmarks; // per island: number of landmarks in use

    // Detail triangles per polygon, resolved to world coordinates: 9 floats per triangle.
    std::vector<uint32_t> dtri_first;  // npolys + 1
    std::vector<float> dtris;
    // Per detail triangle a, b, c, the same in a form for fast height look-up: ax, az, ay, then the
    // inverse of [c-a | b-a] in xz (4 floats, row-major), then cy-ay, by-ay. ax is NaN for
    // triangles degenerate in xz (they never contain a point).
    std::vector<float> dtri_fast;

    std::vector<BVNode> bvtree;

    int npolys = 0, nverts = 0, nedges = 0;
    float bmin[3] = {0, 0, 0}, bmax[3] = {0, 0, 0};

    int poly_vert_count(uint32_t p) const { return static_cast<int>(poly_first[p + 1] - poly_first[p]); }
    const float* vert(uint32_t v) const { return &verts[static_cast<size_t>(v) * 3]; }
    // The edge slot after `e` in its polygon (wrapping to the first).
    uint32_t next_edge(uint32_t e) const {
        const uint32_t n = e + 1;
        return n == poly_first[edge_poly[e] + 1] ? poly_first[edge_poly[e]] : n;
    }
    // Portal endpoints of edge slot e, seen from its polygon: left = first vertex, right = second.
    void edge_points(uint32_t e, float* left, float* right) const;
    // xz-projected area of polygon p, square metres (poly_area_cum sums it; islands measure by it).
    double poly_area_xz(uint32_t p) const;
    // The edge slot of polygon `from` leading to polygon `to`, or kNoEdge when they are not adjacent.
    uint32_t find_edge(uint32_t from, uint32_t to) const;
    // Height of the detail surface of polygon p at (x, z). Returns false when (x, z) is outside
    // every detail triangle (beyond a small tolerance); *y is then the height of the nearest one.
    bool poly_height(uint32_t p, float x, float z, float* y) const;
    bool empty() const { return npolys == 0; }
};

// Builds the runtime mesh, reusing out's buffers. Fails (BadInput) on inconsistent input: index
// out of range, a detail mesh that does not match the polygons, polygons wound the wrong way, or
// adjacency that is not symmetric; `out` is then left empty. Neighbour entries flagged 0x8000 are
// tile-border portals only when mesh.border_size > 0 (walls here, with one tile); without tiles
// they are plain polygon indices, so a single tile may hold more than 32767 polygons.
// The detail mesh follows rcPolyMeshDetail: sub-mesh p's first vertices copy polygon p's, and
// triangle indices are local to the sub-mesh (vert_base + index). An empty detail mesh
// (nmeshes == 0) is allowed: heights then come from the polygons themselves.
Status build_navmesh(const PolyMesh& mesh, const PolyMeshDetail& detail, NavMesh& out);

}  // namespace nav
