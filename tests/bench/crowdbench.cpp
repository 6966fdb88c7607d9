// crowdbench: our crowd (core/crowd, nav::Crowd) against Debian's DetourCrowd 1.5.1 (dtCrowd) on
// the same navmesh, the same agents, the same starts and goals. Not part of ctest (benchmarks never
// assert on time); run it with tests/bench/run_crowd.sh.
//
// Per mesh: our pipeline's bake at default parameters (solo unless --tile-size), its NavMesh, and
// the same bake exported to Detour (make_detour_mesh + write_mset, loaded as RecastDemo's loadAll
// does: tests/diff/detour_write_ref.h), so both crowds walk the same polygons.
// Per agent count N (--agents, default 100,1000,5000): scenario "random" (make_crowd_scenario,
// fixed seed), then for the same number of ticks at dt = 1/30 s:
//  - ours, 1 thread: CrowdConfig defaults with max_agents = N, every agent AgentParams' defaults
//    (radius 0.6, height 2, max_speed 3.5, max_accel 8, avoidance_quality 3), added and sent to
//    its goal by start_crowd_scenario;
//  - ours, 2 threads: the same with CrowdConfig::task_hook over a pool of 2 threads (the calling
//    thread and one std::thread; workers = 2). The crowd is bit-identical whatever the threads:
//    the final positions are compared with the 1-thread run's and a difference is reported;
//  - DetourCrowd: dtCrowd::init(N, 0.6, navmesh), RecastDemo's CrowdTool setup: obstacle
//    avoidance parameter sets 0..3 as CrowdToolState::init sets them (low / medium / good / high),
//    agents with radius 0.6, height 2, maxAcceleration 8, maxSpeed 3.5, collisionQueryRange =
//    12 radius, pathOptimizationRange = 30 radius, anticipate turns + visibility and topology
//    optimisation + obstacle avoidance + separation, obstacleAvoidanceType 3 (high), separation
//    weight 2; requestMoveTarget with the nearest polygon (findNearestPoly, the crowd's query
//    extents and filter) of each goal. Its filter excludes kPolyFlagDisabled as ours does.
// Time per tick: wall clock around Crowd::update / dtCrowd::update only, mean over the ticks.
// Quality: the same nav::CrowdMeter on both sides, fed every tick with every agent's position and
// whether it stands on the navmesh; an agent has reached its goal within stopping_distance +
// radius / 2 (0.3 m, run_crowd_scenario's; --arrive) in xz. Unlike run_crowd_scenario, every run
// goes the full number of ticks (no early stop once all arrived), the same on both sides.
// On the navmesh:
//  - ours: as run_crowd_scenario: crossing a link (OnLink), or on_polygon(mesh, Agent::polys[0],
//    pos, height) on the corridor's first polygon;
//  - Detour: crossing a link (DT_CROWDAGENT_STATE_OFFMESH), or walking with a corridor whose first
//    polygon is valid (dtNavMesh::isValidPolyRef) and holds the position by the very same test:
//    the Detour reference is mapped to our polygon (same bake: Detour tile (x, y, layer) is our
//    tile (x, z, layer), and polygon i of a Detour tile is polygon i of ours; checked per tile at
//    start-up), then on_polygon on our mesh. So both sides are judged by one point-in-polygon
//    test with the same slack, not by Detour's stricter closestPointOnPoly / getPolyHeight (an
//    agent Detour clamps exactly onto a wall edge could fail that one by rounding).
//
// Usage: crowdbench [--agents 100,1000,5000] [--ticks 300[,300,150]] [--seed N] [--tile-size N]
//                   [--arrive METRES] [--ours-separation W] [--only ours|detour] mesh.obj...
//        (--ticks: one value for every agent count, or one per count; no mesh: the shared meshes;
//         a mesh file that is absent is skipped with a message)
#include <DetourCrowd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench_check.h"
#include "core/crowd/crowd.h"
#include "core/crowd/scenario.h"
#include "core/formats/detour_export.h"
#include "core/pipeline/pipeline.h"
#include "core/runtime/detour_format.h"
#include "core/runtime/navmesh.h"
#include "diff/detour_write_ref.h"

