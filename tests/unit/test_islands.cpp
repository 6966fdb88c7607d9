// Islands of the navmesh (core/islands.h) and the islands layer (render/islands_draw.h): the
// labels against an independent flood fill over the polygon mesh's adjacency, areas, prune against
// a breadth-first search, the default query filter skipping what a prune disabled, bad input.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "tests/config_inputs.h"
#include "core/runtime/islands.h"
#include "core/pipeline/tile_builder.h"
#include "core/runtime/navmesh.h"
#include "core/pipeline/pipeline.h"
#include "core/runtime/query.h"
#include "poly_loops.h"
#include "test_scenes.h"
#ifdef NAV_HAVE_RENDER
#include "render/islands_draw.h"
#include "render/layers.h"
#endif

namespace {

std::string asset(const char* name) { return std::string(NAV_SOURCE_DIR) + "/assets/" + name; }

std::shared_ptr<const nav::Bake> bake_pipeline(nav::Pipeline& p, const nav::Params& params,
                                               std::vector<nav::ConvexVolume> vols = {}) {
    REQUIRE(p.set_input(&nav::BakeInputs::params, params));
    REQUIRE(p.set_input(&nav::BakeInputs::volumes, std::move(vols)));
    REQUIRE(p.run());
    auto b = p.snapshot();
    REQUIRE(b->navmesh);
    REQUIRE(b->polymesh);
    REQUIRE(b->navmesh->npolys == b->polymesh->npolys);  // navmesh polygon p is polygon mesh polygon p
    return b;
}

std::shared_ptr<const nav::Bake> bake_asset(const char* name, const std::vector<std::pair<const char*, const char*>>& sets = {}) {
    nav::Pipeline p;
    REQUIRE(p.load_mesh(asset(name)));
    nav::Params params;
    std::vector<nav::ConvexVolume> vols;
    if (std::string(name) == "demo.obj") REQUIRE(navtest::load_config(asset("demo.json"), params, vols));
    for (const auto& [k, v] : sets) REQUIRE(params.set_from_string(k, v));
    return bake_pipeline(p, params, std::move(vols));
}

// The neighbour of polygon p across its edge k in the polygon mesh, or -1 for a wall (with one
// tile, 0x8000 entries are portals to another tile only when the mesh has a border).
int pm_neighbour(const nav::PolyMesh& pm, int p, int k) {
    const uint16_t nei = pm.poly(p)[pm.nvp + k];
    if (nei == nav::kMeshNullIdx || (pm.border_size > 0 && (nei & 0x8000))) return -1;
    return nei;
}

// Polygons reached from `from` over the polygon mesh's adjacency (breadth first), 1 = reached.
std::vector<char> bfs(const nav::PolyMesh& pm, int from) {
    std::vector<char> seen(static_cast<size_t>(pm.npolys), 0);
    std::vector<int> queue{from};
    seen[static_cast<size_t>(from)] = 1;
    for (size_t head = 0; head < queue.size(); ++head) {
        const int p = queue[head];
        for (int k = 0; k < pm.poly_vert_count(p); ++k) {
            const int q = pm_neighbour(pm, p, k);
            if (q < 0 || seen[static_cast<size_t>(q)]) continue;
            seen[static_cast<size_t>(q)] = 1;
            queue.push_back(q);
        }
    }
    return seen;
}

// Component labels by repeated breadth-first searches; returns the number of components.
int flood_labels(const nav::PolyMesh& pm, std::vector<int>& label) {
    label.assign(static_cast<size_t>(pm.npolys), -1);
    int n = 0;
    for (int p = 0; p < pm.npolys; ++p) {
        if (label[static_cast<size_t>(p)] >= 0) continue;
        const std::vector<char> reach = bfs(pm, p);
        for (size_t q = 0; q < reach.size(); ++q)
            if (reach[q]) label[q] = n;
        ++n;
    }
    return n;
}

// Whether two labellings put the same polygons together: a one-to-one map between their ids.
bool same_partition(const std::vector<uint32_t>& a, const std::vector<int>& b) {
    if (a.size() != b.size()) return false;
    std::map<uint32_t, int> ab;
    std::map<int, uint32_t> ba;
    for (size_t i = 0; i < a.size(); ++i) {
        const auto it = ab.emplace(a[i], b[i]).first;
        const auto jt = ba.emplace(b[i], a[i]).first;
        if (it->second != b[i] || jt->second != a[i]) return false;
    }
    return true;
}

// Labels against the flood fill, island sizes and areas against the bake's own totals.
void check_islands(const nav::Bake& b) {
    const nav::NavMesh& m = *b.navmesh;
    std::vector<int> flood;
    const int ncomp = flood_labels(*b.polymesh, flood);
    CHECK(m.nislands == ncomp);
    CHECK(same_partition(m.poly_island, flood));
    std::vector<nav::IslandStats> stats;
    REQUIRE(nav::island_stats(m, stats));
    REQUIRE(stats.size() == static_cast<size_t>(m.nislands));
    std::vector<uint32_t> flood_size(static_cast<size_t>(ncomp), 0);
    for (int l : flood) ++flood_size[static_cast<size_t>(l)];
    double area = 0;
    uint32_t polys = 0;
    for (uint32_t i = 0; i < stats.size(); ++i) {
        CHECK(stats[i].polys > 0);
        CHECK(stats[i].area > 0.0);
        CHECK(stats[i].disabled == 0);
        area += stats[i].area;
        polys += stats[i].polys;
    }
    // island i's size is that of the flood component of any of its polygons
    for (uint32_t p = 0; p < static_cast<uint32_t>(m.npolys); ++p)
        CHECK(stats[m.poly_island[p]].polys == flood_size[static_cast<size_t>(flood[p])]);
    CHECK(polys == static_cast<uint32_t>(m.npolys));
    CHECK(area == doctest::Approx(b.walkable_area()).epsilon(1e-5));
}

// Prunes a copy of the bake's navmesh from `keep` and checks it against a BFS from `keep`.
nav::NavMesh check_prune(const nav::Bake& b, uint32_t keep) {
    nav::NavMesh m = *b.navmesh;
    nav::PruneStats st;
    REQUIRE(nav::prune_unreachable(m, m.ref(keep), &st));
    const std::vector<char> reach = bfs(*b.polymesh, static_cast<int>(keep));
    uint32_t nreach = 0, mismatched = 0;
    for (uint32_t p = 0; p < static_cast<uint32_t>(m.npolys); ++p) {
        nreach += reach[p] ? 1u : 0u;
        const bool disabled = (m.flags[p] & nav::kPolyFlagDisabled) != 0;
        mismatched += disabled == static_cast<bool>(reach[p]) ? 1u : 0u;
        // the prune only touches its own bit
        CHECK((m.flags[p] & ~nav::kPolyFlagDisabled) == (b.navmesh->flags[p] & ~nav::kPolyFlagDisabled));
    }
    CHECK(mismatched == 0);
    CHECK(st.kept == nreach);
    CHECK(st.disabled == static_cast<uint32_t>(m.npolys) - nreach);
    CHECK(st.island == m.poly_island[keep]);
    // idempotent: the same prune again changes nothing
    const std::vector<uint16_t> once = m.flags;
    nav::PruneStats again;
    REQUIRE(nav::prune_unreachable(m, m.ref(keep), &again));
    CHECK(m.flags == once);
    CHECK(again.disabled == st.disabled);
    return m;
}

// The navmesh polygon under a world point (any flags), kNoPoly when none within 0.5 m / 1 m.
uint32_t poly_at(const nav::NavMesh& m, float x, float y, float z) {
    nav::NavQuery q;
    q.init(&m);
    nav::QueryFilter any;
    any.exclude_flags = 0;
    const float p[3] = {x, y, z}, ext[3] = {0.5f, 1.0f, 0.5f};
    nav::NearestPoly np;
    REQUIRE(q.find_nearest_poly(p, ext, any, np));
    return m.poly_index(np.poly);
}

// A floor cut into parts by full-length walls, with platforms of random sizes and heights on it:
// low ones join the floor (within climb), high ones are islands of their own.
nav::InputMesh generated_scene(uint32_t seed) {
    std::mt19937 rng(seed);
    auto uni = [&](float a, float b) { return std::uniform_real_distribution<float>(a, b)(rng); };
    nav::InputMesh m;
    navtest::add_floor(m, 0, 0, 30, 30, 0);
    const int walls = static_cast<int>(rng() % 3);
    for (int w = 0; w < walls; ++w) {
        const float at = uni(6, 24);
        if (rng() % 2) navtest::add_box(m, at, 0, 0, at + 0.6f, 3, 30);
        else navtest::add_box(m, 0, 0, at, 30, 3, at + 0.6f);
    }
    const float heights[] = {0.4f, 1.5f, 2.5f, 4.0f};
    const int platforms = 3 + static_cast<int>(rng() % 5);
    for (int k = 0; k < platforms; ++k) {
        const float x = uni(1, 24), z = uni(1, 24);
        navtest::add_box(m, x, 0, z, x + uni(2.5f, 6), heights[rng() % 4], z + uni(2.5f, 6));
    }
    return m;
}

}  // namespace

