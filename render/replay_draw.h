// Region replay picture (CPU): the compact spans' floors, in the style of the regions layer, at
// one step of a recorded partition (nav::RegionTrace, core/regions.h). Replay steps are the
// trace's growth steps (watershed flood levels, or swept rows), then the small-region filter,
// then the merge:
//   growth step k - spans that joined a region at a step <= k in that region's colour (its id
//                   before filter and merge), spans that join later grey, spans that never
//                   join one dark (colors::kRegionNone); region seeds as points, those seeded
//                   at step k highlighted;
//   filter        - every region as grown, the ones the filter drops dark red with a red outline;
//   merge         - the final regions, exactly as the regions layer draws them.
#pragma once
#include <cstdint>
#include <string>

#include "core/bake/compact.h"
#include "core/bake/regions.h"
#include "render/draw_list.h"

namespace nav::render {

namespace colors {
constexpr uint32_t kReplayPending = rgba(150, 120, 90);      // joins a region at a later step: sand, not the input's grey
constexpr uint32_t kReplayRemoved = rgba(96, 22, 26);        // dropped by the small-region filter
constexpr uint32_t kReplayRemovedEdge = rgba(255, 64, 64);   // outline of a dropped region
constexpr uint32_t kReplaySeed = rgba(246, 246, 250);        // where a region was seeded
constexpr uint32_t kReplaySeedNow = rgba(255, 214, 0);       // seeded at the step shown
constexpr uint32_t kReplaySeedRemoved = rgba(255, 90, 90);   // seed of a region the filter drops
}  // namespace colors

enum class ReplayPhase { Growth, Filter, Merge };

// Replay steps of a trace: its growth steps, then filter, then merge.
inline int replay_step_count(const RegionTrace& t) { return t.step_count() + 2; }
// Which phase replay step `step` shows (steps past the end show the merge).
inline ReplayPhase replay_phase(const RegionTrace& t, int step) {
    if (step < t.step_count()) return ReplayPhase::Growth;
    return step == t.step_count() ? ReplayPhase::Filter : ReplayPhase::Merge;
}
// The region id span i shows at replay step `step` (0: none yet or none at all).
inline uint16_t replay_region(const RegionTrace& t, int step, uint32_t i) {
    const uint16_t pre = t.pre_reg[i];
    switch (replay_phase(t, step)) {
        case ReplayPhase::Growth:
            return t.span_step[i] != RegionTrace::kNotReached && t.span_step[i] <= static_cast<uint32_t>(step) ? pre : 0;
        case ReplayPhase::Filter:
            return !(pre & kBorderRegion) && pre < t.removed.size() && t.removed[pre] ? 0 : pre;
        case ReplayPhase::Merge: return t.final_of(pre);
    }
    return 0;
}

// Builds the picture of replay step `step` (clamped to the last): floors and region outlines in
// `out`, seeds as points in `points`. The trace must belong to chf (one entry per span).
void build_region_replay(const CompactHeightfield& chf, const RegionTrace& trace, int step, DrawList& out,
                         DrawList& points);

}  // namespace nav::render