namespace {

using Clock = std::chrono::steady_clock;
constexpr float kDt = 1.0f / 30.0f;
constexpr uint64_t kScenarioSeed = 0x63726f7764ull;  // "crowd"

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

std::vector<int> int_list(const std::string& s) {
    std::vector<int> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ',')) out.push_back(std::atoi(item.c_str()));
    return out;
}

std::string base_name(const std::string& p) {
    const size_t k = p.find_last_of('/');
    std::string n = k == std::string::npos ? p : p.substr(k + 1);
    if (n.size() > 4 && n.compare(n.size() - 4, 4, ".obj") == 0) n.resize(n.size() - 4);
    return n;
}

// A task pool for CrowdTaskHook: `threads` threads run a call's tasks, the calling thread being
// one of them (threads - 1 std::threads wait on a futex between calls: C++20 atomic wait). Tasks
// are handed out one index at a time, so no more than `threads` run at once.
class TaskPool {
public:
    explicit TaskPool(int threads) {
        for (int t = 1; t < threads; ++t) helpers_.emplace_back([this] { helper(); });
    }
    TaskPool(const TaskPool&) = delete;
    TaskPool& operator=(const TaskPool&) = delete;
    ~TaskPool() {
        stop_.store(true, std::memory_order_relaxed);
        gen_.fetch_add(1, std::memory_order_release);
        gen_.notify_all();
        for (auto& h : helpers_) h.join();
    }
    int threads() const { return static_cast<int>(helpers_.size()) + 1; }

    static void hook(int count, void (*task)(void* ctx, int index), void* ctx, void* user) {
        static_cast<TaskPool*>(user)->run(count, task, ctx);
    }

private:
    void run(int count, void (*task)(void*, int), void* ctx) {
        if (helpers_.empty() || count <= 1) {
            for (int i = 0; i < count; ++i) task(ctx, i);
            return;
        }
        count_ = count;
        task_ = task;
        ctx_ = ctx;
        next_.store(0, std::memory_order_relaxed);
        busy_.store(static_cast<int>(helpers_.size()), std::memory_order_relaxed);
        gen_.fetch_add(1, std::memory_order_release);
        gen_.notify_all();
        work();
        for (int b = busy_.load(std::memory_order_acquire); b != 0; b = busy_.load(std::memory_order_acquire))
            busy_.wait(b, std::memory_order_acquire);
    }
    void work() {
        for (int i = next_.fetch_add(1, std::memory_order_relaxed); i < count_; i = next_.fetch_add(1, std::memory_order_relaxed))
            task_(ctx_, i);
    }
    void helper() {
        uint32_t seen = 0;
        for (;;) {
            gen_.wait(seen, std::memory_order_acquire);
            seen = gen_.load(std::memory_order_acquire);
            if (stop_.load(std::memory_order_relaxed)) return;
            work();
            if (busy_.fetch_sub(1, std::memory_order_acq_rel) == 1) busy_.notify_one();
        }
    }

    std::vector<std::thread> helpers_;
    std::atomic<uint32_t> gen_{0};
    std::atomic<int> next_{0}, busy_{0};
    std::atomic<bool> stop_{false};
    int count_ = 0;
    void (*task_)(void*, int) = nullptr;
    void* ctx_ = nullptr;
};

// Detour's dtMeshTile index -> our tile slot, for mapping a dtPolyRef to our PolyRef.
struct RefMap {
    std::vector<int> slot_of_tile;  // -1: no such tile of ours
    nav::PolyRef ours(const dtNavMesh& dm, const nav::NavMesh& m, dtPolyRef ref) const {
        unsigned int salt = 0, it = 0, ip = 0;
        dm.decodePolyId(ref, salt, it, ip);
        if (it >= slot_of_tile.size() || slot_of_tile[it] < 0) return nav::kNoRef;
        const uint32_t s = static_cast<uint32_t>(slot_of_tile[it]);
        return nav::make_poly_ref(m.slots[s].salt, s, ip);
    }
};

