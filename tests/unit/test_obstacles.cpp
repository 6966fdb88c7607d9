// Temporary obstacles (core/bake/obstacles.h): the shapes' tests, their stamping in the areas
// stage, the tiled re-bake of only the tiles they touch, the config JSON and bad input.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "tests/config_inputs.h"
#include "navmesh_bytes.h"
#include "core/formats/config_json.h"
#include "core/bake/obstacles.h"
#include "core/pipeline/pipeline.h"
#include "core/runtime/query.h"
#include "test_scenes.h"
#include "tile_scene.h"

using namespace nav;

namespace {

// A 30 m corridor 3 m wide along x, walls on both sides (the floor extends under them).
InputMesh corridor() {
    InputMesh m;
    navtest::add_floor(m, 0, 0, 30, 5, 0);
    navtest::add_box(m, 0, 0, 0, 30, 2.5f, 1);
    navtest::add_box(m, 0, 0, 4, 30, 2.5f, 5);
    return m;
}

Obstacle cylinder(float x, float y, float z, float r, float h = 2.0f) {
    Obstacle o;
    o.shape = ObstacleShape::Cylinder;
    o.pos[0] = x, o.pos[1] = y, o.pos[2] = z;
    o.radius = r;
    o.height = h;
    return o;
}

using navtest::navmesh_bytes;

Route route(const NavMesh& n, const float* a, const float* b) {
    NavQuery q;
    q.init(&n);
    const float ext[3] = {1, 2, 1};
    Route r;
    REQUIRE(q.find_route(a, b, ext, QueryFilter{}, RouteOptions{}, r));
    return r;
}

}  // namespace

TEST_CASE("obstacles: shapes contain what they should, grown by the agent radius") {
    const Obstacle c = cylinder(1, 0, 1, 0.5f);
    CHECK(obstacle_contains_xz(c, 0, 1.4f, 1));
    CHECK_FALSE(obstacle_contains_xz(c, 0, 1.6f, 1));
    CHECK(obstacle_contains_xz(c, 0.2f, 1.6f, 1));
    Obstacle b;
    b.shape = ObstacleShape::Box;
    b.pos[0] = 0, b.pos[1] = 1, b.pos[2] = 0;
    b.half[0] = 2, b.half[1] = 1, b.half[2] = 1;
    CHECK(obstacle_contains_xz(b, 0, 1.9f, 0.9f));
    CHECK_FALSE(obstacle_contains_xz(b, 0, 2.1f, 0));
    // Grown corners are round: (2.3, 1.3) is 0.42 m from the corner, beyond 0.4.
    CHECK_FALSE(obstacle_contains_xz(b, 0.4f, 2.3f, 1.3f));
    CHECK(obstacle_contains_xz(b, 0.4f, 2.25f, 1.25f));
    // Turned a quarter: its long side runs along z.
    Obstacle r = b;
    r.shape = ObstacleShape::RotatedBox;
    r.yaw = 3.14159265f / 2;
    CHECK(obstacle_contains_xz(r, 0, 0, 1.9f));
    CHECK_FALSE(obstacle_contains_xz(r, 0, 1.9f, 0));
    float box[4], y0, y1;
    obstacle_bounds(r, 0, box, &y0, &y1);
    CHECK(box[0] == doctest::Approx(-1).epsilon(1e-4));
    CHECK(box[3] == doctest::Approx(2).epsilon(1e-4));
    CHECK(y0 == 0);
    CHECK(y1 == 2);
    // The frame the debugger draws and picks in: world and local undo each other, and a local +x
    // corner of the quarter-turned box lies toward -z (counter-clockwise seen from +y).
    Obstacle t = r;
    t.pos[0] = 3, t.pos[2] = -1, t.yaw = 0.7f;
    float lx = 0, lz = 0, wx = 0, wz = 0;
    obstacle_to_local(t, 4.5f, 2.0f, &lx, &lz);
    obstacle_to_world(t, lx, lz, &wx, &wz);
    CHECK(wx == doctest::Approx(4.5f).epsilon(1e-5));
    CHECK(wz == doctest::Approx(2.0f).epsilon(1e-5));
    obstacle_to_world(r, 2, 0, &wx, &wz);
    CHECK(wx == doctest::Approx(0).epsilon(1e-5));
    CHECK(wz == doctest::Approx(-2).epsilon(1e-5));
    CHECK(obstacle_contains_xz(r, 0, wx, wz + 0.05f));
    CHECK_FALSE(obstacle_contains_xz(r, 0, wx, wz - 0.05f));
}

