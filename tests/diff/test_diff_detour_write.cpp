// Our Detour writer against Detour 1.5.1 (test-only reference):
//  - bytes: for every tile of the shared meshes' bakes, solo and tiled, write_detour_tile's bytes
//    equal dtCreateNavMeshData's from the same DetourTileSource (memcmp; a failure names the first
//    differing byte offset and the section it lies in);
//  - loading: Detour's dtNavMesh takes our MSET (init with its parameters, addTile of each tile with
//    its stored reference, which addTile must hand back) and answers random route queries as our
//    NavQuery does on our own navmesh of the same bake: the verdicts agree on at least 99% of the
//    pairs where both found both end polygons, and the mean straight-path length ratio lies within
//    1% of 1 (the bounds of test_diff_tiles_paths.cpp, where the same two searches meet).
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/formats/detour_export.h"
#include "core/pipeline/pipeline.h"
#include "diff/detour_ref.h"
#include "diff/detour_write_ref.h"
#include "detour_tiles.h"
#include "test_scenes.h"

namespace {

// The section of a Detour tile an offset lies in, from the tile's header counts.
std::string tile_section(const std::vector<uint8_t>& d, size_t off) {
    if (d.size() < 100 || off < 100) return "header";
    int32_t h[25];
    std::memcpy(h, d.data(), 100);
    auto a4 = [](size_t n) { return (n + 3) & ~size_t(3); };
    const size_t sizes[] = {a4(12 * size_t(h[7])), a4(32 * size_t(h[6])), a4(12 * size_t(h[8])), a4(12 * size_t(h[9])),
                            a4(12 * size_t(h[10])), a4(4 * size_t(h[11])), a4(16 * size_t(h[12])), a4(36 * size_t(h[13]))};
    const char* names[] = {"vertices", "polygons", "links", "detail meshes", "detail vertices", "detail triangles",
                           "BV tree", "off-mesh connections"};
    size_t at = 100;
    for (int s = 0; s < 8; ++s) {
        if (off < at + sizes[s]) return std::string(names[s]) + " +" + std::to_string(off - at);
        at += sizes[s];
    }
    return "past the sections";
}

// Our bytes == Detour's for one source; returns the tile's size.
size_t check_source(const nav::DetourTileSource& src) {
    std::vector<uint8_t> ours, theirs;
    const nav::Status ws = nav::write_detour_tile(src, ours);
    REQUIRE_MESSAGE(ws, ws.message);
    REQUIRE(navdiff::detour_tile_bytes(src, theirs));
    INFO("tile " << src.tile_x << "," << src.tile_y << ": ours " << ours.size() << " bytes, Detour's " << theirs.size());
    size_t first = 0;
    while (first < ours.size() && first < theirs.size() && ours[first] == theirs[first]) ++first;
    if (first < ours.size() || ours.size() != theirs.size()) {
        FAIL_CHECK("first differing byte at offset " << first << " (" << tile_section(theirs, first) << "): ours "
                                                     << (first < ours.size() ? int(ours[first]) : -1) << ", Detour's "
                                                     << (first < theirs.size() ? int(theirs[first]) : -1));
    }
    return ours.size();
}

// Our bytes == Detour's for one tile of a bake; returns the tile's size.
size_t check_tile(const nav::PolyMesh& pm, const nav::PolyMeshDetail& dm, const nav::Params& params, int tx, int ty) {
    std::vector<uint16_t> flags;
    nav::DetourTileSource src;
    const nav::Status st = nav::detour_tile_source(pm, dm, params, tx, ty, flags, src);
    REQUIRE_MESSAGE(st, st.message);
    return check_source(src);
}

std::shared_ptr<const nav::Bake> bake(const std::string& path, int tile_size) {
    nav::Pipeline pipe;
    REQUIRE(pipe.load_mesh(path));
    REQUIRE(pipe.set_param(nav::ParamId::tile_size, tile_size));
    const nav::Status st = pipe.run();
    REQUIRE_MESSAGE(st, st.message);
    return pipe.snapshot();
}

void diff_detour_write(const char* file, int tile_size) {
    const std::string path = navtest::shared_mesh_or_skip(file);
    if (path.empty()) return;
    const auto b = bake(path, tile_size);
    REQUIRE(b->navmesh);

    // Bytes, tile by tile.
    size_t bytes = 0;
    int tiles = 0;
    if (!b->tiled()) {
        REQUIRE(b->polymesh);
        REQUIRE(b->detail);
        bytes += check_tile(*b->polymesh, *b->detail, b->inputs.params, 0, 0);
        tiles = 1;
    } else {
        for (const auto& t : b->tiles) {
            REQUIRE(t);
            if (t->polymesh->npolys == 0) continue;
            bytes += check_tile(*t->polymesh, *t->detail, b->inputs.params, t->tx, t->tz);
            ++tiles;
        }
    }

    // The MSET in Detour, against our queries on our navmesh.
    nav::DetourMeshFile f;
    const nav::Status st = nav::make_detour_mesh(*b, f);
    REQUIRE_MESSAGE(st, st.message);
    CHECK(static_cast<int>(f.tiles.size()) == tiles);
    std::vector<uint8_t> mset;
    nav::write_mset(f, mset);
    navdiff::DetourMesh dt;
    std::string err;
    REQUIRE_MESSAGE(navdiff::load_detour_mset(mset, dt, err), err);
    const nav::NavMesh& ours = *b->navmesh;
    int dt_polys = 0;
    for (int i = 0; i < dt.mesh->getMaxTiles(); ++i) {
        const dtMeshTile* t = static_cast<const dtNavMesh*>(dt.mesh)->getTile(i);
        if (t && t->header) dt_polys += t->header->polyCount;
    }
    CHECK(dt_polys == ours.npolys);

    nav::NavQuery q;
    q.init(&ours, navdiff::kDetourNodes * 4);
    std::vector<float> pts;
    constexpr int kPairs = 500;
    REQUIRE(navdiff::make_pairs(q, 20261128, kPairs, pts));
    navdiff::DetourRoutes dr(dt);
    int compared = 0, agree = 0, measured = 0, same_poly = 0;
    double ratio_sum = 0;
    for (int i = 0; i < kPairs; ++i) {
        const float* s = &pts[static_cast<size_t>(i) * 6];
        const float* e = s + 3;
        nav::Route r;
        const nav::Status qs = q.find_route(s, e, navdiff::kHalfExtents, nav::QueryFilter{}, {}, r);
        navdiff::RouteOutcome a, c;
        navdiff::our_outcome(qs, r, a);
        dr.route(s, e, &c);
        REQUIRE(a.ok);
        REQUIRE(c.ok);
        if (!a.start_found || !a.end_found || !c.start_found || !c.end_found) continue;
        ++compared;
        agree += a.reached == c.reached;
        same_poly += a.start_poly == c.start_poly && a.end_poly == c.end_poly;
        if (a.reached && c.reached && c.length >= 1.0f) {
            ++measured;
            ratio_sum += a.length / c.length;
        }
    }
    const double agree_share = compared ? static_cast<double>(agree) / compared : 0.0;
    const double mean_ratio = measured ? ratio_sum / measured : 1.0;
    std::printf("detour write %s ts=%d: %d tiles, %zu bytes identical to dtCreateNavMeshData; Detour on our MSET: "
                "%d pairs compared, verdicts agree %.2f%%, same end polygons %d, %d measured, mean length ours / "
                "Detour %.5f\n",
                file, tile_size, tiles, bytes, compared, 100.0 * agree_share, same_poly, measured, mean_ratio);
    CHECK(compared >= kPairs * 9 / 10);
    CHECK(agree_share >= 0.99);
    CHECK(measured > 0);
    CHECK(std::fabs(mean_ratio - 1.0) <= 0.01);
}

}  // namespace

