// BakeInputs, the one value of a bake's inputs: every field is diffed by Pipeline::set_inputs.
// Two guards keep a new field from slipping past the diff: set_inputs binds every field by name
// (a structured binding, which stops compiling when the field count changes), and this test counts
// the fields by aggregate initialization and changes each one alone, checking that the next run
// has something to do and publishes the new value.
#include <doctest/doctest.h>

#include <array>
#include <cstddef>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "core/pipeline/pipeline.h"
#include "tests/tile_scene.h"

using namespace nav;

namespace {

// Converts to any field type: T{Any{}, ...} compiles for up to as many Anys as T has fields.
struct Any {
    template <class T>
    operator T() const;
};

template <class T, class... A>
constexpr size_t field_count() {
    if constexpr (requires { T{A{}..., Any{}}; }) return field_count<T, A..., Any>();
    else return sizeof...(A);
}

// One change of each field of BakeInputs, in declaration order. A field added to BakeInputs
// fails the static_assert below until a change of it is listed here (and set_inputs, which binds
// every field, fails to compile until its diff handles it).
const std::vector<std::pair<const char*, std::function<void(BakeInputs&)>>>& field_changes() {
    static const std::vector<std::pair<const char*, std::function<void(BakeInputs&)>>> changes = {
        {"params", [](BakeInputs& in) { REQUIRE(in.params.set(ParamId::agent_max_slope, 30.0)); }},
        {"volumes",
         [](BakeInputs& in) {
             ConvexVolume v;
             v.verts = {2, 0, 2, 2, 0, 6, 6, 0, 6, 6, 0, 2};
             v.hmin = -1, v.hmax = 2, v.area = kAreaWater;
             in.volumes.push_back(v);
         }},
        {"areas",
         [](BakeInputs& in) {
             AreaType* water = nullptr;
             for (AreaType& a : in.areas.types)
                 if (a.id == kAreaWater) water = &a;
             REQUIRE(water);
             water->flags ^= 0x10;  // a flag: the polygons' flags change
         }},
        {"obstacles",
         [](BakeInputs& in) {
             Obstacle o;
             o.shape = ObstacleShape::Cylinder;
             o.pos[0] = 10, o.pos[1] = 0, o.pos[2] = 10;
             o.radius = 1.0f;
             o.height = 2.0f;
             in.obstacles.push_back(o);
         }},
        {"links",
         [](BakeInputs& in) {
             OffMeshLink l;
             l.start[0] = 2, l.start[1] = 0, l.start[2] = 2;
             l.end[0] = 4, l.end[1] = 0, l.end[2] = 4;
             l.radius = 0.5f;
             in.links.push_back(l);
         }},
        {"prune", [](BakeInputs& in) { in.prune = std::array<float, 3>{10, 0, 10}; }},
        {"agent_types",
         [](BakeInputs& in) {
             // the base type is the parameters' agent (they stay as they are), and a bigger one
             in.agent_types = {agent_type_from_params(in.params, "small"), agent_type_from_params(in.params, "big")};
             in.agent_types[1].radius = 1.2f;
             in.agent_types[1].height = 3.0f;
         }},
    };
    return changes;
}

}  // namespace

static_assert(field_count<BakeInputs>() == 7,
              "BakeInputs gained or lost a field: handle it in Pipeline::set_inputs and list a change of it in field_changes()");

TEST_CASE("bake inputs: each field changed alone is seen by set_inputs and published with the bake") {
    REQUIRE(field_changes().size() == field_count<BakeInputs>());
    for (int tiled = 0; tiled < 2; ++tiled)
        for (const auto& [name, change] : field_changes()) {
            CAPTURE(tiled);
            CAPTURE(name);
            Pipeline p;
            REQUIRE(p.set_mesh(navtest::tile_scene()));
            if (tiled) REQUIRE(p.set_param(ParamId::tile_size, 32));
            REQUIRE(p.run());
            REQUIRE(p.first_dirty() == Stage::Count);
            BakeInputs in = p.inputs();
            change(in);
            REQUIRE_FALSE(in == p.inputs());
            REQUIRE(p.set_inputs(in));
            CHECK(p.inputs() == in);
            CHECK(p.first_dirty() < Stage::Count);  // the next run has something to do
            REQUIRE(p.run());
            CHECK(p.snapshot()->inputs == in);
            CHECK(p.first_dirty() == Stage::Count);
            // the same inputs again: nothing to do
            REQUIRE(p.set_inputs(in));
            CHECK(p.first_dirty() == Stage::Count);
        }
}

TEST_CASE("bake inputs: a refused link or prune point changes nothing") {
    Pipeline p;
    REQUIRE(p.set_mesh(navtest::tile_scene()));
    const BakeInputs before = p.inputs();
    BakeInputs in = before;
    REQUIRE(in.params.set(ParamId::agent_radius, 0.9));
    OffMeshLink bad;
    bad.start[0] = std::numeric_limits<float>::quiet_NaN();
    in.links.push_back(bad);
    Status st = p.set_inputs(in);
    CHECK(st.code == Status::Code::BadInput);
    CHECK(st.message.find("links[0]") == 0);
    CHECK(p.inputs() == before);
    in.links.clear();
    in.prune = std::array<float, 3>{0, 0, 2e6f};
    st = p.set_inputs(in);
    CHECK(st.code == Status::Code::BadInput);
    CHECK(st.message.find("prune") == 0);
    CHECK(p.inputs() == before);
}
