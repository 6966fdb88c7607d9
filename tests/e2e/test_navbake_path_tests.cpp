// End-to-end: navbake --path-tests FILE (issue 22 item 5): the table, "path_tests" in --json, exit
// 0 when every case passes, 1 when one fails, 2 on a bad file (naming the file, case and field).
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <string>

#include "core/bake/input.h"
#include "test_files.h"
#include "test_scenes.h"

using navtest::run_cmd;
using navtest::TempFile;

namespace {

std::string navbake() { return std::string("'") + NAVBAKE_EXE + "'"; }

// A 20 x 20 m floor; the config stamps water on x 8..12, z 0..14: from (2, 5) to (18, 5) the
// straight way crosses it (16 m), round it is about 26 m.
std::string floor_obj() {
    nav::InputMesh m;
    navtest::add_floor(m, 0, 0, 20, 20, 0);
    return navtest::to_obj(m);
}
const char* kWaterConfig =
    R"({"volumes": [{"verts": [[8, 0, 0], [12, 0, 0], [12, 0, 14], [8, 0, 14]], "hmin": -1, "hmax": 1, "area": "water"}]})";

const char* kPassing = R"({"cases": [
  {"name": "straight", "start": [2, 0, 5], "end": [18, 0, 5], "expect": {"reached": true, "max_length": 17, "through_area": "water"}},
  {"name": "round the water", "start": [2, 0, 5], "end": [18, 0, 5], "filter": {"costs": {"water": 10}},
   "expect": {"max_length": 30, "avoid_area": "water", "through_link": false}},
  {"name": "off the floor", "start": [2, 0, 5], "end": [40, 0, 5], "expect": {"reached": false}}]})";

const char* kFailing = R"({"cases": [
  {"name": "straight", "start": [2, 0, 5], "end": [18, 0, 5], "expect": {"max_length": 17}},
  {"name": "no water", "start": [2, 0, 5], "end": [18, 0, 5], "expect": {"avoid_area": ["water"]}}]})";

bool has(const std::string& s, const std::string& sub) { return s.find(sub) != std::string::npos; }

}  // namespace

TEST_CASE("navbake --path-tests: all pass: exit 0, the table, path_tests in --json") {
    TempFile obj(".obj", floor_obj());
    TempFile cfg(".json", kWaterConfig);
    TempFile tests(".json", kPassing);
    const std::string cmd = navbake() + " '" + obj.path() + "' --config '" + cfg.path() + "' --path-tests '" + tests.path() + "'";
    const auto t = run_cmd(cmd, false);
    CHECK(t.code == 0);
    CHECK(has(t.out, "path tests " + tests.path() + ": 3 cases, 3 passed, 0 failed"));
    CHECK(has(t.out, "case"));
    CHECK(has(t.out, "expected"));
    CHECK(has(t.out, "reached, <= 17.0 m, through water"));
    CHECK(has(t.out, "reached, <= 30.0 m, avoid water, no link"));
    CHECK_FALSE(has(t.out, "FAIL"));

    const auto j = run_cmd(cmd + " --json", false);
    REQUIRE(j.code == 0);
    const auto r = nlohmann::json::parse(j.out);
    const auto& p = r["path_tests"];
    CHECK(p["passed"] == 3);
    CHECK(p["failed"] == 0);
    REQUIRE(p["items"].size() == 3);
    CHECK(p["items"][0]["name"] == "straight");
    CHECK(p["items"][0]["pass"] == true);
    CHECK(p["items"][0]["reached"] == true);
    CHECK(p["items"][0]["length"].get<double>() == doctest::Approx(16.0).epsilon(0.02));
    CHECK(p["items"][0]["areas"].dump() == R"(["water","ground"])");  // ascending ids: water 1, ground 63
    CHECK(p["items"][1]["length"].get<double>() > 24.0);
    CHECK(p["items"][2]["reached"] == false);
    CHECK(p["items"][2]["failures"].empty());
}

TEST_CASE("navbake --path-tests: a failing case: exit 1, FAIL with the reason") {
    TempFile obj(".obj", floor_obj());
    TempFile cfg(".json", kWaterConfig);
    TempFile tests(".json", kFailing);
    const std::string cmd = navbake() + " '" + obj.path() + "' --config '" + cfg.path() + "' --path-tests '" + tests.path() + "'";
    const auto t = run_cmd(cmd, false);
    CHECK(t.code == 1);
    CHECK(has(t.out, "2 cases, 1 passed, 1 failed"));
    CHECK(has(t.out, "PASS"));
    CHECK(has(t.out, "FAIL: crosses water (1) (avoid_area)"));
    const auto j = run_cmd(cmd + " --json", false);
    CHECK(j.code == 1);
    const auto r = nlohmann::json::parse(j.out);  // the whole report still
    CHECK(r["path_tests"]["failed"] == 1);
    CHECK(r["path_tests"]["items"][1]["pass"] == false);
    CHECK(r["path_tests"]["items"][1]["failures"][0] == "crosses water (1) (avoid_area)");
    CHECK(r.contains("counts"));
}

TEST_CASE("navbake --path-tests: a bad file exits 2 naming the file, the case and the field") {
    TempFile obj(".obj", floor_obj());
    TempFile bad(".json", R"({"cases": [{"start": [1, 2, 3], "end": [1, 2, 3]}, {"start": [1, 2], "end": [1, 2, 3]}]})");
    auto r = run_cmd(navbake() + " '" + obj.path() + "' --path-tests '" + bad.path() + "'");
    CHECK(r.code == 2);
    CHECK(has(r.out, "--path-tests " + bad.path() + ": cases[1].start: expected 3 numbers"));
    TempFile lava(".json", R"([{"start": [1, 2, 3], "end": [1, 2, 3], "expect": {"avoid_area": "lava"}}])");
    r = run_cmd(navbake() + " '" + obj.path() + "' --path-tests '" + lava.path() + "'");
    CHECK(r.code == 2);
    CHECK(has(r.out, "cases[0].expect.avoid_area: unknown area \"lava\""));
    r = run_cmd(navbake() + " '" + obj.path() + "' --path-tests /nonexistent/tests.json");
    CHECK(r.code == 2);
    CHECK(has(r.out, "--path-tests /nonexistent/tests.json: file not found, expected a path test file"));
    TempFile junk(".json", "{\"cases\": [");
    r = run_cmd(navbake() + " '" + obj.path() + "' --path-tests '" + junk.path() + "'");
    CHECK(r.code == 2);
    CHECK(has(r.out, "not valid JSON"));
    // the names resolve against the config's areas: "mud" is known with a config that has it
    TempFile mud_cfg(".json", R"({"areas": [{"name": "ground", "id": 63}, {"name": "mud", "id": 7}]})");
    TempFile mud(".json", R"([{"start": [2, 0, 5], "end": [18, 0, 5], "expect": {"avoid_area": "mud"}}])");
    r = run_cmd(navbake() + " '" + obj.path() + "' --path-tests '" + mud.path() + "'");
    CHECK(r.code == 2);
    r = run_cmd(navbake() + " '" + obj.path() + "' --config '" + mud_cfg.path() + "' --path-tests '" + mud.path() + "'");
    CHECK(r.code == 0);
}
