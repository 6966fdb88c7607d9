// Stage 9: the convex polygon mesh. Exact answers on hand-made contour sets (triangulation of a
// concave polygon, merging of a convex fan, adjacency of a 2x2 grid, welding, border-vertex
// removal and portals, input checks), and properties on baked scenes and the shared meshes:
// polygons convex and consistently wound with at most nvp vertices and non-zero area, adjacency
// symmetric and matching shared edges, total area equal to the contours' area.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
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

using nav::ContourSet;
using nav::PolyMesh;

struct CV {
    int x, z;
    int y = 0;
    int flags = 0;
};

// Appends a contour (vertices in the stage's outline winding: lower-left corner, up the -x side,
// along +z...; i.e. counter-clockwise seen from +y) with region `reg`.
void add_contour(ContourSet& cs, const std::vector<CV>& vs, uint16_t reg, uint8_t area = nav::kWalkableArea) {
    nav::Contour c;
    c.vert_start = static_cast<uint32_t>(cs.verts.size() / 4);
    c.nverts = static_cast<uint32_t>(vs.size());
    c.raw_start = static_cast<uint32_t>(cs.raw_verts.size() / 4);
    c.nraw = 0;
    c.reg = reg;
    c.area = area;
    for (const CV& v : vs) {
        const int32_t q[4] = {v.x, v.y, v.z, v.flags};
        cs.verts.insert(cs.verts.end(), q, q + 4);
    }
    cs.contours.push_back(c);
}

PolyMesh mesh_of(const ContourSet& cs, int nvp) {
    PolyMesh m;
    const nav::Status st = nav::build_poly_mesh(cs, nvp, m);
    REQUIRE_MESSAGE(st.is_ok(), st.message);
    return m;
}

// Twice the signed xz area of polygon i, with the contour convention (outlines positive).
int64_t poly_area2(const PolyMesh& m, int i) {
    const uint16_t* p = m.poly(i);
    const int n = m.poly_vert_count(i);
    int64_t a = 0;
    for (int k = 0, j = n - 1; k < n; j = k++) {
        const uint16_t* vi = &m.verts[p[k] * 3u];
        const uint16_t* vj = &m.verts[p[j] * 3u];
        a += static_cast<int64_t>(vi[0]) * vj[2] - static_cast<int64_t>(vj[0]) * vi[2];
    }
    return a;
}

int64_t contour_area2(const std::vector<CV>& v) {
    int64_t a = 0;
    for (size_t i = 0, j = v.size() - 1; i < v.size(); j = i++)
        a += static_cast<int64_t>(v[i].x) * v[j].z - static_cast<int64_t>(v[j].x) * v[i].z;
    return a;
}

// Point strictly inside polygon (even-odd rule), doubled coordinates to test centroids exactly.
bool inside(const std::vector<CV>& poly, int64_t px2, int64_t pz2) {
    bool in = false;
    for (size_t i = 0, j = poly.size() - 1; i < poly.size(); j = i++) {
        const int64_t xi = 2 * poly[i].x, zi = 2 * poly[i].z, xj = 2 * poly[j].x, zj = 2 * poly[j].z;
        if ((zi > pz2) != (zj > pz2)) {
            // x of the edge at pz2, compared without division.
            const int64_t lhs = (px2 - xi) * (zj - zi);
            const int64_t rhs = (xj - xi) * (pz2 - zi);
            if ((zj - zi) > 0 ? lhs < rhs : lhs > rhs) in = !in;
        }
    }
    return in;
}

int corner_area2(const uint16_t* a, const uint16_t* b, const uint16_t* c) {
    return (b[0] - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (b[2] - a[2]);
}

}  // namespace

