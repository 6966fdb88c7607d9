// Hostile input to the tiled bake (issue 19, items 1, 2, 7, 8 and 16): an incremental change on
// trimmed tiles for every parameter, grids and tile counts beyond every bound (and mesh_scale
// carrying coordinates past the limit), the tiles' warnings without intermediates, the tile count
// and the tiled memory estimate checked before any per-tile state, and the solo and tiled bakes
// covering the same cells when the mesh extent is not a whole number of cells.
#include <doctest/doctest.h>

#include <climits>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/pipeline/pipeline.h"
#include "core/pipeline/tiling.h"
#include "test_files.h"
#include "test_scenes.h"
#include "tile_scene.h"

using navtest::run_cmd;
using navtest::TempFile;
using namespace nav;
using navtest::tile_scene;

namespace {

bool has(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }
std::string navbake() { return std::string("'") + NAVBAKE_EXE + "'"; }

std::string read_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// The flat square [x0, x1] x [x0, x1] at y = 0, as OBJ text.
std::string plane_obj(double x0, double x1) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "v %.1f 0 %.1f\nv %.1f 0 %.1f\nv %.1f 0 %.1f\nv %.1f 0 %.1f\nf 1 3 2\nf 1 4 3\n", x0,
                  x0, x1, x0, x1, x1, x0, x1);
    return buf;
}

}  // namespace

// ---- item 2: grids and tile counts beyond every bound; mesh_scale past the coordinate limit --------

TEST_CASE("hostile tiles: mesh_scale that carries a vertex past +-1e6 m is refused naming mesh_scale") {
    TempFile obj(".obj", plane_obj(-1e6, 1e6));
    const std::string before = read_file(obj.path());
    const auto r = run_cmd(navbake() + " '" + obj.path() +
                           "' --set mesh_scale=1000 --set cell_size=0.02 --set tile_size=64");
    CHECK(r.code == 2);
    CHECK(has(r.out, "mesh_scale = 1000"));
    CHECK(has(r.out, "beyond +-1e+06 m"));
    CHECK(has(r.out, "at most 1 "));
    CHECK_FALSE(has(r.out, "-33554431"));
    CHECK(read_file(obj.path()) == before);
    // a scale that keeps the mesh within the limit bakes (10 m -> 10 km)
    TempFile small(".obj", plane_obj(0, 10));
    const auto ok = run_cmd(navbake() + " '" + small.path() + "' --set mesh_scale=100 --set cell_size=5");
    CHECK(ok.code == 0);
    // the same check through the pipeline (the debugger's path)
    Pipeline p;
    InputMesh m;
    navtest::add_floor(m, -1e6f, -1e6f, 1e6f, 1e6f, 0);
    REQUIRE(p.set_mesh(m));
    REQUIRE(p.set_param(ParamId::mesh_scale, 2.0));
    const Status st = p.run();
    CHECK(st.code == Status::Code::BadInput);
    CHECK(has(st.message, "mesh_scale"));
}

TEST_CASE("hostile tiles: a tiled grid with more tiles than a navmesh holds is refused, never an empty success") {
    TempFile obj(".obj", plane_obj(-1e6, 1e6));
    const std::string before = read_file(obj.path());
    for (const char* cs : {"0.02", "0.3", "5"}) {
        CAPTURE(cs);
        const auto r = run_cmd(navbake() + " '" + obj.path() + "' --set cell_size=" + cs + " --set tile_size=64");
        CHECK(r.code == 2);
        CHECK(has(r.out, "tile_size"));
        CHECK(has(r.out, "tiles"));
        CHECK_FALSE(has(r.out, "tiles -"));  // no negative (overflowed) count
        CHECK_FALSE(has(r.out, "x -"));
    }
    CHECK(read_file(obj.path()) == before);

    // The layout itself in 64-bit arithmetic: a saturated grid side gives no negative count.
    BakeConfig c;
    c.cs = 0.02f;
    c.width = c.height = INT_MAX;
    c.tile_size = 64;
    c.walkable_radius = 2;
    TileLayout L;
    const Status st = make_tile_layout(c, L);
    CHECK(st.code == Status::Code::BadInput);
    CHECK(has(st.message, "33554432 x 33554432"));
    CHECK(L.count() == 1);  // untouched: the solo layout
    // at the limit: 2048 x 2048 tiles is what a navmesh holds, one more column is not
    c.width = c.height = 2048 * 64;
    CHECK(make_tile_layout(c, L));
    CHECK(L.count() == kMaxTiles);
    c.width += 1;
    CHECK_FALSE(make_tile_layout(c, L));
}

