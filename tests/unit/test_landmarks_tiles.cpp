// Landmarks (ALT) on tiled meshes (issue 24): the table is one per island of the whole navmesh,
// across tiles, so A* on a tiled mesh gets the landmark bound too. Checked here:
//  - the bound is admissible: A* with landmarks finds paths as short (cost within 1e-4) as A*
//    without them (NavQuery::set_landmarks(false): straight-line bound alone) on 1000 random pairs
//    of each shared mesh tiled at 32 and 64, and the landmarks do cut the states expanded;
//  - the incremental table (islands of unchanged tiles copied from `previous`) equals a
//    from-scratch build after one tile is replaced (the synthetic random-tile version is in
//    test_navmesh_tiles.cpp's "replacing one tile" test).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "core/pipeline/pipeline.h"
#include "core/runtime/navmesh.h"
#include "core/runtime/query.h"
#include "test_scenes.h"

namespace {

std::shared_ptr<const nav::Bake> bake_tiled(const std::string& path, int tile_size) {
    nav::Pipeline pipe;
    REQUIRE(pipe.load_mesh(path));
    REQUIRE(pipe.set_param(nav::ParamId::tile_size, tile_size));
    REQUIRE(pipe.run());
    auto bake = pipe.snapshot();
    REQUIRE(bake->navmesh);
    REQUIRE(bake->navmesh->ntiles > 1);
    return bake;
}

void alt_equals_plain(const char* file, int tile_size) {
    const std::string path = navtest::shared_mesh_or_skip(file);
    if (path.empty()) return;
    const auto bake = bake_tiled(path, tile_size);
    const nav::NavMesh& m = *bake->navmesh;
    // The largest island (by portals) has landmarks: the table really spans tiles.
    int big = 0;
    for (int i = 1; i < m.nislands; ++i)
        if (m.island_first[i + 1] - m.island_first[i] > m.island_first[big + 1] - m.island_first[big]) big = i;
    REQUIRE(m.nislands > 0);
    CHECK(m.landmarks()->count[static_cast<size_t>(big)] == nav::NavMesh::kLandmarks);
    REQUIRE(m.landmarks()->dist.size() == static_cast<size_t>(m.nedges) * nav::NavMesh::kLandmarks);

    nav::NavQuery alt, plain;
    alt.init(&m);
    plain.init(&m);
    plain.set_landmarks(false);
    CHECK(alt.landmarks());
    CHECK(!plain.landmarks());
    const nav::QueryFilter filter;
    nav::Rng rng(20261127);
    nav::RandomPoint a, b;
    nav::PathResult pa, pb;
    constexpr int kPairs = 1000;
    int reached = 0, multi_tile = 0;  // reached pairs, of which with ends in different tiles
    long long expanded_alt = 0, expanded_plain = 0;
    double worst = 0;
    for (int i = 0; i < kPairs; ++i) {
        REQUIRE(alt.random_point(filter, rng, a));
        REQUIRE(alt.random_point(filter, rng, b));
        REQUIRE(a.poly != nav::kNoRef);
        REQUIRE(b.poly != nav::kNoRef);
        REQUIRE(alt.find_path(a.poly, b.poly, a.point, b.point, filter, pa));
        REQUIRE(plain.find_path(a.poly, b.poly, a.point, b.point, filter, pb));
        // Unreached (another island): both walk optimally to the state nearest the goal, so the
        // costs match too.
        REQUIRE(pa.reached == pb.reached);
        if (pa.reached) {
            ++reached;
            multi_tile += nav::ref_slot(a.poly) != nav::ref_slot(b.poly);
            expanded_alt += pa.expanded;
            expanded_plain += pb.expanded;
        }
        const double diff = std::fabs(static_cast<double>(pa.cost) - pb.cost);
        worst = std::max(worst, diff / std::max(1.0, static_cast<double>(pb.cost)));
        CHECK_MESSAGE(diff <= 1e-4 * std::max(1.0, static_cast<double>(pb.cost)),
                      "pair " << i << ": cost with landmarks " << pa.cost << ", without " << pb.cost);
    }
    std::printf("ALT tiled %s ts=%d: %d tiles, %d islands, %d of %d pairs reached (%d across tiles), states expanded "
                "%lld with landmarks / %lld without, worst relative cost difference %.2g\n",
                file, tile_size, m.ntiles, m.nislands, reached, kPairs, multi_tile, expanded_alt, expanded_plain, worst);
    CHECK(reached >= kPairs / 5);  // nav_test: about 28% (its pairs often fall on separate islands)
    CHECK(multi_tile >= reached / 2);
    CHECK(expanded_alt < expanded_plain);  // the bound is at work across tiles
}

}  // namespace

TEST_CASE("ALT tiled: dungeon, tile 32 and 64: paths as short as A* without landmarks") {
    alt_equals_plain("dungeon.obj", 32);
    alt_equals_plain("dungeon.obj", 64);
}
TEST_CASE("ALT tiled: nav_test, tile 32 and 64: paths as short as A* without landmarks") {
    alt_equals_plain("nav_test.obj", 32);
    alt_equals_plain("nav_test.obj", 64);
}
TEST_CASE("ALT tiled: undulating, tile 32 and 64: paths as short as A* without landmarks") {
    alt_equals_plain("undulating.obj", 32);
    alt_equals_plain("undulating.obj", 64);
}

TEST_CASE("ALT tiled: after one tile is replaced the incremental landmark table equals a fresh one") {
    const std::string path = navtest::shared_mesh_or_skip("nav_test.obj");
    if (path.empty()) return;
    const auto bake = bake_tiled(path, 32);
    std::vector<std::shared_ptr<const nav::NavTile>> tiles;
    for (const auto& t : bake->tiles)
        if (t && t->tile && t->tile->npolys() > 0) tiles.push_back(t->tile);
    REQUIRE(tiles.size() > 4);
    nav::NavMesh prev;
    REQUIRE(nav::build_navmesh(tiles, nullptr, prev));
    int with_portals = 0;
    for (int i = 0; i < prev.nislands; ++i) with_portals += prev.island_first[i + 1] > prev.island_first[i];
    // Replace tiles one at a time (a new object each: the pipeline's re-bake of that tile), each
    // rebuild incremental on the last; every result must equal a build from nothing.
    for (size_t k = 0; k < tiles.size(); k += std::max<size_t>(1, tiles.size() / 5)) {
        tiles[k] = std::make_shared<nav::NavTile>(*tiles[k]);
        nav::NavMesh inc, fresh;
        REQUIRE(nav::build_navmesh(tiles, &prev, inc));
        REQUIRE(nav::build_navmesh(tiles, nullptr, fresh));
        CHECK(inc.tiles_reused > 0);
        CHECK(inc.landmarks()->islands_reused > 0);         // the incremental path ran...
        CHECK(inc.landmarks()->islands_reused < with_portals);  // ...and the changed tile's islands were recomputed
        CHECK(fresh.landmarks()->islands_reused == 0);
        REQUIRE(inc.nedges == fresh.nedges);
        CHECK(inc.island_portals == fresh.island_portals);
        CHECK(inc.landmarks()->count == fresh.landmarks()->count);
        CHECK(inc.landmarks()->dist == fresh.landmarks()->dist);
        prev = std::move(inc);
    }
}