TEST_CASE("islands: hand-made strips have the islands, sizes and areas known by construction") {
    // a row of 2 unit squares and, 2 m away, a row of 3: two islands of 2 and 3 m^2
    navtest::Loops L = navtest::strip(2, 3);
    L.flags[4] = 0x0004;  // a user flag the prune must keep
    nav::PolyMesh pm;
    nav::PolyMeshDetail dm;
    L.build(pm, dm);
    nav::NavMesh m;
    REQUIRE(nav::build_navmesh(pm, dm, m));
    REQUIRE(m.nislands == 2);
    for (uint32_t p = 0; p < 5; ++p) CHECK(m.poly_area_xz(p) == doctest::Approx(1.0));
    std::vector<nav::IslandStats> st;
    REQUIRE(nav::island_stats(m, st));
    REQUIRE(st.size() == 2);
    const uint32_t a = m.poly_island[0], b = m.poly_island[2];
    CHECK(a != b);
    CHECK(m.poly_island[1] == a);
    CHECK(m.poly_island[3] == b);
    CHECK(m.poly_island[4] == b);
    CHECK(st[a].polys == 2);
    CHECK(st[a].area == doctest::Approx(2.0));
    CHECK(st[b].polys == 3);
    CHECK(st[b].area == doctest::Approx(3.0));

    // keep the row of three: the other row is disabled, user flags stay
    nav::PruneStats ps;
    REQUIRE(nav::prune_unreachable(m, m.ref(3), &ps));
    CHECK(ps.island == b);
    CHECK(ps.kept == 3);
    CHECK(ps.disabled == 2);
    CHECK(m.flags[0] == (nav::kPolyFlagDefault | nav::kPolyFlagDisabled));
    CHECK(m.flags[1] == (nav::kPolyFlagDefault | nav::kPolyFlagDisabled));
    CHECK(m.flags[2] == nav::kPolyFlagDefault);
    CHECK(m.flags[4] == 0x0004);
    REQUIRE(nav::island_stats(m, st));
    CHECK(st[a].disabled == 2);
    CHECK(st[b].disabled == 0);

    // a prune from the disabled row swaps: reachability ignores the flags an earlier prune set
    REQUIRE(nav::prune_unreachable(m, m.ref(1), &ps));
    CHECK(ps.island == a);
    CHECK(ps.kept == 2);
    CHECK(ps.disabled == 3);
    CHECK(m.flags[0] == nav::kPolyFlagDefault);
    CHECK(m.flags[2] == (nav::kPolyFlagDefault | nav::kPolyFlagDisabled));
    CHECK(m.flags[4] == (0x0004 | nav::kPolyFlagDisabled));

    // one connected row is one island: nothing to disable
    navtest::Loops one = navtest::strip(4);
    one.build(pm, dm);
    REQUIRE(nav::build_navmesh(pm, dm, m));
    CHECK(m.nislands == 1);
    REQUIRE(nav::prune_unreachable(m, m.ref(2), &ps));
    CHECK(ps.kept == 4);
    CHECK(ps.disabled == 0);
}

