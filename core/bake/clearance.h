// Agent types in one bake, the areas stage's second half: which agent types fit on each walkable
// span, and the split key that makes regions, contours and polygons follow those borders.
//
// A type fits on a span when its own erosion keeps the span: the span is walkable before erosion,
// has the type's height free above it, and lies at a chamfer distance (erode.h's: +2 orthogonal,
// +3 diagonal) of at least radius*2 from the nearest boundary, a boundary being a span the type
// cannot stand on or one with a side it cannot cross (no link, a neighbour it cannot stand on, or
// less than its height free where the two spans overlap). That is the erosion a bake at the type's
// own radius and height runs, so the spans a type fits are the spans such a bake keeps (up to its
// ledge and low-height filters, which the shared bake runs at the base type's height).
//
// The key of a span is one byte per distinct (area, types) pair: regions, contours and polygons
// split on it exactly as they split on areas, so every polygon has one area and one types mask.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "core/bake/compact.h"

namespace nav {

struct ClearanceType {
    int radius = 0;  // cells: ceil(radius / cell_size), as walkable_radius
    int height = 0;  // cell heights: ceil(height / cell_height), as walkable_height
};

struct Clearance {
    std::vector<uint16_t> types;      // per span: bit t set when type t fits (0 where the area is null)
    std::vector<uint8_t> keys;        // per span: 0 where the area is null, else its (area, types) key
    std::vector<uint8_t> key_area;    // per key: its area id (key 0: kNullArea)
    std::vector<uint16_t> key_types;  // per key: its types mask (key 0: 0)
};

// Fills out.types: for each type (at most 16), the spans of chf it fits, judged on `walkable` (the
// compact heightfield's areas, before erosion); low_height_filter: the bake's filter_low_height (a
// span is stood on with more than the type's height free only when it is on, as a bake at that
// height would filter). scratch is reused. Polls cancel once a row.
Status mark_clearance(const CompactHeightfield& chf, const std::vector<uint8_t>& walkable,
                      std::span<const ClearanceType> types, bool low_height_filter, Clearance& out,
                      std::vector<uint8_t>& scratch, const CancelFlag* cancel = nullptr);

// Fills out.keys, key_area and key_types from `areas` (the stage's final areas) and out.types, and
// clears the types of null spans. A patch of fewer than `min_spans` connected spans of one (area,
// types) pair that a neighbouring pair of the same area with fewer types touches takes the types
// both have (only types are removed, never added: no type gets a span it does not fit), so no
// speck a few cells wide becomes a region and a polygon of its own. scratch is reused. BadInput
// when more than 255 (area, types) pairs occur.
Status make_clearance_keys(const CompactHeightfield& chf, const std::vector<uint8_t>& areas, int min_spans, Clearance& out,
                           std::vector<uint32_t>& scratch);

}  // namespace nav
