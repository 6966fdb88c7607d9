// Off-mesh links in the runtime navmesh (issue 22, item 2): links are an input of build_navmesh
// apart from the tiles, joined to the nearest polygon at each end, taken by A* (one way or both,
// costed by their area, filtered by their flags) and marked in the straight path
// (kStraightOffMesh at the link's start, its end point next). Checked here: paths across two
// separate platforms both ways (and one way only), a link between tiles that are not neighbours,
// excluded flags, a costly link losing to a walking detour, bad links named in the error,
// unconnected ends kept but unused, salts kept when only the links change, and the A* optimum
// equal to a brute-force Dijkstra over the same state graph on random tiled scenes with random
// links and area costs.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <queue>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/common.h"
#include "core/runtime/navmesh.h"
#include "core/runtime/query.h"
#include "core/runtime/tile.h"

namespace {

using TilePtr = std::shared_ptr<const nav::NavTile>;

struct Rect {
    float x0, z0, x1, z1;
};

// A flat tile at height y over `box` made of axis-aligned rectangles meeting edge to edge (as in
// test_navmesh_tiles.cpp): shared edges are neighbours, unshared edges on the box are portals.
std::shared_ptr<nav::NavTile> make_tile(int tx, int tz, Rect box, const std::vector<Rect>& rects, float y = 0) {
    auto t = std::make_shared<nav::NavTile>();
    t->x = tx, t->z = tz;
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
std::vector<Rect> squares(Rect box, float s, const std::vector<std::pair<int, int>>& skip = {}) {
    std::vector<Rect> out;
    const int nx = static_cast<int>(std::lround((box.x1 - box.x0) / s)), nz = static_cast<int>(std::lround((box.z1 - box.z0) / s));
    for (int k = 0; k < nz; ++k)
        for (int i = 0; i < nx; ++i)
            if (std::find(skip.begin(), skip.end(), std::make_pair(i, k)) == skip.end())
                out.push_back({box.x0 + static_cast<float>(i) * s, box.z0 + static_cast<float>(k) * s,
                               box.x0 + static_cast<float>(i + 1) * s, box.z0 + static_cast<float>(k + 1) * s});
    return out;
}

// A grid of 4 x 4 m tiles of 1 m squares, nx x nz tiles, `closed` cells (global indices) left out.
std::vector<TilePtr> grid_tiles(int nx, int nz, const std::vector<std::pair<int, int>>& closed = {}) {
    std::vector<TilePtr> tiles;
    for (int tz = 0; tz < nz; ++tz)
        for (int tx = 0; tx < nx; ++tx) {
            const Rect box{static_cast<float>(tx * 4), static_cast<float>(tz * 4), static_cast<float>(tx * 4 + 4),
                           static_cast<float>(tz * 4 + 4)};
            std::vector<std::pair<int, int>> skip;
            for (auto [i, k] : closed)
                if (i / 4 == tx && k / 4 == tz) skip.push_back({i % 4, k % 4});
            tiles.push_back(make_tile(tx, tz, box, squares(box, 1, skip)));
        }
    return tiles;
}

nav::OffMeshLink link(float sx, float sz, float ex, float ez, bool bidir = true, uint8_t area = 0, float radius = 0.4f) {
    nav::OffMeshLink l;
    l.start[0] = sx, l.start[2] = sz;
    l.end[0] = ex, l.end[2] = ez;
    l.radius = radius;
    l.bidir = bidir;
    l.area = area;
    return l;
}

nav::NavMesh mesh_of(const std::vector<TilePtr>& tiles, const std::vector<nav::OffMeshLink>& links,
                     const nav::NavMesh* previous = nullptr) {
    nav::NavMesh m;
    const nav::Status s = nav::build_navmesh(tiles, previous, m, links);
    REQUIRE_MESSAGE(s.is_ok(), s.message);
    return m;
}

nav::Route route(nav::NavQuery& q, float sx, float sz, float ex, float ez, const nav::QueryFilter& filter = {},
                 bool optimal = false) {
    const float s[3] = {sx, 0, sz}, e[3] = {ex, 0, ez}, ext[3] = {0.4f, 1.0f, 0.4f};
    nav::RouteOptions opt;
    opt.optimal = optimal;
    nav::Route r;
    const nav::Status st = q.find_route(s, e, ext, filter, opt, r);
    REQUIRE_MESSAGE(st.is_ok(), st.message);
    REQUIRE(r.found());
    REQUIRE(r.path.links.size() == r.path.polys.size());
    return r;
}

int link_steps(const nav::Route& r) {
    return static_cast<int>(std::count_if(r.path.links.begin(), r.path.links.end(), [](uint32_t t) { return t != nav::kNoLink; }));
}

// The index of the straight-path vertex flagged kStraightOffMesh, -1 when none (checks at most one).
int offmesh_vertex(const nav::StraightPath& sp) {
    int at = -1;
    for (int i = 0; i < sp.size(); ++i)
        if (sp.flags[static_cast<size_t>(i)] & nav::kStraightOffMesh) {
            CHECK(at == -1);
            at = i;
        }
    return at;
}

void check_point(const nav::StraightPath& sp, int i, float x, float z) {
    REQUIRE(i >= 0);
    REQUIRE(i < sp.size());
    CHECK(sp.points[static_cast<size_t>(i) * 3] == doctest::Approx(x).epsilon(1e-5));
    CHECK(sp.points[static_cast<size_t>(i) * 3 + 2] == doctest::Approx(z).epsilon(1e-5));
}

// Two 4 x 4 m platforms 4 m apart (tiles (0,0) and (2,0): not neighbours, two islands).
std::vector<TilePtr> platforms() {
    return {make_tile(0, 0, {0, 0, 4, 4}, squares({0, 0, 4, 4}, 1)), make_tile(2, 0, {8, 0, 12, 4}, squares({8, 0, 12, 4}, 1))};
}

}  // namespace

TEST_CASE("links: two platforms joined by a two-way link: paths both ways take it") {
    nav::OffMeshLink l = link(3.5f, 2.5f, 8.5f, 2.5f);
    l.user_id = 77;
    const nav::NavMesh m = mesh_of(platforms(), {l});
    REQUIRE(m.nislands == 2);
    REQUIRE(m.nlinks == 1);
    CHECK(m.nlinks_connected == 1);
    CHECK(m.link_status[0] == nav::NavMesh::kLinkConnected);
    CHECK(m.link_user_id[0] == 77);
    CHECK(m.link_length[0] == doctest::Approx(5.0f));
    CHECK(m.poly_link_trav.size() == 2);  // two traversals
    std::vector<uint32_t> stack;
    std::vector<uint8_t> seen;
    CHECK(m.island_reaches(0, 1, stack, seen));
    CHECK(m.island_reaches(1, 0, stack, seen));

    nav::NavQuery q;
    q.init(&m);
    const nav::Route fw = route(q, 0.5f, 2.5f, 11.5f, 2.5f);
    CHECK(fw.path.reached);
    CHECK(link_steps(fw) == 1);
    CHECK(std::find(fw.path.links.begin(), fw.path.links.end(), 0u) != fw.path.links.end());  // link 0, start to end
    CHECK(fw.path.cost == doctest::Approx(3 + 5 + 3).epsilon(1e-4));
    const int at = offmesh_vertex(fw.straight);
    check_point(fw.straight, at, 3.5f, 2.5f);
    check_point(fw.straight, at + 1, 8.5f, 2.5f);
    CHECK(fw.straight.flags.front() == nav::kStraightStart);
    CHECK(fw.straight.flags.back() == nav::kStraightEnd);
    CHECK(fw.straight.polys[static_cast<size_t>(at)] == m.ref(m.link_end_poly[0]));
    CHECK(fw.straight.length() == doctest::Approx(11.0f).epsilon(1e-4));

    const nav::Route bw = route(q, 11.5f, 0.5f, 0.5f, 3.5f);
    CHECK(bw.path.reached);
    CHECK(std::find(bw.path.links.begin(), bw.path.links.end(), 1u) != bw.path.links.end());  // link 0, end to start
    const int bt = offmesh_vertex(bw.straight);
    check_point(bw.straight, bt, 8.5f, 2.5f);
    check_point(bw.straight, bt + 1, 3.5f, 2.5f);
    CHECK(bw.straight.flags.back() == nav::kStraightEnd);

    // Without links no path: the straight path of the old signature stops at the break.
    nav::StraightPath sp;
    REQUIRE(q.find_straight_path(fw.start.point, fw.end.point, fw.path.polys, {}, sp));
    CHECK(sp.partial);

    // Polyanya knows no links: the optimal mode falls back to A* + funnel and says so.
    const nav::Route opt = route(q, 0.5f, 2.5f, 11.5f, 2.5f, {}, true);
    CHECK(!opt.optimal);
    CHECK(opt.optimal_skipped_for_links);
    CHECK(opt.path.reached);
    CHECK(link_steps(opt) == 1);
}

TEST_CASE("links: a one-way link is taken one way only") {
    const nav::NavMesh m = mesh_of(platforms(), {link(3.5f, 2.5f, 8.5f, 2.5f, false)});
    REQUIRE(m.nlinks_connected == 1);
    CHECK(m.poly_link_trav.size() == 1);
    std::vector<uint32_t> stack;
    std::vector<uint8_t> seen;
    const uint32_t i0 = m.poly_island[m.link_start_poly[0]], i1 = m.poly_island[m.link_end_poly[0]];
    CHECK(m.island_reaches(i0, i1, stack, seen));
    CHECK(!m.island_reaches(i1, i0, stack, seen));
    nav::NavQuery q;
    q.init(&m);
    const nav::Route fw = route(q, 0.5f, 2.5f, 11.5f, 2.5f);
    CHECK(fw.path.reached);
    CHECK(link_steps(fw) == 1);
    const nav::Route bw = route(q, 11.5f, 2.5f, 0.5f, 2.5f);
    CHECK(!bw.path.reached);
    CHECK(link_steps(bw) == 0);
    for (nav::PolyRef r : bw.path.polys) CHECK(m.poly_island[m.poly_index(r)] == i1);
    CHECK(offmesh_vertex(bw.straight) == -1);
    // With landmarks off the answers are the same.
    q.set_landmarks(false);
    CHECK(!route(q, 11.5f, 2.5f, 0.5f, 2.5f).path.reached);
}

TEST_CASE("links: a link joins two tiles that are not neighbours") {
    // 3 x 3 tiles of 4 m; a cheap link (area 5) from tile (0,0) to tile (2,2).
    const auto tiles = grid_tiles(3, 3);
    const nav::NavMesh m = mesh_of(tiles, {link(1.5f, 1.5f, 10.5f, 10.5f, true, 5)});
    REQUIRE(m.nlinks_connected == 1);
    CHECK(m.nislands == 1);
    const uint32_t s0 = m.poly_slot[m.link_start_poly[0]], s1 = m.poly_slot[m.link_end_poly[0]];
    CHECK(m.slots[s0].tile->x == 0);
    CHECK(m.slots[s0].tile->z == 0);
    CHECK(m.slots[s1].tile->x == 2);
    CHECK(m.slots[s1].tile->z == 2);
    nav::QueryFilter f;
    f.area_cost[5] = 0.2f;
    nav::NavQuery q;
    q.init(&m);
    const nav::Route r = route(q, 0.5f, 0.5f, 11.5f, 11.5f, f);
    CHECK(r.path.reached);
    CHECK(link_steps(r) == 1);
    // A* walks between portal midpoints: more than the straight line to and from the link.
    const float d = std::sqrt(2.0f), len = 9 * std::sqrt(2.0f);
    CHECK(r.path.cost >= d + 0.2f * len + d - 1e-4f);
    CHECK(r.path.cost <= 2 * 2 + 0.2f * len + 1e-4f);
    const int at = offmesh_vertex(r.straight);
    check_point(r.straight, at, 1.5f, 1.5f);
    check_point(r.straight, at + 1, 10.5f, 10.5f);
    CHECK(r.straight.length() == doctest::Approx(11 * std::sqrt(2.0f)).epsilon(1e-4));
    // At cost 1 (with the walks to and from it) the link costs more.
    const nav::Route w = route(q, 0.5f, 0.5f, 11.5f, 11.5f);
    CHECK(w.path.reached);
    CHECK(w.path.cost > r.path.cost);
}

TEST_CASE("links: excluded link flags keep A* off the link") {
    nav::OffMeshLink l = link(3.5f, 2.5f, 8.5f, 2.5f);
    l.flags = 0x0002;
    const nav::NavMesh m = mesh_of(platforms(), {l});
    nav::NavQuery q;
    q.init(&m);
    CHECK(link_steps(route(q, 0.5f, 2.5f, 11.5f, 2.5f)) == 1);  // default include 0xffff
    nav::QueryFilter f;
    f.exclude_flags |= 0x0002;
    const nav::Route r = route(q, 0.5f, 2.5f, 11.5f, 2.5f, f);
    CHECK(!r.path.reached);
    CHECK(link_steps(r) == 0);
    nav::QueryFilter g;
    g.include_flags = nav::kPolyFlagDefault;  // the link has none of the included flags
    CHECK(!route(q, 0.5f, 2.5f, 11.5f, 2.5f, g).path.reached);
    // Polyanya may run again when no link passes the filter.
    CHECK(!route(q, 0.5f, 2.5f, 11.5f, 2.5f, f, true).optimal_skipped_for_links);
}

TEST_CASE("links: a costly link loses to a walking detour") {
    // 12 x 4 m, a wall of closed cells at column 6 except the top row: the walk goes round by z = 3.5.
    std::vector<std::pair<int, int>> wall = {{6, 0}, {6, 1}, {6, 2}};
    const auto tiles = grid_tiles(3, 1, wall);
    const nav::NavMesh m = mesh_of(tiles, {link(5.5f, 0.5f, 7.5f, 0.5f, true, 7)});
    REQUIRE(m.nlinks_connected == 1);
    nav::NavQuery q;
    q.init(&m);
    const nav::Route cheap = route(q, 0.5f, 0.5f, 11.5f, 0.5f);
    CHECK(link_steps(cheap) == 1);
    CHECK(cheap.path.cost == doctest::Approx(11).epsilon(1e-4));
    nav::QueryFilter f;
    f.area_cost[7] = 100;
    const nav::Route dear = route(q, 0.5f, 0.5f, 11.5f, 0.5f, f);
    CHECK(dear.path.reached);
    CHECK(link_steps(dear) == 0);
    CHECK(offmesh_vertex(dear.straight) == -1);
    CHECK(dear.path.cost < 200);
    CHECK(dear.straight.length() > 11.5f);
}

TEST_CASE("links: bad links are refused with the link named") {
    const auto tiles = platforms();
    nav::NavMesh m;
    std::vector<nav::OffMeshLink> links(4, link(3.5f, 2.5f, 8.5f, 2.5f));
    links[3].end[1] = std::numeric_limits<float>::quiet_NaN();
    nav::Status s = nav::build_navmesh(tiles, nullptr, m, links);
    CHECK(!s.is_ok());
    CHECK(s.message.find("link 3") != std::string::npos);
    CHECK(s.message.find("end is not finite") != std::string::npos);
    CHECK(m.empty());
    links[3] = link(3.5f, 2.5f, 8.5f, 2.5f);
    links[1].start[0] = std::numeric_limits<float>::infinity();
    s = nav::build_navmesh(tiles, nullptr, m, links);
    CHECK(s.message.find("link 1: start is not finite") != std::string::npos);
    links[1] = link(3.5f, 2.5f, 8.5f, 2.5f);
    links[2].radius = -1;
    s = nav::build_navmesh(tiles, nullptr, m, links);
    CHECK(s.message.find("link 2: radius") != std::string::npos);
    links[2].radius = 0.5f;
    links[0].area = 64;
    s = nav::build_navmesh(tiles, nullptr, m, links);
    CHECK(s.message.find("link 0: area id 64") != std::string::npos);
    // A tile's own links: named by the mesh's link index and the tile.
    auto t = std::make_shared<nav::NavTile>(*tiles[0]);
    t->links.push_back(link(3.5f, 2.5f, 8.5f, 2.5f));
    t->links.back().radius = std::numeric_limits<float>::quiet_NaN();
    const std::vector<TilePtr> with = {t, tiles[1]};
    s = nav::build_navmesh(with, nullptr, m);
    CHECK(!s.is_ok());
    CHECK(s.message.find("link 0") != std::string::npos);
}

TEST_CASE("links: an end with no polygon in reach leaves the link unconnected, kept and unused") {
    const nav::NavMesh m = mesh_of(platforms(), {link(3.5f, 2.5f, 30, 2.5f), link(3.5f, 2.5f, 6, 2.5f, true, 0, 1.0f),
                                                 link(3.5f, 2.5f, 8.5f, 9.0f)});
    REQUIRE(m.nlinks == 3);
    CHECK(m.nlinks_connected == 0);
    CHECK(m.link_status[0] == nav::NavMesh::kLinkEndUnconnected);
    CHECK(m.link_status[1] == nav::NavMesh::kLinkEndUnconnected);  // 2 m from the nearest polygon, radius 1
    CHECK(m.link_status[2] == nav::NavMesh::kLinkEndUnconnected);
    CHECK(m.link_start_poly[0] != nav::kNoPoly);
    CHECK(m.link_end_poly[0] == nav::kNoPoly);
    CHECK(m.link_end[0] == 30);  // the input point, unmoved
    CHECK(m.poly_link_trav.empty());
    nav::NavQuery q;
    q.init(&m);
    const nav::Route r = route(q, 0.5f, 2.5f, 11.5f, 2.5f);
    CHECK(!r.path.reached);
    CHECK(link_steps(r) == 0);
    // Within the radius, an end off the polygons connects and moves onto the nearest one.
    const nav::NavMesh n = mesh_of(platforms(), {link(3.5f, 2.5f, 7.6f, 2.5f, true, 0, 0.5f)});
    CHECK(n.nlinks_connected == 1);
    CHECK(n.link_end[0] == doctest::Approx(8.0f));
}

TEST_CASE("links: changing only the links re-bakes no tile and keeps every salt") {
    const auto tiles = grid_tiles(3, 2);
    const nav::NavMesh m0 = mesh_of(tiles, {});
    const std::vector<nav::OffMeshLink> links1 = {link(0.5f, 0.5f, 11.5f, 7.5f), link(4.5f, 4.5f, 2.5f, 2.5f, false)};
    const nav::NavMesh m1 = mesh_of(tiles, links1, &m0);
    const nav::NavMesh m2 = mesh_of(tiles, {link(1.5f, 0.5f, 10.5f, 7.5f)}, &m1);
    const nav::NavMesh m3 = mesh_of(tiles, {}, &m2);
    for (const nav::NavMesh* m : {&m1, &m2, &m3}) {
        CHECK(m->tiles_reused == m->ntiles);
        CHECK(m->landmarks()->islands_reused == m0.nislands);
        REQUIRE(m->slots.size() == m0.slots.size());
        for (size_t s = 0; s < m0.slots.size(); ++s) {
            CHECK(m->slots[s].salt == m0.slots[s].salt);
            CHECK(m->slots[s].graph == m0.slots[s].graph);  // the very same graph object
        }
        for (uint32_t p = 0; p < static_cast<uint32_t>(m0.npolys); ++p) CHECK(m->poly_index(m0.ref(p)) == p);
    }
    CHECK(m1.nlinks_connected == 2);
    CHECK(m2.nlinks_connected == 1);
    CHECK(m3.nlinks == 0);
    CHECK(m3.poly_link_first.empty());

    // relink_navmesh: the same links in place, the rest of the mesh untouched; a bad link leaves it as it was.
    nav::NavMesh r = m0;
    nav::NavQuery q;
    q.init(&r);
    const nav::Route before = route(q, 0.5f, 0.5f, 11.5f, 7.5f);
    CHECK(link_steps(before) == 0);
    REQUIRE(nav::relink_navmesh(r, links1));
    CHECK(r.nlinks == 2);
    CHECK(r.link_start == m1.link_start);
    CHECK(r.link_end == m1.link_end);
    CHECK(r.link_start_poly == m1.link_start_poly);
    CHECK(r.link_end_poly == m1.link_end_poly);
    CHECK(r.poly_link_first == m1.poly_link_first);
    CHECK(r.poly_link_trav == m1.poly_link_trav);
    CHECK(r.island_has_out_link == m1.island_has_out_link);
    CHECK(link_steps(route(q, 0.5f, 0.5f, 11.5f, 7.5f)) == 1);  // the same NavQuery, still bound
    std::vector<nav::OffMeshLink> bad = links1;
    bad[1].start[2] = std::numeric_limits<float>::quiet_NaN();
    const nav::Status st = nav::relink_navmesh(r, bad);
    CHECK(st.message.find("link 1: start is not finite") != std::string::npos);
    CHECK(r.nlinks == 2);
    CHECK(r.poly_link_trav == m1.poly_link_trav);
    REQUIRE(nav::relink_navmesh(r, {}));
    CHECK(r.nlinks == 0);
    CHECK(link_steps(route(q, 0.5f, 0.5f, 11.5f, 7.5f)) == 0);
}

namespace {

// Brute-force Dijkstra over A*'s state graph (query.h's cost model), in double: states are the
// start, every portal side (standing on its midpoint) and every link traversal (standing where it
// lands); the goal is reached from any state in the goal polygon. Returns +inf when unreachable.
double dijkstra(const nav::NavMesh& m, uint32_t sp, const float* spos, uint32_t ep, const float* epos,
                const nav::QueryFilter& f) {
    const uint32_t S = static_cast<uint32_t>(m.nedges), L0 = S + 1;
    const size_t n = L0 + 2 * static_cast<size_t>(m.nlinks);
    std::vector<double> dist(n, std::numeric_limits<double>::infinity());
    auto d3 = [](const float* a, const float* b) {
        const double x = double(a[0]) - b[0], y = double(a[1]) - b[1], z = double(a[2]) - b[2];
        return std::sqrt(x * x + y * y + z * z);
    };
    using E = std::pair<double, uint32_t>;
    std::priority_queue<E, std::vector<E>, std::greater<E>> pq;
    dist[S] = 0;
    pq.push({0, S});
    double best = std::numeric_limits<double>::infinity();
    while (!pq.empty()) {
        const auto [g, s] = pq.top();
        pq.pop();
        if (g > dist[s]) continue;
        const uint32_t P = s == S ? sp : s < S ? m.edge_poly[s] : m.trav_to_poly(s - L0);
        const float* pos = s == S ? spos : s < S ? &m.edge_mid[size_t(s) * 3] : m.trav_to(s - L0);
        const double cP = f.area_cost[m.areas[P]];
        if (P == ep) best = std::min(best, g + d3(pos, epos) * cP);
        auto relax = [&](uint32_t t, double gt) {
            if (gt < dist[t]) dist[t] = gt, pq.push({gt, t});
        };
        for (uint32_t e = m.poly_first[P]; e < m.poly_first[P + 1]; ++e) {
            const uint32_t t = m.edge_opp[e];
            if (t == nav::kNoEdge || !f.passes(m.flags[m.edge_nei[e]], m.types[m.edge_nei[e]])) continue;
            relax(t, g + d3(pos, &m.edge_mid[size_t(t) * 3]) * cP);
        }
        if (m.poly_link_first.empty()) continue;
        for (uint32_t k = m.poly_link_first[P]; k < m.poly_link_first[P + 1]; ++k) {
            const uint32_t tr = m.poly_link_trav[k], li = tr >> 1;
            if (!f.passes_link(m.link_flags[li]) || !f.passes(m.flags[m.trav_to_poly(tr)], m.types[m.trav_to_poly(tr)])) continue;
            relax(L0 + tr, g + d3(pos, m.trav_from(tr)) * cP + double(m.link_length[li]) * f.area_cost[m.link_area[li]]);
        }
    }
    return best;
}

}  // namespace

TEST_CASE("links: A* with links is optimal: equal to a brute-force Dijkstra on random tiled scenes") {
    std::mt19937 rng(20261129);
    auto uni = [&rng](float a, float b) { return std::uniform_real_distribution<float>(a, b)(rng); };
    int reached = 0, via_link = 0, unreached = 0;
    for (int round = 0; round < 24; ++round) {
        // 12 x 8 cells of 1 m in 3 x 2 tiles, ~20% closed (often several islands), random areas.
        std::vector<std::pair<int, int>> closed;
        for (int k = 0; k < 8; ++k)
            for (int i = 0; i < 12; ++i)
                if (rng() % 100 < 20) closed.push_back({i, k});
        auto base = grid_tiles(3, 2, closed);
        std::vector<TilePtr> tiles;
        for (const TilePtr& t : base) {
            auto c = std::make_shared<nav::NavTile>(*t);
            for (uint8_t& a : c->areas) a = static_cast<uint8_t>(rng() % 4);
            tiles.push_back(c);
        }
        // Random links between cell centres: some one-way, some long teleporters, areas 4 and 5.
        std::vector<nav::OffMeshLink> links;
        const int nl = 1 + static_cast<int>(rng() % 6);
        for (int i = 0; i < nl; ++i)
            links.push_back(link(0.5f + float(rng() % 12), 0.5f + float(rng() % 8), 0.5f + float(rng() % 12),
                                 0.5f + float(rng() % 8), rng() % 2 == 0, static_cast<uint8_t>(4 + rng() % 2)));
        const nav::NavMesh m = mesh_of(tiles, links);
        nav::QueryFilter f;
        for (int a = 0; a < 4; ++a) f.area_cost[a] = uni(1, 4);
        f.area_cost[4] = uni(0.3f, 3);
        f.area_cost[5] = uni(0.3f, 3);
        if (round % 3 == 0) f.area_cost[5] = 0.05f;  // a near-free teleporter
        nav::NavQuery alt, plain;
        alt.init(&m);
        plain.init(&m);
        plain.set_landmarks(false);
        for (int i = 0; i < 40; ++i) {
            const float s[3] = {uni(0.05f, 11.95f), 0, uni(0.05f, 7.95f)}, e[3] = {uni(0.05f, 11.95f), 0, uni(0.05f, 7.95f)};
            const float ext[3] = {0.5f, 1, 0.5f};
            nav::Route r, rp;
            REQUIRE(alt.find_route(s, e, ext, f, {}, r));
            REQUIRE(plain.find_route(s, e, ext, f, {}, rp));
            if (!r.found()) continue;
            const uint32_t sp = m.poly_index(r.start.poly), ep = m.poly_index(r.end.poly);
            if (sp == ep) continue;  // answered by the straight line, no search
            const double best = dijkstra(m, sp, r.start.point, ep, r.end.point, f);
            REQUIRE(r.path.reached == std::isfinite(best));
            CHECK(rp.path.reached == r.path.reached);
            if (!r.path.reached) {
                ++unreached;
                continue;
            }
            ++reached;
            via_link += link_steps(r) > 0;
            CHECK(r.path.cost == doctest::Approx(best).epsilon(1e-4));
            CHECK(rp.path.cost == doctest::Approx(best).epsilon(1e-4));
            // Every link step: the straight path has its kStraightOffMesh vertex.
            const int flagged = static_cast<int>(std::count_if(r.straight.flags.begin(), r.straight.flags.end(),
                                                               [](uint8_t fl) { return (fl & nav::kStraightOffMesh) != 0; }));
            CHECK(flagged <= link_steps(r));
            CHECK(!r.straight.partial);
        }
    }
    MESSAGE("reached " << reached << " (" << via_link << " through links), unreached " << unreached);
    CHECK(via_link > 50);
    CHECK(unreached > 0);
}

TEST_CASE("links: A* with links is optimal in a maze where a teleporter beats every walk (all pairs)") {
    // Serpentine walls: the walk from one side to the other is long, the teleporters are short.
    // Landmark bounds (walking distances) would overestimate here: A* must not use them where a
    // link can shortcut the walk.
    std::vector<std::pair<int, int>> wall;
    for (int k = 0; k < 7; ++k) wall.push_back({3, k}), wall.push_back({10, k});
    for (int k = 1; k < 8; ++k) wall.push_back({7, k});
    const auto tiles = grid_tiles(3, 2, wall);
    const nav::NavMesh m = mesh_of(tiles, {link(1.5f, 0.5f, 11.5f, 0.5f, false, 4), link(5.5f, 3.5f, 8.5f, 7.5f, true, 5)});
    REQUIRE(m.nlinks_connected == 2);
    REQUIRE(m.nislands == 1);
    nav::NavQuery alt, plain;
    alt.init(&m);
    plain.init(&m);
    plain.set_landmarks(false);
    const nav::QueryFilter f;
    int pairs = 0, via_link = 0;
    for (int a = 0; a < 96; ++a)
        for (int b = 0; b < 96; ++b) {
            const std::pair<int, int> ca{a % 12, a / 12}, cb{b % 12, b / 12};
            if (a == b || std::find(wall.begin(), wall.end(), ca) != wall.end() || std::find(wall.begin(), wall.end(), cb) != wall.end())
                continue;
            const float s[3] = {ca.first + 0.3f, 0, ca.second + 0.6f}, e[3] = {cb.first + 0.7f, 0, cb.second + 0.4f};
            const float ext[3] = {0.2f, 1, 0.2f};
            nav::Route r, rp;
            REQUIRE(alt.find_route(s, e, ext, f, {}, r));
            REQUIRE(plain.find_route(s, e, ext, f, {}, rp));
            REQUIRE(r.found());
            const uint32_t sp = m.poly_index(r.start.poly), ep = m.poly_index(r.end.poly);
            const double best = dijkstra(m, sp, r.start.point, ep, r.end.point, f);
            REQUIRE(r.path.reached);
            ++pairs;
            via_link += link_steps(r) > 0;
            CHECK(r.path.cost == doctest::Approx(best).epsilon(1e-4));
            CHECK(rp.path.cost == doctest::Approx(best).epsilon(1e-4));
        }
    MESSAGE(pairs << " pairs, " << via_link << " through links");
    CHECK(via_link > pairs / 4);
}
