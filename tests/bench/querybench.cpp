// querybench: path queries per second, Detour 1.5.1 against ours, on solo and tiled navmeshes, with
// 1 and 2 threads of independent queries (issue 24, "Paths"). Not part of ctest (benchmarks never
// assert on time); run it with tests/bench/run_queries.sh.
//
// Per mesh and tile size (0 = solo, else the tile size in cells):
//  - ours: the pipeline's bake at default parameters with that tile_size (its NavMesh: a tiled bake
//    is the tiles stitched by build_navmesh, with the whole-mesh landmark table);
//  - Detour: solo, Detour's navmesh from Recast's solo bake of the same mesh and configuration;
//    tiled, Detour's tiled dtNavMesh from Recast's tile-by-tile bake at the same tile size
//    (tests/diff/detour_tiled.h: the same bordered boxes and triangles, Detour links the tiles).
// Pairs: random points on our navmesh (NavQuery::random_point, fixed seed), the same for every side
// and thread count. A query = nearest polygon for both ends + A* + funnel (find_route; Detour:
// findNearestPoly x2 + findPath + findStraightPath, 2048-node pool).
// Threads: T threads each run every pair (independent queries: one NavQuery / dtNavMeshQuery per
// thread, the mesh shared read-only); q/s = T * pairs / wall time of the pass. Passes rotate which
// side goes first; medians over the repetitions, and the median of the per-repetition ratios.
// Also reported: the states A* expanded per query with and without landmarks (set_landmarks), and
// the time to build the landmark table (the whole table, and after replacing one tile).
//
// Usage: querybench [--reps N] [--warmup N] [--pairs N] [--tiles 0,32,64] [--threads 1,2] [--table-only]
//                   [--set NAME=VALUE]... mesh.obj...
//        (--table-only: bake and time the landmark table only, no Detour and no queries: large levels)
//        (no mesh: the shared meshes)
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bench_check.h"
#include "core/pipeline/pipeline.h"
#include "core/runtime/navmesh.h"
#include "core/runtime/query.h"
#include "diff/detour_ref.h"
#include "diff/detour_tiled.h"
#include "diff/recast_ref.h"

namespace {

using Clock = std::chrono::steady_clock;
constexpr uint64_t kPairSeed = 0x6e61766265ull;  // navbench's seed

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::vector<int> int_list(const std::string& s) {
    std::vector<int> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ',')) out.push_back(std::atoi(item.c_str()));
    return out;
}

// One thread's Detour query and buffers (a dtNavMeshQuery is not shareable between threads).
struct DetourWorker {
    dtNavMeshQuery* q = nullptr;
    dtQueryFilter filter;
    std::vector<dtPolyRef> corridor = std::vector<dtPolyRef>(navdiff::kMaxCorridor);
    std::vector<float> straight = std::vector<float>(navdiff::kMaxStraight * 3);
    std::vector<unsigned char> flags = std::vector<unsigned char>(navdiff::kMaxStraight);
    std::vector<dtPolyRef> refs = std::vector<dtPolyRef>(navdiff::kMaxStraight);
    explicit DetourWorker(const dtNavMesh* mesh) {
        q = dtAllocNavMeshQuery();
        if (!q || dtStatusFailed(q->init(mesh, navdiff::kDetourNodes))) {
            std::fprintf(stderr, "querybench: dtNavMeshQuery::init failed\n");
            std::exit(1);
        }
    }
    DetourWorker(const DetourWorker&) = delete;
    DetourWorker& operator=(const DetourWorker&) = delete;
    ~DetourWorker() { dtFreeNavMeshQuery(q); }
    int go(const float* s, const float* e) {
        dtPolyRef sr = 0, er = 0;
        float sp[3] = {0, 0, 0}, ep[3] = {0, 0, 0};
        q->findNearestPoly(s, navdiff::kHalfExtents, &filter, &sr, sp);
        q->findNearestPoly(e, navdiff::kHalfExtents, &filter, &er, ep);
        int n = 0, ns = 0;
        if (sr && er) {
            q->findPath(sr, er, sp, ep, &filter, corridor.data(), &n, navdiff::kMaxCorridor);
            if (n > 0)
                q->findStraightPath(sp, ep, corridor.data(), n, straight.data(), flags.data(), refs.data(), &ns,
                                    navdiff::kMaxStraight);
        }
        return ns;
    }
};

struct OurWorker {
    nav::NavQuery q;
    nav::Route route;
    OurWorker(const nav::NavMesh* m, bool landmarks) {
        q.init(m);
        q.set_landmarks(landmarks);
    }
    int go(const float* s, const float* e) {
        (void)q.find_route(s, e, navdiff::kHalfExtents, nav::QueryFilter{}, nav::StraightPathOptions{}, route);
        return route.straight.size();
    }
};

