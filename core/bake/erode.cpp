// Stage 4: erode the walkable area by the agent radius.
//
// Same result as Recast's rcErodeWalkableArea: a chamfer distance (+2 orthogonal, +3 diagonal,
// saturating at 255) to the nearest boundary span, found with a forward and a backward raster
// sweep; spans nearer than radius*2 become kNullArea.
//
// The reference runs four passes over the spans (mark boundaries, sweep forward, sweep backward,
// threshold); here the two sweeps of core/bake/chamfer.h do it all, the threshold applied as each
// span's value becomes final.
#include "core/bake/erode.h"

#include "core/bake/chamfer.h"

#include <algorithm>
#include <string>

namespace nav {

Status erode_walkable_area(int radius, const CompactHeightfield& chf, std::vector<uint8_t>& areas,
                           std::vector<uint8_t>& scratch, const CancelFlag* cancel) {
    if (radius < 0)
        return Status::bad_input("erode: walkable radius must be >= 0 cells, got " + std::to_string(radius));
    const size_t n = chf.spans.size();
    if (Status st = validate_compact_input(chf, areas.size(), "erode"); !st) return st;
    // Radius 0 erodes nothing (threshold 0). Distances saturate at 255, so a threshold above 255
    // could not tell more spans apart than 255 does: larger radii erode as radius 127.5 would.
    const int thr = std::min(radius * 2, 255);
    if (thr == 0 || n == 0) return Status::ok();

    scratch.resize(n);
    uint8_t* area = areas.data();
    return chamfer::sweeps(
        chf, scratch.data(),
        [area](uint32_t i, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3) {
            return area[i] == kNullArea || area[a0] == kNullArea || area[a1] == kNullArea || area[a2] == kNullArea ||
                   area[a3] == kNullArea;
        },
        [area, thr](uint32_t i, int d) {
            if (d < thr) area[i] = kNullArea;
        },
        cancel);
}

}  // namespace nav
