// Deferred landmarks (issue 22, the add-obstacle speed): build_navmesh(defer_landmarks) leaves the
// islands it cannot copy from `previous` pending, complete_landmarks computes them, and
// PipelineDef::defer_landmarks publishes an edit's navmesh before them. Checked here:
//  - a deferred build's table has exactly the islands of changed tiles pending (count 0), and
//    after complete_landmarks equals a build that computed them at once, column for column;
//  - while pending, A* finds paths as short as with the whole table (the straight-line bound);
//  - a cancelled completion changes nothing (nothing done) or publishes only whole islands;
//  - copies of a mesh (a relinked snapshot) share the table, so completing one completes all;
//  - queries on one thread while another completes the table (run under ThreadSanitizer too).
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/pipeline/pipeline.h"
#include "core/runtime/navmesh.h"
#include "core/runtime/query.h"
#include "tile_scene.h"

namespace {

// The levels are the repository's, so these tests run on a fresh clone without ../shared, and in
// the TSan phase: the demo level (ramps, platforms, one island across its tiles) and, where islands
// must be told apart, two copies of the tiled tests' scene 20 m apart (two islands of many tiles).
std::string demo_level() { return std::string(NAV_SOURCE_DIR) + "/assets/demo.obj"; }

nav::InputMesh two_islands() {
    nav::InputMesh m = navtest::tile_scene();
    const nav::InputMesh other = navtest::tile_scene();
    const int base = m.vert_count();
    for (size_t i = 0; i < other.verts.size(); ++i) m.verts.push_back(other.verts[i] + (i % 3 == 0 ? 60.0f : 0.0f));
    for (int t : other.tris) m.tris.push_back(base + t);
    return m;
}

std::vector<std::shared_ptr<const nav::NavTile>> baked_tiles(nav::InputMesh mesh, int tile_size) {
    nav::Pipeline pipe;
    REQUIRE(pipe.set_mesh(std::move(mesh)));
    REQUIRE(pipe.set_param(nav::ParamId::tile_size, tile_size));
    REQUIRE(pipe.run());
    std::vector<std::shared_ptr<const nav::NavTile>> tiles;
    for (const auto& t : pipe.snapshot()->tiles)
        if (t && t->tile && t->tile->npolys() > 0) tiles.push_back(t->tile);
    return tiles;
}

int islands_with_portals(const nav::NavMesh& m) {
    int n = 0;
    for (int i = 0; i < m.nislands; ++i) n += m.island_first[i + 1] > m.island_first[i];
    return n;
}

// `pairs` random pairs (points from `ref`'s mesh; both meshes have the same slots and salts):
// q finds every path ref finds, as short. Returns the pairs reached.
int same_path_costs(nav::NavQuery& q, nav::NavQuery& ref, uint32_t seed, int pairs) {
    const nav::QueryFilter filter;
    nav::Rng rng(seed);
    int reached = 0;
    for (int k = 0; k < pairs; ++k) {
        nav::RandomPoint a, b;
        REQUIRE(ref.random_point(filter, rng, a));
        REQUIRE(ref.random_point(filter, rng, b));
        nav::PathResult pa, pb;
        REQUIRE(q.find_path(a.poly, b.poly, a.point, b.point, filter, pa));
        REQUIRE(ref.find_path(a.poly, b.poly, a.point, b.point, filter, pb));
        REQUIRE(pa.reached == pb.reached);
        reached += pa.reached;
        CHECK(std::fabs(static_cast<double>(pa.cost) - pb.cost) <= 1e-4 * std::max(1.0, static_cast<double>(pb.cost)));
    }
    return reached;
}

}  // namespace

