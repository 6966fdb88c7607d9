#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "tests/config_inputs.h"
#include "core/bake/erode.h"
#include "core/bake/filter.h"
#include "core/pipeline/pipeline.h"
#include "test_files.h"
#include "test_scenes.h"

using namespace nav;

namespace {

// A 12 x 12 m floor with a 2 x 2 x 3 m box in the middle and a 1 x 1 m raised platform.
InputMesh small_scene() {
    InputMesh m;
    navtest::add_floor(m, 0, 0, 12, 12, 0);
    navtest::add_box(m, 5, 0, 5, 7, 3, 7);
    navtest::add_box(m, 1, 0, 1, 3, 0.4f, 3);
    return m;
}

std::vector<std::string> names(const std::vector<Stage>& v) {
    std::vector<std::string> r;
    for (Stage s : v) r.emplace_back(stage_name(s));
    return r;
}

}  // namespace

TEST_CASE("pipeline: a full bake builds every stage and records times and counts") {
    Pipeline p;
    REQUIRE(p.set_mesh(small_scene()));
    CHECK(p.first_dirty() == Stage::Input);
    const auto t0 = std::chrono::steady_clock::now();
    REQUIRE(p.run());
    const double run_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const auto b = p.snapshot();
    CHECK(b->built_through == kStageCount - 1);
    CHECK(p.first_dirty() == Stage::Count);
    CHECK(b->solid);
    CHECK(b->filtered);
    CHECK(b->compact);
    CHECK(b->eroded);
    CHECK(b->areas);
    CHECK(b->distance);
    CHECK(b->regions);
    double stages_ms = 0;
    for (const StageStats& s : b->stats) {
        CHECK(s.built);
        stages_ms += s.ms;
    }
    // Each stage is timed on its own, one after another inside run(): together they took some
    // time, and no more than run() did (a unit slip or a time kept from an earlier run would not).
    CHECK(stages_ms > 0.0);
    CHECK(stages_ms <= run_ms);
    CHECK(b->count("solid_spans") > 0);
    CHECK(b->count("compact_spans") > 0);
    CHECK(b->count("walkable_spans") > 0);
    CHECK(b->count("walkable_spans") < b->count("compact_spans"));  // erosion took the rim
    CHECK(b->count("regions") >= 1);
    CHECK(b->stages_run.size() == static_cast<size_t>(kStageCount));
}

TEST_CASE("pipeline: a parameter change re-runs only from the stage that reads it") {
    Pipeline p;
    REQUIRE(p.set_mesh(small_scene()));
    REQUIRE(p.run());

    REQUIRE(p.set_param(ParamId::agent_radius, 0.9));
    CHECK(p.first_dirty() == Stage::Erode);
    REQUIRE(p.run());
    CHECK(names(p.snapshot()->stages_run) ==
          std::vector<std::string>{"erode", "areas", "distance", "regions", "contours", "polymesh", "detail", "navmesh"});

    REQUIRE(p.set_param("partition", "monotone"));
    REQUIRE(p.run());
    CHECK(names(p.snapshot()->stages_run) == std::vector<std::string>{"regions", "contours", "polymesh", "detail", "navmesh"});

    REQUIRE(p.set_param("agent_height", "1.5"));
    REQUIRE(p.run());
    CHECK(p.snapshot()->stages_run.front() == Stage::Filter);

    REQUIRE(p.set_param("cell_size", "0.25"));
    REQUIRE(p.run());
    CHECK(p.snapshot()->stages_run.front() == Stage::Rasterize);

    REQUIRE(p.set_param("agent_max_slope", "30"));
    REQUIRE(p.run());
    CHECK(p.snapshot()->stages_run.front() == Stage::Input);

    // Setting a value equal to the current one dirties nothing.
    REQUIRE(p.set_param(ParamId::agent_radius, 0.9));
    REQUIRE(p.run());
    CHECK(p.snapshot()->stages_run.empty());

    // Volumes dirty the areas stage.
    ConvexVolume v;
    v.verts = {4, 0, 0, 4, 0, 4, 0, 0, 4, 0, 0, 0};
    v.hmin = -1;
    v.hmax = 1;
    v.area = kAreaWater;
    REQUIRE(p.set_input(&nav::BakeInputs::volumes, {v}));
    REQUIRE(p.run());
    CHECK(p.snapshot()->stages_run.front() == Stage::Areas);
    CHECK(p.snapshot()->count("volume_spans") > 0);
}

