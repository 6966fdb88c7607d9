// The warnings panel's diagnoses (core/diagnose.h) and the mesh fixes they offer (mesh_scale,
// mesh_z_up, mesh_flip_winding): each warning fires on a scene built to trigger it, its one-click
// fix makes it go away after a re-bake, and none fires on the default scene.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "tests/config_inputs.h"
#include "core/explain/diagnose.h"
#include "core/pipeline/pipeline.h"
#include "test_files.h"
#include "test_scenes.h"

using namespace nav;

namespace {

std::string asset(const char* name) { return std::string(NAV_SOURCE_DIR) + "/assets/" + name; }

// A 20 x 20 m floor with two boxes on it: walls, box tops (walkable), box bottoms (facing down).
InputMesh room() {
    InputMesh m;
    navtest::add_floor(m, 0, 0, 20, 20, 0);
    navtest::add_box(m, 5, 0, 5, 8, 3, 9);
    navtest::add_box(m, 12, 0, 12, 15, 0.4f, 15);
    return m;
}

// The same mesh as modelled with Z up: the inverse of mesh_z_up's (x, y, z) -> (x, z, -y).
InputMesh as_z_up(const InputMesh& m) {
    InputMesh r = m;
    for (size_t v = 0; v < m.verts.size(); v += 3) {
        r.verts[v + 1] = -m.verts[v + 2];
        r.verts[v + 2] = m.verts[v + 1];
    }
    return r;
}

InputMesh scaled(InputMesh m, float k) {
    for (float& c : m.verts) c *= k;
    return m;
}

InputMesh flipped(InputMesh m) {
    for (size_t t = 0; t < m.tris.size(); t += 3) std::swap(m.tris[t + 1], m.tris[t + 2]);
    return m;
}

struct Diagnosis {
    std::shared_ptr<const Bake> bake;
    std::vector<Diagnostic> list;
    bool has(WarningKind k) const {
        return std::any_of(list.begin(), list.end(), [&](const Diagnostic& d) { return d.kind == k; });
    }
    const Diagnostic& get(WarningKind k) const {
        for (const Diagnostic& d : list)
            if (d.kind == k) return d;
        FAIL("no diagnostic " << warning_name(k));
        return list.front();
    }
    std::string names() const {
        std::string s;
        for (const Diagnostic& d : list) s += std::string(warning_name(d.kind)) + " ";
        return s;
    }
};

// Bakes (through `to`) and diagnoses with the same parameters, as the debugger does once settled.
Diagnosis diagnose_bake(const InputMesh& m, const Params& p, Stage to = kLastStage) {
    Pipeline pipe;
    REQUIRE(pipe.set_mesh(m));
    REQUIRE(pipe.set_input(&nav::BakeInputs::params, p));
    (void)pipe.run(to);  // a failing bake is diagnosed too
    Diagnosis d;
    d.bake = pipe.snapshot();
    const MeshShape shape = analyze_mesh(*d.bake->mesh);
    d.list = diagnose(p, d.bake.get(), &shape);
    return d;
}

// Fires on (m, p); its fix, applied and re-baked, clears it. Returns the fixed parameters.
Params check_fires_and_fix_clears(const InputMesh& m, const Params& p, WarningKind k, Stage to = kLastStage) {
    const Diagnosis before = diagnose_bake(m, p, to);
    INFO("warnings: " << before.names());
    REQUIRE(before.has(k));
    const Diagnostic& d = before.get(k);
    CHECK(!d.title.empty());
    CHECK(!d.reason.empty());
    REQUIRE(!d.fix.empty());
    CHECK(!d.fix_text.empty());
    Params fixed = p;
    REQUIRE(apply_fix(d, fixed));
    CHECK(!(fixed == p));
    const Diagnosis after = diagnose_bake(m, fixed, to);
    INFO("after the fix (" << d.fix_text << "): " << after.names());
    CHECK(!after.has(k));
    return fixed;
}

Params with(std::initializer_list<std::pair<const char*, const char*>> sets) {
    Params p;
    for (auto [n, v] : sets) REQUIRE(p.set_from_string(n, v));
    return p;
}

}  // namespace

