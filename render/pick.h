// CPU picking and inspection: ray casts against the input mesh (for orbit pivots and hover), the
// element a draw layer shows under a ray or at a world point (render/inspect.h describes and
// highlights it), and lookup of the compact span under a world point.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "core/pipeline/pipeline.h"
#include "render/draw_list.h"
#include "render/layers.h"

namespace nav::render {

// Nearest hit of the ray orig + t * dir (t >= 0) with the mesh triangles (both sides).
// Returns false when nothing is hit; t is in units of |dir|.
bool raycast_mesh(const InputMesh& mesh, const float* orig, const float* dir, float& t);

// What the view does not draw of the input (navdebug's See inside settings, as the shaders apply
// them): a pick goes through it.
struct PickVisibility {
    bool cull_back = false;      // triangles whose front (counter-clockwise) side faces away from the ray's origin
    bool hide_ceilings = false;  // triangles facing down (normal y < -0.5) below the ray's origin
    bool clip = false;           // hits below clip_min or above clip_max
    float clip_min = 0.0f, clip_max = 0.0f;
    bool section = false;        // hits on the side `normal` points to of the plane through `point`
    float point[3] = {0, 0, 0}, normal[3] = {0, 0, 0};
};
// The nearest hit the view shows: as raycast_mesh, skipping what `vis` hides.
bool raycast_mesh(const InputMesh& mesh, const float* orig, const float* dir, float& t, const PickVisibility& vis);

// The nearest hit of the ray with what the view draws of `bake` with the layers `shown` (the
// click tools, the orbit pivot, the wheel's dolly target): the input triangles (skipping what
// `vis` hides) only while the input layer is shown, and the elements of every other shown layer
// the bake holds, as pick_ray hits them (spans, floors, contour vertices, polygons, detail
// triangles, the navmesh), skipping hits the clip or the section cuts away. `path` and the
// `tiles` overlay are never hit. False when nothing shown is hit: a hidden layer is not picked.
bool raycast_drawn(const Bake& bake, const LayerMask& shown, const float* orig, const float* dir, float& t,
                   const PickVisibility& vis);

// Two-sided ray / triangle test (Moller-Trumbore); t >= 0 in units of |dir|.
bool ray_triangle(const float* orig, const float* dir, const float* a, const float* b, const float* c, float& t);

struct SpanRef {
    int x = -1, z = -1;     // cell
    uint32_t index = 0;     // compact span index
    bool valid() const { return x >= 0; }
};

// The compact span of the cell containing p (xz) whose floor is nearest p's height
// (within `max_dy` world units), or an invalid ref.
SpanRef find_compact_span(const CompactHeightfield& chf, const float* p, float max_dy);

// Multi-line description of a compact span: cell, floor, clearance, the four links (neighbour
// span and its floor) and what each later stage says about it (erosion, area, distance, region).
std::string describe_span(const Bake& bake, const SpanRef& s);

// Outline of the span's cell (colour `outline`) and, with `links`, lines to the floors of its
// linked neighbours and their cell outlines (colour `link`); drawn `lift` above the floor
// (default 0.9 cell heights).
void build_span_overlay(const CompactHeightfield& chf, const SpanRef& s, DrawList& out,
                        uint32_t outline = rgba(255, 240, 60), uint32_t link = rgba(255, 120, 220), bool links = true,
                        float lift = -1.0f);

// ---- element picking per draw layer ----

enum class ElementKind : uint8_t {
    None,
    InputTri,       // input: index = triangle
    Span,           // voxels / filtered: cell (x, z), index = span in Heightfield::pool, sub = level in the column
    CompactSpan,    // compact .. regions: cell (x, z), index = compact span
    ContourVertex,  // raw_contours / contours: index = contour, sub = vertex in its (raw or simplified) loop
    Polygon,        // polymesh: index = polygon
    DetailTri,      // detail: index = polygon (sub-mesh), sub = triangle within it
    NavPoly,        // navmesh / islands: index = navmesh polygon
};

struct Element {
    ElementKind kind = ElementKind::None;
    Layer layer = Layer::Input;
    int x = -1, z = -1;          // cell of a span / compact span
    uint32_t index = 0;
    uint32_t sub = 0;
    float point[3] = {0, 0, 0};  // world point on the drawn element where the pick hit it
    // Tiled bakes: the tile (index in Bake::tiles) whose grid the indices are in; -1 for a solo
    // bake and for the whole-mesh layers (input, navmesh, islands).
    int tile = -1;
    bool valid() const { return kind != ElementKind::None; }
    // The same element (kind, layer, tile and indices; the hit point may differ).
    bool same(const Element& o) const {
        return kind == o.kind && layer == o.layer && tile == o.tile && x == o.x && z == o.z && index == o.index &&
               sub == o.sub;
    }
};

// The layer the inspector looks at: the highest enabled layer (in Layer order) the bake holds,
// ignoring `path` and the `tiles` overlay (islands counts as it draws the navmesh); nullopt when none.
std::optional<Layer> top_pick_layer(const Bake& bake, const LayerMask& enabled);

// The element of layer `l` nearest along the ray orig + t * dir (t >= 0), cast against what the
// layer draws: span boxes, compact-span floors, contour vertices (nearest to the ray within about
// a cell or a few pixels), polygons, detail triangles, navmesh polygons or input triangles, at
// the heights layers.cpp draws them. Invalid when nothing is hit. On a tiled bake the per-grid
// layers are picked in every tile's grid (Element::tile); where tiles overlap (their borders) the
// tile whose own box holds the hit wins.
Element pick_ray(const Bake& bake, Layer l, const float* orig, const float* dir);

// The element of layer `l` at world point p: on the vertical through p, the element whose drawn
// surface (or span's y range) is nearest p's height; contour vertices within two cells of p.
// Used to pin an element from `--select x,y,z` and to find a pinned element again after a rebake.
Element pick_point(const Bake& bake, Layer l, const float* p);

}  // namespace nav::render