TEST_CASE("islands: bad input is an error, never a crash") {
    navtest::Loops L = navtest::strip(2, 1);
    nav::PolyMesh pm;
    nav::PolyMeshDetail dm;
    L.build(pm, dm);
    nav::NavMesh m;
    REQUIRE(nav::build_navmesh(pm, dm, m));
    const std::vector<uint16_t> flags = m.flags;
    // references in slot 0 naming polygons the mesh does not have, and kNoRef
    for (const nav::PolyRef keep : {nav::make_poly_ref(0, 0, 3), nav::make_poly_ref(0, 0, 1000), nav::kNoRef}) {
        CAPTURE(keep.value());
        const nav::Status st = nav::prune_unreachable(m, keep);
        CHECK(st.code == nav::Status::Code::BadInput);
        CHECK(st.message.find("out of range") != std::string::npos);
        CHECK(m.flags == flags);  // untouched
    }
    // an empty mesh has no polygon to keep
    nav::NavMesh empty;
    CHECK(nav::prune_unreachable(empty, nav::make_poly_ref(0, 0, 0)).code == nav::Status::Code::BadInput);
    std::vector<nav::IslandStats> st;
    CHECK(nav::island_stats(empty, st));
    CHECK(st.empty());
    // labels that do not match the polygons (a mesh filled by hand) are refused, not indexed
    nav::NavMesh broken = m;
    broken.poly_island.pop_back();
    CHECK(nav::prune_unreachable(broken, m.ref(0)).code == nav::Status::Code::BadInput);
    CHECK(nav::island_stats(broken, st).code == nav::Status::Code::BadInput);
    CHECK(st.empty());
    broken = m;
    broken.poly_island[1] = 7;  // only 2 islands
    const nav::Status bad = nav::prune_unreachable(broken, m.ref(0));
    CHECK(bad.code == nav::Status::Code::BadInput);
    CHECK(bad.message.find("island id 7") != std::string::npos);
    CHECK(broken.flags == flags);
}

