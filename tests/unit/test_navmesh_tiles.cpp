// The runtime navmesh made of tiles: stitching of tile-border portals (edges split where they meet
// several polygons, walls where they meet none or a step too high), every query across tiles,
// salted references that go stale when their tile is rebuilt or removed, and a tiled mesh that
// answers exactly as the same polygons in one tile.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/common.h"
#include "core/runtime/islands.h"
#include "core/runtime/navmesh.h"
#include "core/runtime/query.h"
#include "core/runtime/tile.h"

namespace {

using TilePtr = std::shared_ptr<const nav::NavTile>;

struct Rect {
    float x0, z0, x1, z1;
};

// A flat tile at height y over the box [bx0, bx1] x [bz0, bz1] made of axis-aligned rectangles
// that meet edge to edge (no T-junctions inside the tile). Edges shared by two rectangles are
// neighbours; an unshared edge on the box's boundary is a portal to the tile on that side.
std::shared_ptr<nav::NavTile> make_tile(int tx, int tz, Rect box, const std::vector<Rect>& rects, float y = 0,
                                        int layer = 0) {
    auto t = std::make_shared<nav::NavTile>();
    t->x = tx, t->z = tz, t->layer = layer;
    t->walkable_climb = 0.9f, t->walkable_height = 2.0f, t->walkable_radius = 0.6f;
    std::map<std::pair<float, float>, uint32_t> vid;
    auto vert = [&](float x, float z) {
        auto [it, fresh] = vid.try_emplace({x, z}, static_cast<uint32_t>(t->verts.size() / 3));
        if (fresh) t->verts.insert(t->verts.end(), {x, y, z});
        return it->second;
    };
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> owner;
    t->poly_first.push_back(0);
    for (const Rect& r : rects) {
        const uint32_t p = static_cast<uint32_t>(t->areas.size());
        // clockwise in xz (Recast's winding): (x0,z0) (x0,z1) (x1,z1) (x1,z0)
        const uint32_t v[4] = {vert(r.x0, r.z0), vert(r.x0, r.z1), vert(r.x1, r.z1), vert(r.x1, r.z0)};
        for (int j = 0; j < 4; ++j) {
            t->edge_vert.push_back(v[j]);
            owner[{v[j], v[(j + 1) % 4]}] = p;
        }
        t->poly_first.push_back(static_cast<uint32_t>(t->edge_vert.size()));
        t->areas.push_back(nav::kWalkableArea);
        t->flags.push_back(nav::kPolyFlagDefault);
    }
    for (size_t p = 0; p < rects.size(); ++p)
        for (uint32_t e = t->poly_first[p]; e < t->poly_first[p + 1]; ++e) {
            const uint32_t a = t->edge_vert[e], b = t->edge_vert[e + 1 == t->poly_first[p + 1] ? t->poly_first[p] : e + 1];
            const auto it = owner.find({b, a});
            uint32_t nei = nav::kNoPoly;
            if (it != owner.end()) {
                nei = it->second;
            } else {
                const float ax = t->verts[a * 3], az = t->verts[a * 3 + 2], bx = t->verts[b * 3], bz = t->verts[b * 3 + 2];
                if (ax == bx && ax == box.x0) nei = nav::kTilePortal | 0;
                if (az == bz && az == box.z1) nei = nav::kTilePortal | 1;
                if (ax == bx && ax == box.x1) nei = nav::kTilePortal | 2;
                if (az == bz && az == box.z0) nei = nav::kTilePortal | 3;
            }
            t->edge_nei.push_back(nei);
        }
    nav::build_tile_bvtree(*t);
    return t;
}

// Squares of side s filling the box, skipping those whose index (i, k) `skip` names.
std::vector<Rect> squares(Rect box, float s, std::vector<std::pair<int, int>> skip = {}) {
    std::vector<Rect> out;
    const int nx = static_cast<int>(std::lround((box.x1 - box.x0) / s)), nz = static_cast<int>(std::lround((box.z1 - box.z0) / s));
    for (int k = 0; k < nz; ++k)
        for (int i = 0; i < nx; ++i)
            if (std::find(skip.begin(), skip.end(), std::make_pair(i, k)) == skip.end())
                out.push_back({box.x0 + static_cast<float>(i) * s, box.z0 + static_cast<float>(k) * s,
                               box.x0 + static_cast<float>(i + 1) * s, box.z0 + static_cast<float>(k + 1) * s});
    return out;
}

nav::NavMesh mesh_of(std::vector<TilePtr> tiles, const nav::NavMesh* previous = nullptr) {
    nav::NavMesh m;
    const nav::Status s = nav::build_navmesh(tiles, previous, m);
    REQUIRE_MESSAGE(s.is_ok(), s.message);
    return m;
}

// Every portal's twin points back, with the same two end points reversed (to rounding).
void check_portals(const nav::NavMesh& m) {
    for (uint32_t e = 0; e < static_cast<uint32_t>(m.nedges); ++e) {
        const uint32_t o = m.edge_opp[e];
        if (m.edge_nei[e] == nav::kNoPoly) {
            CHECK(o == nav::kNoEdge);
            continue;
        }
        REQUIRE(o != nav::kNoEdge);
        CHECK(m.edge_opp[o] == e);
        CHECK(m.edge_poly[o] == m.edge_nei[e]);
        float a[3], b[3], c[3], d[3];
        m.edge_points(e, a, b);
        m.edge_points(o, c, d);
        for (int k = 0; k < 3; ++k) {
            CHECK(a[k] == doctest::Approx(d[k]).epsilon(1e-5));
            CHECK(b[k] == doctest::Approx(c[k]).epsilon(1e-5));
        }
    }
}

float route_length(nav::NavQuery& q, const float* s, const float* e, bool* reached = nullptr) {
    const float ext[3] = {0.5f, 2.0f, 0.5f};
    nav::Route r;
    const nav::Status st = q.find_route(s, e, ext, nav::QueryFilter{}, {}, r);
    REQUIRE_MESSAGE(st.is_ok(), st.message);
    REQUIRE(r.found());
    if (reached) *reached = r.path.reached;
    return r.straight.length();
}

const Rect kBoxA{0, 0, 4, 4}, kBoxB{4, 0, 8, 4};

}  // namespace

