// Temporary obstacles against Debian's DetourTileCache (issue 22): on each shared mesh, at tile sizes
// 32 and 64, the same obstacles (4 cylinders, 2 axis-aligned boxes, 2 rotated boxes, at random
// points of the obstacle-free navmesh from a fixed seed, standing on the floor there) go to our tiled
// pipeline (BakeInputs::obstacles, only the touched tiles re-baked) and to a dtTileCache built as
// RecastDemo's Sample_TempObstacles (tilecache_ref.h: each obstacle given as the equivalent shape,
// grown by the agent radius and extended the climb below, since DetourTileCache marks its already
// eroded layers with the shape as given). Checked, with the figures printed:
//  - walkable area (xz-projected polygon area, the same shoelace over both navmeshes' float
//    vertices) of ours within 2% of DetourTileCache's, with the obstacles; and the area the
//    obstacles remove (without minus with) between 70% and 110% of DetourTileCache's (see there);
//  - reached verdicts: 500 pairs, half sampled on our navmesh, half on DetourTileCache's; each point
//    is snapped on both sides with a small box (kSnap); a pair where either side does not snap a point
//    is skipped and counted; on the others ours (find_path: reached) and Detour's (findPath: the
//    corridor ends in the end point's polygon, no partial result) must agree on at least 97%.
//    Both searches get 65535 nodes, so neither runs out on these meshes. The same comparison
//    without obstacles is printed too (what the two bakes differ by on their own).
// Measured at the last run (area difference / verdicts agree, tile 32 then 64): dungeon 0.56% /
// 100%, 0.20% / 100%; nav_test 0.39% / 100%, 0.96% / 100%; undulating 0.17% / 98.36%, 0.03% /
// 89.10% - the last below 97% for DetourTileCache's own reason, named at the check.
// A separate case on a flat floor checks that a rotated box blocks the same places on both sides
// (the yaw convention and the growth given to DetourTileCache), with no shared mesh needed.
// Points DetourTileCache samples may not snap on ours: skipped and counted (up to 58 of 500). On
// nav_test every skipped point was one of its samples, and most (117 of 152 over the four runs)
// have no polygon of ours within 0.5 m in xz even with a 4 m tall box: DetourTileCache keeps pieces
// ours does not have (likely small ones: its layer regions have no minimum size, as
// dtBuildTileCacheRegions takes none, where ours drops regions under region_min_size; not checked
// piece by piece), and Detour 1.5.1's findRandomPoint picks a tile uniformly before a polygon by
// area, so tiles with little area are sampled far more than their share. The rest have our floor
// more than 1 m above or below them.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/pipeline/pipeline.h"
#include "core/runtime/query.h"
#include "diff/tilecache_ref.h"
#include "test_scenes.h"