TEST_CASE("pipeline: path_mode and threads dirty no stage (the queries and the scheduler read them, not the bake)") {
    Pipeline p;
    REQUIRE(p.set_mesh(small_scene()));
    REQUIRE(p.run());
    const auto before = p.snapshot();
    REQUIRE(p.set_param("path_mode", "optimal"));
    CHECK(p.first_dirty() == Stage::Count);
    REQUIRE(p.set_param(ParamId::threads, 3));
    CHECK(p.first_dirty() == Stage::Count);
    REQUIRE(p.run());
    const auto after = p.snapshot();
    CHECK(after->stages_run.empty());
    CHECK(after->inputs.params.path_mode() == PathMode::Optimal);  // the bake carries the new value
    CHECK(after->navmesh == before->navmesh);               // the very same navmesh
    // the whole parameter set at once (the debugger's worker path) too
    Params q = after->inputs.params;
    REQUIRE(q.set(ParamId::path_mode, 0));
    REQUIRE(p.set_input(&nav::BakeInputs::params, q));
    CHECK(p.first_dirty() == Stage::Count);
    // and the help says so
    const std::string help = params_help();
    const size_t at = help.find("  path_mode ");
    REQUIRE(at != std::string::npos);
    CHECK(help.substr(at, help.find('\n', at) - at).find("rebuilds nothing") != std::string::npos);
}

TEST_CASE("pipeline: run to a chosen stage, then continue") {
    Pipeline p;
    REQUIRE(p.set_mesh(small_scene()));
    REQUIRE(p.run(Stage::Compact));
    auto b = p.snapshot();
    CHECK(b->built_through == static_cast<int>(Stage::Compact));
    CHECK(b->compact);
    CHECK_FALSE(b->eroded);
    CHECK_FALSE(b->regions);
    REQUIRE(p.run());
    CHECK(names(p.snapshot()->stages_run) ==
          std::vector<std::string>{"erode", "areas", "distance", "regions", "contours", "polymesh", "detail", "navmesh"});
}

TEST_CASE("pipeline: deterministic, and published snapshots stay unchanged by later builds") {
    Pipeline a, b;
    REQUIRE(a.set_mesh(small_scene()));
    REQUIRE(b.set_mesh(small_scene()));
    REQUIRE(a.run());
    REQUIRE(b.run());
    const auto sa = a.snapshot();
    CHECK(sa->regions->reg == b.snapshot()->regions->reg);
    CHECK(*sa->areas == *b.snapshot()->areas);
    CHECK(sa->distance->dist == b.snapshot()->distance->dist);

    const std::vector<uint16_t> before = sa->regions->reg;
    REQUIRE(a.set_param(ParamId::partition, 1));
    REQUIRE(a.run());
    CHECK(sa->regions->reg == before);  // the held snapshot did not change under us
    CHECK(a.snapshot()->regions.get() != sa->regions.get());

    // Rebuilding with nobody holding the old snapshot reuses the stage buffers.
    Pipeline c;
    REQUIRE(c.set_mesh(small_scene()));
    REQUIRE(c.run());
    const void* first = c.snapshot()->compact.get();
    c.mark_dirty(Stage::Input);
    REQUIRE(c.run());
    CHECK(c.snapshot()->compact.get() == first);
}

TEST_CASE("pipeline: cancel stops the build and keeps earlier stages") {
    Pipeline p;
    REQUIRE(p.set_mesh(small_scene()));
    REQUIRE(p.run(Stage::Filter));
    CancelFlag cancel{true};
    const Status st = p.run(kLastStage, &cancel);
    CHECK(st.code == Status::Code::Cancelled);
    CHECK(p.first_dirty() == Stage::Compact);
    CHECK(p.snapshot()->filtered);
    cancel = false;
    REQUIRE(p.run(kLastStage, &cancel));
    CHECK(p.snapshot()->regions);
}

