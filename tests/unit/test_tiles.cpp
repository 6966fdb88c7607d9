// Tiled bakes: the tile grid and its spatial index, parameters and their errors, determinism over
// thread counts, per-tile incremental rebakes, cancel, publishing tile by tile, trimmed tiles.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>
#include <vector>

#include "core/pipeline/pipeline.h"
#include "core/pipeline/tiling.h"
#include "test_scenes.h"
#include "tile_scene.h"

using namespace nav;
using navtest::tile_scene;

namespace {

Pipeline& setup(Pipeline& p, int tile_size, int threads = 0) {
    REQUIRE(p.set_mesh(tile_scene()));
    REQUIRE(p.set_param(ParamId::tile_size, tile_size));
    REQUIRE(p.set_param(ParamId::threads, threads));
    return p;
}

}  // namespace

TEST_CASE("tiles: layout follows Recast's tile grid and border rule") {
    Params p;
    REQUIRE(p.set(ParamId::tile_size, 32));
    const float bmin[3] = {0, 0, 0}, bmax[3] = {40, 3, 30};
    const BakeConfig c = derive_config(p, bmin, bmax);
    REQUIRE(c.width == 133);
    REQUIRE(c.height == 100);
    TileLayout L;
    REQUIRE(make_tile_layout(c, L));
    CHECK(L.border == 2 + 3);  // ceil(0.6 / 0.3) + 3
    CHECK(L.cols == 5);        // ceil(133 / 32)
    CHECK(L.rows == 4);        // ceil(100 / 32)
    const BakeConfig t = tile_config(c, L, 1, 2);
    CHECK(t.width == 32 + 10);
    CHECK(t.height == 32 + 10);
    CHECK(t.border_size == 5);
    CHECK(t.bmin[0] == doctest::Approx(32 * 0.3 - 5 * 0.3));
    CHECK(t.bmin[2] == doctest::Approx(64 * 0.3 - 5 * 0.3));
    CHECK(t.bmax[0] == doctest::Approx(64 * 0.3 + 5 * 0.3));
    CHECK(t.bmin[1] == c.bmin[1]);
    CHECK(t.bmax[1] == c.bmax[1]);
}

TEST_CASE("tiles: the spatial index lists exactly the triangles overlapping each bordered tile") {
    InputMesh m = tile_scene();
    m.compute_bounds();
    Params p;
    REQUIRE(p.set(ParamId::tile_size, 24));
    const BakeConfig c = derive_config(p, m.bmin, m.bmax);
    TileLayout L;
    REQUIRE(make_tile_layout(c, L));
    TriangleBins bins;
    bins.build(m, c, L);
    for (int tz = 0; tz < L.rows; ++tz)
        for (int tx = 0; tx < L.cols; ++tx) {
            const BakeConfig t = tile_config(c, L, tx, tz);
            std::vector<int> want;
            for (int i = 0; i < m.tri_count(); ++i) {
                float x0 = 1e30f, x1 = -1e30f, z0 = 1e30f, z1 = -1e30f;
                for (int k = 0; k < 3; ++k) {
                    const float* v = &m.verts[static_cast<size_t>(m.tris[static_cast<size_t>(i * 3 + k)]) * 3];
                    x0 = std::min(x0, v[0]), x1 = std::max(x1, v[0]);
                    z0 = std::min(z0, v[2]), z1 = std::max(z1, v[2]);
                }
                if (x1 < t.bmin[0] || x0 > t.bmax[0] || z1 < t.bmin[2] || z0 > t.bmax[2]) continue;
                want.push_back(i);
            }
            const auto got = bins.tile(tx, tz);
            CHECK(std::vector<int>(got.begin(), got.end()) == want);
        }
}

TEST_CASE("tiles: bad tile_size and threads give clear errors") {
    Params p;
    Status st = p.set(ParamId::threads, -1);
    CHECK(st.code == Status::Code::BadInput);
    CHECK(st.message.find("threads") != std::string::npos);
    st = p.set_from_string("tile_size", "-8");
    CHECK(st.code == Status::Code::BadInput);
    CHECK(st.message.find("tile_size") != std::string::npos);

    Pipeline small;
    setup(small, 4);  // border is 5 cells
    st = small.run();
    CHECK(st.code == Status::Code::BadInput);
    CHECK(st.message.find("tile_size") != std::string::npos);
    CHECK(st.message.find("border of 5 cells") != std::string::npos);
    CHECK(small.snapshot()->error_stage == static_cast<int>(Stage::Rasterize));

    Pipeline big;
    setup(big, 500);  // the grid is 133 x 100: one tile over the grid, as Recast does (issue 23)
    st = big.run();
    CHECK(st);
    CHECK(big.snapshot()->layout.count() == 1);
    CHECK(big.snapshot()->layout.tile_size == 133);
}