TEST_CASE("islands: labels match a flood fill over the polygon mesh on the demo scenes") {
    SUBCASE("demo.obj: the plaza's island and the unreachable platform") {
        const auto b = bake_asset("demo.obj");
        check_islands(*b);
        const nav::NavMesh& m = *b->navmesh;
        CHECK(m.nislands == 2);
        const uint32_t plaza = poly_at(m, 0.0f, 0.2f, 0.0f), platform = poly_at(m, 16.5f, 6.1f, 16.2f);
        REQUIRE(plaza != nav::kNoPoly);
        REQUIRE(platform != nav::kNoPoly);
        CHECK(m.poly_island[plaza] != m.poly_island[platform]);
        // the README's reachable sample points all share the plaza's island
        const float reach[][3] = {{-14.1f, 4.1f, -13.2f}, {-8.1f, 4.1f, -12.9f}, {-3.9f, 4.1f, -15.0f}, {10.2f, 0.2f, -12.0f},
                                  {-7.2f, 2.9f, 8.1f},    {9.9f, 5.35f, 11.7f},  {15.0f, 0.2f, 5.1f},   {-14.1f, 0.9f, 15.0f}};
        for (const auto& r : reach) {
            CAPTURE(r[0]);
            CAPTURE(r[2]);
            const uint32_t p = poly_at(m, r[0], r[1], r[2]);
            REQUIRE(p != nav::kNoPoly);
            CHECK(m.poly_island[p] == m.poly_island[plaza]);
        }
        // the platform is an island of one polygon: what the ledge filter and erosion leave of its
        // 5 x 6 m top, 3.3 x 4.5 m
        std::vector<nav::IslandStats> st;
        REQUIRE(nav::island_stats(m, st));
        CHECK(st[m.poly_island[platform]].polys == 1);
        CHECK(st[m.poly_island[platform]].area == doctest::Approx(3.3 * 4.5).epsilon(1e-4));
    }
    SUBCASE("islands.obj: five platforms make a region each at the defaults") {
        // island_e_small (2 x 2 m) is below region_min_size (assets/README.md)
        const auto b = bake_asset("islands.obj");
        check_islands(*b);
        CHECK(b->navmesh->nislands == 5);
    }
    SUBCASE("islands.obj: all six with a smaller agent and smaller regions allowed") {
        const auto b = bake_asset("islands.obj", {{"agent_radius", "0.3"}, {"region_min_size", "2"}});
        check_islands(*b);
        const nav::NavMesh& m = *b->navmesh;
        CHECK(m.nislands == 6);
        // one sample point per platform (assets/README.md), each on a different island
        const float tops[][3] = {{-5.1f, 1.1f, -5.1f}, {4.5f, 2.1f, -5.4f}, {-3.9f, 0.5f, 4.5f},
                                 {5.1f, 3.1f, 4.2f},   {6.6f, 1.5f, 0.0f},  {-5.1f, 4.1f, -5.1f}};
        std::vector<uint32_t> seen;
        for (const auto& t : tops) {
            CAPTURE(t[0]);
            CAPTURE(t[1]);
            const uint32_t p = poly_at(m, t[0], t[1], t[2]);
            REQUIRE(p != nav::kNoPoly);
            for (uint32_t s : seen) CHECK(s != m.poly_island[p]);
            seen.push_back(m.poly_island[p]);
        }
    }
    SUBCASE("stairs.obj") {
        const auto b = bake_asset("stairs.obj");
        check_islands(*b);
        CHECK(b->navmesh->nislands == 2);  // the floor with the 0.8 m stair, and the strip north of it
    }
}