bool make_ref_map(const dtNavMesh& dm, const nav::NavMesh& m, RefMap& out, std::string& err) {
    out.slot_of_tile.assign(static_cast<size_t>(dm.getMaxTiles()), -1);
    int dt_polys = 0;
    for (int i = 0; i < dm.getMaxTiles(); ++i) {
        const dtMeshTile* t = dm.getTile(i);
        if (!t || !t->header) continue;
        const int s = m.find_slot(t->header->x, t->header->y, t->header->layer);
        if (s < 0 || m.slots[static_cast<size_t>(s)].tile->npolys() != t->header->polyCount) {
            err = "Detour tile (" + std::to_string(t->header->x) + ", " + std::to_string(t->header->y) + ", " +
                  std::to_string(t->header->layer) + ") has " + std::to_string(t->header->polyCount) +
                  " polygons and no tile of ours with as many at the same place";
            return false;
        }
        out.slot_of_tile[static_cast<size_t>(i)] = s;
        dt_polys += t->header->polyCount;
    }
    if (dt_polys != m.npolys) {
        err = "Detour has " + std::to_string(dt_polys) + " polygons, ours " + std::to_string(m.npolys);
        return false;
    }
    return true;
}

struct Level {
    std::string name;
    std::shared_ptr<const nav::Bake> bake;
    const nav::NavMesh* mesh = nullptr;
    navdiff::DetourMesh detour;
    RefMap refmap;
    int tiles = 1;
};

bool prepare(const std::string& path, int tile_size, Level& lv, std::string& err) {
    lv.name = base_name(path);
    nav::PipelineDef def = nav::default_pipeline_def();
    def.keep_intermediates = false;  // as navbake: a tile keeps its polymesh, detail and runtime tile
    nav::Pipeline pipe(def);
    if (const nav::Status st = pipe.load_mesh(path); !st) {
        err = "cannot load " + path + ": " + st.message;
        return false;
    }
    if (tile_size > 0) bench_must(pipe.set_param(nav::ParamId::tile_size, tile_size), "tile_size");
    if (const nav::Status st = pipe.run(); !st) {
        err = "our bake failed: " + st.message;
        return false;
    }
    lv.bake = pipe.snapshot();
    if (!lv.bake->navmesh || lv.bake->navmesh->npolys == 0) {
        err = "the bake has no navmesh";
        return false;
    }
    lv.mesh = lv.bake->navmesh.get();
    lv.tiles = lv.mesh->ntiles;
    nav::DetourMeshFile f;
    if (const nav::Status st = nav::make_detour_mesh(*lv.bake, f); !st) {
        err = "make_detour_mesh: " + st.message;
        return false;
    }
    std::vector<uint8_t> mset;
    nav::write_mset(f, mset);
    if (!navdiff::load_detour_mset(mset, lv.detour, err)) return false;
    return make_ref_map(*lv.detour.mesh, *lv.mesh, lv.refmap, err);
}

struct Run {
    nav::CrowdFigures fig;
    int flagged = 0;          // ours: agents flagged stuck at the end
    int on_mesh_at_start = 0; // agents standing on the navmesh right after they were added
    double phase_ms[8] = {};  // ours: CrowdStats' phases, mean per tick (validate .. progress)
    int64_t path_searches = 0;  // ours: A* searches over the run
    std::vector<float> final_pos;
};

