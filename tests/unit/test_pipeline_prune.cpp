// The island prune as a pipeline input (BakeInputs::prune, the config's "prune", issue 22): on two
// disconnected floors a prune disables exactly the other floor's polygons; moving the point prunes
// from the unpruned flags (the other floor comes back); clearing gives back every flag byte for
// byte; a prune change re-bakes no tile (tile objects and salts kept), solo and tiled; a point off
// the navmesh leaves it unpruned with the reason; navbake reads "prune", reports the outcome and
// writes the disabled flags into the Detour file; bad values exit 2 naming the field.
#include <doctest/doctest.h>

#include <array>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/navdebug/session.h"
#include "core/formats/config_json.h"
#include "core/formats/params_json.h"
#include "core/pipeline/pipeline.h"
#include "core/runtime/detour_load.h"
#include "core/runtime/islands.h"
#include "core/runtime/navmesh.h"
#include "core/runtime/query.h"
#include "test_files.h"
#include "test_scenes.h"

using namespace nav;

namespace {

// Two floors 10 x 10 m, one at y = 0 and one at y = 3, 2 m apart in x: two islands, no way between.
InputMesh two_floors() {
    InputMesh m;
    navtest::add_floor(m, 0, 0, 10, 10, 0);
    navtest::add_floor(m, 12, 0, 22, 10, 3);
    m.compute_bounds();
    return m;
}

constexpr std::array<float, 3> kOnA{5, 0, 5}, kOnB{17, 3, 5}, kOff{5, 50, 5};

void setup(Pipeline& p, int tile_size) {
    REQUIRE(p.set_mesh(two_floors()));
    REQUIRE(p.set_param(ParamId::cell_size, 0.2));
    REQUIRE(p.set_param(ParamId::cell_height, 0.1));
    REQUIRE(p.set_param(ParamId::agent_radius, 0.3));
    REQUIRE(p.set_param(ParamId::tile_size, tile_size));
}

// The island of the polygon under point p (any flags).
uint32_t island_at(const NavMesh& nm, const std::array<float, 3>& p) {
    NavQuery q;
    q.init(&nm);
    QueryFilter any;
    any.exclude_flags = 0;
    NearestPoly hit;
    REQUIRE(q.find_nearest_poly(p.data(), kPickHalfExtents, any, hit));
    REQUIRE(hit.poly != kNoRef);
    return nm.poly_island[nm.poly_index(hit.poly)];
}

// Every polygon is disabled exactly when it is off island `kept`; the other flag bits are the
// unpruned ones. Returns the number disabled.
uint32_t check_pruned(const NavMesh& nm, const std::vector<uint16_t>& unpruned, uint32_t kept) {
    REQUIRE(nm.flags.size() == unpruned.size());
    uint32_t disabled = 0;
    for (size_t p = 0; p < nm.flags.size(); ++p) {
        const bool off = nm.poly_island[p] != kept;
        CHECK(((nm.flags[p] & kPolyFlagDisabled) != 0) == off);
        CHECK((nm.flags[p] & ~kPolyFlagDisabled) == (unpruned[p] & ~kPolyFlagDisabled));
        disabled += off;
    }
    return disabled;
}

bool reached(const NavMesh& nm, const std::array<float, 3>& a, const std::array<float, 3>& b) {
    NavQuery q;
    q.init(&nm);
    Route r;
    const float ext[3] = {1, 2, 1};
    // a start or end on no enabled polygon: an error status or not reached, either way no path
    if (!q.find_route(a.data(), b.data(), ext, QueryFilter{}, RouteOptions{}, r)) return false;
    return r.path.reached && !r.path.polys.empty();
}

// The tiles and the navmesh's slots of `b` are those of `a`: the same tile objects, salts and graphs.
void check_same_tiles(const Bake& a, const Bake& b) {
    CHECK(b.stages_run.empty());
    CHECK(b.tiles_rebaked.empty());
    REQUIRE(b.tiles.size() == a.tiles.size());
    for (size_t i = 0; i < a.tiles.size(); ++i) CHECK(b.tiles[i] == a.tiles[i]);
    REQUIRE(b.navmesh->slots.size() == a.navmesh->slots.size());
    for (size_t s = 0; s < a.navmesh->slots.size(); ++s) {
        CHECK(b.navmesh->slots[s].tile == a.navmesh->slots[s].tile);
        CHECK(b.navmesh->slots[s].salt == a.navmesh->slots[s].salt);
        CHECK(b.navmesh->slots[s].graph == a.navmesh->slots[s].graph);
    }
    CHECK(b.polymesh == a.polymesh);
}

}  // namespace