TEST_CASE("islands: labels match a flood fill on generated scenes") {
    int with_several = 0;
    for (uint32_t seed = 1; seed <= 12; ++seed) {
        CAPTURE(seed);
        nav::Pipeline p;
        REQUIRE(p.set_mesh(generated_scene(seed)));
        const auto b = bake_pipeline(p, nav::Params{});
        check_islands(*b);
        with_several += b->navmesh->nislands > 1;
        // and a prune from each island keeps exactly that island
        std::vector<char> tried(static_cast<size_t>(b->navmesh->nislands), 0);
        for (uint32_t q = 0; q < static_cast<uint32_t>(b->navmesh->npolys); ++q) {
            if (tried[b->navmesh->poly_island[q]]) continue;
            tried[b->navmesh->poly_island[q]] = 1;
            check_prune(*b, q);
        }
    }
    CHECK(with_several >= 8);  // the scenes do exercise several islands
}

TEST_CASE("islands: prune keeps exactly the polygons a search from the kept one reaches") {
    for (const char* scene : {"demo.obj", "islands.obj"}) {
        CAPTURE(scene);
        const auto b = bake_asset(scene);
        const nav::NavMesh& m = *b->navmesh;
        // from every polygon (the scenes are small), then back: the result depends on the last only
        for (uint32_t keep = 0; keep < static_cast<uint32_t>(m.npolys); ++keep) {
            CAPTURE(keep);
            nav::NavMesh pruned = check_prune(*b, keep);
            const std::vector<uint16_t> from_keep = pruned.flags;
            REQUIRE(nav::prune_unreachable(pruned, m.ref((keep + 1) % static_cast<uint32_t>(m.npolys))));
            REQUIRE(nav::prune_unreachable(pruned, m.ref(keep)));
            CHECK(pruned.flags == from_keep);
        }
    }
    // on the demo scene, keeping the plaza disables the unreachable platform and nothing else
    const auto b = bake_asset("demo.obj");
    const uint32_t plaza = poly_at(*b->navmesh, 0.0f, 0.2f, 0.0f);
    const uint32_t platform = poly_at(*b->navmesh, 16.5f, 6.1f, 16.2f);
    nav::NavMesh m = check_prune(*b, plaza);
    for (uint32_t p = 0; p < static_cast<uint32_t>(m.npolys); ++p)
        CHECK(((m.flags[p] & nav::kPolyFlagDisabled) != 0) == (m.poly_island[p] == m.poly_island[platform]));
}

