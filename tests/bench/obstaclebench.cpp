// obstaclebench: time from adding one temporary obstacle to the new navmesh being published (issue
// 22), ours against Debian's DetourTileCache on the same level and tile size.
//  - ours: Pipeline::set_inputs (obstacles) + run() of a tiled bake that keeps its intermediates (the
//    debugger's live edits): the touched tiles re-run areas -> navmesh and the navmesh is assembled
//    again; timed until run() returns, when the new Bake and its NavMesh are published (the
//    landmarks of the A* heuristic for the islands it changed follow: PipelineDef::defer_landmarks);
//  - DetourTileCache: dtTileCache::addObstacle (the equivalent shape, tests/diff/tilecache_ref.h)
//    then update() until it reports up to date, when its dtNavMesh holds the rebuilt tiles.
// Each run adds a cylinder (radius 0.5 m, height 2 m) at a random walkable place (a random point of
// our obstacle-free navmesh, fixed seed; both sides get the same places) and removes it again;
// the table gives the median add time and the median remove time of --reps runs per side, and
// where our add time goes: the touched tiles' bake times summed (they bake in parallel, so the wall
// time is less), medians; and the landmarks the new navmesh computes after it is published
// (Pipeline::complete_landmarks: until they are, its A* uses the straight-line bound), median.
// A second table splits the touched tiles' time by stage (median of the per-add sums).
// A third table is the trimmed bake (PipelineDef::keep_intermediates off: navbake's, a game's where memory
// matters), whose touched tiles re-bake from rasterize, against the same with the LZ4 obstacle
// cache (PipelineDef::obstacle_cache Compressed), whose touched tiles re-bake from the areas stage: the
// caches' bytes compressed and not, a full bake's wall time without and with the cache (median of
// 5) and what the cache adds to it: the erode stage's time summed over the tiles (it packs the
// cache) with the cache less without, against all the tiles' stages summed without (a machine shared
// with other work moves the wall times more than that); and the add time of each (median of
// --reps, the same places as above).
// Usage: obstaclebench [--reps N] [--tile-size S]... MESH...   (markdown on stdout;
//        tests/bench/run_obstacles.sh runs it on the shared meshes and the large level)
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "bench_check.h"
#include "core/pipeline/pipeline.h"
#include "core/runtime/query.h"
#include "diff/tilecache_ref.h"

namespace {
using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }
double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}
}  // namespace