namespace {

// Agent types (issue 35) in a Detour file: each type's flag bit on the polygons it fits; Detour
// routing with includeFlags = that bit gives our verdicts for the type on random pairs of its polygons.
void diff_agent_types(const char* file, int tile_size) {
    const std::string path = navtest::shared_mesh_or_skip(file);
    if (path.empty()) return;
    nav::InputMesh mesh;
    REQUIRE(nav::load_obj(path, mesh));
    nav::Pipeline p;
    REQUIRE(p.set_mesh(std::move(mesh)));
    nav::BakeInputs in = p.inputs();
    REQUIRE(in.params.set(nav::ParamId::tile_size, tile_size));
    in.agent_types = {{"small", 0.3f, 1.6f, 0.9f, 45}, {"medium", 0.6f, 2.0f, 0.9f, 45}, {"large", 1.2f, 3.0f, 0.9f, 45}};
    REQUIRE(p.set_inputs(in));
    REQUIRE(p.run());
    const auto b = p.snapshot();
    std::array<uint16_t, nav::kMaxAgentTypes> bits{};
    REQUIRE(nav::agent_type_flag_bits(in.agent_types, in.areas, bits));
    CHECK(bits[0] == 0x4000);
    CHECK(bits[2] == 0x1000);
    nav::DetourMeshFile f;
    const nav::Status st = nav::make_detour_mesh(*b, f);
    REQUIRE_MESSAGE(st, st.message);
    std::vector<uint8_t> mset;
    nav::write_mset(f, mset);
    navdiff::DetourMesh dt;
    std::string err;
    REQUIRE_MESSAGE(navdiff::load_detour_mset(mset, dt, err), err);
    const nav::NavMesh& ours = *b->navmesh;
    nav::NavQuery q;
    q.init(&ours, navdiff::kDetourNodes * 4);
    navdiff::DetourRoutes dr(dt);
    for (int t = 0; t < 3; ++t) {
        CAPTURE(t);
        nav::QueryFilter filter;
        filter.agent_type = t;
        dr.set_include_flags(bits[static_cast<size_t>(t)]);
        nav::Rng rng(7 + static_cast<uint64_t>(t));
        int compared = 0, agree = 0;
        for (int i = 0; i < 300; ++i) {
            nav::RandomPoint s, e;
            REQUIRE(q.random_point(filter, rng, s));
            REQUIRE(q.random_point(filter, rng, e));
            if (s.poly == nav::kNoRef || e.poly == nav::kNoRef) continue;
            nav::Route r;
            const nav::Status qs = q.find_route(s.point, e.point, navdiff::kHalfExtents, filter, {}, r);
            navdiff::RouteOutcome a, c;
            navdiff::our_outcome(qs, r, a);
            dr.route(s.point, e.point, &c);
            REQUIRE(a.ok);
            REQUIRE(c.ok);
            if (!a.start_found || !a.end_found || !c.start_found || !c.end_found) continue;
            ++compared;
            agree += a.reached == c.reached;
        }
        std::printf("detour write %s ts=%d agent type %d (flag 0x%04x): %d pairs compared, verdicts agree %d\n", file,
                    tile_size, t, bits[static_cast<size_t>(t)], compared, agree);
        CHECK(compared >= 270);
        CHECK(agree >= compared * 99 / 100);
    }
}

}  // namespace