TEST_CASE("mesh fix: scale, Z-up to Y-up and flipped winding, known answers") {
    InputMesh m;
    m.verts = {0, 0, 0, 1, 0, 0, 0, 2, 3};
    m.tris = {0, 1, 2};
    m.compute_bounds();
    InputMesh out;
    apply_mesh_fix(m, MeshFix{2.0f, false, false}, out);
    CHECK(out.verts == std::vector<float>{0, 0, 0, 2, 0, 0, 0, 4, 6});
    CHECK(out.tris == m.tris);
    CHECK(out.bmax[2] == 6.0f);
    apply_mesh_fix(m, MeshFix{1.0f, true, false}, out);  // (x, y, z) -> (x, z, -y)
    CHECK(out.verts == std::vector<float>{0, 0, 0, 1, 0, 0, 0, 3, -2});
    CHECK(out.bmin[2] == -2.0f);
    CHECK(out.bmax[1] == 3.0f);
    apply_mesh_fix(m, MeshFix{1.0f, false, true}, out);
    CHECK(out.tris == std::vector<int>{0, 2, 1});
    CHECK(MeshFix{}.identity());
    CHECK(!MeshFix{0.01f, false, false}.identity());

    // mesh_z_up undoes a Z-up export exactly, and keeps the floor facing up (a rotation)
    const InputMesh r = room();
    InputMesh back;
    apply_mesh_fix(as_z_up(r), MeshFix{1.0f, true, false}, back);
    CHECK(back.verts == r.verts);
    CHECK(back.tris == r.tris);
}

TEST_CASE("pipeline: the mesh_* parameters re-run everything from input on the fixed mesh") {
    Pipeline pipe;
    REQUIRE(pipe.set_mesh(as_z_up(room())));
    REQUIRE(pipe.run());  // Z-up: only the boxes' sides (now facing up) are walkable
    const int64_t wrong_polys = pipe.snapshot()->count("polys");
    REQUIRE(pipe.set_param(ParamId::mesh_z_up, 1.0));
    CHECK(pipe.first_dirty() == Stage::Input);
    REQUIRE(pipe.run());
    const auto fixed = pipe.snapshot();

    Pipeline ref;
    REQUIRE(ref.set_mesh(room()));
    REQUIRE(ref.run());
    CHECK(fixed->count("polys") == ref.snapshot()->count("polys"));
    CHECK(fixed->count("polys") != wrong_polys);
    CHECK(fixed->count("compact_spans") == ref.snapshot()->count("compact_spans"));
    CHECK(fixed->mesh->verts == ref.snapshot()->mesh->verts);

    // back off: the loaded mesh itself again, and a parameter of a later stage leaves the mesh alone
    REQUIRE(pipe.set_param(ParamId::mesh_z_up, 0.0));
    REQUIRE(pipe.run());
    CHECK(pipe.snapshot()->count("polys") == wrong_polys);
    REQUIRE(pipe.set_param(ParamId::mesh_z_up, 1.0));
    REQUIRE(pipe.run());
    const auto mesh_before = pipe.snapshot()->mesh;
    REQUIRE(pipe.set_param(ParamId::agent_radius, 0.3));
    CHECK(pipe.first_dirty() == Stage::Erode);
    REQUIRE(pipe.run());
    CHECK(pipe.snapshot()->mesh == mesh_before);
}

