// Stage 8: contours. Exact answers on hand-made region maps (square, L, hole, staircase, portals,
// area borders), and properties on baked scenes and the shared meshes: raw contours are closed
// unit-step loops, simplified vertices come from the raw ones, simplified outlines do not cross
// themselves, holes are merged into their outline.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "core/bake/compact.h"
#include "core/bake/contours.h"
#include "core/bake/distance.h"
#include "core/bake/erode.h"
#include "core/bake/filter.h"
#include "core/bake/input.h"
#include "core/pipeline/params.h"
#include "core/bake/polymesh.h"
#include "core/bake/rasterize.h"
#include "core/bake/regions.h"
#include "core/pipeline/tile_builder.h"
#include "bake_regions.h"
#include "test_scenes.h"

namespace {

using nav::CompactHeightfield;
using nav::ContourSet;
using nav::Regions;

// A single-floor compact heightfield drawn as a map: one string per z row (row 0 is z = 0), one
// char per x. '.' no span; '0' a span without region; '1'-'9' / 'a'-'z' the region id (1-9,
// 10-35). `area_map` (optional, same shape) gives the area per cell: 'w' water, else walkable.
// Every span sits at floor y (or the digit in `height_map`), and neighbouring spans are linked.
struct MapField {
    CompactHeightfield chf;
    std::vector<uint8_t> areas;
    Regions regions;
};

int region_of(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'z') return 10 + (c - 'a');
    return -1;
}

MapField make_field(const std::vector<std::string>& map, const std::vector<std::string>& area_map = {},
                    const std::vector<std::string>& height_map = {}) {
    MapField f;
    CompactHeightfield& chf = f.chf;
    chf.height = static_cast<int>(map.size());
    chf.width = static_cast<int>(map[0].size());
    chf.walkable_height = 10;
    chf.walkable_climb = 4;
    const int w = chf.width, h = chf.height;
    chf.cells.resize(static_cast<size_t>(w * h));
    uint16_t max_id = 0;
    for (int z = 0; z < h; ++z) {
        for (int x = 0; x < w; ++x) {
            nav::CompactCell& c = chf.cells[static_cast<size_t>(x + z * w)];
            c.index = static_cast<uint32_t>(chf.spans.size());
            const char ch = map[static_cast<size_t>(z)][static_cast<size_t>(x)];
            if (ch == '.') continue;
            nav::CompactSpan s;
            s.y = height_map.empty()
                      ? 0
                      : static_cast<uint16_t>(height_map[static_cast<size_t>(z)][static_cast<size_t>(x)] - '0');
            s.h = 255;
            s.con = 0xffffff;
            chf.spans.push_back(s);
            const bool water =
                !area_map.empty() && area_map[static_cast<size_t>(z)][static_cast<size_t>(x)] == 'w';
            f.areas.push_back(water ? nav::kAreaWater : nav::kWalkableArea);
            const uint16_t r = static_cast<uint16_t>(region_of(ch));
            f.regions.reg.push_back(r);
            max_id = std::max(max_id, r);
            c.count = 1;
        }
    }
    for (int z = 0; z < h; ++z)
        for (int x = 0; x < w; ++x) {
            const nav::CompactCell& c = chf.cells[static_cast<size_t>(x + z * w)];
            if (!c.count) continue;
            for (int dir = 0; dir < 4; ++dir) {
                const int nx = x + nav::dir_offset_x(dir), nz = z + nav::dir_offset_z(dir);
                if (nx < 0 || nz < 0 || nx >= w || nz >= h) continue;
                if (chf.cells[static_cast<size_t>(nx + nz * w)].count) nav::set_con(chf.spans[c.index], dir, 0);
            }
        }
    chf.span_count = static_cast<uint32_t>(chf.spans.size());
    chf.areas = f.areas;
    f.regions.max_region_id = static_cast<uint16_t>(max_id + 1);
    std::set<uint16_t> ids(f.regions.reg.begin(), f.regions.reg.end());
    ids.erase(0);
    f.regions.region_count = static_cast<int>(ids.size());
    return f;
}

