// Stage 2: the three walkable filters, applied in place on the solid heightfield (Recast order:
// low-hanging obstacles, ledges, low height). Spans whose area a filter clears to kNullArea get
// that filter's bit in Span::filtered_by, so a viewer can colour them by cause. Each polls
// cancel every few thousand columns and returns early when it is set (the heightfield is then
// partly filtered: the caller drops it).
#pragma once
#include "core/bake/rasterize.h"

namespace nav {

enum FilterBits : uint8_t { kFilteredLedge = 1, kFilteredLowHeight = 2 };

// A non-walkable span directly on top of a walkable span, within walkable_climb of it, becomes
// walkable (kerbs, stair nosing). Only the original walkable flag of the span below counts.
void filter_low_hanging_obstacles(int walkable_climb, Heightfield& hf, const CancelFlag* cancel = nullptr);

// A walkable span whose drop to any neighbour exceeds walkable_climb, or whose accessible
// neighbours' floors span more than walkable_climb, is cleared (ledge). A neighbour counts only
// where the two open spaces share more than walkable_height; spans on the grid edge are ledges.
void filter_ledge_spans(int walkable_height, int walkable_climb, Heightfield& hf, const CancelFlag* cancel = nullptr);

// A walkable span with at most walkable_height of free space above it is cleared (Recast 1.5.1's
// rule; the compact links, by contrast, accept a shared gap of exactly walkable_height).
void filter_walkable_low_height_spans(int walkable_height, Heightfield& hf, const CancelFlag* cancel = nullptr);

}  // namespace nav