TEST_CASE("references: an index does not pass for a PolyRef") {
    // No integer converts to a reference: a dense index (or any count) passed where a PolyRef is
    // expected does not compile. Only the packed 64-bit value constructs one, explicitly.
    static_assert(!std::is_convertible_v<uint32_t, nav::PolyRef>);
    static_assert(!std::is_convertible_v<int, nav::PolyRef>);
    static_assert(!std::is_convertible_v<size_t, nav::PolyRef>);
    static_assert(!std::is_convertible_v<uint64_t, nav::PolyRef>);
    static_assert(!std::is_constructible_v<nav::PolyRef, uint32_t>);
    static_assert(!std::is_constructible_v<nav::PolyRef, int>);
    static_assert(std::is_constructible_v<nav::PolyRef, uint64_t>);
    // Nor does a reference turn back into an integer by itself.
    static_assert(!std::is_convertible_v<nav::PolyRef, uint64_t>);
    static_assert(!std::is_convertible_v<nav::PolyRef, uint32_t>);
    // As cheap as the integer it wraps.
    static_assert(sizeof(nav::PolyRef) == sizeof(uint64_t) && std::is_trivially_copyable_v<nav::PolyRef>);

    // The fields round-trip, kNoRef is what a default reference is, and equal references hash equal.
    constexpr nav::PolyRef r = nav::make_poly_ref(5, 7, 9);
    static_assert(nav::ref_salt(r) == 5 && nav::ref_slot(r) == 7 && nav::ref_poly(r) == 9);
    static_assert(nav::PolyRef{r.value()} == r && nav::make_poly_ref(6, 7, 9) != r);
    CHECK(nav::PolyRef{} == nav::kNoRef);
    CHECK(nav::kNoRef.value() == uint64_t{nav::kNoPoly});  // the packed value files and printouts carry
    CHECK(std::hash<nav::PolyRef>{}(r) == std::hash<nav::PolyRef>{}(nav::PolyRef{r.value()}));
    std::unordered_set<nav::PolyRef> set{r, nav::make_poly_ref(5, 7, 10), r};
    CHECK(set.size() == 2);
}