ContourSet contours_of(const MapField& f, float max_error = 1.3f, int max_edge_len = 0,
                       int tess = nav::kTessWallEdges) {
    ContourSet cs;
    const nav::Status st = nav::build_contours(f.chf, f.areas, f.regions, max_error, max_edge_len, tess, cs);
    REQUIRE_MESSAGE(st.is_ok(), st.message);
    return cs;
}

using V = std::array<int, 4>;  // x, y, z, flags
std::vector<V> simplified(const ContourSet& cs, size_t i) {
    const nav::Contour& c = cs.contours[i];
    std::vector<V> v;
    for (uint32_t k = 0; k < c.nverts; ++k) {
        const int32_t* p = &cs.verts[(c.vert_start + k) * 4];
        v.push_back({p[0], p[1], p[2], p[3]});
    }
    return v;
}
std::vector<std::pair<int, int>> xz_of(const std::vector<V>& v) {
    std::vector<std::pair<int, int>> o;
    for (const V& p : v) o.emplace_back(p[0], p[2]);
    return o;
}

// Twice the signed area with the outline convention of the stage (outlines positive).
int64_t signed_area2(const std::vector<V>& v) {
    int64_t a = 0;
    for (size_t i = 0, j = v.size() - 1; i < v.size(); j = i++)
        a += static_cast<int64_t>(v[i][0]) * v[j][2] - static_cast<int64_t>(v[j][0]) * v[i][2];
    return a;
}

// Contours that still have simplified vertices (merged holes keep only their raw loop).
std::vector<size_t> live(const ContourSet& cs) {
    std::vector<size_t> o;
    for (size_t i = 0; i < cs.contours.size(); ++i)
        if (cs.contours[i].nverts) o.push_back(i);
    return o;
}

}  // namespace

TEST_CASE("contours: a square region has its four corners") {
    const MapField f = make_field({
        "......",
        ".1111.",
        ".1111.",
        ".1111.",
        ".1111.",
        "......",
    });
    const ContourSet cs = contours_of(f);
    REQUIRE(cs.contours.size() == 1);
    const nav::Contour& c = cs.contours[0];
    CHECK(c.reg == 1);
    CHECK(c.area == nav::kWalkableArea);
    CHECK(c.nraw == 16);  // one raw vertex per boundary edge
    const std::vector<V> v = simplified(cs, 0);
    // Clockwise seen with x right and z up, starting from the lower-left corner; all walls.
    CHECK(v == std::vector<V>{{1, 0, 1, 0}, {1, 0, 5, 0}, {5, 0, 5, 0}, {5, 0, 1, 0}});
    CHECK(signed_area2(v) == 2 * 16);
    CHECK(cs.width == 6);
    CHECK(cs.height == 6);
    CHECK(cs.warnings.empty());
}

TEST_CASE("contours: an L-shaped region has six corners") {
    const MapField f = make_field({
        ".......",
        ".11....",
        ".11....",
        ".11....",
        ".11111.",
        ".11111.",
        ".......",
    });
    const ContourSet cs = contours_of(f, 0.5f);
    REQUIRE(cs.contours.size() == 1);
    const std::vector<V> v = simplified(cs, 0);
    REQUIRE(v.size() == 6);
    // Same vertices, same order as Recast 1.5.1 on this map.
    CHECK(xz_of(v) == std::vector<std::pair<int, int>>{{1, 1}, {1, 6}, {6, 6}, {6, 4}, {3, 4}, {3, 1}});
    CHECK(signed_area2(v) == 2 * (2 * 3 + 5 * 2));
}

