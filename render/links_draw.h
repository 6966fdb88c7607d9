// Drawing of the automatic off-mesh links (core/bake/auto_links.h, Bake::auto_links): accepted
// links as arcs with an arrowhead at each end they can be taken to (a jump's parabola, a drop's
// out-then-down path, the shapes whose clearance was checked) in their own colour; rejected
// candidates as dim straight lines with a point at the blocking point (ArcBlocked) or the landing,
// coloured by reason. The `links` layer (render/layers.cpp) draws it from a bake whose auto_links is set.
#pragma once
#include <cstdint>
#include <span>

#include "core/bake/auto_links.h"
#include "render/draw_list.h"

namespace nav::render {

namespace colors {
constexpr uint32_t kLinkJump = rgba(160, 80, 230);          // the jump area's violet
constexpr uint32_t kLinkDrop = rgba(60, 190, 230);          // drop-down links, cyan
constexpr uint32_t kLinkRejected = rgba(130, 130, 140, 140);  // rejected candidates, dim
constexpr uint32_t kLinkBlocked = rgba(240, 60, 40);        // ArcBlocked: where
constexpr uint32_t kLinkTooFar = rgba(240, 170, 40);        // DropTooHigh, GapTooWide: the landing
constexpr uint32_t kLinkNotWalkable = rgba(200, 200, 90);   // LandingNotWalkable: the landing
constexpr uint32_t kLinkManual = rgba(170, 240, 40);        // manual links (Pipeline::set_links), lime
constexpr uint32_t kLinkManualSelected = rgba(255, 255, 255);  // the link tool's selected one
}  // namespace colors

// `lines`: the links' arcs and arrowheads and the rejected lines; `points`: the rejected markers.
// with_rejected false: the accepted links only.
void build_links_layer(const AutoLinks& links, DrawList& lines, DrawList& points, bool with_rejected = true);

// The manual off-mesh links (the debugger's link tool, Pipeline::set_links) in kLinkManual: each an
// arc from start to end (a parabola rising 0.3 m + a quarter of its horizontal length above the
// chord) with an arrowhead at each end it can be taken to (the end; the start too when
// bidirectional), and a point at each end. `selected` (-1: none) in kLinkManualSelected.
void build_manual_links(std::span<const OffMeshLink> links, int selected, DrawList& lines, DrawList& points);

}  // namespace nav::render