TEST_CASE("polymesh: triangulating a concave polygon") {
    // A U shape, 8 vertices, area 6*8 - 2*5 = 38.
    const std::vector<CV> u = {{0, 0}, {0, 8}, {2, 8}, {2, 3}, {4, 3}, {4, 8}, {6, 8}, {6, 0}};
    REQUIRE(contour_area2(u) == 2 * 38);
    ContourSet cs;
    add_contour(cs, u, 1);
    const PolyMesh m = mesh_of(cs, 3);
    CHECK(m.nverts == 8);
    REQUIRE(m.npolys == 6);  // n - 2 triangles
    int64_t total = 0;
    for (int i = 0; i < m.npolys; ++i) {
        CHECK(m.poly_vert_count(i) == 3);
        const int64_t a = poly_area2(m, i);
        CHECK(a > 0);  // same winding as the outline
        total += a;
        // The centroid (times 3, then doubled / 3 via sums) lies inside the U.
        const uint16_t* p = m.poly(i);
        int64_t sx = 0, sz = 0;
        for (int k = 0; k < 3; ++k) {
            sx += m.verts[p[k] * 3u];
            sz += m.verts[p[k] * 3u + 2];
        }
        std::vector<CV> scaled;
        for (const CV& v : u) scaled.push_back({v.x * 3, v.z * 3});
        CHECK(inside(scaled, 2 * sx, 2 * sz));
        CHECK(m.regs[static_cast<size_t>(i)] == 1);
        CHECK(m.areas[static_cast<size_t>(i)] == nav::kWalkableArea);
    }
    CHECK(total == 2 * 38);
    CHECK(m.warnings.empty());
    // With merging the U becomes three convex pieces (two legs and the base).
    const PolyMesh merged = mesh_of(cs, 6);
    CHECK(merged.npolys == 3);
}

TEST_CASE("polymesh: a convex fan merges into one polygon, or two when nvp is small") {
    // A convex hexagon; ear clipping gives 4 triangles.
    const std::vector<CV> hex = {{2, 0}, {0, 3}, {2, 6}, {6, 6}, {8, 3}, {6, 0}};
    REQUIRE(contour_area2(hex) > 0);
    ContourSet cs;
    add_contour(cs, hex, 7, nav::kAreaGrass);
    const PolyMesh tri = mesh_of(cs, 3);
    CHECK(tri.npolys == 4);
    const PolyMesh one = mesh_of(cs, 6);
    REQUIRE(one.npolys == 1);
    CHECK(one.poly_vert_count(0) == 6);
    CHECK(poly_area2(one, 0) == contour_area2(hex));
    CHECK(one.regs[0] == 7);
    CHECK(one.areas[0] == nav::kAreaGrass);
    CHECK(one.flags == std::vector<uint16_t>{0});
    std::set<uint16_t> used(one.poly(0), one.poly(0) + 6);
    CHECK(used.size() == 6);
    // nvp 5: a pentagon and a triangle. nvp 4: the longest diagonal is merged first into a
    // quad, and the two triangles left cannot join it (5 > 4): three polygons. (As Recast 1.5.1.)
    CHECK(mesh_of(cs, 5).npolys == 2);
    const PolyMesh three = mesh_of(cs, 4);
    REQUIRE(three.npolys == 3);
    int quads = 0;
    for (int i = 0; i < 3; ++i) quads += three.poly_vert_count(i) == 4;
    CHECK(quads == 1);

    // A pentagon (3 triangles): one polygon with nvp 5, a quad and a triangle with nvp 4.
    const std::vector<CV> pent = {{0, 0}, {0, 4}, {3, 6}, {6, 4}, {6, 0}};
    ContourSet ps;
    add_contour(ps, pent, 1);
    CHECK(mesh_of(ps, 3).npolys == 3);
    CHECK(mesh_of(ps, 5).npolys == 1);
    const PolyMesh two = mesh_of(ps, 4);
    REQUIRE(two.npolys == 2);
    CHECK(two.poly_vert_count(0) + two.poly_vert_count(1) == 7);
    CHECK(poly_area2(two, 0) + poly_area2(two, 1) == contour_area2(pent));
    // The two pieces are neighbours across their shared diagonal.
    CHECK(std::count(two.poly(0) + 4, two.poly(0) + 8, 1) == 1);
    CHECK(std::count(two.poly(1) + 4, two.poly(1) + 8, 0) == 1);
}