int main(int argc, char** argv) {
    int reps = 21;
    std::vector<int> sizes;
    std::vector<std::string> meshes;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--reps" && i + 1 < argc) reps = std::max(1, std::atoi(argv[++i]));
        else if (a == "--tile-size" && i + 1 < argc) sizes.push_back(std::atoi(argv[++i]));
        else meshes.push_back(a);
    }
    if (sizes.empty()) sizes = {32, 64};
    if (meshes.empty()) {
        std::fprintf(stderr, "usage: obstaclebench [--reps N] [--tile-size S]... MESH...\n");
        return 2;
    }
    std::printf("one cylinder (r 0.5 m, h 2 m) added then removed at a random walkable place, median of %d runs\n\n",
                reps);
    std::printf("| mesh | tile size | tiles | ours add ms | DTC add ms | ratio | ours remove ms | DTC remove ms | "
                "tiles re-baked (ours) | ours tile bakes ms | ours landmarks after publishing ms | DTC update calls |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    std::fflush(stdout);
    // Where the touched tiles' time goes: per stage, summed over the tiles an add re-baked (median).
    std::vector<std::string> breakdown;
    std::vector<std::string> trimmed_rows;  // the third table's
    int rc = 0;
    for (const std::string& path : meshes) {
        for (int ts : sizes) {
            const std::string name = std::filesystem::path(path).stem().string();
            // The debugger's set-up: the navmesh is published before the landmarks of its A*
            // heuristic, which are computed right after (PipelineDef::defer_landmarks).
            nav::PipelineDef def = nav::default_pipeline_def();
            def.defer_landmarks = true;
            nav::Pipeline p(def);
            nav::Status st = p.load_mesh(path);
            if (st) st = p.set_param(nav::ParamId::tile_size, ts);
            if (st) st = p.run();
            if (st) p.complete_landmarks();
            auto clean = p.snapshot();
            if (!st || !clean->navmesh) {
                std::fprintf(stderr, "obstaclebench: %s: %s\n", path.c_str(), st ? "no navmesh" : st.message.c_str());
                rc = 1;
                continue;
            }
            const nav::Params& P = clean->inputs.params;
            navdiff::TileCacheRef dtc;
            std::string err;
            if (!navdiff::build_tilecache(*clean->mesh, clean->config, P.f(nav::ParamId::agent_height),
                                          P.f(nav::ParamId::agent_radius), P.f(nav::ParamId::agent_max_climb), dtc, err)) {
                std::fprintf(stderr, "obstaclebench: %s: DetourTileCache: %s\n", path.c_str(), err.c_str());
                rc = 1;
                continue;
            }
            nav::NavQuery q;
            q.init(clean->navmesh.get());
            nav::Rng rng(20261129u);
            std::vector<double> ours_add, ours_remove, dtc_add, dtc_remove, tile_ms, landmark_ms;
            std::array<std::vector<double>, nav::kStageCount> stage_ms;
            double rebaked = 0, updates = 0;
            for (int r = 0; r < reps; ++r) {
                nav::RandomPoint rp;
                if (!q.random_point(nav::QueryFilter{}, rng, rp)) break;
                nav::Obstacle o;
                o.shape = nav::ObstacleShape::Cylinder;
                o.pos[0] = rp.point[0], o.pos[1] = rp.point[1], o.pos[2] = rp.point[2];
                o.radius = 0.5f;
                o.height = 2.0f;

                auto t = Clock::now();
                bench_must(p.set_input(&nav::BakeInputs::obstacles, {o}), "set_input");
                st = p.run();
                auto snap = p.snapshot();
                ours_add.push_back(ms_since(t));
                if (!st || !snap->navmesh) {
                    std::fprintf(stderr, "obstaclebench: %s: add: %s\n", path.c_str(), st.message.c_str());
                    rc = 1;
                    break;
                }
                rebaked += static_cast<double>(snap->tiles_rebaked.size());
                double tms = 0;
                std::array<double, nav::kStageCount> sms{};
                for (int i : snap->tiles_rebaked) {
                    const nav::TileBake& tb = *snap->tiles[static_cast<size_t>(i)];
                    tms += tb.ms;
                    for (int k = 0; k < nav::kStageCount; ++k)
                        if (tb.stats[static_cast<size_t>(k)].built) sms[static_cast<size_t>(k)] += tb.stats[static_cast<size_t>(k)].ms;
                }
                for (int k = 0; k < nav::kStageCount; ++k) stage_ms[static_cast<size_t>(k)].push_back(sms[static_cast<size_t>(k)]);
                tile_ms.push_back(tms);
                t = Clock::now();
                p.complete_landmarks();
                landmark_ms.push_back(ms_since(t));
                t = Clock::now();
                bench_must(p.set_input(&nav::BakeInputs::obstacles, {}), "set_input");
                st = p.run();
                snap = p.snapshot();
                ours_remove.push_back(ms_since(t));
                p.complete_landmarks();
                if (!st || !snap->navmesh) {
                    std::fprintf(stderr, "obstaclebench: %s: remove: %s\n", path.c_str(), st.message.c_str());
                    rc = 1;
                    break;
                }

                dtObstacleRef ref = 0;
                int calls = 0;
                t = Clock::now();
                const bool added = dtStatusSucceed(navdiff::add_tilecache_obstacle(dtc, o, &ref)) &&
                                   navdiff::update_tilecache(dtc, &calls);
                dtc_add.push_back(ms_since(t));
                updates += calls;
                t = Clock::now();
                const bool removed = added && dtStatusSucceed(dtc.cache->removeObstacle(ref)) && navdiff::update_tilecache(dtc);
                dtc_remove.push_back(ms_since(t));
                if (!removed) {
                    std::fprintf(stderr, "obstaclebench: %s: DetourTileCache add / remove failed\n", path.c_str());
                    rc = 1;
                    break;
                }
            }
            const int n = static_cast<int>(ours_add.size());
            const double oa = median(ours_add), da = median(dtc_add);
            std::printf("| %s | %d | %zu | %.2f | %.2f | %.2f | %.2f | %.2f | %.1f | %.2f | %.2f | %.1f |\n", name.c_str(),
                        ts, clean->tiles.size(), oa, da, oa / std::max(1e-9, da), median(ours_remove), median(dtc_remove),
                        n ? rebaked / n : 0.0, median(tile_ms), median(landmark_ms), n ? updates / n : 0.0);
            std::fflush(stdout);
            std::string row = "| " + name + " | " + std::to_string(ts) + " |";
            char buf[32];
            for (int k = static_cast<int>(nav::Stage::Areas); k < nav::kStageCount; ++k) {
                std::snprintf(buf, sizeof buf, " %.3f |", median(stage_ms[static_cast<size_t>(k)]));
                row += buf;
            }
            breakdown.push_back(row);

            // Trimmed, from rasterize (no cache) against trimmed with the LZ4 cache.
            nav::PipelineDef trimmed[2] = {nav::default_pipeline_def(), nav::default_pipeline_def()};
            for (int k = 0; k < 2; ++k) {
                trimmed[k].keep_intermediates = false;
                trimmed[k].obstacle_cache = k ? nav::ObstacleCache::Compressed : nav::ObstacleCache::None;
            }
            nav::Pipeline tp[2] = {nav::Pipeline(trimmed[0]), nav::Pipeline(trimmed[1])};
            std::vector<double> full[2], add[2], erode_ms[2], stages_ms[2];
            for (int k = 0; k < 2; ++k) {
                st = tp[k].load_mesh(path);
                if (st) st = tp[k].set_param(nav::ParamId::tile_size, ts);
            }
            for (int rep = 0; rep < 5 && st; ++rep)
                for (int k = 0; k < 2 && st; ++k) {
                    tp[k].mark_dirty(nav::Stage::Rasterize);
                    auto t = Clock::now();
                    st = tp[k].run();
                    full[k].push_back(ms_since(t));
                    const auto sn = tp[k].snapshot();
                    erode_ms[k].push_back(sn->stats[static_cast<size_t>(nav::Stage::Erode)].ms);
                    double sum = 0;
                    for (int s = static_cast<int>(nav::Stage::Rasterize); s < nav::kStageCount; ++s)
                        sum += sn->stats[static_cast<size_t>(s)].ms;
                    stages_ms[k].push_back(sum);
                }
            if (!st) {
                std::fprintf(stderr, "obstaclebench: %s: trimmed bake: %s\n", path.c_str(), st.message.c_str());
                rc = 1;
                continue;
            }
            const auto lz = tp[1].snapshot();
            const double cache_kib = static_cast<double>(lz->count("obstacle_cache_bytes")) / 1024.0;
            const double raw_kib = static_cast<double>(lz->count("obstacle_cache_raw_bytes")) / 1024.0;
            nav::Rng trng(20261129u);  // the same places as above
            for (int r = 0; r < n && st; ++r) {
                nav::RandomPoint rp;
                if (!q.random_point(nav::QueryFilter{}, trng, rp)) break;
                nav::Obstacle o;
                o.shape = nav::ObstacleShape::Cylinder;
                o.pos[0] = rp.point[0], o.pos[1] = rp.point[1], o.pos[2] = rp.point[2];
                o.radius = 0.5f;
                o.height = 2.0f;
                for (int k = 0; k < 2 && st; ++k) {
                    auto t = Clock::now();
                    bench_must(tp[k].set_input(&nav::BakeInputs::obstacles, {o}), "set_input");
                    st = tp[k].run();
                    add[k].push_back(ms_since(t));
                    if (st) {
                        const auto sn = tp[k].snapshot();
                        const bool from_areas = sn->stages_run.front() == nav::Stage::Areas;
                        if (from_areas != (k == 1)) {
                            std::fprintf(stderr, "obstaclebench: %s: trimmed add re-baked from %s\n", path.c_str(),
                                         std::string(nav::stage_name(sn->stages_run.front())).c_str());
                            rc = 1;
                        }
                        bench_must(tp[k].set_input(&nav::BakeInputs::obstacles, {}), "set_input");
                        st = tp[k].run();
                    }
                }
            }
            if (!st) {
                std::fprintf(stderr, "obstaclebench: %s: trimmed add: %s\n", path.c_str(), st.message.c_str());
                rc = 1;
                continue;
            }
            char trow[256];
            const double cost = median(erode_ms[1]) - median(erode_ms[0]);
            std::snprintf(trow, sizeof trow, "| %s | %d | %.0f | %.0f | %.1f | %.0f | %.0f | %.1f (%.1f%%) | %.2f | %.2f | %.2f |",
                          name.c_str(), ts, cache_kib, raw_kib, raw_kib / std::max(1e-9, cache_kib), median(full[0]),
                          median(full[1]), cost, 100.0 * cost / std::max(1e-9, median(stages_ms[0])), median(add[0]),
                          median(add[1]), oa);
            trimmed_rows.push_back(trow);
        }
    }
    std::printf("\nours, the touched tiles' stages (ms summed over the tiles one add re-baked, median; stages before "
                "areas did not run)\n\n| mesh | tile size |");
    for (int k = static_cast<int>(nav::Stage::Areas); k < nav::kStageCount; ++k)
        std::printf(" %s |", std::string(nav::stage_name(static_cast<nav::Stage>(k))).c_str());
    std::printf("\n|---|---:|");
    for (int k = static_cast<int>(nav::Stage::Areas); k < nav::kStageCount; ++k) std::printf("---:|");
    std::printf("\n");
    for (const std::string& r : breakdown) std::printf("%s\n", r.c_str());
    std::printf("\ntrimmed bakes (intermediates dropped): without a cache (touched tiles re-bake from rasterize) and "
                "with the LZ4 obstacle cache (from the areas stage)\n\n"
                "| mesh | tile size | cache KiB | uncompressed KiB | ratio | full bake ms | full bake ms with cache | "
                "packing ms (of the tiles' stages) | add ms, no cache | add ms, LZ4 cache | add ms, intermediates kept |\n"
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const std::string& r : trimmed_rows) std::printf("%s\n", r.c_str());
    return rc;
}
