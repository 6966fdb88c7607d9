// CPU picking and inspection: ray casts against the input mesh (for orbit pivots and hover) and
// lookup of the compact span under a world point, with an overlay showing its neighbour links.
#pragma once
#include <cstdint>
#include <string>

#include "core/pipeline.h"
#include "render/draw_list.h"

namespace nav::render {

// Nearest hit of the ray orig + t * dir (t >= 0) with the mesh triangles (both sides).
// Returns false when nothing is hit; t is in units of |dir|.
bool raycast_mesh(const InputMesh& mesh, const float* orig, const float* dir, float& t);

struct SpanRef {
    int x = -1, z = -1;     // cell
    uint32_t index = 0;     // compact span index
    bool valid() const { return x >= 0; }
};

// The compact span of the cell containing p (xz) whose floor is nearest p's height
// (within `max_dy` world units), or an invalid ref.
SpanRef find_compact_span(const CompactHeightfield& chf, const float* p, float max_dy);

// Multi-line description of a span for a tooltip: cell, floor, clearance, links and what each
// later stage says about it (erosion, area, distance, region).
std::string describe_span(const Bake& bake, const SpanRef& s);

// Outline of the span's cell and lines to the floors of its linked neighbours.
void build_span_overlay(const CompactHeightfield& chf, const SpanRef& s, DrawList& out);

}  // namespace nav::render