TEST_CASE("landmarks deferred: pending islands, then complete_landmarks equals a build that computed them") {
    auto tiles = baked_tiles(two_islands(), 32);
    REQUIRE(tiles.size() > 4);

    nav::NavMesh first;  // nothing to copy from: every island with portals is pending
    REQUIRE(nav::build_navmesh(tiles, nullptr, first, {}, true));
    const auto t0 = first.landmarks();
    REQUIRE(t0);
    CHECK(t0->islands_pending == islands_with_portals(first));
    CHECK(t0->islands_reused == 0);
    for (int i = 0; i < first.nislands; ++i) CHECK(t0->count[static_cast<size_t>(i)] == 0);
    CHECK(nav::complete_landmarks(first));
    nav::NavMesh eager;
    REQUIRE(nav::build_navmesh(tiles, nullptr, eager));
    CHECK(first.landmarks()->islands_pending == 0);
    CHECK(first.landmarks()->count == eager.landmarks()->count);
    CHECK(first.landmarks()->dist == eager.landmarks()->dist);
    CHECK(t0->islands_pending > 0);  // the table a query already held is never changed under it

    // One tile replaced (a re-bake): only the islands touching it are pending; the others are
    // copied from `first`, and completing gives the fresh table.
    tiles[tiles.size() / 2] = std::make_shared<nav::NavTile>(*tiles[tiles.size() / 2]);
    nav::NavMesh inc, fresh;
    REQUIRE(nav::build_navmesh(tiles, &first, inc, {}, true));
    REQUIRE(nav::build_navmesh(tiles, &first, fresh));  // the same slots and salts, computed at once
    const auto ti = inc.landmarks();
    CHECK(ti->islands_pending > 0);
    CHECK(ti->islands_reused > 0);
    CHECK(ti->islands_pending + ti->islands_reused == islands_with_portals(inc));
    for (int i = 0; i < inc.nislands; ++i)
        if (ti->pending[static_cast<size_t>(i)]) CHECK(ti->count[static_cast<size_t>(i)] == 0);

    // While pending: paths as short as with the complete table.
    nav::NavQuery q_pending, q_full;
    q_pending.init(&inc);
    q_full.init(&fresh);
    const int reached = same_path_costs(q_pending, q_full, 20261129, 300);
    CHECK(reached > 30);

    CHECK(nav::complete_landmarks(inc));
    CHECK(inc.landmarks()->islands_pending == 0);
    CHECK(inc.landmarks()->count == fresh.landmarks()->count);
    CHECK(inc.landmarks()->dist == fresh.landmarks()->dist);
    CHECK(nav::complete_landmarks(inc));  // nothing pending: done at once

    // A build on a previous whose table is still pending computes (or defers) those islands
    // again instead of copying zeros.
    nav::NavMesh pending_prev, again;
    REQUIRE(nav::build_navmesh(tiles, nullptr, pending_prev, {}, true));
    REQUIRE(nav::build_navmesh(tiles, &pending_prev, again));
    CHECK(again.landmarks()->islands_pending == 0);
    CHECK(again.landmarks()->islands_reused == 0);
    CHECK(again.landmarks()->dist == fresh.landmarks()->dist);
    CHECK(again.landmarks()->count == fresh.landmarks()->count);
}

TEST_CASE("landmarks deferred: a cancelled completion publishes nothing half-done") {
    const auto tiles = baked_tiles(two_islands(), 32);
    nav::NavMesh m;
    REQUIRE(nav::build_navmesh(tiles, nullptr, m, {}, true));
    const auto before = m.landmarks();
    REQUIRE(before->islands_pending > 0);
    nav::CancelFlag cancel{true};
    CHECK_FALSE(nav::complete_landmarks(m, &cancel));
    CHECK(m.landmarks() == before);  // cancelled before any island: the same table
    cancel.store(false);
    CHECK(nav::complete_landmarks(m, &cancel));
    CHECK(m.landmarks()->islands_pending == 0);
}

TEST_CASE("landmarks deferred: the pipeline publishes an obstacle's navmesh first, its copies share the table") {
    const std::string path = demo_level();
    nav::PipelineDef def = nav::default_pipeline_def();
    def.defer_landmarks = true;
    nav::Pipeline deferred(def), eager;
    for (nav::Pipeline* p : {&deferred, &eager}) {
        REQUIRE(p->load_mesh(path));
        REQUIRE(p->set_param(nav::ParamId::tile_size, 32));
    }
    REQUIRE(deferred.run());
    REQUIRE(eager.run());
    REQUIRE(deferred.snapshot()->navmesh->landmarks()->islands_pending > 0);
    CHECK(deferred.complete_landmarks());
    CHECK(deferred.snapshot()->navmesh->landmarks()->dist == eager.snapshot()->navmesh->landmarks()->dist);

    // An obstacle on the navmesh: the rebuilt tiles' islands wait, the rest are copied.
    nav::NavQuery q;
    q.init(eager.snapshot()->navmesh.get());
    nav::Rng rng(7);
    nav::RandomPoint rp;
    REQUIRE(q.random_point(nav::QueryFilter{}, rng, rp));
    nav::Obstacle o;
    o.shape = nav::ObstacleShape::Cylinder;
    o.pos[0] = rp.point[0], o.pos[1] = rp.point[1], o.pos[2] = rp.point[2];
    o.radius = 0.5f;
    o.height = 2.0f;
    for (nav::Pipeline* p : {&deferred, &eager}) {
        REQUIRE(p->set_input(&nav::BakeInputs::obstacles, {o}));
        REQUIRE(p->run());
    }
    const auto snap = deferred.snapshot();
    REQUIRE(!snap->tiles_rebaked.empty());
    CHECK(snap->navmesh->landmarks()->islands_pending > 0);
    // a relink (a manual link added) publishes a copy of the navmesh that shares its graph
    nav::OffMeshLink link;
    link.start[0] = rp.point[0], link.start[1] = rp.point[1], link.start[2] = rp.point[2];
    link.end[0] = rp.point[0] + 1, link.end[1] = rp.point[1], link.end[2] = rp.point[2];
    link.radius = 0.5f;
    REQUIRE(deferred.set_input(&nav::BakeInputs::links, {link}));
    REQUIRE(deferred.run());
    const auto relinked = deferred.snapshot();
    REQUIRE(relinked->navmesh != snap->navmesh);
    CHECK(relinked->navmesh->landmarks() == snap->navmesh->landmarks());
    CHECK(deferred.complete_landmarks());
    CHECK(snap->navmesh->landmarks()->islands_pending == 0);  // the older copy sees it too
    CHECK(snap->navmesh->landmarks()->dist == eager.snapshot()->navmesh->landmarks()->dist);
    CHECK(relinked->navmesh->landmarks()->dist == eager.snapshot()->navmesh->landmarks()->dist);
}

