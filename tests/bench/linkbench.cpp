// linkbench: time of the automatic off-mesh links (core/bake/auto_links.h) on a baked level. Each
// level is baked once (tiled, tile_size 64 unless --set says otherwise, the links off), then
// generate_auto_links runs --reps times on the navmesh and the level; the table gives the median and
// what it found (links by kind, rejections by reason, boundary-edge samples).
// Usage: linkbench [--reps N] [--drop H] [--jump D] [--set name=value]... MESH...
//        (markdown on stdout; tests/bench/run_links.sh runs it on the shared meshes and the large level)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "core/bake/auto_links.h"
#include "core/pipeline/pipeline.h"

namespace {
using Clock = std::chrono::steady_clock;
}

int main(int argc, char** argv) {
    int reps = 5;
    float drop = 2.0f, jump = 2.0f;
    std::vector<std::pair<std::string, std::string>> sets = {{"tile_size", "64"}};
    std::vector<std::string> meshes;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--reps" && i + 1 < argc) reps = std::max(1, std::atoi(argv[++i]));
        else if (a == "--drop" && i + 1 < argc) drop = static_cast<float>(std::atof(argv[++i]));
        else if (a == "--jump" && i + 1 < argc) jump = static_cast<float>(std::atof(argv[++i]));
        else if (a == "--set" && i + 1 < argc) {
            const std::string kv = argv[++i];
            const size_t eq = kv.find('=');
            if (eq == std::string::npos) {
                std::fprintf(stderr, "linkbench: --set wants name=value\n");
                return 2;
            }
            sets.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
        } else meshes.push_back(a);
    }
    if (meshes.empty()) {
        std::fprintf(stderr, "usage: linkbench [--reps N] [--drop H] [--jump D] [--set name=value]... MESH...\n");
        return 2;
    }
    std::printf("drop %.2f m, jump %.2f m, median of %d\n\n", double(drop), double(jump), reps);
    std::printf("| mesh | triangles | navmesh polys | samples | drop links | jump links | blocked | drop too high | "
                "gap too wide | not walkable | bake | links | links / bake |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    int rc = 0;
    for (const std::string& path : meshes) {
        nav::PipelineDef def = nav::default_pipeline_def();
        def.keep_intermediates = false;
        nav::Pipeline p(def);
        nav::Status st = p.load_mesh(path);
        for (const auto& [k, v] : sets)
            if (st) st = p.set_param(k, v);
        const auto b0 = Clock::now();
        if (st) st = p.run();
        const double bake_ms = std::chrono::duration<double, std::milli>(Clock::now() - b0).count();
        auto b = p.snapshot();
        if (!st || !b->navmesh) {
            std::fprintf(stderr, "linkbench: %s: %s\n", path.c_str(), st ? "no navmesh" : st.message.c_str());
            rc = 1;
            continue;
        }
        nav::AutoLinkParams ap;
        ap.drop_height = drop;
        ap.jump_distance = jump;
        ap.agent_height = b->inputs.params.f(nav::ParamId::agent_height);
        ap.agent_radius = b->inputs.params.f(nav::ParamId::agent_radius);
        ap.agent_climb = b->inputs.params.f(nav::ParamId::agent_max_climb);
        nav::AutoLinks out;
        std::vector<double> ms;
        for (int r = 0; r < reps; ++r) {
            const auto a = Clock::now();
            (void)nav::generate_auto_links(*b->navmesh, *b->mesh, ap, out);
            ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - a).count());
        }
        std::sort(ms.begin(), ms.end());
        int jumps = 0, why[4] = {0, 0, 0, 0};
        for (uint8_t j : out.link_is_jump) jumps += j;
        for (const nav::RejectedLink& r : out.rejected) ++why[static_cast<int>(r.reason)];
        const double med = ms[ms.size() / 2];
        std::printf("| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %.0f ms | %.1f ms | %.3f |\n",
                    std::filesystem::path(path).stem().string().c_str(), b->mesh->tri_count(), b->navmesh->npolys,
                    out.samples, static_cast<int>(out.links.size()) - jumps, jumps, why[0], why[1], why[2], why[3],
                    bake_ms, med, med / std::max(1e-9, bake_ms));
    }
    return rc;
}
