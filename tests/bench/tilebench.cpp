// tilebench: the tiled bake against Recast's solo bake, per mesh, in one run, as a markdown table:
//   Recast solo (one thread) | ours solo | ours tiled, 1 thread | ours tiled, all cores
// as milliseconds and as ratios to Recast (medians over --reps), then peak memory: navbake
// (tiled, without intermediates, and solo) beside Recast's solo bake, each measured as the peak
// resident set (VmHWM) of its own process; then, at tile_size 64, the time to rebuild one tile
// after a convex-volume edit inside it (from the areas stage), one tile from scratch (navbake
// --tile), and the time until the first rebuilt tile is published after a late-stage slider
// change (verts_per_poly) with the focus on the middle of the level.
//
// Both sides bake through the detail mesh with the watershed partition (Recast's Sample_SoloMesh
// chain: recast_ref.h's run_recast); ours through Pipeline::run() (the detail mesh, then the navmesh
// tiles assembled: about 1% more, on our side only). Benchmarks never
// assert on time.
//
// Usage: tilebench [--reps N] [--tile-size N] [MESH.obj...]   (default: the three shared meshes)
//        tilebench --recast-peak MESH.obj   (internal: one Recast solo bake, prints VmHWM MiB)
//        tilebench [--reps N] --edit-only MESH.obj   (the one-tile rebuild alone: wall and CPU ms)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <ctime>
#include <thread>
#include <vector>

#include <oneapi/tbb/info.h>
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_TOGGLE_COLLECT
#endif

#include "bench_check.h"
#include "core/pipeline/pipeline.h"
#include "diff/recast_ref.h"

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double vm_hwm_mib() {
    std::ifstream f("/proc/self/status");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::strtod(line.c_str() + 6, nullptr) / 1024.0;
    return 0.0;
}

// Runs a command and returns the first number following `key` in its output (0 when absent).
double number_after(const std::string& cmd, const std::string& key) {
    FILE* p = ::popen(cmd.c_str(), "r");
    if (!p) return 0.0;
    std::string out;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    ::pclose(p);
    const size_t at = out.rfind(key);
    if (at == std::string::npos) return 0.0;
    return std::strtod(out.c_str() + at + key.size(), nullptr);
}

