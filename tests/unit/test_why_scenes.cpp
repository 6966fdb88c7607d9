// Issue 21's checks on the generated scenes (tools/why_scenes.h): each scene loses its point for
// one known reason; explain_point must name that stage and cause, find_fix must offer a verified
// change of the right parameter, that change applied must put the point on the navmesh, and the
// unchanged scene must still lose it. Solo and tiled (tile_size 32, the fix verified on one tile).
// The step scene: explain_path finds the two islands, the gap at the step, and a fix that joins them.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "core/pipeline/pipeline.h"
#include "core/explain/why.h"
#include "why_scenes.h"

namespace {

nav::InputMesh scene_mesh(const whyscene::Scene& s) {
    nav::InputMesh m;
    m.verts = s.verts;
    m.tris = s.tris;
    return m;
}

std::vector<nav::ConvexVolume> scene_volumes(const whyscene::Scene& s) {
    std::vector<nav::ConvexVolume> out;
    for (const whyscene::Volume& v : s.volumes) {
        nav::ConvexVolume cv;
        cv.verts = v.verts;
        cv.hmin = v.hmin;
        cv.hmax = v.hmax;
        cv.area = static_cast<uint8_t>(v.area);
        out.push_back(cv);
    }
    return out;
}

std::shared_ptr<const nav::Bake> bake(const whyscene::Scene& s, const nav::Params& p,
                                      const std::vector<nav::ConvexVolume>& volumes) {
    nav::Pipeline pl;
    REQUIRE(pl.set_mesh(scene_mesh(s)).ok());
    REQUIRE(pl.set_input(&nav::BakeInputs::params, p));
    REQUIRE(pl.set_input(&nav::BakeInputs::volumes, volumes));
    const nav::Status st = pl.run();
    REQUIRE_MESSAGE(st.ok(), st.message);
    return pl.snapshot();
}

const whyscene::Scene& scene(const std::string& name) {
    static const std::vector<whyscene::Scene> all = whyscene::why_scenes();
    for (const whyscene::Scene& s : all)
        if (s.name == name) return s;
    FAIL("no scene " << name);
    return all.front();
}

void check_scene(const std::string& name, int tile_size) {
    const whyscene::Scene& s = scene(name);
    CAPTURE(name);
    CAPTURE(tile_size);
    nav::Params p;
    REQUIRE(p.set(nav::ParamId::tile_size, tile_size).ok());
    const auto volumes = scene_volumes(s);
    const auto b = bake(s, p, volumes);
    const nav::WhyStory story = nav::explain_point(*b, s.point);
    CAPTURE(story.cause_text);
    CHECK_FALSE(story.on_navmesh);
    CHECK_FALSE(nav::point_on_navmesh(*b, s.point));
    REQUIRE(story.lost_at.has_value());
    CHECK(nav::stage_name(*story.lost_at) == s.stage);
    CHECK(nav::why_cause_name(story.cause) == s.cause);
    CHECK_FALSE(story.cause_text.empty());
    REQUIRE_FALSE(story.stages.empty());
    CHECK(story.stages.back().stage == *story.lost_at);
    CHECK_FALSE(story.stages.back().kept);
    if (tile_size > 0) CHECK(story.tile_x >= 0);

    const auto fix = nav::find_fix(*b, story);
    REQUIRE(fix.has_value());
    CHECK(fix->verified);
    CHECK(fix->bakes >= 1);
    CAPTURE(fix->text);
    if (s.param == "volume") {
        CHECK(fix->remove_volume == story.volume);
        CHECK_FALSE(fix->param.has_value());
    } else {
        REQUIRE(fix->param.has_value());
        CHECK(nav::param_def(*fix->param).name == s.param);
        CHECK(fix->from == p.get(*fix->param));
        CHECK(fix->to != fix->from);
    }
    CHECK(fix->effects.area_after > fix->effects.area_before);

    // The fix applied, as --set param=to would: the point is on the navmesh, and told so.
    nav::Params q = p;
    auto vols = volumes;
    nav::apply_why_fix(*fix, q, vols);
    if (fix->param) {
        nav::Params typed;  // the value read back from its text, as a user passes it
        REQUIRE(typed.set_from_string(nav::param_def(*fix->param).name, q.to_string(*fix->param)).ok());
        CHECK(typed.get(*fix->param) == q.get(*fix->param));
    }
    const auto fixed = bake(s, q, vols);
    nav::PolyRef poly = nav::kNoRef;
    int island = -1;
    CHECK(nav::point_on_navmesh(*fixed, s.point, &poly, &island));
    const nav::WhyStory after = nav::explain_point(*fixed, s.point);
    CHECK(after.on_navmesh);
    CHECK_FALSE(after.lost_at.has_value());
    CHECK(after.cause == nav::WhyCause::None);
    CHECK(after.poly != nav::kNoRef);
    CHECK(after.island >= 0);
}

}  // namespace