TEST_CASE("islands: the default query filter skips disabled polygons") {
    CHECK((nav::QueryFilter{}.exclude_flags & nav::kPolyFlagDisabled) != 0);
    CHECK_FALSE(nav::QueryFilter{}.passes(nav::kPolyFlagDefault | nav::kPolyFlagDisabled, nav::kAllAgentTypes));

    // a row of four unit squares (world x [10, 14], z [20, 21]) with the third one disabled by hand:
    // one island, so only the flag stands between polygon 0 and polygon 3
    navtest::Loops L = navtest::strip(4);
    nav::PolyMesh pm;
    nav::PolyMeshDetail dm;
    L.build(pm, dm);
    nav::NavMesh m;
    REQUIRE(nav::build_navmesh(pm, dm, m));
    REQUIRE(m.nislands == 1);
    m.flags[2] |= nav::kPolyFlagDisabled;
    nav::NavQuery q;
    q.init(&m);
    const nav::QueryFilter filter;
    nav::QueryFilter any;
    any.exclude_flags = 0;
    auto centre = [](int p) { return std::array<float, 3>{10.5f + static_cast<float>(p), -2.0f, 20.5f}; };
    const auto c0 = centre(0), c2 = centre(2), c3 = centre(3);
    // polygon i of the row, by reference, and a list of them
    auto ref = [&m](uint32_t p) { return m.ref(p); };
    auto refs = [&m](std::initializer_list<uint32_t> ps) {
        std::vector<nav::PolyRef> v;
        for (const uint32_t p : ps) v.push_back(m.ref(p));
        return v;
    };

    nav::PathResult path;
    REQUIRE(q.find_path(ref(0), ref(3), c0.data(), c3.data(), filter, path));
    CHECK_FALSE(path.reached);
    CHECK(path.polys == refs({0, 1}));  // partial: up to the disabled polygon
    REQUIRE(q.find_path(ref(0), ref(3), c0.data(), c3.data(), any, path));
    CHECK(path.reached);  // the flag alone blocked it
    CHECK(path.polys == refs({0, 1, 2, 3}));
    REQUIRE(q.find_path(ref(0), ref(2), c0.data(), c2.data(), filter, path));
    CHECK_FALSE(path.reached);  // nor is the disabled polygon itself a goal

    nav::RaycastHit ray;
    REQUIRE(q.raycast(ref(0), c0.data(), c3.data(), filter, ray));
    CHECK(ray.hit);
    CHECK(ray.polys == refs({0, 1}));
    CHECK(ray.t == doctest::Approx(0.5));  // the wall at x = 12, halfway from 10.5 to 13.5

    // nearest polygon: around polygon 2's centre only its neighbours are found
    const float ext[3] = {0.6f, 1.0f, 0.6f};
    nav::NearestPoly np;
    REQUIRE(q.find_nearest_poly(c2.data(), ext, filter, np));
    CHECK((np.poly == ref(1) || np.poly == ref(3)));
    REQUIRE(q.find_nearest_poly(c2.data(), ext, any, np));
    CHECK(np.poly == ref(2));

    nav::PolysAround around;
    REQUIRE(q.find_polys_around_circle(ref(0), c0.data(), 10.0f, filter, around));
    CHECK(around.polys == refs({0, 1}));

    nav::WallHit wall;
    const float near_portal[3] = {11.9f, -2.0f, 20.5f};  // 0.1 m from the edge to the disabled polygon
    REQUIRE(q.find_distance_to_wall(ref(1), near_portal, 5.0f, filter, wall));
    CHECK(wall.found);
    CHECK(wall.distance == doctest::Approx(0.1f).epsilon(1e-3));

    // random points: never on the disabled polygon, on each of the others
    nav::Rng rng(7);
    int hits[4] = {0, 0, 0, 0};
    for (int i = 0; i < 2000; ++i) {
        nav::RandomPoint rp;
        REQUIRE(q.random_point(filter, rng, rp));
        const uint32_t p = m.poly_index(rp.poly);
        REQUIRE(p < 4);
        ++hits[p];
    }
    CHECK(hits[2] == 0);
    CHECK(hits[0] > 0);
    CHECK(hits[1] > 0);
    CHECK(hits[3] > 0);
}

