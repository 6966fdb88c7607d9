// Path test files (issue 22 item 5): the parser (core/formats/path_tests_json.h) on good and bad
// files, and the evaluator (core/runtime/path_tests.h) on small scenes whose answers are known: a
// floor with a water strip (the path crosses it at cost 1, goes round at cost 10) and two
// platforms joined only by an off-mesh link.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "core/bake/areas.h"
#include "core/formats/path_tests_json.h"
#include "core/pipeline/pipeline.h"
#include "core/runtime/navmesh.h"
#include "core/runtime/path_tests.h"
#include "core/runtime/query.h"

#include "test_scenes.h"
#ifdef NAV_HAVE_RENDER
#include <nlohmann/json.hpp>

#include "app/navdebug/path_tests_panel.h"
#endif

using namespace nav;

namespace {

Status parse(const std::string& text, std::vector<PathTestCase>& out) {
    return parse_path_tests(text, "tests.json", AreaTable::defaults(), out);
}

// The message of a file that must be refused.
std::string refused(const std::string& text) {
    std::vector<PathTestCase> out;
    const Status st = parse(text, out);
    CHECK_FALSE(st.is_ok());
    CHECK(st.code == Status::Code::BadInput);
    return st.message;
}

// A 20 x 20 m floor with a water strip x in [8, 12], z in [0, 14] (as test_area_types.cpp): from
// (2, 5) to (18, 5) the straight way crosses 4 m of water (16 m), round it is about 26 m.
struct WaterScene {
    Pipeline p;
    std::shared_ptr<const Bake> bake;
    WaterScene() {
        InputMesh m;
        navtest::add_floor(m, 0, 0, 20, 20, 0);
        REQUIRE(p.set_mesh(std::move(m)));
        ConvexVolume v;
        v.verts = {8, 0, 0, 12, 0, 0, 12, 0, 14, 8, 0, 14};
        v.hmin = -1, v.hmax = 1, v.area = kAreaWater;
        REQUIRE(p.set_input(&nav::BakeInputs::volumes, {v}));
        REQUIRE(p.run());
        bake = p.snapshot();
        REQUIRE(bake->navmesh);
    }
};

// One 4 x 4 m square polygon at (x0, z0) per entry, all in one tile, no shared edges.
std::shared_ptr<NavTile> squares_tile(const std::vector<std::pair<float, float>>& corners) {
    auto t = std::make_shared<NavTile>();
    t->walkable_climb = 0.9f, t->walkable_height = 2.0f, t->walkable_radius = 0.6f;
    t->poly_first.push_back(0);
    for (auto [x0, z0] : corners) {
        const uint32_t b = static_cast<uint32_t>(t->verts.size() / 3);
        const float x1 = x0 + 4, z1 = z0 + 4;
        t->verts.insert(t->verts.end(), {x0, 0, z0, x0, 0, z1, x1, 0, z1, x1, 0, z0});
        for (uint32_t j = 0; j < 4; ++j) t->edge_vert.push_back(b + j), t->edge_nei.push_back(kNoPoly);
        t->poly_first.push_back(static_cast<uint32_t>(t->edge_vert.size()));
        t->areas.push_back(kWalkableArea);
        t->flags.push_back(kPolyFlagWalk);
    }
    build_tile_bvtree(*t);
    return t;
}

PathTestCase make_case(float sx, float sz, float ex, float ez) {
    PathTestCase c;
    c.name = "t";
    c.start[0] = sx, c.start[2] = sz, c.end[0] = ex, c.end[2] = ez;
    c.filter = make_query_filter(AreaTable::defaults());
    return c;
}

PathTestResult run(NavQuery& q, const PathTestCase& c) {
    const AreaTable areas = AreaTable::defaults();
    PathTestOptions o;
    o.area_name = area_table_namer;
    o.area_name_ctx = &areas;
    PathTestResult r;
    const Status st = evaluate_path_test(q, c, o, r);
    REQUIRE_MESSAGE(st.is_ok(), st.message);
    CHECK(r.pass == r.failures.empty());
    return r;
}

bool has_failure(const PathTestResult& r, const std::string& part) {
    for (const std::string& f : r.failures)
        if (f.find(part) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_CASE("path tests: a good file, every field") {
    std::vector<PathTestCase> cases;
    const Status st = parse(R"({"cases": [
      {"name": "round the water", "start": [2, 0, 5], "end": [18, 0.5, 5],
       "filter": {"include": ["walk", "swim"], "exclude": 4, "costs": {"water": 10, "7": 2.5}},
       "expect": {"reached": true, "max_length": 30.5, "through_area": "ground", "avoid_area": ["water", "road"],
                  "through_link": 7, "avoid_link": [1, 2]}},
      {"start": [1, 2, 3], "end": [4, 5, 6], "expect": {"reached": false, "through_link": false}},
      {"start": [1, 2, 3], "end": [4, 5, 6], "expect": {"through_link": true, "avoid_link": 9}}]})",
                            cases);
    REQUIRE_MESSAGE(st.is_ok(), st.message);
    REQUIRE(cases.size() == 3);
    const PathTestCase& a = cases[0];
    CHECK(a.name == "round the water");
    CHECK(a.end[1] == 0.5f);
    CHECK(a.filter.include_flags == (kPolyFlagWalk | kPolyFlagSwim));
    CHECK(a.filter.exclude_flags == (4 | kPolyFlagDisabled));  // disabled polygons stay excluded
    CHECK(a.filter.area_cost[kAreaWater] == 10.0f);
    CHECK(a.filter.area_cost[7] == 2.5f);
    CHECK(a.filter.area_cost[kAreaRoad] == 1.0f);
    CHECK(a.expect.reached);
    CHECK(a.expect.max_length == 30.5f);
    CHECK(a.expect.through_areas == std::vector<uint8_t>{kWalkableArea});
    CHECK(a.expect.avoid_areas == std::vector<uint8_t>{kAreaWater, kAreaRoad});
    CHECK(a.expect.through_link == PathTestExpect::Link::UserId);
    CHECK(a.expect.through_link_id == 7);
    CHECK(a.expect.avoid_links == std::vector<uint32_t>{1, 2});
    CHECK(cases[1].name == "case 1");  // unnamed: its index
    CHECK_FALSE(cases[1].expect.reached);
    CHECK(cases[1].expect.max_length < 0);
    CHECK(cases[1].expect.through_link == PathTestExpect::Link::None);
    CHECK(cases[1].filter.include_flags == 0xffff);
    CHECK(cases[2].expect.reached);  // default
    CHECK(cases[2].expect.through_link == PathTestExpect::Link::Some);
    CHECK(cases[2].expect.avoid_links == std::vector<uint32_t>{9});

