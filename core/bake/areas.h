// Stage 5: stamp convex volumes (water, grass, door...) onto the walkable spans with an area id.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/bake/compact.h"

namespace nav {

struct ConvexVolume {
    std::vector<float> verts;  // x,y,z per vertex of a convex polygon (y ignored), either winding
    float hmin = 0, hmax = 0;  // world y range
    uint8_t area = kAreaWater;
    bool operator==(const ConvexVolume&) const = default;
};

// Area names in configs and the UI: "ground" (63), "water", "road", "door", "grass", "jump", and
// "not_walkable" (0, also read as "null"): a volume of area 0 removes the walkable spans inside it.
std::string_view area_name(uint8_t area);
bool area_from_name(std::string_view name, uint8_t& out);

// Spans whose floor lies in [hmin, hmax] and whose cell centre is inside the polygon in xz get
// vol.area, unless they are kNullArea. Later volumes win.
void mark_convex_volume(const CompactHeightfield& chf, const ConvexVolume& vol, std::vector<uint8_t>& areas);

// Checks a volume: at least 3 vertices, finite, convex, hmin <= hmax, area in 0..63.
Status validate_volume(const ConvexVolume& vol, const std::string& what);

}  // namespace nav
