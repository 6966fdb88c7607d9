// The runtime navigation mesh: a set of tiles (core/runtime/tile.h) stitched into one query-ready
// graph in world units, as flat arrays: polygon vertices, per polygon a range of edge slots (one
// per vertex: edge j runs from vertex j to vertex j+1), the neighbour across each edge, area and
// flags per polygon, the detail triangles for heights, and a forest of bounding-volume trees (one
// per tile) for point location. Path queries on it live in core/runtime/query.h.
//
// Polygons have two names. A dense index (uint32_t, 0..npolys-1) addresses the flat arrays of this
// mesh as built; it means nothing in another build. A PolyRef {salt, tile slot, polygon in tile}
// is what a caller keeps: a tile keeps its slot while it exists, and every rebuild of the tile
// bumps the slot's salt, so a reference into a rebuilt tile is detectably stale (Detour's
// dtPolyRef). The two never mix: PolyRef is its own type (below), so an index does not pass for a
// reference (NavMesh::ref and poly_index convert).
//
// Stitching: a tile edge marked kTilePortal | side is linked to the polygons of the tiles next to
// it on that side (any layer) whose edge on the opposite side lies on the same line, overlaps it
// and comes within walkable_climb in height (Detour's connectExtLinks). Where such an edge meets
// several polygons, or only part of one, the graph splits it at the ends of each overlap, so every
// edge slot still has one neighbour or is a wall; the pieces are collinear, the polygon stays convex.
//
// Conventions (Recast's): polygons are convex and wound clockwise in the (x, z) plane, i.e. the
// signed area sum(x_i * z_i+1 - x_i+1 * z_i) is negative; for an edge slot the portal's "left"
// end is the edge's first vertex and its "right" end the second, seen from the polygon that owns
// the slot (Detour's getPortalPoints).
#pragma once
#include <atomic>
#include <mutex>
#include <cstdint>
#include <memory>
#include <functional>
#include <span>
#include <type_traits>
#include <vector>

#include "core/common.h"
#include "core/runtime/tile.h"

namespace nav {

constexpr uint32_t kNoEdge = 0xffffffffu;
// Edge slots a polygon of the graph may have: a tile's polygons have at most 12 vertices (Recast's
// limit), stitching may split their tile-border edges into pieces.
constexpr int kMaxPolyEdges = 48;

// A polygon reference: salt (20 bits) | tile slot (22 bits) | polygon within the tile (22 bits),
// packed in 64 bits. A struct rather than an integer so that a dense index (or any other integer)
// passed where a reference is expected does not compile: a reference comes from NavMesh::ref, a
// query's result or make_poly_ref, and value() / PolyRef{uint64_t} carry it through files and
// printouts. Default-constructed it is kNoRef. Trivially copyable, 8 bytes: as cheap as the integer.
struct PolyRef {
    uint64_t bits = 0xffffffffu;  // kNoRef's packed value (see below)