TEST_CASE("pipeline: bad input is an error naming the problem, earlier stages stay") {
    SUBCASE("no mesh") {
        Pipeline p;
        const Status st = p.run();
        CHECK(st.code == Status::Code::BadInput);
        CHECK(st.message.find("no mesh") != std::string::npos);
    }
    SUBCASE("nothing walkable") {
        InputMesh m;
        navtest::add_floor(m, 0, 0, 4, 4, 0);
        std::swap(m.tris[1], m.tris[2]);  // flip both triangles: they face down
        std::swap(m.tris[4], m.tris[5]);
        Pipeline p;
        REQUIRE(p.set_mesh(m));
        const Status st = p.run();
        CHECK(st.code == Status::Code::BadInput);
        CHECK(st.message.find("nothing walkable") != std::string::npos);
        CHECK(p.snapshot()->error_stage == 0);
        CHECK(p.snapshot()->tri_areas == nullptr);
    }
    SUBCASE("grid over the memory limit is refused before allocating") {
        PipelineDef def = default_pipeline_def();
        def.memory_limit = 4096;
        Pipeline p(def);
        REQUIRE(p.set_mesh(small_scene()));
        const Status st = p.run();
        CHECK(st.code == Status::Code::BadInput);
        CHECK(st.message.find("memory limit") != std::string::npos);
        CHECK(st.message.find("cell_size") != std::string::npos);
        const auto b = p.snapshot();
        CHECK(b->error_stage == static_cast<int>(Stage::Rasterize));
        CHECK(b->tri_areas);
        CHECK_FALSE(b->solid);
        def.memory_limit = uint64_t(1) << 30;  // the same bake under a limit it fits
        Pipeline q(def);
        REQUIRE(q.set_mesh(small_scene()));
        CHECK(q.run());
    }
    SUBCASE("a parameter out of range leaves the pipeline as it was") {
        Pipeline p;
        REQUIRE(p.set_mesh(small_scene()));
        REQUIRE(p.run());
        const Status st = p.set_param("agent_radius", "-1");
        CHECK(st.code == Status::Code::BadInput);
        CHECK(p.first_dirty() == Stage::Count);
        CHECK(p.params().get(ParamId::agent_radius) == doctest::Approx(0.6));
    }
    SUBCASE("a bad mesh keeps the previous one") {
        Pipeline p;
        REQUIRE(p.set_mesh(small_scene()));
        REQUIRE(p.run());
        CHECK_FALSE(p.load_mesh("/no/such/file.obj"));
        CHECK(p.has_mesh());
        CHECK(p.first_dirty() == Stage::Count);
    }
}

TEST_CASE("config: JSON configs set parameters and volumes; errors name key and file") {
    Params p;
    std::vector<ConvexVolume> vols;
    REQUIRE(navtest::parse_config(R"({"agent_radius": 0.4, "partition": "layers", "filter_ledge": false,
        "volumes": [{"verts": [[0,0,0],[0,0,2],[2,0,2],[2,0,0]], "hmin": -1, "hmax": 1, "area": "grass"}]})",
                              "cfg.json", p, vols));
    CHECK(p.get(ParamId::agent_radius) == doctest::Approx(0.4));
    CHECK(p.partition() == Partition::Layers);
    CHECK_FALSE(p.b(ParamId::filter_ledge));
    REQUIRE(vols.size() == 1);
    CHECK(vols[0].area == kAreaGrass);
    CHECK(vols[0].verts.size() == 12);

    Params q;
    std::vector<ConvexVolume> v2;
    Status st = navtest::parse_config(R"({"agent_radius": -3})", "cfg.json", q, v2);
    CHECK_FALSE(st);
    CHECK(st.message.find("cfg.json") != std::string::npos);
    CHECK(st.message.find("agent_radius") != std::string::npos);
    CHECK(q.get(ParamId::agent_radius) == doctest::Approx(0.6));  // unchanged on error

    st = navtest::parse_config(R"({"agent_radiu": 1})", "cfg.json", q, v2);
    CHECK(st.message.find("unknown key \"agent_radiu\"") != std::string::npos);
    st = navtest::parse_config(R"({"agent_radius": [1]})", "cfg.json", q, v2);
    CHECK_FALSE(st);
    st = navtest::parse_config("{not json", "cfg.json", q, v2);
    CHECK(st.message.find("not valid JSON") != std::string::npos);
    st = navtest::parse_config(R"([1,2])", "cfg.json", q, v2);
    CHECK_FALSE(st);
    st = navtest::parse_config(R"({"volumes": [{"verts": [[0,0,0],[1,0,0]], "area": "water"}]})", "cfg.json", q, v2);
    CHECK_FALSE(st);
    CHECK(st.message.find("volumes[0]") != std::string::npos);
    st = navtest::parse_config(R"({"volumes": [{"verts": [[0,0,0],[0,0,1],[1,0,1]], "area": "lava"}]})", "cfg.json", q, v2);
    CHECK(st.message.find("volumes[0].area: unknown area 'lava'") != std::string::npos);

    CHECK_FALSE(navtest::load_config("/no/such/config.json", q, v2));
    navtest::TempFile f(".json", R"({"cell_size": 0.25})");
    REQUIRE(navtest::load_config(f.path(), q, v2));
    CHECK(q.get(ParamId::cell_size) == doctest::Approx(0.25));
}

