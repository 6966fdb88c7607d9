// Agents and crowds (issue 36): the ORCA solver, the surface move, and scenarios with known
// answers on generated levels and the shared meshes.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "core/crowd/crowd.h"
#include "core/crowd/orca.h"
#include "core/crowd/scenario.h"
#include "core/bake/input.h"
#include "core/pipeline/pipeline.h"
#include "test_scenes.h"

using namespace nav;

namespace {

std::shared_ptr<const Bake> bake_mesh(const InputMesh& mesh) {
    Pipeline p;
    REQUIRE(p.set_mesh(mesh));
    REQUIRE(p.run());
    auto b = p.snapshot();
    REQUIRE(b);
    REQUIRE(b->navmesh);
    return b;
}

// Two 12 x 14 m rooms joined by a door `door` wide in a wall 0.4 m thick (walls 2.5 m tall).
InputMesh rooms_with_door(float door) {
    InputMesh m;
    navtest::add_floor(m, 0, 0, 24.4f, 14, 0);
    const float z0 = 7 - door * 0.5f, z1 = 7 + door * 0.5f;
    navtest::add_box(m, 12, 0, 0, 12.4f, 2.5f, z0);
    navtest::add_box(m, 12, 0, z1, 12.4f, 2.5f, 14);
    return m;
}

// A corridor 30 m long and 6 m wide between two 12 x 12 m rooms: 4.8 m for the agents' centres
// (radius 0.6), four abreast. (At 4 m, 2.3 agents abreast, two groups of 20 meeting head-on jam
// for most of a minute: see docs/crowd.md.)
InputMesh corridor_level() {
    InputMesh m;
    navtest::add_floor(m, 0, 0, 12, 12, 0);
    navtest::add_floor(m, 12, 3, 42, 9, 0);
    navtest::add_floor(m, 42, 0, 54, 12, 0);
    return m;
}

// n points on a grid `spacing` apart filling [x0, x1] x [z0, z1] row by row.
void grid_points(std::vector<float>& out, int n, float x0, float x1, float z0, float z1, float spacing) {
    for (float z = z0; z <= z1 && static_cast<int>(out.size() / 3) < n; z += spacing)
        for (float x = x0; x <= x1 && static_cast<int>(out.size() / 3) < n; x += spacing) out.insert(out.end(), {x, 0.0f, z});
}

// Runs the scenario checking every tick that each agent stands on its corridor's first polygon.
CrowdFigures run_checked(const NavMesh& mesh, const ScenarioAgents& sc, const AgentParams& params, int ticks,
                         CrowdConfig cfg = {}) {
    Crowd crowd;
    cfg.max_agents = std::max(sc.count(), 1);
    REQUIRE(crowd.init(&mesh, cfg));
    CrowdFigures fig;
    const Status s = run_crowd_scenario(crowd, sc, params, ticks, fig);
    REQUIRE_MESSAGE(s, s.message);
    return fig;
}

std::string stuck_list(const CrowdFigures& f) {
    std::string s;
    for (int r = 1; r < kStuckReasons; ++r)
        if (f.stuck[r]) s += std::string(" ") + stuck_reason_name(static_cast<StuckReason>(r)) + "=" + std::to_string(f.stuck[r]);
    return s.empty() ? " none stuck" : s;
}

}  // namespace

TEST_CASE("crowd: ORCA keeps two agents meeting head-on apart and respects a wall") {
    using namespace orca;
    // a at the origin going +x at 1 m/s; b 3 m ahead coming the other way.
    const Line l = agent_line({0, 0}, {1, 0}, 0.5f, {3, 0}, {-1, 0}, 0.5f, 2.0f, 0.1f, 0.5f);
    const Vec2 v = solve(&l, 1, 0, 1.5f, {1, 0});
    // The preferred velocity leads into the other agent within the horizon: the answer turns away.
    CHECK(std::fabs(v.y) > 0.05f);
    // And lies in the allowed half-plane.
    CHECK(l.direction.x * (l.point.y - v.y) - l.direction.y * (l.point.x - v.x) <= 1e-4f);
    // A wall 0.5 m ahead (x = 0.5): at horizon 0.25 s the speed toward it is at most 2 m/s.
    Line w;
    REQUIRE(wall_line({0, 0}, {0.5f, -5}, {0.5f, 5}, 0.25f, &w));
    const Vec2 u = solve(&w, 1, 1, 5.0f, {5, 0});
    CHECK(u.x == doctest::Approx(2.0f).epsilon(1e-3));
    // Nothing in the way: the preferred velocity itself, capped at the speed.
    const Vec2 free_v = solve(nullptr, 0, 0, 1.0f, {3, 4});
    CHECK(free_v.x == doctest::Approx(0.6f));
    CHECK(free_v.y == doctest::Approx(0.8f));
}