TEST_CASE("tiles: tile_size 0 is the solo bake, with the per-grid snapshot fields") {
    Pipeline p;
    setup(p, 0);
    REQUIRE(p.run());
    const auto b = p.snapshot();
    CHECK_FALSE(b->tiled());
    CHECK(b->tiles.empty());
    CHECK(b->polymesh);
    CHECK(b->navmesh);
    CHECK(b->built_through == kStageCount - 1);
}

TEST_CASE("tiles: the tiled navmesh is stitched into the same islands as the solo one") {
    Pipeline tiled, solo;
    setup(tiled, 32);
    setup(solo, 0);
    REQUIRE(tiled.run());
    REQUIRE(solo.run());
    const auto bt = tiled.snapshot(), bs = solo.snapshot();
    REQUIRE(bt->navmesh);
    REQUIRE(bs->navmesh);
    CHECK(bt->navmesh->nislands == bs->navmesh->nislands);
    CHECK(bt->walkable_area() == doctest::Approx(bs->walkable_area()).epsilon(0.02));
}

TEST_CASE("tiles: a tiled bake fills every tile and sums their counts") {
    Pipeline p;
    setup(p, 32);
    REQUIRE(p.run());
    const auto b = p.snapshot();
    REQUIRE(b->tiled());
    REQUIRE(b->tiles.size() == 20);
    CHECK(b->tiles_done == 20);
    CHECK(b->tiles_rebaked.size() == 20);
    CHECK(b->built_through == static_cast<int>(Stage::Navmesh));
    CHECK_FALSE(b->polymesh);  // per-grid fields belong to the solo bake
    REQUIRE(b->navmesh);       // but the navmesh is assembled from the tiles
    int64_t polys = 0, spans = 0;
    for (size_t i = 0; i < b->tiles.size(); ++i) {
        const auto& t = b->tiles[i];
        REQUIRE(t);
        CHECK(t->tx + t->tz * 5 == static_cast<int>(i));
        CHECK(t->solid);
        CHECK(t->regions);
        CHECK(t->config.border_size == 5);
        polys += t->polymesh->npolys;
        spans += t->solid->span_count;
        // every polygon vertex inside the tile's own box (the border is dropped)
        for (int v = 0; v < t->polymesh->nverts; ++v) {
            CHECK(t->polymesh->verts[static_cast<size_t>(v) * 3] <= 32);
            CHECK(t->polymesh->verts[static_cast<size_t>(v) * 3 + 2] <= 32);
        }
    }
    CHECK(polys == b->count("polys"));
    CHECK(b->navmesh->npolys == polys);
    CHECK(b->count("navmesh_polys") == polys);
    int with_polys = 0;
    for (const auto& t : b->tiles) {
        REQUIRE(t->tile);
        CHECK(t->tile->npolys() == t->polymesh->npolys);
        CHECK(t->tile->x == t->tx);
        CHECK(t->tile->z == t->tz);
        with_polys += t->tile->npolys() > 0;
    }
    CHECK(b->navmesh->ntiles == with_polys);
    CHECK(spans == b->count("solid_spans"));
    CHECK(polys > 20);
    // the floor crosses every tile edge: some polygon edges are tile portals
    int portals = 0;
    for (const auto& t : b->tiles)
        for (int i = 0; i < t->polymesh->npolys; ++i) {
            const uint16_t* pp = t->polymesh->poly(i);
            for (int j = 0; j < t->polymesh->nvp; ++j)
                portals += pp[j] != kMeshNullIdx && (pp[t->polymesh->nvp + j] & 0x8000) && pp[t->polymesh->nvp + j] != kMeshNullIdx;
        }
    CHECK(portals > 0);
    // the walkable area of the tiles about matches the solo bake's
    Pipeline solo;
    setup(solo, 0);
    REQUIRE(solo.run());
    CHECK(b->walkable_area() == doctest::Approx(solo.snapshot()->walkable_area()).epsilon(0.05));
}

TEST_CASE("tiles: all three partitions bake tiled") {
    for (const char* part : {"watershed", "monotone", "layers"}) {
        CAPTURE(part);
        Pipeline p;
        setup(p, 32);
        REQUIRE(p.set_param("partition", part));
        REQUIRE(p.run());
        CHECK(p.snapshot()->count("polys") > 20);
    }
}

