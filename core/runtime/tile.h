// The one type where the bake and the runtime meet: a navmesh tile in world units. The voxel bake
// (core/pipeline/tile_builder.h) and the 2D-map front end (core/map2d/map2d_tile.h) produce tiles; a
// Detour file reader will produce the same type. A NavMesh (core/runtime/navmesh.h) is a set of tiles and stitches them.
//
// Plain data, flat arrays, local indices. Conventions (Recast's and Detour's): polygons are convex
// and wound clockwise in the (x, z) plane (signed area sum(x_i * z_i+1 - x_i+1 * z_i) <= 0); edge j
// of a polygon runs from its vertex j to vertex j+1.
#pragma once
#include <cstdint>
#include <vector>

namespace nav {

constexpr uint32_t kNoPoly = 0xffffffffu;
// Tile-border portal marker in NavTile::edge_nei: kTilePortal | side, side 0 = -x, 1 = +z, 2 = +x,
// 3 = -z (the grid direction order of core/common.h). The NavMesh links such an edge to the
// polygons of the neighbouring tile whose edge on the opposite side overlaps it.
constexpr uint32_t kTilePortal = 0x80000000u;
// PolyMesh leaves polygon flags at 0. Such polygons get this flag in a tile, so the default
// query filter (include 0xffff, Detour's "at least one included flag" rule) passes them.
constexpr uint16_t kPolyFlagDefault = 0x0001;
// Set on polygons a prune left unreachable; the default query filter excludes it.
constexpr uint16_t kPolyFlagDisabled = 0x8000;
constexpr int kMaxAreas = 64;
// A polygon every agent type may use (NavTile::types empty).
constexpr uint16_t kAllAgentTypes = 0xffff;

// Bounding-volume tree node over polygon bounds, stored in pre-order. A leaf (index >= 0) holds
// one polygon; an interior node stores -(size of its subtree), the jump past it when the query
// box misses its bounds.
struct BVNode {
    float bmin[3], bmax[3];
    int32_t index;
};

// An off-mesh link (Detour's off-mesh connection): a jump, drop, ladder, door, zip line or
// teleporter between two points the voxel bake cannot see. Links are an input of the NavMesh
// (build_navmesh's `links`), separate from the tiles, so adding or removing one re-bakes and
// re-stitches no tile; a tile may also carry links (NavTile::links, e.g. from a Detour file),
// which build_navmesh links the same way. The two ends may lie in any two tiles. See navmesh.h
// ("Off-mesh links") for how an end connects to a polygon and query.h for how A* costs them.
struct OffMeshLink {
    float start[3] = {0, 0, 0}, end[3] = {0, 0, 0};
    float radius = 0;        // how near (xz, metres) a polygon each end must be to connect to it
    uint16_t flags = kPolyFlagDefault;  // filtered as polygon flags are (include / exclude masks)
    uint8_t area = 0;        // area id 0..63: the traversal is costed by this area's cost
    bool bidir = true;       // usable from end to start as well
    uint32_t user_id = 0;    // the caller's name for the link, carried through to NavMesh::link_user_id
    bool operator==(const OffMeshLink&) const = default;
};

struct NavTile {
    // Position in the tile grid (solo bake: 0, 0). Several tiles may share x, z on different
    // layers; (x, z, layer) names a tile within a NavMesh.
    int32_t x = 0, z = 0, layer = 0;
    float bmin[3] = {0, 0, 0}, bmax[3] = {0, 0, 0};  // bounds of the tile's polygons and detail
    // The agent the tile was baked for, metres (for the file formats and the crowd to come).
    float walkable_height = 0, walkable_radius = 0, walkable_climb = 0;

    std::vector<float> verts;          // x, y, z per vertex
    std::vector<uint32_t> poly_first;  // npolys + 1: polygon p's vertices are edge_vert[poly_first[p] .. poly_first[p+1])
    std::vector<uint32_t> edge_vert;   // per edge slot: its first vertex (local)
    std::vector<uint32_t> edge_nei;    // per edge slot: local polygon, kNoPoly = wall, kTilePortal | side
    std::vector<uint8_t> areas;        // per polygon: area id 0..63
    std::vector<uint16_t> flags;       // per polygon: user flags
    // Per polygon: the agent types that may use it, bit t for the bake's agent type t (QueryFilter::
    // agent_type); empty: every type may (a bake of one type, a Detour file).
    std::vector<uint16_t> types;
    // Detail triangles per polygon for heights, world coordinates, 9 floats per triangle.
    // Empty detail_first means none: heights then come from a fan of the polygon itself.
    std::vector<uint32_t> detail_first;  // npolys + 1 (or empty)
    std::vector<float> detail_tris;
    // Bounding-volume tree over the polygons (pre-order, see BVNode). Optional: a NavMesh builds it
    // when empty, so a producer may leave it out; a file format stores it.
    std::vector<BVNode> bvtree;
    std::vector<OffMeshLink> links;  // off-mesh links starting in this tile (none from the voxel bake)

    int npolys() const { return poly_first.empty() ? 0 : static_cast<int>(poly_first.size() - 1); }
    int nverts() const { return static_cast<int>(verts.size() / 3); }
    int poly_vert_count(uint32_t p) const { return static_cast<int>(poly_first[p + 1] - poly_first[p]); }
};

}  // namespace nav
