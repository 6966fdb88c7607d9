// Stage 7: partition the walkable spans into regions: watershed (flood from the distance field's
// maxima), monotone (sweep rows) or layers (non-overlapping layers). Small regions are removed
// and merged into neighbours; ids are compacted to 1..region_count.
#pragma once
#include <cstdint>
#include <vector>

#include "core/compact.h"
#include "core/distance.h"

namespace nav {

struct Regions {
    std::vector<uint16_t> reg;  // per compact span; 0 = no region; kBorderRegion flag in tile borders
    uint16_t max_region_id = 0; // every id is < max_region_id
    int region_count = 0;       // distinct non-zero ids
};

Status build_regions_watershed(const CompactHeightfield& chf, const std::vector<uint8_t>& areas,
                               const DistanceField& df, int border_size, int min_region_area,
                               int merge_region_area, Regions& out, const CancelFlag* cancel = nullptr);

Status build_regions_monotone(const CompactHeightfield& chf, const std::vector<uint8_t>& areas,
                              int border_size, int min_region_area, int merge_region_area, Regions& out,
                              const CancelFlag* cancel = nullptr);

Status build_regions_layers(const CompactHeightfield& chf, const std::vector<uint8_t>& areas,
                            int border_size, int min_region_area, Regions& out,
                            const CancelFlag* cancel = nullptr);

}  // namespace nav