TEST_CASE("islands: after a prune of the demo scene the queries stay on the kept island") {
    const auto b = bake_asset("demo.obj");
    const uint32_t plaza = poly_at(*b->navmesh, 0.0f, 0.2f, 0.0f);
    const uint32_t platform = poly_at(*b->navmesh, 16.5f, 6.1f, 16.2f);
    REQUIRE(plaza != nav::kNoPoly);
    REQUIRE(platform != nav::kNoPoly);
    nav::NavMesh m = *b->navmesh;
    REQUIRE(nav::prune_unreachable(m, m.ref(plaza)));
    auto disabled = [&](nav::PolyRef r) {
        const uint32_t p = m.poly_index(r);
        return p != nav::kNoPoly && (m.flags[p] & nav::kPolyFlagDisabled) != 0;
    };
    REQUIRE(disabled(m.ref(platform)));
    nav::NavQuery q;
    q.init(&m);
    const nav::QueryFilter filter;
    const float start[3] = {0.0f, 0.2f, 0.0f}, goal[3] = {16.5f, 6.1f, 16.2f}, ext[3] = {2.0f, 4.0f, 2.0f};

    // a route to the platform does not start or end on it, and reaches nothing there
    nav::Route route;
    REQUIRE(q.find_route(start, goal, ext, filter, nav::StraightPathOptions{}, route));
    CHECK(route.start.poly == m.ref(plaza));
    CHECK_FALSE(disabled(route.end.poly));
    CHECK_FALSE(route.path.reached);
    for (const nav::PolyRef p : route.path.polys) CHECK_FALSE(disabled(p));
    // a route from the platform has no start polygon at all
    REQUIRE(q.find_route(goal, start, ext, filter, nav::StraightPathOptions{}, route));
    CHECK(route.start.poly == nav::kNoRef);
    CHECK_FALSE(route.found());
    // the path search asked for the platform polygon by index does not reach it
    nav::PathResult path;
    nav::NearestPoly np;
    REQUIRE(q.find_nearest_poly(start, ext, filter, np));
    REQUIRE(q.find_path(m.ref(plaza), m.ref(platform), np.point, goal, filter, path));
    CHECK_FALSE(path.reached);
    for (const nav::PolyRef p : path.polys) CHECK_FALSE(disabled(p));

    // random points: the platform is 1.3% of the area; 3000 points would land there about 39
    // times without the flag, and never with it
    nav::Rng rng(11);
    int on_platform = 0, on_platform_any = 0;
    nav::QueryFilter any;
    any.exclude_flags = 0;
    for (int i = 0; i < 3000; ++i) {
        nav::RandomPoint rp;
        REQUIRE(q.random_point(filter, rng, rp));
        on_platform += disabled(rp.poly);
        REQUIRE(q.random_point(any, rng, rp));
        on_platform_any += disabled(rp.poly);
    }
    CHECK(on_platform == 0);
    CHECK(on_platform_any > 0);
    // polygons around the plaza within 100 m: the whole kept island and nothing else
    nav::PolysAround around;
    REQUIRE(q.find_polys_around_circle(m.ref(plaza), start, 100.0f, filter, around));
    CHECK(around.polys.size() == static_cast<size_t>(m.npolys) - 1);
    for (const nav::PolyRef p : around.polys) CHECK_FALSE(disabled(p));
}

#ifdef NAV_HAVE_RENDER
TEST_CASE("islands layer: island colours over the detail surface, disabled polygons hatched, walls only") {
    using namespace nav::render;
    navtest::Loops L = navtest::strip(2, 3);
    nav::PolyMesh pm;
    nav::PolyMeshDetail dm;
    L.build(pm, dm);
    nav::NavMesh m;
    REQUIRE(nav::build_navmesh(pm, dm, m));
    REQUIRE(nav::prune_unreachable(m, m.ref(2)));  // the row of two is disabled
    DrawList out, edges;
    build_islands_layer(m, out, edges);
    // every square is two detail triangles of three vertices
    REQUIRE(out.tri_verts.size() == 5 * 6);
    CHECK(out.tri_indices.size() == 5 * 6);
    const uint32_t kept = color_with_alpha(island_color(m.poly_island[2]), colors::kIslandFillAlpha);
    size_t dark = 0, lit = 0;
    for (const Vertex& v : out.tri_verts) {
        dark += v.color == colors::kNavDisabled;
        lit += v.color == kept;
        CHECK(v.y == doctest::Approx(-2.0f + kNavmeshLift));  // on the detail surface, lifted as the navmesh layer
    }
    CHECK(dark == 2 * 6);
    CHECK(lit == 3 * 6);
    // the disabled row is hatched: stripes x + z = k * kHatchStep across its two unit squares, each
    // inside them, on the surface; nothing else draws lines into `out` (no portal lines)
    REQUIRE(!out.line_verts.empty());
    float lo_x = 1e30f, hi_x = -1e30f, lo_z = 1e30f, hi_z = -1e30f;
    for (const Vertex& v : out.tri_verts)
        if (v.color == colors::kNavDisabled) {
            lo_x = std::min(lo_x, v.x), hi_x = std::max(hi_x, v.x);
            lo_z = std::min(lo_z, v.z), hi_z = std::max(hi_z, v.z);
        }
    for (const Vertex& v : out.line_verts) {
        CHECK(v.color == colors::kNavDisabledHatch);
        CHECK(v.x >= lo_x - 1e-4f);
        CHECK(v.x <= hi_x + 1e-4f);
        CHECK(v.z >= lo_z - 1e-4f);
        CHECK(v.z <= hi_z + 1e-4f);
        CHECK(v.y > -2.0f + kNavmeshLift);  // over the fill
    }
    // a unit square spans 2 m of x + z: 2 / kHatchStep stripes each, give or take one
    const size_t stripes = out.line_verts.size() / 2;
    CHECK(stripes >= static_cast<size_t>(2 * (2.0f / colors::kHatchStep - 1.0f)));
    CHECK(stripes <= static_cast<size_t>(2 * (2.0f / colors::kHatchStep + 1.0f)));
    // the walls of both rows (6 + 8 unit edges)
    REQUIRE(edges.line_verts.size() == 2 * 14);
    for (const Vertex& v : edges.line_verts) CHECK(v.color == colors::kNavBoundary);

    // without the prune both rows show their own island colour
    REQUIRE(nav::build_navmesh(pm, dm, m));
    build_islands_layer(m, out, edges);
    size_t first = 0, second = 0;
    for (const Vertex& v : out.tri_verts) {
        first += v.color == color_with_alpha(island_color(m.poly_island[0]), colors::kIslandFillAlpha);
        second += v.color == color_with_alpha(island_color(m.poly_island[2]), colors::kIslandFillAlpha);
    }
    CHECK(first == 2 * 6);
    CHECK(second == 3 * 6);
    CHECK(out.line_verts.empty());  // nothing pruned: no hatching

    // the disabled fill reads on the view's background, rgb(42, 46, 55) (app.cpp's clear colour):
    // far from it in each channel sum and brighter, and its hatching brighter still
    const int bg[3] = {42, 46, 55};
    const auto dist = [&](uint32_t c) {
        return std::abs(color_r(c) - bg[0]) + std::abs(color_g(c) - bg[1]) + std::abs(color_b(c) - bg[2]);
    };
    CHECK(dist(colors::kNavDisabled) > 150);
    CHECK(dist(colors::kNavDisabledHatch) > dist(colors::kNavDisabled) + 150);

    // the first islands get clearly different colours, and the legend shows the layer's colours
    for (uint32_t i = 0; i < 8; ++i)
        for (uint32_t j = i + 1; j < 8; ++j) {
            const uint32_t a = island_color(i), c = island_color(j);
            const int d = std::abs(color_r(a) - color_r(c)) + std::abs(color_g(a) - color_g(c)) + std::abs(color_b(a) - color_b(c));
            CHECK(d > 40);
        }
    bool has_island0 = false, has_disabled = false;
    for (const LegendEntry& e : layer_legend(Layer::Islands, AreaColors(nav::AreaTable::defaults()))) {
        has_island0 = has_island0 || e.color == island_color(0);
        has_disabled = has_disabled || e.color == colors::kNavDisabled;
    }
    CHECK(has_island0);
    CHECK(has_disabled);
}