TEST_CASE("polymesh: adjacency of a 2x2 grid of squares") {
    ContourSet cs;
    cs.width = 8;
    cs.height = 8;
    // Regions: 1 (x 0-4, z 0-4), 2 (x 4-8, z 0-4), 3 (x 0-4, z 4-8), 4 (x 4-8, z 4-8).
    auto square = [&](int x0, int z0, uint16_t reg) {
        add_contour(cs, {{x0, z0}, {x0, z0 + 4}, {x0 + 4, z0 + 4}, {x0 + 4, z0}}, reg);
    };
    square(0, 0, 1);
    square(4, 0, 2);
    square(0, 4, 3);
    square(4, 4, 4);
    const PolyMesh m = mesh_of(cs, 6);
    CHECK(m.nverts == 9);
    REQUIRE(m.npolys == 4);
    std::map<uint16_t, int> by_reg;
    for (int i = 0; i < 4; ++i) by_reg[m.regs[static_cast<size_t>(i)]] = i;
    REQUIRE(by_reg.size() == 4);
    auto neighbours = [&](int i) {
        std::set<int> s;
        const uint16_t* p = m.poly(i);
        for (int k = 0; k < m.poly_vert_count(i); ++k)
            if (p[m.nvp + k] != nav::kMeshNullIdx) s.insert(p[m.nvp + k]);
        return s;
    };
    CHECK(neighbours(by_reg[1]) == std::set<int>{by_reg[2], by_reg[3]});
    CHECK(neighbours(by_reg[2]) == std::set<int>{by_reg[1], by_reg[4]});
    CHECK(neighbours(by_reg[3]) == std::set<int>{by_reg[1], by_reg[4]});
    CHECK(neighbours(by_reg[4]) == std::set<int>{by_reg[2], by_reg[3]});
    // The edge of 1 that leads to 2 is the segment x = 4, z in [0, 4].
    const uint16_t* p = m.poly(by_reg[1]);
    for (int k = 0; k < 4; ++k) {
        if (p[m.nvp + k] != by_reg[2]) continue;
        const uint16_t* a = &m.verts[p[k] * 3u];
        const uint16_t* b = &m.verts[p[(k + 1) % 4] * 3u];
        CHECK(a[0] == 4);
        CHECK(b[0] == 4);
        CHECK(std::min(a[2], b[2]) == 0);
        CHECK(std::max(a[2], b[2]) == 4);
    }
    // Without a tile border, open edges stay boundaries (no portal flags).
    for (int i = 0; i < 4; ++i)
        for (int k = 0; k < 4; ++k) {
            const uint16_t n = m.poly(i)[m.nvp + k];
            CHECK((n == nav::kMeshNullIdx || n < 4));
        }
}

TEST_CASE("polymesh: vertices weld when x, z match and heights are within 2") {
    for (int dy : {0, 2, 3}) {
        CAPTURE(dy);
        ContourSet cs;
        add_contour(cs, {{0, 0, 0}, {0, 4, 0}, {4, 4, 0}, {4, 0, 0}}, 1);
        add_contour(cs, {{4, 0, dy}, {4, 4, dy}, {8, 4, dy}, {8, 0, dy}}, 2);
        const PolyMesh m = mesh_of(cs, 6);
        CHECK(m.nverts == (dy <= 2 ? 6 : 8));
        CHECK(m.npolys == 2);
        // Adjacent only when the shared edge welded.
        const bool linked = std::count(m.poly(0) + 6, m.poly(0) + 12, 1) == 1;
        CHECK(linked == (dy <= 2));
    }
}