// Ours: `pool` null for one thread.
Run run_ours(const Level& lv, const nav::ScenarioAgents& sc, const nav::AgentParams& ap, int ticks, float arrive,
             TaskPool* pool) {
    const int n = sc.count();
    nav::CrowdConfig cfg;
    cfg.max_agents = n;
    cfg.dt = kDt;
    if (pool) {
        cfg.task_hook.run = &TaskPool::hook;
        cfg.task_hook.user = pool;
        cfg.task_hook.workers = pool->threads();
    }
    nav::Crowd crowd;
    bench_must(crowd.init(lv.mesh, cfg), "Crowd::init");
    std::vector<nav::AgentId> ids;
    bench_must(nav::start_crowd_scenario(crowd, sc, ap, &ids), "start_crowd_scenario");
    std::vector<float> pos(static_cast<size_t>(n) * 3);
    std::vector<uint8_t> on(static_cast<size_t>(n));
    Run r;
    auto sample = [&] {
        for (int i = 0; i < n; ++i) {
            const nav::Agent* a = crowd.agent(ids[static_cast<size_t>(i)]);
            bench_must(a ? nav::Status::ok() : nav::Status::internal("stale id"), "Crowd::agent");
            std::memcpy(&pos[static_cast<size_t>(i) * 3], a->pos, sizeof a->pos);
            on[static_cast<size_t>(i)] = a->state == nav::AgentState::OnLink ||
                                         (!a->polys.empty() && nav::on_polygon(*lv.mesh, a->polys[0], a->pos, ap.height));
        }
    };
    sample();
    for (uint8_t o : on) r.on_mesh_at_start += o;
    nav::CrowdMeter meter;
    meter.begin(sc, ap.radius, kDt, arrive);
    double total = 0;
    for (int t = 0; t < ticks; ++t) {
        const auto t0 = Clock::now();
        bench_must(crowd.update(), "Crowd::update");
        total += ms_since(t0);
        const nav::CrowdStats& cs = crowd.stats();
        const double ph[8] = {cs.validate_ms, cs.paths_ms, cs.neighbours_ms, cs.steer_ms,
                              cs.avoid_ms,    cs.move_ms,  cs.links_ms,      cs.progress_ms};
        for (int k = 0; k < 8; ++k) r.phase_ms[k] += ph[k] / ticks;
        r.path_searches += cs.path_searches;
        sample();
        meter.tick(pos.data(), on.data());
    }
    r.fig = meter.figures();
    r.fig.ms_per_tick = ticks ? total / ticks : 0.0;
    for (int k = 0; k < nav::kStuckReasons; ++k) r.fig.stuck[k] = 0;
    for (int i = 0; i < n; ++i) {
        const nav::Agent* a = crowd.agent(ids[static_cast<size_t>(i)]);
        if (a->stuck != nav::StuckReason::None) {
            ++r.fig.stuck[static_cast<int>(a->stuck)];
            ++r.flagged;
        }
    }
    r.final_pos = pos;
    return r;
}

// RecastDemo's CrowdToolState::init: the four obstacle avoidance settings, from dtCrowd's default.
void set_recastdemo_avoidance(dtCrowd& crowd) {
    dtObstacleAvoidanceParams p;
    std::memcpy(&p, crowd.getObstacleAvoidanceParams(0), sizeof p);
    p.velBias = 0.5f;  // Low (11)
    p.adaptiveDivs = 5;
    p.adaptiveRings = 2;
    p.adaptiveDepth = 1;
    crowd.setObstacleAvoidanceParams(0, &p);
    p.adaptiveDepth = 2;  // Medium (22)
    crowd.setObstacleAvoidanceParams(1, &p);
    p.adaptiveDivs = 7;  // Good (45)
    p.adaptiveRings = 2;
    p.adaptiveDepth = 3;
    crowd.setObstacleAvoidanceParams(2, &p);
    p.adaptiveRings = 3;  // High (66)
    crowd.setObstacleAvoidanceParams(3, &p);
}

struct CrowdDeleter {
    void operator()(dtCrowd* c) const { dtFreeCrowd(c); }
};