// ---- item 8: tile count and the tiled memory estimate before any per-tile state ---------------------

TEST_CASE("hostile tiles: 27 889 tiles under --max-memory 40 are refused before any tile is allocated") {
    // 1 km square at 0.3 m cells, tile_size 20: 167 x 167 tiles (the 180 MiB peak at 40 MiB)
    TempFile obj(".obj", plane_obj(0, 1000));
    const std::string before = read_file(obj.path());
    const auto r = run_cmd(navbake() + " '" + obj.path() + "' --set tile_size=20 --max-memory 40");
    CHECK(r.code == 2);
    CHECK(has(r.out, "167 x 167 = 27889 tiles"));
    CHECK(has(r.out, "memory limit of 40 MiB"));
    CHECK_FALSE(has(r.out, "bake in tiles"));
    CHECK(read_file(obj.path()) == before);

    // past the up-front check (about 184 MiB of tiles' state), the full estimate (206 MiB with the
    // process, the outputs and the assembly; the bake peaks at 191) refuses 190 MiB, and says what
    // helps: fewer tiles, not smaller ones
    const auto r300 = run_cmd(navbake() + " '" + obj.path() + "' --set tile_size=20 --max-memory 190");
    CHECK(r300.code == 2);
    CHECK(has(r300.out, "memory limit of 190 MiB"));
    CHECK(has(r300.out, "raise tile_size (now 20 cells) for fewer tiles"));
    CHECK_FALSE(has(r300.out, "lower tile_size"));
    CHECK(read_file(obj.path()) == before);

    // through the pipeline: refused with no per-tile state left behind
    PipelineDef def = default_pipeline_def();
    def.memory_limit = uint64_t(40) << 20;
    Pipeline p(def);
    InputMesh m;
    navtest::add_floor(m, 0, 0, 1000, 1000, 0);
    REQUIRE(p.set_mesh(m));
    REQUIRE(p.set_param(ParamId::tile_size, 20));
    const Status st = p.run();
    CHECK(st.code == Status::Code::BadInput);
    CHECK(p.snapshot()->tiles.empty());
    CHECK(p.snapshot()->layout.count() == 1);
}

TEST_CASE("hostile tiles: hundreds of thousands of tiles are refused up front at the default limit") {
    // 2 km square, tile_size 8: 834 x 834 = 695 556 tiles, each tile's state alone over 4 GiB
    TempFile obj(".obj", plane_obj(0, 2000));
    const auto r = run_cmd(navbake() + " '" + obj.path() + "' --set tile_size=8");
    CHECK(r.code == 2);
    CHECK(has(r.out, "834 x 834 = 695556 tiles"));
    CHECK(has(r.out, "tile_size"));
}