TEST_CASE("pipeline prune: two floors, prune, move, clear; no tile re-baked; solo and tiled") {
    for (int tile_size : {0, 20}) {
        CAPTURE(tile_size);
        Pipeline p;
        setup(p, tile_size);
        REQUIRE(p.run());
        const auto base = p.snapshot();
        REQUIRE(base->navmesh);
        CHECK(base->tiled() == (tile_size > 0));
        if (tile_size > 0) CHECK(base->navmesh->ntiles > 4);
        CHECK_FALSE(base->prune.point);
        CHECK_FALSE(base->prune.applied);
        const std::vector<uint16_t> unpruned = base->navmesh->flags;
        for (uint16_t f : unpruned) CHECK((f & kPolyFlagDisabled) == 0);
        const uint32_t isl_a = island_at(*base->navmesh, kOnA), isl_b = island_at(*base->navmesh, kOnB);
        REQUIRE(isl_a != isl_b);
        uint32_t polys_a = 0;
        for (uint32_t isl : base->navmesh->poly_island) polys_a += isl == isl_a;
        const uint32_t polys_b = static_cast<uint32_t>(base->navmesh->npolys) - polys_a;
        REQUIRE(polys_b > 0);

        // prune from floor A: exactly floor B disabled
        REQUIRE(p.set_input(&nav::BakeInputs::prune, kOnA));
        CHECK(p.first_dirty() == Stage::Navmesh);  // something to do: the prune, no tile
        REQUIRE(p.run());
        const auto on_a = p.snapshot();
        REQUIRE(on_a->navmesh);
        CHECK(on_a->navmesh != base->navmesh);  // a copy: the held snapshot keeps its flags
        CHECK(base->navmesh->flags == unpruned);
        REQUIRE(on_a->prune.point);
        CHECK(*on_a->prune.point == kOnA);
        CHECK(on_a->prune.applied);
        CHECK(on_a->prune.message.empty());
        CHECK(on_a->prune.stats.island == isl_a);
        CHECK(on_a->prune.stats.kept == polys_a);
        CHECK(on_a->prune.stats.disabled == polys_b);
        REQUIRE(on_a->prune.kept_poly < static_cast<uint32_t>(on_a->navmesh->npolys));
        CHECK(on_a->navmesh->poly_island[on_a->prune.kept_poly] == isl_a);
        CHECK(check_pruned(*on_a->navmesh, unpruned, isl_a) == polys_b);
        check_same_tiles(*base, *on_a);
        CHECK(reached(*on_a->navmesh, kOnA, {3, 0, 7}));
        CHECK_FALSE(reached(*on_a->navmesh, kOnB, {19, 3, 7}));  // floor B is disabled
        // nothing changed: nothing to do; the same point again: nothing either
        CHECK(p.first_dirty() == Stage::Count);
        REQUIRE(p.set_input(&nav::BakeInputs::prune, kOnA));
        CHECK(p.first_dirty() == Stage::Count);

        // move the point to floor B (a disabled polygon is picked all the same): A off, B back
        REQUIRE(p.set_input(&nav::BakeInputs::prune, kOnB));
        REQUIRE(p.run());
        const auto on_b = p.snapshot();
        CHECK(on_b->prune.applied);
        CHECK(on_b->prune.stats.island == isl_b);
        CHECK(check_pruned(*on_b->navmesh, unpruned, isl_b) == polys_a);
        CHECK(reached(*on_b->navmesh, kOnB, {19, 3, 7}));
        CHECK_FALSE(reached(*on_b->navmesh, kOnA, {3, 0, 7}));
        check_same_tiles(*base, *on_b);
        CHECK(on_a->navmesh->flags != on_b->navmesh->flags);  // the earlier snapshot keeps its own

        // clear: every flag as unpruned, byte for byte
        REQUIRE(p.set_input(&nav::BakeInputs::prune, std::nullopt));
        REQUIRE(p.run());
        const auto cleared = p.snapshot();
        CHECK_FALSE(cleared->prune.point);
        CHECK_FALSE(cleared->prune.applied);
        CHECK(cleared->navmesh->flags == unpruned);
        check_same_tiles(*base, *cleared);
        CHECK(reached(*cleared->navmesh, kOnA, {3, 0, 7}));
        CHECK(reached(*cleared->navmesh, kOnB, {19, 3, 7}));
    }
}

