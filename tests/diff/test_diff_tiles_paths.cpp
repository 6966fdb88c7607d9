// Path queries on a tiled navmesh against Detour's tiled navmesh (test-only reference): the same
// shared mesh baked with tile_size 32 by our pipeline (NavTiles stitched by build_navmesh) and by
// Recast tile by tile (the same bordered boxes and triangles, as Sample_TileMesh::buildTileMesh),
// each Recast tile turned into Detour data (dtCreateNavMeshData, tileX / tileY) and added to one
// dtNavMesh, which links the tiles itself (connectExtLinks). The same random pairs (on our mesh)
// go to both; the verdicts (reached or not) must agree on at least 99% of the pairs where both sides
// found both end polygons; over the pairs both reach whose Detour path is at least 1 m long (as the
// solo comparison in test_diff_paths.cpp; a centimetre of height on a 20 cm path is 5%), the mean
// of ours / Detour's straight-path length must lie within 1% of 1. The mean |length difference| is
// bounded more loosely (2%): on a tiled mesh the two A* searches can pick different corridors where
// a tile border splits a portal (Detour costs the split piece's midpoint, we cost ours), which moves
// single paths by a few percent either way; measured 0.10% (dungeon), 0.25% (nav_test) and 1.07%
// (undulating, 98 of 1000 pairs over 3%, about as many shorter as longer; solo they agree exactly).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/pipeline/pipeline.h"
#include "core/pipeline/tiling.h"
#include "diff/detour_ref.h"
#include "diff/detour_tiled.h"
#include "diff/recast_ref.h"
#include "test_scenes.h"

namespace {

void diff_tiled_paths(const char* file, int tile_size) {
    const std::string path = navtest::shared_mesh_or_skip(file);
    if (path.empty()) return;
    nav::Pipeline pipe;
    REQUIRE(pipe.load_mesh(path));
    REQUIRE(pipe.set_param(nav::ParamId::tile_size, tile_size));
    REQUIRE(pipe.run());
    const auto bake = pipe.snapshot();
    REQUIRE(bake->navmesh);
    const nav::NavMesh& ours = *bake->navmesh;
    REQUIRE(ours.ntiles > 1);

    navdiff::DetourMesh dt;
    std::string err;
    int dt_tiles = 0;
    REQUIRE_MESSAGE(navdiff::build_detour_tiled(*bake->mesh, bake->config, nav::Partition::Watershed, dt, dt_tiles, err), err);

    nav::NavQuery q;
    q.init(&ours, navdiff::kDetourNodes * 4);
    std::vector<float> pts;
    constexpr int kPairs = 1000;
    REQUIRE(navdiff::make_pairs(q, 20261125, kPairs, pts));
    navdiff::DetourRoutes dr(dt);
    constexpr double kMinLength = 1.0;  // metres: shorter paths are counted, not measured
    int compared = 0, agree = 0, both_reached = 0, measured = 0;
    double rel_sum = 0, ratio_sum = 0, ours_total = 0, detour_total = 0;
    for (int i = 0; i < kPairs; ++i) {
        const float* s = &pts[static_cast<size_t>(i) * 6];
        const float* e = s + 3;
        nav::Route r;
        const nav::Status st = q.find_route(s, e, navdiff::kHalfExtents, nav::QueryFilter{}, {}, r);
        navdiff::RouteOutcome a, b;
        navdiff::our_outcome(st, r, a);
        dr.route(s, e, &b);
        REQUIRE(a.ok);
        REQUIRE(b.ok);
        if (!a.start_found || !a.end_found || !b.start_found || !b.end_found) continue;
        ++compared;
        agree += a.reached == b.reached;
        if (a.reached && b.reached) {
            ++both_reached;
            ours_total += a.length;
            detour_total += b.length;
        }
        if (a.reached && b.reached && b.length >= kMinLength) {
            ++measured;
            rel_sum += std::fabs(a.length - b.length) / b.length;
            ratio_sum += a.length / b.length;
        }
    }
    const double agree_share = compared ? static_cast<double>(agree) / compared : 0.0;
    const double mean_rel = measured ? rel_sum / measured : 0.0;
    const double mean_ratio = measured ? ratio_sum / measured : 1.0;
    std::printf("tiled paths %s ts=%d: tiles ours %d / Detour %d, polys %d, pairs compared %d, verdicts agree %.2f%%, "
                "both reached %d (%d of at least %.0f m measured), mean length ours / Detour %.4f, mean |length "
                "difference| %.3f%%, total %.1f m / %.1f m\n",
                file, tile_size, ours.ntiles, dt_tiles, ours.npolys, compared, 100.0 * agree_share, both_reached,
                measured, kMinLength, mean_ratio, 100.0 * mean_rel, ours_total, detour_total);
    CHECK(compared >= kPairs * 9 / 10);
    CHECK(agree_share >= 0.99);
    CHECK(measured >= both_reached * 8 / 10);
    CHECK(measured > 0);
    CHECK(std::fabs(mean_ratio - 1.0) <= 0.01);
    CHECK(mean_rel <= 0.02);
}

}  // namespace

TEST_CASE("diff tiled paths: dungeon, tile_size 32, ours vs Detour's tiled navmesh") { diff_tiled_paths("dungeon.obj", 32); }
TEST_CASE("diff tiled paths: nav_test, tile_size 32, ours vs Detour's tiled navmesh") { diff_tiled_paths("nav_test.obj", 32); }
TEST_CASE("diff tiled paths: undulating, tile_size 64, ours vs Detour's tiled navmesh") {
    diff_tiled_paths("undulating.obj", 64);
}
