// Manual off-mesh links as a pipeline input (BakeInputs::links, the config's "links"): they join
// the automatic ones in the runtime navmesh through relink_navmesh, solo and tiled; changing them
// re-bakes no tile (tile objects and salts kept); paths take them both ways or one way; the config
// reads and writes them with errors naming the item and field.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/navdebug/session.h"
#include "core/formats/config_json.h"
#include "core/formats/params_json.h"
#include "core/pipeline/pipeline.h"
#include "core/runtime/navmesh.h"
#include "core/runtime/query.h"
#include "test_scenes.h"

using namespace nav;

namespace {

// Two 5 x 6 m platforms 1 m high with a 1.2 m gap between them in x and nothing below: two islands.
InputMesh gap_scene() {
    InputMesh m;
    navtest::add_box(m, 0, 0, 0, 5, 1, 6);
    navtest::add_box(m, 6.2f, 0, 0, 11.2f, 1, 6);
    m.compute_bounds();
    return m;
}

void setup(Pipeline& p, int tile_size, double jump = 0) {
    REQUIRE(p.set_mesh(gap_scene()));
    REQUIRE(p.set_param(ParamId::cell_size, 0.1));
    REQUIRE(p.set_param(ParamId::cell_height, 0.1));
    REQUIRE(p.set_param(ParamId::agent_radius, 0.3));
    REQUIRE(p.set_param(ParamId::agent_height, 2.0));
    REQUIRE(p.set_param(ParamId::agent_max_climb, 0.4));
    REQUIRE(p.set_param(ParamId::tile_size, tile_size));
    REQUIRE(p.set_param(ParamId::link_jump_distance, jump));
}

// A link across the gap at z, from the left platform's edge to the right one's.
OffMeshLink across(float z, bool bidir = true, uint32_t user = 0) {
    OffMeshLink l;
    l.start[0] = 4.5f, l.start[1] = 1, l.start[2] = z;
    l.end[0] = 6.7f, l.end[1] = 1, l.end[2] = z;
    l.radius = 0.5f;
    l.bidir = bidir;
    l.area = kAreaJump;
    l.user_id = user;
    return l;
}

const float kLeft[3] = {2, 1, 3}, kRight[3] = {9, 1, 3}, kExt[3] = {1, 2, 1};

// Reached, and the number of off-mesh corners of the straight path.
std::pair<bool, int> route(const NavMesh& nm, const float* a, const float* b) {
    NavQuery q;
    q.init(&nm);
    Route r;
    REQUIRE(q.find_route(a, b, kExt, QueryFilter{}, RouteOptions{}, r));
    int offmesh = 0;
    for (uint8_t f : r.straight.flags) offmesh += (f & kStraightOffMesh) != 0;
    return {r.path.reached, offmesh};
}

}  // namespace

