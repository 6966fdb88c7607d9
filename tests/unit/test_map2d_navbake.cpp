// navbake on 2D maps: .json maps and Polyanya .mesh files by extension, path_mode and
// --compare-optimal, exit code 2 on bad files.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>

#include "test_files.h"
#include "test_scenes.h"

using navtest::run_cmd;
using navtest::TempFile;

namespace {

std::string navbake() { return std::string("'") + NAVBAKE_EXE + "'"; }

const char* kMap = R"({"outline": [[0,0],[20,0],[20,20],[0,20]],
  "obstacles": [[[5,2],[7,2],[7,18],[5,18]], [[12,0],[14,0],[14,15],[12,15]]]})";

}  // namespace

TEST_CASE("navbake map2d: a .json map, optimal paths never longer than the funnel") {
    TempFile map(".json", kMap);
    auto r = run_cmd(navbake() + " '" + map.path() + "' --json --paths 200 --seed 3 --compare-optimal", false);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["mesh"]["kind"] == "map2d");
    CHECK(j["counts"]["polys"].get<int>() > 0);
    CHECK(j["counts"]["free_area"].get<double>() == doctest::Approx(400.0 - 32.0 - 30.0));
    CHECK(j["paths"]["path_mode"] == "funnel");
    CHECK(j["paths"]["found"] == 200);
    int shorter = 0;
    for (const auto& it : j["paths"]["items"]) {
        const double f = it["length_funnel"], o = it["length_optimal"];
        CHECK(o <= f * (1 + 1e-5) + 1e-4);
        shorter += o < f * (1 - 1e-4);
    }
    MESSAGE("optimal shorter than the funnel in " << shorter << " of 200 pairs");
    // optimal mode: the items' lengths are Polyanya's
    r = run_cmd(navbake() + " '" + map.path() + "' --json --paths 50 --seed 3 --set path_mode=optimal", false);
    REQUIRE(r.code == 0);
    const auto k = nlohmann::json::parse(r.out);
    CHECK(k["paths"]["path_mode"] == "optimal");
    CHECK(k["paths"]["found"] == 50);
    CHECK(!k["paths"]["items"][0].contains("length_funnel"));
    // the text report names the mode
    r = run_cmd(navbake() + " '" + map.path() + "' --paths 10 --set path_mode=optimal");
    CHECK(r.code == 0);
    CHECK(r.out.find("10 of 10 reached") != std::string::npos);
}

TEST_CASE("navbake --compare-optimal: lengths in xz and 3D, named, summed, and printed in text mode") {
    TempFile map(".json", kMap);
    auto r = run_cmd(navbake() + " '" + map.path() + "' --json --paths 40 --seed 5 --compare-optimal", false);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    const auto& c = j["paths"]["compare"];
    double sf = 0, so = 0;
    for (const auto& it : j["paths"]["items"]) {
        // a flat map: xz and 3D lengths agree
        CHECK(it["length_funnel_xz"].get<double>() == doctest::Approx(it["length_funnel"].get<double>()).epsilon(1e-5));
        CHECK(it["length_optimal_xz"].get<double>() == doctest::Approx(it["length_optimal"].get<double>()).epsilon(1e-5));
        sf += it["length_funnel_xz"].get<double>(), so += it["length_optimal_xz"].get<double>();
    }
    CHECK(c["pairs"] == 40);
    CHECK(c["length_funnel_xz"].get<double>() == doctest::Approx(sf));
    CHECK(c["length_optimal_xz"].get<double>() == doctest::Approx(so));
    CHECK(so <= sf);
    CHECK(c["ratio_xz_total"].get<double>() == doctest::Approx(sf / so));
    CHECK(c["ratio_xz_max"].get<double>() >= 1.0);
    // text mode prints the same sums and the first pairs' lengths
    r = run_cmd(navbake() + " '" + map.path() + "' --paths 40 --seed 5 --compare-optimal");
    REQUIRE(r.code == 0);
    char want[128];
    std::snprintf(want, sizeof want, "xz length funnel %.3f m, optimal %.3f m", sf, so);
    INFO(r.out);
    CHECK(r.out.find(want) != std::string::npos);
    CHECK(r.out.find("  pair 0: xz funnel ") != std::string::npos);
    CHECK(r.out.find("  pair 19: ") != std::string::npos);
    CHECK(r.out.find("  pair 20: ") == std::string::npos);
    CHECK(r.out.find("... 20 more pairs") != std::string::npos);
}