TEST_CASE("tiles: a border edge meeting two polygons is split and every query crosses it") {
    // Tile A: 1 m squares; tile B: 2 m squares, so each B edge on x = 4 meets two A edges.
    auto a = make_tile(0, 0, kBoxA, squares(kBoxA, 1));
    auto b = make_tile(1, 0, kBoxB, squares(kBoxB, 2));
    const nav::NavMesh m = mesh_of({a, b});
    CHECK(m.ntiles == 2);
    CHECK(m.npolys == 16 + 4);
    CHECK(m.split_edges == 2);  // B's two border edges; A's meet one polygon each
    CHECK(m.nislands == 1);
    check_portals(m);
    int cross = 0;
    for (uint32_t e = 0; e < static_cast<uint32_t>(m.nedges); ++e)
        if (m.edge_nei[e] != nav::kNoPoly && m.poly_slot[m.edge_poly[e]] != m.poly_slot[m.edge_nei[e]]) ++cross;
    CHECK(cross == 8);  // four portals, seen from both sides

    nav::NavQuery q;
    q.init(&m);
    const nav::QueryFilter f;
    // Open flat rectangle: the path is the straight line, through the split portals.
    const float s[3] = {0.5f, 0, 2.5f}, e[3] = {7.5f, 0, 1.5f};
    bool reached = false;
    CHECK(route_length(q, s, e, &reached) == doctest::Approx(std::hypot(7.0f, 1.0f)).epsilon(1e-5));
    CHECK(reached);

    nav::NearestPoly ns, ne;
    const float ext[3] = {0.5f, 2.0f, 0.5f};
    REQUIRE(q.find_nearest_poly(s, ext, f, ns));
    REQUIRE(q.find_nearest_poly(e, ext, f, ne));
    CHECK(nav::ref_slot(ns.poly) != nav::ref_slot(ne.poly));

    // Raycast: no wall between the two ends; beyond x = 8 the outer wall stops it.
    nav::RaycastHit ray;
    REQUIRE(q.raycast(ns.poly, s, e, f, ray));
    CHECK_FALSE(ray.hit);
    CHECK(m.poly_index(ray.polys.back()) == m.poly_index(ne.poly));
    const float far[3] = {10.5f, 0, 2.5f};
    REQUIRE(q.raycast(ns.poly, s, far, f, ray));
    CHECK(ray.hit);
    CHECK(0.5f + ray.t * 10.0f == doctest::Approx(8.0f).epsilon(1e-4));

    // The tile border is no wall: from (4, 2) the nearest wall is 2 m away (z = 0 or z = 4).
    const float mid[3] = {4.0f, 0, 2.0f};
    nav::NearestPoly nm;
    REQUIRE(q.find_nearest_poly(mid, ext, f, nm));
    nav::WallHit wall;
    REQUIRE(q.find_distance_to_wall(nm.poly, mid, 5.0f, f, wall));
    CHECK(wall.found);
    CHECK(wall.distance == doctest::Approx(2.0f).epsilon(1e-4));

    // A circle over the border reaches polygons of both tiles.
    nav::PolysAround around;
    REQUIRE(q.find_polys_around_circle(nm.poly, mid, 1.5f, f, around));
    bool in_a = false, in_b = false;
    for (nav::PolyRef r : around.polys) (nav::ref_slot(r) == 0 ? in_a : in_b) = true;
    CHECK(in_a);
    CHECK(in_b);

    // Random points cover both tiles by area (16 m^2 each).
    nav::Rng rng(7);
    int na = 0;
    const int kSamples = 4000;
    for (int i = 0; i < kSamples; ++i) {
        nav::RandomPoint rp;
        REQUIRE(q.random_point(f, rng, rp));
        REQUIRE(rp.poly != nav::kNoRef);
        if (rp.point[0] < 4.0f) ++na;
        CHECK(nav::ref_slot(rp.poly) == (rp.point[0] < 4.0f ? 0u : 1u));
    }
    CHECK(std::abs(na - kSamples / 2) < kSamples / 20);
}