TEST_CASE("manual links: a change of links relinks only, re-baking no tile (tile objects and salts kept), solo and tiled") {
    for (int tile_size : {0, 40}) {
        CAPTURE(tile_size);
        Pipeline p;
        setup(p, tile_size);
        REQUIRE(p.run());
        const auto before = p.snapshot();
        REQUIRE(before->navmesh);
        CHECK(before->tiled() == (tile_size > 0));
        if (tile_size > 0) CHECK(before->navmesh->ntiles > 2);
        CHECK_FALSE(route(*before->navmesh, kLeft, kRight).first);  // two islands

        REQUIRE(p.set_input(&nav::BakeInputs::links, {across(3, true, 41)}));
        CHECK(p.first_dirty() == Stage::Navmesh);  // something to do: the relink
        REQUIRE(p.run());
        const auto after = p.snapshot();
        REQUIRE(after->navmesh);
        CHECK(after->navmesh != before->navmesh);  // a new navmesh: the held snapshot keeps its own
        CHECK(before->navmesh->nlinks == 0);
        CHECK(after->stages_run.empty());  // no stage ran
        CHECK(after->tiles_rebaked.empty());
        CHECK(after->tiles.size() == before->tiles.size());
        for (size_t i = 0; i < after->tiles.size(); ++i) CHECK(after->tiles[i] == before->tiles[i]);
        REQUIRE(after->navmesh->slots.size() == before->navmesh->slots.size());
        for (size_t s = 0; s < after->navmesh->slots.size(); ++s) {
            CHECK(after->navmesh->slots[s].tile == before->navmesh->slots[s].tile);  // the same tile object
            CHECK(after->navmesh->slots[s].salt == before->navmesh->slots[s].salt);
            CHECK(after->navmesh->slots[s].graph == before->navmesh->slots[s].graph);
        }
        CHECK(after->inputs.links.size() == 1);
        CHECK(after->count("manual_links") == 1);
        REQUIRE(after->navmesh->nlinks == 1);
        CHECK(after->navmesh->nlinks_connected == 1);
        CHECK(after->navmesh->link_user_id[0] == 41);
        CHECK(after->navmesh->link_area[0] == kAreaJump);
        for (const float* a : {kLeft, kRight}) {
            const auto [reached, offmesh] = route(*after->navmesh, a, a == kLeft ? kRight : kLeft);
            CHECK(reached);
            CHECK(offmesh == 1);
        }
        // Nothing changed: nothing to do. The same links again: nothing either.
        CHECK(p.first_dirty() == Stage::Count);
        REQUIRE(p.set_input(&nav::BakeInputs::links, {across(3, true, 41)}));
        CHECK(p.first_dirty() == Stage::Count);
        // Removing them relinks again, still without a tile re-bake.
        REQUIRE(p.set_input(&nav::BakeInputs::links, {}));
        REQUIRE(p.run());
        const auto removed = p.snapshot();
        CHECK(removed->navmesh->nlinks == 0);
        CHECK(removed->tiles_rebaked.empty());
        for (size_t s = 0; s < removed->navmesh->slots.size(); ++s)
            CHECK(removed->navmesh->slots[s].salt == before->navmesh->slots[s].salt);
        CHECK_FALSE(route(*removed->navmesh, kLeft, kRight).first);
        CHECK(removed->count("manual_links") == 0);
    }
}

TEST_CASE("manual links: a one-way link is taken from start to end only; a bake that re-runs keeps the links") {
    for (int tile_size : {0, 40}) {
        CAPTURE(tile_size);
        Pipeline p;
        setup(p, tile_size);
        REQUIRE(p.set_input(&nav::BakeInputs::links, {across(3, false)}));  // before the first bake: the bake links them
        REQUIRE(p.run());
        auto b = p.snapshot();
        REQUIRE(b->navmesh->nlinks == 1);
        CHECK(route(*b->navmesh, kLeft, kRight) == std::pair<bool, int>{true, 1});
        CHECK_FALSE(route(*b->navmesh, kRight, kLeft).first);
        // A parameter change that re-bakes every tile: the links are linked into the new navmesh.
        REQUIRE(p.set_param(ParamId::agent_radius, 0.45));  // 5 cells of erosion instead of 3
        REQUIRE(p.run());
        b = p.snapshot();
        CHECK_FALSE(b->stages_run.empty());
        REQUIRE(b->navmesh->nlinks == 1);
        CHECK(route(*b->navmesh, kLeft, kRight).first);
    }
}

