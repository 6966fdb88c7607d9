// End-to-end: the navbake command-line contract (exit codes, messages, JSON keys, --incremental).
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "test_files.h"
#include "core/bake/input.h"
#include "core/pipeline/params.h"
#include "test_scenes.h"

using navtest::run_cmd;
using navtest::TempFile;

namespace {

std::string navbake() { return std::string("'") + NAVBAKE_EXE + "'"; }

std::string scene_obj() {
    nav::InputMesh m;
    navtest::add_floor(m, 0, 0, 10, 10, 0);
    navtest::add_box(m, 4, 0, 4, 6, 3, 6);
    return navtest::to_obj(m);
}

bool has(const std::string& s, const std::string& sub) { return s.find(sub) != std::string::npos; }

}  // namespace

TEST_CASE("navbake: --json prints the contract's keys") {
    TempFile obj(".obj", scene_obj());
    const auto r = run_cmd(navbake() + " '" + obj.path() + "' --json --reps 3", false);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["mesh"]["path"] == obj.path());
    CHECK(j["mesh"]["verts"] == 12);
    CHECK(j["mesh"]["tris"] == 14);
    CHECK(j["mesh"]["bmax"][0] == doctest::Approx(10.0));
    for (const char* k : {"cell_size", "cell_height", "agent_height", "agent_radius", "agent_max_climb",
                          "agent_max_slope", "region_min_size", "region_merge_size", "partition",
                          "filter_low_hanging", "filter_ledge", "filter_low_height"})
        CHECK_MESSAGE(j["config"].contains(k), k);
    CHECK(j["config"]["partition"] == "watershed");
    CHECK(j["grid"]["width"] == 33);
    CHECK(j["grid"]["height"] == 33);
    for (const char* k : {"solid_spans", "compact_spans", "walkable_spans", "regions"}) {
        CHECK_MESSAGE(j["counts"].contains(k), k);
        CHECK(j["counts"][k].get<int>() > 0);
    }
    for (const char* k : {"rasterize", "filter", "compact", "erode", "areas", "distance", "regions", "total"})
        CHECK_MESSAGE(j["timings_ms"].contains(k), k);
    CHECK(j["reps"] == 3);
}

TEST_CASE("navbake: --set and --config change the bake") {
    TempFile obj(".obj", scene_obj());
    const auto a = nlohmann::json::parse(run_cmd(navbake() + " '" + obj.path() + "' --json", false).out);
    const auto b = nlohmann::json::parse(
        run_cmd(navbake() + " '" + obj.path() + "' --json --set agent_radius=0 --set partition=monotone", false).out);
    CHECK(b["config"]["agent_radius"] == 0.0);
    CHECK(b["config"]["partition"] == "monotone");
    CHECK(b["counts"]["walkable_spans"].get<int>() > a["counts"]["walkable_spans"].get<int>());
    TempFile cfg(".json", R"({"cell_size": 0.5})");
    const auto c = nlohmann::json::parse(run_cmd(navbake() + " '" + obj.path() + "' --json --config " + cfg.path(), false).out);
    CHECK(c["grid"]["width"] == 20);
    // --set wins over --config
    const auto d = nlohmann::json::parse(
        run_cmd(navbake() + " '" + obj.path() + "' --json --config " + cfg.path() + " --set cell_size=0.25", false).out);
    CHECK(d["grid"]["width"] == 40);
}

TEST_CASE("navbake: --incremental reports exactly the stages a parameter reads") {
    TempFile obj(".obj", scene_obj());
    auto j = nlohmann::json::parse(
        run_cmd(navbake() + " '" + obj.path() + "' --json --incremental agent_radius=0.3", false).out);
    CHECK(j["incremental"]["param"] == "agent_radius");
    CHECK(j["incremental"]["stages_run"] == nlohmann::json({"erode", "areas", "distance", "regions", "contours", "polymesh", "detail", "navmesh"}));
    // The re-bake ran eight stages: it took time. The bake before it (one rep) timed each stage on
    // its own, one after another inside the run its total times: together no more than the total.
    CHECK(j["incremental"]["ms"].get<double>() > 0.0);
    double stages_ms = 0;
    for (const auto& [stage, ms] : j["timings_ms"].items())
        if (stage != "total") stages_ms += ms.get<double>();
    CHECK(stages_ms > 0.0);
    CHECK(stages_ms <= j["timings_ms"]["total"].get<double>());
    j = nlohmann::json::parse(
        run_cmd(navbake() + " '" + obj.path() + "' --json --incremental region_min_size=4", false).out);
    CHECK(j["incremental"]["stages_run"] == nlohmann::json({"regions", "contours", "polymesh", "detail", "navmesh"}));
    j = nlohmann::json::parse(
        run_cmd(navbake() + " '" + obj.path() + "' --json --incremental cell_height=0.1", false).out);
    CHECK(j["incremental"]["stages_run"][0] == "rasterize");
}