TEST_CASE("diagnose: nothing on the default scene, the demo scenes and the shared meshes") {
    Params demo;
    std::vector<ConvexVolume> vols;
    REQUIRE(navtest::load_config(asset("demo.json"), demo, vols));
    for (const char* name : {"demo.obj", "stairs.obj", "islands.obj"}) {
        InputMesh m;
        REQUIRE(load_obj(asset(name), m));
        for (const Params& p : {Params{}, demo}) {
            const Diagnosis d = diagnose_bake(m, p);
            INFO(name << ": " << d.names());
            CHECK(d.bake->error.is_ok());
            CHECK(d.list.empty());
        }
    }
    CHECK(diagnose_bake(room(), Params{}).list.empty());
    for (const char* name : {"dungeon.obj", "nav_test.obj", "undulating.obj"}) {
        const std::string path = navtest::shared_mesh_or_skip(name);
        if (path.empty()) continue;
        InputMesh m;
        REQUIRE(load_obj(path, m));
        const Diagnosis d = diagnose_bake(m, Params{});
        INFO(name << ": " << d.names());
        CHECK(d.list.empty());
    }
    // parameters alone: the defaults are clean
    CHECK(diagnose(Params{}, nullptr, nullptr).empty());
}

TEST_CASE("diagnose: agent radius under two cells, and cell size above the radius") {
    const Params fixed = check_fires_and_fix_clears(room(), with({{"agent_radius", "0.5"}}), WarningKind::RadiusUnderTwoCells);
    CHECK(fixed.get(ParamId::cell_size) == doctest::Approx(0.25));  // radius / 2
    CHECK(!diagnose_bake(room(), with({{"agent_radius", "0.5"}})).has(WarningKind::CellSizeOverRadius));

    const Params p = with({{"cell_size", "0.8"}});
    const Diagnosis d = diagnose_bake(room(), p);
    CHECK(d.has(WarningKind::CellSizeOverRadius));
    CHECK(!d.has(WarningKind::RadiusUnderTwoCells));  // the stronger one only
    CHECK(d.get(WarningKind::CellSizeOverRadius).reason.find("0.8 m") != std::string::npos);
    CHECK(check_fires_and_fix_clears(room(), p, WarningKind::CellSizeOverRadius).get(ParamId::cell_size) ==
          doctest::Approx(0.3));
    // radius 0 (no erosion) is a choice, not a mistake; exactly two cells is fine
    CHECK(diagnose(with({{"agent_radius", "0"}}), nullptr, nullptr).empty());
    CHECK(diagnose(with({{"agent_radius", "0.6"}, {"cell_size", "0.3"}}), nullptr, nullptr).empty());
}

TEST_CASE("diagnose: cell height above half the climb (stairs merge)") {
    const Params p = with({{"cell_height", "0.6"}});
    const Params fixed = check_fires_and_fix_clears(room(), p, WarningKind::CellHeightOverHalfClimb);
    CHECK(fixed.get(ParamId::cell_height) == doctest::Approx(0.45));
    CHECK(diagnose(with({{"cell_height", "0.45"}}), nullptr, nullptr).empty());  // exactly half: fine
    // on the stairs scene the warning is real: its 0.8 m stair is lost at cell_height 0.6
    InputMesh stairs;
    REQUIRE(load_obj(asset("stairs.obj"), stairs));
    CHECK(diagnose_bake(stairs, p).has(WarningKind::CellHeightOverHalfClimb));
}

TEST_CASE("diagnose: a grid that will be huge") {
    InputMesh big;
    navtest::add_floor(big, 0, 0, 700, 700, 0);  // 2334 x 2334 cells at 0.3 m
    // diagnosed after the input stage: the warning is there before the grid is allocated. A coarser
    // grid would put the default radius (0.6 m) under two cells: the fix bakes in tiles instead
    const Params tiled = check_fires_and_fix_clears(big, Params{}, WarningKind::HugeGrid, Stage::Input);
    CHECK(tiled.get(ParamId::cell_size) == 0.3);
    CHECK(tiled.get(ParamId::tile_size) == 256);
    // a radius of 1.2 m stays over two cells of a coarser grid: the fix raises cell_size
    const Params fixed = check_fires_and_fix_clears(big, with({{"agent_radius", "1.2"}}), WarningKind::HugeGrid, Stage::Input);
    CHECK(fixed.get(ParamId::cell_size) > 0.3);
    CHECK(fixed.get(ParamId::cell_size) < 0.6);
    CHECK(fixed.get(ParamId::tile_size) == 0);
}