Run run_detour(const Level& lv, const nav::ScenarioAgents& sc, const nav::AgentParams& ap, int ticks, float arrive) {
    const int n = sc.count();
    std::unique_ptr<dtCrowd, CrowdDeleter> crowd(dtAllocCrowd());
    if (!crowd || !crowd->init(n, ap.radius, lv.detour.mesh)) {
        std::fprintf(stderr, "crowdbench: dtCrowd::init(%d) failed\n", n);
        std::exit(1);
    }
    set_recastdemo_avoidance(*crowd);
    crowd->getEditableFilter(0)->setExcludeFlags(nav::kPolyFlagDisabled);  // as our QueryFilter's default
    dtCrowdAgentParams p;
    std::memset(&p, 0, sizeof p);
    p.radius = ap.radius;
    p.height = ap.height;
    p.maxAcceleration = ap.max_accel;
    p.maxSpeed = ap.max_speed;
    p.collisionQueryRange = ap.radius * 12.0f;
    p.pathOptimizationRange = ap.radius * 30.0f;
    p.updateFlags = DT_CROWD_ANTICIPATE_TURNS | DT_CROWD_OPTIMIZE_VIS | DT_CROWD_OPTIMIZE_TOPO |
                    DT_CROWD_OBSTACLE_AVOIDANCE | DT_CROWD_SEPARATION;
    p.obstacleAvoidanceType = 3;
    p.separationWeight = 2.0f;
    p.queryFilterType = 0;
    std::vector<int> idx(static_cast<size_t>(n));
    int no_goal = 0;
    for (int i = 0; i < n; ++i) {
        const float* s = &sc.starts[static_cast<size_t>(i) * 3];
        const float* g = &sc.goals[static_cast<size_t>(i) * 3];
        idx[static_cast<size_t>(i)] = crowd->addAgent(s, &p);
        if (idx[static_cast<size_t>(i)] < 0) {
            std::fprintf(stderr, "crowdbench: dtCrowd::addAgent refused agent %d\n", i);
            std::exit(1);
        }
        dtPolyRef ref = 0;
        float nearest[3] = {g[0], g[1], g[2]};
        lv.detour.query->findNearestPoly(g, crowd->getQueryExtents(), crowd->getFilter(0), &ref, nearest);
        if (!ref || !crowd->requestMoveTarget(idx[static_cast<size_t>(i)], ref, nearest)) ++no_goal;
    }
    if (no_goal) std::fprintf(stderr, "crowdbench: %s: %d DetourCrowd agents got no move target\n", lv.name.c_str(), no_goal);
    const dtNavMesh& dm = *lv.detour.mesh;
    std::vector<float> pos(static_cast<size_t>(n) * 3);
    std::vector<uint8_t> on(static_cast<size_t>(n));
    auto sample = [&] {
        for (int i = 0; i < n; ++i) {
            const dtCrowdAgent* a = crowd->getAgent(idx[static_cast<size_t>(i)]);
            std::memcpy(&pos[static_cast<size_t>(i) * 3], a->npos, sizeof a->npos);
            const dtPolyRef first = a->corridor.getFirstPoly();
            bool ok = a->active && a->state == DT_CROWDAGENT_STATE_OFFMESH;  // on a link, as ours' OnLink
            if (!ok && a->active && a->state == DT_CROWDAGENT_STATE_WALKING && first && dm.isValidPolyRef(first)) {
                const nav::PolyRef ours = lv.refmap.ours(dm, *lv.mesh, first);
                ok = ours != nav::kNoRef && nav::on_polygon(*lv.mesh, ours, a->npos, ap.height);
            }
            on[static_cast<size_t>(i)] = ok;
        }
    };
    Run r;
    sample();
    for (uint8_t o : on) r.on_mesh_at_start += o;
    nav::CrowdMeter meter;
    meter.begin(sc, ap.radius, kDt, arrive);
    double total = 0;
    for (int t = 0; t < ticks; ++t) {
        const auto t0 = Clock::now();
        crowd->update(kDt, nullptr);
        total += ms_since(t0);
        sample();
        meter.tick(pos.data(), on.data());
    }
    r.fig = meter.figures();
    r.fig.ms_per_tick = ticks ? total / ticks : 0.0;
    for (int k = 0; k < nav::kStuckReasons; ++k) r.fig.stuck[k] = 0;
    r.final_pos = pos;
    return r;
}