TEST_CASE("navbake: bad input exits 2 with a message naming the problem") {
    TempFile obj(".obj", scene_obj());
    struct Case {
        std::string args;
        std::string expect;
    };
    TempFile notobj(".obj", "this is just text\n");
    TempFile noface(".obj", "v 0 0 0\nv 1 0 0\nv 0 0 1\n");
    TempFile range(".obj", "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 9\n");
    TempFile nan(".obj", "v 0 0 0\nv 1 nan 0\nv 0 0 1\nf 1 2 3\n");
    TempFile steep(".obj", "v 0 0 0\nv 0 5 0\nv 1 5 0\nv 1 0 0\nf 1 2 3\nf 1 3 4\n");
    TempFile badcfg(".json", R"({"cell_size": "big"})");
    const Case cases[] = {
        {"/no/such/mesh.obj", "file not found"},
        {"'" + notobj.path() + "'", "no faces"},
        {"'" + noface.path() + "'", "no faces"},
        {"'" + range.path() + "'", ":4: face index 9 is out of range"},
        {"'" + nan.path() + "'", ":2: vertex 2 has a coordinate that is not a finite number"},
        {"'" + steep.path() + "'", "nothing walkable"},
        {"'" + obj.path() + "' --set agent_radius=-1", "agent_radius"},
        {"'" + obj.path() + "' --set cell_size=0", "cell_size"},
        {"'" + obj.path() + "' --set bogus=1", "unknown parameter 'bogus'"},
        {"'" + obj.path() + "' --set agent_radius", "expected NAME=VALUE"},
        {"'" + obj.path() + "' --set partition=hexagons", "watershed | monotone | layers"},
        {"'" + obj.path() + "' --config /no/such.json", "/no/such.json: file not found, expected a JSON config file"},
        {"'" + obj.path() + "' --config '" + badcfg.path() + "'", "cell_size"},
        {"'" + obj.path() + "' --set cell_size=0.02 --max-memory 1", "memory limit"},
        {"'" + obj.path() + "' --incremental agent_radius=99", "agent_radius"},
        {"'" + obj.path() + "' --no-such-flag", "no-such-flag"},
        {"'" + obj.path() + "' --set edge_max_error=0", "edge_max_error: got 0, expected a number in [0.1, 10]"},
        {"'" + obj.path() + "' --set verts_per_poly=2", "verts_per_poly: got 2, expected a whole number in [3, 12]"},
        {"'" + obj.path() + "' --set verts_per_poly=13", "verts_per_poly"},
        {"'" + obj.path() + "' --set verts_per_poly=4.5", "verts_per_poly"},
        {"", "mesh"},
    };
    for (const Case& c : cases) {
        const auto r = run_cmd(navbake() + " " + c.args);
        CHECK_MESSAGE(r.code == 2, c.args, " -> ", r.out);
        CHECK_MESSAGE(has(r.out, c.expect), c.args, " -> ", r.out);
    }
    // every parameter out of range is refused, naming it
    for (const nav::ParamDef& d : nav::param_table()) {
        const std::string bad = d.kind == nav::ParamKind::Enum || d.kind == nav::ParamKind::Bool
                                    ? std::string("nonsense")
                                    : std::to_string(d.max + 1);
        const auto r = run_cmd(navbake() + " '" + obj.path() + "' --set " + std::string(d.name) + "=" + bad);
        CHECK_MESSAGE(r.code == 2, d.name);
        CHECK_MESSAGE(has(r.out, std::string(d.name)), d.name, " -> ", r.out);
    }
}

TEST_CASE("navbake: --obj-out writes the polygon and detail meshes, facing up, and walkable_area") {
    TempFile obj(".obj", scene_obj());
    TempFile out(".obj");
    const auto r = run_cmd(navbake() + " '" + obj.path() + "' --json --obj-out '" + out.path() + "'", false);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    // 10 x 10 floor minus the 2 x 2 box, eroded by 0.6 m (2 cells) from every wall and edge.
    CHECK(j["walkable_area"].get<double>() > 40.0);
    CHECK(j["walkable_area"].get<double>() < 100.0 - 4.0);
    CHECK(j["counts"]["polys"].get<int>() > 0);
    CHECK(j["counts"]["detail_tris"].get<int>() >= j["counts"]["polys"].get<int>());
    nav::InputMesh back;
    REQUIRE(nav::load_obj(out.path(), back));  // every face of both groups reads back...
    std::vector<uint8_t> areas(static_cast<size_t>(back.tri_count()));
    nav::mark_walkable_triangles(1.0f, back.verts.data(), back.tris.data(), back.tri_count(), areas.data());
    for (uint8_t a : areas) CHECK(a == nav::kWalkableArea);  // ...flat and facing up
    std::ifstream f(out.path());
    std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    CHECK(text.find("g polymesh") != std::string::npos);
    CHECK(text.find("g detail") != std::string::npos);
    CHECK(run_cmd(navbake() + " '" + obj.path() + "' --obj-out /no/such/dir/x.obj").code == 2);
}

