// Bake, save as Detour's MSET, load it back (our writer, then our reader, no Detour in between):
// the same polygons and the same paths as the baked navmesh. The comparisons with Detour itself are
// tests/diff/test_diff_detour_write.cpp (Detour loads our bytes) and test_diff_detour_read.cpp (we
// load Detour's).
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/formats/detour_export.h"
#include "core/pipeline/pipeline.h"
#include "core/runtime/detour_format.h"
#include "core/runtime/detour_load.h"
#include "core/runtime/query.h"
#include "test_scenes.h"

namespace {

// Two floors joined by a ramp, with a box in the way: portals across tiles, detail heights.
nav::InputMesh roundtrip_scene() {
    nav::InputMesh m;
    navtest::add_floor(m, 0, 0, 20, 12, 0);
    navtest::add_floor(m, 24, 0, 40, 12, 2);
    navtest::add_box(m, 8, 0, 4, 11, 2, 7);
    // the ramp from x 20 (y 0) to x 24 (y 2)
    const int b = static_cast<int>(m.verts.size() / 3);
    m.verts.insert(m.verts.end(), {20, 0, 0, 24, 2, 0, 24, 2, 12, 20, 0, 12});
    m.tris.insert(m.tris.end(), {b, b + 2, b + 1, b, b + 3, b + 2});
    return m;
}

// Bakes, writes the MSET, reads it back into a NavMesh; then compares polygons and routes.
void check_roundtrip(nav::Pipeline& p, const std::string& what) {
    CAPTURE(what);
    REQUIRE(p.run());
    const auto bake = p.snapshot();
    REQUIRE(bake->navmesh);
    const nav::NavMesh& baked = *bake->navmesh;

    nav::DetourMeshFile file;
    REQUIRE(nav::make_detour_mesh(*bake, file));
    std::vector<uint8_t> bytes;
    nav::write_mset(file, bytes);
    std::vector<std::shared_ptr<const nav::NavTile>> tiles;
    const nav::Status st = nav::read_detour_tiles(bytes.data(), bytes.size(), what, tiles);
    REQUIRE_MESSAGE(st, st.message);
    nav::NavMesh loaded;
    REQUIRE(nav::build_navmesh(tiles, nullptr, loaded));

    // The same polygons: count, areas, flags, islands, and every vertex within float rounding
    // (Detour stores the world position bmin + v * cs that our tile holds).
    const size_t np = baked.areas.size();
    REQUIRE(loaded.areas.size() == np);
    CHECK(loaded.flags == baked.flags);
    CHECK(loaded.areas == baked.areas);
    CHECK(loaded.nislands == baked.nislands);
    REQUIRE(loaded.verts.size() == baked.verts.size());
    float worst = 0;
    for (size_t i = 0; i < baked.verts.size(); ++i) worst = std::max(worst, std::fabs(loaded.verts[i] - baked.verts[i]));
    CHECK(worst <= 1e-4f);
    CHECK(loaded.poly_first == baked.poly_first);
    CHECK(loaded.edge_nei == baked.edge_nei);  // portals and inner neighbours stitched the same
    REQUIRE(loaded.dtri_first.size() == baked.dtri_first.size());
    CHECK(loaded.dtri_first == baked.dtri_first);

    // The same paths: random pairs on the baked mesh, routed on both.
    nav::NavQuery qa, qb;
    qa.init(&baked);
    qb.init(&loaded);
    nav::Rng rng(20);
    const float ext[3] = {2, 4, 2};
    int routed = 0, reached = 0;
    for (int i = 0; i < 200; ++i) {
        nav::RandomPoint s, e;
        REQUIRE(qa.random_point(nav::QueryFilter{}, rng, s));
        REQUIRE(qa.random_point(nav::QueryFilter{}, rng, e));
        nav::Route ra, rb;
        REQUIRE(qa.find_route(s.point, e.point, ext, nav::QueryFilter{}, nav::RouteOptions{}, ra));
        REQUIRE(qb.find_route(s.point, e.point, ext, nav::QueryFilter{}, nav::RouteOptions{}, rb));
        CHECK(ra.path.reached == rb.path.reached);
        CHECK(ra.path.polys.size() == rb.path.polys.size());
        CHECK(std::fabs(ra.length_xz() - rb.length_xz()) <= 1e-4 * std::max(1.0, ra.length_xz()));
        ++routed;
        reached += ra.path.reached;
    }
    CHECK(routed == 200);
    CHECK(reached > 0);
}

}  // namespace

TEST_CASE("detour round trip: bake, save, load gives the same polygons and the same paths") {
    SUBCASE("generated scene, solo") {
        nav::Pipeline p;
        REQUIRE(p.set_mesh(roundtrip_scene()));
        check_roundtrip(p, "generated solo");
    }
    SUBCASE("generated scene, tiled") {
        nav::Pipeline p;
        REQUIRE(p.set_mesh(roundtrip_scene()));
        REQUIRE(p.set_param(nav::ParamId::tile_size, 24));
        check_roundtrip(p, "generated tile_size 24");
    }
    SUBCASE("shared meshes") {
        for (const char* name : {"dungeon.obj", "nav_test.obj", "undulating.obj"}) {
            const std::string path = navtest::shared_mesh_or_skip(name);
            if (path.empty()) continue;
            for (int ts : {0, 48}) {
                nav::Pipeline p;
                REQUIRE(p.load_mesh(path));
                REQUIRE(p.set_param(nav::ParamId::tile_size, ts));
                check_roundtrip(p, std::string(name) + " tile_size " + std::to_string(ts));
            }
        }
    }
}