    constexpr PolyRef() = default;
    constexpr explicit PolyRef(uint64_t packed) : bits(packed) {}
    // A dense index (uint32_t) or an int is not a packed reference: PolyRef{p} with one does not
    // compile (use NavMesh::ref(p), or make_poly_ref for a reference built field by field).
    PolyRef(uint32_t) = delete;
    PolyRef(int32_t) = delete;
    constexpr uint64_t value() const { return bits; }
    friend constexpr bool operator==(PolyRef a, PolyRef b) { return a.bits == b.bits; }
    friend constexpr bool operator!=(PolyRef a, PolyRef b) { return a.bits != b.bits; }
};
static_assert(sizeof(PolyRef) == 8 && std::is_trivially_copyable_v<PolyRef>, "PolyRef must cost what a uint64_t does");
// "No polygon": the packed value kNoPoly (never a valid reference: its polygon field is all ones).
constexpr PolyRef kNoRef{uint64_t{kNoPoly}};
constexpr int kRefPolyBits = 22, kRefSlotBits = 22, kRefSaltBits = 20;
constexpr uint32_t kMaxTilePolys = (1u << kRefPolyBits) - 1;  // kNoRef's polygon field stays invalid
constexpr uint32_t kMaxTileSlots = 1u << kRefSlotBits;
constexpr uint32_t kSaltMask = (1u << kRefSaltBits) - 1;
constexpr PolyRef make_poly_ref(uint32_t salt, uint32_t slot, uint32_t poly) {
    return PolyRef{(static_cast<uint64_t>(salt & kSaltMask) << (kRefPolyBits + kRefSlotBits)) |
                   (static_cast<uint64_t>(slot) << kRefPolyBits) | poly};
}
constexpr uint32_t ref_poly(PolyRef r) { return static_cast<uint32_t>(r.value() & ((1u << kRefPolyBits) - 1)); }
constexpr uint32_t ref_slot(PolyRef r) { return static_cast<uint32_t>((r.value() >> kRefPolyBits) & (kMaxTileSlots - 1)); }
constexpr uint32_t ref_salt(PolyRef r) { return static_cast<uint32_t>(r.value() >> (kRefPolyBits + kRefSlotBits)); }

// A tile's part of the graph in the tile's own numbering: its edges as stitched to the tiles next
// to it (pieces of split border edges, neighbours as slot + polygon), the split vertices, and what
// queries need per polygon (midpoint distances, detail triangles, bounds, area). Immutable once
// made; the next build_navmesh reuses it while the tile and every tile next to it are the same
// objects, so rebuilding one tile recomputes it and its neighbours, and only copies the rest.
struct TileGraph {
    std::vector<std::shared_ptr<const NavTile>> stitched_to;  // the tiles next to it, as stitched
    std::vector<float> verts;        // the tile's vertices, then the split vertices
    std::vector<uint32_t> poly_first, edge_vert;
    std::vector<uint32_t> nei_slot;  // per edge: slot of the neighbour, kNoPoly = wall
    std::vector<uint32_t> nei_poly;  // per edge: the neighbour in that slot's numbering
    std::vector<uint32_t> opp;       // per edge: the twin edge inside the tile, else kNoEdge
    std::vector<float> edge_mid;
    std::vector<uint32_t> pair_first;
    std::vector<float> pair_dist;
    std::vector<uint32_t> dtri_first;
    std::vector<float> dtris, dtri_fast;
    std::vector<float> poly_bounds;
    std::vector<double> poly_area;
    std::vector<BVNode> bvtree;      // only when the tile came without one
    // For islands without a whole-world flood fill: each polygon's component through the tile's
    // own portals (numbered in order of their lowest polygon), and the edges stitched to other
    // tiles (the only ones the assembly must pair up and join components across).
    std::vector<uint32_t> poly_comp;
    uint32_t ncomp = 0;
    std::vector<uint32_t> cross_edges;
    float bmin[3] = {0, 0, 0}, bmax[3] = {0, 0, 0};  // of poly_bounds
    int split_edges = 0;
};

// One tile of a NavMesh: the tile (shared, immutable), its salt, and where its polygons start in
// the dense numbering. An empty slot (tile == nullptr) keeps its salt for the next tile there.
struct TileSlot {
    std::shared_ptr<const NavTile> tile;
    uint32_t salt = 0;
    uint32_t poly_base = 0;  // dense index of the tile's polygon 0
    uint32_t vert_base = 0;  // first of the tile's vertices in NavMesh::verts
    uint32_t edge_base = 0;  // first of the tile's edge slots
    std::shared_ptr<const TileGraph> graph;
};

// The landmark table of a NavMesh (ALT): per island up to NavMesh::kLandmarks portal edge slots;
// for every edge slot the shortest distance, walking between portal midpoints through the
// polygons, to each landmark of its island (0 in unused columns and for walls). Distances are
// metric, so |d(L, goal) - d(L, s)| is a lower bound on the walk from s to goal. One table for the
// whole mesh, across tiles (an island spans tiles): build_navmesh copies an island's columns from
// `previous` when none of its tiles' graphs changed and that island was computed there, and
// computes (or, deferred, leaves pending) the islands touching a changed tile. Immutable once made.
struct LandmarkTable {
    std::vector<float> dist;        // nedges * kLandmarks
    std::vector<uint8_t> count;     // per island: number of landmarks in use (0 while pending)
    std::vector<uint8_t> pending;   // per island: 1 = not computed yet
    int islands_pending = 0;        // islands (with portals) still to compute
    int islands_reused = 0;         // islands (with portals) the build copied from `previous`
    double ms = 0;                  // wall time spent computing this table's islands (the build's
                                    // share, or build's + complete_landmarks')
};
// Holds the newest table of one graph; the copies of a mesh share it, so completing the table of
// one completes it for all (a snapshot and its relinked or pruned copy). A mutex, not
// std::atomic<std::shared_ptr>: libstdc++ 12's guards the pointer with a lock bit that
// ThreadSanitizer does not see, and a lock held for a pointer copy costs a query nothing it notices.
class LandmarkCell {
public:
    std::shared_ptr<const LandmarkTable> load() const {
        std::lock_guard lk(m_);
        return table_;
    }
    void store(std::shared_ptr<const LandmarkTable> t) {
        std::lock_guard lk(m_);
        table_.swap(t);  // the old table is released after the lock, outside it
    }

private:
    mutable std::mutex m_;
    std::shared_ptr<const LandmarkTable> table_;
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
    std::vector<uint16_t> types;       // per polygon: agent types mask (NavTile::types; kAllAgentTypes for a tile without)
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
    // Landmarks for the A* heuristic (ALT), a table shared by every copy of this graph (a copy
    // with other links or flags walks the same portals): landmarks() is the newest, null before
    // the first build. build_navmesh fills it, or with defer_landmarks leaves the islands touching
    // a changed tile pending (their queries fall back to the straight-line bound, still exact)
    // until complete_landmarks publishes the whole table; a query reads the table it starts with.
    static constexpr int kLandmarks = 8;
    std::shared_ptr<LandmarkCell> landmark_cell;
    std::shared_ptr<const LandmarkTable> landmarks() const;