TEST_CASE("manual links: first in the navmesh, then the automatic ones") {
    for (int tile_size : {0, 40}) {
        CAPTURE(tile_size);
        Pipeline p;
        setup(p, tile_size, 2.0);
        REQUIRE(p.run());
        const auto autos = p.snapshot();
        REQUIRE(autos->auto_links);
        const int nauto = static_cast<int>(autos->auto_links->links.size());
        REQUIRE(nauto > 0);
        CHECK(autos->navmesh->nlinks == nauto);
        REQUIRE(p.set_input(&nav::BakeInputs::links, {across(1, true, 7), across(5, false, 8)}));
        REQUIRE(p.run());
        const auto both = p.snapshot();
        CHECK(both->tiles_rebaked.empty());
        CHECK(both->auto_links == autos->auto_links);  // not generated again
        REQUIRE(both->navmesh->nlinks == nauto + 2);
        CHECK(both->navmesh->link_user_id[0] == 7);
        CHECK(both->navmesh->link_user_id[1] == 8);
        CHECK(both->navmesh->link_bidir[1] == 0);
        for (int i = 0; i < nauto; ++i)
            CHECK(both->navmesh->link_start[static_cast<size_t>(2 + i) * 3] ==
                  doctest::Approx(autos->navmesh->link_start[static_cast<size_t>(i) * 3]));
    }
}

TEST_CASE("manual links: bad links are refused naming the link and the old ones stay") {
    Pipeline p;
    setup(p, 0);
    REQUIRE(p.set_input(&nav::BakeInputs::links, {across(3)}));
    OffMeshLink nan = across(2);
    nan.start[1] = std::nanf("");
    Status st = p.set_input(&nav::BakeInputs::links, {across(1), nan});
    CHECK(st.code == Status::Code::BadInput);
    CHECK(st.message == "links[1]: start is not finite");
    OffMeshLink wide = across(2);
    wide.radius = -1;
    st = p.set_input(&nav::BakeInputs::links, {wide});
    CHECK(st.message.find("links[0]: radius -1") == 0);
    OffMeshLink area = across(2);
    area.area = 70;
    CHECK(p.set_input(&nav::BakeInputs::links, {area}).message == "links[0]: area id 70 > 63");
    REQUIRE(p.inputs().links.size() == 1);
    CHECK(p.inputs().links[0] == across(3));
}