TEST_CASE("tiles: threads 1, 2 and 8 give byte-identical polygon and detail meshes") {
    std::vector<uint8_t> ref;
    for (int threads : {1, 2, 8}) {
        for (float fx : {0.0f, 40.0f}) {  // another focus, another completion order
            CAPTURE(threads);
            Pipeline p;
            setup(p, 24, threads);
            p.set_focus(fx, 30.0f - fx * 0.5f);
            REQUIRE(p.run());
            const std::vector<uint8_t> bytes = navtest::tile_mesh_bytes(*p.snapshot());
            if (ref.empty()) ref = bytes;
            else CHECK(bytes == ref);
        }
    }
    // and the shared mesh, if present
    const std::string path = navtest::shared_mesh("nav_test.obj");
    if (path.empty()) {
        navtest::note_skip("../shared/meshes not found (the generated scenes ran, the shared mesh not)");
        return;
    }
    std::vector<uint8_t> shared_ref;
    for (int threads : {1, 2, 8}) {
        Pipeline p;
        REQUIRE(p.load_mesh(path));
        REQUIRE(p.set_param(ParamId::tile_size, 48));
        REQUIRE(p.set_param(ParamId::threads, threads));
        REQUIRE(p.run());
        const std::vector<uint8_t> bytes = navtest::tile_mesh_bytes(*p.snapshot());
        if (shared_ref.empty()) shared_ref = bytes;
        else CHECK(bytes == shared_ref);
    }
}

TEST_CASE("tiles: a parameter change re-bakes every tile from the first stage that reads it") {
    Pipeline p;
    setup(p, 32);
    REQUIRE(p.run());
    const auto before = p.snapshot();
    REQUIRE(p.set_param(ParamId::verts_per_poly, 4));
    CHECK(p.first_dirty() == Stage::Polymesh);
    REQUIRE(p.run());
    const auto b = p.snapshot();
    CHECK(b->stages_run == std::vector<Stage>{Stage::Polymesh, Stage::Detail, Stage::Navmesh});
    CHECK(b->tiles_rebaked.size() == 20);
    for (size_t i = 0; i < b->tiles.size(); ++i) {
        CHECK(b->tiles[i] != before->tiles[i]);
        CHECK(b->tiles[i]->compact == before->tiles[i]->compact);  // earlier results kept
    }
    // threads changes nothing: nothing to re-bake
    REQUIRE(p.set_param(ParamId::threads, 1));
    CHECK(p.first_dirty() == Stage::Count);
}

TEST_CASE("tiles: a convex-volume edit re-bakes only the tiles under it") {
    Pipeline p;
    setup(p, 32);
    REQUIRE(p.run());
    const auto before = p.snapshot();
    // A water volume over x in [10, 11], z in [2, 3]. Tile columns are 9.6 m wide with a 1.5 m
    // border: bordered boxes cover x in [-1.5, 11.1] (col 0) and [8.1, 20.7] (col 1), z in
    // [-1.5, 11.1] (row 0) only. So tiles (0,0) and (1,0): indices 0 and 1.
    ConvexVolume v;
    v.verts = {10, 0, 2, 11, 0, 2, 11, 0, 3, 10, 0, 3};
    v.hmin = -1;
    v.hmax = 1;
    REQUIRE(p.set_input(&nav::BakeInputs::volumes, {v}));
    CHECK(p.first_dirty() == Stage::Areas);
    REQUIRE(p.run());
    const auto b = p.snapshot();
    CHECK(b->tiles_rebaked == std::vector<int>{0, 1});
    CHECK(b->stages_run.front() == Stage::Areas);
    for (size_t i = 0; i < b->tiles.size(); ++i) {
        if (i <= 1) CHECK(b->tiles[i] != before->tiles[i]);
        else CHECK(b->tiles[i] == before->tiles[i]);  // the same tile: references to it stay valid
    }
    CHECK(b->tiles[1]->count("volume_spans") > 0);
    // References into the re-baked tiles are stale in the new navmesh, the others still valid.
    REQUIRE(before->navmesh);
    REQUIRE(b->navmesh);
    const NavMesh& old_nm = *before->navmesh;
    int stale = 0, valid = 0;
    for (uint32_t p = 0; p < static_cast<uint32_t>(old_nm.npolys); ++p) {
        const NavTile* owner = old_nm.slots[old_nm.poly_slot[p]].tile.get();
        const bool rebaked = owner == before->tiles[0]->tile.get() || owner == before->tiles[1]->tile.get();
        const uint32_t now = b->navmesh->poly_index(old_nm.ref(p));
        if (rebaked) {
            CHECK(now == kNoPoly);
            ++stale;
        } else {
            CHECK(now != kNoPoly);
            ++valid;
        }
    }
    CHECK(stale > 0);
    CHECK(valid > 0);
    // Removing it re-bakes the same two.
    REQUIRE(p.set_input(&nav::BakeInputs::volumes, {}));
    REQUIRE(p.run());
    CHECK(p.snapshot()->tiles_rebaked == std::vector<int>{0, 1});
    CHECK(navtest::tile_mesh_bytes(*p.snapshot()) == navtest::tile_mesh_bytes(*before));
}