// One pass: every thread runs every pair; queries per second over all threads (wall time from
// before the threads start to after they join: thread start-up is counted, ~0.1 ms of a pass).
template <class Worker>
double pass(std::vector<std::unique_ptr<Worker>>& workers, int threads, const std::vector<float>& pairs,
            std::atomic<int64_t>& sink) {
    const size_t n = pairs.size() / 6;
    auto run = [&](Worker& w) {
        int64_t local = 0;
        for (size_t i = 0; i < n; ++i) local += w.go(&pairs[i * 6], &pairs[i * 6 + 3]);
        sink += local;
    };
    const auto t0 = Clock::now();
    if (threads == 1) {
        run(*workers[0]);
    } else {
        std::vector<std::thread> ts;
        for (int t = 0; t < threads; ++t) ts.emplace_back([&, t] { run(*workers[static_cast<size_t>(t)]); });
        for (auto& th : ts) th.join();
    }
    const double sec = std::chrono::duration<double>(Clock::now() - t0).count();
    return sec > 0 ? static_cast<double>(n) * threads / sec : 0.0;
}

struct Case {
    std::string mesh;
    int tile_size = 0;
    std::shared_ptr<const nav::Bake> bake;
    navdiff::DetourMesh detour;
    navdiff::RecastVoxels rv;
    int detour_tiles = 1, ours_tiles = 1, our_polys = 0;
    std::vector<float> pairs;
    // per thread count: q/s per repetition, and the ratios
    std::vector<std::vector<double>> dq, oq, pq, ratio;  // Detour, ours, ours without landmarks
    double expanded_alt = 0, expanded_plain = 0;  // per query
    double build_ms = 0, build_inc_ms = 0;         // build_navmesh: all tiles new, after replacing one tile
    double table_ms = 0, table_inc_ms = 0;         // of which the landmark table
    int islands = 0, islands_reused = 0;
};

std::string base_name(const std::string& p) {
    const size_t k = p.find_last_of('/');
    return k == std::string::npos ? p : p.substr(k + 1);
}