TEST_CASE("crowd: move_along_surface slides along the navmesh edge and never leaves it") {
    InputMesh m;
    navtest::add_floor(m, 0, 0, 10, 10, 0);
    const auto b = bake_mesh(m);
    NavQuery q;
    q.init(b->navmesh.get());
    QueryFilter f;
    NearestPoly np;
    const float start[3] = {5, 0, 5}, ext[3] = {1, 1, 1};
    REQUIRE(q.find_nearest_poly(start, ext, f, np));
    REQUIRE(np.poly != kNoRef);
    SurfaceMove mv;
    // Within the mesh: exactly the end point.
    const float inside[3] = {6, 0, 5.5f};
    REQUIRE(q.move_along_surface(np.poly, np.point, inside, f, mv));
    CHECK(mv.pos[0] == doctest::Approx(6.0f));
    CHECK(mv.pos[2] == doctest::Approx(5.5f));
    CHECK(mv.visited.front() == np.poly);
    // Far past the edge (x = 10 minus the agent radius): stops on the edge.
    const float outside[3] = {30, 0, 5};
    REQUIRE(q.move_along_surface(np.poly, np.point, outside, f, mv, 64));
    CHECK(mv.pos[0] < 10.0f);
    CHECK(mv.pos[0] > 8.5f);
    CHECK(on_polygon(*b->navmesh, mv.visited.back(), mv.pos, 2.0f));
    // Bad input is refused, not walked.
    const float nan3[3] = {NAN, 0, 0};
    CHECK_FALSE(q.move_along_surface(np.poly, np.point, nan3, f, mv));
}

TEST_CASE("crowd: circle swap of 32 agents arrives, keeps apart and never leaves the navmesh") {
    InputMesh m;
    navtest::add_floor(m, -20, -20, 20, 20, 0);
    const auto b = bake_mesh(m);
    ScenarioSpec spec;
    spec.kind = CrowdScenario::Circle;
    spec.agents = 32;
    ScenarioAgents sc;
    REQUIRE(make_crowd_scenario(*b->navmesh, spec, sc));
    REQUIRE(sc.count() == 32);
    const CrowdFigures f = run_checked(*b->navmesh, sc, spec.params, 30 * 30);
    MESSAGE("circle 32: reached " << f.reached << " in " << f.time_to_goal_max << " s, overlaps " << f.overlap_agent_ticks << " of "
                                  << f.agents * f.ticks << " agent-ticks, min distance " << f.min_pair_distance);
    CHECK(f.reached == 32);                      // no deadlock in the symmetric swap
    CHECK(f.time_to_goal_max < 20.0);            // 16 m across at 3.5 m/s, plus the crush in the middle: 12 s measured
    CHECK(f.off_mesh_agent_ticks == 0);
    CHECK(f.overlap_agent_ticks <= f.agents * f.ticks / 1000);
}

