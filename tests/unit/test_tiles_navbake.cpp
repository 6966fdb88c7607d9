// navbake with tiles: the tiles JSON, --tile X,Y and bad tile parameters (exit 2). That a tiled bake
// without intermediates peaks lower than the solo bake is asserted on the large generated level
// (tests/e2e/large_scene.sh), where the difference is the bake's and not the process's baseline.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/bake/input.h"
#include "test_files.h"
#include "test_scenes.h"

namespace {

std::string navbake_exe() { return std::string("'") + NAVBAKE_EXE + "'"; }

// 60 x 45 m of floor with boxes: 200 x 150 cells, 4 x 3 tiles of 64 cells.
std::string scene_obj() {
    nav::InputMesh m;
    navtest::add_floor(m, 0, 0, 60, 45, 0);
    navtest::add_box(m, 10, 0, 10, 14, 3, 30);
    navtest::add_box(m, 30, 0, 5, 50, 3, 8);
    return navtest::to_obj(m);
}

}  // namespace

TEST_CASE("tiles navbake: --json reports the tile grid, per-tile times and peak memory") {
    navtest::TempFile obj(".obj", scene_obj());
    const auto r = navtest::run_cmd(navbake_exe() + " '" + obj.path() + "' --set tile_size=64 --set threads=2 --json", false);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    REQUIRE(j.contains("tiles"));
    const auto& t = j["tiles"];
    CHECK(t["size"] == 64);
    CHECK(t["cols"] == 4);
    CHECK(t["rows"] == 3);
    CHECK(t["built"].get<int>() + t["empty"].get<int>() == 12);
    CHECK(t["built"].get<int>() >= 9);
    CHECK(t["ms"]["min"].get<double>() <= t["ms"]["median"].get<double>());
    CHECK(t["ms"]["median"].get<double>() <= t["ms"]["max"].get<double>());
    CHECK(t["peak_rss_mib"].get<double>() > 0.0);
    CHECK(j["peak_rss_mib"].get<double>() > 0.0);
    CHECK(j["counts"]["polys"].get<int>() > 0);
    CHECK(j["config"]["tile_size"] == 64);
}

TEST_CASE("tiles navbake: --tile bakes one tile and prints its counts") {
    navtest::TempFile obj(".obj", scene_obj());
    const auto r = navtest::run_cmd(navbake_exe() + " '" + obj.path() + "' --set tile_size=64 --tile 1,0 --json", false);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["tile"]["x"] == 1);
    CHECK(j["tile"]["y"] == 0);
    CHECK(j["tile"]["counts"]["polys"].get<int>() > 0);
    CHECK(j["tiles"]["built"].get<int>() + j["tiles"]["empty"].get<int>() == 1);
    CHECK(j["counts"]["polys"] == j["tile"]["counts"]["polys"]);
}

TEST_CASE("tiles navbake: bad tile parameters exit 2 with a clear message") {
    navtest::TempFile obj(".obj", scene_obj());
    const std::string base = navbake_exe() + " '" + obj.path() + "' ";
    auto r = navtest::run_cmd(base + "--set threads=-2");
    CHECK(r.code == 2);
    CHECK(r.out.find("threads") != std::string::npos);
    r = navtest::run_cmd(base + "--set tile_size=3");
    CHECK(r.code == 2);
    CHECK(r.out.find("at least the tile border of 5 cells") != std::string::npos);
    // above the grid: one tile over the grid, as Recast does (issue 23), not an error
    r = navtest::run_cmd(base + "--set tile_size=999");
    CHECK(r.code == 0);
    r = navtest::run_cmd(base + "--set tile_size=64 --tile 4,0");
    CHECK(r.code == 2);
    CHECK(r.out.find("outside the tile grid of 4 x 3 tiles") != std::string::npos);
    r = navtest::run_cmd(base + "--set tile_size=64 --tile x");
    CHECK(r.code == 2);
    r = navtest::run_cmd(base + "--tile 0,0");
    CHECK(r.code == 2);
    CHECK(r.out.find("needs --set tile_size") != std::string::npos);
}