TEST_CASE("why scenes: each point is lost at its stage for its cause, and the verified fix keeps it") {
    for (const char* name : {"slope", "low_height", "ledge", "erosion", "small_region", "volume", "simplified"})
        check_scene(name, 0);
}

TEST_CASE("why scenes, tiled: the same answers, the fix verified on the point's tile") {
    for (const char* name : {"slope", "low_height", "ledge", "erosion", "volume"}) check_scene(name, 32);
}

TEST_CASE("why scenes: the numbers of the story are this level's") {
    nav::Params p;
    {   // low_height: 10 cells of clearance (floor top 1, ceiling from 11), agent_height 10 cells.
        const whyscene::Scene& s = scene("low_height");
        const auto b = bake(s, p, {});
        const nav::WhyStory st = nav::explain_point(*b, s.point);
        CAPTURE(st.cause_text);
        CHECK(st.cause_text.find("2.00 m") != std::string::npos);  // the clearance, and agent_height
        REQUIRE(st.decider == nav::ParamId::agent_height);
        const auto fix = nav::find_fix(*b, st);
        REQUIRE(fix.has_value());
        CHECK(fix->to == doctest::Approx(1.8));  // 9 cells: one under the clearance
        CHECK(std::fabs(st.floor_y - 0.1f) < 0.21f);
    }
    {   // ledge: a drop of 1.0 m (5 cells) against a climb of 4 cells; 1.0 m climbs it.
        const whyscene::Scene& s = scene("ledge");
        const auto b = bake(s, p, {});
        const nav::WhyStory st = nav::explain_point(*b, s.point);
        CAPTURE(st.cause_text);
        CHECK(st.cause_text.find("1.00 m") != std::string::npos);
        const auto fix = nav::find_fix(*b, st);
        REQUIRE(fix.has_value());
        CHECK(fix->to == doctest::Approx(1.0));
    }
    {   // erosion: 3 free cells between the walls; a radius of 1 cell (0.3 m) keeps the middle one.
        const whyscene::Scene& s = scene("erosion");
        const auto b = bake(s, p, {});
        const nav::WhyStory st = nav::explain_point(*b, s.point);
        CAPTURE(st.cause_text);
        const auto fix = nav::find_fix(*b, st);
        REQUIRE(fix.has_value());
        CHECK(fix->to == doctest::Approx(0.3));
    }
    {   // small_region: 7 x 7 = 49 cells left of the platform's top; region_min_size 7 keeps it.
        const whyscene::Scene& s = scene("small_region");
        const auto b = bake(s, p, {});
        const nav::WhyStory st = nav::explain_point(*b, s.point);
        CAPTURE(st.cause_text);
        CHECK(st.cause_text.find("49") != std::string::npos);
        CHECK(st.cause_text.find("64") != std::string::npos);
        const auto fix = nav::find_fix(*b, st);
        REQUIRE(fix.has_value());
        CHECK(fix->to == 7);
    }
    {   // slope: 47 degrees against 45; 48 is the first whole degree that passes.
        const whyscene::Scene& s = scene("slope");
        const auto b = bake(s, p, {});
        const nav::WhyStory st = nav::explain_point(*b, s.point);
        CAPTURE(st.cause_text);
        CHECK(st.cause_text.find("47") != std::string::npos);
        const auto fix = nav::find_fix(*b, st);
        REQUIRE(fix.has_value());
        CHECK(fix->to == 48);
    }
}