TEST_CASE("diagnose: a grid the bake refuses is a warning naming the limit, with a larger cell_size") {
    // 25 km x 10 m: 83 334 cells a side at 0.3 m, over kMaxGridSide, though few cells in all (not "huge")
    InputMesh strip;
    navtest::add_floor(strip, 0, 0, 25000, 10, 0);
    const Diagnosis d = diagnose_bake(strip, Params{}, Stage::Input);
    INFO("warnings: " << d.names());
    REQUIRE(d.has(WarningKind::GridRefused));
    CHECK(!d.has(WarningKind::HugeGrid));  // the stronger one only
    const Diagnostic& w = d.get(WarningKind::GridRefused);
    CHECK(w.reason.find("at most " + std::to_string(kMaxGridSide) + " cells per side") != std::string::npos);
    CHECK(w.reason.find("No cell size in range") == std::string::npos);  // there is one: 0.39 m
    // the bake refuses it with the same words, before rasterizing
    const Diagnosis full = diagnose_bake(strip, Params{});
    CHECK(full.bake->error.code == Status::Code::BadInput);
    CHECK(w.reason.find(full.bake->error.message) != std::string::npos);
    // 0.39 m cells would put the default radius (0.6 m) under two cells: the fix bakes in tiles
    const Params tiled = check_fires_and_fix_clears(strip, Params{}, WarningKind::GridRefused, Stage::Input);
    CHECK(tiled.get(ParamId::cell_size) == 0.3);
    CHECK(tiled.get(ParamId::tile_size) == 256);
    // with a radius of 1 m, coarser cells raise nothing: the fix raises cell_size
    const Params fixed = check_fires_and_fix_clears(strip, with({{"agent_radius", "1"}}), WarningKind::GridRefused, Stage::Input);
    CHECK(fixed.get(ParamId::cell_size) > 0.3);
    CHECK(fixed.get(ParamId::cell_size) <= 0.4);  // 25 000 m / 65 535 cells = 0.38 m
    CHECK(diagnose_bake(strip, fixed).bake->error.is_ok());
}

TEST_CASE("diagnose: a grid under one cell, or too large for any cell size, is refused without a bogus fix") {
    // 1000 km x 0.01 m: less than one cell across at any cell size that keeps 1000 km within the limit
    InputMesh sliver;
    navtest::add_floor(sliver, 0, 0, 1e6f, 0.01f, 0);
    const Diagnosis d = diagnose_bake(sliver, Params{}, Stage::Input);
    INFO("warnings: " << d.names());
    REQUIRE(d.has(WarningKind::GridRefused));
    const Diagnostic& w = d.get(WarningKind::GridRefused);
    CHECK(w.reason.find("less than one cell") != std::string::npos);
    CHECK(w.fix.empty());
    CHECK(w.reason.find("No cell size in range fixes it") != std::string::npos);
    // every warning list of a refused grid says so: none is silent about it
    InputMesh wide;
    navtest::add_floor(wide, -1e6f, -1e6f, 1e6f, 1e6f, 0);  // the coordinate bound
    const Diagnosis dw = diagnose_bake(wide, Params{}, Stage::Input);
    REQUIRE(dw.has(WarningKind::GridRefused));
    CHECK(dw.get(WarningKind::GridRefused).fix.empty());  // 2000 km at the largest cell_size is still over
}

TEST_CASE("diagnose: a mesh that looks Z-up") {
    const InputMesh m = as_z_up(room());
    CHECK(diagnose_bake(m, Params{}).has(WarningKind::MeshZUp));
    // a bare Z-up floor: nothing walkable either, and that warning offers the same fix
    InputMesh floor;
    navtest::add_floor(floor, 0, 0, 10, 10, 0);
    const Diagnosis fd = diagnose_bake(as_z_up(floor), Params{});
    CHECK(fd.has(WarningKind::MeshZUp));
    REQUIRE(fd.has(WarningKind::NoWalkableTriangles));
    CHECK(fd.get(WarningKind::NoWalkableTriangles).fix.front().id == ParamId::mesh_z_up);
    const Params fixed = check_fires_and_fix_clears(m, Params{}, WarningKind::MeshZUp);
    CHECK(fixed.b(ParamId::mesh_z_up));
    const Diagnosis after = diagnose_bake(m, fixed);
    CHECK(after.list.empty());
    CHECK(after.bake->count("polys") == diagnose_bake(room(), Params{}).bake->count("polys"));
}