TEST_CASE("pipeline prune: a point off the navmesh leaves it unpruned and says why; a re-bake keeps the prune") {
    for (int tile_size : {0, 20}) {
        CAPTURE(tile_size);
        Pipeline p;
        setup(p, tile_size);
        REQUIRE(p.set_input(&nav::BakeInputs::prune, kOff));
        REQUIRE(p.run());
        const auto off = p.snapshot();
        REQUIRE(off->navmesh);
        REQUIRE(off->prune.point);
        CHECK_FALSE(off->prune.applied);
        CHECK(off->prune.message.find("Not pruned: no navmesh polygon within 2 m") == 0);
        for (uint16_t f : off->navmesh->flags) CHECK((f & kPolyFlagDisabled) == 0);

        // a prune asked before the first bake applies once the navmesh is there; a parameter change
        // that re-bakes keeps the prune on the new navmesh
        REQUIRE(p.set_input(&nav::BakeInputs::prune, kOnB));
        REQUIRE(p.run());
        const auto on_b = p.snapshot();
        REQUIRE(on_b->prune.applied);
        REQUIRE(p.set_param(ParamId::agent_radius, 0.5));  // 3 cells of erosion, was 2: a re-bake
        REQUIRE(p.run());
        const auto rebaked = p.snapshot();
        CHECK_FALSE(rebaked->stages_run.empty());
        CHECK(rebaked->prune.applied);
        CHECK(rebaked->prune.stats.island == island_at(*rebaked->navmesh, kOnB));
        CHECK(rebaked->prune.stats.disabled > 0);
        CHECK(check_pruned(*rebaked->navmesh, rebaked->navmesh->flags, rebaked->prune.stats.island) ==
              rebaked->prune.stats.disabled);
        // links change too: relinked and pruned again, still no tile re-baked
        OffMeshLink l;
        l.start[0] = 9, l.start[1] = 0, l.start[2] = 5;
        l.end[0] = 13, l.end[1] = 3, l.end[2] = 5;
        l.radius = 0.6f;
        REQUIRE(p.set_input(&nav::BakeInputs::links, {l}));
        REQUIRE(p.run());
        const auto linked = p.snapshot();
        CHECK(linked->navmesh->nlinks == 1);
        CHECK(linked->prune.applied);
        CHECK(linked->prune.stats.disabled == rebaked->prune.stats.disabled);
        check_same_tiles(*rebaked, *linked);
    }
}

TEST_CASE("pipeline prune: a point not finite is refused and the old point stays") {
    Pipeline p;
    REQUIRE(p.set_input(&nav::BakeInputs::prune, kOnA));
    const Status st = p.set_input(&nav::BakeInputs::prune, std::array<float, 3>{1, 2e7f, 3});
    CHECK(st.code == Status::Code::BadInput);
    CHECK(st.message.find("prune") == 0);
    REQUIRE(p.inputs().prune);
    CHECK(*p.inputs().prune == kOnA);
}