TEST_CASE("tiles: a border with nothing across, or a step too high, is a wall") {
    // B lacks its lower-left 2 m square: A's border edges at z in [0, 2] face nothing.
    auto a = make_tile(0, 0, kBoxA, squares(kBoxA, 1));
    auto b = make_tile(1, 0, kBoxB, squares(kBoxB, 2, {{0, 0}}));
    const nav::NavMesh m = mesh_of({a, b});
    check_portals(m);
    CHECK(m.nislands == 1);
    nav::NavQuery q;
    q.init(&m);
    // From A's lower half to B's lower right: around the missing square, through z > 2.
    const float s[3] = {3.5f, 0, 0.5f}, e[3] = {7.5f, 0, 0.5f};
    bool reached = false;
    const float len = route_length(q, s, e, &reached);
    CHECK(reached);
    // around the missing square [4, 6] x [0, 2]: corners (4, 2) and (6, 2)
    CHECK(len == doctest::Approx(std::hypot(0.5f, 1.5f) + 2.0f + std::hypot(1.5f, 1.5f)).epsilon(1e-5));

    // B raised 3 m (over the 0.9 m climb): no link, two islands.
    auto high = make_tile(1, 0, kBoxB, squares(kBoxB, 2), 3.0f);
    const nav::NavMesh m2 = mesh_of({a, high});
    CHECK(m2.nislands == 2);
    for (uint32_t e2 = 0; e2 < static_cast<uint32_t>(m2.nedges); ++e2)
        if (m2.edge_nei[e2] != nav::kNoPoly) CHECK(m2.poly_slot[m2.edge_poly[e2]] == m2.poly_slot[m2.edge_nei[e2]]);
    // 0.5 m up is within the climb: linked.
    auto step = make_tile(1, 0, kBoxB, squares(kBoxB, 2), 0.5f);
    CHECK(mesh_of({a, step}).nislands == 1);
    // Two layers on the far side, one at the floor and one 3 m up: only the floor links.
    auto upper = make_tile(1, 0, kBoxB, squares(kBoxB, 2), 3.0f, 1);
    const nav::NavMesh m3 = mesh_of({a, b, upper});
    CHECK(m3.ntiles == 3);
    CHECK(m3.nislands == 2);
}