double cpu_ms() {  // CPU time of the whole process (all threads): steadier than wall time on a loaded machine
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

// --edit-only: the one-tile rebuild alone at tile_size 64 (the "volume edit in one tile" sequence),
// wall and process-CPU medians over `reps`, then build_navmesh alone with one tile replaced by a copy
// of itself (the assembly's share of the edit). Under `valgrind --tool=callgrind --collect-atstart=no`
// only the edits' run() calls are counted.
int edit_only(const std::string& path, int reps) {
    nav::InputMesh mesh;
    if (nav::Status st = nav::load_obj(path, mesh); !st) return 2;
    mesh.compute_bounds();
    nav::Pipeline ed;
    if (!ed.set_mesh(mesh)) return 2;
    (void)ed.set_param(nav::ParamId::tile_size, 64);
    if (!ed.run()) return 1;
    const auto b = ed.snapshot();
    const nav::TileLayout L = b->layout;
    const int mx = L.cols / 2, mz = L.rows / 2;
    float box[4];
    nav::tile_box(b->config, L, mx, mz, box);
    const float cx = 0.5f * (box[0] + box[2]), cz = 0.5f * (box[1] + box[3]);
    std::vector<double> wall, cpu, asm_wall, asm_cpu;
    for (int k = 0; k < reps; ++k) {
        nav::ConvexVolume v;
        const float d = 0.3f + 0.01f * static_cast<float>(k % 2);
        v.verts = {cx - d, 0, cz - d, cx + d, 0, cz - d, cx + d, 0, cz + d, cx - d, 0, cz + d};
        v.hmin = b->config.bmin[1];
        v.hmax = b->config.bmax[1];
        bench_must(ed.set_input(&nav::BakeInputs::volumes, {v}), "set_input");
        const double c0 = cpu_ms();
        const auto t0 = Clock::now();
        CALLGRIND_TOGGLE_COLLECT;
        const bool ok = static_cast<bool>(ed.run());
        CALLGRIND_TOGGLE_COLLECT;
        if (!ok) return 1;
        wall.push_back(ms_since(t0));
        cpu.push_back(cpu_ms() - c0);
    }
    const auto nm = ed.snapshot()->navmesh;
    if (!nm) return 1;
    std::vector<std::shared_ptr<const nav::NavTile>> tiles;
    for (const nav::TileSlot& s : nm->slots)
        if (s.tile) tiles.push_back(s.tile);
    const size_t mid = tiles.size() / 2;
    std::shared_ptr<const nav::NavMesh> prev = nm;
    for (int k = 0; k < reps; ++k) {
        tiles[mid] = std::make_shared<nav::NavTile>(*tiles[mid]);
        auto out = std::make_shared<nav::NavMesh>();
        const double c0 = cpu_ms();
        const auto t0 = Clock::now();
        if (!nav::build_navmesh(tiles, prev.get(), *out)) return 1;
        asm_wall.push_back(ms_since(t0));
        asm_cpu.push_back(cpu_ms() - c0);
        prev = out;
    }
    std::printf("%s: %d tiles, %d polys; one-tile edit: wall %.2f ms, cpu %.2f ms; build_navmesh one tile replaced: wall %.2f ms, cpu %.2f ms (medians of %d)\n",
                path.c_str(), nm->ntiles, nm->npolys, median(wall), median(cpu), median(asm_wall), median(asm_cpu), reps);
    return 0;
}

int recast_peak(const std::string& path) {
    nav::InputMesh mesh;
    if (!nav::load_obj(path, mesh)) return 1;
    mesh.compute_bounds();
    const nav::Params params;
    const nav::BakeConfig cfg = nav::derive_config(params, mesh.bmin, mesh.bmax);
    navdiff::RecastVoxels rv;
    const navdiff::VoxelRun run = navdiff::run_recast(mesh, cfg, rv, navdiff::partition_bit(nav::Partition::Watershed));
    if (!run.ok) return 1;
    std::printf("peak %.1f\n", vm_hwm_mib());
    return 0;
}

struct Row {
    std::string name;
    int64_t spans = 0;
    double recast = 0, solo = 0, tiled1 = 0, tiledn = 0;
    double mem_recast = 0, mem_tiled = 0, mem_solo = 0;
    double edit_ms = 0, one_tile_ms = 0, first_tile_ms = 0;
    int tiles = 0;
};

}  // namespace