TEST_CASE("obstacles: a cylinder across the corridor sends the path round it, a wall-to-wall one cuts it") {
    Pipeline p;
    REQUIRE(p.set_mesh(corridor()));
    REQUIRE(p.run());
    const float a[3] = {2, 0, 2.5f}, b[3] = {28, 0, 2.5f};
    const Route open = route(*p.snapshot()->navmesh, a, b);
    REQUIRE(open.path.reached);
    const double straight = open.length_xz();
    CHECK(straight == doctest::Approx(26).epsilon(0.01));

    // A 0.4 m post in the middle: grown by the 0.6 m agent radius it leaves a way past on one side.
    REQUIRE(p.set_input(&nav::BakeInputs::obstacles, {cylinder(15, 0, 2.0f, 0.4f)}));
    REQUIRE(p.run());
    CHECK(p.snapshot()->stages_run.front() == Stage::Areas);
    CHECK(p.snapshot()->count("obstacle_spans") > 0);
    const Route round = route(*p.snapshot()->navmesh, a, b);
    REQUIRE(round.path.reached);
    CHECK(round.length_xz() > straight + 0.01);  // round by z 3.0: 2 * hypot(13, 0.5) = 26.02
    // The path keeps the agent radius from the post: no point of it within 0.4 + 0.6 m - a cell.
    const auto& pts = round.straight.points;
    for (size_t i = 0; i + 3 < pts.size(); i += 3) {
        // distance from the post's axis to the segment
        const float px = 15, pz = 2.0f;
        const float x0 = pts[i], z0 = pts[i + 2], x1 = pts[i + 3], z1 = pts[i + 5];
        const float dx = x1 - x0, dz = z1 - z0, len2 = dx * dx + dz * dz;
        float t = len2 > 0 ? ((px - x0) * dx + (pz - z0) * dz) / len2 : 0;
        t = std::fmax(0.0f, std::fmin(1.0f, t));
        const float ex = x0 + t * dx - px, ez = z0 + t * dz - pz;
        CHECK(std::sqrt(ex * ex + ez * ez) > 1.0f - 0.35f);
    }

    // Wall to wall: unreachable, reported as a partial path.
    REQUIRE(p.set_input(&nav::BakeInputs::obstacles, {cylinder(15, 0, 2.5f, 1.5f)}));
    REQUIRE(p.run());
    const Route cut = route(*p.snapshot()->navmesh, a, b);
    CHECK_FALSE(cut.path.reached);

    // An obstacle floating above the floor (bottom 3 m up) marks nothing.
    REQUIRE(p.set_input(&nav::BakeInputs::obstacles, {cylinder(15, 3.0f, 2.5f, 1.5f)}));
    REQUIRE(p.run());
    CHECK(p.snapshot()->count("obstacle_spans") == 0);
    CHECK(route(*p.snapshot()->navmesh, a, b).path.reached);
}