TEST_CASE("why path: two rooms joined by a step 0.1 m over the climb") {
    const whyscene::Scene& s = scene("step");
    REQUIRE(s.path);
    for (int tile_size : {0, 32}) {
        CAPTURE(tile_size);
        nav::Params p;
        REQUIRE(p.set(nav::ParamId::tile_size, tile_size).ok());
        const auto b = bake(s, p, {});
        const nav::WhyPath w = nav::explain_path(*b, s.point, s.end);
        CHECK_FALSE(w.reached);
        CHECK(w.island_start >= 0);
        CHECK(w.island_end >= 0);
        CHECK(w.island_start != w.island_end);
        REQUIRE(w.has_gap);
        // The gap crosses the step at x = 0: erosion keeps both islands a few cells off it.
        CHECK(std::fmin(w.gap_a[0], w.gap_b[0]) < 0.0f);
        CHECK(std::fmax(w.gap_a[0], w.gap_b[0]) > 0.0f);
        CHECK(w.gap_length < 3.0f);
        CAPTURE(w.gap_story.cause_text);
        REQUIRE(w.gap_story.lost_at.has_value());
        CHECK(nav::stage_name(*w.gap_story.lost_at) == s.stage);
        CHECK(nav::why_cause_name(w.gap_story.cause) == s.cause);
        REQUIRE(w.fix.has_value());
        CHECK(w.fix->verified);
        REQUIRE(w.fix->param.has_value());
        CHECK(nav::param_def(*w.fix->param).name == s.param);
        CHECK(w.fix->to == doctest::Approx(1.0));

        nav::Params q = p;
        std::vector<nav::ConvexVolume> vols;
        nav::apply_why_fix(*w.fix, q, vols);
        const auto fixed = bake(s, q, vols);
        const nav::WhyPath after = nav::explain_path(*fixed, s.point, s.end, false);
        CHECK(after.reached);
        CHECK_FALSE(after.has_gap);
        CHECK(after.path_length >= after.straight_length - 1e-3f);
    }
}

TEST_CASE("why: a point on the navmesh is on it; bad points get an answer, never a crash") {
    const whyscene::Scene& s = scene("ledge");
    nav::Params p;
    const auto b = bake(s, p, {});
    const float open[3] = {-6.0f, 0.1f, -6.0f};  // open ground, far from the platform
    const nav::WhyStory on = nav::explain_point(*b, open);
    CHECK(on.on_navmesh);
    CHECK_FALSE(on.lost_at.has_value());
    CHECK(on.poly != nav::kNoRef);
    CHECK(on.island >= 0);
    CHECK_FALSE(nav::find_fix(*b, on).has_value());

    const float nan = std::nanf("");
    const float bad[][3] = {{nan, 0, 0}, {0, nan, 0}, {INFINITY, 0, 0}, {500.0f, 0.1f, 0.0f}, {0.0f, 0.1f, -40.0f}};
    for (const auto& pt : bad) {
        const nav::WhyStory st = nav::explain_point(*b, pt);
        CHECK_FALSE(st.on_navmesh);
        CHECK_FALSE(st.cause_text.empty());
        CHECK((st.cause == nav::WhyCause::BadPoint || st.cause == nav::WhyCause::OutsideBounds));
        CHECK_FALSE(nav::find_fix(*b, st).has_value());
    }
}

TEST_CASE("why path: a detour round a door too narrow for the agent") {
    const whyscene::Scene& s = scene("detour");
    REQUIRE(s.path);
    nav::Params p;
    const auto b = bake(s, p, {});
    const nav::WhyPath w = nav::explain_path(*b, s.point, s.end);
    CHECK(w.reached);
    CHECK_FALSE(w.has_gap);
    CHECK(w.path_length > nav::WhyPath::kDetourRatio * w.straight_length);
    REQUIRE(w.detour);
    CHECK(std::fabs(w.detour_point[0]) < 0.5f);  // in the door (the wall is x in [-0.5, 0.5])
    CHECK(std::fabs(w.detour_point[2]) < 0.5f);
    CAPTURE(w.gap_story.cause_text);
    REQUIRE(w.gap_story.lost_at.has_value());
    CHECK(nav::stage_name(*w.gap_story.lost_at) == s.stage);
    CHECK(nav::why_cause_name(w.gap_story.cause) == s.cause);
    REQUIRE(w.fix.has_value());
    REQUIRE(w.fix->param.has_value());
    CHECK(nav::param_def(*w.fix->param).name == s.param);
    nav::Params q = p;
    std::vector<nav::ConvexVolume> vols;
    nav::apply_why_fix(*w.fix, q, vols);
    const auto fixed = bake(s, q, vols);
    const nav::WhyPath after = nav::explain_path(*fixed, s.point, s.end, false);
    CHECK(after.reached);
    CHECK_FALSE(after.detour);
    CHECK(after.path_length < 0.9f * w.path_length);
}