TEST_CASE("tiles: mark_tile_dirty re-bakes that one tile (the debugger's Rebuild tile)") {
    std::vector<std::shared_ptr<const Bake>> partial;
    PipelineDef def = default_pipeline_def();
    def.on_tile = [&](std::shared_ptr<const Bake> b) { partial.push_back(std::move(b)); };
    Pipeline p(def);
    setup(p, 32);
    REQUIRE(p.run());
    const auto before = p.snapshot();
    REQUIRE(before->layout.cols > 2);
    CHECK_FALSE(p.mark_tile_dirty(before->layout.cols, 0));  // outside the grid
    CHECK(p.first_dirty() == Stage::Count);
    REQUIRE(p.mark_tile_dirty(2, 1));
    CHECK(p.first_dirty() == Stage::Rasterize);
    partial.clear();  // the first bake's
    REQUIRE(p.run());
    const auto b = p.snapshot();
    const int idx = 2 + 1 * b->layout.cols;
    CHECK(b->tiles_rebaked == std::vector<int>{idx});
    for (size_t i = 0; i < b->tiles.size(); ++i) {
        if (static_cast<int>(i) == idx) CHECK(b->tiles[i] != before->tiles[i]);
        else CHECK(b->tiles[i] == before->tiles[i]);
    }
    CHECK(navtest::tile_mesh_bytes(*b) == navtest::tile_mesh_bytes(*before));  // the same result, baked again
    // the partial snapshot keeps the input drawn and its stats while the tile bakes
    REQUIRE(partial.size() == 1);
    CHECK(partial[0]->partial);
    CHECK(partial[0]->tri_areas == before->tri_areas);
    CHECK(partial[0]->built_through == static_cast<int>(Stage::Input));
    CHECK(partial[0]->count("walkable_tris") == before->count("walkable_tris"));
    CHECK(partial[0]->count("walkable_tris") > 0);
}

TEST_CASE("tiles: cancel stops every tile; the next run bakes only what is left") {
    Pipeline p;
    setup(p, 24, 2);
    CancelFlag cancel{true};
    const Status st = p.run(kLastStage, &cancel);
    CHECK(st.code == Status::Code::Cancelled);
    CHECK(p.snapshot()->tiles_done == 0);
    // cancel from inside, after the third tile
    std::atomic<int> seen{0};
    PipelineDef def = default_pipeline_def();
    def.on_tile = [&](std::shared_ptr<const Bake>) {
        if (++seen == 3) cancel.store(true);
    };
    Pipeline q(def);
    setup(q, 24, 1);
    cancel.store(false);
    CHECK(q.run(kLastStage, &cancel).code == Status::Code::Cancelled);
    const int done = q.snapshot()->tiles_done;
    CHECK(done == 3);
    cancel.store(false);
    REQUIRE(q.run(kLastStage, &cancel));
    const auto b = q.snapshot();
    CHECK(b->tiles_done == static_cast<int>(b->tiles.size()));
    CHECK(static_cast<int>(b->tiles_rebaked.size()) == static_cast<int>(b->tiles.size()) - done);
}

TEST_CASE("tiles: tiles publish as they finish, nearest the focus first") {
    std::vector<int> counts, first_tile;
    PipelineDef def = default_pipeline_def();
    def.on_tile = [&](std::shared_ptr<const Bake> b) {
        CHECK(b->partial);
        counts.push_back(b->tiles_done);
        if (first_tile.empty())
            for (size_t i = 0; i < b->tiles.size(); ++i)
                if (b->tiles[i]) first_tile.push_back(static_cast<int>(i));
    };
    Pipeline p(def);
    setup(p, 32, 1);
    p.set_focus(40, 30);  // the far corner: tile (4, 3) first
    REQUIRE(p.run());
    REQUIRE(counts.size() == 20);
    for (size_t i = 0; i < counts.size(); ++i) CHECK(counts[i] == static_cast<int>(i) + 1);
    CHECK(first_tile == std::vector<int>{4 + 3 * 5});
}

