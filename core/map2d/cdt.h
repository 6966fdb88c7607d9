// 2D maps, stage 2: constrained Delaunay triangulation with holes (seed 002), our own.
//  1. incremental Delaunay: the points are inserted one by one into a large enclosing triangle
//     (walk to the containing triangle, split it in 3, or the two triangles of an edge in 4 when
//     the point lies on it; Lawson flips restore the empty-circle property);
//  2. the constraint edges are inserted (Sloan's method: flip the edges that cross the
//     constraint away, then Lawson flips on the new edges, never across a constraint). A vertex
//     lying on a constraint splits it in two;
//  3. the triangles outside the domain are removed: a flood fill from the enclosing triangle
//     counts constraint crossings, odd counts are inside (holes and the outside are even).
// Each step can be recorded; cdt_build with `stop_after` > 0 stops after that many recorded
// steps and returns the triangulation as it is then (for a viewer's step slider).
// Predicates are evaluated in long double around the points' centre: exact for moderate integer
// coordinates, robust enough for map data in general.
#pragma once
#include <cstdint>
#include <vector>

#include "core/common.h"
#include "core/map2d/rings.h"

namespace nav::map2d {

struct CdtInput {
    std::vector<double> xz;            // points, 2 doubles each
    std::vector<uint32_t> constraints; // pairs of point indices
};

struct CdtStep {
    enum Kind : uint8_t { InsertPoint = 0, Flip = 1, InsertConstraint = 2, RemoveOutside = 3 };
    uint8_t kind;
    uint32_t a, b, c, d;  // InsertPoint: a = point; Flip: edge a-b replaced by c-d;
                          // InsertConstraint: a-b; RemoveOutside: a = triangles kept
};

struct CdtTrace {
    std::vector<CdtStep> steps;
};

struct CdtResult {
    // Points: the input points (duplicates map to the first copy, see point_map) followed, when
    // the result is an intermediate step, by the 3 enclosing points.
    std::vector<double> xz;
    std::vector<uint32_t> point_map;  // per input point: its point in xz
    std::vector<uint32_t> tris;       // 3 points per triangle, counter-clockwise
    std::vector<uint32_t> nei;        // per triangle edge i (tris[3t+i] -> tris[3t+(i+1)%3]): neighbour or UINT32_MAX
    std::vector<uint8_t> constrained; // per triangle edge: 1 when it is a constraint edge
};

// Triangulates the domain bounded by the constraints. With `keep_all` (or when stopped early)
// the outside triangles and the enclosing ones are kept. Fails on non-finite points, constraint
// indices out of range, crossing constraints, or when fewer than 3 distinct points are given.
Status cdt_build(const CdtInput& in, CdtResult& out, CdtTrace* trace = nullptr,
                 uint32_t stop_after = 0, bool keep_all = false);

// The CDT input for the free space bounded by rings (outer rings and holes): every ring vertex a
// point, every ring edge a constraint.
CdtInput cdt_input_from_rings(const Rings& rings);

}  // namespace nav::map2d
