// Stage 5: convex volumes stamped onto the walkable spans with an area id.
//
// Cell selection and the point-in-polygon test follow Recast's rcMarkConvexPolyArea (cells from
// the truncated bounds of the polygon, the cell centre tested with the even-odd crossing rule), so
// cells whose centre lies exactly on an edge go the same way. The height test is the one the
// header states, in world units: the span's floor bmin.y + y * ch lies in [hmin, hmax]. (Recast
// truncates hmin and hmax to whole voxels first, so it also takes floors up to one cell height
// below hmin.)
#include "core/bake/areas.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <cstdio>
#include <string>

#include "core/bake/palette.h"

namespace nav {

namespace {

struct AreaNameEntry {
    uint8_t id;
    std::string_view name;
};
// "not_walkable" (0): a volume that removes the walkable spans inside it (Unity's Not Walkable area,
// Recast's RC_NULL_AREA); "null" is read as the same id.
constexpr std::array<AreaNameEntry, 8> kAreaNames = {{{kWalkableArea, "ground"},
                                                      {kAreaWater, "water"},
                                                      {kAreaRoad, "road"},
                                                      {kAreaDoor, "door"},
                                                      {kAreaGrass, "grass"},
                                                      {kAreaJump, "jump"},
                                                      {kNullArea, "not_walkable"},
                                                      {kNullArea, "null"}}};

// Even-odd crossing test of the point (px, pz) against the polygon's xz outline.
bool point_in_polygon_xz(const float* v, int nv, float px, float pz) {
    bool inside = false;
    for (int i = 0, j = nv - 1; i < nv; j = i++) {
        const float* vi = v + 3 * i;
        const float* vj = v + 3 * j;
        if (((vi[2] > pz) != (vj[2] > pz)) && (px < (vj[0] - vi[0]) * (pz - vi[2]) / (vj[2] - vi[2]) + vi[0]))
            inside = !inside;
    }
    return inside;
}

std::string fmt(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

}  // namespace

std::string_view area_name(uint8_t area) {
    for (const AreaNameEntry& e : kAreaNames)
        if (e.id == area) return e.name;
    return {};
}

bool area_from_name(std::string_view name, uint8_t& out) {
    for (const AreaNameEntry& e : kAreaNames) {
        if (e.name == name) {
            out = e.id;
            return true;
        }
    }
    return false;
}

// ---- Area types --------------------------------------------------------------------------------

namespace {
constexpr std::array<PolyFlagName, 5> kFlagNames = {{{kPolyFlagWalk, "walk"},
                                                     {kPolyFlagSwim, "swim"},
                                                     {kPolyFlagDoor, "door"},
                                                     {kPolyFlagJump, "jump"},
                                                     {kPolyFlagDisabled, "disabled"}}};
bool reserved_area_name(std::string_view n) { return n == "not_walkable" || n == "null"; }
}  // namespace

std::span<const PolyFlagName> poly_flag_names() { return kFlagNames; }

AreaFlagTable default_area_flags() {
    AreaFlagTable t;
    t.fill(kPolyFlagWalk);
    return t;
}

AreaTable AreaTable::defaults() {
    AreaTable t;
    auto add = [&](uint8_t id, std::string_view name, uint16_t flags) {
        t.types.push_back(AreaType{std::string(name), id, default_area_color(id), 1.0f, flags});
    };
    add(kWalkableArea, "ground", kPolyFlagWalk);
    add(kAreaWater, "water", kPolyFlagSwim);
    add(kAreaRoad, "road", kPolyFlagWalk);
    add(kAreaDoor, "door", kPolyFlagWalk | kPolyFlagDoor);
    add(kAreaGrass, "grass", kPolyFlagWalk);
    add(kAreaJump, "jump", kPolyFlagJump);
    return t;
}

const AreaType* AreaTable::find(uint8_t id) const {
    for (const AreaType& a : types)
        if (a.id == id) return &a;
    return nullptr;
}
AreaType* AreaTable::find(uint8_t id) {
    for (AreaType& a : types)
        if (a.id == id) return &a;
    return nullptr;
}
const AreaType* AreaTable::find(std::string_view name) const {
    for (const AreaType& a : types)
        if (a.name == name) return &a;
    return nullptr;
}
bool AreaTable::id_of(std::string_view name, uint8_t& out) const {
    if (reserved_area_name(name)) {
        out = kNullArea;
        return true;
    }
    if (const AreaType* a = find(name)) {
        out = a->id;
        return true;
    }
    return false;
}
std::string_view AreaTable::name_of(uint8_t id) const {
    if (id == kNullArea) return "not_walkable";
    const AreaType* a = find(id);
    return a ? std::string_view(a->name) : std::string_view();
}
uint32_t AreaTable::color_of(uint8_t id) const {
    const AreaType* a = id == kNullArea ? nullptr : find(id);
    return a ? a->color : default_area_color(id);
}
float AreaTable::cost_of(uint8_t id) const {
    const AreaType* a = find(id);
    return a ? a->cost : 1.0f;
}
uint16_t AreaTable::flags_of(uint8_t id) const {
    const AreaType* a = find(id);
    return a ? a->flags : kPolyFlagWalk;
}
AreaFlagTable AreaTable::flag_table() const {
    AreaFlagTable t = default_area_flags();
    for (const AreaType& a : types)
        if (a.id < kMaxAreas) t[a.id] = a.flags;
    return t;
}
uint8_t AreaTable::free_id() const {
    for (int id = 1; id < kMaxAreas; ++id)
        if (!find(static_cast<uint8_t>(id))) return static_cast<uint8_t>(id);
    return 0;
}
std::string AreaTable::names() const {
    std::string s;
    for (const AreaType& a : types) {
        if (!s.empty()) s += ", ";
        s += a.name;
    }
    return s.empty() ? std::string("none") : s;
}

Status AreaTable::validate(const std::string& what) const {
    if (types.size() > static_cast<size_t>(kMaxAreas - 1))
        return Status::bad_input(what + ": " + std::to_string(types.size()) + " area types, at most " +
                                 std::to_string(kMaxAreas - 1) + " (ids 1..63)");
    for (size_t i = 0; i < types.size(); ++i) {
        const AreaType& a = types[i];
        const std::string item = what + "[" + std::to_string(i) + "]";
        if (a.name.empty()) return Status::bad_input(item + ".name: empty");
        if (reserved_area_name(a.name))
            return Status::bad_input(item + ".name: \"" + a.name + "\" is reserved for area 0 (not walkable)");
        if (a.id == kNullArea || a.id >= kMaxAreas)
            return Status::bad_input(item + ".id: " + std::to_string(a.id) + " (area '" + a.name + "') is outside 1..63");
        if (!std::isfinite(a.cost) || a.cost < 0.0f)
            return Status::bad_input(item + ".cost: " + fmt(a.cost) + " (area '" + a.name + "') must be finite and >= 0");
        if (a.flags & kPolyFlagDisabled)
            return Status::bad_input(item + ".flags: area '" + a.name + "' may not carry the reserved flag 'disabled' (0x8000)");
        for (size_t k = 0; k < i; ++k) {
            if (types[k].name == a.name)
                return Status::bad_input(item + ".name: duplicate area name '" + a.name + "' (also " + what + "[" +
                                         std::to_string(k) + "])");
            if (types[k].id == a.id)
                return Status::bad_input(item + ".id: area '" + a.name + "' has id " + std::to_string(a.id) +
                                         ", already area '" + types[k].name + "''s");
        }
    }
    return Status::ok();
}

QueryFilter make_query_filter(const AreaTable& areas, uint16_t include_flags, uint16_t exclude_flags) {
    QueryFilter f;
    for (const AreaType& a : areas.types)
        if (a.id < kMaxAreas) f.area_cost[a.id] = a.cost;
    f.include_flags = include_flags;
    f.exclude_flags = static_cast<uint16_t>(exclude_flags | kPolyFlagDisabled);
    return f;
}

std::string flags_to_string(uint16_t flags) {
    std::string s;
    uint16_t rest = flags;
    for (const PolyFlagName& f : kFlagNames) {
        if (!(flags & f.bit)) continue;
        if (!s.empty()) s += "|";
        s += f.name;
        rest = static_cast<uint16_t>(rest & ~f.bit);
    }
    if (rest) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "0x%x", static_cast<unsigned>(rest));
        if (!s.empty()) s += "|";
        s += buf;
    }
    return s.empty() ? std::string("none") : s;
}