TEST_CASE("tiles: references survive rebuilds of other tiles and go stale with their own") {
    auto a = make_tile(0, 0, kBoxA, squares(kBoxA, 1));
    auto b = make_tile(1, 0, kBoxB, squares(kBoxB, 2));
    const nav::NavMesh m1 = mesh_of({a, b});
    nav::NavQuery q1;
    q1.init(&m1);
    const float pa[3] = {1.5f, 0, 1.5f}, pb[3] = {6.5f, 0, 2.5f}, ext[3] = {0.5f, 2.0f, 0.5f};
    const nav::QueryFilter f;
    nav::NearestPoly na, nb;
    REQUIRE(q1.find_nearest_poly(pa, ext, f, na));
    REQUIRE(q1.find_nearest_poly(pb, ext, f, nb));
    REQUIRE(na.poly != nav::kNoRef);
    REQUIRE(nb.poly != nav::kNoRef);
    nav::PathResult path1;
    REQUIRE(q1.find_path(na.poly, nb.poly, pa, pb, f, path1));
    CHECK(path1.reached);

    // Same tile objects again: nothing goes stale.
    const nav::NavMesh same = mesh_of({b, a}, &m1);
    CHECK(same.poly_index(na.poly) != nav::kNoPoly);
    CHECK(same.poly_index(nb.poly) != nav::kNoPoly);
    CHECK(same.slots[0].salt == m1.slots[0].salt);

    // B rebuilt (a new object, same content): A's references hold, B's are stale everywhere.
    auto b2 = std::make_shared<nav::NavTile>(*b);
    const nav::NavMesh m2 = mesh_of({a, b2}, &m1);
    CHECK(m2.slots.size() == 2);
    CHECK(m2.slots[1].salt == m1.slots[1].salt + 1);
    CHECK(m2.poly_index(na.poly) != nav::kNoPoly);
    CHECK(m2.poly_index(nb.poly) == nav::kNoPoly);
    nav::NavQuery q;
    q.init(&m2);
    auto stale = [](const nav::Status& s) {
        return s.code == nav::Status::Code::BadInput && s.message.find("stale") != std::string::npos;
    };
    float out[3];
    nav::PathResult path;
    nav::RaycastHit ray;
    nav::WallHit wall;
    nav::PolysAround around;
    nav::StraightPath sp;
    nav::PruneStats ps;
    CHECK(stale(q.find_path(na.poly, nb.poly, pa, pb, f, path)));
    CHECK(stale(q.find_path(nb.poly, na.poly, pb, pa, f, path)));
    CHECK(stale(q.closest_point_on_poly(nb.poly, pb, out)));
    CHECK(stale(q.closest_point_on_poly_boundary(nb.poly, pb, out)));
    CHECK(stale(q.raycast(nb.poly, pb, pa, f, ray)));
    CHECK(stale(q.find_distance_to_wall(nb.poly, pb, 3.0f, f, wall)));
    CHECK(stale(q.find_polys_around_circle(nb.poly, pb, 3.0f, f, around)));
    CHECK(stale(q.find_straight_path(pa, pb, path1.polys, {}, sp)));  // an old corridor into B
    nav::NavMesh m2c = m2;
    CHECK(nav::prune_unreachable(m2c, nb.poly, &ps).code == nav::Status::Code::BadInput);
    // A's reference still works, and a fresh one into B too.
    nav::NearestPoly nb2;
    REQUIRE(q.find_nearest_poly(pb, ext, f, nb2));
    CHECK(nb2.poly != nb.poly);
    CHECK(nav::ref_slot(nb2.poly) == nav::ref_slot(nb.poly));
    REQUIRE(q.find_path(na.poly, nb2.poly, pa, pb, f, path));
    CHECK(path.reached);

    // B removed: its slot empties; added back, the slot is reused with a newer salt.
    const nav::NavMesh m3 = mesh_of({a}, &m2);
    CHECK(m3.ntiles == 1);
    CHECK(m3.poly_index(nb2.poly) == nav::kNoPoly);
    CHECK(m3.poly_index(na.poly) != nav::kNoPoly);
    const nav::NavMesh m4 = mesh_of({a, b}, &m3);
    CHECK(m4.find_slot(1, 0, 0) == 1);
    CHECK(m4.slots[1].salt == m1.slots[1].salt + 2);  // +1 rebuilt, +1 removed
    CHECK(m4.poly_index(nb.poly) == nav::kNoPoly);
    CHECK(m4.poly_index(nb2.poly) == nav::kNoPoly);
}