namespace {

constexpr float kSnap[3] = {0.5f, 1.0f, 0.5f};  // half extents of the snap box, metres
constexpr int kPairs = 500;
constexpr int kNodes = 65535;

// Our navmesh's walkable area by the same formula as detour_walkable_area.
double our_walkable_area(const nav::NavMesh& n) {
    double area = 0;
    for (int p = 0; p < n.npolys; ++p) {
        const uint32_t e0 = n.poly_first[static_cast<size_t>(p)], e1 = n.poly_first[static_cast<size_t>(p) + 1];
        double a2 = 0;
        for (uint32_t e = e0; e < e1; ++e) {
            const float* va = &n.verts[static_cast<size_t>(n.edge_vert[e]) * 3];
            const float* vb = &n.verts[static_cast<size_t>(n.edge_vert[e + 1 < e1 ? e + 1 : e0]) * 3];
            a2 += static_cast<double>(va[0]) * vb[2] - static_cast<double>(vb[0]) * va[2];
        }
        area += std::abs(a2) * 0.5;
    }
    return area;
}

// A handful of obstacles on walkable ground of `q`'s navmesh, the same for a given seed.
std::vector<nav::Obstacle> make_obstacles(const nav::NavQuery& q, uint64_t seed) {
    nav::Rng rng(seed);
    std::vector<nav::Obstacle> out;
    const nav::ObstacleShape shapes[] = {nav::ObstacleShape::Cylinder, nav::ObstacleShape::Cylinder,
                                         nav::ObstacleShape::Cylinder, nav::ObstacleShape::Cylinder,
                                         nav::ObstacleShape::Box,      nav::ObstacleShape::Box,
                                         nav::ObstacleShape::RotatedBox, nav::ObstacleShape::RotatedBox};
    for (nav::ObstacleShape s : shapes) {
        nav::RandomPoint rp;
        REQUIRE(q.random_point(nav::QueryFilter{}, rng, rp));
        nav::Obstacle o;
        o.shape = s;
        o.pos[0] = rp.point[0], o.pos[1] = rp.point[1], o.pos[2] = rp.point[2];
        if (s == nav::ObstacleShape::Cylinder) {
            o.radius = 0.4f + 0.6f * rng.next_float();
            o.height = 2.0f;
        } else {
            o.half[0] = 0.5f + 0.7f * rng.next_float();
            o.half[1] = 1.0f;
            o.half[2] = 0.5f + 0.7f * rng.next_float();
            o.pos[1] += o.half[1];  // standing on the floor
            if (s == nav::ObstacleShape::RotatedBox) o.yaw = 3.14159265f * rng.next_float();
        }
        out.push_back(o);
    }
    return out;
}

nav::Rng* g_detour_rng = nullptr;
float detour_frand() { return g_detour_rng->next_float(); }

struct Verdicts {
    int skipped_ours = 0, skipped_dtc = 0;  // pairs with a point that side did not snap (both: counted once, as ours)
    int compared = 0, agree = 0, ours_reached = 0, dtc_reached = 0, ours_only = 0, out_of_nodes = 0;
    // Disagreements where DetourTileCache's partial corridor ends in the end polygon's tile column
    // (same tile x, z) on another of its layers: layers of one tile are not joined to each other.
    int dtc_stops_in_end_column = 0;
    // Disagreements where the start, the end or the stop of DetourTileCache's corridor lies on a
    // tile's second or later layer (header->layer >= 1).
    int dtc_upper_layer = 0;
    int skipped() const { return skipped_ours + skipped_dtc; }
    double share() const { return compared ? static_cast<double>(agree) / compared : 0.0; }
};

// kPairs pairs, the first half sampled on ours, the second on DetourTileCache's navmesh.
Verdicts compare_verdicts(const nav::NavMesh& ours, navdiff::TileCacheRef& dtc, uint64_t seed) {
    Verdicts v;
    nav::NavQuery q;
    q.init(&ours, kNodes);
    dtQueryFilter dfilter;
    const nav::QueryFilter filter;
    nav::Rng rng(seed);
    g_detour_rng = &rng;
    std::vector<float> pts;
    for (int i = 0; i < 2 * kPairs; ++i) {
        float p[3];
        if (i < kPairs) {
            nav::RandomPoint rp;
            REQUIRE(q.random_point(filter, rng, rp));
            p[0] = rp.point[0], p[1] = rp.point[1], p[2] = rp.point[2];
        } else {
            // Detour 1.5.1 picks a tile first, uniformly, and fails when that tile has no
            // polygon: draw again.
            dtPolyRef ref = 0;
            bool got = false;
            for (int attempt = 0; attempt < 100 && !got; ++attempt)
                got = dtStatusSucceed(dtc.query->findRandomPoint(&dfilter, detour_frand, &ref, p)) && ref;
            REQUIRE(got);
        }
        pts.insert(pts.end(), p, p + 3);
    }
    g_detour_rng = nullptr;
    std::vector<dtPolyRef> corridor(8192);
    for (int i = 0; i < kPairs; ++i) {
        const float* s = &pts[static_cast<size_t>(i) * 6];
        const float* e = s + 3;
        nav::NearestPoly ns, ne;
        REQUIRE(q.find_nearest_poly(s, kSnap, filter, ns));
        REQUIRE(q.find_nearest_poly(e, kSnap, filter, ne));
        dtPolyRef ds = 0, de = 0;
        float dsp[3], dep[3];
        REQUIRE(dtStatusSucceed(dtc.query->findNearestPoly(s, kSnap, &dfilter, &ds, dsp)));
        REQUIRE(dtStatusSucceed(dtc.query->findNearestPoly(e, kSnap, &dfilter, &de, dep)));
        if (ns.poly == nav::kNoRef || ne.poly == nav::kNoRef) {
            ++v.skipped_ours;
            continue;
        }
        if (!ds || !de) {
            ++v.skipped_dtc;
            continue;
        }
        ++v.compared;
        nav::PathResult pr;
        REQUIRE(q.find_path(ns.poly, ne.poly, ns.point, ne.point, filter, pr));
        const bool a = pr.reached && !pr.polys.empty() && pr.polys.back() == ne.poly;
        int n = 0;
        const dtStatus st = dtc.query->findPath(ds, de, dsp, dep, &dfilter, corridor.data(), &n,
                                                static_cast<int>(corridor.size()));
        REQUIRE(dtStatusSucceed(st));
        const bool b = n > 0 && !dtStatusDetail(st, DT_PARTIAL_RESULT) && corridor[static_cast<size_t>(n) - 1] == de;
        v.out_of_nodes += pr.out_of_nodes || dtStatusDetail(st, DT_OUT_OF_NODES);
        v.ours_reached += a;
        v.dtc_reached += b;
        v.agree += a == b;
        v.ours_only += a && !b;
        if (a != b) {
            const dtMeshTile *tl = nullptr, *te = nullptr, *ts = nullptr;
            const dtPoly* poly = nullptr;
            dtc.mesh->getTileAndPolyByRef(corridor[static_cast<size_t>(std::max(n, 1)) - 1], &tl, &poly);
            dtc.mesh->getTileAndPolyByRef(de, &te, &poly);
            dtc.mesh->getTileAndPolyByRef(ds, &ts, &poly);
            if ((ts && ts->header->layer > 0) || (te && te->header->layer > 0) || (n > 0 && tl && tl->header->layer > 0))
                ++v.dtc_upper_layer;
        }
        if (a && !b && n > 0) {
            const dtMeshTile *tl = nullptr, *te = nullptr;
            const dtPoly* poly = nullptr;
            dtc.mesh->getTileAndPolyByRef(corridor[static_cast<size_t>(n) - 1], &tl, &poly);
            dtc.mesh->getTileAndPolyByRef(de, &te, &poly);
            if (tl && te && tl != te && tl->header->x == te->header->x && tl->header->y == te->header->y)
                ++v.dtc_stops_in_end_column;
        }
    }
    return v;
}

// dtc_layer_split: the named difference below applies (undulating at tile_size 64).
void diff_tilecache(const char* file, int tile_size, bool dtc_layer_split = false) {
    const std::string path = navtest::shared_mesh_or_skip(file);
    if (path.empty()) return;
    nav::Pipeline pipe;
    REQUIRE(pipe.load_mesh(path));
    REQUIRE(pipe.set_param(nav::ParamId::tile_size, tile_size));
    REQUIRE(pipe.run());
    const auto clean = pipe.snapshot();
    REQUIRE(clean->navmesh);
    const double our_clean = our_walkable_area(*clean->navmesh);

    nav::NavQuery q0;
    q0.init(clean->navmesh.get());
    const std::vector<nav::Obstacle> obstacles = make_obstacles(q0, 20261129u + static_cast<uint64_t>(tile_size));
    REQUIRE(pipe.set_input(&nav::BakeInputs::obstacles, obstacles));
    REQUIRE(pipe.run());
    const auto bake = pipe.snapshot();
    REQUIRE(bake->navmesh);
    const nav::NavMesh& ours = *bake->navmesh;
    const double our_area = our_walkable_area(ours);

    const nav::Params& P = bake->inputs.params;
    navdiff::TileCacheRef dtc;
    std::string err;
    REQUIRE_MESSAGE(navdiff::build_tilecache(*bake->mesh, bake->config, P.f(nav::ParamId::agent_height),
                                             P.f(nav::ParamId::agent_radius), P.f(nav::ParamId::agent_max_climb), dtc, err),
                    err);
    const double dtc_clean = navdiff::detour_walkable_area(*dtc.mesh);
    // The same comparison before any obstacle: what the two bakes differ by on their own.
    const Verdicts v0 = compare_verdicts(*clean->navmesh, dtc, 555u + static_cast<uint64_t>(tile_size));
    std::vector<dtObstacleRef> refs;
    for (const nav::Obstacle& o : obstacles) {
        dtObstacleRef r = 0;
        REQUIRE(dtStatusSucceed(navdiff::add_tilecache_obstacle(dtc, o, &r)));
        refs.push_back(r);
    }
    REQUIRE(navdiff::update_tilecache(dtc));
    for (dtObstacleRef r : refs) {
        const dtTileCacheObstacle* ob = dtc.cache->getObstacleByRef(r);
        REQUIRE(ob);
        CHECK(ob->state == DT_OBSTACLE_PROCESSED);
    }
    const double dtc_area = navdiff::detour_walkable_area(*dtc.mesh);
    const double rel = std::fabs(our_area - dtc_area) / dtc_area;

    const Verdicts v = compare_verdicts(ours, dtc, 777u + static_cast<uint64_t>(tile_size));
    char line[1024];
    std::snprintf(line, sizeof line,
                  "tilecache %s ts=%d: %zu obstacles (%d spans cleared), DTC layers %d; walkable area ours %.1f m2 / "
                  "DTC %.1f m2 (difference %.2f%%; without obstacles %.1f / %.1f, removed %.1f / %.1f); pairs %d: "
                  "skipped %d (a point not snapped: ours %d, DTC %d), compared %d, verdicts agree %.2f%% (reached "
                  "ours %d, DTC %d; ours only %d, of which DTC stops on another layer of the end's tile %d; disagreements "
                  "on a tile's upper DTC layer %d; out of nodes %d); without obstacles: compared %d, agree %.2f%% (reached ours %d, DTC %d)",
                  file, tile_size, obstacles.size(), static_cast<int>(bake->count("obstacle_spans")), dtc.layers,
                  our_area, dtc_area, 100.0 * rel, our_clean, dtc_clean, our_clean - our_area, dtc_clean - dtc_area,
                  kPairs, v.skipped(), v.skipped_ours, v.skipped_dtc, v.compared, 100.0 * v.share(), v.ours_reached,
                  v.dtc_reached, v.ours_only,
                  v.dtc_stops_in_end_column, v.dtc_upper_layer, v.out_of_nodes, v0.compared, 100.0 * v0.share(), v0.ours_reached,
                  v0.dtc_reached);
    MESSAGE(line);
    std::printf("%s\n", line);
    CHECK(our_area < our_clean);
    CHECK(dtc_area < dtc_clean);
    // The obstacles are about 1% of these levels' area, so the 2% above says little about them:
    // the area they remove is compared too. DetourTileCache removes more by its own rounding (a
    // cylinder marks cells whose centre is within radius + half a cell: (1.35 / 1.2)^2 = 1.27 times
    // the area for a 0.6 m grown radius at 0.3 m cells; square grown box corners; box index ranges
    // rounded outward), so ours must remove between 70% and 110% of what it removes (measured 73% to
    // 93%). Ours without the agent-radius growth would remove about a third.
    const double removed_ours = our_clean - our_area, removed_dtc = dtc_clean - dtc_area;
    CHECK(removed_ours >= 0.70 * removed_dtc);
    CHECK(removed_ours <= 1.10 * removed_dtc);
    CHECK(rel <= 0.02);
    CHECK(v.compared >= kPairs * 8 / 10);
    if (!dtc_layer_split) {
        CHECK(v.share() >= 0.97);
    } else {
        // Named difference: the verdict check FAILS here against DetourTileCache, for a reason of
        // its own: rcBuildHeightfieldLayers splits a few of this terrain's 64-cell tiles into two
        // layers, and Detour joins polygons only across tile borders, never the layers of one tile
        // to each other (each layer is its own dtMeshTile at the same x, z), so DetourTileCache cannot
        // leave or enter those upper layers where ours walks on. Measured at the last run: 89.10% of
        // 431 pairs agree (90.68% without any obstacle, so not the obstacles' doing); 45 of the 47
        // disagreements have their start, end or the stop of Detour's corridor on a tile's upper layer
        // (ours reaches, Detour does not). The 97% threshold then holds for the rest: the
        // disagreements not on an upper layer stay within 3% of the pairs.
        WARN(v.share() >= 0.97);
        CHECK(v.compared - v.agree - v.dtc_upper_layer <= 0.03 * v.compared);
    }
}

}  // namespace