void mark_convex_volume(const CompactHeightfield& chf, const ConvexVolume& vol, std::vector<uint8_t>& areas) {
    const int nv = static_cast<int>(vol.verts.size() / 3);
    if (nv < 3 || areas.size() != chf.spans.size() || chf.cs <= 0.0f) return;
    if (chf.cells.size() != static_cast<size_t>(chf.width) * static_cast<size_t>(chf.height)) return;
    const float* v = vol.verts.data();
    float minx = v[0], maxx = v[0], minz = v[2], maxz = v[2];
    for (int k = 1; k < nv; ++k) {
        minx = std::fmin(minx, v[3 * k]);
        maxx = std::fmax(maxx, v[3 * k]);
        minz = std::fmin(minz, v[3 * k + 2]);
        maxz = std::fmax(maxz, v[3 * k + 2]);
    }
    // Recast's cell range: truncated toward zero, then clamped to the grid.
    const float lx = (minx - chf.bmin[0]) / chf.cs, hx = (maxx - chf.bmin[0]) / chf.cs;
    const float lz = (minz - chf.bmin[2]) / chf.cs, hz = (maxz - chf.bmin[2]) / chf.cs;
    if (!(hx >= 0.0f) || !(hz >= 0.0f) || !(lx < static_cast<float>(chf.width)) ||
        !(lz < static_cast<float>(chf.height)))
        return;  // entirely outside the grid (or not finite)
    const int x0 = lx <= 0.0f ? 0 : static_cast<int>(lx);
    const int z0 = lz <= 0.0f ? 0 : static_cast<int>(lz);
    const int x1 = hx >= static_cast<float>(chf.width) ? chf.width - 1 : static_cast<int>(hx);
    const int z1 = hz >= static_cast<float>(chf.height) ? chf.height - 1 : static_cast<int>(hz);

    const uint8_t id = vol.area;
    uint8_t* area = areas.data();
    for (int z = z0; z <= z1; ++z) {
        const float pz = chf.bmin[2] + (static_cast<float>(z) + 0.5f) * chf.cs;
        for (int x = x0; x <= x1; ++x) {
            const CompactCell c = chf.cells[static_cast<size_t>(x) + static_cast<size_t>(z) * static_cast<size_t>(chf.width)];
            int inside = -1;  // point-in-polygon result, computed once per cell when first needed
            for (uint32_t i = c.index, e = c.index + c.count; i < e; ++i) {
                if (area[i] == kNullArea) continue;
                const float fy = chf.bmin[1] + static_cast<float>(chf.spans[i].y) * chf.ch;
                if (!(fy >= vol.hmin && fy <= vol.hmax)) continue;
                if (inside < 0) {
                    const float px = chf.bmin[0] + (static_cast<float>(x) + 0.5f) * chf.cs;
                    inside = point_in_polygon_xz(v, nv, px, pz) ? 1 : 0;
                }
                if (inside) area[i] = id;
            }
        }
    }
}

