// navbake --why X,Y,Z and --why-path SX,SY,SZ:EX,EY,EZ (issue 21 item 5): strict parsing (exit 2
// naming the option), refused with a 2D map, --tile or --incremental; a point on the navmesh, off
// the level or over empty air told as such (exit 0); every scene of tools/why_scenes.h (one per
// reason a point is lost) through navbake: its stage, cause and verified fix, whose `--set
// param=to` (or the volume removed) puts it on the navmesh, the round trip a user makes; the step
// scene's path between two rooms, its gap and fix.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/navbake_args.h"
#include "test_files.h"
#include "tools/why_scenes.h"

using navtest::run_cmd;
using navtest::TempFile;
using nlohmann::json;

namespace {

bool has(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }
std::string navbake_cmd() { return std::string("'") + NAVBAKE_EXE + "'"; }
std::string q(const std::string& path) { return "'" + path + "'"; }
std::string demo() { return q(std::string(NAV_SOURCE_DIR) + "/assets/demo.obj") + " --config " + q(std::string(NAV_SOURCE_DIR) + "/assets/demo.json"); }

// A closed box x [x0, x1], y [y0, y1], z [z0, z1] as OBJ lines (12 triangles wound outwards);
// `base` is the number of vertices written before it.
std::string box(float x0, float y0, float z0, float x1, float y1, float z1, int base) {
    std::string s;
    char buf[96];
    for (int i = 0; i < 8; ++i) {
        std::snprintf(buf, sizeof buf, "v %g %g %g\n", double(i & 1 ? x1 : x0), double(i & 2 ? y1 : y0), double(i & 4 ? z1 : z0));
        s += buf;
    }
    // corners: bit 0 = x1, bit 1 = y1, bit 2 = z1
    const int quads[6][4] = {{2, 6, 7, 3}, {0, 1, 5, 4}, {0, 4, 6, 2}, {1, 3, 7, 5}, {0, 2, 3, 1}, {4, 5, 7, 6}};
    for (const auto& f : quads) {
        std::snprintf(buf, sizeof buf, "f %d %d %d\nf %d %d %d\n", base + f[0] + 1, base + f[1] + 1, base + f[2] + 1,
                      base + f[0] + 1, base + f[2] + 1, base + f[3] + 1);
        s += buf;
    }
    return s;
}

// Two floors 4 m apart (x [0, 10] and [14, 24]): the middle has no geometry, inside the bounds.
std::string two_floors_obj() { return box(0, 0, 0, 10, 0.1f, 10, 0) + box(14, 0, 0, 24, 0.1f, 10, 8); }

std::string point_arg(const float* p) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%.9g,%.9g,%.9g", double(p[0]), double(p[1]), double(p[2]));
    return buf;
}

// A why scene as files: its level and its config (volumes).
struct SceneFiles {
    TempFile obj, config;
    explicit SceneFiles(const whyscene::Scene& s)
        : obj(".obj", whyscene::scene_obj(s)), config(".json", whyscene::scene_config_json(s)) {}
    std::string args() const { return q(obj.path()) + " --config " + q(config.path()); }
};

const whyscene::Scene& scene(const std::string& name) {
    static const std::vector<whyscene::Scene> all = whyscene::why_scenes();
    for (const whyscene::Scene& s : all)
        if (s.name == name) return s;
    FAIL("no why scene " << name);
    return all.front();
}

struct Run {
    int code = -1;
    json out;
    std::string text;
};

// navbake ARGS --json: the exit code and the report (stderr dropped).
Run run_json(const std::string& args) {
    Run r;
    const auto res = run_cmd(navbake_cmd() + " " + args + " --json", false);
    r.code = res.code;
    r.text = res.out;
    if (res.code == 0) r.out = json::parse(res.out, nullptr, false);
    return r;
}

// `--set NAME=VALUE` with the fix's value exactly as the JSON carries it.
std::string set_flag(const json& fix) { return " --set " + fix["param"].get<std::string>() + "=" + fix["to"].dump(); }