TEST_CASE("polymesh: tile-border vertices are removed and border edges become portals") {
    ContourSet cs;
    cs.width = 4;
    cs.height = 4;
    cs.border_size = 3;
    // A square covering the whole tile with an extra vertex in the middle of its -x side, flagged
    // as a border vertex (as build_contours flags them next to the border regions).
    add_contour(cs, {{0, 0}, {0, 2, 0, nav::kBorderVertex}, {0, 4}, {4, 4}, {4, 0}}, 1);
    const PolyMesh m = mesh_of(cs, 6);
    CHECK(m.nverts == 4);
    REQUIRE(m.npolys == 1);
    CHECK(m.poly_vert_count(0) == 4);
    CHECK(poly_area2(m, 0) == 2 * 16);
    CHECK(m.border_size == 3);
    // Each side lies on the tile border: 0 (-x), 1 (+z), 2 (+x), 3 (-z).
    const uint16_t* p = m.poly(0);
    for (int k = 0; k < 4; ++k) {
        const uint16_t* a = &m.verts[p[k] * 3u];
        const uint16_t* b = &m.verts[p[(k + 1) % 4] * 3u];
        int side = -1;
        if (a[0] == 0 && b[0] == 0) side = 0;
        if (a[2] == 4 && b[2] == 4) side = 1;
        if (a[0] == 4 && b[0] == 4) side = 2;
        if (a[2] == 0 && b[2] == 0) side = 3;
        REQUIRE(side >= 0);
        CHECK(p[m.nvp + k] == (0x8000 | side));
    }
    // Without the flag, the vertex stays (5 vertices, one polygon of 5 with nvp 6).
    ContourSet keep = cs;
    keep.verts[1 * 4 + 3] = 0;
    const PolyMesh k = mesh_of(keep, 6);
    CHECK(k.nverts == 5);
}

TEST_CASE("polymesh: input checks") {
    ContourSet cs;
    add_contour(cs, {{0, 0}, {0, 4}, {4, 4}, {4, 0}}, 1);
    PolyMesh m;
    CHECK(nav::build_poly_mesh(cs, 2, m).code == nav::Status::Code::BadInput);
    CHECK(nav::build_poly_mesh(cs, nav::kMaxVertsPerPoly + 1, m).code == nav::Status::Code::BadInput);
    CHECK(nav::build_poly_mesh(cs, nav::kMaxVertsPerPoly, m).is_ok());
    CHECK(m.npolys == 1);
    nav::CancelFlag cancel{true};
    CHECK(nav::build_poly_mesh(cs, 6, m, &cancel).code == nav::Status::Code::Cancelled);

    // More than 65535 distinct vertices: 21846 separate triangles.
    ContourSet big;
    for (int i = 0; i < 21846; ++i) {
        const int x = (i % 200) * 3, z = (i / 200) * 3;
        add_contour(big, {{x, z}, {x, z + 2}, {x + 2, z}}, 1);
    }
    const nav::Status st = nav::build_poly_mesh(big, 6, m);
    CHECK(st.code == nav::Status::Code::BadInput);
    CHECK(st.message.find("65535") != std::string::npos);

    // Empty contour sets give an empty mesh; merged-away holes (nverts 0) are skipped.
    ContourSet empty;
    add_contour(empty, {}, 3);
    REQUIRE(nav::build_poly_mesh(empty, 6, m).is_ok());
    CHECK(m.npolys == 0);
    CHECK(m.nverts == 0);
    CHECK(m.polys.empty());
}

// ---------------------------------------------------------------------------------------------
// Properties on baked scenes.