TEST_CASE("landmarks deferred: queries while another thread completes the table") {
    const auto tiles = baked_tiles(two_islands(), 32);
    nav::NavMesh m, full;
    REQUIRE(nav::build_navmesh(tiles, nullptr, m, {}, true));
    REQUIRE(nav::build_navmesh(tiles, nullptr, full));
    std::atomic<bool> go{false};
    std::thread completer([&] {
        while (!go.load()) std::this_thread::yield();
        nav::complete_landmarks(m);
    });
    nav::NavQuery q, qf;
    q.init(&m);
    qf.init(&full);
    go.store(true);
    same_path_costs(q, qf, 11, 200);
    completer.join();
    CHECK(m.landmarks()->dist == full.landmarks()->dist);
}

TEST_CASE("pipeline: an assembly reuses the navmesh two builds back only when no snapshot holds it") {
    const std::string path = demo_level();
    nav::Pipeline p;
    REQUIRE(p.load_mesh(path));
    REQUIRE(p.set_param(nav::ParamId::tile_size, 32));
    REQUIRE(p.run());
    const auto held = p.snapshot();  // a view holding the clean navmesh throughout
    const nav::NavMesh copy = *held->navmesh;
    nav::NavQuery q;
    q.init(held->navmesh.get());
    nav::Rng rng(3);
    for (int k = 0; k < 4; ++k) {
        nav::RandomPoint rp;
        REQUIRE(q.random_point(nav::QueryFilter{}, rng, rp));
        nav::Obstacle o;
        o.shape = nav::ObstacleShape::Cylinder;
        o.pos[0] = rp.point[0], o.pos[1] = rp.point[1], o.pos[2] = rp.point[2];
        o.radius = 1.0f;
        o.height = 2.0f;
        REQUIRE(p.set_input(&nav::BakeInputs::obstacles, {o}));
        REQUIRE(p.run());
        REQUIRE(p.snapshot()->navmesh != held->navmesh);
        REQUIRE(p.set_input(&nav::BakeInputs::obstacles, {}));
        REQUIRE(p.run());
    }
    // the held navmesh was never written: every array as it was
    const nav::NavMesh& m = *held->navmesh;
    CHECK(m.npolys == copy.npolys);
    CHECK(m.verts == copy.verts);
    CHECK(m.edge_nei == copy.edge_nei);
    CHECK(m.edge_opp == copy.edge_opp);
    CHECK(m.flags == copy.flags);
    CHECK(m.poly_island == copy.poly_island);
    CHECK(m.pair_dist == copy.pair_dist);
    CHECK(m.landmarks() == copy.landmarks());
    // and the last one, built on reused buffers, equals the clean one (the obstacle is gone)
    const nav::NavMesh& last = *p.snapshot()->navmesh;
    CHECK(last.verts == copy.verts);
    CHECK(last.edge_nei == copy.edge_nei);
    CHECK(last.pair_dist == copy.pair_dist);
    CHECK(last.bvtree.size() == copy.bvtree.size());
    CHECK(last.landmarks()->dist == copy.landmarks()->dist);
}