TEST_CASE("detour write: agent types as flag bits, Detour's verdicts per type are ours") {
    diff_agent_types("dungeon.obj", 0);
    diff_agent_types("nav_test.obj", 32);
}

TEST_CASE("detour write: dungeon solo, bytes == dtCreateNavMeshData, Detour loads the MSET") {
    diff_detour_write("dungeon.obj", 0);
}
TEST_CASE("detour write: dungeon tile_size 32") { diff_detour_write("dungeon.obj", 32); }
TEST_CASE("detour write: nav_test solo") { diff_detour_write("nav_test.obj", 0); }
TEST_CASE("detour write: nav_test tile_size 32") { diff_detour_write("nav_test.obj", 32); }
TEST_CASE("detour write: undulating solo") { diff_detour_write("undulating.obj", 0); }
TEST_CASE("detour write: undulating tile_size 64") { diff_detour_write("undulating.obj", 64); }

// What the bake never makes: no detail mesh (Detour's fan), off-mesh connections (stored, dropped,
// with and without a detail mesh for the height range), no BV tree, a y range wider than x and z
// (the BV split axis), polygons without a detail mesh (BV bounds from the voxel vertices).
TEST_CASE("detour write: hand-made tiles, every variant, bytes == dtCreateNavMeshData") {
    for (int variant = 0; variant < 8; ++variant) {
        INFO("variant " << variant);
        navtest::TwoQuads q;
        navtest::TwoConnections con;
        if (variant & 1) {
            q.src.detail_meshes = nullptr;
            q.src.detail_verts = nullptr;
            q.src.detail_tris = nullptr;
        }
        if (variant & 2) con.attach(q.src);
        if (variant & 4) q.src.build_bv_tree = false;
        check_source(q.src);
    }
    // a tall tile: polygon 1 lifted 40 cells, so y is the longest axis of the root's bounds
    navtest::TwoQuads t;
    for (int v : {4, 5}) t.verts[static_cast<size_t>(v) * 3 + 1] = 43;
    t.src.detail_meshes = nullptr;
    t.src.detail_verts = nullptr;
    t.src.detail_tris = nullptr;
    check_source(t.src);
}
