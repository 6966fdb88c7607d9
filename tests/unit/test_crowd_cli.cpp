// navbake --crowd (issue 36, item 5): the scenario's figures as JSON, and bad flags refused with
// the flag named, before anything is baked.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "test_files.h"
#include "test_scenes.h"

namespace {

std::string navbake() { return std::string("'") + NAVBAKE_EXE + "'"; }
bool has(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

// A 30 x 30 m floor.
std::string floor_obj() { return "v 0 0 0\nv 0 0 30\nv 30 0 30\nv 30 0 0\nf 1 2 3 4\n"; }

}  // namespace

TEST_CASE("navbake --crowd: the circle swap's figures in the report") {
    const navtest::TempFile obj(".obj", floor_obj());
    const navtest::RunResult r =
        navtest::run_cmd(navbake() + " '" + obj.path() + "' --crowd circle --agents 16 --ticks 600 --seed 3 --json", false);
    REQUIRE_MESSAGE(r.code == 0, r.out);
    const nlohmann::json j = nlohmann::json::parse(r.out);
    REQUIRE(j.contains("crowd"));
    const nlohmann::json& c = j["crowd"];
    CHECK(c["scenario"] == "circle");
    CHECK(c["agents"] == 16);
    CHECK(c["reached"] == 16);
    CHECK(c["ticks"].get<int>() < 600);  // ends once every agent arrived
    CHECK(c["off_mesh_agent_ticks"] == 0);
    CHECK(c["overlap_agent_ticks"] == 0);
    CHECK(c["min_pair_distance"].get<double>() > 0.9 * 2 * 0.6);
    CHECK(c["time_to_goal_s"]["max"].get<double>() > 0);
    CHECK(c["time_to_goal_s"]["mean"].get<double>() <= c["time_to_goal_s"]["max"].get<double>());
    CHECK(c["ms_per_tick"].get<double>() > 0);
    for (const char* reason : {"blocked_by_neighbours", "pinned_against_wall", "corridor_lost", "goal_unreachable",
                               "waiting_at_link", "waiting_for_path", "oscillating", "no_progress"})
        CHECK(c["stuck"][reason] == 0);
    // The same seed, the same run.
    const navtest::RunResult again =
        navtest::run_cmd(navbake() + " '" + obj.path() + "' --crowd circle --agents 16 --ticks 600 --seed 3 --json", false);
    REQUIRE(again.code == 0);
    const nlohmann::json j2 = nlohmann::json::parse(again.out);
    CHECK(j2["crowd"]["ticks"] == c["ticks"]);
    CHECK(j2["crowd"]["time_to_goal_s"]["mean"] == c["time_to_goal_s"]["mean"]);
}

TEST_CASE("navbake --crowd: bad flags name themselves and exit 2 before baking") {
    const navtest::TempFile obj(".obj", floor_obj());
    const std::string base = navbake() + " '" + obj.path() + "'";
    struct Case {
        std::string flags, expect;
    };
    const Case cases[] = {
        {"--crowd stampede", "unknown scenario \"stampede\", expected circle, corridor, doorway or random"},
        {"--crowd circle --agents 10000000", "--agents: 10000000 agents, expected 1..100000"},
        {"--crowd circle --agents 0", "--agents: 0 agents"},
        {"--crowd circle --ticks -5", "--ticks: -5"},
        {"--agents 5", "--agents: needs --crowd"},
        {"--ticks 5", "--ticks: needs --crowd"},
        {"--seed 4", "--seed: needs --paths or --crowd"},
        {"--crowd circle --agent-type ogre", "the bake has no agent types"},
        {"--crowd circle --tile 0,0 --set tile_size=32", "not with --tile"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.flags);
        const navtest::RunResult r = navtest::run_cmd(base + " " + c.flags);
        CHECK(r.code != 0);
        CHECK_MESSAGE(has(r.out, c.expect), r.out);
    }
}