TEST_CASE("obstacles: tiled, adding then removing gives the same navmesh back and touches only its tiles") {
    for (bool keep : {true, false}) {
        CAPTURE(keep);
        PipelineDef def = default_pipeline_def();
        def.keep_intermediates = keep;
        Pipeline p(def);
        REQUIRE(p.set_mesh(navtest::tile_scene()));
        REQUIRE(p.set_param(ParamId::tile_size, 32));
        REQUIRE(p.run());
        auto before = p.snapshot();
        REQUIRE(before->navmesh);
        const std::vector<uint8_t> bytes = navmesh_bytes(*before->navmesh);
        const std::vector<uint8_t> tiles = navtest::tile_mesh_bytes(*before);
        std::vector<uint32_t> salts;
        for (const TileSlot& s : before->navmesh->slots) salts.push_back(s.salt);

        // A box in the open, within one tile's own box (tile 32 cells = 9.6 m at 0.3 m cells).
        Obstacle box;
        box.shape = ObstacleShape::RotatedBox;
        box.pos[0] = 14.4f, box.pos[1] = 1.0f, box.pos[2] = 14.4f;
        box.half[0] = 1.0f, box.half[1] = 1.0f, box.half[2] = 0.5f;
        box.yaw = 0.5f;
        REQUIRE(p.set_input(&nav::BakeInputs::obstacles, {box}));
        REQUIRE(p.run());
        auto with = p.snapshot();
        REQUIRE(with->navmesh);
        CHECK(with->walkable_area() < before->walkable_area() - 1.0);
        // The tiles whose bordered box it meets re-baked; the others kept their objects and salts.
        float bx[4], y0, y1;
        obstacle_bounds(box, p.params().f(ParamId::agent_radius), bx, &y0, &y1);
        int touched = 0;
        for (size_t i = 0; i < with->tiles.size(); ++i) {
            const BakeConfig& c = with->tiles[i]->config;
            const bool meets = !(bx[2] < c.bmin[0] || bx[0] > c.bmax[0] || bx[3] < c.bmin[2] || bx[1] > c.bmax[2]);
            touched += meets;
            CHECK((with->tiles[i]->tile != before->tiles[i]->tile) == meets);
        }
        CHECK(touched >= 1);
        CHECK(touched < static_cast<int>(with->tiles.size()));
        CHECK(with->tiles_rebaked.size() == static_cast<size_t>(touched));
        int bumped = 0;
        for (size_t s = 0; s < salts.size(); ++s) bumped += with->navmesh->slots[s].salt != salts[s];
        CHECK(bumped == touched);
        if (keep) CHECK(with->stages_run.front() == Stage::Areas);

        REQUIRE(p.set_input(&nav::BakeInputs::obstacles, {}));
        REQUIRE(p.run());
        auto after = p.snapshot();
        CHECK(navmesh_bytes(*after->navmesh) == bytes);
        CHECK(navtest::tile_mesh_bytes(*after) == tiles);
        CHECK(after->walkable_area() == before->walkable_area());
    }
}

TEST_CASE("obstacles: config JSON round trip and clear errors naming the item") {
    Obstacle c = cylinder(1, 0, 2, 0.5f, 1.5f);
    Obstacle b;
    b.shape = ObstacleShape::RotatedBox;
    b.pos[0] = 3, b.pos[1] = 1, b.pos[2] = 4;
    b.half[0] = 1, b.half[1] = 1, b.half[2] = 0.25f;
    b.yaw = static_cast<float>(30.0 * 3.14159265358979323846 / 180.0);
    const std::string text = config_json_text(navtest::config_of(Params{}, {}, nullptr, {c, b}), 2);
    Params p;
    std::vector<ConvexVolume> vols;
    std::vector<Obstacle> obs;
    REQUIRE(navtest::parse_config(text, "cfg.json", p, vols, &obs));
    REQUIRE(obs.size() == 2);
    CHECK(obs[0] == c);
    CHECK(obs[1].shape == ObstacleShape::RotatedBox);
    CHECK(obs[1].yaw == doctest::Approx(b.yaw));

    auto err = [&](const char* json) {
        std::vector<Obstacle> o;
        const Status st = navtest::parse_config(json, "cfg.json", p, vols, &o);
        CHECK_FALSE(st);
        return st.message;
    };
    CHECK(err(R"({"obstacles": [{"pos": [0,0,0]}, {"pos": [1,0,1], "radius": -1}]})") ==
          "cfg.json: obstacles[1]: radius -1 must be a finite number > 0");
    CHECK(err(R"({"obstacles": [{"shape": "sphere", "pos": [0,0,0]}]})").find("obstacles[0]: \"shape\" must be") !=
          std::string::npos);
    CHECK(err(R"({"obstacles": [{"shape": "box", "pos": [0,0,0], "half": [1,0,1]}]})").find("obstacles[0]: half[1] 0") !=
          std::string::npos);
    CHECK(err(R"({"obstacles": [{"shape": "box", "pos": [0,0,0], "radius": 1}]})").find("unknown key \"radius\" for a box") !=
          std::string::npos);
    CHECK(err(R"({"obstacles": [{"radius": 1}]})").find("obstacles[0]: \"pos\" [x, y, z] is missing") != std::string::npos);
    CHECK(err(R"({"obstacles": [{"pos": [0, 1e9, 0]}]})").find("beyond") != std::string::npos);
    CHECK(err(R"({"obstacles": {}})").find("\"obstacles\" must be an array") != std::string::npos);
    Obstacle nan = c;
    nan.pos[1] = std::nanf("");
    CHECK(validate_obstacle(nan, "obstacles[4]").message == "obstacles[4]: pos is not finite");
}