TEST_CASE("tiles: without intermediates a tile keeps only its output, and a later change starts over") {
    PipelineDef def = default_pipeline_def();
    def.keep_intermediates = false;
    Pipeline p(def);
    setup(p, 32);
    REQUIRE(p.run());
    const auto b = p.snapshot();
    const std::vector<uint8_t> trimmed_bytes = navtest::tile_mesh_bytes(*b);
    for (const auto& t : b->tiles) {
        CHECK_FALSE(t->solid);
        CHECK_FALSE(t->compact);
        CHECK_FALSE(t->regions);
        CHECK(t->polymesh);
        CHECK(t->detail);
    }
    Pipeline full;
    setup(full, 32);
    REQUIRE(full.run());
    CHECK(navtest::tile_mesh_bytes(*full.snapshot()) == trimmed_bytes);
    REQUIRE(p.set_param(ParamId::region_min_size, 4));
    REQUIRE(p.run());
    CHECK(p.snapshot()->stages_run.front() == Stage::Rasterize);
}

TEST_CASE("tiles: the memory limit of a tiled bake counts the tiles baking at once, not the whole grid") {
    // A wide floor: the solo grid is large, each tile small. A limit between the tiled bake's need
    // (2 tiles at once, no intermediates) and the solo grid's refuses the solo bake and admits the
    // tiled one; keeping every tile's intermediates needs about the whole grid again.
    InputMesh m;
    navtest::add_floor(m, 0, 0, 300, 300, 0);
    navtest::add_box(m, 100, 0, 100, 120, 3, 140);
    m.compute_bounds();
    const BakeConfig c = derive_config(Params{}, m.bmin, m.bmax);
    const uint64_t solo = estimate_bake_memory(m, c);

    Params tp;
    REQUIRE(tp.set(ParamId::tile_size, 64));
    const BakeConfig tc = derive_config(tp, m.bmin, m.bmax);
    TileLayout L;
    REQUIRE(make_tile_layout(tc, L));
    TriangleBins bins;
    bins.build(m, tc, L);
    uint64_t largest = 0;
    const uint64_t two = estimate_tiled_memory(m, tc, L, bins, 2, false, &largest);
    const uint64_t all = estimate_tiled_memory(m, tc, L, bins, 2, true, nullptr);
    INFO("solo ", solo, " tiled (2 at once) ", two, " largest tile ", largest, " all tiles kept ", all);
    CHECK(largest > 0);
    CHECK(two < solo / 4);
    CHECK(all > two);
    CHECK(all > solo / 2);  // the tiles' bordered grids overlap: together about the whole grid or more

    const uint64_t limit = (two + solo / 4) / 2;
    PipelineDef def = default_pipeline_def();
    def.memory_limit = limit;
    Pipeline p(def);
    REQUIRE(p.set_mesh(m));
    const Status solo_st = p.run();
    CHECK(solo_st.code == Status::Code::BadInput);
    CHECK(solo_st.message.find("memory limit") != std::string::npos);

    PipelineDef lean = def;
    lean.keep_intermediates = false;
    Pipeline tiled(lean);
    REQUIRE(tiled.set_mesh(m));
    REQUIRE(tiled.set_param(ParamId::tile_size, 64));
    REQUIRE(tiled.set_param(ParamId::threads, 2));
    CHECK(tiled.run());
    CHECK(tiled.snapshot()->tiles_done > 0);

    Pipeline keep(def);
    REQUIRE(keep.set_mesh(m));
    REQUIRE(keep.set_param(ParamId::tile_size, 64));
    REQUIRE(keep.set_param(ParamId::threads, 2));
    const Status keep_st = keep.run();
    CHECK(keep_st.code == Status::Code::BadInput);
    CHECK(keep_st.message.find("intermediates") != std::string::npos);
}

TEST_CASE("tiles: a change to the input stage re-runs it once for the mesh, never per tile") {
    // The input stage (walkable triangles by slope) reads the whole mesh: run per tile it would
    // repeat the whole mesh's work once for every tile (1225 times on the large level).
    Pipeline p;
    setup(p, 32);
    REQUIRE(p.run());
    for (int k = 0; k < 2; ++k) {
        if (k == 0) p.mark_dirty(Stage::Input);
        else REQUIRE(p.set_param(ParamId::agent_max_slope, 40));
        REQUIRE(p.run());
        const auto b = p.snapshot();
        CHECK(std::count(b->stages_run.begin(), b->stages_run.end(), Stage::Input) == 1);
        CHECK(b->tiles_rebaked.size() == b->tiles.size());
        for (const auto& t : b->tiles) {
            REQUIRE(t);
            CHECK(t->stats[static_cast<size_t>(Stage::Input)].counts.empty());
        }
    }
}