TEST_CASE("pipeline prune: the config's \"prune\" round trip, null, and errors naming the field") {
    BakeInputs in;
    REQUIRE(parse_config_json(R"({"prune": [5, 0.25, -3]})", "cfg.json", in));
    REQUIRE(in.prune);
    CHECK(*in.prune == std::array<float, 3>{5, 0.25f, -3});
    const std::string text = config_json_text(in);
    BakeInputs back;
    REQUIRE(parse_config_json(text, "cfg.json", back));
    CHECK(back == in);
    CHECK(config_json_text(BakeInputs{}).find("prune") == std::string::npos);  // none: not written
    REQUIRE(parse_config_json(R"({"prune": null})", "cfg.json", back));
    CHECK_FALSE(back.prune);
    for (const char* bad : {R"({"prune": [1, 2]})", R"({"prune": "plaza"})", R"({"prune": [1, "a", 2]})", R"({"prune": 3})"}) {
        CAPTURE(bad);
        BakeInputs c = in;
        const Status st = parse_config_json(bad, "cfg.json", c);
        CHECK(st.code == Status::Code::BadInput);
        CHECK(st.message == "cfg.json: \"prune\" must be [x, y, z] (3 numbers) or null");
        CHECK(c == in);  // nothing changed
    }
    BakeInputs c;
    const Status far = parse_config_json(R"({"prune": [1, 2, 1e7]})", "cfg.json", c);
    CHECK(far.message == "cfg.json: \"prune\"[2] is 10000000.000000, expected a finite number within +-1e6 m");
    // a debugger session keeps the prune point in its config
    navdebug::Session s;
    s.has_config = true;
    s.inputs.prune = kOnB;
    navdebug::Session sb;
    REQUIRE(navdebug::parse_session(navdebug::session_to_json(s), "s.json", sb));
    REQUIRE(sb.inputs.prune);
    CHECK(*sb.inputs.prune == kOnB);
}

TEST_CASE("pipeline prune: navbake's config \"prune\": the outcome in --json, the disabled flags in the Detour file, exit 2 on bad values") {
    const std::string exe = std::string("'") + NAVBAKE_EXE + "'";
    navtest::TempFile obj(".obj", navtest::to_obj(two_floors()));
    for (int tile_size : {0, 20}) {
        CAPTURE(tile_size);
        navtest::TempFile cfg(".json", R"({"cell_size": 0.2, "cell_height": 0.1, "agent_radius": 0.3, "tile_size": )" +
                                           std::to_string(tile_size) + R"(, "prune": [17, 3, 5]})");
        navtest::TempFile bin(".bin");
        const auto r = navtest::run_cmd(exe + " '" + obj.path() + "' --config '" + cfg.path() + "' --json --navmesh-out '" +
                                            bin.path() + "'",
                                        false);
        REQUIRE(r.code == 0);
        const auto j = nlohmann::json::parse(r.out);
        REQUIRE(j.contains("prune"));
        CHECK(j["prune"]["applied"] == true);
        CHECK(j["prune"]["point"] == nlohmann::json::array({17, 3, 5}));
        const int disabled = j["prune"]["disabled"].get<int>(), kept = j["prune"]["kept"].get<int>();
        CHECK(disabled > 0);
        CHECK(kept > 0);
        CHECK(kept + disabled == j["counts"]["polys"].get<int>());
        // the Detour file carries the disabled flags
        std::vector<std::shared_ptr<const NavTile>> tiles;
        NavMesh nm;
        REQUIRE(load_detour_navmesh(bin.path(), uint64_t(1) << 26, tiles, nm));
        int off = 0;
        for (uint16_t f : nm.flags) off += (f & kPolyFlagDisabled) != 0;
        CHECK(off == disabled);
        CHECK(nm.npolys == kept + disabled);
    }
    {  // off the navmesh: exit 0, not applied, the reason in the report and on stderr
        navtest::TempFile cfg(".json", R"({"cell_size": 0.2, "prune": [5, 50, 5]})");
        const auto r = navtest::run_cmd(exe + " '" + obj.path() + "' --config '" + cfg.path() + "' --json", false);
        REQUIRE(r.code == 0);
        const auto j = nlohmann::json::parse(r.out);
        CHECK(j["prune"]["applied"] == false);
        CHECK(j["prune"]["message"].get<std::string>().find("Not pruned: no navmesh polygon") == 0);
        const auto e = navtest::run_cmd(exe + " '" + obj.path() + "' --config '" + cfg.path() + "'", true);
        CHECK(e.code == 0);
        CHECK(e.out.find("navbake: warning: prune: Not pruned: no navmesh polygon") != std::string::npos);
    }
    for (const char* bad : {R"({"prune": [1, 2]})", R"({"prune": [1, 2, 1e9]})", R"({"prune": "plaza"})"}) {
        CAPTURE(bad);
        navtest::TempFile cfg(".json", bad);
        const auto r = navtest::run_cmd(exe + " '" + obj.path() + "' --config '" + cfg.path() + "'", true);
        CHECK(r.code == 2);
        CHECK(r.out.find(cfg.path() + ": \"prune\"") != std::string::npos);
    }
}