TEST_CASE("contours: a hole is merged into its region's outline") {
    const MapField f = make_field({
        ".........",
        ".1111111.",
        ".1111111.",
        ".11...11.",
        ".11...11.",
        ".11...11.",
        ".1111111.",
        ".1111111.",
        ".........",
    });
    const ContourSet cs = contours_of(f);
    // The hole keeps its raw loop but no simplified vertices; the outline carries both.
    REQUIRE(cs.contours.size() == 2);
    const std::vector<size_t> l = live(cs);
    REQUIRE(l.size() == 1);
    const nav::Contour& hole = cs.contours[1 - l[0]];
    CHECK(hole.nverts == 0);
    CHECK(hole.nraw == 12);
    const std::vector<V> v = simplified(cs, l[0]);
    // Outline from the bridge corner (1,1) round to itself, then the hole from its lowest-leftmost
    // corner (3,3) round to itself: 4 + 1 + 4 + 1 vertices (as Recast 1.5.1 gives).
    CHECK(xz_of(v) == std::vector<std::pair<int, int>>{
                          {1, 1}, {1, 8}, {8, 8}, {8, 1}, {1, 1}, {3, 3}, {6, 3}, {6, 6}, {3, 6}, {3, 3}});
    // Area of the outline minus the hole.
    CHECK(signed_area2(v) == 2 * (49 - 9));
    CHECK(cs.warnings.empty());
}

TEST_CASE("contours: simplification of a staircase keeps fewer vertices as the error grows") {
    // Region cells with x <= z: a 12-step staircase on the diagonal.
    std::vector<std::string> map(14, std::string(14, '.'));
    for (int z = 1; z <= 12; ++z)
        for (int x = 1; x <= z; ++x) map[static_cast<size_t>(z)][static_cast<size_t>(x)] = '1';
    const MapField f = make_field(map);
    // The outer stair corners (k, k-1) lie 1/sqrt(2) = 0.707 cells off the diagonal: below that
    // error some of them stay (the farthest first), above it the staircase is one straight edge.
    // Counts as Recast 1.5.1 gives on this map.
    const float errors[] = {0.0f, 0.5f, 0.6f, 0.8f, 3.0f};
    const size_t expected[] = {26, 22, 16, 3, 3};
    size_t prev = 1000;
    for (size_t k = 0; k < 5; ++k) {
        CAPTURE(errors[k]);
        const ContourSet cs = contours_of(f, errors[k]);
        REQUIRE(cs.contours.size() == 1);
        CHECK(cs.contours[0].nraw == 48);
        const size_t n = cs.contours[0].nverts;
        CHECK(n == expected[k]);
        CHECK(n <= prev);
        prev = n;
        // Every simplified vertex is a raw boundary corner.
        const nav::Contour& c = cs.contours[0];
        for (uint32_t i = 0; i < c.nverts; ++i) {
            bool found = false;
            for (uint32_t j = 0; j < c.nraw && !found; ++j)
                found = cs.verts[(c.vert_start + i) * 4] == cs.raw_verts[(c.raw_start + j) * 4] &&
                        cs.verts[(c.vert_start + i) * 4 + 2] == cs.raw_verts[(c.raw_start + j) * 4 + 2];
            CHECK(found);
        }
    }
    // At error 0 every corner stays: (1,1), (1,13), (13,13), then (k,k-1) and (k,k) down the steps.
    std::vector<std::pair<int, int>> all = {{1, 1}, {1, 13}, {13, 13}};
    for (int k = 13; k >= 2; --k) {
        all.emplace_back(k, k - 1);
        if (k > 2) all.emplace_back(k - 1, k - 1);
    }
    CHECK(xz_of(simplified(contours_of(f, 0.0f), 0)) == all);
    // At a large error the outline is the triangle (1,1), (1,13), (13,13).
    CHECK(xz_of(simplified(contours_of(f, 3.0f), 0)) == std::vector<std::pair<int, int>>{{1, 1}, {1, 13}, {13, 13}});
}