TEST_CASE("pipeline: a change that leaves every derived voxel value unchanged re-runs nothing") {
    Pipeline p;
    REQUIRE(p.set_mesh(small_scene()));
    REQUIRE(p.set_param(ParamId::cell_size, 0.3));
    REQUIRE(p.set_param(ParamId::agent_radius, 0.6));
    REQUIRE(p.run());
    const auto before = p.snapshot();
    // 0.6 m and 0.5 m are both 2 cells at 0.3 m cells
    REQUIRE(p.set_param(ParamId::agent_radius, 0.5));
    CHECK(p.first_dirty() == static_cast<Stage>(kStageCount));
    REQUIRE(p.run());
    const auto after = p.snapshot();
    CHECK(after->stages_run.empty());
    CHECK(after->inputs.params.get(ParamId::agent_radius) == doctest::Approx(0.5));  // the bake carries the new value
    CHECK(after->config.walkable_radius == before->config.walkable_radius);
    CHECK(after->navmesh == before->navmesh);  // the very same results
    // 0.7 m is 3 cells: the erosion and what follows re-run
    REQUIRE(p.set_param(ParamId::agent_radius, 0.7));
    CHECK(p.first_dirty() == Stage::Erode);
    REQUIRE(p.run());
    CHECK(p.snapshot()->stages_run.front() == Stage::Erode);
    CHECK(p.snapshot()->config.walkable_radius == before->config.walkable_radius + 1);
    // agent_height 2.0 -> 1.9 m at 0.2 m cell height: 10 cells either way (ceil)
    const double h = p.params().get(ParamId::agent_height);
    const double ch = p.params().get(ParamId::cell_height);
    const int cells = static_cast<int>(std::ceil(h / ch - 1e-9));
    REQUIRE(p.set_param(ParamId::agent_height, (cells - 0.5) * ch));
    CHECK(p.first_dirty() == static_cast<Stage>(kStageCount));
}

TEST_CASE("pipeline: the filter, compact and erode stages stop inside at a set cancel flag") {
    Pipeline p;
    REQUIRE(p.set_mesh(small_scene()));
    REQUIRE(p.run(Stage::Compact));
    const auto b = p.snapshot();
    REQUIRE(b->solid);
    REQUIRE(b->filtered);
    REQUIRE(b->compact);
    CancelFlag stop{true};
    const BakeConfig& c = b->config;

    // The filters return before touching a column: the heightfield keeps every unfiltered area.
    Heightfield hf = *b->solid;
    filter_low_hanging_obstacles(c.walkable_climb, hf, &stop);
    filter_ledge_spans(c.walkable_height, c.walkable_climb, hf, &stop);
    filter_walkable_low_height_spans(c.walkable_height, hf, &stop);
    int64_t changed = 0, walkable = 0;
    for (size_t i = 0; i < hf.pool.size(); ++i) {
        changed += hf.pool[i].area != b->solid->pool[i].area;
        walkable += b->solid->pool[i].area != kNullArea;
    }
    CHECK(walkable > 0);
    CHECK(changed == 0);
    // ... while without the flag the ledge filter clears the grid's edge spans.
    filter_ledge_spans(c.walkable_height, c.walkable_climb, hf, nullptr);
    for (size_t i = 0; i < hf.pool.size(); ++i) changed += hf.pool[i].area != b->solid->pool[i].area;
    CHECK(changed > 0);

    CompactHeightfield chf;
    CHECK(build_compact_heightfield(c.walkable_height, c.walkable_climb, *b->filtered, chf, &stop).code ==
          Status::Code::Cancelled);
    std::vector<uint8_t> areas = b->compact->areas, scratch;
    CHECK(erode_walkable_area(c.walkable_radius, *b->compact, areas, scratch, &stop).code == Status::Code::Cancelled);
    CHECK(erode_walkable_area(c.walkable_radius, *b->compact, areas, scratch, nullptr));
}
