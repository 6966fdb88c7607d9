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

#include "core/bake/pipeline.h"
#include "core/bake/tiling.h"
#include "test_files.h"
#include "test_scenes.h"

using navtest::run_cmd;
using navtest::TempFile;
using namespace nav;

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

    // through the pipeline: refused with no per-tile state left behind
    Pipeline p;
    InputMesh m;
    navtest::add_floor(m, 0, 0, 1000, 1000, 0);
    REQUIRE(p.set_mesh(m));
    REQUIRE(p.set_param(ParamId::tile_size, 20));
    p.set_memory_limit(uint64_t(40) << 20);
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