    // Off-mesh links (tile.h's OffMeshLink), resolved against this mesh, as flat arrays indexed by
    // link: first build_navmesh's `links` in their order, then those the tiles carry (NavTile::links)
    // in slot order, each tile's in its order. Each end connects to the polygon nearest to it
    // among those overlapping the box end +- (radius, max(radius, walkable_climb), radius) (the
    // climb: the largest of the tiles'), whatever the polygon's flags (kPolyFlagDisabled included;
    // flags 0, which pass no filter, excluded), and only when the nearest
    // point of that polygon lies within `radius` in xz; the end then moves to that nearest point
    // (link_start / link_end hold the moved ends). An end with no such polygon leaves the link
    // unconnected: kept here (link_status says which end failed, for a UI to show), never used by
    // a query. A connected link is traversed start -> end, and end -> start as well when bidir;
    // traversal id = link * 2 + (0 start -> end, 1 end -> start).
    enum LinkStatus : uint8_t {
        kLinkConnected = 0,
        kLinkStartUnconnected = 1,  // no polygon within reach of the start
        kLinkEndUnconnected = 2,    // no polygon within reach of the end (both bits: neither end)
    };
    std::vector<float> link_start, link_end;   // per link: x, y, z (moved onto the polygon when connected)
    std::vector<uint32_t> link_start_poly;     // per link: dense polygon of the start, kNoPoly when unconnected
    std::vector<uint32_t> link_end_poly;       // per link: dense polygon of the end, kNoPoly when unconnected
    std::vector<float> link_length;            // per link: |link_end - link_start| (3D), metres
    std::vector<uint8_t> link_area;            // per link: area id
    std::vector<uint16_t> link_flags;          // per link: flags (filter include / exclude masks)
    std::vector<uint8_t> link_bidir;           // per link: 1 = two-way
    std::vector<uint8_t> link_status;          // per link: LinkStatus bits (0 = connected)
    std::vector<uint32_t> link_user_id;        // per link: OffMeshLink::user_id
    int nlinks = 0, nlinks_connected = 0;
    // Per polygon, the traversals leaving it (connected links only; a two-way link gives two, one
    // from each end's polygon): traversal ids in poly_link_trav[poly_link_first[p] ..
    // poly_link_first[p+1]). Empty (size 0) when the mesh has no connected link.
    std::vector<uint32_t> poly_link_first;     // npolys + 1, or empty
    std::vector<uint32_t> poly_link_trav;
    // Island-level directed graph of the traversals: island i's outgoing traversals lead to the
    // islands island_link_to[island_link_first[i] .. island_link_first[i+1]) (deduplicated,
    // ignoring flags, self-loops left out). Empty when the mesh has no connected link. The portal
    // islands themselves (poly_island, landmarks) ignore links; island_has_out_link marks the
    // islands a path can leave through a link.
    std::vector<uint32_t> island_link_first;   // nislands + 1, or empty
    std::vector<uint32_t> island_link_to;
    std::vector<uint8_t> island_has_out_link;  // per island (empty when no connected link)
    // Traversal t's from / to point and polygons.
    const float* trav_from(uint32_t t) const { return &((t & 1) ? link_end : link_start)[static_cast<size_t>(t >> 1) * 3]; }
    const float* trav_to(uint32_t t) const { return &((t & 1) ? link_start : link_end)[static_cast<size_t>(t >> 1) * 3]; }
    uint32_t trav_from_poly(uint32_t t) const { return (t & 1) ? link_end_poly[t >> 1] : link_start_poly[t >> 1]; }
    uint32_t trav_to_poly(uint32_t t) const { return (t & 1) ? link_start_poly[t >> 1] : link_end_poly[t >> 1]; }
    // Whether a path may lead from island a to island b (same island, or a chain of link
    // traversals between islands, flags ignored). `stack` and `seen` are the caller's scratch.
    bool island_reaches(uint32_t a, uint32_t b, std::vector<uint32_t>& stack, std::vector<uint8_t>& seen) const;

