// 2D maps: the JSON map (a walkable outline with obstacle polygons) and the bake from it to a
// polygon mesh (seed 002): obstacles united and clipped to the outline (weiler.h), the free space
// triangulated (cdt.h), the triangles merged into convex polygons (convex_merge.h).
//
// JSON: {"outline": [[x, z], ...], "obstacles": [[[x, z], ...], ...], "agent_radius": r}
// ("obstacles" and "agent_radius" optional; unknown keys are an error). Documented repairs: a
// last point equal to the first, and repeated consecutive points, are dropped; rings may be
// given in either winding. Errors: malformed JSON (with the byte offset), a ring with fewer than
// 3 points, zero area, or crossing / touching itself, an obstacle entirely outside the outline,
// a negative or non-finite radius.
#pragma once
#include <cstdint>
#include <string>

#include "core/common.h"
#include "core/map2d/cdt.h"
#include "core/map2d/mesh_file.h"
#include "core/map2d/rings.h"
#include "core/map2d/weiler.h"

namespace nav::map2d {

struct Map2D {
    Rings outline;    // exactly one ring, counter-clockwise after loading
    Rings obstacles;  // counter-clockwise after loading
    double agent_radius = 0.0;
};

Status parse_map2d_json(const std::string& text, const std::string& name, Map2D& out);
// Reads the file through read_input_file: regular files or pipes, at most max_bytes (a tool's --max-input).
Status load_map2d(const std::string& path, Map2D& out, uint64_t max_bytes = uint64_t(1) << 30);
// The checks of the loader on an in-memory map (rings as given; `name` prefixes the messages).
Status validate_map2d(const Map2D& m, const std::string& name);
// 0 when the ring is simple; otherwise the message says which edges meet.
std::string ring_self_intersection(const double* xz, size_t n);

struct Map2DOptions {
    bool inflate = true;   // shrink the free space by the map's agent_radius
    int circle_sides = 8;  // sides of the polygon standing in for the agent's disc
    int max_verts = 6;     // 3 = keep the triangles; >= 4 Hertel-Mehlhorn merge
    bool record = false;   // fill the traces
};

struct Map2DResult {
    Rings blocked;  // union of the (inflated) obstacles and the outline's band
    Rings free;     // outline minus blocked: outer rings counter-clockwise, holes clockwise
    CdtResult cdt;
    PolyMesh2D mesh;
    ClipTrace union_trace, clip_trace;  // when recorded
    CdtTrace cdt_trace;
};

// The bake works on a grid tied to the map's scale: spacing map2d_grid(m), the power of two with
// every coordinate (grown by twice the agent radius) within 2^22 spacings of 0, so every point is
// an exact float (the navmesh's type) and orientation tests on them are exact. Features smaller
// than that (an agent radius below it, slivers between nearly touching obstacles) merge.
// Geometry the stages cannot resolve at that resolution, and a radius leaving no free space, are
// BadInput naming the stage and the place.
double map2d_grid(const Map2D& m);
Status build_map2d(const Map2D& m, const Map2DOptions& opt, Map2DResult& out);

}  // namespace nav::map2d