TEST_CASE("islands layer: the pruned demo scene draws the unreachable platform disabled") {
    using namespace nav::render;
    const auto b = bake_asset("demo.obj");
    auto pruned = std::make_shared<nav::Bake>(*b);
    auto mesh = std::make_shared<nav::NavMesh>(*b->navmesh);
    const uint32_t platform = poly_at(*mesh, 16.5f, 6.1f, 16.2f);
    REQUIRE(nav::prune_unreachable(*mesh, mesh->ref(poly_at(*mesh, 0.0f, 0.2f, 0.0f))));
    pruned->navmesh = mesh;
    DrawList out, extra;
    REQUIRE(build_layer(Layer::Islands, *pruned, out, extra));
    size_t dark = 0;
    for (const Vertex& v : out.tri_verts) dark += v.color == colors::kNavDisabled;
    // one vertex triple per detail triangle of the disabled polygon (the platform)
    CHECK(dark == 3 * (mesh->dtri_first[platform + 1] - mesh->dtri_first[platform]));
    CHECK(dark > 0);
    CHECK(out.tri_verts.size() == mesh->dtris.size() / 3);
    size_t hatch = 0;
    for (const Vertex& v : out.line_verts) hatch += v.color == colors::kNavDisabledHatch;
    CHECK(hatch > 0);
    // the navmesh layer draws the same polygons disabled, with the same hatching
    REQUIRE(build_layer(Layer::Navmesh, *pruned, out, extra));
    size_t dark_nav = 0, hatch_nav = 0;
    for (const Vertex& v : out.tri_verts) dark_nav += v.color == colors::kNavDisabled;
    for (const Vertex& v : out.line_verts) hatch_nav += v.color == colors::kNavDisabledHatch;
    CHECK(dark_nav == dark);
    CHECK(hatch_nav == hatch);
}
#endif