namespace {

using navtest::Baked;
using navtest::bake;

void check_mesh_properties(const ContourSet& cs, const PolyMesh& m) {
    const int nvp = m.nvp;
    REQUIRE(m.polys.size() == static_cast<size_t>(m.npolys) * 2 * static_cast<size_t>(nvp));
    REQUIRE(m.verts.size() == static_cast<size_t>(m.nverts) * 3);
    REQUIRE(m.regs.size() == static_cast<size_t>(m.npolys));
    REQUIRE(m.areas.size() == static_cast<size_t>(m.npolys));
    REQUIRE(m.flags.size() == static_cast<size_t>(m.npolys));
    CHECK(m.warnings.empty());
    for (int v = 0; v < m.nverts; ++v) {
        CHECK(m.verts[v * 3u] <= cs.width);
        CHECK(m.verts[v * 3u + 2] <= cs.height);
    }
    // Directed edges -> (polygon, edge index).
    std::map<std::pair<int, int>, std::vector<std::pair<int, int>>> directed;
    int64_t total = 0;
    for (int i = 0; i < m.npolys; ++i) {
        const uint16_t* p = m.poly(i);
        const int n = m.poly_vert_count(i);
        CHECK(n >= 3);
        CHECK(n <= nvp);
        for (int k = n; k < nvp; ++k) CHECK(p[k] == nav::kMeshNullIdx);
        std::set<uint16_t> distinct(p, p + n);
        CHECK(static_cast<int>(distinct.size()) == n);
        for (int k = 0; k < n; ++k) CHECK(p[k] < m.nverts);
        // Convex and consistently wound: no corner turns the other way, and the area is positive.
        for (int k = 0; k < n; ++k) {
            const uint16_t* a = &m.verts[p[(k + n - 1) % n] * 3u];
            const uint16_t* b = &m.verts[p[k] * 3u];
            const uint16_t* c = &m.verts[p[(k + 1) % n] * 3u];
            CHECK(corner_area2(a, b, c) <= 0);
        }
        const int64_t a2 = poly_area2(m, i);
        CHECK(a2 > 0);
        total += a2;
        CHECK(m.regs[static_cast<size_t>(i)] != 0);
        CHECK(m.areas[static_cast<size_t>(i)] != nav::kNullArea);
        for (int k = 0; k < n; ++k) directed[{p[k], p[(k + 1) % n]}].emplace_back(i, k);
    }
    // Adjacency: symmetric, across a shared edge; an open edge has no unclaimed twin.
    for (int i = 0; i < m.npolys; ++i) {
        const uint16_t* p = m.poly(i);
        const int n = m.poly_vert_count(i);
        for (int k = 0; k < n; ++k) {
            const int a = p[k], b = p[(k + 1) % n];
            const uint16_t nb = p[nvp + k];
            if (nb != nav::kMeshNullIdx) {
                REQUIRE(nb < m.npolys);
                const uint16_t* q = m.poly(nb);
                const int qn = m.poly_vert_count(nb);
                int back = -1;
                for (int j = 0; j < qn; ++j)
                    if (q[j] == b && q[(j + 1) % qn] == a) back = j;
                REQUIRE(back >= 0);
                CHECK(q[nvp + back] == i);
            } else {
                auto it = directed.find({b, a});
                if (it == directed.end()) continue;
                for (auto [q, j] : it->second) CHECK(m.poly(q)[nvp + j] != nav::kMeshNullIdx);
            }
        }
    }
    // The polygons tile the contours exactly.
    int64_t contour_total = 0;
    for (const nav::Contour& c : cs.contours) {
        int64_t a = 0;
        for (uint32_t i = 0, j = c.nverts - 1; i < c.nverts; j = i++) {
            const int32_t* vi = &cs.verts[(c.vert_start + i) * 4];
            const int32_t* vj = &cs.verts[(c.vert_start + j) * 4];
            a += static_cast<int64_t>(vi[0]) * vj[2] - static_cast<int64_t>(vj[0]) * vi[2];
        }
        contour_total += a;
    }
    CHECK(total == contour_total);
}

void check_scene(const nav::InputMesh& mesh) {
    Baked b;
    bake(mesh, b);
    for (int p = 0; p < 3; ++p) {
        CAPTURE(p);
        ContourSet cs;
        REQUIRE(nav::build_contours(b.chf, b.areas, b.regions[static_cast<size_t>(p)], 1.3f, 40,
                                    nav::kTessWallEdges, cs)
                    .is_ok());
        for (int nvp : {3, 6, 12}) {
            CAPTURE(nvp);
            PolyMesh m;
            const nav::Status st = nav::build_poly_mesh(cs, nvp, m);
            REQUIRE_MESSAGE(st.is_ok(), st.message);
            CHECK(m.npolys > 0);
            check_mesh_properties(cs, m);
        }
        // Reusing the output gives the same mesh.
        PolyMesh m1, m2;
        REQUIRE(nav::build_poly_mesh(cs, 6, m1).is_ok());
        m2 = m1;
        REQUIRE(nav::build_poly_mesh(cs, 6, m2).is_ok());
        CHECK(m1.polys == m2.polys);
        CHECK(m1.verts == m2.verts);
    }
}

}  // namespace