TEST_CASE("tiles: cut into tiles, a random grid answers exactly as in one tile") {
    std::mt19937 rng(1234);
    for (int round = 0; round < 20; ++round) {
        // 12 x 8 cells of 1 m, about 15% closed; tiles of 4 x 4 cells.
        std::vector<std::pair<int, int>> closed;
        for (int k = 0; k < 8; ++k)
            for (int i = 0; i < 12; ++i)
                if (rng() % 100 < 15) closed.push_back({i, k});
        const Rect whole{0, 0, 12, 8};
        auto solo = make_tile(0, 0, whole, squares(whole, 1, closed));
        std::vector<TilePtr> tiles;
        for (int tz = 0; tz < 2; ++tz)
            for (int tx = 0; tx < 3; ++tx) {
                const Rect box{static_cast<float>(tx * 4), static_cast<float>(tz * 4), static_cast<float>(tx * 4 + 4),
                               static_cast<float>(tz * 4 + 4)};
                std::vector<std::pair<int, int>> skip;
                for (auto [i, k] : closed)
                    if (i / 4 == tx && k / 4 == tz) skip.push_back({i % 4, k % 4});
                tiles.push_back(make_tile(tx, tz, box, squares(box, 1, skip)));
            }
        const nav::NavMesh ms = mesh_of({solo}), mt = mesh_of(tiles);
        REQUIRE(ms.npolys == mt.npolys);
        CHECK(ms.nislands == mt.nislands);
        CHECK(mt.split_edges == 0);
        check_portals(mt);
        nav::NavQuery qs, qt;
        qs.init(&ms);
        qt.init(&mt);
        for (int i = 0; i < 40; ++i) {
            const float s[3] = {0.5f + static_cast<float>(rng() % 12), 0, 0.5f + static_cast<float>(rng() % 8)};
            const float e[3] = {0.5f + static_cast<float>(rng() % 12), 0, 0.5f + static_cast<float>(rng() % 8)};
            const float ext[3] = {0.4f, 1.0f, 0.4f};
            nav::Route rs, rt;
            REQUIRE(qs.find_route(s, e, ext, nav::QueryFilter{}, {}, rs));
            REQUIRE(qt.find_route(s, e, ext, nav::QueryFilter{}, {}, rt));
            REQUIRE(rs.found() == rt.found());
            if (!rs.found()) continue;
            CHECK(rs.path.reached == rt.path.reached);
            for (nav::PolyRef r : rt.path.polys) CHECK(mt.poly_index(r) != nav::kNoPoly);
            // The same graph under other polygon numbers: the optimum cost is the same (on a grid of
            // squares several corridors tie, so the corridor itself may differ).
            CHECK(rs.path.cost == doctest::Approx(rt.path.cost).epsilon(1e-5));
        }
    }
}

// Islands as a flood fill over the portals from polygon 0 up numbers them (what build_navmesh's
// union-find over the tiles' own components must reproduce), and each island's portal edge slots.
void check_islands_as_flood_fill(const nav::NavMesh& m) {
    std::vector<uint32_t> island(static_cast<size_t>(m.npolys), nav::kNoPoly);
    uint32_t n = 0;
    for (uint32_t seed = 0; seed < static_cast<uint32_t>(m.npolys); ++seed) {
        if (island[seed] != nav::kNoPoly) continue;
        std::vector<uint32_t> stack{seed};
        island[seed] = n;
        while (!stack.empty()) {
            const uint32_t p = stack.back();
            stack.pop_back();
            for (uint32_t e = m.poly_first[p]; e < m.poly_first[p + 1]; ++e)
                if (const uint32_t q = m.edge_nei[e]; q != nav::kNoPoly && island[q] == nav::kNoPoly) island[q] = n, stack.push_back(q);
        }
        ++n;
    }
    REQUIRE(m.nislands == static_cast<int>(n));
    CHECK(m.poly_island == island);
    std::vector<uint32_t> portals;
    for (uint32_t i = 0; i < n; ++i)
        for (uint32_t e = 0; e < static_cast<uint32_t>(m.nedges); ++e)
            if (m.edge_opp[e] != nav::kNoEdge && island[m.edge_poly[e]] == i) portals.push_back(e);
    CHECK(m.island_portals == portals);
}