TEST_CASE("navbake --compare-optimal on a sloped 3D bake: optimal is shortest in xz, 3D lengths named apart") {
    const std::string obj = navtest::shared_mesh_or_skip("undulating.obj");
    if (obj.empty()) return;
    auto r = run_cmd(navbake() + " '" + obj + "' --json --paths 60 --seed 2 --compare-optimal", false);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    int both = 0, sloped = 0;
    for (const auto& it : j["paths"]["items"]) {
        const double fx = it["length_funnel_xz"], ox = it["length_optimal_xz"], f3 = it["length_funnel"], o3 = it["length_optimal"];
        if (fx == 0 || ox == 0) continue;
        ++both;
        CHECK(ox <= fx * (1 + 1e-5) + 1e-4);        // Polyanya minimises the xz length
        CHECK(f3 >= fx * (1 - 1e-6));               // a 3D polyline is never shorter than its projection
        CHECK(o3 >= ox * (1 - 1e-6));
        sloped += f3 > fx * (1 + 1e-4);
    }
    CHECK(both > 30);
    CHECK(sloped > 0);  // the terrain is not flat: the two measures differ
    CHECK(j["paths"]["compare"]["pairs"] == both);
}

TEST_CASE("navbake map2d: --mesh-out writes Polyanya's format, which navbake reads back") {
    TempFile map(".json", kMap);
    TempFile out(".mesh");
    auto r = run_cmd(navbake() + " '" + map.path() + "' --json --mesh-out '" + out.path() + "'", false);
    REQUIRE(r.code == 0);
    const auto a = nlohmann::json::parse(r.out);
    r = run_cmd(navbake() + " '" + out.path() + "' --json --paths 50 --compare-optimal", false);
    REQUIRE(r.code == 0);
    const auto b = nlohmann::json::parse(r.out);
    CHECK(b["counts"]["polys"] == a["counts"]["polys"]);
    CHECK(b["counts"]["verts"] == a["counts"]["verts"]);
    CHECK(b["paths"]["found"] == 50);
}

TEST_CASE("navbake map2d: .mesh input and bad files exit 2 with the file named") {
    TempFile mesh(".mesh", "mesh\n2\n4 2\n0 0 3 0 1 -1\n1 0 2 0 -1\n1 1 3 0 1 -1\n0 1 2 1 -1\n3 0 1 2 1 -1 -1\n3 0 2 3 -1 0 -1\n");
    auto r = run_cmd(navbake() + " '" + mesh.path() + "' --json --paths 20 --compare-optimal", false);
    INFO(r.out);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["mesh"]["kind"] == "polyanya_mesh");
    CHECK(j["counts"]["polys"] == 2);
    TempFile bad(".mesh", "mesh\n2\n3 1\n0 0 1 0\n1 0 1 0\n");
    r = run_cmd(navbake() + " '" + bad.path() + "'");
    CHECK(r.code == 2);
    CHECK(r.out.find(bad.path() + ":5: file ends") != std::string::npos);
    TempFile badmap(".json", R"({"outline": [[0,0],[2,0],[0,2],[3,3]]})");
    r = run_cmd(navbake() + " '" + badmap.path() + "'");
    CHECK(r.code == 2);
    CHECK(r.out.find("self-intersecting") != std::string::npos);
    TempFile outside(".json", R"({"outline": [[0,0],[4,0],[4,4],[0,4]], "obstacles": [[[5,5],[6,5],[6,6]]]})");
    r = run_cmd(navbake() + " '" + outside.path() + "'");
    CHECK(r.code == 2);
    CHECK(r.out.find("obstacle 0 lies entirely outside the outline") != std::string::npos);
    r = run_cmd(navbake() + " '" + outside.path() + "' --set path_mode=fastest");
    CHECK(r.code == 2);
}