Status validate_volume(const ConvexVolume& vol, const std::string& what) {
    const size_t nf = vol.verts.size();
    if (nf % 3 != 0)
        return Status::bad_input(what + ": vertex list has " + std::to_string(nf) +
                                 " numbers, not a multiple of 3 (x,y,z per vertex)");
    const size_t nv = nf / 3;
    if (nv < 3) return Status::bad_input(what + ": needs at least 3 vertices, got " + std::to_string(nv));
    for (size_t k = 0; k < nf; ++k)
        if (!std::isfinite(vol.verts[k]))
            return Status::bad_input(what + ": vertex " + std::to_string(k / 3) + " is not finite");
    if (!std::isfinite(vol.hmin) || !std::isfinite(vol.hmax))
        return Status::bad_input(what + ": hmin and hmax must be finite");
    if (vol.hmin > vol.hmax)
        return Status::bad_input(what + ": hmin " + fmt(vol.hmin) + " is above hmax " + fmt(vol.hmax));
    if (vol.area > kWalkableArea)
        return Status::bad_input(what + ": area id " + std::to_string(vol.area) + " is outside 0..63");

    // Convex in xz, either winding: every turn the same way (straight continuations allowed), no
    // repeated vertex, no fold-back, non-zero area, and the outline goes around only once.
    const float* v = vol.verts.data();
    int pos = 0, neg = 0;
    bool folds = false;
    double turning = 0.0;
    for (size_t k = 0; k < nv; ++k) {
        const float* a = v + 3 * k;
        const float* b = v + 3 * ((k + 1) % nv);
        const float* c = v + 3 * ((k + 2) % nv);
        const double e1x = double(b[0]) - a[0], e1z = double(b[2]) - a[2];
        const double e2x = double(c[0]) - b[0], e2z = double(c[2]) - b[2];
        if (e1x == 0.0 && e1z == 0.0)
            return Status::bad_input(what + ": vertices " + std::to_string(k) + " and " +
                                     std::to_string((k + 1) % nv) + " coincide in xz");
        const double cross = e1x * e2z - e1z * e2x;
        const double dot = e1x * e2x + e1z * e2z;
        if (cross > 0.0) ++pos;
        if (cross < 0.0) ++neg;
        if (cross == 0.0 && dot < 0.0) folds = true;
        turning += std::atan2(cross, dot);
    }
    if (pos == 0 && neg == 0) return Status::bad_input(what + ": polygon has zero area in xz (all vertices on a line)");
    if ((pos != 0 && neg != 0) || folds)
        return Status::bad_input(what + ": polygon is not convex in xz (it turns both ways or folds back)");
    if (std::fabs(turning) > 3.0 * 3.14159265358979323846)
        return Status::bad_input(what + ": polygon is not convex in xz (its outline winds around more than once)");
    return Status::ok();
}