TEST_CASE("polymesh: properties on a generated scene") {
    nav::InputMesh mesh;
    navtest::add_floor(mesh, 0, 0, 30, 30, 0);
    navtest::add_box(mesh, 5, 0, 5, 10, 3, 12);
    navtest::add_box(mesh, 14, 0, 14, 16, 1.5f, 28);
    navtest::add_box(mesh, 20, 0, 3, 26, 2.5f, 9);
    navtest::add_box(mesh, 12, 0, 4, 13, 4, 5);
    navtest::add_floor(mesh, 2, 18, 12, 28, 4);
    mesh.compute_bounds();
    check_scene(mesh);
}

TEST_CASE("polymesh: properties on the shared meshes") {
    for (const char* name : {"dungeon.obj", "nav_test.obj", "undulating.obj"}) {
        CAPTURE(name);
        const std::string path = navtest::shared_mesh_or_skip(name);
        if (path.empty()) continue;
        nav::InputMesh mesh;
        REQUIRE(nav::load_obj(path, mesh).is_ok());
        check_scene(mesh);
    }
}

TEST_CASE("polymesh: a contour that cannot be triangulated gives a warning naming its region, no crash") {
    // A pentagram (the outline crosses itself, as a corrupt contour set could give): once its
    // first ears are cut no diagonal is valid even with the loose test. Every polygon that is
    // produced must still be valid.
    nav::ContourSet cs;
    cs.cs = 0.3f;
    cs.ch = 0.2f;
    cs.width = cs.height = 24;
    const int32_t bow[][4] = {{10, 0, 20, 0}, {16, 0, 2, 0}, {0, 0, 13, 0}, {20, 0, 13, 0}, {4, 0, 2, 0}};
    nav::Contour c;
    c.vert_start = 0;
    c.nverts = 5;
    c.raw_start = 0;
    c.nraw = 0;
    c.reg = 7;
    c.area = nav::kWalkableArea;
    cs.contours.push_back(c);
    for (const auto& v : bow) cs.verts.insert(cs.verts.end(), v, v + 4);
    nav::PolyMesh pm;
    REQUIRE(nav::build_poly_mesh(cs, 6, pm));
    REQUIRE_FALSE(pm.warnings.empty());
    CHECK(pm.warnings.front().find("region 7") != std::string::npos);
    for (int i = 0; i < pm.npolys; ++i) CHECK(pm.poly_vert_count(i) >= 3);
}