TEST_CASE("hostile tiles: memory.estimate of a tiled bake is the tiled estimate, and it holds the tiles' state") {
    TempFile obj(".obj", plane_obj(0, 300));
    const auto r = run_cmd(navbake() + " '" + obj.path() + "' --set tile_size=32 --set threads=2 --json", false);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    InputMesh m;
    REQUIRE(load_obj(obj.path(), m));
    m.compute_bounds();
    Params tp;
    REQUIRE(tp.set(ParamId::tile_size, 32));
    const BakeConfig c = derive_config(tp, m.bmin, m.bmax);
    TileLayout L;
    REQUIRE(make_tile_layout(c, L));
    TriangleBins bins;
    bins.build(m, c, L);
    const uint64_t tiled = estimate_tiled_memory(m, c, L, bins, 2, false, nullptr);
    CHECK(j["memory"]["estimate"].get<uint64_t>() == tiled);
    CHECK(tiled != estimate_bake_memory(m, c));
    CHECK(tiled >= estimate_tile_overhead(m, L));
    CHECK(estimate_tile_overhead(m, L) > uint64_t(L.count()) * 4096);  // every tile's state counts
}

TEST_CASE("hostile tiles: the out-of-memory advice of a tiled bake does not tell it to bake in tiles") {
    const Status solo = out_of_memory("rasterize");
    const Status tiled = out_of_memory("tile 3,4: rasterize", true);
    CHECK(solo.code == Status::Code::BadInput);
    CHECK(tiled.code == Status::Code::BadInput);
    CHECK(has(solo.message, "bake in tiles"));
    CHECK_FALSE(has(tiled.message, "bake in tiles"));
    CHECK(has(tiled.message, "tile 3,4: rasterize: out of memory"));
    CHECK(has(tiled.message, "threads"));
}

// ---- item 1: tiled --incremental on trimmed tiles ------------------------------------------------

namespace {

std::string demo_obj() { return std::string(NAV_SOURCE_DIR) + "/assets/demo.obj"; }

// A value of parameter d other than `now`, in its range: the next enum / flag, one more (or less)
// for an integer, half as much again (or half) for a real.
double other_value(const ParamDef& d, double now) {
    switch (d.kind) {
        case ParamKind::Bool: return now != 0.0 ? 0.0 : 1.0;
        case ParamKind::Enum:
        case ParamKind::Int: return now + 1 <= d.max ? now + 1 : now - 1;
        case ParamKind::Float: break;
    }
    if (now == 0.0) return std::min(d.max, 1.0);
    return now * 1.5 <= d.max ? now * 1.5 : now * 0.5;
}

// Bakes tile_scene tiled at `base`, without intermediates (as navbake does), sets `name` = `value`
// and bakes again; the result must be the fresh bake's at the new values, failure for failure.
void check_incremental(const Params& base, const std::string& name, double value) {
    CAPTURE(name);
    CAPTURE(value);
    PipelineDef lean = default_pipeline_def();
    lean.keep_intermediates = false;
    Pipeline inc(lean);
    REQUIRE(inc.set_mesh(tile_scene()));
    REQUIRE(inc.set_input(&nav::BakeInputs::params, base));
    REQUIRE(inc.run());
    Params next = base;
    const ParamDef* d = find_param(name);
    REQUIRE(d);
    REQUIRE(next.set(d->id, value));
    REQUIRE(inc.set_input(&nav::BakeInputs::params, next));
    const Status st_inc = inc.run();

    Pipeline fresh(lean);
    REQUIRE(fresh.set_mesh(tile_scene()));
    REQUIRE(fresh.set_input(&nav::BakeInputs::params, next));
    const Status st_fresh = fresh.run();
    CHECK(st_inc.code == st_fresh.code);
    CHECK(st_inc.message == st_fresh.message);
    if (!st_inc || !st_fresh) return;
    const auto bi = inc.snapshot(), bf = fresh.snapshot();
    CHECK(bi->tiles.size() == bf->tiles.size());
    CHECK(navtest::tile_mesh_bytes(*bi) == navtest::tile_mesh_bytes(*bf));
    REQUIRE(bi->navmesh);
    REQUIRE(bf->navmesh);
    CHECK(bi->navmesh->npolys == bf->navmesh->npolys);
    CHECK(bi->warnings() == bf->warnings());
}

}  // namespace