TEST_CASE("crowd: two groups of 20 cross in a corridor, and a doorway of 30 drains") {
    AgentParams params;
    SUBCASE("corridor crossing 2 x 20") {
        const auto b = bake_mesh(corridor_level());
        ScenarioAgents sc;
        std::vector<float> left, right;
        // starts and goals 2 m apart (0.8 m between bodies): the room a walker needs to pass
        // between two agents that already stand at their goals
        grid_points(left, 20, 1.5f, 10.5f, 1.5f, 10.5f, 2.0f);
        grid_points(right, 20, 43.5f, 52.5f, 1.5f, 10.5f, 2.0f);
        REQUIRE(left.size() == 60);
        REQUIRE(right.size() == 60);
        sc.starts = left;
        sc.starts.insert(sc.starts.end(), right.begin(), right.end());
        sc.goals = right;
        sc.goals.insert(sc.goals.end(), left.begin(), left.end());
        const CrowdFigures f = run_checked(*b->navmesh, sc, params, 60 * 30);
        MESSAGE("corridor 2x20: reached " << f.reached << " in " << f.time_to_goal_max << " s, overlaps " << f.overlap_agent_ticks << " of "
                                  << f.agents * f.ticks << "," << stuck_list(f));
        CHECK(f.reached == 40);
        CHECK(f.time_to_goal_max < 60.0);  // 26 s measured
        CHECK(f.off_mesh_agent_ticks == 0);
        CHECK(f.overlap_agent_ticks <= f.agents * f.ticks / 1000);
    }
    SUBCASE("doorway of 30") {
        const auto b = bake_mesh(rooms_with_door(2.4f));
        ScenarioAgents sc;
        grid_points(sc.starts, 30, 1.5f, 10.5f, 1.5f, 12.5f, 1.6f);
        grid_points(sc.goals, 30, 14.4f, 22.4f, 1.5f, 12.5f, 2.0f);
        REQUIRE(sc.count() == 30);
        REQUIRE(sc.goals.size() == 90);
        const CrowdFigures f = run_checked(*b->navmesh, sc, params, 90 * 30);
        MESSAGE("doorway 30: reached " << f.reached << " in " << f.time_to_goal_max << " s, overlaps " << f.overlap_agent_ticks << " of "
                                  << f.agents * f.ticks << "," << stuck_list(f));
        CHECK(f.reached == 30);
        CHECK(f.time_to_goal_max < 90.0);  // one file through the door: 45 s measured
        CHECK(f.off_mesh_agent_ticks == 0);
        CHECK(f.overlap_agent_ticks <= f.agents * f.ticks / 1000);
    }
}

TEST_CASE("crowd: the same scenario gives bit-identical positions on 1, 2 and 8 threads") {
    const auto b = bake_mesh(rooms_with_door(2.0f));
    ScenarioSpec spec;
    spec.kind = CrowdScenario::Random;
    spec.agents = 60;
    spec.seed = 7;
    ScenarioAgents sc;
    REQUIRE(make_crowd_scenario(*b->navmesh, spec, sc));
    struct Pool {
        static void run(int count, void (*task)(void*, int), void* ctx, void*) {
            std::vector<std::thread> ts;
            for (int k = 0; k < count; ++k) ts.emplace_back(task, ctx, k);
            for (std::thread& t : ts) t.join();
        }
    };
    std::vector<std::vector<float>> results;
    for (int workers : {1, 2, 8}) {
        CrowdConfig cfg;
        cfg.max_agents = 60;
        cfg.task_hook.run = Pool::run;
        cfg.task_hook.workers = workers;
        Crowd crowd;
        REQUIRE(crowd.init(b->navmesh.get(), cfg));
        std::vector<AgentId> ids;
        REQUIRE(start_crowd_scenario(crowd, sc, spec.params, &ids));
        for (int t = 0; t < 200; ++t) REQUIRE(crowd.update());
        std::vector<float> pos;
        for (AgentId id : ids) pos.insert(pos.end(), crowd.agent(id)->pos, crowd.agent(id)->pos + 3);
        results.push_back(pos);
    }
    CHECK(std::memcmp(results[0].data(), results[1].data(), results[0].size() * sizeof(float)) == 0);
    CHECK(std::memcmp(results[0].data(), results[2].data(), results[0].size() * sizeof(float)) == 0);
}