TEST_CASE("tiles: replacing one tile gives the same mesh as building every tile afresh") {
    std::mt19937 rng(99);
    auto tile_at = [&](int tx, int tz, int open_pct) {
        const Rect box{static_cast<float>(tx * 4), static_cast<float>(tz * 4), static_cast<float>(tx * 4 + 4),
                       static_cast<float>(tz * 4 + 4)};
        std::vector<std::pair<int, int>> skip;
        for (int k = 0; k < 4; ++k)
            for (int i = 0; i < 4; ++i)
                if (static_cast<int>(rng() % 100) >= open_pct) skip.push_back({i, k});
        return TilePtr(make_tile(tx, tz, box, squares(box, 1, skip)));
    };
    int reused_islands = 0, recomputed_islands = 0;
    for (int round = 0; round < 30; ++round) {
        std::vector<TilePtr> tiles;
        for (int tz = 0; tz < 3; ++tz)
            for (int tx = 0; tx < 3; ++tx) tiles.push_back(tile_at(tx, tz, 60));  // many islands
        nav::NavMesh prev = mesh_of(tiles);
        check_islands_as_flood_fill(prev);
        for (int step = 0; step < 4; ++step) {
            const size_t k = rng() % tiles.size();
            tiles[k] = tile_at(tiles[k]->x, tiles[k]->z, 60);
            const nav::NavMesh inc = mesh_of(tiles, &prev), fresh = mesh_of(tiles);
            CHECK(inc.tiles_reused > 0);
            check_islands_as_flood_fill(inc);
            REQUIRE(inc.npolys == fresh.npolys);
            CHECK(inc.nislands == fresh.nislands);
            CHECK(inc.verts == fresh.verts);
            CHECK(inc.poly_first == fresh.poly_first);
            CHECK(inc.edge_vert == fresh.edge_vert);
            CHECK(inc.edge_nei == fresh.edge_nei);
            CHECK(inc.edge_opp == fresh.edge_opp);
            CHECK(inc.edge_poly == fresh.edge_poly);
            CHECK(inc.poly_portals == fresh.poly_portals);
            CHECK(inc.poly_island == fresh.poly_island);
            CHECK(inc.island_first == fresh.island_first);
            CHECK(inc.island_portals == fresh.island_portals);
            // Landmarks: islands of unchanged tiles copied from prev, the rest recomputed.
            CHECK(inc.landmarks()->count == fresh.landmarks()->count);
            CHECK(inc.landmarks()->dist == fresh.landmarks()->dist);
            reused_islands += inc.landmarks()->islands_reused;
            recomputed_islands += inc.nislands - inc.landmarks()->islands_reused;
            CHECK(inc.poly_area_cum == fresh.poly_area_cum);
            CHECK(inc.pair_dist == fresh.pair_dist);
            CHECK(inc.dtri_fast == fresh.dtri_fast);
            CHECK(inc.bvtree.size() == fresh.bvtree.size());
            for (int a = 0; a < 3; ++a) {
                CHECK(inc.bmin[a] == fresh.bmin[a]);
                CHECK(inc.bmax[a] == fresh.bmax[a]);
            }
            prev = inc;
        }
    }
    CHECK(reused_islands > 0);
    CHECK(recomputed_islands > 0);
}