TEST_CASE("manual links: the config's \"links\" round trip, defaults and errors naming the item and field") {
    BakeInputs in;
    REQUIRE(parse_config_json(R"({"agent_radius": 0.45,
        "areas": [{"name": "ground", "id": 63}, {"name": "ladder", "id": 9, "cost": 2}],
        "links": [{"start": [1, 2, 3], "end": [4, 5, 6.5], "radius": 0.7, "bidirectional": false, "area": "ladder",
                   "flags": 9, "user_id": 4000000000},
                  {"start": [0, 0, 0], "end": [1, 0, 0]},
                  {"start": [0, 0, 0], "end": [1, 0, 0], "area": 17}]})",
                              "level.json", in));
    REQUIRE(in.links.size() == 3);
    const OffMeshLink& a = in.links[0];
    CHECK(a.start[2] == 3.0f);
    CHECK(a.end[2] == 6.5f);
    CHECK(a.radius == 0.7f);
    CHECK_FALSE(a.bidir);
    CHECK(a.area == 9);
    CHECK(a.flags == 9);
    CHECK(a.user_id == 4000000000u);
    const OffMeshLink& d = in.links[1];  // the defaults
    CHECK(d.radius == 0.45f);            // the config's agent radius
    CHECK(d.bidir);
    CHECK(d.area == kAreaJump);
    CHECK(d.flags == kPolyFlagDefault);
    CHECK(d.user_id == 0);
    CHECK(in.links[2].area == 17);

    // written and read back to the same inputs; areas by name where the table has one
    const nlohmann::ordered_json j = config_json(in);
    CHECK(j["links"][0]["area"] == "ladder");
    CHECK(j["links"][2]["area"] == 17);
    CHECK(j["links"][1]["radius"].get<double>() == 0.45);
    BakeInputs back;
    REQUIRE(parse_config_json(j.dump(), "out.json", back));
    CHECK(back == in);
    BakeInputs none;
    CHECK_FALSE(config_json(none).contains("links"));  // no links: no key

    auto err = [](const std::string& text) {
        BakeInputs c;
        c.links = {across(3)};
        const BakeInputs before = c;
        const Status st = parse_config_json(text, "cfg.json", c);
        CHECK(st.code == Status::Code::BadInput);
        CHECK(c == before);  // nothing changes on an error
        return st.message;
    };
    CHECK(err(R"({"links": {}})") == "cfg.json: \"links\" must be an array");
    CHECK(err(R"({"links": [1]})").find("cfg.json: links[0]: expected {\"start\"") == 0);
    CHECK(err(R"({"links": [{"end": [0,0,0]}]})") == "cfg.json: links[0].start: missing (expected [x, y, z] numbers)");
    CHECK(err(R"({"links": [{"start": [0,0,0], "end": [0,0]}]})") == "cfg.json: links[0].end: must be [x, y, z] numbers");
    CHECK(err(R"({"links": [{"start": [0,0,0], "end": [0,1e9,0]}]})").find("cfg.json: links[0].end: holds") == 0);
    CHECK(err(R"({"links": [{"start": [0,0,0], "end": [1,0,0]}, {"start": [0,0,0], "end": [1,0,0], "radius": -1}]})") ==
          "cfg.json: links[1].radius: must be a number in [0, 1000] m");
    CHECK(err(R"({"links": [{"start": [0,0,0], "end": [1,0,0], "area": "lava"}]})")
              .find("cfg.json: links[0].area: unknown area 'lava' (expected ground, water") == 0);
    CHECK(err(R"({"links": [{"start": [0,0,0], "end": [1,0,0], "area": 64}]})") ==
          "cfg.json: links[0].area: must be an area name or an id in 0..63");
    CHECK(err(R"({"links": [{"start": [0,0,0], "end": [1,0,0], "flags": 70000}]})") ==
          "cfg.json: links[0].flags: must be an integer in 0..65535");
    CHECK(err(R"({"links": [{"start": [0,0,0], "end": [1,0,0], "user_id": -1}]})") ==
          "cfg.json: links[0].user_id: must be an integer in 0..4294967295");
    CHECK(err(R"({"links": [{"start": [0,0,0], "end": [1,0,0], "bidirectional": 1}]})") ==
          "cfg.json: links[0].bidirectional: must be true or false");
    CHECK(err(R"({"links": [{"start": [0,0,0], "end": [1,0,0], "two_way": true}]})")
              .find("cfg.json: links[0]: unknown key \"two_way\" (known: start, end, radius") == 0);
}

TEST_CASE("manual links: a config's links reach the bake's navmesh") {
    BakeInputs in;
    REQUIRE(parse_config_json(R"({"links": [{"start": [4.5, 1, 3], "end": [6.7, 1, 3], "radius": 0.5, "bidirectional": false}]})",
                              "cfg.json", in));
    Pipeline p;
    setup(p, 0);
    REQUIRE(p.set_input(&nav::BakeInputs::links, in.links));
    REQUIRE(p.run());
    const auto b = p.snapshot();
    REQUIRE(b->navmesh->nlinks_connected == 1);
    CHECK(route(*b->navmesh, kLeft, kRight).first);
    CHECK_FALSE(route(*b->navmesh, kRight, kLeft).first);
}

TEST_CASE("manual links: a debugger session keeps them (its \"config\"), and a bad one names the session and the item") {
    navdebug::Session s;
    s.has_config = true;
    s.inputs.links = {across(3, false, 12), across(5)};
    s.inputs.areas = AreaTable::defaults();
    const std::string text = navdebug::session_to_json(s);
    navdebug::Session back;
    REQUIRE(navdebug::parse_session(text, "s.json", back));
    CHECK(back.inputs.links == s.inputs.links);
    navdebug::Session bad;
    const Status st = navdebug::parse_session(R"({"config": {"links": [{"start": [0,0,0], "end": [1,0,0], "flags": "walk"}]}})", "s.json", bad);
    CHECK(st.message == "s.json: config: links[0].flags: must be an integer in 0..65535");
}