TEST_CASE("diagnose: a mesh in centimetres") {
    const InputMesh m = scaled(room(), 100.0f);
    const Diagnosis d = diagnose_bake(m, Params{}, Stage::Input);
    CHECK(d.has(WarningKind::MeshCentimetres));
    CHECK(d.has(WarningKind::HugeGrid));
    const Params fixed = check_fires_and_fix_clears(m, Params{}, WarningKind::MeshCentimetres, Stage::Input);
    CHECK(fixed.get(ParamId::mesh_scale) == doctest::Approx(0.01));
    const Diagnosis after = diagnose_bake(m, fixed);
    INFO(after.names());
    CHECK(after.list.empty());
    CHECK(after.bake->error.is_ok());
    // a large scene in metres is not centimetres: 1.2 km of 30 m floor strips with 3 m walls
    InputMesh level;
    for (int i = 0; i < 40; ++i) {
        navtest::add_floor(level, i * 30.0f, 0, i * 30.0f + 30.0f, 4.0f, 0);
        navtest::add_box(level, i * 30.0f, 0, 4.0f, i * 30.0f + 1.0f, 3.0f, 5.0f);
    }
    CHECK(!diagnose_bake(level, Params{}, Stage::Input).has(WarningKind::MeshCentimetres));
    CHECK(diagnose_bake(scaled(level, 100.0f), Params{}, Stage::Input).has(WarningKind::MeshCentimetres));
}

TEST_CASE("diagnose: a mesh wound the wrong way, and no walkable triangles") {
    const InputMesh m = flipped(room());
    const Diagnosis d = diagnose_bake(m, Params{});
    CHECK(d.has(WarningKind::MeshWoundWrong));
    const Params fixed = check_fires_and_fix_clears(m, Params{}, WarningKind::MeshWoundWrong);
    CHECK(fixed.b(ParamId::mesh_flip_winding));
    CHECK(diagnose_bake(m, fixed).list.empty());

    // a floor wound the wrong way: nothing faces up; the fix flips it
    InputMesh floor;
    navtest::add_floor(floor, 0, 0, 10, 10, 0);
    const InputMesh down = flipped(floor);
    const Diagnosis nd = diagnose_bake(down, Params{});
    CHECK(nd.bake->error_stage == static_cast<int>(Stage::Input));
    CHECK(nd.has(WarningKind::NoWalkableTriangles));
    CHECK(nd.get(WarningKind::NoWalkableTriangles).fix.front().id == ParamId::mesh_flip_winding);
    check_fires_and_fix_clears(down, Params{}, WarningKind::NoWalkableTriangles);

    // only a 40 degree ramp with agent_max_slope 30: the fix raises the slope just enough
    InputMesh ramp;
    ramp.verts = {0, 0, 0, 0, 0, 10, 10, 8.3910f, 10, 10, 8.3910f, 0};  // tan(40 deg) * 10
    ramp.tris = {0, 1, 2, 0, 2, 3};
    const Params steep = with({{"agent_max_slope", "30"}});
    const Params raised = check_fires_and_fix_clears(ramp, steep, WarningKind::NoWalkableTriangles);
    CHECK(raised.get(ParamId::agent_max_slope) == doctest::Approx(41.0));

    // a vertical wall facing x only: no fix to offer, the reason says why (one facing z could be
    // a Z-up floor, and is diagnosed so)
    InputMesh wall;
    wall.verts = {0, 0, 0, 0, 3, 0, 0, 3, 10, 0, 0, 10};
    wall.tris = {0, 1, 2, 0, 2, 3};
    const Diagnosis wd = diagnose_bake(wall, Params{});
    REQUIRE(wd.has(WarningKind::NoWalkableTriangles));
    CHECK(wd.get(WarningKind::NoWalkableTriangles).fix.empty());
    CHECK(wd.get(WarningKind::NoWalkableTriangles).reason.find("vertical") != std::string::npos);
}