int main(int argc, char** argv) {
    int reps = 5, tile_size = 64;
    std::vector<std::string> meshes;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--recast-peak" && i + 1 < argc) return recast_peak(argv[i + 1]);
        if (a == "--edit-only" && i + 1 < argc) return edit_only(argv[i + 1], reps);
        if (a == "--reps" && i + 1 < argc) reps = std::max(1, std::atoi(argv[++i]));
        else if (a == "--tile-size" && i + 1 < argc) tile_size = std::max(1, std::atoi(argv[++i]));
        else meshes.push_back(a);
    }
    if (meshes.empty())
        for (const char* m : {"dungeon", "nav_test", "undulating"})
            meshes.push_back(std::string(NAV_SHARED_MESHES) + "/" + m + ".obj");
    const int cores = tbb::info::default_concurrency();

    std::vector<Row> rows;
    for (const std::string& path : meshes) {
        Row row;
        row.name = path.substr(path.find_last_of('/') + 1);
        nav::InputMesh mesh;
        if (nav::Status st = nav::load_obj(path, mesh); !st) {
            std::fprintf(stderr, "tilebench: %s\n", st.message.c_str());
            return 2;
        }
        mesh.compute_bounds();
        const nav::Params params;
        const nav::BakeConfig cfg = nav::derive_config(params, mesh.bmin, mesh.bmax);
        navdiff::RecastVoxels rv;
        nav::PipelineDef lean = nav::default_pipeline_def();
        lean.keep_intermediates = false;
        nav::Pipeline solo(lean), tiled1(lean), tiledn(lean);
        for (nav::Pipeline* p : {&solo, &tiled1, &tiledn})
            if (!p->set_mesh(mesh)) return 2;
        (void)tiled1.set_param(nav::ParamId::tile_size, tile_size);
        (void)tiled1.set_param(nav::ParamId::threads, 1);
        (void)tiledn.set_param(nav::ParamId::tile_size, tile_size);
        (void)tiledn.set_param(nav::ParamId::threads, 0);
        std::vector<double> r, s, t1, tn;
        for (int k = 0; k < reps; ++k) {  // interleaved, so disturbances hit all four alike
            auto t0 = Clock::now();
            const navdiff::VoxelRun run = navdiff::run_recast(mesh, cfg, rv, navdiff::partition_bit(nav::Partition::Watershed));
            r.push_back(ms_since(t0));
            if (!run.ok) {
                std::fprintf(stderr, "tilebench: %s\n", run.error.c_str());
                return 1;
            }
            row.spans = run.counts.solid_spans;
            rv.release();
            for (auto [p, v] : {std::pair{&solo, &s}, std::pair{&tiled1, &t1}, std::pair{&tiledn, &tn}}) {
                p->mark_dirty(nav::Stage::Input);
                t0 = Clock::now();
                // To the end, as navbake: without intermediates a tile is trimmed only once its
                // navmesh tile is made; stopping at Detail would keep every tile's intermediates
                // alive into the next repetition and time a different (debugger-like) path.
                if (nav::Status st = p->run(); !st) {
                    std::fprintf(stderr, "tilebench: %s\n", st.message.c_str());
                    return 1;
                }
                v->push_back(ms_since(t0));
            }
        }
        row.recast = median(r);
        row.solo = median(s);
        row.tiled1 = median(t1);
        row.tiledn = median(tn);
        row.tiles = static_cast<int>(tiledn.snapshot()->tiles.size());

        // Peak memory, each in its own process.
        row.mem_recast = number_after("'" + std::string(argv[0]) + "' --recast-peak '" + path + "'", "peak ");
        const std::string nb = "'" + std::string(NAVBAKE_EXE) + "' '" + path + "' --json 2>/dev/null";
        row.mem_tiled = number_after(nb + " --set tile_size=" + std::to_string(tile_size) + " | tail -n 200",
                                     "\"peak_rss_mib\": ");
        row.mem_solo = number_after(nb, "\"peak_rss_mib\": ");

        // Rebuilds at tile_size 64, intermediates kept (the debugger's case); the time to the first
        // rebuilt tile is taken by the tile callback (first_ms < 0: not yet).
        Clock::time_point start;
        double first_ms = 0;
        nav::PipelineDef with_callback = nav::default_pipeline_def();
        with_callback.on_tile = [&](std::shared_ptr<const nav::Bake>) {
            if (first_ms < 0) first_ms = ms_since(start);
        };
        nav::Pipeline ed(with_callback);
        if (!ed.set_mesh(mesh)) return 2;
        (void)ed.set_param(nav::ParamId::tile_size, 64);
        if (nav::Status st = ed.run(); !st) {
            std::fprintf(stderr, "tilebench: %s\n", st.message.c_str());
            return 1;
        }
        const auto b = ed.snapshot();
        const nav::TileLayout L = b->layout;
        // A 0.6 m volume in the middle of the middle tile: inside no neighbour's bordered box.
        const int mx = L.cols / 2, mz = L.rows / 2;
        float box[4];
        nav::tile_box(b->config, L, mx, mz, box);
        const float cx = 0.5f * (box[0] + box[2]), cz = 0.5f * (box[1] + box[3]);
        std::vector<double> edit, one, first;
        for (int k = 0; k < std::max(reps, 5); ++k) {
            nav::ConvexVolume v;
            const float d = 0.3f + 0.01f * static_cast<float>(k % 2);  // a different volume each time
            v.verts = {cx - d, 0, cz - d, cx + d, 0, cz - d, cx + d, 0, cz + d, cx - d, 0, cz + d};
            v.hmin = b->config.bmin[1];
            v.hmax = b->config.bmax[1];
            bench_must(ed.set_input(&nav::BakeInputs::volumes, {v}), "set_input");
            auto t0 = Clock::now();
            if (!ed.run()) return 1;
            edit.push_back(ms_since(t0));
            if (ed.snapshot()->tiles_rebaked.size() != 1) {
                std::fprintf(stderr, "tilebench: the volume edit re-baked %zu tiles, expected 1\n",
                             ed.snapshot()->tiles_rebaked.size());
                return 1;
            }
        }
        // one tile from the rasterize stage (navbake --tile)
        nav::PipelineDef only = nav::default_pipeline_def();
        only.only_tiles = {mx, mz, mx, mz};
        nav::Pipeline one_tile(only);
        if (!one_tile.set_mesh(mesh) || !one_tile.set_inputs(ed.inputs()) || !one_tile.run()) return 1;
        for (int k = 0; k < std::max(reps, 5); ++k) {
            one_tile.mark_dirty(nav::Stage::Rasterize);
            const auto t0 = Clock::now();
            if (!one_tile.run()) return 1;
            one.push_back(ms_since(t0));
        }
        // the first rebuilt tile after a late-stage slider change, focus on the middle
        ed.set_focus(cx, cz);
        for (int k = 0; k < std::max(reps, 3); ++k) {
            (void)ed.set_param(nav::ParamId::verts_per_poly, k % 2 ? 6 : 5);
            first_ms = -1;
            start = Clock::now();
            if (!ed.run()) return 1;
            first.push_back(first_ms);
        }
        row.edit_ms = median(edit);
        row.one_tile_ms = median(one);
        row.first_tile_ms = median(first);
        rows.push_back(row);
        std::fprintf(stderr, "tilebench: %s done\n", row.name.c_str());
    }

    std::printf("Tiled bake (tile_size %d, watershed, through the detail mesh), median of %d, %d cores\n\n", tile_size,
                reps, cores);
    std::printf("| mesh | solid spans | tiles | Recast solo 1 thr ms | ours solo | ours tiled 1 thr | ours tiled %d thr |\n",
                cores);
    std::printf("|---|---:|---:|---:|---:|---:|---:|\n");
    for (const Row& w : rows)
        std::printf("| %s | %lld | %d | %.1f (1.00) | %.1f (%.2f) | %.1f (%.2f) | %.1f (%.2f) |\n", w.name.c_str(),
                    static_cast<long long>(w.spans), w.tiles, w.recast, w.solo, w.solo / w.recast, w.tiled1,
                    w.tiled1 / w.recast, w.tiledn, w.tiledn / w.recast);
    std::printf("\nPeak memory (VmHWM of the process, MiB)\n\n");
    std::printf("| mesh | Recast solo | navbake tiled (no intermediates) | navbake solo |\n|---|---:|---:|---:|\n");
    for (const Row& w : rows)
        std::printf("| %s | %.1f | %.1f (%.2f) | %.1f (%.2f) |\n", w.name.c_str(), w.mem_recast, w.mem_tiled,
                    w.mem_recast > 0 ? w.mem_tiled / w.mem_recast : 0.0, w.mem_solo,
                    w.mem_recast > 0 ? w.mem_solo / w.mem_recast : 0.0);
    std::printf("\nRebuilds at tile_size 64 (intermediates kept), ms\n\n");
    std::printf("| mesh | volume edit in one tile (areas on) | one tile from rasterize | first tile after verts_per_poly change |\n");
    std::printf("|---|---:|---:|---:|\n");
    for (const Row& w : rows)
        std::printf("| %s | %.2f | %.2f | %.2f |\n", w.name.c_str(), w.edit_ms, w.one_tile_ms, w.first_tile_ms);
    return 0;
}