TEST_CASE("contours: long wall edges are split at max_edge_len") {
    std::vector<std::string> map(5, std::string(42, '.'));
    for (int z = 1; z <= 3; ++z)
        for (int x = 1; x <= 40; ++x) map[static_cast<size_t>(z)][static_cast<size_t>(x)] = '1';
    const MapField f = make_field(map);
    CHECK(contours_of(f, 1.3f, 0).contours[0].nverts == 4);
    const ContourSet cs = contours_of(f, 1.3f, 12);
    const std::vector<V> v = simplified(cs, 0);
    // The two 40-cell sides become 4 pieces each (40 -> 20 -> 10); the 3-cell sides stay.
    CHECK(xz_of(v) == std::vector<std::pair<int, int>>{
                          {1, 1}, {1, 4}, {11, 4}, {21, 4}, {31, 4}, {41, 4}, {41, 1}, {31, 1}, {21, 1}, {11, 1}});
    for (size_t i = 0; i < v.size(); ++i) {
        const V& a = v[i];
        const V& b = v[(i + 1) % v.size()];
        const int dx = b[0] - a[0], dz = b[2] - a[2];
        CHECK(dx * dx + dz * dz <= 12 * 12);
    }
    // Splitting is off without the wall flag.
    CHECK(contours_of(f, 1.3f, 12, 0).contours[0].nverts == 4);
}

TEST_CASE("contours: portals carry the neighbour region, area borders their flag") {
    const MapField f = make_field(
        {
            "..........",
            ".11112222.",
            ".11112222.",
            ".11112222.",
            "..........",
        },
        {
            "..........",
            ".....wwww.",
            ".....wwww.",
            ".....wwww.",
            "..........",
        });
    const ContourSet cs = contours_of(f);
    REQUIRE(cs.contours.size() == 2);
    for (size_t i = 0; i < 2; ++i) {
        const nav::Contour& c = cs.contours[i];
        const int other = c.reg == 1 ? 2 : 1;
        CHECK(c.area == (c.reg == 1 ? nav::kWalkableArea : nav::kAreaWater));
        const std::vector<V> v = simplified(cs, i);
        REQUIRE(v.size() == 4);
        // Exactly one edge is the portal on x = 5, from (5,1) to (5,4) or back.
        int portals = 0;
        for (size_t k = 0; k < v.size(); ++k) {
            const V& a = v[k];
            const V& b = v[(k + 1) % v.size()];
            if ((a[3] & nav::kContourRegMask) != 0) {
                ++portals;
                CHECK((a[3] & nav::kContourRegMask) == other);
                CHECK((a[3] & nav::kAreaBorder) != 0);
                CHECK(a[0] == 5);
                CHECK(b[0] == 5);
            } else {
                CHECK((a[3] & nav::kAreaBorder) == 0);
            }
            CHECK((a[3] & nav::kBorderVertex) == 0);
        }
        CHECK(portals == 1);
    }
}

TEST_CASE("contours: corner heights are the highest floor around the corner") {
    const MapField f = make_field({".....", ".111.", ".111.", ".111.", "....."}, {},
                                  {"00000", "01110", "01130", "01110", "00000"});
    const ContourSet cs = contours_of(f, 0.0f);
    REQUIRE(cs.contours.size() == 1);
    const nav::Contour& c = cs.contours[0];
    for (uint32_t j = 0; j < c.nraw; ++j) {
        const int32_t* p = &cs.raw_verts[(c.raw_start + j) * 4];
        // Corners touching cell (3,2) (y 3) are at x = 4 and z in [2, 3].
        const bool touches = p[0] == 4 && (p[2] == 2 || p[2] == 3);
        CHECK(p[1] == (touches ? 3 : 1));
    }
}