TEST_CASE("hostile tiles: an incremental change of every parameter on trimmed tiles equals a fresh tiled bake") {
    Params base;
    REQUIRE(base.set(ParamId::tile_size, 32));
    REQUIRE(base.set(ParamId::threads, 2));
    int tried = 0;
    for (const ParamDef& d : param_table()) {
        check_incremental(base, std::string(d.name), other_value(d, base.get(d.id)));
        ++tried;
    }
    CHECK(tried == static_cast<int>(param_table().size()));
    // the values: the late stages (polymesh, detail) on tiles whose contours were dropped
    check_incremental(base, "verts_per_poly", 3);
    check_incremental(base, "detail_sample_dist", 0);
    check_incremental(base, "detail_sample_max_error", 5);
    check_incremental(base, "edge_max_error", 0.5);
}

TEST_CASE("hostile tiles: navbake --incremental of a late-stage parameter on a tiled bake (issue 19 item 1)") {
    const std::string before = read_file(demo_obj());
    struct Case {
        const char* inc;
        const char* set;
    };
    for (const char* tile : {"", " --tile 3,3"})
        for (Case c : {Case{"verts_per_poly=3", "verts_per_poly=3"}, Case{"detail_sample_dist=0", "detail_sample_dist=0"},
                       Case{"detail_sample_max_error=5", "detail_sample_max_error=5"}}) {
            CAPTURE(tile);
            CAPTURE(c.inc);
            const auto r = run_cmd(navbake() + " '" + demo_obj() + "' --set tile_size=16" + tile +
                                       " --json --incremental " + c.inc,
                                   false);
            REQUIRE(r.code == 0);
            const auto j = nlohmann::json::parse(r.out);
            const auto f = run_cmd(navbake() + " '" + demo_obj() + "' --set tile_size=16" + tile + " --json --set " + c.set,
                                   false);
            REQUIRE(f.code == 0);
            const auto jf = nlohmann::json::parse(f.out);
            CHECK(j["incremental"]["counts"] == jf["counts"]);
        }
    CHECK(read_file(demo_obj()) == before);
}

// ---- item 7: warnings of trimmed tiles -------------------------------------------------------------

TEST_CASE("hostile tiles: a tile's warnings survive the trim of its intermediates") {
    // undulating at mesh_scale 8 drops a contour in one tile (issue 19): the same warnings with and
    // without --keep-intermediates
    const std::string path = navtest::shared_mesh_or_skip("undulating.obj");
    if (path.empty()) return;
    const std::string before = read_file(path);
    const std::string args = " --set mesh_scale=8 --set tile_size=64 --tile 39,20";
    // the warnings (stderr) only
    const auto a = run_cmd("(" + navbake() + " '" + path + "'" + args + " 2>&1 >/dev/null)");
    const auto b = run_cmd("(" + navbake() + " '" + path + "'" + args + " --keep-intermediates 2>&1 >/dev/null)");
    REQUIRE(a.code == 0);
    REQUIRE(b.code == 0);
    CHECK(has(b.out, "tile 39,20: contours: region"));
    CHECK(a.out == b.out);
    CHECK(read_file(path) == before);
}

TEST_CASE("hostile tiles: warnings are taken when a tile finishes, and the snapshot keeps them") {
    // Each tile's recorded warnings are what its kept results give (intermediates kept), and the
    // bake's warnings are the tiles' recorded ones, in tile order, with or without intermediates.
    for (bool keep : {true, false}) {
        CAPTURE(keep);
        PipelineDef def = default_pipeline_def();
        def.keep_intermediates = keep;
        Pipeline p(def);
        REQUIRE(p.set_mesh(tile_scene()));
        REQUIRE(p.set_param(ParamId::tile_size, 32));
        REQUIRE(p.set_param(ParamId::verts_per_poly, 3));
        REQUIRE(p.run());
        const auto b = p.snapshot();
        std::vector<std::string> expect;
        for (const auto& t : b->tiles) {
            REQUIRE(t);
            if (keep) {  // recomputed from the kept results: the same list the tile recorded
                Bake v = tile_view(*b, *t);
                std::vector<std::string> w = v.warnings();
                for (std::string& s : w) s = "tile " + std::to_string(t->tx) + "," + std::to_string(t->tz) + ": " + s;
                CHECK(w == t->warnings);
            } else {
                CHECK_FALSE(t->contours);
            }
            expect.insert(expect.end(), t->warnings.begin(), t->warnings.end());
        }
        CHECK(b->warnings() == expect);
    }
}