// The fix's flags for a level given by `args`: `--set param=to`, or for a volume removed, a config
// without it (written to `config_out`; `scene` holds the level's volumes).
std::string fixed_args(const std::string& args, const json& fix, const whyscene::Scene* sc, TempFile& config_out) {
    if (fix["param"] != "volume") return args + set_flag(fix);
    REQUIRE(sc != nullptr);
    whyscene::Scene without = *sc;
    const int k = fix["remove_volume"].get<int>();
    REQUIRE((k >= 0 && k < static_cast<int>(without.volumes.size())));
    without.volumes.erase(without.volumes.begin() + k);
    std::ofstream(config_out.path(), std::ios::binary) << whyscene::scene_config_json(without);
    return args.substr(0, args.find(" --config ")) + " --config " + q(config_out.path());
}

// A lost point: the stage and cause expected, a verified fix of `param`, and the round trip: with
// the fix applied (`--set param=to`, or the volume removed) the same point is on the navmesh; the
// level unchanged still loses it. `args` gives the level and its flags.
void check_lost_and_fixed(const std::string& args, const std::string& point, const std::string& stage,
                          const std::string& cause, const std::string& param, const whyscene::Scene* sc = nullptr) {
    CAPTURE(args);
    CAPTURE(point);
    const Run r = run_json(args + " --why " + point);
    REQUIRE(r.code == 0);
    REQUIRE(r.out.contains("why"));
    const json& w = r.out["why"];
    CAPTURE(w.dump(2));
    CHECK(w["on_navmesh"] == false);
    CHECK(w["lost_at"] == stage);
    CHECK(w["cause_kind"] == cause);
    CHECK_FALSE(w["cause"].get<std::string>().empty());
    REQUIRE(w["stages"].is_array());
    REQUIRE_FALSE(w["stages"].empty());
    CHECK(w["stages"].back()["stage"] == stage);
    CHECK(w["stages"].back()["kept"] == false);
    REQUIRE(w["fix"].is_object());
    CHECK(w["fix"]["param"] == param);
    CHECK(w["fix"]["verified"] == true);
    CHECK(w["fix"]["bakes"].get<int>() >= 1);
    CHECK(w["fix"]["effects"].contains("area_after"));
    if (param == "volume") CHECK(w["fix"]["remove_volume"].get<int>() >= 0);
    else CHECK_FALSE(w["fix"].contains("remove_volume"));
    // the round trip
    TempFile config(".json");
    const Run fixed = run_json(fixed_args(args, w["fix"], sc, config) + " --why " + point);
    REQUIRE(fixed.code == 0);
    CAPTURE(fixed.out["why"].dump(2));
    CHECK(fixed.out["why"]["on_navmesh"] == true);
    CHECK(fixed.out["why"]["lost_at"].is_null());
    CHECK(fixed.out["why"]["fix"].is_null());
    CHECK(fixed.out["why"]["island"].get<int>() >= 0);
    // the level unchanged still loses it
    const Run again = run_json(args + " --why " + point);
    REQUIRE(again.code == 0);
    CHECK(again.out["why"]["on_navmesh"] == false);
    CHECK(again.out["why"]["lost_at"] == stage);
}

}  // namespace

