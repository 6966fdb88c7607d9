// explain_point and point_on_navmesh (core/explain/why.h): one hand-made scene per cause, each story's
// stage, cause, decider and numbers checked against values worked out by hand from the geometry.
//
// The scenes stand on a ground quad [-9.15, 9.15]^2 at y = 0 with the default parameters
// (cell_size 0.3, cell_height 0.2, agent_height 2.0 -> 10 cells, agent_max_climb 0.9 -> 4 cells,
// agent_radius 0.6 -> 2 cells, agent_max_slope 45, region_min_size 8). Cell borders then lie at
// 0.15 + 0.3k and cell centres at multiples of 0.3, so no edge of a box sits on a cell border. The
// grid's y origin is the ground (0): a span's top at voxel n is 0.2 n m; the ground's span is
// [0, 1) (a flat quad still fills one voxel), its top 0.2 m. Box tops at 0.1 + 0.2k fill voxel k.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/bake/filter.h"
#include "core/pipeline/pipeline.h"
#include "core/explain/why.h"
#include "test_scenes.h"

using namespace nav;

namespace {

InputMesh ground() {
    InputMesh m;
    navtest::add_floor(m, -9.15f, -9.15f, 9.15f, 9.15f, 0.0f);
    return m;
}

std::shared_ptr<const Bake> bake_of(const InputMesh& m, const std::function<void(Params&)>& tweak = {},
                                    std::vector<ConvexVolume> volumes = {}, int only_tx = -1, int only_tz = -1) {
    PipelineDef def = default_pipeline_def();
    if (only_tx >= 0) def.only_tiles = {only_tx, only_tz, only_tx, only_tz};
    Pipeline pipe(def);
    REQUIRE(pipe.set_mesh(m));
    BakeInputs in;
    if (tweak) tweak(in.params);
    in.volumes = std::move(volumes);
    REQUIRE(pipe.set_inputs(in));
    const Status st = pipe.run();
    REQUIRE_MESSAGE(st, st.message);
    return pipe.snapshot();
}

void tiled32(Params& p) { REQUIRE(p.set(ParamId::tile_size, 32)); }

std::string story_text(const WhyStory& s) {
    std::string t = "cause " + std::string(why_cause_name(s.cause)) + ": " + s.cause_text;
    for (const WhyStage& st : s.stages)
        t += "\n  " + std::string(stage_name(st.stage)) + (st.kept ? " kept: " : " LOST: ") + st.text;
    return t;
}

// A story ends at the stage that lost it, and that stage is the last line and not kept.
void check_lost(const WhyStory& s, Stage at, WhyCause cause) {
    INFO("story: " << story_text(s));
    REQUIRE(s.lost_at.has_value());
    CHECK(stage_name(*s.lost_at) == stage_name(at));
    CHECK(why_cause_name(s.cause) == why_cause_name(cause));
    CHECK_FALSE(s.on_navmesh);
    REQUIRE_FALSE(s.stages.empty());
    CHECK(stage_name(s.stages.back().stage) == stage_name(at));
    CHECK_FALSE(s.stages.back().kept);
    for (size_t i = 0; i + 1 < s.stages.size(); ++i) CHECK(s.stages[i].kept);
    CHECK_FALSE(s.cause_text.empty());
    CHECK(s.cause_text.find('\n') == std::string::npos);  // one line
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A ramp rising along +x from (x0, 0) with rise/run = k, over z in [-0.9, 0.9], normal up.
void add_ramp(InputMesh& m, float x0, float x1, float k) {
    const int b = m.vert_count();
    const float y1 = (x1 - x0) * k;
    const float v[] = {x0, 0, -0.9f, x0, 0, 0.9f, x1, y1, 0.9f, x1, y1, -0.9f};
    m.verts.insert(m.verts.end(), v, v + 12);
    const int t[] = {b, b + 1, b + 2, b, b + 2, b + 3};
    m.tris.insert(m.tris.end(), t, t + 6);
}

// Two walls 1.0 m apart along z: the corridor x in [-0.5, 0.5]; their tops at 2.1 m fill voxel 10
// (top 2.2 m).
InputMesh corridor() {
    InputMesh m = ground();
    navtest::add_box(m, -3.0f, 0.0f, -3.0f, -0.5f, 2.1f, 3.0f);
    navtest::add_box(m, 0.5f, 0.0f, -3.0f, 3.0f, 2.1f, 3.0f);
    return m;
}

// A platform x, z in [-3, 3] with its top at 1.1 m: voxel 5, top 1.2 m, 1.0 m above the ground's 0.2 m.
InputMesh platform() {
    InputMesh m = ground();
    navtest::add_box(m, -3.0f, 0.0f, -3.0f, 3.0f, 1.1f, 3.0f);
    return m;
}

}  // namespace

TEST_CASE("why: a slope just over agent_max_slope is lost at input") {
    InputMesh m = ground();
    // rise/run 1.05: atan(1.05) = 46.397 deg > 45. High up the ramp (x = 2.4) its span [11, 13)
    // stands clear of the ground's, so no walkable span merges into it.
    add_ramp(m, 0.15f, 3.15f, 1.05f);
    const auto bake = bake_of(m);
    const float p[3] = {2.4f, 2.5f, 0.0f};
    const WhyStory s = explain_point(*bake, p);
    check_lost(s, Stage::Input, WhyCause::Slope);
    // floor under the point: (2.4 - 0.15) * 1.05 = 2.3625
    CHECK(s.floor_y == doctest::Approx(2.3625).epsilon(1e-4));
    REQUIRE(s.decider.has_value());
    CHECK(*s.decider == ParamId::agent_max_slope);
    // needed: ceil(46.397 * 10) / 10 + 0.1 = 46.4 + 0.1 = 46.5 (> 46.397: the ramp passes)
    CHECK(s.needed == doctest::Approx(46.5));
    CHECK(has(s.cause_text, "46.4 deg"));  // the slope, 1 decimal
    CHECK(has(s.cause_text, "45.0 deg"));
    CHECK_FALSE(s.stages.back().culprit.empty());
}

TEST_CASE("why: a slab 0.2 m too low is lost to the low-height filter") {
    InputMesh m = ground();
    // Slab bottom at 2.1 m: voxel floor(2.1 / 0.2) = 10, so the ceiling is at 2.0 m.
    navtest::add_box(m, -3.0f, 2.1f, -3.0f, 3.0f, 2.3f, 3.0f);
    const auto bake = bake_of(m);
    const float p[3] = {0.0f, 0.0f, 0.0f};
    const WhyStory s = explain_point(*bake, p);
    check_lost(s, Stage::Filter, WhyCause::LowHeight);
    CHECK(s.floor_y == doctest::Approx(0.0));
    REQUIRE(s.decider.has_value());
    CHECK(*s.decider == ParamId::agent_height);
    // clearance: (10 - 1) voxels * 0.2 = 1.8 m <= agent_height 2.0 m (10 voxels); the filter keeps
    // only more clearance than agent_height, so needed is a cell under it: 1.6 m (8 voxels < 9)
    CHECK(s.needed == doctest::Approx(1.6).epsilon(1e-4));
    CHECK(s.cause_text == "clearance 1.80 m < agent_height 2.00 m (low ceiling at 2.00 m)");
    // the culprit is the slab's span: 2.0 .. 2.4 m (voxels 10 .. ceil(2.3 / 0.2) = 12)
    const WhyShape& c = s.stages.back().culprit;
    REQUIRE(c.has_box);
    CHECK(c.box_min[1] == doctest::Approx(2.0));
    CHECK(c.box_max[1] == doctest::Approx(2.4));
}

TEST_CASE("why: a ledge of 1.0 m at climb 0.9 m is lost to the ledge filter") {
    const auto bake = bake_of(platform());
    // The platform's edge cell, centre x = 3.0 ([2.85, 3.15], part covered by the box): its +x
    // neighbour (x = 3.3) has only the ground, top 0.2 m.
    const float p[3] = {3.0f, 1.1f, 0.0f};
    const WhyStory s = explain_point(*bake, p);
    check_lost(s, Stage::Filter, WhyCause::Ledge);
    CHECK(s.floor_y == doctest::Approx(1.1));
    REQUIRE(s.decider.has_value());
    CHECK(*s.decider == ParamId::agent_max_climb);
    // drop: (6 - 1) voxels * 0.2 = 1.0 m > walkable_climb floor(0.9 / 0.2) = 4 voxels
    CHECK(s.needed == doctest::Approx(1.0).epsilon(1e-4));
    CHECK(has(s.cause_text, "drop 1.00 m on the +x side > agent_max_climb 0.90 m"));
    const WhyShape& c = s.stages.back().culprit;
    CHECK(c.lines.size() == 6);  // the cell's +x side
    REQUIRE(c.has_box);          // the neighbour cell, from its floor 0.2 up to 1.2
    CHECK(c.box_min[0] == doctest::Approx(3.15));
    CHECK(c.box_min[1] == doctest::Approx(0.2));
    CHECK(c.box_max[1] == doctest::Approx(1.2));
}

TEST_CASE("why: a ledge deeper than agent_height is decided by filter_ledge") {
    InputMesh m = ground();
    // Top at 2.5 m: voxel ceil(12.5) = 13, top 2.6 m; drop to the ground (2.6 - 0.2) = 2.4 m > agent_height 2.0:
    // no climb keeps it walkable as a step, only turning the ledge filter off does.
    navtest::add_box(m, -3.0f, 0.0f, -3.0f, 3.0f, 2.5f, 3.0f);
    const auto bake = bake_of(m);
    const float p[3] = {-3.0f, 2.5f, 0.0f};
    const WhyStory s = explain_point(*bake, p);
    check_lost(s, Stage::Filter, WhyCause::Ledge);
    REQUIRE(s.decider.has_value());
    CHECK(*s.decider == ParamId::filter_ledge);
    CHECK(s.needed == 0.0);
    CHECK(has(s.cause_text, "drop 2.40 m on the -x side"));
}

TEST_CASE("why: a corridor 1.0 m wide at agent_radius 0.6 m is eroded") {
    const auto bake = bake_of(corridor());
    const float p[3] = {0.0f, 0.0f, 0.0f};
    const WhyStory s = explain_point(*bake, p);
    check_lost(s, Stage::Erode, WhyCause::Erosion);
    INFO(story_text(s));
    REQUIRE(s.decider.has_value());
    CHECK(*s.decider == ParamId::agent_radius);
    // Free cells across: centres -0.3, 0, 0.3 (the walls reach into the cells at +-0.6). The
    // boundary is the next cell (its outer link is missing: the wall rises 2.2 - 0.2 = 2.0 m), at
    // chamfer distance 2 = 1 cell = 0.30 m < 2 * walkable_radius (ceil(0.6 / 0.3) = 2) = 4.
    // Needed: the largest radius keeping it, 1 cell = 0.30 m (ceil(0.3 / 0.3) = 1, threshold 2).
    CHECK(s.needed == doctest::Approx(0.3).epsilon(1e-4));
    CHECK(has(s.cause_text, "0.30 m (1 cells) < agent_radius 0.60 m (2 cells)"));
    CHECK(has(s.cause_text, "a wall: the neighbour column rises 2.00 m"));
    CHECK(has(s.cause_text, "corridor 0.90 m wide < 2 x agent_radius 0.60 m"));
    const WhyShape& c = s.stages.back().culprit;
    CHECK(c.has_box);
    CHECK(c.lines.size() >= 6);  // the line from the point to the boundary cell
}

TEST_CASE("why: a small raised platform is removed by region_min_size") {
    InputMesh m = ground();
    // Top at 1.1 m (1.0 m above the ground's top: ledges all round). Cells x, z in -1.2 .. 1.2 step
    // 0.3 carry the top (9 x 9); the ledge filter clears the outer ring (7 x 7 left); erosion by
    // 2 cells clears two more rings (chamfer 0 and 2 < 4): 3 x 3 = 9 cells < 8^2 = 64.
    navtest::add_box(m, -1.2f, 0.0f, -1.2f, 1.2f, 1.1f, 1.2f);
    const auto bake = bake_of(m);
    const float p[3] = {0.0f, 1.1f, 0.0f};
    const WhyStory s = explain_point(*bake, p);
    check_lost(s, Stage::Regions, WhyCause::SmallRegion);
    REQUIRE(s.decider.has_value());
    CHECK(*s.decider == ParamId::region_min_size);
    CHECK(s.needed == doctest::Approx(3.0));  // floor(sqrt(9))
    CHECK(has(s.cause_text, "island of 9 cells < region_min_size^2 = 64"));
    CHECK(s.stages.back().culprit.points.size() == 9 * 3);
}

TEST_CASE("why: the small platform with the region trace recorded, and monotone partition") {
    InputMesh m = ground();
    navtest::add_box(m, -1.2f, 0.0f, -1.2f, 1.2f, 1.1f, 1.2f);  // as above: an island of 9 cells
    for (int partition : {0, 1}) {
        Pipeline pipe;
        REQUIRE(pipe.set_mesh(m));
        REQUIRE(pipe.set_param(ParamId::partition, partition));
        pipe.set_record_region_trace(true);
        REQUIRE(pipe.run());
        const auto bake = pipe.snapshot();
        REQUIRE(bake->region_trace);
        const float p[3] = {0.3f, 1.1f, -0.3f};
        const WhyStory s = explain_point(*bake, p);
        check_lost(s, Stage::Regions, WhyCause::SmallRegion);
        CHECK(s.needed == doctest::Approx(3.0));
        CHECK(has(s.cause_text, "island of 9 cells"));
    }
}

TEST_CASE("why: a convex volume of area 0 takes the point off") {
    ConvexVolume v;
    v.verts = {-1.0f, 0.0f, -1.0f, 1.0f, 0.0f, -1.0f, 1.0f, 0.0f, 1.0f, -1.0f, 0.0f, 1.0f};
    v.hmin = -1.0f;
    v.hmax = 1.0f;
    v.area = kNullArea;
    ConvexVolume water = v;  // an earlier volume that marks it water first
    water.area = kAreaWater;
    const auto bake = bake_of(ground(), {}, {water, v});
    const float p[3] = {0.0f, 0.0f, 0.0f};
    const WhyStory s = explain_point(*bake, p);
    check_lost(s, Stage::Areas, WhyCause::Volume);
    CHECK(s.volume == 1);
    CHECK_FALSE(s.decider.has_value());
    CHECK(s.stages.back().culprit.lines.size() == 4 * 6);  // the volume's outline
    // Outside the volume: on the navmesh.
    const float q[3] = {-6.0f, 0.0f, -6.0f};
    CHECK(explain_point(*bake, q).on_navmesh);
}

TEST_CASE("why: a 1-cell-deep alcove is simplified away at edge_max_error 1.3") {
    // A room of 7 x 7 free cells (centres -0.9 .. 0.9) in walls 2 m tall, with an alcove 2 cells
    // wide (x centres 0, 0.3) and 1 deep (z centre 1.2) in its +z wall. No erosion (radius 0).
    InputMesh m = ground();
    navtest::add_box(m, -3.0f, 0.0f, -3.0f, -1.2f, 2.0f, 3.0f);
    navtest::add_box(m, 1.2f, 0.0f, -3.0f, 3.0f, 2.0f, 3.0f);
    navtest::add_box(m, -3.0f, 0.0f, -3.0f, 3.0f, 2.0f, -1.2f);
    navtest::add_box(m, -3.0f, 0.0f, 1.5f, 3.0f, 2.0f, 3.0f);
    navtest::add_box(m, -3.0f, 0.0f, 1.2f, -0.2f, 2.0f, 1.5f);
    navtest::add_box(m, 0.5f, 0.0f, 1.2f, 3.0f, 2.0f, 1.5f);
    auto tweak = [](Params& p) {
        REQUIRE(p.set(ParamId::agent_radius, 0.0));
        REQUIRE(p.set(ParamId::region_min_size, 2));
    };
    const auto bake = bake_of(m, tweak);
    // In the alcove: the raw outline steps out by 1 cell (z 1.05 -> 1.35) <= 1.3, so the simplified
    // wall runs straight along z = 1.05 and the point (z = 1.25) is 0.20 m outside it.
    const float p[3] = {0.0f, 0.0f, 1.25f};
    const WhyStory s = explain_point(*bake, p);
    check_lost(s, Stage::Contours, WhyCause::Simplified);
    REQUIRE(s.decider.has_value());
    CHECK(*s.decider == ParamId::edge_max_error);
    CHECK(s.needed == doctest::Approx(0.9));  // deviation 1.0 cell - 0.1
    CHECK(has(s.cause_text, "0.20 m"));
    // In the room: on it.
    const float q[3] = {0.0f, 0.0f, 0.0f};
    CHECK(explain_point(*bake, q).on_navmesh);
}

TEST_CASE("why: a point on the navmesh is never lost") {
    const auto bake = bake_of(corridor());
    const float p[3] = {-6.0f, 0.3f, -6.0f};
    const WhyStory s = explain_point(*bake, p);
    INFO(s.cause_text);
    CHECK(s.on_navmesh);
    CHECK_FALSE(s.lost_at.has_value());
    CHECK(s.cause == WhyCause::None);
    CHECK(s.poly != kNoRef);
    CHECK(s.island >= 0);
    CHECK_FALSE(s.pruned);
    CHECK(s.floor_y == doctest::Approx(0.0));
    CHECK(std::fabs(s.detail_y) < 0.9f);
    REQUIRE(s.stages.size() == static_cast<size_t>(kStageCount));
    for (const WhyStage& st : s.stages) CHECK(st.kept);
    CHECK(s.cell_x == 10);  // floor((-6 + 9.15) / 0.3) = floor(10.5)
    CHECK(s.cell_z == 10);
    PolyRef ref;
    int island = -2;
    CHECK(point_on_navmesh(*bake, p, &ref, &island));
    CHECK(ref == s.poly);
    CHECK(island == s.island);
    // The corridor's eroded middle: not on the navmesh.
    const float mid[3] = {0.0f, 0.0f, 0.0f};
    CHECK_FALSE(point_on_navmesh(*bake, mid));
}

TEST_CASE("why: NaN, outside the bounds and empty air over a hole") {
    InputMesh m;
    // The ground with a hole x, z in [-1, 1]: four quads around it.
    navtest::add_floor(m, -9.15f, -9.15f, 9.15f, -1.0f, 0.0f);
    navtest::add_floor(m, -9.15f, 1.0f, 9.15f, 9.15f, 0.0f);
    navtest::add_floor(m, -9.15f, -1.0f, -1.0f, 1.0f, 0.0f);
    navtest::add_floor(m, 1.0f, -1.0f, 9.15f, 1.0f, 0.0f);
    const auto bake = bake_of(m);

    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float bad[3] = {nan, 0.0f, 0.0f};
    const WhyStory a = explain_point(*bake, bad);
    CHECK(a.cause == WhyCause::BadPoint);
    CHECK_FALSE(a.on_navmesh);
    CHECK_FALSE(point_on_navmesh(*bake, bad));
    const float inf[3] = {0.0f, std::numeric_limits<float>::infinity(), 0.0f};
    CHECK(explain_point(*bake, inf).cause == WhyCause::BadPoint);

    const float far[3] = {1e30f, -1e30f, 3e38f};  // finite, far beyond any grid (and any int)
    CHECK(explain_point(*bake, far).cause == WhyCause::OutsideBounds);
    CHECK_FALSE(point_on_navmesh(*bake, far));
    const float out[3] = {20.0f, 0.0f, 0.0f};
    const WhyStory b = explain_point(*bake, out);
    CHECK(b.cause == WhyCause::OutsideBounds);
    CHECK_FALSE(b.decider.has_value());
    CHECK_FALSE(point_on_navmesh(*bake, out));

    // The hole's middle: cells with centres within +-0.6 have no triangle and no span.
    const float air[3] = {0.0f, 0.5f, 0.0f};
    const WhyStory c = explain_point(*bake, air);
    check_lost(c, Stage::Input, WhyCause::NoGeometry);
    CHECK(c.cause_text == "no geometry under this point");
    CHECK_FALSE(c.decider.has_value());
    CHECK_FALSE(point_on_navmesh(*bake, air));
}

TEST_CASE("why: stages not in the bake are reported, never a crash") {
    Pipeline pipe;
    REQUIRE(pipe.set_mesh(corridor()));
    REQUIRE(pipe.run(Stage::Compact));
    const auto bake = pipe.snapshot();
    const float p[3] = {0.0f, 0.0f, 0.0f};
    const WhyStory s = explain_point(*bake, p);
    check_lost(s, Stage::Erode, WhyCause::NotInBake);
    CHECK_FALSE(point_on_navmesh(*bake, p));
    // An empty snapshot.
    const Bake empty;
    const WhyStory e = explain_point(empty, p);
    CHECK_FALSE(e.on_navmesh);
    CHECK_FALSE(point_on_navmesh(empty, p));
}

TEST_CASE("why: tiled (tile_size 32), the corridor and the ledge tell the same story") {
    // 61 x 61 cells ((18.3 / 0.3 + 0.5) = 61.5 -> 61) in 2 x 2 tiles of 32 cells (9.6 m); border
    // walkable_radius + 3 = 5 cells.
    const auto bake = bake_of(corridor(), tiled32);
    REQUIRE(bake->tiled());
    const float p[3] = {0.0f, 0.0f, 0.0f};
    const WhyStory s = explain_point(*bake, p);
    check_lost(s, Stage::Erode, WhyCause::Erosion);
    CHECK(s.tile_x == 0);  // (0 + 9.15) / 9.6 = 0.95
    CHECK(s.tile_z == 0);
    CHECK(s.cell_x == 35);  // the tile grid starts at -9.15 - 5 * 0.3 = -10.65: floor(10.65 / 0.3) = floor(35.5)
    CHECK(s.cell_z == 35);
    REQUIRE(s.decider.has_value());
    CHECK(*s.decider == ParamId::agent_radius);
    CHECK(s.needed == doctest::Approx(0.3).epsilon(1e-4));
    CHECK(has(s.cause_text, "corridor 0.90 m wide < 2 x agent_radius 0.60 m"));

    const float q[3] = {-6.0f, 0.0f, -6.0f};
    const WhyStory on = explain_point(*bake, q);
    CHECK(on.on_navmesh);
    CHECK(on.poly != kNoRef);
    CHECK(on.island >= 0);

    const auto ledge = bake_of(platform(), tiled32);
    const float e[3] = {3.0f, 1.1f, 0.0f};
    const WhyStory l = explain_point(*ledge, e);
    check_lost(l, Stage::Filter, WhyCause::Ledge);
    CHECK(l.tile_x == 1);  // (3 + 9.15) / 9.6 = 1.27
    CHECK(l.tile_z == 0);
    REQUIRE(l.decider.has_value());
    CHECK(*l.decider == ParamId::agent_max_climb);
    CHECK(l.needed == doctest::Approx(1.0).epsilon(1e-4));
}

TEST_CASE("why: point_on_navmesh on a one-tile bake uses the tile's polymesh") {
    const auto bake = bake_of(corridor(), tiled32, {}, 0, 0);
    REQUIRE(bake->tiled());
    CHECK((!bake->navmesh || bake->navmesh->empty()));
    const float in_tile[3] = {-6.0f, 0.0f, -6.0f};
    CHECK(point_on_navmesh(*bake, in_tile));
    const float eroded[3] = {0.0f, 0.0f, 0.0f};  // tile 0,0 too, but eroded
    CHECK_FALSE(point_on_navmesh(*bake, eroded));
    const float far[3] = {-1e30f, 0.0f, 1e30f};
    CHECK_FALSE(point_on_navmesh(*bake, far));
    CHECK(explain_point(*bake, far).cause == WhyCause::OutsideBounds);
    const float other[3] = {6.0f, 0.0f, 6.0f};  // tile 1,1: not baked
    CHECK_FALSE(point_on_navmesh(*bake, other));
    const WhyStory s = explain_point(*bake, in_tile);
    CHECK(s.on_navmesh);
    const WhyStory o = explain_point(*bake, other);
    CHECK(o.cause == WhyCause::NotInBake);
}

TEST_CASE("why: a tiled bake without intermediates still knows a point on its polygons") {
    PipelineDef def = default_pipeline_def();
    def.keep_intermediates = false;
    Pipeline pipe(def);
    REQUIRE(pipe.set_mesh(corridor()));
    REQUIRE(pipe.set_param(ParamId::tile_size, 32));
    REQUIRE(pipe.run());
    const auto bake = pipe.snapshot();
    const float on[3] = {-6.0f, 0.0f, -6.0f};
    const WhyStory s = explain_point(*bake, on);
    INFO(story_text(s));
    CHECK(s.on_navmesh);
    CHECK(s.poly != kNoRef);
    CHECK(point_on_navmesh(*bake, on));
    // The eroded corridor: the stages that would tell why are gone.
    const float off[3] = {0.0f, 0.0f, 0.0f};
    const WhyStory o = explain_point(*bake, off);
    check_lost(o, Stage::Rasterize, WhyCause::NotInBake);
    CHECK_FALSE(point_on_navmesh(*bake, off));
}

TEST_CASE("why: on a real level the stories agree with the bake, span by span") {
    // Every other cell of the shared dungeon: a point on each compact span's floor. Where the story
    // follows that span, its erosion verdict is the bake's, a span the region filter dropped is a
    // SmallRegion story, and a span with a region is on the navmesh unless the outline lost it.
    // Every span the ledge filter cleared has a ledge story with a reason (never the fallback).
    const std::string path = navtest::shared_mesh_or_skip("dungeon.obj");
    if (path.empty()) return;
    Pipeline pipe;
    REQUIRE(pipe.load_mesh(path));
    REQUIRE(pipe.run());
    const auto bake = pipe.snapshot();
    const CompactHeightfield& chf = *bake->compact;
    int followed = 0, erode_wrong = 0, small_wrong = 0, on_wrong = 0;
    for (int z = 0; z < chf.height; z += 2)
        for (int x = 0; x < chf.width; x += 2) {
            const CompactCell cc = chf.cells[static_cast<size_t>(x + z * chf.width)];
            for (uint32_t i = cc.index; i < cc.index + cc.count; ++i) {
                const float p[3] = {chf.bmin[0] + (static_cast<float>(x) + 0.5f) * chf.cs,
                                    chf.bmin[1] + static_cast<float>(chf.spans[i].y) * chf.ch - 0.05f,
                                    chf.bmin[2] + (static_cast<float>(z) + 0.5f) * chf.cs};
                const WhyStory s = explain_point(*bake, p);
                const std::string key = "compact span " + std::to_string(i) + ":";
                bool mine = false, erode_kept = false, erode_seen = false;
                for (const WhyStage& st : s.stages) {
                    if (st.stage == Stage::Compact && st.text.rfind(key, 0) == 0) mine = true;
                    if (st.stage == Stage::Erode) {
                        erode_seen = true;
                        erode_kept = st.kept;
                    }
                }
                if (!mine || !erode_seen) continue;
                ++followed;
                erode_wrong += erode_kept != ((*bake->eroded)[i] != kNullArea);
                if ((*bake->areas)[i] != kNullArea && bake->regions->reg[i] == 0) small_wrong += s.cause != WhyCause::SmallRegion;
                if (bake->regions->reg[i] != 0)
                    on_wrong += !s.on_navmesh && s.cause != WhyCause::Simplified && s.cause != WhyCause::PolygonLost;
            }
        }
    CHECK(followed > 3000);
    CHECK(erode_wrong == 0);
    CHECK(small_wrong == 0);
    CHECK(on_wrong == 0);

    const Heightfield& hf = *bake->filtered;
    int ledges = 0, unexplained = 0;
    for (int z = 0; z < hf.height; ++z)
        for (int x = 0; x < hf.width; ++x)
            for (uint32_t i = hf.columns[static_cast<size_t>(x + z * hf.width)]; i != kNullSpan; i = hf.pool[i].next) {
                const Span& sp = hf.pool[i];
                if (!(sp.filtered_by & kFilteredLedge)) continue;
                const float p[3] = {hf.bmin[0] + (static_cast<float>(x) + 0.5f) * hf.cs,
                                    hf.bmin[1] + static_cast<float>(sp.smax) * hf.ch - 0.05f,
                                    hf.bmin[2] + (static_cast<float>(z) + 0.5f) * hf.cs};
                const WhyStory s = explain_point(*bake, p);
                if (s.cause != WhyCause::Ledge) continue;  // the point's surface led to another span
                ++ledges;
                unexplained += s.cause_text.find("cleared by the ledge filter") != std::string::npos;
                CHECK(s.decider.has_value());
            }
    CHECK(ledges > 100);
    CHECK(unexplained == 0);
}
