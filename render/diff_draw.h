// The change highlight: what a re-bake added, removed or reshaped (core/bake_diff.h), drawn as an
// overlay over the new bake. Regions: spans of added regions tinted green, reshaped amber, removed
// ones (on the old bake's spans) red. Polygons: added ones outlined green, removed ones (from the
// old mesh) outlined red. CPU side only; the app uploads the DrawList and draws it on top, over
// layers drawn in grey (LayerDrawOptions::grey_base): region colours span every hue, so on a
// coloured base an added region's green could be any region's; on the grey base only the
// highlight has colour.
#pragma once
#include <cstdint>
#include <string>

#include "core/explain/bake_diff.h"
#include "core/pipeline/pipeline.h"
#include "render/draw_list.h"

namespace nav::render {

namespace colors {
constexpr uint32_t kDiffAdded = rgba(60, 230, 90);      // added region spans / polygons, green
constexpr uint32_t kDiffReshaped = rgba(255, 190, 30);  // reshaped region spans, amber
constexpr uint32_t kDiffRemoved = rgba(255, 40, 40);    // removed region spans / polygons, red
constexpr int kDiffFillAlpha = 150;
}  // namespace colors

struct BakeChanges {
    bool have_regions = false;  // both bakes had regions: `regions` is meaningful
    bool have_polys = false;    // both bakes had a polygon mesh: `polys` is meaningful
    RegionDiff regions;
    PolyDiff polys;
    uint64_t from_generation = 0, to_generation = 0;
    double ms = 0.0;  // time diff_bakes took
    bool any() const { return (have_regions && !regions.empty()) || (have_polys && !polys.empty()); }
};

// Compares the regions (when both bakes have them) and the polygon meshes (likewise) of two bakes.
BakeChanges diff_bakes(const Bake& old_bake, const Bake& new_bake);

// Builds the overlay for `c` (computed from old_bake -> new_bake) into `out` (cleared first):
// region spans as floor quads lifted above the regions layer, polygon outlines as thick lines.
void build_diff_overlay(const BakeChanges& c, const Bake& old_bake, const Bake& new_bake, DrawList& out);

// "regions +3 ~2 -1, polygons +12 -9" (added ~reshaped -removed, the parts both bakes had), or "no change".
std::string diff_summary(const BakeChanges& c);

}  // namespace nav::render