TEST_CASE("why cli: --why and --why-path take three finite decimal numbers a point, nothing else") {
    float p[3] = {}, e[3] = {};
    CHECK(navbake::parse_point("--why", "1,2,3", p).is_ok());
    CHECK((p[0] == 1 && p[1] == 2 && p[2] == 3));
    CHECK(navbake::parse_point("--why", "-1.5,0,2e1", p).is_ok());
    CHECK((p[0] == -1.5f && p[1] == 0 && p[2] == 20));
    for (const char* bad : {"", "1,2", "1,2,3,4", "1,,3", ",1,2", "1,2,", "nan,0,0", "0,inf,0", "0,0,-inf", "1e39,0,0",
                            "abc", "1,2,3x", " 1,2,3", "1, 2,3", "+1,2,3", "0x1,2,3", "1;2;3"}) {
        CAPTURE(bad);
        const nav::Status st = navbake::parse_point("--why", bad, p);
        CHECK(st.code == nav::Status::Code::BadInput);
        CHECK(has(st.message, "--why '"));
        CHECK(has(st.message, "expected X,Y,Z, three finite decimal numbers"));
    }
    CHECK(has(navbake::parse_point("--why", "1,nan,2", p).message, "('nan' is not a finite decimal number within float range)"));
    CHECK(navbake::parse_point_pair("1,2,3:4,5,6", p, e).is_ok());
    CHECK((p[2] == 3 && e[0] == 4 && e[2] == 6));
    for (const char* bad : {"1,2,3", "1,2,3:", ":1,2,3", "1,2,3:4,5", "1,2,3:4,5,6:7,8,9", "1,2,3:4,5,nan", "1,2:3,4,5,6"}) {
        CAPTURE(bad);
        const nav::Status st = navbake::parse_point_pair(bad, p, e);
        CHECK(st.code == nav::Status::Code::BadInput);
        CHECK(has(st.message, "--why-path '"));
        CHECK(has(st.message, "expected SX,SY,SZ:EX,EY,EZ"));
    }
}

TEST_CASE("why cli: bad --why / --why-path, a 2D map, --tile or --incremental: exit 2 naming the option") {
    TempFile obj(".obj", two_floors_obj());
    TempFile map(".json", R"({"outline": [[0,0],[20,0],[20,20],[0,20]], "obstacles": []})");
    struct Case {
        std::string args, expect;
    };
    const std::vector<Case> cases = {
        {q(obj.path()) + " --why nan,0,0", "--why 'nan,0,0': expected X,Y,Z"},
        {q(obj.path()) + " --why 1,2", "--why '1,2': expected X,Y,Z"},
        {q(obj.path()) + " --why garbage", "--why 'garbage': expected X,Y,Z"},
        {q(obj.path()) + " --why 1,2,inf", "--why '1,2,inf': expected X,Y,Z"},
        {q(obj.path()) + " --why ''", "--why '': expected X,Y,Z"},
        {q(obj.path()) + " --why-path 1,2,3", "--why-path '1,2,3': expected SX,SY,SZ:EX,EY,EZ"},
        {q(obj.path()) + " --why-path 1,2,3:4,nan,6", "--why-path '1,2,3:4,nan,6': expected SX,SY,SZ:EX,EY,EZ"},
        {q(map.path()) + " --why 1,0,1", "--why does not apply to a 2D map"},
        {q(map.path()) + " --why-path 1,0,1:2,0,2", "--why-path does not apply to a 2D map"},
        {q(obj.path()) + " --set tile_size=16 --tile 0,0 --why 1,0,1", "--why needs the whole bake"},
        {q(obj.path()) + " --set tile_size=16 --tile 0,0 --why-path 1,0,1:2,0,2", "--why-path needs the whole bake"},
        {q(obj.path()) + " --incremental agent_radius=0.9 --why 1,0,1", "--why explains one bake: not with --incremental"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.args);
        const auto r = run_cmd(navbake_cmd() + " " + c.args);
        CHECK(r.code == 2);
        CHECK(has(r.out, "navbake: error: " + c.expect));
        CHECK_FALSE(has(r.out, "walkable area"));  // nothing was baked
    }
    // a negative coordinate is a number, not an option
    for (const char* flag : {" --why -5,0.1,5", " --why=-5,0.1,5"}) {
        CAPTURE(flag);
        const Run neg = run_json(q(obj.path()) + flag);
        CHECK(neg.code == 0);
        CHECK(neg.out["why"]["cause_kind"] == "outside_bounds");
    }
}

