// The one place parameters become text and back (core/formats/params_json.h): the JSON config that
// navbake --json, navdebug's config save and sessions write and --config reads, and the
// --set NAME=VALUE assignments of both tools.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/config_inputs.h"
#include "core/formats/config_json.h"
#include "core/formats/params_json.h"
#include "test_files.h"

using namespace nav;

namespace {

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("params json: config_json writes every parameter and reads back the same") {
    Params p;
    REQUIRE(p.set_from_string("agent_radius", "0.45"));
    REQUIRE(p.set_from_string("cell_height", "0.1"));
    REQUIRE(p.set_from_string("partition", "monotone"));
    REQUIRE(p.set_from_string("filter_ledge", "false"));
    REQUIRE(p.set_from_string("verts_per_poly", "4"));
    REQUIRE(p.set_from_string("path_mode", "optimal"));
    REQUIRE(p.set_from_string("mesh_scale", "0.01"));
    ConvexVolume v;
    v.verts = {0.1f, 0.0f, 0.2f, 0.1f, 0.0f, 2.3f, 2.7f, 0.5f, 2.3f};
    v.hmin = -0.25f;
    v.hmax = 1.5f;
    v.area = kAreaWater;
    ConvexVolume odd = v;
    odd.area = 17;  // no name: written as its id
    const std::vector<ConvexVolume> vols = {v, odd};

    const nlohmann::ordered_json j = config_json(navtest::config_of(p, vols));
    // table order, one key per parameter, each written as its kind
    size_t i = 0;
    for (auto it = j.begin(); it != j.end() && i < param_table().size(); ++it, ++i)
        CHECK(it.key() == param_table()[i].name);
    CHECK(j.size() == param_table().size() + 1);
    CHECK(j["partition"] == "monotone");
    CHECK(j["filter_ledge"] == false);
    CHECK(j["verts_per_poly"].is_number_integer());
    CHECK(j["agent_radius"].is_number_float());
    CHECK(j["volumes"][0]["area"] == "water");
    CHECK(j["volumes"][1]["area"] == 17);
    CHECK(j["volumes"][0]["verts"][0][0].get<double>() == 0.1);  // the short decimal, not 0.100000001

    // read back from the text, as a file, and from the object
    Params q;
    std::vector<ConvexVolume> back;
    REQUIRE(navtest::parse_config(j.dump(2), "round.json", q, back));
    CHECK(q == p);
    REQUIRE(back.size() == 2);
    CHECK(back[0].verts == v.verts);
    CHECK(back[0].hmin == v.hmin);
    CHECK(back[0].hmax == v.hmax);
    CHECK(back[0].area == kAreaWater);
    CHECK(back[1].area == 17);

    navtest::TempFile f(".json", j.dump());
    Params r;
    std::vector<ConvexVolume> from_file;
    REQUIRE(navtest::load_config(f.path(), r, from_file));
    CHECK(r == p);
    CHECK(from_file.size() == 2);

    Params s;
    std::vector<ConvexVolume> from_object;
    REQUIRE(navtest::read_config(nlohmann::json(j), "object", s, from_object));
    CHECK(s == p);

    // no volumes: no "volumes" key, and reading it keeps the volumes given
    const nlohmann::ordered_json plain = config_json(p);
    CHECK_FALSE(plain.contains("volumes"));
    std::vector<ConvexVolume> kept = vols;
    Params t;
    REQUIRE(navtest::parse_config(plain.dump(), "plain.json", t, kept));
    CHECK(t == p);
    CHECK(kept.size() == 2);

    // every parameter at both ends of its range survives the trip
    for (const ParamDef& d : param_table()) {
        for (const double x : {d.min, d.max}) {
            Params a;
            REQUIRE(a.set(d.id, x));
            Params b;
            std::vector<ConvexVolume> none;
            REQUIRE(navtest::parse_config(config_json(a).dump(), "ends.json", b, none));
            CHECK(b.get(d.id) == a.get(d.id));
        }
    }
}

TEST_CASE("params json: a bad value names the file and the key, and changes nothing") {
    Params p;
    std::vector<ConvexVolume> vols;
    Status st = navtest::parse_config(R"({"cell_size": 0.25, "verts_per_poly": 40})", "level.json", p, vols);
    CHECK(st.code == Status::Code::BadInput);
    CHECK(has(st.message, "level.json: parameter verts_per_poly: got 40, expected a whole number in [3, 12]"));
    CHECK(p.get(ParamId::cell_size) == doctest::Approx(0.3));  // the good key before it is not applied either

    st = navtest::parse_config(R"({"partition": "hexagons"})", "level.json", p, vols);
    CHECK(has(st.message, "level.json"));
    CHECK(has(st.message, "partition"));
    CHECK(has(st.message, "watershed | monotone | layers"));

    st = navtest::parse_config(R"({"filter_ledge": null})", "level.json", p, vols);
    CHECK(has(st.message, "level.json: \"filter_ledge\" must be a number, boolean or string"));

    st = navtest::parse_config(R"({"cell_sise": 0.2})", "level.json", p, vols);
    CHECK(has(st.message, "level.json: unknown key \"cell_sise\" (known: mesh_scale"));

    st = navtest::parse_config(R"({"volumes": [{"verts": [[0,0,0],[0,0,1],[1,0,1]], "colour": 1}]})", "level.json", p, vols);
    CHECK(has(st.message, "level.json: volumes[0]: unknown key \"colour\""));

    navtest::TempFile f(".json", R"({"agent_height": "tall"})");
    st = navtest::load_config(f.path(), p, vols);
    CHECK(st.code == Status::Code::BadInput);
    CHECK(has(st.message, f.path() + ": parameter agent_height: got 'tall', expected a number in [0.1, 50] m"));
}

TEST_CASE("params json: --set NAME=VALUE names the flag, the parameter and the range") {
    Params p;
    REQUIRE(apply_assignment("--set", "agent_radius=0.3", p));
    CHECK(p.get(ParamId::agent_radius) == doctest::Approx(0.3));
    REQUIRE(apply_assignments("--set", {"partition=layers", "tile_size=32", "partition=monotone"}, p));
    CHECK(p.partition() == Partition::Monotone);  // the later one wins
    CHECK(p.i(ParamId::tile_size) == 32);
    REQUIRE(apply_assignment("--set", "mesh_z_up=on", p));
    CHECK(p.b(ParamId::mesh_z_up));

    const Params before = p;
    Status st = apply_assignment("--set", "agent_radius=-1", p);
    CHECK(st.code == Status::Code::BadInput);
    CHECK(st.message == "--set agent_radius=-1: parameter agent_radius: got -1, expected a number in [0, 20] m");
    st = apply_assignment("--diff-from-set", "verts_per_poly=99", p);
    CHECK(st.message ==
          "--diff-from-set verts_per_poly=99: parameter verts_per_poly: got 99, expected a whole number in [3, 12]");
    st = apply_assignment("--set", "partition=hexagons", p);
    CHECK(has(st.message, "--set partition=hexagons: parameter partition: got 'hexagons', expected watershed | "
                          "monotone | layers"));
    st = apply_assignment("--set", "bogus=1", p);
    CHECK(has(st.message, "--set bogus=1: unknown parameter 'bogus' (known: mesh_scale"));
    st = apply_assignment("--set", "agent_radius", p);
    CHECK(st.message == "--set 'agent_radius': expected NAME=VALUE");
    st = apply_assignment("--set", "=1", p);
    CHECK(st.message == "--set '=1': expected NAME=VALUE");
    // a list stops at the first bad one, naming it
    st = apply_assignments("--set", {"cell_size=0.2", "cell_height=0", "agent_radius=1"}, p);
    CHECK(has(st.message, "--set cell_height=0: parameter cell_height: got 0, expected a number in [0.02, 5] m"));
    CHECK(p.get(ParamId::agent_radius) == before.get(ParamId::agent_radius));

    std::string name, value;
    REQUIRE(split_assignment("--incremental", "agent_radius=0.9=x", name, value));
    CHECK(name == "agent_radius");
    CHECK(value == "0.9=x");  // split at the first '='
    CHECK(split_assignment("--incremental", "", name, value).message == "--incremental '': expected NAME=VALUE");
}

TEST_CASE("params json: config_json_text reads back through parse_config_json (no JSON library needed by the caller)") {
    Params p;
    REQUIRE(p.set_from_string("cell_size", "0.25"));
    REQUIRE(p.set_from_string("partition", "layers"));
    ConvexVolume v;
    v.verts = {0, 0, 0, 0, 0, 2, 2, 0, 2};
    v.hmin = -1;
    v.hmax = 1;
    v.area = kAreaGrass;
    const std::string text = config_json_text(navtest::config_of(p, {v}), -1);
    CHECK(text.find('\n') == std::string::npos);  // indent -1: one line
    Params back;
    std::vector<ConvexVolume> vols;
    REQUIRE(navtest::parse_config(text, "text", back, vols));
    CHECK(back.get(ParamId::cell_size) == doctest::Approx(0.25));
    CHECK(back.partition() == Partition::Layers);
    CHECK(config_json_text(navtest::config_of(back, vols)) == config_json_text(navtest::config_of(p, {v})));
    REQUIRE(vols.size() == 1);
    CHECK(vols[0].area == kAreaGrass);
}