    // a bare list (ARCHITECTURE's "a JSON list") reads the same
    std::vector<PathTestCase> bare;
    REQUIRE(parse(R"([{"start": [1, 2, 3], "end": [4, 5, 6]}])", bare));
    CHECK(bare.size() == 1);
    std::vector<PathTestCase> none;
    REQUIRE(parse(R"({"cases": []})", none));
    CHECK(none.empty());
}

TEST_CASE("path tests: bad files name the file, the case and the field") {
    CHECK(refused(R"({"cases": [{"start": [1, 2, 3], "end": [4, 5, 6]}, {"start": [1, 2], "end": [1, 2, 3]}]})") ==
          "tests.json: cases[1].start: expected 3 numbers [x, y, z]");
    CHECK(refused(R"({"cases": [{"start": [1, 2, 3]}]})") == "tests.json: cases[0].end: missing (expected 3 numbers [x, y, z])");
    CHECK(refused(R"({"cases": [{"start": [1, 2, 3], "end": [1e7, 0, 0]}]})").find("cases[0].end: coordinate") !=
          std::string::npos);
    CHECK(refused(R"({"cases": [{"start": [1, "a", 3], "end": [1, 2, 3]}]})").find("cases[0].start: expected 3 numbers") !=
          std::string::npos);
    CHECK(refused(R"({"cases": [{"start": [1, 2, 3], "end": [1, 2, 3], "expect": {"avoid_area": ["lava"]}}]})")
              .find("tests.json: cases[0].expect.avoid_area[0]: unknown area \"lava\" (expected ground") == 0);
    CHECK(refused(R"({"cases": [{"start": [1, 2, 3], "end": [1, 2, 3], "filter": {"costs": {"lava": 2}}}]})")
              .find("tests.json: cases[0].filter.costs.lava: unknown area 'lava'") == 0);
    CHECK(refused(R"({"cases": [{"start": [1, 2, 3], "end": [1, 2, 3], "filter": {"costs": {"water": -1}}}]})") ==
          "tests.json: cases[0].filter.costs.water: expected a finite cost >= 0, got -1");
    CHECK(refused(R"({"cases": [{"start": [1, 2, 3], "end": [1, 2, 3], "filter": {"include": ["fly"]}}]})")
              .find("tests.json: cases[0].filter.include[0]: unknown flag \"fly\"") == 0);
    CHECK(refused(R"({"cases": [{"start": [1, 2, 3], "end": [1, 2, 3], "expect": {"max_length": -2}}]})")
              .find("tests.json: cases[0].expect.max_length: expected a finite length >= 0") == 0);
    CHECK(refused(R"({"cases": [{"start": [1, 2, 3], "end": [1, 2, 3], "expect": {"reached": 1}}]})") ==
          "tests.json: cases[0].expect.reached: expected true or false");
    CHECK(refused(R"({"cases": [{"start": [1, 2, 3], "end": [1, 2, 3], "expect": {"through_link": -3}}]})")
              .find("tests.json: cases[0].expect.through_link: expected a link user id") == 0);
    CHECK(refused(R"({"cases": [{"start": [1, 2, 3], "end": [1, 2, 3], "expect": {"through_area": "water", "avoid_area": "water"}}]})") ==
          "tests.json: cases[0].expect: area 1 is in both through_area and avoid_area");
    CHECK(refused(R"({"cases": [{"start": [1, 2, 3], "end": [1, 2, 3], "expect": {"max_len": 3}}]})")
              .find("tests.json: cases[0].expect: unknown key \"max_len\" (known: reached, max_length") == 0);
    CHECK(refused(R"({"cases": [{"start": [1, 2, 3], "end": [1, 2, 3], "from": 1}]})")
              .find("tests.json: cases[0]: unknown key \"from\"") == 0);
    CHECK(refused(R"({"cases": [3]})").find("tests.json: cases[0]: expected an object") == 0);
    CHECK(refused(R"({"tests": []})") == "tests.json: expected {\"cases\": [...]} or a list of cases");
    CHECK(refused(R"({"cases": {}})") == "tests.json: cases: expected a list of cases");
    CHECK(refused(R"({"cases": [)").find("tests.json: not valid JSON") == 0);
    CHECK(refused("").find("tests.json: not valid JSON") == 0);
}