TEST_CASE("diagnose: a bake with zero polygons names the stage that lost everything") {
    // erosion: the agent is wider than every floor
    const Params wide = with({{"agent_radius", "12"}});
    const Diagnosis d = diagnose_bake(room(), wide);
    REQUIRE(d.bake->error.is_ok());
    CHECK(d.bake->count("polys") == 0);
    REQUIRE(d.has(WarningKind::NoPolygons));
    CHECK(d.get(WarningKind::NoPolygons).reason.find("erosion") != std::string::npos);
    Params p = wide;
    for (int i = 0; i < 4 && diagnose_bake(room(), p).has(WarningKind::NoPolygons); ++i)
        REQUIRE(apply_fix(diagnose_bake(room(), p).get(WarningKind::NoPolygons), p));  // halves the radius
    CHECK(p.get(ParamId::agent_radius) < 12.0);
    CHECK(diagnose_bake(room(), p).bake->count("polys") > 0);

    // the filters: a ceiling (a quad facing down) 1.6 m over the whole floor, lower than the agent
    InputMesh low;
    navtest::add_floor(low, 0, 0, 10, 10, 0);
    InputMesh ceiling;
    navtest::add_floor(ceiling, -1, -1, 11, 11, 1.6f);
    ceiling = flipped(ceiling);
    for (size_t t = 0; t < ceiling.tris.size(); ++t) low.tris.push_back(ceiling.tris[t] + low.vert_count());
    low.verts.insert(low.verts.end(), ceiling.verts.begin(), ceiling.verts.end());
    const Params tall = with({{"agent_radius", "0.3"}, {"cell_size", "0.15"}});
    const Diagnosis ld = diagnose_bake(low, tall);
    INFO(ld.names());
    REQUIRE(ld.has(WarningKind::NoPolygons));
    CHECK(ld.get(WarningKind::NoPolygons).reason.find("filters") != std::string::npos);
    const Params lower = check_fires_and_fix_clears(low, tall, WarningKind::NoPolygons);
    CHECK(lower.get(ParamId::agent_height) == doctest::Approx(1.0));

    // the default scene has polygons: no warning
    CHECK(!diagnose_bake(room(), Params{}).has(WarningKind::NoPolygons));
}

TEST_CASE("navbake prints the warnings with the flags that fix them, and lists them in --json") {
    const std::string exe = std::string("'") + NAVBAKE_EXE + "'";
    navtest::TempFile obj(".obj", navtest::to_obj(scaled(room(), 100.0f)));
    const std::string mesh = " '" + obj.path() + "'";
    auto r = navtest::run_cmd(exe + mesh + " --max-memory 256");  // stdout and stderr
    CHECK(r.code == 2);  // the grid is over the memory limit: refused, and the warnings say why
    CHECK(r.out.find("navbake: warning: the mesh looks like centimetres") != std::string::npos);
    CHECK(r.out.find("Fix: --set mesh_scale=0.01") != std::string::npos);
    r = navtest::run_cmd(exe + mesh + " --set mesh_scale=0.01 --json", false);
    REQUIRE(r.code == 0);
    CHECK(r.out.find("\"diagnostics\": []") != std::string::npos);
    r = navtest::run_cmd(exe + mesh + " --set mesh_scale=0.01 --set cell_height=0.6 --json", false);
    REQUIRE(r.code == 0);
    CHECK(r.out.find("\"name\": \"cell_height_over_half_climb\"") != std::string::npos);
    CHECK(r.out.find("\"cell_height\": 0.45") != std::string::npos);
}