TEST_CASE("contours: tile border vertices are flagged and offsets removed") {
    // A 2-cell tile border painted as Recast does: one border region per side ('w' left, 'x'
    // right, 'y' bottom, 'z' top; ids 32-35 with the kBorderRegion flag).
    MapField f = make_field({
        "yyyyyyy",
        "yyyyyyy",
        "ww111xx",
        "ww111xx",
        "ww111xx",
        "zzzzzzz",
        "zzzzzzz",
    });
    for (uint16_t& r : f.regions.reg)
        if (r >= 32) r = static_cast<uint16_t>(nav::kBorderRegion | r);
    f.chf.border_size = 2;
    const ContourSet cs = contours_of(f);
    REQUIRE(cs.contours.size() == 1);  // border regions have no contour
    CHECK(cs.border_size == 2);
    CHECK(cs.width == 3);
    CHECK(cs.height == 3);
    const std::vector<V> v = simplified(cs, 0);
    // Vertices where the neighbouring border region changes: the corners, shifted by -2.
    const auto xz = xz_of(v);
    CHECK(std::set<std::pair<int, int>>(xz.begin(), xz.end()) ==
          std::set<std::pair<int, int>>{{0, 0}, {0, 3}, {3, 3}, {3, 0}});
    for (const V& p : v) {
        const int nb = p[3] & nav::kContourRegMask;
        CHECK((nb & nav::kBorderRegion) != 0);
        CHECK((nb & ~nav::kBorderRegion) >= 32);
        CHECK((p[3] & nav::kBorderVertex) == 0);  // a corner touches three border cells
    }
    // The two raw corners inside each side (two border cells, two interior cells) are border
    // vertices, which the polymesh stage removes.
    const nav::Contour& c = cs.contours[0];
    REQUIRE(c.nraw == 12);
    int flagged = 0;
    for (uint32_t j = 0; j < c.nraw; ++j) {
        const int32_t* p = &cs.raw_verts[(c.raw_start + j) * 4];
        CHECK(p[0] >= 0);
        CHECK(p[0] <= 3);
        const bool mid = (p[0] == 1 || p[0] == 2 || p[2] == 1 || p[2] == 2) &&
                         (p[0] == 0 || p[0] == 3 || p[2] == 0 || p[2] == 3);
        if (p[3] & nav::kBorderVertex) {
            ++flagged;
            CHECK(mid);
        }
    }
    CHECK(flagged == 8);
}

TEST_CASE("contours: bad input, isolated cells and empty fields") {
    MapField f = make_field({".....", ".1...", "...2.", ".222.", "....."});
    ContourSet cs;
    // A one-cell region has no contour (as in Recast); the three-cell region has one.
    REQUIRE(nav::build_contours(f.chf, f.areas, f.regions, 1.3f, 0, nav::kTessWallEdges, cs).is_ok());
    REQUIRE(cs.contours.size() == 1);
    CHECK(cs.contours[0].reg == 2);

    std::vector<uint8_t> short_areas(f.areas.begin(), f.areas.end() - 1);
    CHECK(nav::build_contours(f.chf, short_areas, f.regions, 1.3f, 0, 1, cs).code == nav::Status::Code::BadInput);
    CHECK(nav::build_contours(f.chf, f.areas, f.regions, -1.0f, 0, 1, cs).code == nav::Status::Code::BadInput);
    CHECK(nav::build_contours(f.chf, f.areas, f.regions, 1.3f, -2, 1, cs).code == nav::Status::Code::BadInput);

    nav::CancelFlag cancel{true};
    CHECK(nav::build_contours(f.chf, f.areas, f.regions, 1.3f, 0, 1, cs, &cancel).code ==
          nav::Status::Code::Cancelled);

    const MapField empty = make_field({"...", "...", "..."});
    REQUIRE(nav::build_contours(empty.chf, empty.areas, empty.regions, 1.3f, 0, 1, cs).is_ok());
    CHECK(cs.contours.empty());
    CHECK(cs.verts.empty());
}

// ---------------------------------------------------------------------------------------------
// Properties on baked scenes.