TEST_CASE("tiles: bad tiles and bad sets are refused with the tile named") {
    auto a = make_tile(0, 0, kBoxA, squares(kBoxA, 1));
    nav::NavMesh m;
    std::vector<TilePtr> twice = {a, std::make_shared<nav::NavTile>(*a)};
    nav::Status s = nav::build_navmesh(twice, nullptr, m);
    CHECK(s.code == nav::Status::Code::BadInput);
    CHECK(s.message.find("two tiles at tile (0, 0)") != std::string::npos);
    CHECK(m.npolys == 0);

    auto bad_side = std::make_shared<nav::NavTile>(*a);
    bad_side->edge_nei[0] = nav::kTilePortal | 7;
    s = nav::build_navmesh(std::vector<TilePtr>{bad_side}, nullptr, m);
    CHECK(s.code == nav::Status::Code::BadInput);
    CHECK(s.message.find("side 7") != std::string::npos);

    auto ccw = std::make_shared<nav::NavTile>(*a);
    std::reverse(ccw->edge_vert.begin(), ccw->edge_vert.begin() + 4);
    s = nav::build_navmesh(std::vector<TilePtr>{ccw}, nullptr, m);
    CHECK(s.code == nav::Status::Code::BadInput);
    CHECK(s.message.find("counter-clockwise") != std::string::npos);

    auto nan = std::make_shared<nav::NavTile>(*a);
    nan->verts[4] = std::nanf("");
    s = nav::build_navmesh(std::vector<TilePtr>{nan}, nullptr, m);
    CHECK(s.code == nav::Status::Code::BadInput);
    CHECK(s.message.find("non-finite") != std::string::npos);

    // Off-mesh links ride in the tile (room for the edits to come) and are checked with it.
    auto linked = std::make_shared<nav::NavTile>(*a);
    nav::OffMeshLink link;
    link.start[0] = 1;
    link.end[0] = 3;
    link.radius = 0.5f;
    linked->links.push_back(link);
    CHECK(nav::validate_tile(*linked).is_ok());
    CHECK(nav::build_navmesh(std::vector<TilePtr>{linked}, nullptr, m).is_ok());
    CHECK(m.npolys == a->npolys());
    for (auto bad : {0, 1, 2}) {
        auto t = std::make_shared<nav::NavTile>(*linked);
        if (bad == 0) t->links[0].end[1] = std::nanf("");
        if (bad == 1) t->links[0].radius = -1;
        if (bad == 2) t->links[0].area = 64;
        s = nav::build_navmesh(std::vector<TilePtr>{t}, nullptr, m);
        CHECK(s.code == nav::Status::Code::BadInput);
        CHECK(s.message.find("off-mesh link 0") != std::string::npos);
    }

    std::vector<TilePtr> with_null = {a, nullptr};
    CHECK(nav::build_navmesh(with_null, nullptr, m).code == nav::Status::Code::BadInput);
    CHECK(nav::build_navmesh(std::vector<TilePtr>{a}, &m, m).code == nav::Status::Code::Internal);
    // An empty set is an empty mesh, not an error.
    CHECK(nav::build_navmesh(std::vector<TilePtr>{}, nullptr, m).is_ok());
    CHECK(m.empty());
}

TEST_CASE("tiles: more portal edges facing each other than a bake's tiles have is bad input, not hours of stitching") {
    // Each portal edge is compared with every one on the facing side. A Detour file from anywhere
    // can hold hundreds of thousands on one line; past 2^26 pairs for two sides build_navmesh refuses.
    std::vector<Rect> ra, rb;
    const int n = 8200;  // 8200^2 > 2^26
    const float s = 4.0f / static_cast<float>(n);
    for (int i = 0; i < n; ++i) {
        const float z0 = static_cast<float>(i) * s, z1 = static_cast<float>(i + 1) * s;
        ra.push_back({3, z0, 4, z1});
        rb.push_back({4, z0, 5, z1});
    }
    const std::vector<std::shared_ptr<const nav::NavTile>> tiles = {make_tile(0, 0, kBoxA, ra), make_tile(1, 0, kBoxB, rb)};
    nav::NavMesh m;
    const nav::Status st = nav::build_navmesh(tiles, nullptr, m);
    CHECK(st.code == nav::Status::Code::BadInput);
    CHECK_MESSAGE(st.message.find("portal edges on one side") != std::string::npos, st.message);
    // half as many on each side (2^24 pairs) still stitches
    ra.resize(n / 2), rb.resize(n / 2);
    const std::vector<std::shared_ptr<const nav::NavTile>> fewer = {make_tile(0, 0, kBoxA, ra), make_tile(1, 0, kBoxB, rb)};
    CHECK(nav::build_navmesh(fewer, nullptr, m));
}