// ---- the fixes offered together: never contradicting, never too small to matter ----------------
namespace {
// Every offered fix changes the bake, and no parameter has two different values among them.
void check_consistent(const std::vector<Diagnostic>& list, const Params& p) {
    std::map<ParamId, double> value;
    for (const Diagnostic& d : list) {
        if (d.fix.empty()) continue;
        INFO(warning_name(d.kind) << ": " << d.fix_text);
        CHECK(fix_matters(p, d.fix));
        for (const ParamChange& c : d.fix) {
            const auto [it, fresh] = value.emplace(c.id, c.value);
            CHECK(it->second == c.value);
            (void)fresh;
        }
    }
}
int offered(const std::vector<Diagnostic>& list) {
    return static_cast<int>(std::count_if(list.begin(), list.end(), [](const Diagnostic& d) { return !d.fix.empty(); }));
}
Diagnostic hand_made(WarningKind k, const char* title, const Params& p, std::vector<ParamChange> fix) {
    Params q = p;
    std::string text;
    for (const ParamChange& c : fix) {
        REQUIRE(q.set(c.id, c.value));
        text += std::string(param_def(c.id).name) + " " + p.to_string(c.id) + " -> " + q.to_string(c.id);
    }
    return Diagnostic{k, title, "reason.", std::move(fix), text, {}};
}
}  // namespace

TEST_CASE("diagnose: a huge grid and a radius under two cells pull cell_size opposite ways: one fix") {
    InputMesh big;
    navtest::add_floor(big, 0, 0, 700, 700, 0);  // 2334 x 2334 cells at 0.3 m: huge
    const Params p = with({{"agent_radius", "0.5"}});  // 1.67 cells: the radius wants 0.25 m cells
    const Diagnosis d = diagnose_bake(big, p, Stage::Input);
    INFO(d.names());
    REQUIRE(d.has(WarningKind::HugeGrid));
    REQUIRE(d.has(WarningKind::RadiusUnderTwoCells));
    check_consistent(d.list, p);
    // the grid's fix stands (a finer grid would make it worse); the radius hint says why it has none
    const Diagnostic& huge = d.get(WarningKind::HugeGrid);
    REQUIRE(!huge.fix.empty());
    CHECK(huge.fix.front().value > 0.3);
    const Diagnostic& radius = d.get(WarningKind::RadiusUnderTwoCells);
    CHECK(radius.fix.empty());
    CHECK(radius.reason.find("the grid will be huge") != std::string::npos);
    // each warning's own fix, alone, still clears it (the pass only withdraws)
    CHECK(diagnose(with({{"agent_radius", "0.5"}}), nullptr, nullptr).front().fix.front().value == doctest::Approx(0.25));
    Params fixed = p;
    REQUIRE(apply_fix(huge, fixed));
    CHECK(!diagnose_bake(big, fixed, Stage::Input).has(WarningKind::HugeGrid));
}

TEST_CASE("diagnose: cell size over the radius on a huge grid: the fixes agree") {
    InputMesh big;
    navtest::add_floor(big, 0, 0, 2000, 2000, 0);  // 2500 x 2500 cells at 0.8 m
    const Params p = with({{"cell_size", "0.8"}});
    const Diagnosis d = diagnose_bake(big, p, Stage::Input);
    INFO(d.names());
    REQUIRE(d.has(WarningKind::HugeGrid));
    REQUIRE(d.has(WarningKind::CellSizeOverRadius));
    check_consistent(d.list, p);
    CHECK(offered(d.list) == 1);
    CHECK(d.get(WarningKind::CellSizeOverRadius).fix.empty());
    // without the huge grid the same parameters offer the radius fix
    const Diagnosis small = diagnose_bake(room(), p);
    REQUIRE(small.has(WarningKind::CellSizeOverRadius));
    CHECK(!small.get(WarningKind::CellSizeOverRadius).fix.empty());
    check_consistent(small.list, p);
}