namespace {

using navtest::Baked;
using navtest::bake;

int area2(const int32_t* a, const int32_t* b, const int32_t* c) {
    return (b[0] - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (b[2] - a[2]);
}
bool crosses(const int32_t* a, const int32_t* b, const int32_t* c, const int32_t* d) {
    const int abc = area2(a, b, c), abd = area2(a, b, d), cda = area2(c, d, a), cdb = area2(c, d, b);
    if (abc == 0 || abd == 0 || cda == 0 || cdb == 0) return false;
    return ((abc < 0) != (abd < 0)) && ((cda < 0) != (cdb < 0));
}

void check_contour_properties(const CompactHeightfield& chf, const Regions& regions, const ContourSet& cs) {
    // Regions that have a contour: every region with a contour is a real region id.
    std::set<int> regs_with_contour;
    for (const nav::Contour& c : cs.contours) {
        CHECK(c.reg != 0);
        CHECK((c.reg & nav::kBorderRegion) == 0);
        regs_with_contour.insert(c.reg);
        // Raw loop: closed, unit steps in x or z, on the grid.
        REQUIRE(c.nraw >= 4);
        for (uint32_t j = 0; j < c.nraw; ++j) {
            const int32_t* p = &cs.raw_verts[(c.raw_start + j) * 4];
            const int32_t* q = &cs.raw_verts[(c.raw_start + (j + 1) % c.nraw) * 4];
            CHECK(std::abs(p[0] - q[0]) + std::abs(p[2] - q[2]) == 1);
            CHECK(p[0] >= 0);
            CHECK(p[0] <= chf.width);
            CHECK(p[2] >= 0);
            CHECK(p[2] <= chf.height);
        }
        if (c.nverts == 0) continue;  // a hole merged into its outline
        CHECK(c.nverts >= 3);
        // Simplified vertices are raw corners of the region's loops (own loop or a merged hole).
        for (uint32_t i = 0; i < c.nverts; ++i) {
            const int32_t* v = &cs.verts[(c.vert_start + i) * 4];
            bool found = false;
            for (const nav::Contour& o : cs.contours) {
                if (o.reg != c.reg) continue;
                for (uint32_t j = 0; j < o.nraw && !found; ++j) {
                    const int32_t* r = &cs.raw_verts[(o.raw_start + j) * 4];
                    found = r[0] == v[0] && r[1] == v[1] && r[2] == v[2];
                }
                if (found) break;
            }
            CHECK(found);
        }
        // No two edges cross properly (bridges to holes overlap, they never cross).
        const int n = static_cast<int>(c.nverts);
        const int32_t* v = &cs.verts[c.vert_start * 4];
        for (int i = 0; i < n; ++i)
            for (int k = i + 2; k < n; ++k) {
                if (i == 0 && k == n - 1) continue;
                CHECK_FALSE(crosses(v + i * 4, v + ((i + 1) % n) * 4, v + k * 4, v + ((k + 1) % n) * 4));
            }
    }
    // Every region big enough to have a boundary has a contour.
    std::set<int> ids(regions.reg.begin(), regions.reg.end());
    ids.erase(0);
    for (int r : ids) {
        if (r & nav::kBorderRegion) continue;
        CHECK(regs_with_contour.count(r) == 1);
    }
    CHECK(cs.warnings.empty());
}

}  // namespace

TEST_CASE("contours: properties on a generated scene") {
    nav::InputMesh mesh;
    navtest::add_floor(mesh, 0, 0, 30, 30, 0);
    navtest::add_box(mesh, 5, 0, 5, 10, 3, 12);
    navtest::add_box(mesh, 14, 0, 14, 16, 1.5f, 28);
    navtest::add_box(mesh, 20, 0, 3, 26, 2.5f, 9);
    navtest::add_box(mesh, 12, 0, 4, 13, 4, 5);      // a pillar: a hole in the floor
    navtest::add_floor(mesh, 2, 18, 12, 28, 4);      // a mezzanine over the floor
    mesh.compute_bounds();
    Baked b;
    bake(mesh, b);
    for (int p = 0; p < 3; ++p) {
        CAPTURE(p);
        ContourSet cs;
        REQUIRE(nav::build_contours(b.chf, b.areas, b.regions[static_cast<size_t>(p)], 1.3f, 40,
                                    nav::kTessWallEdges, cs)
                    .is_ok());
        CHECK(cs.contours.size() >= 2);
        check_contour_properties(b.chf, b.regions[static_cast<size_t>(p)], cs);
        // Deterministic.
        ContourSet again;
        REQUIRE(nav::build_contours(b.chf, b.areas, b.regions[static_cast<size_t>(p)], 1.3f, 40,
                                    nav::kTessWallEdges, again)
                    .is_ok());
        CHECK(again.verts == cs.verts);
        CHECK(again.raw_verts == cs.raw_verts);
    }
}

TEST_CASE("contours: properties on the shared meshes") {
    for (const char* name : {"dungeon.obj", "nav_test.obj", "undulating.obj"}) {
        CAPTURE(name);
        const std::string path = navtest::shared_mesh_or_skip(name);
        if (path.empty()) continue;
        nav::InputMesh mesh;
        REQUIRE(nav::load_obj(path, mesh).is_ok());
        Baked b;
        bake(mesh, b);
        for (int p = 0; p < 3; ++p) {
            CAPTURE(p);
            ContourSet cs;
            REQUIRE(nav::build_contours(b.chf, b.areas, b.regions[static_cast<size_t>(p)], 1.3f, 40,
                                        nav::kTessWallEdges, cs)
                        .is_ok());
            CHECK(cs.contours.size() >= 5);
            check_contour_properties(b.chf, b.regions[static_cast<size_t>(p)], cs);
        }
    }
}

TEST_CASE("contours: a large max_error never leaves an outline crossing itself (no polygon wound the wrong way)") {
    // A hook-shaped region. At max_error 2 the plain simplification (Recast 1.5.1's) gave the
    // outline (1,3) (8,5) (4,4) (4,1): each chord within 2 cells of its own raw path, but the wall
    // chord (1,3)-(8,5) crosses (4,4)-(4,1) at z = 3.86. Ear clipping turned the crossed lobe into a
    // triangle wound counter-clockwise, which the runtime's tile check refuses (as it refused tile
    // 21,16 of undulating tiled 5 x 5 at edge_max_error 9.9). The crossing wall chord now gets its
    // farthest raw vertex, (2,5), back.
    const MapField f = make_field({
        "..........",
        "..11......",
        "..11......",
        ".111.1....",
        "..111111..",
        "..........",
    });
    for (float err : {1.3f, 2.0f, 2.5f}) {  // from 3 on the region simplifies to fewer than 3 vertices
        CAPTURE(err);
        const ContourSet cs = contours_of(f, err);
        REQUIRE(live(cs).size() == 1);
        const nav::Contour& c = cs.contours[live(cs)[0]];
        const int n = static_cast<int>(c.nverts);
        REQUIRE(n >= 3);
        const int32_t* v = &cs.verts[c.vert_start * 4];
        for (int i = 0; i < n; ++i)
            for (int k = i + 2; k < n; ++k) {
                if (i == 0 && k == n - 1) continue;
                CAPTURE(i);
                CAPTURE(k);
                CHECK_FALSE(crosses(v + i * 4, v + ((i + 1) % n) * 4, v + k * 4, v + ((k + 1) % n) * 4));
            }
        // Still an outline (positive area, as the hole merging reads it).
        CHECK(signed_area2(simplified(cs, live(cs)[0])) > 0);
        // The polygons are all wound clockwise in xz and the runtime takes the tile.
        nav::PolyMesh pm;
        REQUIRE(nav::build_poly_mesh(cs, 6, pm).is_ok());
        REQUIRE(pm.npolys > 0);
        for (int p = 0; p < pm.npolys; ++p) {
            const uint16_t* pv = pm.poly(p);
            const int pn = pm.poly_vert_count(p);
            int64_t a2 = 0;
            for (int j = 0; j < pn; ++j) {
                const uint16_t* a = &pm.verts[pv[j] * 3u];
                const uint16_t* b = &pm.verts[pv[(j + 1) % pn] * 3u];
                a2 += int64_t(a[0]) * b[2] - int64_t(b[0]) * a[2];
            }
            CAPTURE(p);
            CHECK(a2 < 0);
        }
        nav::NavTile tile;
        const nav::Status st = nav::make_nav_tile(pm, nav::PolyMeshDetail{}, tile);
        CHECK_MESSAGE(st.is_ok(), st.message);
    }
}
