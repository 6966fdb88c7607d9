// Area types (AreaTable): defaults, polygon flags from the table, the query filter made from it
// (costs steer the path, an excluded flag makes polygons unreachable), the config's "areas".
#include <doctest/doctest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/config_inputs.h"
#include "core/bake/areas.h"
#include "core/formats/config_json.h"
#include "core/bake/palette.h"
#include "core/formats/params_json.h"
#include "core/pipeline/pipeline.h"
#include "core/runtime/query.h"

#include "test_scenes.h"

using namespace nav;

namespace {

// A 20 x 20 m floor with a water strip x in [8, 12], z in [0, 14]: the straight line from (2, 5)
// to (18, 5) crosses 4 m of water; going round it (through z > 14) is about 26 m on ground.
InputMesh water_scene() {
    InputMesh m;
    navtest::add_floor(m, 0, 0, 20, 20, 0);
    return m;
}
ConvexVolume water_strip() {
    ConvexVolume v;
    v.verts = {8, 0, 0, 12, 0, 0, 12, 0, 14, 8, 0, 14};
    v.hmin = -1;
    v.hmax = 1;
    v.area = kAreaWater;
    return v;
}

struct Baked {
    Pipeline p;
    std::shared_ptr<const Bake> bake;
    explicit Baked(const AreaTable& areas = AreaTable::defaults(), int tile_size = 0) {
        REQUIRE(p.set_mesh(water_scene()));
        Params prm;
        if (tile_size > 0) REQUIRE(prm.set_from_string("tile_size", std::to_string(tile_size)));
        REQUIRE(p.set_input(&nav::BakeInputs::params, prm));
        REQUIRE(p.set_input(&nav::BakeInputs::volumes, {water_strip()}));
        REQUIRE(p.set_input(&nav::BakeInputs::areas, areas));
        REQUIRE(p.run());
        bake = p.snapshot();
        REQUIRE(bake->navmesh);
    }
};

const float kStart[3] = {2, 0, 5}, kEnd[3] = {18, 0, 5}, kExt[3] = {0.5f, 2, 0.5f};

// The route's polygons on water.
int water_polys(const NavMesh& nm, const Route& r) {
    int n = 0;
    for (PolyRef ref : r.path.polys) {
        const uint32_t p = nm.poly_index(ref);
        if (p != kNoPoly && nm.areas[p] == kAreaWater) ++n;
    }
    return n;
}

}  // namespace

TEST_CASE("area types: the default table, its names, colours, flags and a filter made from it") {
    const AreaTable t = AreaTable::defaults();
    REQUIRE(t.types.size() == 6);
    CHECK(t.validate("areas"));
    uint8_t id = 0;
    CHECK((t.id_of("water", id) && id == kAreaWater));
    CHECK((t.id_of("not_walkable", id) && id == kNullArea));
    CHECK_FALSE(t.id_of("mud", id));
    CHECK(t.name_of(kWalkableArea) == "ground");
    CHECK(t.flags_of(kWalkableArea) == kPolyFlagDefault);  // ground keeps the flag every polygon had
    CHECK(t.flags_of(kAreaWater) == kPolyFlagSwim);
    CHECK(t.flags_of(kAreaDoor) == (kPolyFlagWalk | kPolyFlagDoor));
    CHECK(t.flags_of(kAreaJump) == kPolyFlagJump);
    CHECK(t.flags_of(40) == kPolyFlagWalk);  // not in the table
    CHECK(t.color_of(kAreaWater) == default_area_color(kAreaWater));
    CHECK(t.free_id() == 6);
    CHECK(flags_to_string(kPolyFlagWalk | kPolyFlagDoor) == "walk|door");

    AreaTable c = t;
    c.find(kAreaWater)->cost = 7.5f;
    const QueryFilter f = make_query_filter(c, 0xffff, kPolyFlagSwim);
    CHECK(f.area_cost[kAreaWater] == 7.5f);
    CHECK(f.area_cost[kWalkableArea] == 1.0f);
    CHECK(f.exclude_flags == (kPolyFlagSwim | kPolyFlagDisabled));  // pruned polygons stay out
}