TEST_CASE("navbake: --paths and --pairs report each path per the contract") {
    const std::string demo = std::string("'") + NAV_SOURCE_DIR + "/assets/demo.obj'";
    auto j = nlohmann::json::parse(run_cmd(navbake() + " " + demo + " --json --paths 50 --seed 3", false).out);
    const auto& p = j["paths"];
    CHECK(p["count"] == 50);
    CHECK(p["found"].get<int>() > 40);  // a few pairs land on the unreachable platform
    CHECK(p["queries_per_sec"].get<double>() > 0);
    REQUIRE(p["items"].size() == 50);
    for (const auto& it : p["items"]) {
        for (const char* k : {"start", "end", "polys", "points", "length", "reached"}) CHECK_MESSAGE(it.contains(k), k);
        if (!it["reached"].get<bool>()) continue;
        const auto& pts = it["points"];
        REQUIRE(pts.size() >= 2);
        for (int k = 0; k < 3; ++k) {  // random points lie on the mesh, so the path starts and ends at them
            CHECK(pts.front()[k].get<double>() == doctest::Approx(it["start"][k].get<double>()).epsilon(1e-3));
            CHECK(pts.back()[k].get<double>() == doctest::Approx(it["end"][k].get<double>()).epsilon(1e-3));
        }
        double len = 0;
        for (size_t i = 1; i < pts.size(); ++i) {
            double d2 = 0;
            for (int k = 0; k < 3; ++k) d2 += std::pow(pts[i][k].get<double>() - pts[i - 1][k].get<double>(), 2);
            len += std::sqrt(d2);
        }
        CHECK(it["length"].get<double>() == doctest::Approx(len).epsilon(1e-3));
    }
    // the same seed gives the same pairs and paths
    const auto j2 = nlohmann::json::parse(run_cmd(navbake() + " " + demo + " --json --paths 50 --seed 3", false).out);
    CHECK(j2["paths"]["items"] == p["items"]);

    // pairs: across the plaza (reached), to the unreachable platform (partial), off the mesh
    TempFile pairs(".txt", "# sx sy sz ex ey ez\n0 0.2 0 10.2 0.2 -12\n\n0 0.2 0 16.5 6.1 16.2\n0 0.2 0 0 50 0\n");
    j = nlohmann::json::parse(run_cmd(navbake() + " " + demo + " --json --pairs '" + pairs.path() + "'", false).out);
    const auto& items = j["paths"]["items"];
    REQUIRE(items.size() == 3);
    CHECK(items[0]["reached"] == true);
    CHECK(items[0]["polys"].get<int>() > 1);
    CHECK(items[0]["length"].get<double>() > 15.0);
    CHECK(items[1]["reached"] == false);       // partial: toward the platform, never onto it
    CHECK(items[1]["points"].size() >= 2);
    CHECK(items[2]["reached"] == false);
    CHECK(items[2]["error"] == "end is not on the navmesh");
    CHECK(j["paths"]["found"] == 1);
}

TEST_CASE("navbake: bad --pairs files exit 2 naming the line") {
    TempFile obj(".obj", scene_obj());
    TempFile nan(".txt", "1 0 1 8 0 8\n1 0 nan 8 0 8\n");
    TempFile shortl(".txt", "1 0 1 8 0\n");
    TempFile extra(".txt", "1 0 1 8 0 8 9\n");
    TempFile empty(".txt", "# nothing\n");
    const std::pair<std::string, std::string> cases[] = {
        {nan.path(), ":2: coordinate 3 is not a finite number"},
        {shortl.path(), ":1: expected 6 numbers"},
        {extra.path(), ":1: extra text"},
        {empty.path(), "no pairs"},
        {"/no/such/pairs.txt", "cannot open pairs file"},
    };
    for (const auto& [file, expect] : cases) {
        const auto r = run_cmd(navbake() + " '" + obj.path() + "' --pairs '" + file + "'");
        CHECK_MESSAGE(r.code == 2, file, " -> ", r.out);
        CHECK_MESSAGE(has(r.out, expect), file, " -> ", r.out);
    }
    CHECK(run_cmd(navbake() + " '" + obj.path() + "' --paths 5 --pairs '" + nan.path() + "'").code == 2);
    CHECK(run_cmd(navbake() + " '" + obj.path() + "' --paths 0").code == 2);
}
