// Stage 7: partition the walkable spans into regions: watershed (flood from the distance field's
// maxima), monotone (sweep rows) or layers (non-overlapping layers). Small regions are removed
// and merged into neighbours; ids are compacted to 1..region_count.
#pragma once
#include <cstdint>
#include <array>
#include <vector>

#include "core/bake/compact.h"
#include "core/bake/distance.h"

namespace nav {

// How a partition grew its regions, recorded on request (pass a non-null RegionTrace* to a
// build_regions_* function) so a caller can replay it. Recording never changes the result.
//
// Steps. The growth is cut into steps 0..step_count()-1:
//   watershed - one step per flood level, walking down the distance-field levels 2 at a time as
//               Recast does (the first is ((max_dist + 1) & ~1) - 2, the last 0), then one more
//               step for the final expansion that lets the regions take every span they reach
//               (its value is 0 too); step_value[k] is the level;
//   monotone, layers - one step per swept row; step_value[k] is the row z (border .. height-border-1).
// A replay shows the growth steps, then the small-region filter (the pre-filter regions with
// `removed` ones gone), then the merge (final ids).
//
// Ids. pre_reg holds every span's id before the filter and merge (for layers: the sweep regions
// before they are merged into layers); tile-border spans keep their kBorderRegion-flagged ids.
// final_id maps a pre id to the id it ends with in Regions::reg (0 when filtered away);
// final_of() applies it (flagged border ids map to themselves). Replaying to the end therefore
// gives final_of(pre_reg[i]) == Regions::reg[i] for every span.
//
// Per span: span_step[i] is the step at which span i joined region pre_reg[i]; kNotReached when
// it never joined one (null area, or left without a region). Tile-border strips are painted
// before the first step and report step 0.
// Per pre id: seeds[id] is where and when the region started: the flood seed span and its level
// step for the watershed, the first span (in scan order) and row step for the sweeps; border
// ids and id 0 have span kNoSeedSpan and step 0.
struct RegionTrace {
    enum class Kind : uint8_t { Watershed, Monotone, Layers };
    static constexpr uint32_t kNotReached = 0xffffffffu;
    static constexpr uint32_t kNoSeedSpan = 0xffffffffu;
    struct Seed {
        uint32_t span = kNoSeedSpan;
        uint32_t step = 0;
    };

    Kind kind = Kind::Watershed;
    std::vector<uint32_t> step_value;  // per step: flood level (watershed) or row z (sweeps)
    std::vector<uint32_t> span_step;   // per compact span: step it joined its region, or kNotReached
    std::vector<uint16_t> pre_reg;     // per compact span: region id before filter and merge
    std::vector<Seed> seeds;           // per pre id (size = pre_max_id())
    std::vector<uint8_t> removed;      // per pre id: 1 when the filter dropped it (layers: its layer)
    std::vector<uint16_t> final_id;    // per pre id: the id after filter, merge and renumbering

    int step_count() const { return static_cast<int>(step_value.size()); }
    uint16_t pre_max_id() const { return static_cast<uint16_t>(seeds.size()); }  // every pre id is below
    uint16_t final_of(uint16_t pre) const {
        if (pre & kBorderRegion) return pre;
        return pre < final_id.size() ? final_id[pre] : 0;
    }
    void clear() {
        step_value.clear();
        span_step.clear();
        pre_reg.clear();
        seeds.clear();
        removed.clear();
        final_id.clear();
    }
};

struct Regions {
    std::vector<uint16_t> reg;  // per compact span; 0 = no region; kBorderRegion flag in tile borders
    uint16_t max_region_id = 0; // every id is < max_region_id
    int region_count = 0;       // distinct non-zero ids
};

// The watershed's working memory (a span's four same-area neighbours, the flood distances, the
// level stacks), kept by a caller that bakes again (the pipeline, per bake thread) so a rebuild
// reuses it instead of allocating and faulting it in again. Its contents between calls
// mean nothing; the result does not depend on them.
struct RegionScratch {
    struct Dirty {
        uint32_t i;
        uint16_t r, d;
    };
    std::vector<uint32_t> nb;
    std::vector<uint16_t> rdist;
    std::array<std::vector<uint32_t>, 8> stacks;
    std::vector<uint32_t> stack;
    std::vector<Dirty> dirty;
};

// scratch: optional working memory to reuse (null: local buffers, freed on return).
Status build_regions_watershed(const CompactHeightfield& chf, const std::vector<uint8_t>& areas,
                               const DistanceField& df, int border_size, int min_region_area,
                               int merge_region_area, Regions& out, const CancelFlag* cancel = nullptr,
                               RegionTrace* trace = nullptr, RegionScratch* scratch = nullptr);

Status build_regions_monotone(const CompactHeightfield& chf, const std::vector<uint8_t>& areas,
                              int border_size, int min_region_area, int merge_region_area, Regions& out,
                              const CancelFlag* cancel = nullptr, RegionTrace* trace = nullptr);

Status build_regions_layers(const CompactHeightfield& chf, const std::vector<uint8_t>& areas,
                            int border_size, int min_region_area, Regions& out,
                            const CancelFlag* cancel = nullptr, RegionTrace* trace = nullptr);

}  // namespace nav