TEST_CASE("why: the floor under a table is the floor, the table top is the table") {
    // A table top 0.8 m over the ground (within agent_max_climb 0.9 of it): a click on the floor
    // under it follows the floor (0.7 m of clearance, lost to the low-height filter), a click on
    // its top follows the top.
    whyscene::Scene s = scene("volume");
    s.volumes.clear();
    const int base = static_cast<int>(s.verts.size() / 3);
    const float x0 = -1.0f, x1 = 1.0f, y0 = 0.8f, y1 = 0.9f, z0 = -1.0f, z1 = 1.0f;
    const float v[] = {x0, y0, z0, x1, y0, z0, x1, y0, z1, x0, y0, z1, x0, y1, z0, x1, y1, z0, x1, y1, z1, x0, y1, z1};
    s.verts.insert(s.verts.end(), v, v + 24);
    const int t[] = {0, 1, 2, 0, 2, 3, 4, 7, 6, 4, 6, 5, 0, 4, 5, 0, 5, 1, 3, 2, 6, 3, 6, 7, 0, 3, 7, 0, 7, 4, 1, 5, 6, 1, 6, 2};
    for (int i : t) s.tris.push_back(base + i);
    const auto b = bake(s, nav::Params{}, {});
    const float under[3] = {0.0f, 0.1f, 0.0f}, top[3] = {0.0f, 0.9f, 0.0f};
    const nav::WhyStory su = nav::explain_point(*b, under);
    CAPTURE(su.cause_text);
    CHECK(su.floor_y == doctest::Approx(0.1f));
    CHECK(su.cause == nav::WhyCause::LowHeight);
    const nav::WhyStory st = nav::explain_point(*b, top);
    CHECK(st.floor_y == doctest::Approx(0.9f));
    CHECK(st.cause != nav::WhyCause::LowHeight);
}

TEST_CASE("why: a level baked with mesh_* corrections gets its fix verified on the corrected mesh") {
    // The ledge scene modelled at half size and baked with mesh_scale 2: the same level. The fix
    // search bakes the snapshot's mesh (corrected) and must not scale it a second time.
    whyscene::Scene s = scene("ledge");
    for (float& v : s.verts) v *= 0.5f;
    nav::Params p;
    REQUIRE(p.set(nav::ParamId::mesh_scale, 2.0).ok());
    const auto b = bake(s, p, {});
    const nav::WhyStory st = nav::explain_point(*b, scene("ledge").point);
    CAPTURE(st.cause_text);
    CHECK(st.cause == nav::WhyCause::Ledge);
    const auto fix = nav::find_fix(*b, st);
    REQUIRE(fix.has_value());
    CHECK(fix->to == doctest::Approx(1.0));
    nav::Params q = p;
    std::vector<nav::ConvexVolume> vols;
    nav::apply_why_fix(*fix, q, vols);
    CHECK(nav::point_on_navmesh(*bake(s, q, vols), scene("ledge").point));
}

TEST_CASE("why path: an end off the navmesh gets its own story and a fix verified on the path") {
    // The step scene with the end on the platform's edge cell (x in [-0.15, 0.15] holds the step
    // face; the platform's first cell is lost to the ledge filter): the end's story is the answer,
    // and its fix must join the two ends, not only put the end on some island.
    const whyscene::Scene& s = scene("step");
    const auto b = bake(s, nav::Params{}, {});
    const float end[3] = {0.05f, 1.1f, 0.0f};
    const nav::WhyPath w = nav::explain_path(*b, s.point, end);
    CHECK_FALSE(w.reached);
    CHECK(w.start_story.on_navmesh);
    CHECK_FALSE(w.end_story.on_navmesh);
    CAPTURE(w.end_story.cause_text);
    CHECK(w.end_story.cause == nav::WhyCause::Ledge);
    REQUIRE(w.fix.has_value());
    REQUIRE(w.fix->param.has_value());
    CHECK(*w.fix->param == nav::ParamId::agent_max_climb);
    nav::Params q;
    std::vector<nav::ConvexVolume> vols;
    nav::apply_why_fix(*w.fix, q, vols);
    const auto fixed = bake(s, q, vols);
    int ia = -1, ib = -1;
    CHECK(nav::point_on_navmesh(*fixed, s.point, nullptr, &ia));
    CHECK(nav::point_on_navmesh(*fixed, end, nullptr, &ib));
    CHECK(ia == ib);
}