TEST_CASE("polymesh: an outline with a bridged hole gives no polygon wound the wrong way") {
    // Region 1 of undulating tiled 5 x 5, tile 13,5, at edge_max_error 5 (border vertices left as
    // plain corners): the outline, then the bridge from (64,30) to the triangular hole
    // (51,42) (60,35) (61,43), walked round and back to (51,42). Ear clipping took (61,43) (51,42)
    // (64,30), whose diagonal crosses no edge but whose corner at the bridge's second (51,42) is
    // reflex: the triangle held the hole and came out wound the wrong way (twice-area -133; Recast
    // 1.5.1 gives the same), and the runtime refused the tile ("wound counter-clockwise in xz").
    const std::vector<CV> outline = {{64, 30}, {58, 21}, {0, 21},  {0, 64},  {12, 64}, {14, 55}, {33, 64},
                                     {64, 64}, {64, 30}, {51, 42}, {60, 35}, {61, 43}, {51, 42}};
    const std::vector<CV> hole = {{51, 42}, {60, 35}, {61, 43}};
    std::vector<CV> hull(outline.begin(), outline.begin() + 8);
    REQUIRE(contour_area2(hull) > 0);
    REQUIRE(contour_area2(hole) < 0);  // walked the other way round
    ContourSet cs;
    cs.cs = 0.3f;
    cs.ch = 0.2f;
    cs.width = cs.height = 64;
    add_contour(cs, outline, 1);
    for (int nvp : {3, 6}) {
        CAPTURE(nvp);
        const PolyMesh m = mesh_of(cs, nvp);
        REQUIRE(m.npolys > 0);
        int64_t total = 0;
        for (int i = 0; i < m.npolys; ++i) {
            CAPTURE(i);
            const int64_t a = poly_area2(m, i);
            CHECK(a > 0);  // the outline's winding, never the other
            total += a;
            // No polygon covers the hole: its centroid (times 3) is not inside the hole.
            const uint16_t* p = m.poly(i);
            const int n = m.poly_vert_count(i);
            int64_t sx = 0, sz = 0;
            for (int k = 0; k < n; ++k) {
                sx += m.verts[p[k] * 3u];
                sz += m.verts[p[k] * 3u + 2];
            }
            std::vector<CV> scaled;
            for (const CV& v : hole) scaled.push_back({v.x * n, v.z * n});
            CHECK_FALSE(inside(scaled, 2 * sx, 2 * sz));
        }
        CHECK(total == contour_area2(outline));  // the outline less the hole, covered once
        CHECK(m.warnings.empty());
        nav::NavTile tile;
        const nav::Status st = nav::make_nav_tile(m, nav::PolyMeshDetail{}, tile);
        CHECK_MESSAGE(st.is_ok(), st.message);
    }
}

TEST_CASE("make_nav_tile: the runtime's check names the tile it was given") {
    // one triangle, in both windings: one is the mesh's (clockwise in xz), the other is refused
    // with the tile's grid position in the message (a tiled bake's error said tile (0, 0))
    nav::PolyMesh m;
    m.nvp = 3;
    m.verts = {0, 0, 0, 10, 0, 0, 0, 0, 10};
    m.nverts = 3;
    m.npolys = 1;
    m.regs = {1};
    m.flags = {0};
    m.areas = {nav::kWalkableArea};
    m.bmax[0] = m.bmax[2] = 3.0f;
    m.bmax[1] = 1.0f;
    int refused = 0;
    for (const std::vector<uint16_t>& order : {std::vector<uint16_t>{0, 1, 2}, std::vector<uint16_t>{0, 2, 1}}) {
        m.polys = {order[0], order[1], order[2], nav::kMeshNullIdx, nav::kMeshNullIdx, nav::kMeshNullIdx};
        nav::NavTile tile;
        const nav::Status st = nav::make_nav_tile(m, nav::PolyMeshDetail{}, tile, 3, 4);
        CHECK(tile.x == 3);
        CHECK(tile.z == 4);
        if (st.is_ok()) continue;
        ++refused;
        CHECK_MESSAGE(st.message.find("tile (3, 4)") != std::string::npos, st.message);
        CHECK(st.message.find("counter-clockwise") != std::string::npos);
    }
    CHECK(refused == 1);
}
