// A bake split over machines (issue 20, part 5; app/navbake_farm.h): navbake --tiles X0,Y0:X1,Y1
// --tile-out DIR per rectangle, then navbake --merge DIR --navmesh-out FILE. The merged file is the
// one-process bake's MSET (make_detour_mesh of a whole bake, written by write_mset) byte for byte,
// whatever the split; the merge refuses a directory that is not one bake's complete set of tiles
// (missing tile, duplicate, wrong grid, foreign file) with exit code 2 and a message naming it.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "app/navbake_args.h"
#include "core/formats/detour_export.h"
#include "core/bake/input.h"
#include "core/formats/params_json.h"
#include "core/pipeline/pipeline.h"
#include "core/runtime/detour_format.h"
#include "test_files.h"
#include "test_scenes.h"
#include "tile_scene.h"

using navtest::run_cmd;

namespace {

namespace fs = std::filesystem;

bool has(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }
std::string q(const std::string& path) { return "'" + path + "'"; }
std::string navbake_exe() { return q(NAVBAKE_EXE); }

std::string slurp(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

class TempDir {
public:
    TempDir() {
        static int n = 0;
        path_ = fs::temp_directory_path() / ("navtest_split_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
        fs::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    std::string at(const std::string& name) const { return (path_ / name).string(); }

private:
    fs::path path_;
};

// The one-process bake's MSET bytes, in this process (the bake export and write_mset).
std::string one_process_mset(const std::string& obj, const std::vector<std::string>& sets) {
    nav::InputMesh mesh;
    REQUIRE(nav::load_obj(obj, mesh).is_ok());
    nav::Params p;
    REQUIRE(nav::apply_assignments("--set", sets, p).is_ok());
    nav::Pipeline pipe;
    REQUIRE(pipe.set_mesh(std::move(mesh)).is_ok());
    REQUIRE(pipe.set_input(&nav::BakeInputs::params, p));
    REQUIRE(pipe.run().is_ok());
    nav::DetourMeshFile file;
    REQUIRE(nav::make_detour_mesh(*pipe.snapshot(), file).is_ok());
    std::vector<uint8_t> bytes;
    nav::write_mset(file, bytes);
    return std::string(bytes.begin(), bytes.end());
}

std::string set_flags(const std::vector<std::string>& sets) {
    std::string s;
    for (const std::string& a : sets) s += " --set " + a;
    return s;
}

// "COLS ROWS" from navbake --tile-grid.
void tile_grid(const std::string& obj, const std::string& flags, int& cols, int& rows) {
    const auto r = run_cmd(navbake_exe() + " " + q(obj) + flags + " --tile-grid", false);
    REQUIRE(r.code == 0);
    REQUIRE(std::sscanf(r.out.c_str(), "%d %d", &cols, &rows) == 2);
}

// The grid split into nx x ny rectangles as scripts/farm_bake.sh splits it.
std::vector<std::string> rectangles(int cols, int rows, int nx, int ny) {
    std::vector<std::string> out;
    for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
            const int x0 = cols * i / nx, x1 = cols * (i + 1) / nx - 1, y0 = rows * j / ny, y1 = rows * (j + 1) / ny - 1;
            if (x0 <= x1 && y0 <= y1)
                out.push_back(std::to_string(x0) + "," + std::to_string(y0) + ":" + std::to_string(x1) + "," +
                              std::to_string(y1));
        }
    return out;
}

void bake_rects(const std::string& obj, const std::string& flags, const std::vector<std::string>& rects,
                const std::string& dir) {
    for (const std::string& r : rects) {
        const auto res = run_cmd(navbake_exe() + " " + q(obj) + flags + " --tiles " + r + " --tile-out " + q(dir));
        INFO(res.out);
        REQUIRE(res.code == 0);
    }
}

navtest::RunResult merge(const std::string& dir, const std::string& out) {
    return run_cmd(navbake_exe() + " --merge " + q(dir) + " --navmesh-out " + q(out));
}

// Splits obj's bake 1x1, 2x2 and 3x1 (and one rectangle per tile), merges, compares with the
// one-process file.
void check_split_equals_one_process(const std::string& obj, const std::vector<std::string>& sets) {
    const std::string want = one_process_mset(obj, sets);
    const std::string flags = set_flags(sets);
    int cols = 0, rows = 0;
    tile_grid(obj, flags, cols, rows);
    const int splits[][2] = {{1, 1}, {2, 2}, {3, 1}, {cols, rows}};
    for (const auto& s : splits) {
        CAPTURE(obj);
        CAPTURE(s[0]);
        CAPTURE(s[1]);
        TempDir t;
        bake_rects(obj, flags, rectangles(cols, rows, s[0], s[1]), t.at("tiles"));
        const auto r = merge(t.at("tiles"), t.at("merged.bin"));
        INFO(r.out);
        REQUIRE(r.code == 0);
        const std::string got = slurp(t.at("merged.bin"));
        CHECK(got.size() == want.size());
        CHECK(got == want);
    }
}

// The test scene as an OBJ, tiled 32 cells: 5 x 4 tiles.
struct SceneObj {
    navtest::TempFile file{".obj", navtest::to_obj(navtest::tile_scene())};
    std::vector<std::string> sets{"tile_size=32"};
};

// A split directory of the scene, baked in 2 x 2 rectangles.
struct SplitDir {
    SceneObj scene;
    TempDir t;
    std::string dir = t.at("tiles");
    int cols = 0, rows = 0;
    std::vector<std::string> rects;
    SplitDir() {
        tile_grid(scene.file.path(), set_flags(scene.sets), cols, rows);
        rects = rectangles(cols, rows, 2, 2);
        bake_rects(scene.file.path(), set_flags(scene.sets), rects, dir);
    }
};

}  // namespace

TEST_CASE("split bake: --tiles parses X0,Y0:X1,Y1 and refuses anything else") {
    int r[4] = {-1, -1, -1, -1};
    CHECK(navbake::parse_tile_rect("0,0:3,2", r).is_ok());
    CHECK((r[0] == 0 && r[1] == 0 && r[2] == 3 && r[3] == 2));
    CHECK(navbake::parse_tile_rect("4,5:4,5", r).is_ok());
    CHECK((r[0] == 4 && r[1] == 5 && r[2] == 4 && r[3] == 5));
    for (const char* bad : {"", "0,0", "0,0:", ":1,1", "0,0:1", "0,0:1,1:2,2", "-1,0:1,1", "0,0:1,1 ", " 0,0:1,1",
                            "a,0:1,1", "0,0:99999999999,1", "0;0:1,1"}) {
        CAPTURE(bad);
        const nav::Status st = navbake::parse_tile_rect(bad, r);
        CHECK(st.code == nav::Status::Code::BadInput);
        CHECK(has(st.message, "expected X0,Y0:X1,Y1"));
    }
    const nav::Status st = navbake::parse_tile_rect("3,0:1,2", r);
    CHECK(st.code == nav::Status::Code::BadInput);
    CHECK(has(st.message, "X0 <= X1 and Y0 <= Y1"));
}

TEST_CASE("split bake: flags --tiles, --merge and --tile-grid need and refuse") {
    SceneObj scene;
    const std::string obj = q(scene.file.path());
    struct Case {
        std::string args, message;
    } cases[] = {
        {obj + " --tiles 0,0:1,1 --tile-out /tmp/x", "needs --set tile_size=N"},
        {obj + " --set tile_size=32 --tiles 0,0:1,1", "--tiles needs --tile-out DIR"},
        {obj + " --set tile_size=32 --tiles 0,0:1,1 --tile 0,0 --tile-out /tmp/x", "not with --tile"},
        {obj + " --set tile_size=32 --tiles 0,0:1,1 --paths 3 --tile-out /tmp/x", "not with --paths"},
        {obj + " --set tile_size=32 --tiles 0,0:1,1 --navmesh-out /tmp/y --tile-out /tmp/x", "not with --navmesh-out"},
        {obj + " --set tile_size=32 --tiles 0,0:9,1 --tile-out /tmp/x", "outside the tile grid of 5 x 4 tiles"},
        {obj + " --set tile_size=32 --tiles 1,1:0,0 --tile-out /tmp/x", "X0 <= X1 and Y0 <= Y1"},
        {obj + " --tile-grid", "--tile-grid: needs --set tile_size=N"},
        {"--merge /tmp/x --navmesh-out /tmp/y " + obj, "not with a mesh argument"},
        {"--merge /tmp/x --navmesh-out /tmp/y --set tile_size=32", "not with --set"},
        {"--merge /tmp/x", "--merge needs --navmesh-out FILE"},
        {"--merge '' --navmesh-out /tmp/y", "--merge: empty path"},
        {"--navmesh-out /tmp/y", "mesh is required"},
        // flags the split modes would ignore are refused, not dropped
        {obj + " --set tile_size=32 --tiles 0,0:1,1 --json --tile-out /tmp/x", "not with --json"},
        {obj + " --set tile_size=32 --tiles 0,0:1,1 --gltf-out /tmp/y.glb --tile-out /tmp/x", "not with --gltf-out"},
        {obj + " --set tile_size=32 --tile-grid --tile-out /tmp/x", "not with --tile-out"},
        {"--merge /tmp/x --navmesh-out /tmp/y --gltf-out /tmp/z.glb", "not with --gltf-out"},
        {"--merge /tmp/x --navmesh-out /tmp/y --tile-out /tmp/z", "not with --tile-out"},
        {obj + " --set tile_size=32 --tile 0,0 --gltf-out /tmp/y.glb", "not with --tile"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.args);
        const auto r = run_cmd(navbake_exe() + " " + c.args);
        CHECK(r.code == 2);
        CHECK_MESSAGE(has(r.out, c.message), r.out);
    }
    const auto g = run_cmd(navbake_exe() + " " + obj + " --set tile_size=32 --tile-grid", false);
    CHECK(g.code == 0);
    CHECK(g.out == "5 4\n");
}

TEST_CASE("split bake: the merged file is the one-process file, byte for byte, whatever the split") {
    SUBCASE("generated scene") {
        SceneObj scene;
        check_split_equals_one_process(scene.file.path(), scene.sets);
        // a job's own thread count does not change its tiles
        check_split_equals_one_process(scene.file.path(), {"tile_size=32", "threads=1"});
    }
    SUBCASE("shared meshes") {
        for (const char* name : {"dungeon.obj", "nav_test.obj", "undulating.obj"}) {
            const std::string path = navtest::shared_mesh_or_skip(name);
            if (path.empty()) continue;
            check_split_equals_one_process(path, {"tile_size=48"});
        }
    }
}

TEST_CASE("split bake: the merge refuses a set of tiles that is not one whole bake (exit 2, named)") {
    SplitDir s;
    REQUIRE(s.rects.size() == 4);
    const TempDir out;
    const std::string mset = out.at("navmesh.bin");
    auto merge_fails = [&](const std::string& message) {
        const auto r = merge(s.dir, mset);
        CHECK(r.code == 2);
        CHECK_MESSAGE(has(r.out, message), r.out);
        CHECK(!fs::exists(mset));  // nothing written
    };
    std::vector<std::string> tiles;
    for (const auto& e : fs::directory_iterator(s.dir))
        if (e.path().extension() == ".bin") tiles.push_back(e.path().filename().string());
    std::sort(tiles.begin(), tiles.end());
    REQUIRE(!tiles.empty());
    const std::string first_manifest = s.dir + "/tiles_0_0_1_1.json";  // 5 x 4 in 2 x 2: x 0..1, y 0..1
    REQUIRE(fs::exists(first_manifest));

    SUBCASE("complete: merges") {
        const auto r = merge(s.dir, mset);
        CHECK(r.code == 0);
        CHECK(fs::exists(mset));
    }
    SUBCASE("the merged file inside the directory it merges: refused, nothing written") {
        const auto r = merge(s.dir, s.dir + "/navmesh.bin");
        CHECK(r.code == 2);
        CHECK_MESSAGE(has(r.out, "inside the --merge directory"), r.out);
        CHECK(!fs::exists(s.dir + "/navmesh.bin"));
    }
    SUBCASE("missing tile: a job that did not finish (no manifest)") {
        fs::remove(first_manifest);
        merge_fails("missing tile 0,0 (and 3 more): no job's manifest");
    }
    SUBCASE("missing tile: a job's tile file lost") {
        fs::remove(s.dir + "/" + tiles.front());
        merge_fails("missing tile ");
        merge_fails(" is absent");
    }
    SUBCASE("duplicate tile: two jobs' rectangles overlap") {
        const auto r = run_cmd(navbake_exe() + " " + q(s.scene.file.path()) + set_flags(s.scene.sets) +
                               " --tiles 1,1:2,2 --tile-out " + q(s.dir));
        REQUIRE(r.code == 0);
        merge_fails("duplicate tile 1,1: in tiles_0_0_1_1.json and tiles_1_1_2_2.json");
    }
    SUBCASE("wrong grid: a job of another tile size in the same directory") {
        const auto r = run_cmd(navbake_exe() + " " + q(s.scene.file.path()) + " --set tile_size=24 --tiles 0,0:0,0 --tile-out " +
                               q(s.dir));
        CHECK(r.code == 2);
        CHECK_MESSAGE(has(r.out, "grid.json: another bake's split directory: its grid (5 x 4 tiles, this bake 6 x 5)"), r.out);
    }
    SUBCASE("wrong grid: another mesh") {
        navtest::TempFile other(".obj", "v 0 0 0\nv 0 0 30\nv 40 0 30\nv 40 0 0\nf 1 2 3 4\n");
        const auto r = run_cmd(navbake_exe() + " " + q(other.path()) + set_flags(s.scene.sets) + " --tiles 0,0:0,0 --tile-out " +
                               q(s.dir));
        CHECK(r.code == 2);
        CHECK_MESSAGE(has(r.out, "another bake's split directory: its mesh"), r.out);
    }
    SUBCASE("wrong grid: a manifest beyond grid.json's grid") {
        std::ofstream(s.dir + "/tiles_4_3_5_3.json") << "{\"tiles\": [4, 3, 5, 3], \"empty\": []}\n";
        merge_fails("tiles_4_3_5_3.json: rectangle 4,3:5,3 is not within the grid of 5 x 4 tiles");
    }
    SUBCASE("wrong grid: a manifest whose contents are not its name") {
        std::ofstream(first_manifest) << "{\"tiles\": [0, 0, 2, 2], \"empty\": []}\n";
        merge_fails("tiles_0_0_1_1.json: \"tiles\" is not the rectangle its name says (0,0:1,1)");
    }
    SUBCASE("foreign file: a tile renamed") {
        const std::string a = tiles.front(), b = tiles.back();
        fs::remove(s.dir + "/" + b);
        fs::copy_file(s.dir + "/" + a, s.dir + "/" + b);
        merge_fails("the header says tile ");
        merge_fails("(a renamed or foreign file)");
    }
    SUBCASE("foreign file: not a Detour tile") {
        std::ofstream(s.dir + "/" + tiles.front(), std::ios::trunc) << "this is not a navmesh tile, not at all";
        merge_fails(tiles.front() + ": not a Detour tile (byte 0: expected the magic 'DNAV')");
    }
    SUBCASE("foreign file: a short file") {
        std::ofstream(s.dir + "/" + tiles.front(), std::ios::trunc) << "DNAV";
        merge_fails("too short for a Detour tile header");
    }
    SUBCASE("foreign file: a tile outside the grid") {
        fs::copy_file(s.dir + "/" + tiles.front(), s.dir + "/tile_7_0.bin");
        merge_fails("tile_7_0.bin: tile 7,0 is outside the grid of 5 x 4 tiles");
    }
    SUBCASE("foreign file: a file that is no part of a split bake") {
        std::ofstream(s.dir + "/slurm-12_0.out") << "log\n";
        merge_fails("slurm-12_0.out: not part of a split bake");
    }
    SUBCASE("no grid.json: not a split directory") {
        fs::remove(s.dir + "/grid.json");
        merge_fails("no grid.json");
    }
    SUBCASE("not a directory") {
        const auto r = merge(s.dir + "/nowhere", mset);
        CHECK(r.code == 2);
        CHECK(has(r.out, "not a directory"));
    }
}

TEST_CASE("split bake: PipelineDef::only_tiles bakes exactly its rectangle, each tile as the whole bake does") {
    nav::Params p;
    REQUIRE(nav::apply_assignments("--set", {"tile_size=32"}, p).is_ok());
    nav::Pipeline whole;
    REQUIRE(whole.set_mesh(navtest::tile_scene()).is_ok());
    REQUIRE(whole.set_input(&nav::BakeInputs::params, p));
    REQUIRE(whole.run().is_ok());
    const auto all = whole.snapshot();
    REQUIRE(all->layout.cols == 5);
    REQUIRE(all->layout.rows == 4);

    nav::PipelineDef def = nav::default_pipeline_def();
    def.only_tiles = {1, 2, 3, 3};
    nav::Pipeline part(def);
    REQUIRE(part.set_mesh(navtest::tile_scene()).is_ok());
    REQUIRE(part.set_input(&nav::BakeInputs::params, p));
    REQUIRE(part.run().is_ok());
    const auto some = part.snapshot();
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 5; ++x) {
            CAPTURE(x);
            CAPTURE(y);
            const size_t i = static_cast<size_t>(x + y * 5);
            const nav::TileBake* t = some->tiles[i].get();
            const bool inside = x >= 1 && x <= 3 && y >= 2 && y <= 3;
            CHECK((t != nullptr && t->polymesh != nullptr) == inside);
            if (!inside || !t || !t->polymesh) continue;
            const nav::TileBake* w = all->tiles[i].get();
            CHECK(t->polymesh->verts == w->polymesh->verts);
            CHECK(t->polymesh->polys == w->polymesh->polys);
            CHECK(t->detail->verts == w->detail->verts);
            CHECK(t->detail->tris == w->detail->tris);
        }

    def.only_tiles = {2, 0, 5, 1};  // column 5 is past the grid
    nav::Pipeline outside(def);
    REQUIRE(outside.set_mesh(navtest::tile_scene()).is_ok());
    REQUIRE(outside.set_input(&nav::BakeInputs::params, p));
    const nav::Status st = outside.run();
    CHECK(st.code == nav::Status::Code::BadInput);
    CHECK_MESSAGE(has(st.message, "tiles 2,0:5,1 is outside the tile grid of 5 x 4 tiles"), st.message);
}

TEST_CASE("split bake: the jobs take the config's area table, so the merged tiles carry its polygon flags") {
    // (the Detour export took every flag from the polygon mesh, walk for all, until it took the
    // bake's area table: the runtime tiles had the area's flags, the file a game loads had not)
    // A "mud" area (id 7) whose only flag is swim (0x2), stamped by a volume over the scene's
    // south-west: a job that left the area table out would give those polygons the walk flag.
    SceneObj scene;
    TempDir t;
    const std::string cfg = t.at("mud.json");
    std::ofstream(cfg) << R"({"tile_size": 32, "areas": [{"name": "ground", "id": 63}, {"name": "mud", "id": 7, "flags": ["swim"]}],
        "volumes": [{"verts": [[0, 0, 0], [0, 0, 20], [20, 0, 20], [20, 0, 0]], "hmin": -1, "hmax": 1, "area": "mud"}]})";
    const std::string flags = " --config " + q(cfg);
    int cols = 0, rows = 0;
    tile_grid(scene.file.path(), flags, cols, rows);
    bake_rects(scene.file.path(), flags, rectangles(cols, rows, 2, 2), t.at("tiles"));
    const auto r = merge(t.at("tiles"), t.at("merged.bin"));
    INFO(r.out);
    REQUIRE(r.code == 0);
    const std::string bytes = slurp(t.at("merged.bin"));
    nav::DetourMeshFile file;
    REQUIRE(nav::read_detour_file(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), "merged.bin", file).is_ok());
    int mud = 0, mud_swim = 0, ground_walk = 0;
    for (const nav::DetourTileBytes& tb : file.tiles) {
        nav::NavTile tile;
        REQUIRE(nav::read_detour_tile(tb.data.data(), tb.data.size(), "merged.bin", 0, tile).is_ok());
        for (size_t i = 0; i < tile.areas.size(); ++i) {
            if (tile.areas[i] == 7) {
                ++mud;
                mud_swim += tile.flags[i] == 0x2;
            } else if (tile.areas[i] == 63) {
                ground_walk += tile.flags[i] == 0x1;
            }
        }
    }
    CHECK(mud > 0);
    CHECK(mud_swim == mud);
    CHECK(ground_walk > 0);
    // and the one-process file (the export takes the bake's area table too) is the same
    const auto one = run_cmd(navbake_exe() + " " + q(scene.file.path()) + flags + " --navmesh-out " + q(t.at("one.bin")));
    INFO(one.out);
    REQUIRE(one.code == 0);
    CHECK(slurp(t.at("one.bin")) == bytes);
}