    // Detail triangles per polygon, resolved to world coordinates: 9 floats per triangle.
    std::vector<uint32_t> dtri_first;  // npolys + 1
    std::vector<float> dtris;
    // Per detail triangle a, b, c, the same in a form for fast height look-up: ax, az, ay, then the
    // inverse of [c-a | b-a] in xz (4 floats, row-major), then cy-ay, by-ay. ax is NaN for
    // triangles degenerate in xz (they never contain a point).
    std::vector<float> dtri_fast;
    // Polygons with many detail triangles (a big polygon on uneven ground: hundreds) get a grid
    // over their xz bounds for poly_height: each cell lists, ascending, the triangles whose
    // bounds (grown by the look-up's tolerance) overlap it, so the first triangle of the cell
    // holding (x, z) that contains it is the first of the polygon's, as a scan would find.
    struct DetailGrid {
        float x0, z0, inv_cx, inv_cz;  // origin and inverse cell size, xz
        uint32_t nx, nz;               // cells per axis
        uint32_t cell0;                // first cell in dgrid_cell_first
    };
    static constexpr uint32_t kGridMinTris = 16;  // fewer: scanned
    std::vector<uint32_t> poly_dgrid;        // per polygon: its grid in dgrids, or kNoPoly
    std::vector<DetailGrid> dgrids;
    std::vector<uint32_t> dgrid_cell_first;  // per cell (+ 1): range in dgrid_tris
    std::vector<uint32_t> dgrid_tris;        // triangle indices (into dtri_first's numbering)

    std::vector<BVNode> bvtree;

    int npolys = 0, nverts = 0, nedges = 0;
    float bmin[3] = {0, 0, 0}, bmax[3] = {0, 0, 0};

    // The tiles, by slot; poly_slot maps each dense polygon to its slot.
    std::vector<TileSlot> slots;
    std::vector<uint32_t> poly_slot;   // per polygon
    int ntiles = 0;                    // slots holding a tile
    int split_edges = 0;               // tile-border edges split where they meet several polygons
    int tiles_reused = 0;              // tiles whose graph the last build took from `previous` unchanged