TEST_CASE("area types: validation names the item") {
    AreaTable t = AreaTable::defaults();
    t.types[2].cost = -1;
    Status st = t.validate("areas");
    CHECK_FALSE(st);
    CHECK(st.message.find("areas[2].cost") != std::string::npos);
    CHECK(st.message.find("road") != std::string::npos);
    t = AreaTable::defaults();
    t.types[3].name = "water";
    st = t.validate("areas");
    CHECK(st.message.find("areas[3].name: duplicate area name 'water'") != std::string::npos);
    t = AreaTable::defaults();
    t.types.push_back({"mud", kAreaWater, 0, 1, kPolyFlagWalk});
    st = t.validate("areas");
    CHECK(st.message.find("areas[6].id") != std::string::npos);
    t = AreaTable::defaults();
    t.types[0].flags = kPolyFlagDisabled;
    CHECK(t.validate("areas").message.find("areas[0].flags") != std::string::npos);
}

TEST_CASE("area types: polygons get their area's flags; a flag change re-runs only the navmesh step") {
    Baked b;
    const NavMesh& nm = *b.bake->navmesh;
    int water = 0, ground = 0;
    for (int p = 0; p < nm.npolys; ++p) {
        if (nm.areas[static_cast<size_t>(p)] == kAreaWater) {
            ++water;
            CHECK(nm.flags[static_cast<size_t>(p)] == kPolyFlagSwim);
        } else {
            ++ground;
            CHECK(nm.flags[static_cast<size_t>(p)] == kPolyFlagDefault);
        }
    }
    CHECK(water > 0);
    CHECK(ground > 0);

    AreaTable t = AreaTable::defaults();
    t.find(kAreaWater)->cost = 10;  // costs and colours change no bake result
    t.find(kAreaWater)->color = palette_rgba(1, 2, 3);
    REQUIRE(b.p.set_input(&nav::BakeInputs::areas, t));
    CHECK(b.p.first_dirty() == Stage::Count);
    t.find(kAreaWater)->flags = kPolyFlagWalk | kPolyFlagSwim;
    REQUIRE(b.p.set_input(&nav::BakeInputs::areas, t));
    CHECK(b.p.first_dirty() == Stage::Navmesh);
    REQUIRE(b.p.run());
    const auto after = b.p.snapshot();
    CHECK(after->stages_run == std::vector<Stage>{Stage::Navmesh});
    for (int p = 0; p < after->navmesh->npolys; ++p)
        if (after->navmesh->areas[static_cast<size_t>(p)] == kAreaWater)
            CHECK(after->navmesh->flags[static_cast<size_t>(p)] == (kPolyFlagWalk | kPolyFlagSwim));
}

TEST_CASE("area types: a tiled bake's tiles take the flags too, and a flag change re-makes them") {
    Baked b(AreaTable::defaults(), 48);
    auto flags_of_water = [](const NavMesh& nm) {
        std::vector<uint16_t> f;
        for (int p = 0; p < nm.npolys; ++p)
            if (nm.areas[static_cast<size_t>(p)] == kAreaWater) f.push_back(nm.flags[static_cast<size_t>(p)]);
        return f;
    };
    const std::vector<uint16_t> before = flags_of_water(*b.bake->navmesh);
    REQUIRE_FALSE(before.empty());
    for (uint16_t f : before) CHECK(f == kPolyFlagSwim);
    AreaTable t = AreaTable::defaults();
    t.find(kAreaWater)->flags = kPolyFlagWalk | kPolyFlagJump;
    REQUIRE(b.p.set_input(&nav::BakeInputs::areas, t));
    REQUIRE(b.p.run());
    const std::vector<uint16_t> after = flags_of_water(*b.p.snapshot()->navmesh);
    CHECK(after.size() == before.size());
    for (uint16_t f : after) CHECK(f == (kPolyFlagWalk | kPolyFlagJump));
}