TEST_CASE("diagnose: a fix that leaves every voxel value unchanged is not offered") {
    // a 7 m wide corridor at 2 m cells: 4 rows, the outer two ledges (the grid's edge), the inner
    // two eroded by one cell; halving the radius (1.5 -> 0.75 m) is still one cell, so the
    // no-polygons warning has no fix to offer
    InputMesh corridor;
    navtest::add_floor(corridor, 0, 0, 40, 7, 0);
    const Params p = with({{"cell_size", "2"}, {"agent_radius", "1.5"}});
    const Diagnosis d = diagnose_bake(corridor, p);
    INFO(d.names());
    REQUIRE(d.has(WarningKind::NoPolygons));
    REQUIRE(d.get(WarningKind::NoPolygons).reason.find("erosion") != std::string::npos);
    const Diagnostic& none = d.get(WarningKind::NoPolygons);
    CHECK(none.fix.empty());
    CHECK(none.reason.find("too small to matter") != std::string::npos);
    check_consistent(d.list, p);
    CHECK(d.has(WarningKind::CellSizeOverRadius));  // the real fix: finer cells
    CHECK(!d.get(WarningKind::CellSizeOverRadius).fix.empty());

    // fix_matters follows the bake's rounding
    const Params q = Params{};  // 0.3 m cells, radius 0.6 m = 2 cells
    CHECK(!fix_matters(q, {{ParamId::agent_radius, 0.5}}));  // 2 cells either way
    CHECK(fix_matters(q, {{ParamId::agent_radius, 0.3}}));   // 1 cell
    CHECK(!fix_matters(q, {{ParamId::cell_size, 0.3}}));     // no change at all
    CHECK(fix_matters(q, {{ParamId::cell_size, 0.31}}));     // the grid changes
    CHECK(fix_matters(q, {{ParamId::mesh_z_up, 1.0}}));
    CHECK(!fix_matters(q, {{ParamId::cell_size, 99.0}}));    // refused: no fix
}

TEST_CASE("reconcile_fixes: same way, one value (the farther); opposite ways, the first rank wins") {
    const Params p;  // cell_size 0.3
    std::vector<Diagnostic> list = {
        hand_made(WarningKind::HugeGrid, "the grid will be huge", p, {{ParamId::cell_size, 0.45}}),
        hand_made(WarningKind::NoPolygons, "another grid warning", p, {{ParamId::cell_size, 0.6}}),
    };
    reconcile_fixes(list, p);
    check_consistent(list, p);
    REQUIRE(offered(list) == 2);
    CHECK(list[0].fix.front().value == doctest::Approx(0.6));
    CHECK(list[0].fix_text == "cell_size 0.3 -> 0.6 m");
    CHECK(list[1].fix.front().value == doctest::Approx(0.6));

    // a quality hint listed first still yields to the grid warning after it
    list = {hand_made(WarningKind::RadiusUnderTwoCells, "agent radius under two cells", p, {{ParamId::cell_size, 0.25}}),
            hand_made(WarningKind::HugeGrid, "the grid will be huge", p, {{ParamId::cell_size, 0.45}})};
    reconcile_fixes(list, p);
    check_consistent(list, p);
    CHECK(list[0].fix.empty());
    CHECK(list[0].reason.find("'the grid will be huge' (cell_size 0.3 -> 0.45") != std::string::npos);
    REQUIRE(list[1].fix.size() == 1);
    CHECK(list[1].fix.front().value == doctest::Approx(0.45));

    // a fix of two parameters loses both when one of them is contradicted; the rest stands
    list = {hand_made(WarningKind::MeshCentimetres, "cm", p, {{ParamId::mesh_scale, 0.01}}),
            hand_made(WarningKind::CellHeightOverHalfClimb, "ch", p, {{ParamId::cell_height, 0.1}, {ParamId::mesh_scale, 2.0}}),
            hand_made(WarningKind::RadiusUnderTwoCells, "radius", p, {{ParamId::agent_radius, 0.5}}),
            hand_made(WarningKind::CellSizeOverRadius, "cs", p, {{ParamId::cell_size, 0.2}})};
    reconcile_fixes(list, p);
    check_consistent(list, p);
    CHECK(list[0].fix.size() == 1);
    CHECK(list[1].fix.empty());  // mesh_scale up against the centimetres fix's down: withdrawn whole
    CHECK(list[2].fix.empty());  // 0.6 -> 0.5 m: 2 cells either way
    CHECK(list[3].fix.size() == 1);
}