    // The reference of dense polygon p (kNoRef for kNoPoly).
    PolyRef ref(uint32_t p) const {
        if (p >= static_cast<uint32_t>(npolys)) return kNoRef;
        const uint32_t s = poly_slot[p];
        return make_poly_ref(slots[s].salt, s, p - slots[s].poly_base);
    }
    // The dense index of a reference, or kNoPoly when it is stale (its tile was rebuilt or
    // removed) or names no polygon.
    uint32_t poly_index(PolyRef r) const {
        const uint32_t s = ref_slot(r);
        if (r == kNoRef || s >= slots.size()) return kNoPoly;
        const TileSlot& t = slots[s];
        if (!t.tile || t.salt != ref_salt(r) || ref_poly(r) >= static_cast<uint32_t>(t.tile->npolys())) return kNoPoly;
        return t.poly_base + ref_poly(r);
    }
    // The slot holding the tile at (x, z, layer), or -1.
    int find_slot(int x, int z, int layer) const;

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

// Checks a tile on its own: array sizes, indices in range, area ids, finite coordinates, convex
// polygons wound clockwise, local adjacency symmetric, portal sides 0..3. The message names the
// tile and polygon.
Status validate_tile(const NavTile& tile);
// Builds tile.bvtree over its polygons (bounds include the detail triangles).
void build_tile_bvtree(NavTile& tile);

// Assembles the mesh from a set of tiles (no two with the same x, z, layer), reusing out's
// buffers. `previous` (may be null; must not be `out`) carries the slots: a tile at the same
// coordinates keeps its slot, and keeps its salt when it is the same tile object, so references
// into unchanged tiles stay valid; a tile that changed or went away bumps its slot's salt. New
// coordinates take the lowest free slot. Fails (BadInput) on a tile that validate_tile rejects,
// duplicate coordinates or more than kMaxTilePolys polygons in a tile; `out` is then left empty.
// `links` are the off-mesh links (see "Off-mesh links" in NavMesh), in addition to those the tiles
// carry. They touch no tile's graph: a build that changes only the links reuses every tile's graph
// from `previous` (tiles_reused == ntiles, every salt kept, landmarks copied). A link with a
// non-finite end, a negative or non-finite radius or an area id > 63 is BadInput naming it
// ("navmesh: link 3: end is not finite"); an end with no polygon within reach is not an error.
// defer_landmarks: the islands whose landmarks cannot be copied from `previous` are left pending
// (see LandmarkTable) for complete_landmarks, so the mesh is ready in the time of its graph alone
// (an edit of one tile of a large level: the landmarks of its island are most of a rebuild).
Status build_navmesh(std::span<const std::shared_ptr<const NavTile>> tiles, const NavMesh* previous, NavMesh& out,
                     std::span<const OffMeshLink> links = {}, bool defer_landmarks = false);

// Computes the pending islands of mesh's landmark table and publishes the whole table (every copy
// of the mesh sees it from its next query on). Safe while other threads query the mesh; the mesh
// itself is not changed. Returns false when `cancel` was raised first (the table stays as it was),
// true when the table is complete (also when nothing was pending).
bool complete_landmarks(const NavMesh& mesh, const CancelFlag* cancel = nullptr);

// Replaces the off-mesh links of a built mesh in place (build_navmesh's `links`; the tiles' own
// links are kept), touching nothing else: no tile, salt, island or landmark changes, so it costs
// the links alone (a nearest-polygon search per end) where a build_navmesh reusing every tile
// still copies the whole mesh. Same validation as build_navmesh; on BadInput the mesh is left
// as it was. NavQuery objects bound to the mesh stay valid (they resize their node arrays on the
// next query).
Status relink_navmesh(NavMesh& mesh, std::span<const OffMeshLink> links);

// The check build_navmesh and relink_navmesh make of one link, its messages starting with `name`
// ("links[2]: start is not finite", "...: radius -1 (expected a finite radius >= 0 m)", "...: area
// id 70 > 63"): for a caller that validates links before handing them over (Pipeline::set_inputs).
Status check_offmesh_link(const OffMeshLink& link, const std::string& name);

}  // namespace nav

template <>
struct std::hash<nav::PolyRef> {
    size_t operator()(nav::PolyRef r) const noexcept { return std::hash<uint64_t>{}(r.value()); }
};