TEST_CASE("area types: raising water's cost moves the path off water") {
    for (int tile_size : {0, 48}) {
        CAPTURE(tile_size);
        Baked b(AreaTable::defaults(), tile_size);
        const NavMesh& nm = *b.bake->navmesh;
        NavQuery q;
        q.init(&nm);
        AreaTable t = AreaTable::defaults();
        Route cheap, dear;
        REQUIRE(q.find_route(kStart, kEnd, kExt, make_query_filter(t), RouteOptions{}, cheap));
        REQUIRE(cheap.path.reached);
        CHECK(water_polys(nm, cheap) > 0);  // cost 1: straight across
        t.find(kAreaWater)->cost = 10;
        REQUIRE(q.find_route(kStart, kEnd, kExt, make_query_filter(t), RouteOptions{}, dear));
        REQUIRE(dear.path.reached);
        CHECK(water_polys(nm, dear) == 0);  // cost 10: round the strip
        float zmax = 0;
        for (size_t k = 2; k < dear.straight.points.size(); k += 3) zmax = std::max(zmax, dear.straight.points[k]);
        CHECK(zmax > 13.5f);  // it went round the strip's end at z = 14
    }
}

TEST_CASE("area types: an excluded flag makes its polygons unreachable") {
    Baked b;
    const NavMesh& nm = *b.bake->navmesh;
    NavQuery q;
    q.init(&nm);
    const AreaTable t = AreaTable::defaults();
    const QueryFilter no_swim = make_query_filter(t, 0xffff, kPolyFlagSwim);
    const float on_water[3] = {10, 0, 5}, small[3] = {0.2f, 2, 0.2f};
    NearestPoly np;
    REQUIRE(q.find_nearest_poly(on_water, small, no_swim, np));
    CHECK(np.poly == kNoRef);  // no polygon passing the filter there
    REQUIRE(q.find_nearest_poly(on_water, small, make_query_filter(t), np));
    CHECK(np.poly != kNoRef);

    // Start on water: no path. End on water: not reached.
    Route r;
    REQUIRE(q.find_route(on_water, kEnd, small, no_swim, RouteOptions{}, r));
    CHECK_FALSE(r.found());
    REQUIRE(q.find_route(kStart, on_water, small, no_swim, RouteOptions{}, r));
    CHECK_FALSE((r.found() && r.path.reached));
    // Ground to ground still goes, round the water.
    REQUIRE(q.find_route(kStart, kEnd, kExt, no_swim, RouteOptions{}, r));
    CHECK(r.path.reached);
    CHECK(water_polys(nm, r) == 0);
    // Including only swim: ground polygons are out.
    REQUIRE(q.find_route(kStart, kEnd, kExt, make_query_filter(t, kPolyFlagSwim), RouteOptions{}, r));
    CHECK_FALSE(r.found());
}

TEST_CASE("area types: config \"areas\" round trip, custom names in volumes") {
    Params p;
    std::vector<ConvexVolume> vols;
    AreaTable areas = AreaTable::defaults();
    const char* text = R"({"volumes": [{"verts": [[0,0,0],[0,0,1],[1,0,1]], "area": "mud"}],
        "areas": [{"name": "ground", "id": 63}, {"name": "water", "id": 1, "cost": 4, "flags": ["swim"]},
                  {"name": "mud", "id": 7, "color": [120, 80, 40], "cost": 3, "flags": ["walk", "door"]},
                  {"name": "ice", "flags": 17}]})";
    REQUIRE(navtest::parse_config(text, "level.json", p, vols, areas));
    REQUIRE(vols.size() == 1);
    CHECK(vols[0].area == 7);
    REQUIRE(areas.types.size() == 4);
    CHECK(areas.find("mud")->color == palette_rgba(120, 80, 40));
    CHECK(areas.find("mud")->flags == (kPolyFlagWalk | kPolyFlagDoor));
    CHECK(areas.find("water")->cost == 4);
    CHECK(areas.find("ice")->id == 2);  // the lowest id no entry names
    AreaTable named;
    REQUIRE(navtest::parse_config(R"({"areas": [{"name": "road"}, {"name": "ground"}, {"name": "sand"}]})", "n.json", p, vols, named));
    CHECK(named.find("ground")->id == kWalkableArea);  // a default name keeps its id
    CHECK(named.find("road")->id == kAreaRoad);
    CHECK(named.find("sand")->id == 1);
    CHECK(areas.find("ice")->flags == 17);
    CHECK(areas.find("ground")->color == default_area_color(kWalkableArea));

    const std::string out = config_json_text(navtest::config_of(p, vols, &areas), 2);
    CHECK(out.find("\"mud\"") != std::string::npos);
    Params p2;
    std::vector<ConvexVolume> v2;
    AreaTable a2 = AreaTable::defaults();
    REQUIRE(navtest::parse_config(out, "out.json", p2, v2, a2));
    CHECK(a2 == areas);
    CHECK(v2 == vols);
    // The defaults are not written.
    const AreaTable d = AreaTable::defaults();
    CHECK(config_json_text(navtest::config_of(p, {}, &d), 2).find("areas") == std::string::npos);
    // Without a table argument the names still resolve against the config's own.
    std::vector<ConvexVolume> v3;
    CHECK(navtest::parse_config(text, "level.json", p2, v3));
    CHECK(v3.at(0).area == 7);
}