TEST_CASE("crowd: every scenario stays on the navmesh on the shared meshes") {
    for (const char* name : {"dungeon.obj", "nav_test.obj", "undulating.obj"}) {
        const std::string path = navtest::shared_mesh_or_skip(name);
        if (path.empty()) continue;
        CAPTURE(name);
        InputMesh mesh;
        REQUIRE(load_obj(path, mesh));
        const auto b = bake_mesh(mesh);
        for (CrowdScenario kind : {CrowdScenario::Circle, CrowdScenario::Corridor, CrowdScenario::Doorway, CrowdScenario::Random}) {
            CAPTURE(crowd_scenario_name(kind));
            ScenarioSpec spec;
            spec.kind = kind;
            spec.agents = 24;
            ScenarioAgents sc;
            const Status s = make_crowd_scenario(*b->navmesh, spec, sc);
            REQUIRE_MESSAGE(s, s.message);
            const CrowdFigures f = run_checked(*b->navmesh, sc, spec.params, 300);
            CHECK(f.off_mesh_agent_ticks == 0);
        }
    }
}

TEST_CASE("crowd: a goal no path reaches sends the agent to the nearest point, and says so") {
    // Two floors apart: no path between them.
    InputMesh m;
    navtest::add_floor(m, 0, 0, 10, 10, 0);
    navtest::add_floor(m, 20, 0, 30, 10, 0);
    const auto b = bake_mesh(m);
    Crowd crowd;
    CrowdConfig cfg;
    cfg.max_agents = 4;
    REQUIRE(crowd.init(b->navmesh.get(), cfg));
    AgentId id;
    const float start[3] = {2, 0, 5}, goal[3] = {25, 0, 5};
    REQUIRE(crowd.add_agent(start, AgentParams{}, &id));
    REQUIRE(crowd.set_destination(id, goal));
    for (int t = 0; t < 30 * 8; ++t) REQUIRE(crowd.update());
    const Agent* a = crowd.agent(id);
    REQUIRE(a);
    CHECK(a->goal_unreachable);
    CHECK(a->state == AgentState::Arrived);
    CHECK(a->pos[0] > 9.0f);  // at the edge nearest the goal
    CHECK(a->stuck == StuckReason::GoalUnreachable);
}

TEST_CASE("crowd: bad input is refused with the field named, and nothing half-built") {
    InputMesh m;
    navtest::add_floor(m, 0, 0, 10, 10, 0);
    const auto b = bake_mesh(m);
    Crowd crowd;
    CrowdConfig cfg;
    cfg.max_agents = 10000000;
    Status s = crowd.init(b->navmesh.get(), cfg);
    CHECK_FALSE(s);
    CHECK(s.message.find("max_agents is 10000000") != std::string::npos);
    cfg.max_agents = 2;
    REQUIRE(crowd.init(b->navmesh.get(), cfg));
    AgentParams p;
    p.radius = -1;
    AgentId id;
    const float at[3] = {5, 0, 5};
    s = crowd.add_agent(at, p, &id);
    CHECK_FALSE(s);
    CHECK(s.message.find("radius is -1") != std::string::npos);
    CHECK(id == kNoAgent);
    CHECK(crowd.active_count() == 0);
    p = AgentParams{};
    p.max_speed = -2;
    CHECK(crowd.add_agent(at, p, &id).message.find("max_speed is -2") != std::string::npos);
    p = AgentParams{};
    p.type = 40;
    CHECK(crowd.add_agent(at, p, &id).message.find("type is 40") != std::string::npos);
    REQUIRE(crowd.add_agent(at, AgentParams{}, &id));
    const float nan3[3] = {NAN, 0, 0};
    s = crowd.set_destination(id, nan3);
    CHECK_FALSE(s);
    CHECK(s.message.find("not finite") != std::string::npos);
    CHECK_FALSE(crowd.agent(id)->has_target);
    // A removed agent's id is stale, even when its slot is reused.
    REQUIRE(crowd.remove_agent(id));
    AgentId again;
    REQUIRE(crowd.add_agent(at, AgentParams{}, &again));
    CHECK(crowd.agent(id) == nullptr);
    CHECK_FALSE(crowd.warp(id, at));
    // Off the navmesh.
    const float far[3] = {100, 0, 100};
    CHECK(crowd.add_agent(far, AgentParams{}, &id).message.find("no navmesh") != std::string::npos);
}