struct Row {
    std::string mesh;
    int agents = 0, ticks = 0;
    bool has_ours = false, has_detour = false;
    Run o1, o2, d;
    bool threads_identical = true;
};

std::string ttg(const nav::CrowdFigures& f) {
    if (f.reached == 0) return "-";
    char b[32];
    std::snprintf(b, sizeof b, "%.1f", f.time_to_goal_mean);
    return b;
}

std::string stuck_list(const nav::CrowdFigures& f) {
    std::string s;
    for (int k = 1; k < nav::kStuckReasons; ++k)
        if (f.stuck[k]) {
            if (!s.empty()) s += ", ";
            s += nav::stuck_reason_name(static_cast<nav::StuckReason>(k)) + std::string(" ") + std::to_string(f.stuck[k]);
        }
    return s.empty() ? "-" : s;
}

void print_tables(const std::vector<Row>& rows, float arrive, uint64_t seed) {
    std::printf("Crowd update, ours (nav::Crowd) against DetourCrowd 1.5.1 on the same bake (ours exported to "
                "Detour tile data), scenario \"random\" (seed 0x%llx: the same starts and goals on both sides), "
                "dt 1/30 s, agents of radius 0.6 m. ms/tick = mean wall time of update() alone; ours with one "
                "thread and with a task hook over 2 threads; DetourCrowd is single-threaded. Ratio = ours (1 thread) / "
                "DetourCrowd: below 1 is faster. Quality through the same CrowdMeter on both sides: reached = within "
                "%.2f m (xz) of the goal at some tick; overlaps = agent-ticks closer than 0.9 (r1 + r2) to another "
                "agent; time to goal = mean seconds over the agents that reached.\n\n",
                static_cast<unsigned long long>(seed), static_cast<double>(arrive));
    std::printf("| mesh | agents | ours ms/tick (1 thread) | ours ms/tick (2 threads) | DetourCrowd ms/tick | ratio ours/Detour "
                "| reached ours / Detour | overlaps ours / Detour | time to goal ours / Detour |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const Row& r : rows) {
        auto ms = [](bool has, const Run& x) {
            char b[32];
            if (!has) return std::string("-");
            std::snprintf(b, sizeof b, "%.2f", x.fig.ms_per_tick);
            return std::string(b);
        };
        char ratio[32] = "-";
        if (r.has_ours && r.has_detour && r.d.fig.ms_per_tick > 0)
            std::snprintf(ratio, sizeof ratio, "**%.2f**", r.o1.fig.ms_per_tick / r.d.fig.ms_per_tick);
        auto pair = [&](auto get) {
            return (r.has_ours ? get(r.o1) : std::string("-")) + " / " + (r.has_detour ? get(r.d) : std::string("-"));
        };
        std::printf("| %s | %d | %s | %s | %s | %s | %s | %s | %s |\n", r.mesh.c_str(), r.agents, ms(r.has_ours, r.o1).c_str(),
                    ms(r.has_ours, r.o2).c_str(), ms(r.has_detour, r.d).c_str(), ratio,
                    pair([](const Run& x) { return std::to_string(x.fig.reached); }).c_str(),
                    pair([](const Run& x) { return std::to_string(x.fig.overlap_agent_ticks); }).c_str(),
                    pair([](const Run& x) { return ttg(x.fig); }).c_str());
    }
    std::printf("\nDetails: ticks run; agents on the navmesh right after being added; off-mesh agent-ticks (not on "
                "the corridor's first polygon by on_polygon); least centre distance between two agents over the "
                "run (m); slowest arrival (s); 2 threads' speed-up (ours' 1-thread / 2-thread ms; \"positions "
                "differ!\" when the two runs did not end bit-identical); ours' agents flagged stuck at the end.\n\n");
    std::printf("| mesh | agents | ticks | on mesh at start ours / Detour | off-mesh agent-ticks ours / Detour | min pair "
                "distance ours / Detour | time to goal max ours / Detour | 2-thread speed-up | ours stuck at the end |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (const Row& r : rows) {
        auto pair = [&](auto get) {
            return (r.has_ours ? get(r.o1) : std::string("-")) + " / " + (r.has_detour ? get(r.d) : std::string("-"));
        };
        auto f2 = [](double v) {
            char b[32];
            std::snprintf(b, sizeof b, "%.2f", v);
            return std::string(b);
        };
        char speedup[48] = "-";
        if (r.has_ours && r.o2.fig.ms_per_tick > 0)
            std::snprintf(speedup, sizeof speedup, "%.2f%s", r.o1.fig.ms_per_tick / r.o2.fig.ms_per_tick,
                          r.threads_identical ? "" : " (positions differ!)");
        std::printf("| %s | %d | %d | %s | %s | %s | %s | %s | %s |\n", r.mesh.c_str(), r.agents, r.ticks,
                    pair([](const Run& x) { return std::to_string(x.on_mesh_at_start); }).c_str(),
                    pair([](const Run& x) { return std::to_string(x.fig.off_mesh_agent_ticks); }).c_str(),
                    pair([&](const Run& x) { return f2(x.fig.min_pair_distance); }).c_str(),
                    pair([&](const Run& x) { return x.fig.reached ? f2(x.fig.time_to_goal_max) : std::string("-"); }).c_str(),
                    speedup, r.has_ours ? (std::to_string(r.o1.flagged) + ": " + stuck_list(r.o1.fig)).c_str() : "-");
    }
    bool any_ours = false;
    for (const Row& r : rows) any_ours = any_ours || r.has_ours;
    if (!any_ours) return;
    std::printf("\nOurs per phase (CrowdStats, ms per tick, mean; 1 thread / 2 threads) and A* searches over the run "
                "(CrowdConfig::path_budget per tick at most):\n\n");
    std::printf("| mesh | agents | validate | paths | neighbours | steer | avoid | move | links | progress | A* searches |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const Row& r : rows) {
        if (!r.has_ours) continue;
        std::printf("| %s | %d |", r.mesh.c_str(), r.agents);
        for (int k = 0; k < 8; ++k) std::printf(" %.2f / %.2f |", r.o1.phase_ms[k], r.o2.phase_ms[k]);
        std::printf(" %lld |\n", static_cast<long long>(r.o1.path_searches));
    }
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<int> agent_counts{100, 1000, 5000}, ticks_list{300};
    uint64_t seed = kScenarioSeed;
    int tile_size = 0, workers = 2;
    float arrive = -1.0f;  // < 0: run_crowd_scenario's, stopping_distance + radius / 2
    float ours_separation = -1.0f;  // < 0: AgentParams' default
    bool do_ours = true, do_detour = true;
    std::vector<std::string> meshes;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "crowdbench: %s expects a value\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--agents") agent_counts = int_list(next());
        else if (a == "--ticks") ticks_list = int_list(next());
        else if (a == "--seed") seed = std::strtoull(next().c_str(), nullptr, 0);
        else if (a == "--tile-size") tile_size = std::max(0, std::atoi(next().c_str()));
        else if (a == "--workers") workers = std::max(1, std::atoi(next().c_str()));
        else if (a == "--arrive") arrive = static_cast<float>(std::atof(next().c_str()));
        else if (a == "--ours-separation") ours_separation = static_cast<float>(std::atof(next().c_str()));
        else if (a == "--only") {
            const std::string w = next();
            do_ours = w == "ours";
            do_detour = w == "detour";
        } else if (a == "--help" || a == "-h") {
            std::printf("usage: crowdbench [--agents 100,1000,5000] [--ticks 300[,...]] [--seed N] [--tile-size N] "
                        "[--workers 2] [--arrive M] [--ours-separation W] [--only ours|detour] mesh.obj...\n");
            return 0;
        } else if (!a.empty() && a[0] == '-') {
            std::fprintf(stderr, "crowdbench: unknown option %s (--help)\n", a.c_str());
            return 2;
        } else meshes.push_back(a);
    }
    if (agent_counts.empty() || ticks_list.empty() || (ticks_list.size() != 1 && ticks_list.size() != agent_counts.size())) {
        std::fprintf(stderr, "crowdbench: --ticks takes one value or one per --agents count\n");
        return 2;
    }
    for (int n : agent_counts)
        if (n < 1 || n > nav::kMaxCrowdAgents) {
            std::fprintf(stderr, "crowdbench: agent count %d outside 1..%d\n", n, nav::kMaxCrowdAgents);
            return 2;
        }
    if (meshes.empty())
        for (const char* n : {"dungeon.obj", "nav_test.obj", "undulating.obj"})
            meshes.push_back(std::string(NAV_SHARED_MESHES) + "/" + n);

    nav::AgentParams ap;  // AgentParams' defaults, on both sides
    if (ours_separation >= 0) ap.separation_weight = ours_separation;
    if (arrive < 0) arrive = std::max(ap.stopping_distance, 0.0f) + ap.radius * 0.5f;
    TaskPool pool(workers);
    std::vector<Row> rows;
    for (const std::string& path : meshes) {
        if (!std::filesystem::exists(path)) {
            std::fprintf(stderr, "crowdbench: skipped %s (absent)\n", path.c_str());
            continue;
        }
        Level lv;
        std::string err;
        const auto tb = Clock::now();
        if (!prepare(path, tile_size, lv, err)) {
            std::fprintf(stderr, "crowdbench: %s: %s\n", path.c_str(), err.c_str());
            return 1;
        }
        std::fprintf(stderr, "crowdbench: %s: %d polygons, %d tile(s), baked and exported in %.0f ms\n", lv.name.c_str(),
                     lv.mesh->npolys, lv.tiles, ms_since(tb));
        for (size_t k = 0; k < agent_counts.size(); ++k) {
            Row row;
            row.mesh = lv.name;
            row.agents = agent_counts[k];
            row.ticks = ticks_list.size() == 1 ? ticks_list[0] : ticks_list[k];
            nav::ScenarioSpec spec;
            spec.kind = nav::CrowdScenario::Random;
            spec.agents = row.agents;
            spec.seed = seed;
            spec.params = ap;
            nav::ScenarioAgents sc;
            bench_must(nav::make_crowd_scenario(*lv.mesh, spec, sc), "make_crowd_scenario");
            const auto t0 = Clock::now();
            if (do_ours) {
                row.o1 = run_ours(lv, sc, ap, row.ticks, arrive, nullptr);
                row.o2 = run_ours(lv, sc, ap, row.ticks, arrive, &pool);
                row.has_ours = true;
                row.threads_identical = row.o1.final_pos == row.o2.final_pos;
                if (!row.threads_identical)
                    std::fprintf(stderr, "crowdbench: %s, %d agents: final positions differ between 1 and %d threads\n",
                                 lv.name.c_str(), row.agents, workers);
            }
            if (do_detour) {
                row.d = run_detour(lv, sc, ap, row.ticks, arrive);
                row.has_detour = true;
            }
            std::fprintf(stderr, "crowdbench: %s, %d agents, %d ticks: %.1f s (ours %.2f / %.2f ms, Detour %.2f ms per tick)\n",
                         lv.name.c_str(), row.agents, row.ticks, ms_since(t0) / 1000.0, row.o1.fig.ms_per_tick,
                         row.o2.fig.ms_per_tick, row.d.fig.ms_per_tick);
            rows.push_back(std::move(row));
        }
    }
    if (rows.empty()) {
        std::fprintf(stderr, "crowdbench: no mesh to run\n");
        return 1;
    }
    print_tables(rows, arrive, seed);
    return 0;
}