TEST_CASE("path tests: a case written out reads back the same; appending keeps the cases") {
    const AreaTable areas = AreaTable::defaults();
    PathTestCase c = make_case(1.5f, 2.25f, -3, 4);
    c.name = "written";
    c.filter = make_query_filter(areas, kPolyFlagWalk | kPolyFlagDoor, kPolyFlagSwim | kPolyFlagDisabled);
    c.filter.area_cost[kAreaWater] = 10;
    c.expect.reached = true;
    c.expect.max_length = path_test_length_limit(20.0f);
    c.expect.avoid_areas = {kAreaWater};
    c.expect.through_link = PathTestExpect::Link::UserId;
    c.expect.through_link_id = 12;
    CHECK(c.expect.max_length == doctest::Approx(21.0f));
    CHECK(path_test_length_limit(10.01f) == doctest::Approx(10.6f));  // 10.5105 up to the next 0.1
    const std::string text = path_test_case_text(c, areas);
    CHECK(text.find("\"costs\": {\n      \"water\": 10") != std::string::npos);
    std::vector<PathTestCase> back;
    REQUIRE(parse("[" + text + "]", back));
    REQUIRE(back.size() == 1);
    CHECK(back[0].name == "written");
    CHECK(back[0].start[2] == 2.25f);
    CHECK(back[0].filter.include_flags == c.filter.include_flags);
    CHECK(back[0].filter.exclude_flags == c.filter.exclude_flags);
    for (int a = 0; a < kMaxAreas; ++a) CHECK(back[0].filter.area_cost[a] == c.filter.area_cost[a]);
    CHECK(back[0].expect.max_length == c.expect.max_length);
    CHECK(back[0].expect.avoid_areas == c.expect.avoid_areas);
    CHECK(back[0].expect.through_link_id == 12);

    const std::string dir = (std::filesystem::temp_directory_path() / "navtests_path_tests").string();
    std::filesystem::create_directories(dir);
    const std::string file = dir + "/cases.json";
    std::filesystem::remove(file);
    REQUIRE(append_path_test(file, c, areas));  // a new file
    c.name = "second";
    REQUIRE(append_path_test(file, c, areas));
    std::vector<PathTestCase> two;
    REQUIRE(load_path_tests(file, areas, two));
    REQUIRE(two.size() == 2);
    CHECK(two[0].name == "written");
    CHECK(two[1].name == "second");
    // a broken file is left alone
    { std::ofstream(file) << R"({"cases": [{"start": [1]}]})"; }
    const Status st = append_path_test(file, c, areas);
    CHECK(st.message == file + ": cases[0].start: expected 3 numbers [x, y, z]");
    std::ifstream in(file);
    std::string kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(kept == R"({"cases": [{"start": [1]}]})");
    CHECK(load_path_tests(dir + "/missing.json", areas, two).message.find("missing.json") != std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST_CASE("path tests: water crossed at cost 1 fails avoid_area water, passes at cost 10; max length") {
    WaterScene s;
    NavQuery q;
    q.init(s.bake->navmesh.get());
    PathTestCase c = make_case(2, 5, 18, 5);
    c.expect.avoid_areas = {kAreaWater};
    c.expect.max_length = 17;
    PathTestResult r = run(q, c);
    CHECK(r.reached);
    CHECK(r.length == doctest::Approx(16.0f).epsilon(0.01));
    CHECK(std::find(r.areas.begin(), r.areas.end(), kAreaWater) != r.areas.end());
    CHECK_FALSE(r.pass);
    REQUIRE(r.failures.size() == 1);
    CHECK(r.failures[0] == "crosses water (1) (avoid_area)");

    c.filter.area_cost[kAreaWater] = 10;  // round the strip: no water, but longer than 17 m
    r = run(q, c);
    CHECK(r.reached);
    CHECK(std::find(r.areas.begin(), r.areas.end(), kAreaWater) == r.areas.end());
    CHECK(r.length > 24.0f);
    CHECK(r.failures.size() == 1);
    CHECK(has_failure(r, "over max_length 17.00 m"));
    c.expect.max_length = 30;
    c.expect.through_areas = {kWalkableArea};
    r = run(q, c);
    CHECK(r.pass);

    // through_area water with the cost 10 filter: it goes round, so that fails
    c.expect.through_areas = {kAreaWater};
    c.expect.avoid_areas.clear();
    r = run(q, c);
    CHECK_FALSE(r.pass);
    CHECK(has_failure(r, "does not cross water (1) (through_area)"));
}

TEST_CASE("path tests: unreachable expected, and an end off the mesh") {
    WaterScene s;
    NavQuery q;
    q.init(s.bake->navmesh.get());
    // only swim polygons: the ground start is off the mesh under this filter
    PathTestCase c = make_case(2, 5, 18, 5);
    c.filter = make_query_filter(AreaTable::defaults(), kPolyFlagSwim);
    PathTestResult r = run(q, c);
    CHECK_FALSE(r.reached);
    CHECK_FALSE(r.start_on_mesh);
    CHECK(has_failure(r, "the start is not on the navmesh"));
    c.expect.reached = false;
    CHECK(run(q, c).pass);

    // reachable but expected unreachable
    PathTestCase d = make_case(2, 5, 18, 5);
    d.expect.reached = false;
    r = run(q, d);
    CHECK(r.reached);
    CHECK(has_failure(r, "reached, expected unreachable"));
    // an end far off the floor
    PathTestCase e = make_case(2, 5, 40, 5);
    r = run(q, e);
    CHECK_FALSE(r.end_on_mesh);
    CHECK(has_failure(r, "the end is not on the navmesh"));
}

TEST_CASE("path tests: links taken and not taken") {
    OffMeshLink l;
    l.start[0] = 3.5f, l.start[2] = 2;
    l.end[0] = 8.5f, l.end[2] = 2;
    l.radius = 0.4f;
    l.area = kAreaJump;
    l.flags = kPolyFlagJump;
    l.user_id = 7;
    NavMesh m;
    const std::vector<std::shared_ptr<const NavTile>> tiles = {squares_tile({{0, 0}, {8, 0}})};
    const std::vector<OffMeshLink> links = {l};
    REQUIRE(build_navmesh(tiles, nullptr, m, links));
    REQUIRE(m.nlinks_connected == 1);
    NavQuery q;
    q.init(&m);

    PathTestCase c = make_case(0.5f, 2, 11.5f, 2);
    c.expect.through_link = PathTestExpect::Link::UserId;
    c.expect.through_link_id = 7;
    c.expect.through_areas = {kAreaJump};
    PathTestResult r = run(q, c);
    CHECK(r.reached);
    CHECK(r.links == std::vector<uint32_t>{7});
    CHECK(r.pass);
    CHECK(r.length == doctest::Approx(11.0f).epsilon(1e-3));

    c.expect.through_link = PathTestExpect::Link::None;
    r = run(q, c);
    CHECK(has_failure(r, "takes 1 off-mesh link(s) (through_link false), the first id 7"));
    c.expect.through_link = PathTestExpect::Link::Some;
    c.expect.avoid_links = {7};
    r = run(q, c);
    CHECK(r.failures == std::vector<std::string>{"takes link id 7 (avoid_link)"});
    c.expect.avoid_links.clear();
    c.expect.through_link = PathTestExpect::Link::UserId;
    c.expect.through_link_id = 8;
    r = run(q, c);
    CHECK(has_failure(r, "does not take link id 8 (through_link)"));

    // a filter without the jump flag: the link is out, the far platform unreachable
    PathTestCase no_jump = make_case(0.5f, 2, 11.5f, 2);
    no_jump.filter = make_query_filter(AreaTable::defaults(), kPolyFlagWalk);
    r = run(q, no_jump);
    CHECK_FALSE(r.reached);
    CHECK(r.links.empty());
    CHECK(has_failure(r, "no path to the end"));
    no_jump.expect.reached = false;
    no_jump.expect.through_link = PathTestExpect::Link::None;
    CHECK(run(q, no_jump).pass);
}

#ifdef NAV_HAVE_RENDER
TEST_CASE("path tests: navdebug's panel saves the current path as a case and evaluates the file on each new navmesh") {
    WaterScene s;
    const AreaTable areas = AreaTable::defaults();
    const std::string dir = (std::filesystem::temp_directory_path() / "navtests_path_tests_panel").string();
    std::filesystem::create_directories(dir);
    const std::string file = dir + "/saved.json";
    std::filesystem::remove(file);
    {  // a file with one failing case (straight across the water, avoid_area water)
        std::ofstream(file) << R"({"cases": [{"name": "no water", "start": [2, 0, 5], "end": [18, 0, 5],
                                  "expect": {"avoid_area": "water"}}]})";
    }
    navdebug::PathTestsPanel panel;
    REQUIRE(panel.open(file, areas));
    CHECK_FALSE(panel.pending());  // no navmesh yet
    panel.update(s.bake->navmesh, areas);
    REQUIRE(panel.results().size() == 1);
    REQUIRE(panel.results()[0]);
    CHECK_FALSE(panel.results()[0]->pass);

    // the path tool's path with water at cost 10: saved expecting reached, max_length = length + 5 %
    QueryFilter dear = make_query_filter(areas);
    dear.area_cost[kAreaWater] = 10;
    REQUIRE(panel.save_case(glm::vec3(2, 0, 5), glm::vec3(18, 0, 5), dear, s.bake->navmesh, areas));
    REQUIRE(panel.cases().size() == 2);
    const PathTestCase& c = panel.cases()[1];
    CHECK(c.name == "case 1");
    CHECK(c.expect.reached);
    CHECK(c.filter.area_cost[kAreaWater] == 10.0f);
    panel.update(s.bake->navmesh, areas);
    REQUIRE(panel.results()[1]);
    const float len = panel.results()[1]->length;
    CHECK(len > 24.0f);
    CHECK(c.expect.max_length == doctest::Approx(path_test_length_limit(len)));
    CHECK(c.expect.max_length >= len * 1.05f - 1e-3f);
    CHECK(c.expect.max_length <= len * 1.05f + 0.1f);
    CHECK(panel.results()[1]->pass);  // the saved case passes on the bake it was saved on
    CHECK(panel.selected() == std::optional<size_t>(1));
    // what was saved reads back from the file
    std::vector<PathTestCase> back;
    REQUIRE(load_path_tests(file, areas, back));
    CHECK(back.size() == 2);

    // a new navmesh (the same bake rebuilt) re-evaluates every case; the state dump lists them
    Pipeline p2;
    InputMesh m;
    navtest::add_floor(m, 0, 0, 20, 20, 0);
    REQUIRE(p2.set_mesh(std::move(m)));  // no water this time: case 0 passes now
    REQUIRE(p2.run());
    const auto b2 = p2.snapshot();
    panel.update(b2->navmesh, areas);
    REQUIRE(panel.results()[0]);
    CHECK(panel.results()[0]->pass);
    const auto j = nlohmann::json::parse(panel.state_json());
    CHECK(j["passed"] == 2);
    CHECK(j["failed"] == 0);
    CHECK(j["items"][1]["name"] == "case 1");
    CHECK(j["file"] == file);

    // a budget: a large file is evaluated over several updates, all of it in the end. A budget no
    // case fits in (a nanosecond) makes it one case an update, whatever the machine's speed
    {
        std::ofstream f(file);
        f << "[";
        for (int i = 0; i < 3000; ++i) f << (i ? "," : "") << R"({"start": [2, 0, 5], "end": [18, 0, 18]})";
        f << "]";
    }
    REQUIRE(panel.open(file, areas));
    panel.set_budget_ms(1e-6);
    int updates = 0;
    do {
        panel.update(b2->navmesh, areas);
        ++updates;
    } while (panel.pending() && updates < 100000);
    CHECK_FALSE(panel.pending());
    CHECK(updates == 3000);
    for (const auto& r : panel.results()) CHECK((r && r->pass));
    // a bad file: the error names it, no cases
    { std::ofstream(file) << R"({"cases": [{"start": [1, 2]}]})"; }
    CHECK_FALSE(panel.open(file, areas));
    CHECK_FALSE(panel.is_open());
    CHECK(panel.cases().empty());
    std::filesystem::remove_all(dir);
}
#endif