TEST_CASE("crowd: find_straight_path with max_points stops after the first corners, as the whole path has them") {
    const auto b = bake_mesh(rooms_with_door(2.0f));
    NavQuery q;
    q.init(b->navmesh.get());
    const float s[3] = {2, 0, 2}, e[3] = {22, 0, 11}, ext[3] = {1, 2, 1};
    Route r;
    REQUIRE(q.find_route(s, e, ext, QueryFilter{}, RouteOptions{}, r));
    REQUIRE(r.straight.size() >= 3);  // it bends at the door
    StraightPathOptions opt;
    opt.max_points = 2;
    StraightPath first;
    REQUIRE(q.find_straight_path(r.straight.points.data(), &r.straight.points[static_cast<size_t>(r.straight.size() - 1) * 3],
                                 r.path.polys, opt, first));
    REQUIRE(first.size() == 2);
    for (int k = 0; k < 6; ++k) CHECK(first.points[static_cast<size_t>(k)] == r.straight.points[static_cast<size_t>(k)]);
    opt.max_points = -1;
    CHECK_FALSE(q.find_straight_path(s, e, r.path.polys, opt, first));
}

TEST_CASE("crowd: an obstacle dropped on the corridor makes its agents go round it") {
    Pipeline p;
    REQUIRE(p.set_mesh(corridor_level()));
    REQUIRE(p.run());
    auto first = p.snapshot();
    REQUIRE(first->navmesh);
    Crowd crowd;
    CrowdConfig cfg;
    cfg.max_agents = 8;
    REQUIRE(crowd.init(first->navmesh.get(), cfg));
    std::vector<AgentId> ids;
    for (int k = 0; k < 6; ++k) {
        const float s[3] = {3.0f, 0, 2.0f + 1.6f * static_cast<float>(k)}, g[3] = {51.0f, 0, 2.0f + 1.6f * static_cast<float>(k)};
        AgentId id;
        REQUIRE(crowd.add_agent(s, AgentParams{}, &id));
        REQUIRE(crowd.set_destination(id, g));
        ids.push_back(id);
    }
    for (int t = 0; t < 90; ++t) REQUIRE(crowd.update());  // 3 s: into the corridor, before its middle
    // A pillar 2 m across in the middle of the corridor (x 27, z 6): 2 m of floor on either side,
    // 0.8 m for the centres.
    BakeInputs in = p.inputs();
    Obstacle o;
    o.shape = ObstacleShape::Cylinder;
    o.pos[0] = 27, o.pos[1] = 0, o.pos[2] = 6;
    o.radius = 1.0f;
    o.height = 2.0f;
    in.obstacles = {o};
    REQUIRE(p.set_inputs(in));
    REQUIRE(p.run());
    auto second = p.snapshot();
    REQUIRE(second->navmesh);
    crowd.set_navmesh(second->navmesh.get());
    REQUIRE(crowd.update());
    CHECK(crowd.stats().replans == 6);
    int reached = 0;
    for (int t = 0; t < 30 * 40 && reached < 6; ++t) {
        REQUIRE(crowd.update());
        reached = 0;
        for (AgentId id : ids) {
            const Agent* a = crowd.agent(id);
            // never inside the pillar grown by the agent's radius (the navmesh's hole), within the
            // voxel grid's cell (0.3 m) the hole is traced on
            CHECK(std::hypot(a->pos[0] - 27.0f, a->pos[2] - 6.0f) > 1.0f + 0.6f - 0.3f);
            CHECK(on_polygon(*second->navmesh, a->polys.front(), a->pos, 2.0f));
            if (a->state == AgentState::Arrived) ++reached;
        }
    }
    for (AgentId id : ids) {
        const Agent* a = crowd.agent(id);
        if (a->state != AgentState::Arrived)
            MESSAGE(std::string(agent_state_name(a->state)) << " at " << a->pos[0] << ", " << a->pos[2] << " stuck "
                                                            << std::string(stuck_reason_name(a->stuck)));
    }
    CHECK(reached == 6);
}
