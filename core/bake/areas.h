// Stage 5: stamp convex volumes (water, grass, door...) onto the walkable spans with an area id.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/bake/compact.h"
#include "core/runtime/query.h"
#include "core/runtime/tile.h"

namespace nav {

struct ConvexVolume {
    std::vector<float> verts;  // x,y,z per vertex of a convex polygon (y ignored), either winding
    float hmin = 0, hmax = 0;  // world y range
    uint8_t area = kAreaWater;
    bool operator==(const ConvexVolume&) const = default;
};

// Area names of the default table (AreaTable::defaults): "ground" (63), "water", "road", "door",
// "grass", "jump", and "not_walkable" (0, also read as "null"): a volume of area 0 removes the
// walkable spans inside it. A config with its own "areas" resolves names with AreaTable::id_of.
std::string_view area_name(uint8_t area);
bool area_from_name(std::string_view name, uint8_t& out);

// ---- Area types: names, colours, costs and polygon flags ---------------------------------------

// Polygon flag bits (NavTile::flags, QueryFilter include/exclude), RecastDemo's set. kPolyFlagWalk
// is kPolyFlagDefault, the flag every polygon had before area types; kPolyFlagDisabled (0x8000,
// set by a prune) stays reserved: an area may not carry it.
constexpr uint16_t kPolyFlagWalk = kPolyFlagDefault;  // 0x01
constexpr uint16_t kPolyFlagSwim = 0x02;
constexpr uint16_t kPolyFlagDoor = 0x04;
constexpr uint16_t kPolyFlagJump = 0x08;
// The bits an area's flags may use (all but kPolyFlagDisabled).
constexpr uint16_t kAreaFlagsMask = static_cast<uint16_t>(~kPolyFlagDisabled);

struct PolyFlagName {
    uint16_t bit;
    std::string_view name;
};
// walk, swim, door, jump, disabled: the named bits, in bit order (configs and the UI).
std::span<const PolyFlagName> poly_flag_names();

// An area type: the id the bake stamps on spans and polygons (1..63; 0 is not_walkable), a name
// for configs and the UI, the colour the views and the glTF export draw it in, the traversal cost
// per metre a query filter made from the table uses, and the flags its polygons get when the tile
// is made (make_nav_tile).
struct AreaType {
    std::string name;
    uint8_t id = kWalkableArea;
    uint32_t color = 0xffffffffu;  // RGBA8, palette_rgba order
    float cost = 1.0f;
    uint16_t flags = kPolyFlagWalk;
    bool operator==(const AreaType&) const = default;
};

// Per area id 0..63: the flags of its polygons (BakeInputs::areas, make_nav_tile).
using AreaFlagTable = std::array<uint16_t, kMaxAreas>;
// Every id kPolyFlagWalk: what tiles got before area types.
AreaFlagTable default_area_flags();

// The area types of a bake: at most 63 (ids 1..63), names and ids unique. The defaults are ground
// (63, walk), water (1, swim), road (2, walk), door (3, walk|door), grass (4, walk), jump (5, jump),
// cost 1 each, colours palette.h's default_area_color. An id not in the table is drawn with
// default_area_color, costs 1 and flags walk; "not_walkable"/"null" always name id 0.
struct AreaTable {
    std::vector<AreaType> types;  // in the order shown and written

    static AreaTable defaults();
    const AreaType* find(uint8_t id) const;
    const AreaType* find(std::string_view name) const;
    AreaType* find(uint8_t id);
    // The id of a type's name (or "not_walkable"/"null" -> 0); false when unknown.
    bool id_of(std::string_view name, uint8_t& out) const;
    // The type's name; empty when the id has none.
    std::string_view name_of(uint8_t id) const;
    uint32_t color_of(uint8_t id) const;
    float cost_of(uint8_t id) const;
    uint16_t flags_of(uint8_t id) const;
    AreaFlagTable flag_table() const;
    // The lowest id in 1..62 no type has (63 last); 0 when all 63 are taken.
    uint8_t free_id() const;
    // The names, comma-separated (for "unknown area" messages).
    std::string names() const;
    // More than 63 types, ids outside 1..63, empty or duplicate names and ids, the reserved names,
    // costs not finite or below 0, flags with kPolyFlagDisabled: errors naming `what`[i] and the field.
    Status validate(const std::string& what) const;
    bool operator==(const AreaTable&) const = default;
};

// A query filter from the table: cost per area id (ids not in it 1), include / exclude flags as
// given (kPolyFlagDisabled is always excluded, so pruned polygons stay unreachable).
QueryFilter make_query_filter(const AreaTable& areas, uint16_t include_flags = 0xffff,
                              uint16_t exclude_flags = kPolyFlagDisabled);

// Flags as names: "walk|swim"; bits without a name as hex ("0x10").
std::string flags_to_string(uint16_t flags);

// Spans whose floor lies in [hmin, hmax] and whose cell centre is inside the polygon in xz get
// vol.area, unless they are kNullArea. Later volumes win.
void mark_convex_volume(const CompactHeightfield& chf, const ConvexVolume& vol, std::vector<uint8_t>& areas);

// Checks a volume: at least 3 vertices, finite, convex, hmin <= hmax, area in 0..63.
Status validate_volume(const ConvexVolume& vol, const std::string& what);

// The convex hull in xz of `pts` (x,y,z per point; y is carried along, not used): the corner
// points, each an input point as given, in counter-clockwise order in the x-z plane (x right, z
// up: every turn has a positive cross product (b-a) x (c-b) = ex1*ez2 - ez1*ex2), starting at the
// point of least x (least z among equal x). Points on a hull edge and repeated points (same x and
// z) are left out, so the hull passes validate_volume. Fails (BadInput) when a coordinate is not
// finite, when the list is not x,y,z triples, or when fewer than 3 points remain that are not on
// one line (the message says which).
Status convex_hull_xz(std::span<const float> pts, std::vector<float>& hull);

}  // namespace nav
