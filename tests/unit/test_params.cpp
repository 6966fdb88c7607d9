#include <doctest/doctest.h>

#include <cmath>
#include <set>
#include <string>

#include "core/pipeline/params.h"

using namespace nav;

TEST_CASE("params: defaults are the ones users of this field know") {
    const Params p;
    CHECK(p.get(ParamId::cell_size) == doctest::Approx(0.3));
    CHECK(p.get(ParamId::cell_height) == doctest::Approx(0.2));
    CHECK(p.get(ParamId::agent_height) == doctest::Approx(2.0));
    CHECK(p.get(ParamId::agent_radius) == doctest::Approx(0.6));
    CHECK(p.get(ParamId::agent_max_climb) == doctest::Approx(0.9));
    CHECK(p.get(ParamId::agent_max_slope) == doctest::Approx(45));
    CHECK(p.i(ParamId::region_min_size) == 8);
    CHECK(p.i(ParamId::region_merge_size) == 20);
    CHECK(p.partition() == Partition::Watershed);
    CHECK(p.b(ParamId::filter_low_hanging));
    CHECK(p.b(ParamId::filter_ledge));
    CHECK(p.b(ParamId::filter_low_height));
}

TEST_CASE("params: the table is complete and consistent") {
    std::set<std::string_view> names;
    int idx = 0;
    for (const ParamDef& d : param_table()) {
        CHECK(static_cast<int>(d.id) == idx++);
        CHECK(names.insert(d.name).second);
        CHECK(d.min <= d.def);
        CHECK(d.def <= d.max);
        CHECK(!d.help.empty());
        CHECK(find_param(d.name) == &d);
        CHECK(static_cast<int>(d.stage) < kStageCount);
    }
    CHECK(idx == kParamCount);
    CHECK(find_param("no_such_thing") == nullptr);
    const std::string help = params_help();
    for (const ParamDef& d : param_table()) CHECK(help.find(std::string(d.name)) != std::string::npos);
}

TEST_CASE("params: set checks range and type and names the parameter") {
    Params p;
    Status st = p.set(ParamId::cell_size, 0.0);
    CHECK_FALSE(st);
    CHECK(st.code == Status::Code::BadInput);
    CHECK(st.message.find("cell_size") != std::string::npos);
    CHECK(st.message.find("[0.02, 5]") != std::string::npos);
    CHECK(p.get(ParamId::cell_size) == doctest::Approx(0.3));  // unchanged

    CHECK_FALSE(p.set(ParamId::region_min_size, 2.5));  // not integral
    CHECK_FALSE(p.set(ParamId::agent_radius, NAN));
    CHECK_FALSE(p.set(ParamId::agent_radius, INFINITY));
    CHECK(p.set(ParamId::agent_radius, 0.0));

    // every parameter rejects a value just outside each end of its range
    for (const ParamDef& d : param_table()) {
        Params q;
        CHECK_FALSE(q.set(d.id, d.min - 1));
        CHECK_FALSE(q.set(d.id, d.max + 1));
        CHECK(q.set(d.id, d.max));
        CHECK(q.set(d.id, d.min));
    }
}

TEST_CASE("params: set_from_string parses numbers, booleans and enum names") {
    Params p;
    CHECK(p.set_from_string("agent_radius", "0.4"));
    CHECK(p.get(ParamId::agent_radius) == doctest::Approx(0.4));
    CHECK(p.set_from_string("partition", "monotone"));
    CHECK(p.partition() == Partition::Monotone);
    CHECK(p.set_from_string("partition", "LAYERS"));
    CHECK(p.partition() == Partition::Layers);
    CHECK(p.set_from_string("filter_ledge", "false"));
    CHECK_FALSE(p.b(ParamId::filter_ledge));
    CHECK(p.set_from_string("filter_ledge", "1"));
    CHECK(p.b(ParamId::filter_ledge));

    Status st = p.set_from_string("partition", "voronoi");
    CHECK_FALSE(st);
    CHECK(st.message.find("watershed | monotone | layers") != std::string::npos);
    st = p.set_from_string("agent_radius", "0.4m");
    CHECK_FALSE(st);
    CHECK(st.message.find("agent_radius") != std::string::npos);
    CHECK_FALSE(p.set_from_string("agent_radius", ""));
    CHECK_FALSE(p.set_from_string("filter_ledge", "maybe"));
    st = p.set_from_string("agent_raduis", "1");
    CHECK_FALSE(st);
    CHECK(st.message.find("unknown parameter 'agent_raduis'") != std::string::npos);

    for (const ParamDef& d : param_table()) {  // to_string round-trips
        Params a;
        Params b;
        CHECK(b.set_from_string(d.name, a.to_string(d.id)));
        CHECK(a.get(d.id) == b.get(d.id));
    }
}

TEST_CASE("params: derived voxel units follow Recast's rounding") {
    Params p;
    const float bmin[3] = {0, 0, 0}, bmax[3] = {30, 5, 12};
    BakeConfig c = derive_config(p, bmin, bmax);
    CHECK(c.walkable_height == 10);  // ceil(2.0 / 0.2)
    CHECK(c.walkable_climb == 4);    // floor(0.9 / 0.2)
    CHECK(c.walkable_radius == 2);   // ceil(0.6 / 0.3)
    CHECK(c.min_region_area == 64);
    CHECK(c.merge_region_area == 400);
    CHECK(c.width == 100);
    CHECK(c.height == 40);
    CHECK(voxel_hint(ParamId::agent_radius, p) == "= 2 vx");
    CHECK(voxel_hint(ParamId::agent_height, p) == "= 10 vx");
    CHECK(voxel_hint(ParamId::agent_max_climb, p) == "= 4 vx");
    CHECK(voxel_hint(ParamId::region_min_size, p) == "= 64 cells = 5.76 m2");
    CHECK(voxel_hint(ParamId::cell_size, p).empty());  // the grid needs the mesh bounds
    const float gmin[3] = {0, 0, 0}, gmax[3] = {30, 7.1f, 15};
    CHECK(voxel_hint(ParamId::cell_size, p, gmin, gmax) == "= 100 x 50 cells");
    CHECK(voxel_hint(ParamId::cell_height, p, gmin, gmax) == "= 36 layers");
    CHECK(voxel_hint(ParamId::agent_max_slope, p, gmin, gmax).empty());
    REQUIRE(p.set(ParamId::agent_radius, 0.61));
    CHECK(derive_config(p, bmin, bmax).walkable_radius == 3);
}

TEST_CASE("stages: names round-trip") {
    for (int i = 0; i < kStageCount; ++i) {
        const auto s = stage_from_name(kStageNames[static_cast<size_t>(i)]);
        REQUIRE(s.has_value());
        CHECK(static_cast<int>(*s) == i);
    }
    CHECK_FALSE(stage_from_name("bogus").has_value());
}