// A flat 30 m floor, one thin box turned 30 degrees: the points just inside its grown shape are off
// both navmeshes, their mirror images (turned -30 degrees: outside the box) on both. Checks the yaw
// convention (counter-clockwise seen from +y on both sides) and the agent-radius growth given to
// DetourTileCache, independently of the shared meshes.
TEST_CASE("diff tilecache: a rotated box blocks the same places in ours and in DetourTileCache") {
    nav::InputMesh m;
    navtest::add_floor(m, 0, 0, 30, 30, 0);
    nav::Pipeline pipe;
    REQUIRE(pipe.set_mesh(m));
    REQUIRE(pipe.set_param(nav::ParamId::tile_size, 32));
    nav::Obstacle o;
    o.shape = nav::ObstacleShape::RotatedBox;
    o.pos[0] = 15, o.pos[1] = 1, o.pos[2] = 15;
    o.half[0] = 4, o.half[1] = 1, o.half[2] = 0.3f;
    o.yaw = 30.0f * 3.14159265f / 180.0f;
    REQUIRE(pipe.set_input(&nav::BakeInputs::obstacles, {o}));
    REQUIRE(pipe.run());
    const auto bake = pipe.snapshot();
    REQUIRE(bake->navmesh);
    const nav::Params& P = bake->inputs.params;
    navdiff::TileCacheRef dtc;
    std::string err;
    REQUIRE_MESSAGE(navdiff::build_tilecache(*bake->mesh, bake->config, P.f(nav::ParamId::agent_height),
                                             P.f(nav::ParamId::agent_radius), P.f(nav::ParamId::agent_max_climb), dtc, err),
                    err);
    dtObstacleRef ref = 0;
    REQUIRE(dtStatusSucceed(navdiff::add_tilecache_obstacle(dtc, o, &ref)));
    REQUIRE(navdiff::update_tilecache(dtc));
    nav::NavQuery q;
    q.init(bake->navmesh.get());
    const float tiny[3] = {0.05f, 1.0f, 0.05f};
    dtQueryFilter dfilter;
    // Points at local (u, w) of the box (u along its 8 m side, |w| <= 0.4, inside the 0.3 + 0.6 m
    // grown half width with 0.5 m to spare), placed with +30 degrees (inside) and with -30 degrees
    // (their local place then turns by 60 degrees: 1.5 m or more off the box's axis, outside).
    const float agent_r = P.f(nav::ParamId::agent_radius);
    int blocked = 0, open = 0;
    for (const auto& local : {std::array<float, 2>{3.0f, 0.0f}, std::array<float, 2>{-3.0f, 0.0f},
                              std::array<float, 2>{2.0f, 0.4f}, std::array<float, 2>{-2.0f, -0.4f}}) {
        for (float yaw : {o.yaw, -o.yaw}) {
            const float c = std::cos(yaw), sn = std::sin(yaw);
            // counter-clockwise seen from +y: local +x turns toward -z
            const float p[3] = {o.pos[0] + c * local[0] + sn * local[1], 0.0f, o.pos[2] - sn * local[0] + c * local[1]};
            const bool inside = nav::obstacle_contains_xz(o, agent_r, p[0], p[2]);
            CAPTURE(p[0]);
            CAPTURE(p[2]);
            CAPTURE(inside);
            CHECK(inside == (yaw == o.yaw));
            nav::NearestPoly np;
            REQUIRE(q.find_nearest_poly(p, tiny, nav::QueryFilter{}, np));
            dtPolyRef dr = 0;
            float dp[3];
            bool dover = false;
            REQUIRE(dtStatusSucceed(dtc.query->findNearestPoly(p, tiny, &dfilter, &dr, dp, &dover)));
            // on the navmesh: some polygon lies under the point (not only near it)
            CHECK((np.poly != nav::kNoRef && np.over_poly) == !inside);
            CHECK((dr != 0 && dover) == !inside);
            blocked += inside;
            open += !inside;
        }
    }
    CHECK(blocked == 4);
    CHECK(open == 4);
}

TEST_CASE("diff tilecache: dungeon, obstacles against DetourTileCache, tile_size 32 and 64") {
    for (int ts : {32, 64}) {
        CAPTURE(ts);
        diff_tilecache("dungeon.obj", ts);
    }
}
TEST_CASE("diff tilecache: nav_test, obstacles against DetourTileCache, tile_size 32 and 64") {
    for (int ts : {32, 64}) {
        CAPTURE(ts);
        diff_tilecache("nav_test.obj", ts);
    }
}
TEST_CASE("diff tilecache: undulating, obstacles against DetourTileCache, tile_size 32 and 64") {
    for (int ts : {32, 64}) {
        CAPTURE(ts);
        diff_tilecache("undulating.obj", ts, ts == 64);
    }
}
