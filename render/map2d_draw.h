// Draw builders for the 2D-map pipeline (core/map2d): the input polygons, the clipped free space
// (Weiler-Atherton's result), the constrained Delaunay triangulation, the merged convex polygons,
// and the state of a Weiler-Atherton or CDT trace at one step. Everything lies in the plane y = 0
// (x, z of the map), lifted a few centimetres per layer so they stack over the navmesh.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/map2d/map2d.h"
#include "render/draw_list.h"

namespace nav::render {

namespace map2d_colors {
constexpr uint32_t kOutline = rgba(240, 240, 248);        // the map's outline, white
constexpr uint32_t kObstacle = rgba(250, 120, 40);        // obstacles as given, orange
constexpr uint32_t kFreeOuter = rgba(60, 220, 110);       // free space: outer rings, green
constexpr uint32_t kFreeHole = rgba(240, 60, 70);         // free space: holes, red
constexpr uint32_t kTriFill = rgba(90, 150, 230, 90);     // CDT triangles, pale blue
constexpr uint32_t kTriEdge = rgba(20, 30, 60, 200);      // CDT edges
constexpr uint32_t kConstraint = rgba(255, 210, 40);      // constraint edges, yellow
constexpr uint32_t kMergedEdge = rgba(10, 10, 14, 235);   // merged polygons' edges
constexpr uint32_t kSubEdge = rgba(150, 150, 160, 170);   // WA: split sub-edges not (yet) kept
constexpr uint32_t kKeptEdge = rgba(120, 200, 255, 220);  // WA: sub-edges in the result
constexpr uint32_t kEntering = rgba(60, 230, 90);         // WA: entering intersection
constexpr uint32_t kLeaving = rgba(240, 50, 60);          // WA: leaving intersection
constexpr uint32_t kOnBoundary = rgba(250, 220, 60);      // WA: shared boundary
constexpr uint32_t kResultRing = rgba(40, 240, 250);      // WA: result rings traced so far
constexpr uint32_t kStepMark = rgba(255, 60, 230);        // CDT: what the current step did
}  // namespace map2d_colors

// Heights of the 2D layers above y = 0.
constexpr float kMap2DLiftInput = 0.06f, kMap2DLiftClipped = 0.07f, kMap2DLiftCdt = 0.05f,
                kMap2DLiftMerged = 0.055f, kMap2DLiftStep = 0.08f;

// Rings as closed polylines with their vertices as points (appends).
void add_rings(const map2d::Rings& rings, float y, uint32_t color, DrawList& out);
// Outline (white) and obstacles (orange) as given.
void build_map2d_input(const map2d::Map2D& map, DrawList& out);
// The free space: outer rings green, holes red.
void build_map2d_clipped(const map2d::Rings& free, DrawList& out);
// Triangles filled pale, their edges thin (`out`), constraint edges thick in `lines`. Triangles
// using a point at or past `nreal` (the enclosing triangle's corners while the CDT is under way)
// are left out.
void build_map2d_cdt(const map2d::CdtResult& cdt, uint32_t nreal, DrawList& out, DrawList& lines);
// Convex polygons filled by hash colour, their edges thick in `lines`.
void build_map2d_merged(const map2d::PolyMesh2D& mesh, DrawList& out, DrawList& lines);

// Weiler-Atherton trace: steps 0 .. clip_steps(trace). The split sub-edges are always shown;
// steps 1..C mark the first C intersection-list entries (entering, leaving, shared boundary);
// the steps after them show the kept sub-edges and the result rings traced so far, one per step.
size_t clip_steps(const map2d::ClipTrace& trace);
void build_clip_step(const map2d::ClipTrace& trace, size_t step, DrawList& out);
// What CDT step `step` (1-based; `state` as cdt_build(..., stop_after = step) returns it) did:
// the inserted point, the flipped-in edge or the inserted constraint, marked on top.
void build_cdt_step_mark(const map2d::CdtResult& state, const map2d::CdtTrace& trace, size_t step, DrawList& out);

}  // namespace nav::render