TEST_CASE("why cli: a point on the demo's navmesh, off the level and over empty air: told, exit 0") {
    SUBCASE("on the navmesh: the plaza") {
        const Run r = run_json(demo() + " --why 0,0.2,0");
        REQUIRE(r.code == 0);
        const json& w = r.out["why"];
        CAPTURE(w.dump(2));
        CHECK(w["point"] == json{0.0, 0.2f, 0.0});
        CHECK(w["on_navmesh"] == true);
        CHECK(w["lost_at"].is_null());
        CHECK(w["cause_kind"] == "none");
        CHECK(w["island"].get<int>() >= 0);
        CHECK(w.contains("polygon"));
        CHECK(w["fix"].is_null());
        CHECK(w["tile"].is_null());
        const auto t = run_cmd(navbake_cmd() + " " + demo() + " --why 0,0.2,0", false);
        CHECK(t.code == 0);
        CHECK(has(t.out, "why 0.00,0.20,0.00:"));
        CHECK(has(t.out, "on the navmesh: polygon "));
    }
    SUBCASE("outside the level's bounds") {
        const Run r = run_json(demo() + " --why 100,0,100");
        REQUIRE(r.code == 0);
        const json& w = r.out["why"];
        CAPTURE(w.dump(2));
        CHECK(w["on_navmesh"] == false);
        CHECK(w["cause_kind"] == "outside_bounds");
        CHECK(w["fix"].is_null());
        const auto t = run_cmd(navbake_cmd() + " " + demo() + " --why 100,0,100", false);
        CHECK(t.code == 0);
        CHECK(has(t.out, w["cause"].get<std::string>()));
        CHECK(has(t.out, "fix: none ("));
    }
    SUBCASE("empty air: between two floors") {
        TempFile obj(".obj", two_floors_obj());
        const Run r = run_json(q(obj.path()) + " --why 12,0.1,5");
        REQUIRE(r.code == 0);
        const json& w = r.out["why"];
        CAPTURE(w.dump(2));
        CHECK(w["on_navmesh"] == false);
        CHECK(w["cause_kind"] == "no_geometry");
        CHECK(w["fix"].is_null());
        const auto t = run_cmd(navbake_cmd() + " " + q(obj.path()) + " --why 12,0.1,5", false);
        CHECK(t.code == 0);
        CHECK(has(t.out, w["cause"].get<std::string>()));
    }
}

TEST_CASE("why cli: every why scene through navbake --why --json: stage, cause, verified fix, round trip") {
    for (const whyscene::Scene& sc : whyscene::why_scenes()) {
        if (sc.path) continue;
        SUBCASE(sc.name.c_str()) {  // one subcase a scene: a failed REQUIRE stops only its own
            const SceneFiles files(sc);
            check_lost_and_fixed(files.args(), point_arg(sc.point), sc.stage, sc.cause, sc.param, &sc);
        }
    }
}

TEST_CASE("why cli: the demo's narrow doorway, a tiled bake, and the text story") {
    SUBCASE("demo: the narrow doorway (0.9 m), closed by erosion") {
        check_lost_and_fixed(demo(), "6.3,0.2,-6.3", "erode", "erosion", "agent_radius");
    }
    SUBCASE("tiled: the low ceiling in tiles of 16 cells") {
        const whyscene::Scene& sc = scene("low_height");
        const SceneFiles files(sc);
        const std::string args = files.args() + " --set tile_size=16";
        check_lost_and_fixed(args, point_arg(sc.point), sc.stage, sc.cause, sc.param, &sc);
        const Run tiled = run_json(args + " --why " + point_arg(sc.point));
        REQUIRE(tiled.code == 0);
        CHECK(tiled.out["why"]["tile"].is_array());
    }
    SUBCASE("text: the stages, the stage that lost it, the fix with its flag") {
        const whyscene::Scene& sc = scene("low_height");
        const SceneFiles files(sc);
        const auto t = run_cmd(navbake_cmd() + " " + files.args() + " --why " + point_arg(sc.point), false);
        CHECK(t.code == 0);
        CHECK(has(t.out, "\n  input: "));
        CHECK(has(t.out, "\n  rasterize: "));
        CHECK(has(t.out, "\n  lost at filter: "));
        CHECK(has(t.out, "\n  fix: "));
        CHECK(has(t.out, "verified by "));
        CHECK(has(t.out, "--set agent_height="));
    }
}