Status convex_hull_xz(std::span<const float> pts, std::vector<float>& hull) {
    hull.clear();
    if (pts.size() % 3 != 0)
        return Status::bad_input("convex hull: the point list has " + std::to_string(pts.size()) +
                                 " numbers, not a multiple of 3 (x,y,z per point)");
    const size_t n = pts.size() / 3;
    for (size_t k = 0; k < pts.size(); ++k)
        if (!std::isfinite(pts[k])) return Status::bad_input("convex hull: point " + std::to_string(k / 3) + " is not finite");
    // Andrew's monotone chain on the points sorted by (x, z); a corner is kept only on a strict
    // left turn, so collinear and repeated points drop out. Doubles: the cross products of float
    // differences are exact enough for any level coordinate.
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), size_t{0});
    auto x = [&](size_t i) { return static_cast<double>(pts[3 * i]); };
    auto z = [&](size_t i) { return static_cast<double>(pts[3 * i + 2]); };
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return x(a) < x(b) || (x(a) == x(b) && z(a) < z(b)); });
    order.erase(std::unique(order.begin(), order.end(), [&](size_t a, size_t b) { return x(a) == x(b) && z(a) == z(b); }),
                order.end());
    const size_t distinct = order.size();
    if (distinct < 3)
        return Status::bad_input("convex hull: needs at least 3 points apart in xz, got " + std::to_string(distinct) +
                                 (distinct == n ? std::string() : " (of " + std::to_string(n) + " points)"));
    auto cross = [&](size_t o, size_t a, size_t b) { return (x(a) - x(o)) * (z(b) - z(o)) - (z(a) - z(o)) * (x(b) - x(o)); };
    std::vector<size_t> h(2 * distinct);
    size_t k = 0;
    for (size_t i = 0; i < distinct; ++i) {  // lower chain
        while (k >= 2 && cross(h[k - 2], h[k - 1], order[i]) <= 0.0) --k;
        h[k++] = order[i];
    }
    for (size_t i = distinct - 1, lower = k + 1; i-- > 0;) {  // upper chain
        while (k >= lower && cross(h[k - 2], h[k - 1], order[i]) <= 0.0) --k;
        h[k++] = order[i];
    }
    h.resize(k - 1);  // the last point is the first again
    if (h.size() < 3) return Status::bad_input("convex hull: the " + std::to_string(distinct) + " points lie on one line in xz");
    for (size_t i : h) hull.insert(hull.end(), pts.begin() + static_cast<std::ptrdiff_t>(3 * i),
                                   pts.begin() + static_cast<std::ptrdiff_t>(3 * i + 3));
    return Status::ok();
}

}  // namespace nav