// ---- item 16: solo and tiled cover the same cells -------------------------------------------------

namespace {
// An indoor level: a floor with outer walls and two inner walls 5 cm thick, `w` x `d` m. At 0.3 m
// cells a depth of 16 m is 53.33 cells: the solo grid (Recast's rounding) has 53 rows and leaves the
// last third of a cell, with the far outer wall, out; tiles covering whole tiles had it (walkable
// area 524.9 m2 tiled against 513.5 m2 solo, 2.2% apart, before they were clipped to the solo grid).
InputMesh indoor(float w, float d) {
    InputMesh m;
    navtest::add_floor(m, 0, 0, w, d, 0);
    const float t = 0.05f, h = 3.0f;
    navtest::add_box(m, 0, 0, 0, w, h, t);
    navtest::add_box(m, 0, 0, d - t, w, h, d);
    navtest::add_box(m, 0, 0, 0, t, h, d);
    navtest::add_box(m, w - t, 0, 0, w, h, d);
    navtest::add_box(m, w * 0.4f, 0, 0, w * 0.4f + t, h, d * 0.6f);
    navtest::add_box(m, w * 0.7f, 0, d * 0.4f, w * 0.7f + t, h, d);
    return m;
}
}  // namespace

TEST_CASE("hostile tiles: solo and tiled bake the same walkable area when the extent is not whole cells") {
    // depth 16 m = 53.33 cells, width 40.1 m = 133.67 cells (rounds up: 134): both ways of rounding
    for (float d : {16.0f, 16.1f})
      for (int ts : {16, 32}) {
        CAPTURE(d);
        CAPTURE(ts);
        const InputMesh m = indoor(40.1f, d);
        Pipeline solo, tiled;
        REQUIRE(solo.set_mesh(m));
        REQUIRE(tiled.set_mesh(m));
        REQUIRE(tiled.set_param(ParamId::tile_size, ts));
        REQUIRE(solo.run());
        REQUIRE(tiled.run());
        const auto bs = solo.snapshot(), bt = tiled.snapshot();
        const double as = bs->walkable_area(), at = bt->walkable_area();
        INFO("solo ", as, " m2, tiled ", at, " m2, grid ", bs->config.width, " x ", bs->config.height);
        CHECK(as > 0.0);
        CHECK(std::fabs(at - as) <= 0.005 * as);
        // no tile holds a span outside the solo grid
        const BakeConfig& c = bt->config;
        int64_t spans = 0;
        for (const auto& t : bt->tiles) {
            REQUIRE(t);
            REQUIRE(t->solid);
            const Heightfield& hf = *t->solid;
            const int x0 = t->tx * c.tile_size - hf.border_size, z0 = t->tz * c.tile_size - hf.border_size;
            for (int z = 0; z < hf.height; ++z)
                for (int x = 0; x < hf.width; ++x)
                    for (uint32_t i = hf.columns[static_cast<size_t>(x + z * hf.width)]; i != kNullSpan; i = hf.pool[i].next) {
                        ++spans;
                        const int gx = x0 + x, gz = z0 + z;
                        CHECK((gx >= 0 && gx < c.width && gz >= 0 && gz < c.height));
                    }
        }
        CHECK(spans > 0);
    }
}
