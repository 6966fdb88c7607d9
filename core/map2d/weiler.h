// 2D maps, stage 1: polygon clipping in the manner of Weiler-Atherton (seed 002): the union of
// overlapping obstacles, the free space as the outline minus that union, optional inflation of
// obstacles by the agent radius.
//
// How it works (Weiler's polygon graph, made robust to degenerate input):
//  1. every edge of both operands is split at every point where it meets another edge: proper
//     crossings, vertices lying on edges, shared vertices, overlapping collinear parts. Points
//     closer than a tolerance (1e-12 of the extent) are one vertex, so overlapping collinear edges
//     become one shared sub-edge;
//  2. each sub-edge gets the winding numbers of both operands on its left and right side
//     (Sunday's crossing rule at a point just off the edge, closer than any other edge);
//  3. the classic entering / leaving labels follow: along each input ring, the sub-edge after an
//     intersection vertex is inside the other operand (entering), outside it (leaving) or on its
//     boundary (shared edge); they are recorded in the trace as Weiler-Atherton's intersection
//     lists (for a union of many rings in one operand, "the other" is the other rings);
//  4. a sub-edge is in the result boundary when the result region lies on exactly one side; the
//     kept edges are linked into rings, at a vertex with several choices taking the first edge
//     clockwise from the arriving one, so rings touching at a vertex come out as separate simple
//     rings (outer rings counter-clockwise, holes clockwise), collinear vertices removed.
// Cost: the intersections, the nearest edge of each sub-edge and the winding numbers (a ray to +x)
// look only at the edges listed in a uniform grid of edge buckets along the way (seg_grid.h), about
// E sqrt(E) for E edges spread over the map instead of E^2; at most 2^22 crossings per clip
// (BadInput beyond, docs/formats.md).
#pragma once
#include <cstdint>
#include <vector>

#include "core/common.h"
#include "core/map2d/rings.h"

namespace nav::map2d {

enum class ClipOp : uint8_t { Union, Intersection, Difference, Xor };
// NonZero: inside where the winding number is not 0; Positive: where it is > 0 (a clockwise ring
// then cuts a hole out of a counter-clockwise one).
enum class FillRule : uint8_t { NonZero, Positive };

// One vertex of an input ring where the ring's next sub-edge changes its relation to the other
// operand: Weiler-Atherton's entering / leaving intersection lists.
struct ClipCrossing {
    enum Kind : uint8_t { Entering = 0, Leaving = 1, OnBoundary = 2 };
    uint32_t vertex;  // index into ClipTrace::verts
    uint32_t ring;    // input ring within its operand
    uint8_t operand;  // 0 = subject (a), 1 = clip (b)
    uint8_t kind;
};

// The recorded steps of one clip: the split vertices, every sub-edge with its winding numbers and
// whether it was kept (and in which direction), the intersection lists and the output rings in
// the order they were traced. Plain data for a caller that draws them.
struct ClipTrace {
    std::vector<double> verts;          // x, z per split vertex
    std::vector<uint32_t> edges;        // v0, v1 per sub-edge (v0 < v1)
    std::vector<int32_t> edge_winding;  // per sub-edge: a left, a right, b left, b right (of v0->v1)
    std::vector<int8_t> edge_kept;      // per sub-edge: +1 kept as v0->v1, -1 as v1->v0, 0 dropped
    std::vector<ClipCrossing> crossings;
    Rings result;
};

// Boolean operation on two sets of rings. Rings may be in any orientation, self-intersecting and
// overlapping; the fill rule decides what is inside. Fails (BadInput) only on non-finite
// coordinates. The result replaces `out`.
Status clip_polygons(const Rings& a, const Rings& b, ClipOp op, FillRule fill, Rings& out,
                     ClipTrace* trace = nullptr);

// The region covered by the disc of radius r around every point of each solid ring (the
// Minkowski sum), approximated from outside: a regular polygon with `sides` sides that
// contains the disc stands in for the disc. Each ring is taken as a solid polygon whatever its
// winding. r <= 0 returns the union of the rings.
Status inflate_polygons(const Rings& solids, double r, int sides, Rings& out);

// The band of half-width r around the boundary of every ring (outside and inside), built from
// the same pieces; the free space of an outline shrunk by r is the outline minus this band.
Status boundary_band(const Rings& rings, double r, int sides, Rings& out);

// Appends the pieces whose union is that band: per edge the rectangle of half-width r around it,
// per vertex the part of a regular polygon with `sides` sides containing the disc of radius r
// that the rectangles leave out: the wedge of directions in which the vertex is the nearest point
// of the boundary, as wide as the turn there (all counter-clockwise). Only wedges, not whole
// discs: a ring of many short edges (10^5 points on a circle) would otherwise pile up discs that
// all overlap each other.
void band_pieces(const Rings& rings, double r, int sides, Rings& pieces);
// The same for edges and vertices [i0, i1) of the closed ring p of n points, unoriented (the
// caller makes them counter-clockwise); the vertices' wedges use the ring's edges on both sides.
void band_pieces_range(const double* p, uint32_t n, uint32_t i0, uint32_t i1, double r, int sides, Rings& pieces);

// Makes every ring counter-clockwise (a solid polygon).
void make_counter_clockwise(Rings& r);

}  // namespace nav::map2d