TEST_CASE("why cli: --why-path between two rooms joined by a step 0.1 m above agent_max_climb") {
    const whyscene::Scene& sc = scene("step");
    REQUIRE(sc.path);
    const SceneFiles files(sc);
    const std::string path = point_arg(sc.point) + ":" + point_arg(sc.end);
    const Run r = run_json(files.args() + " --why-path " + path);
    REQUIRE(r.code == 0);
    REQUIRE(r.out.contains("why_path"));
    const json& w = r.out["why_path"];
    CAPTURE(w.dump(2));
    CHECK(w["reached"] == false);
    REQUIRE(w["islands"].is_array());
    CHECK(w["islands"][0].get<int>() >= 0);
    CHECK(w["islands"][1].get<int>() >= 0);
    CHECK(w["islands"][0] != w["islands"][1]);
    REQUIRE(w["gap"].is_object());
    CHECK(w["gap"]["length"].get<double>() > 0);
    CHECK(std::abs(w["gap"]["a"][0].get<double>()) < 2.0);  // the gap is at the step (x = 0)
    CHECK(std::abs(w["gap"]["b"][0].get<double>()) < 2.0);
    CHECK(w["story_of"] == "gap");
    CHECK(w["lost_at"] == sc.stage);
    CHECK(w["cause_kind"] == sc.cause);
    REQUIRE(w["fix"].is_object());
    CHECK(w["fix"]["param"] == sc.param);
    CHECK(w["fix"]["verified"] == true);
    CHECK(w["fix"]["to"].get<double>() >= 1.0 - 1e-6);
    const Run fixed = run_json(files.args() + set_flag(w["fix"]) + " --why-path " + path);
    REQUIRE(fixed.code == 0);
    CAPTURE(fixed.out["why_path"].dump(2));
    CHECK(fixed.out["why_path"]["reached"] == true);
    CHECK(fixed.out["why_path"]["fix"].is_null());
    CHECK(fixed.out["why_path"]["lost_at"].is_null());
    // text
    const auto t = run_cmd(navbake_cmd() + " " + files.args() + " --why-path " + path, false);
    CHECK(t.code == 0);
    CHECK(has(t.out, "why-path -5.00,0.10,0.00 -> 4.00,1.10,0.00: not reached"));
    CHECK(has(t.out, "  gap: "));
    CHECK(has(t.out, "    lost at filter: "));
    CHECK(has(t.out, "    fix: "));
    CHECK(has(t.out, "--set agent_max_climb="));
}

TEST_CASE("why cli: --why-path through a door too narrow for the agent: reached by a detour, its story and fix") {
    const whyscene::Scene& sc = scene("detour");
    REQUIRE(sc.path);
    const SceneFiles files(sc);
    const std::string path = point_arg(sc.point) + ":" + point_arg(sc.end);
    const Run r = run_json(files.args() + " --why-path " + path);
    REQUIRE(r.code == 0);
    const json& w = r.out["why_path"];
    CAPTURE(w.dump(2));
    CHECK(w["reached"] == true);
    CHECK(w["detour"] == true);
    CHECK(w["detour_point"].is_array());
    CHECK(w["path_length"].get<double>() > 1.5 * w["straight_length"].get<double>());
    CHECK(w["story_of"] == "detour");
    CHECK(w["lost_at"] == sc.stage);
    CHECK(w["cause_kind"] == sc.cause);
    REQUIRE(w["fix"].is_object());
    CHECK(w["fix"]["param"] == sc.param);
    CHECK(w["fix"]["verified"] == true);
    // with the fix the path goes through the door: at least 10% shorter, no detour left
    const Run fixed = run_json(files.args() + set_flag(w["fix"]) + " --why-path " + path);
    REQUIRE(fixed.code == 0);
    CAPTURE(fixed.out["why_path"].dump(2));
    CHECK(fixed.out["why_path"]["reached"] == true);
    CHECK(fixed.out["why_path"]["path_length"].get<double>() <= 0.9 * w["path_length"].get<double>());
    const auto t = run_cmd(navbake_cmd() + " " + files.args() + " --why-path " + path, false);
    CHECK(t.code == 0);
    CHECK(has(t.out, ": reached\n"));
    CHECK(has(t.out, "  a detour: "));
    CHECK(has(t.out, "  the detour's story ("));
    CHECK(has(t.out, "--set agent_radius="));
}
