// Optimal any-angle paths on a navmesh: Polyanya (Cui, Harabor, Grastien, IJCAI 2017).
//
// A* over search nodes (I, r): an interval I on a polygon edge and a root r (the start or an
// obstacle corner) from which every point of I is visible; g = the shortest distance to r,
// h = the distance from r through I to the goal (reflected across I's line when needed). A node
// expands into the polygon beyond its interval: the edges seen from r through I give observable
// successors (same root), the parts hidden behind an interval end that is a corner give
// non-observable successors rooted at that corner. Root-level pruning: a root is a corner (a vertex
// within one sector of the polygons around it: vertices where obstacles touch have several) with
// the best g it was reached with and the expansion that reached it so; a node arriving at the root
// with a larger g is dropped, and so is one arriving with the same g from another expansion (ties:
// on a lattice of obstacles many corner sequences have exactly the same length, and re-searching
// from the root once per sequence grows exponentially; any point a tie would reach optimally
// through the root, the first arrival reaches too, as a path turning at the root is taut from
// every optimal predecessor or from none). The first goal node popped gives the Euclidean-shortest path in the
// (x, z) projection, along polygon adjacency only, so stacked floors of a 3D navmesh never see
// each other; the path's points carry the polygon each lies in (a turning point: a polygon it is a
// corner of), so a caller can lift them onto that polygon's detail surface (NavQuery::find_route
// with RouteOptions::optimal does); the heights here are the vertices', of the end points the caller's.
//
// The search runs over PolyanyaMesh, a small adapter of its own (polygons counter-clockwise in xz,
// a neighbour per edge, corner flags per vertex) filled from the NavMesh by one function, so a
// NavMesh change touches only polyanya_mesh_from_navmesh.
#pragma once
#include <cstdint>
#include <vector>

#include "core/common.h"
#include "core/runtime/navmesh.h"

namespace nav {

struct PolyanyaMesh {
    std::vector<double> verts;         // x, y, z per vertex
    std::vector<uint8_t> corner;       // per vertex: 1 when it touches a wall edge (a path may turn there)
    std::vector<uint32_t> poly_first;  // npolys + 1: polygon p's vertices poly_verts[poly_first[p] ..), counter-clockwise in xz
    std::vector<uint32_t> poly_verts;
    std::vector<uint32_t> poly_nei;    // per slot i: polygon across vertex i -> i+1, kNoPoly = wall
    std::vector<uint32_t> slot_opp;    // per slot: the neighbour's slot of the same edge, kNoPoly = wall
    std::vector<uint32_t> poly_island; // per polygon: the NavMesh's island (different islands: no path, no search)
    // derived, for the search's inner loop (contiguous, no per-node recomputation)
    std::vector<double> xz;            // x, z per vertex
    std::vector<uint32_t> slot_next;   // per slot: the next slot of its polygon (wrapping around)
    std::vector<double> slot_len;      // per slot: the edge's length in xz
    std::vector<uint8_t> dead_end;     // per polygon: at most one open edge (a path entering leaves the way it came)
    std::vector<uint32_t> slot_root;   // per slot: the root id of the corner at its first vertex (one id per
                                       // vertex and sector of polygons around it joined by open edges)
    uint32_t nroots = 0;
    double eps = 0;                    // orientation tolerance, from the mesh's extent
    uint32_t npolys() const { return poly_first.empty() ? 0 : uint32_t(poly_first.size() - 1); }
};

// The adapter, from the dense NavMesh: polygons reversed to counter-clockwise, polygons that fail
// the flag masks (a QueryFilter's rule: some include flag, no exclude flag; by default those with
// kPolyFlagDisabled) left without neighbours (walls to everyone else).
Status polyanya_mesh_from_navmesh(const NavMesh& mesh, PolyanyaMesh& out, uint16_t include_flags = 0xffff,
                                  uint16_t exclude_flags = kPolyFlagDisabled, uint16_t type_bit = kAllAgentTypes);

// One search node as the trace records it (in expansion order): the interval's ends (x, z), the
// root (x, z), the polygon the node looks into, f and g.
struct PolyanyaNode {
    double left[2], right[2], root[2];
    uint32_t poly;
    double f, g;
};

struct PolyanyaTrace {
    std::vector<PolyanyaNode> expanded;
    void clear() { expanded.clear(); }
};

struct PolyanyaPath {
    std::vector<float> points;  // x, y, z per turning point, start first, goal last
    std::vector<uint32_t> polys; // per point: the polygon it lies in (start_poly, a polygon the turning point is a corner of, goal_poly)
    double length_xz = 0;       // length of the path in the (x, z) projection
    bool found = false;
    // The node cap was hit before the goal was reached: points holds a partial path (a valid one,
    // not necessarily the shortest to its end) from the start toward the goal, ending at the point
    // nearest the goal on the interval of a search node generated; found stays false.
    bool out_of_nodes = false;
    int expanded = 0, generated = 0;
};

// The default cap on Polyanya's search nodes per query (about 80 bytes each).
constexpr uint32_t kPolyanyaMaxNodes = uint32_t(1) << 23;

namespace polyanya_detail {
struct Node {
    double lx, lz, rx, rz;  // interval ends: left (near the entry slot's first vertex), right
    uint32_t root;          // the start, or a corner: a slot (in a polygon the root is a corner of) whose first vertex is the root
    uint32_t poly, slot;    // polygon looked into, its entry slot (global)
    uint32_t lcorner, rcorner;  // when an interval end is a vertex of the edge crossed: that vertex as a corner (slot) of the parent's polygon
    uint32_t parent;
    double g, f;
    bool goal;
};
struct HeapEntry {
    double f;
    uint32_t node;
};
struct RootBest {
    double g;
    uint32_t gen;    // g is valid when gen is the workspace's current generation
    uint32_t owner;  // the node whose expansion reached the root with g
};
}  // namespace polyanya_detail

// Buffers a search reuses from one query to the next (no allocation per query once warm):
// the node pool, the open list (a binary heap), the best g per root (reset by a
// generation counter, not by clearing). One per thread; NavQuery keeps one.
struct PolyanyaWorkspace {
    std::vector<polyanya_detail::Node> nodes;
    std::vector<polyanya_detail::HeapEntry> heap;
    std::vector<polyanya_detail::RootBest> best;
    std::vector<uint32_t> pending, roots, root_polys;
    uint32_t gen = 0;
    uint32_t dropped = 0;  // successors of the node being expanded dropped as dead ends
};

// Shortest path from `start` (in polygon start_poly, dense index) to `goal` (in goal_poly).
// `workspace` (optional): buffers kept across queries; without it the call allocates its own.
// `max_nodes`: the most search nodes generated (0 = no limit); past it the search stops with
// out.out_of_nodes and a partial path (not an error).
// Fails (BadInput) on polygon indices out of range or non-finite points; no path is found = false.
Status polyanya_find_path(const PolyanyaMesh& m, uint32_t start_poly, const float* start, uint32_t goal_poly,
                          const float* goal, PolyanyaPath& out, PolyanyaTrace* trace = nullptr,
                          PolyanyaWorkspace* workspace = nullptr, uint32_t max_nodes = kPolyanyaMaxNodes);

}  // namespace nav