bool prepare(Case& c, int npairs, bool table_only, const std::vector<std::pair<std::string, std::string>>& sets,
             std::string& err) {
    nav::PipelineDef def = nav::default_pipeline_def();
    def.keep_intermediates = false;  // as navbake: a tile keeps its polymesh, detail and runtime tile
    nav::Pipeline pipe(def);
    if (!pipe.load_mesh(c.mesh)) {
        err = "cannot load " + c.mesh;
        return false;
    }
    for (const auto& [name, value] : sets)
        if (const nav::Status st = pipe.set_param(name, value); !st) {
            err = "--set " + name + ": " + st.message;
            return false;
        }
    if (c.tile_size > 0 && !pipe.set_param(nav::ParamId::tile_size, c.tile_size)) {
        err = "tile_size";
        return false;
    }
    if (const nav::Status st = pipe.run(); !st) {
        err = "our bake failed: " + st.message;
        return false;
    }
    c.bake = pipe.snapshot();
    if (!c.bake->navmesh) {
        err = "no navmesh";
        return false;
    }
    const nav::NavMesh& m = *c.bake->navmesh;
    c.ours_tiles = m.ntiles;
    c.our_polys = m.npolys;
    const nav::Partition part = c.bake->inputs.params.partition();
    if (table_only) {
        // no Detour, no pairs: only the table's cost below
    } else if (c.tile_size > 0) {
        if (!navdiff::build_detour_tiled(*c.bake->mesh, c.bake->config, part, c.detour, c.detour_tiles, err)) return false;
    } else {
        const navdiff::VoxelRun r = navdiff::run_recast(*c.bake->mesh, c.bake->config, c.rv, navdiff::partition_bit(part));
        const int p = static_cast<int>(part);
        if (!r.ok || !c.rv.pmesh[p] || !c.rv.dmesh[p]) {
            err = "Recast's bake failed: " + r.error;
            return false;
        }
        if (!navdiff::build_detour(*c.rv.pmesh[p], *c.rv.dmesh[p], c.bake->config, c.detour, err)) return false;
        c.rv.release();
    }
    nav::NavQuery q;
    q.init(&m);
    if (table_only) {
        c.pairs.clear();
    } else if (!navdiff::make_pairs(q, kPairSeed, npairs, c.pairs)) {
        err = "no area to draw pairs from";
        return false;
    }
    // States expanded with and without the landmark bound (untimed).
    nav::NavQuery plain;
    plain.init(&m);
    plain.set_landmarks(false);
    nav::Route r;
    long long ea = 0, ep = 0;
    const size_t n = c.pairs.size() / 6;
    for (size_t i = 0; i < n; ++i) {  // (none with --table-only)
        (void)q.find_route(&c.pairs[i * 6], &c.pairs[i * 6 + 3], navdiff::kHalfExtents, nav::QueryFilter{}, {}, r);
        ea += r.path.expanded;
        (void)plain.find_route(&c.pairs[i * 6], &c.pairs[i * 6 + 3], navdiff::kHalfExtents, nav::QueryFilter{}, {}, r);
        ep += r.path.expanded;
    }
    c.expanded_alt = n ? static_cast<double>(ea) / static_cast<double>(n) : 0.0;
    c.expanded_plain = n ? static_cast<double>(ep) / static_cast<double>(n) : 0.0;
    // The landmark table's cost (LandmarkTable::ms) and build_navmesh's whole time: from the
    // tiles (all new), then with the middle tile replaced by a copy, previous = the first build
    // (a one-tile rebuild: that tile's and its neighbours' islands recomputed, the rest copied).
    if (c.tile_size > 0) {
        std::vector<std::shared_ptr<const nav::NavTile>> tiles;
        for (const auto& t : c.bake->tiles)
            if (t && t->tile && t->tile->npolys() > 0) tiles.push_back(t->tile);
        std::vector<double> whole, inc, lm_whole, lm_inc;
        for (int rep = 0; rep < 5; ++rep) {
            nav::NavMesh a, b;
            auto t0 = Clock::now();
            bench_must(nav::build_navmesh(tiles, nullptr, a), "build_navmesh");
            whole.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            lm_whole.push_back(a.landmarks()->ms);
            auto copy = tiles;
            copy[copy.size() / 2] = std::make_shared<nav::NavTile>(*copy[copy.size() / 2]);
            t0 = Clock::now();
            bench_must(nav::build_navmesh(copy, &a, b), "build_navmesh");
            inc.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            lm_inc.push_back(b.landmarks()->ms);
            c.islands = b.nislands;
            c.islands_reused = b.landmarks()->islands_reused;
        }
        c.build_ms = median(whole);
        c.build_inc_ms = median(inc);
        c.table_ms = median(lm_whole);
        c.table_inc_ms = median(lm_inc);
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    int reps = 21, warmup = 3, npairs = 1000;
    std::vector<int> tile_sizes{0, 32, 64}, thread_counts{1, 2};
    std::vector<std::string> meshes;
    std::vector<std::pair<std::string, std::string>> sets;  // --set NAME=VALUE: bake parameters
    bool table_only = false;  // --table-only: bake and time the landmark table, no queries (large levels)
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "querybench: %s expects a value\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--reps") reps = std::max(1, std::atoi(next().c_str()));
        else if (a == "--warmup") warmup = std::max(0, std::atoi(next().c_str()));
        else if (a == "--pairs") npairs = std::max(1, std::atoi(next().c_str()));
        else if (a == "--tiles") tile_sizes = int_list(next());
        else if (a == "--threads") thread_counts = int_list(next());
        else if (a == "--table-only") table_only = true;
        else if (a == "--set") {
            const std::string kv = next();
            const size_t eq = kv.find('=');
            if (eq == std::string::npos) {
                std::fprintf(stderr, "querybench: --set expects NAME=VALUE\n");
                return 2;
            }
            sets.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
        }
        else if (a == "--help" || a == "-h") {
            std::printf("usage: querybench [--reps N] [--warmup N] [--pairs N] [--tiles 0,32,64] [--threads 1,2] [--table-only] [--set NAME=VALUE]... mesh.obj...\n");
            return 0;
        } else meshes.push_back(a);
    }
    if (meshes.empty())
        for (const char* n : {"dungeon.obj", "nav_test.obj", "undulating.obj"})
            meshes.push_back(std::string(NAV_SHARED_MESHES) + "/" + n);
    const int max_threads = *std::max_element(thread_counts.begin(), thread_counts.end());

    std::vector<std::unique_ptr<Case>> cases;
    for (const auto& mesh : meshes)
        for (int ts : tile_sizes) {
            auto c = std::make_unique<Case>();
            c->mesh = mesh;
            c->tile_size = ts;
            std::string err;
            if (!prepare(*c, npairs, table_only, sets, err)) {
                std::fprintf(stderr, "querybench: %s tile %d: %s\n", mesh.c_str(), ts, err.c_str());
                return 1;
            }
            c->dq.resize(thread_counts.size()), c->oq.resize(thread_counts.size()), c->pq.resize(thread_counts.size());
            c->ratio.resize(thread_counts.size());
            cases.push_back(std::move(c));
        }

    std::atomic<int64_t> sink{0};
    for (auto& cp : cases) {
        if (table_only) break;
        Case& c = *cp;
        std::vector<std::unique_ptr<DetourWorker>> dw;
        std::vector<std::unique_ptr<OurWorker>> ow, pw;
        for (int t = 0; t < max_threads; ++t) {
            dw.push_back(std::make_unique<DetourWorker>(c.detour.mesh));
            ow.push_back(std::make_unique<OurWorker>(c.bake->navmesh.get(), true));
            pw.push_back(std::make_unique<OurWorker>(c.bake->navmesh.get(), false));
        }
        for (int rep = 0; rep < warmup + reps; ++rep)
            for (size_t k = 0; k < thread_counts.size(); ++k) {
                const int T = thread_counts[k];
                double d = 0, o = 0, p = 0;
                for (int j = 0; j < 3; ++j) {  // rotate which side goes first
                    const int side = (rep + j) % 3;
                    if (side == 0) d = pass(dw, T, c.pairs, sink);
                    else if (side == 1) o = pass(ow, T, c.pairs, sink);
                    else p = pass(pw, T, c.pairs, sink);
                }
                if (rep < warmup) continue;
                c.dq[k].push_back(d);
                c.oq[k].push_back(o);
                c.pq[k].push_back(p);
                c.ratio[k].push_back(d > 0 ? o / d : 0.0);
            }
    }

    std::printf("Path queries per second (nearest polygon for both ends + A* + funnel), median of %d passes of %d "
                "pairs after %d warm-up; T threads each run every pair (one query object per thread). Detour: solo "
                "rows on Recast's solo navmesh, tiled rows on Detour's tiled navmesh from Recast's tiled bake at the "
                "same tile size. Ratio = ours / Detour (target 3); best-pass ratio = ours' fastest pass / Detour's "
                "fastest (robust on a loaded machine: load only slows a pass). \"ours, no ALT\": the same queries with "
                "NavQuery::set_landmarks(false) (the straight-line bound alone: what tiled meshes had before "
                "issue 24).\n\n",
                reps, npairs, warmup);
    std::printf("| mesh | tile | tiles Detour / ours | polys ours | threads | Detour q/s | ours q/s | ours / Detour | "
                "median ratio | best-pass ratio | ours, no ALT q/s | ratio |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const auto& cp : cases) {
        const Case& c = *cp;
        for (size_t k = 0; k < thread_counts.size(); ++k) {
            const double d = median(c.dq[k]), o = median(c.oq[k]), p = median(c.pq[k]);
            const double db = c.dq[k].empty() ? 0.0 : *std::max_element(c.dq[k].begin(), c.dq[k].end());
            const double ob = c.oq[k].empty() ? 0.0 : *std::max_element(c.oq[k].begin(), c.oq[k].end());
            std::printf("| %s | %s | %d / %d | %d | %d | %.0f | %.0f | **%.2f** | %.2f | %.2f | %.0f | %.2f |\n",
                        base_name(c.mesh).c_str(), c.tile_size ? std::to_string(c.tile_size).c_str() : "solo",
                        c.detour_tiles, c.ours_tiles, c.our_polys, thread_counts[k], d, o, d > 0 ? o / d : 0.0,
                        median(c.ratio[k]), db > 0 ? ob / db : 0.0, p, d > 0 ? p / d : 0.0);
        }
    }
    std::printf("\nA* states expanded per query (ours), with the landmark bound / without (NavQuery::set_landmarks); "
                "build_navmesh's time and its landmark table's part (ms, medians of 5) from all tiles new, and after "
                "replacing the middle tile (previous = the first build; islands whose landmarks were copied):\n\n");
    std::printf("| mesh | tile | expanded ALT | expanded plain | build_navmesh ms | of which landmarks | after one tile "
                "ms | of which landmarks | islands copied / all |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const auto& cp : cases) {
        const Case& c = *cp;
        if (c.tile_size)
            std::printf("| %s | %d | %.1f | %.1f | %.2f | %.2f | %.2f | %.2f | %d / %d |\n", base_name(c.mesh).c_str(),
                        c.tile_size, c.expanded_alt, c.expanded_plain, c.build_ms, c.table_ms, c.build_inc_ms,
                        c.table_inc_ms, c.islands_reused, c.islands);
        else
            std::printf("| %s | solo | %.1f | %.1f | - | - | - | - | - |\n", base_name(c.mesh).c_str(), c.expanded_alt,
                        c.expanded_plain);
    }
    std::fprintf(stderr, "(sink %lld)\n", static_cast<long long>(sink.load()));
    return 0;
}