TEST_CASE("area types: config errors name the item") {
    Params p;
    std::vector<ConvexVolume> vols;
    AreaTable areas = AreaTable::defaults();
    auto err = [&](const std::string& text) {
        AreaTable before = areas;
        Status st = navtest::parse_config(text, "cfg.json", p, vols, areas);
        CHECK_FALSE(st);
        CHECK(areas == before);  // nothing changes on an error
        return st.message;
    };
    const std::string tri = R"("verts": [[0,0,0],[0,0,1],[1,0,1]])";
    std::string m = err(R"({"volumes": [{)" + tri + R"(}, {)" + tri + R"(}, {)" + tri + R"(, "area": "mud"}]})");
    CHECK(m.find("cfg.json: volumes[2].area: unknown area 'mud'") != std::string::npos);
    CHECK(m.find("ground") != std::string::npos);  // lists the known names

    std::string many = R"({"areas": [)";
    for (int i = 0; i < 64; ++i) many += (i ? "," : "") + std::string(R"({"name": "a)") + std::to_string(i) + "\"}";
    many += "]}";
    m = err(many);
    CHECK(m.find("cfg.json: areas: 64 area types, at most 63") != std::string::npos);

    m = err(R"({"areas": [{"name": "ground", "id": 63}, {"name": "mud", "cost": -2}]})");
    CHECK(m.find("cfg.json: areas[1].cost: area 'mud'") != std::string::npos);
    m = err(R"({"areas": [{"name": "mud", "cost": "high"}]})");
    CHECK(m.find("areas[0].cost") != std::string::npos);
    m = err(R"({"areas": [{"name": "mud", "id": 64}]})");
    CHECK(m.find("areas[0].id") != std::string::npos);
    m = err(R"({"areas": [{"name": "mud", "id": 7}, {"name": "sand", "id": 7}]})");
    CHECK(m.find("areas[1].id: area 'sand' has id 7, already area 'mud'") != std::string::npos);
    m = err(R"({"areas": [{"name": "mud"}, {"name": "mud"}]})");
    CHECK(m.find("areas[1].name: duplicate") != std::string::npos);
    m = err(R"({"areas": [{"name": "mud", "color": [300, 0, 0]}]})");
    CHECK(m.find("areas[0].color") != std::string::npos);
    m = err(R"({"areas": [{"name": "mud", "flags": ["fly"]}]})");
    CHECK(m.find("areas[0].flags: area 'mud': unknown flag \"fly\"") != std::string::npos);
    m = err(R"({"areas": [{"name": "mud", "flags": ["disabled"]}]})");
    CHECK(m.find("areas[0].flags") != std::string::npos);
    m = err(R"({"areas": [{"id": 3}]})");
    CHECK(m.find("areas[0].name") != std::string::npos);
    m = err(R"({"areas": [{"name": "null"}]})");
    CHECK(m.find("reserved") != std::string::npos);
    m = err(R"({"areas": {"name": "mud"}})");
    CHECK(m.find("cfg.json: areas: must be an array") != std::string::npos);
    m = err(R"({"areas": [{"name": "mud", "speed": 2}]})");
    CHECK(m.find("areas[0]: unknown key \"speed\"") != std::string::npos);
}
