// Inspection of picked elements (render/pick.h): what the debugger says about a span, compact
// span, contour vertex, polygon, detail triangle, navmesh polygon or input triangle, as text
// lines, and the highlight drawn over the view for the hovered and the pinned element.
#pragma once
#include <string>
#include <vector>

#include "core/pipeline/pipeline.h"
#include "render/draw_list.h"
#include "render/pick.h"

namespace nav::render {

namespace colors {
constexpr uint32_t kInspectHover = rgba(120, 255, 255);     // hovered element outline, pale cyan
constexpr uint32_t kInspectPinned = rgba(255, 255, 0);      // pinned element outline, bright yellow
constexpr uint32_t kInspectNeighbour = rgba(255, 110, 40);  // the pinned element's neighbours / links, orange
}  // namespace colors

struct ElementText {
    std::string title;               // one line: what the element is ("polygon 12", "compact span 3051")
    std::vector<std::string> lines;  // its properties, one per line
};

// Whether the element's indices are valid in this bake.
bool element_exists(const Bake& bake, const Element& e);
// A point from which pick_point finds the element again: for spans and compact spans the centre
// of their cell (at the hit height, inside the span), otherwise the point it was picked at.
void element_anchor(const Bake& bake, const Element& e, float* p);
// Describes the element in the bake it was picked from (empty when it is not valid there).
ElementText describe_element(const Bake& bake, const Element& e);
// title and lines joined by newlines (tooltips, clipboard)
std::string element_text(const ElementText& t);

// Outline of the element. Hovered: thin lines in kInspectHover. Pinned: kInspectPinned lines over
// a flat ribbon (so the outline reads thicker) plus, for polygons, navmesh polygons, detail
// triangles (their polygon) and compact spans, the neighbours / links in kInspectNeighbour.
// Appends to `out` (lines, points and ribbon triangles); meant to be drawn without depth test.
void build_element_overlay(const Bake& bake, const Element& e, bool pinned, DrawList& out);

}  // namespace nav::render
