// navbench: times each voxel stage of Recast 1.5.1 and of ours on the same meshes with the same
// voxel parameters, and prints a markdown table of medians (mesh | stage | recast ms | ours ms |
// ratio), then a table of the counts both produced (so a fast stage that computes something else
// is visible). Recast allocates its heightfields afresh in every repetition, as it does in use;
// ours reuses its buffers across repetitions, as the pipeline does.
//
// Usage: navbench [--reps N] [--warmup N] [--set NAME=VALUE]... [MESH.obj...]
// Without meshes, runs the shared benchmark meshes (dungeon, nav_test, undulating).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "diff/recast_ref.h"

namespace {

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

constexpr int kRowCount = 10;  // 6 stages, 3 region partitions, total
const char* const kRowNames[kRowCount] = {"input",
                                          "rasterize",
                                          "filter",
                                          "compact",
                                          "erode",
                                          "distance",
                                          "regions (watershed)",
                                          "regions (monotone)",
                                          "regions (layers)",
                                          "total (watershed)"};

// One value per row for a run; the total is the default pipeline (watershed partition).
std::array<double, kRowCount> rows_of(const navdiff::StageMs& m) {
    std::array<double, kRowCount> r{};
    r[0] = m.input;
    r[1] = m.rasterize;
    r[2] = m.filter;
    r[3] = m.compact;
    r[4] = m.erode;
    r[5] = m.distance;
    for (int p = 0; p < navdiff::kPartitionCount; ++p) r[6 + p] = m.regions[p];
    r[9] = m.input + m.rasterize + m.filter + m.compact + m.erode + m.distance + m.regions[0];
    return r;
}

struct MeshResult {
    std::string name;
    int width = 0, height = 0, tris = 0;
    std::array<double, kRowCount> recast{}, ours{};
    navdiff::VoxelCounts recast_counts, ours_counts;
};

int usage(const char* msg) {
    std::fprintf(stderr, "navbench: %s\nusage: navbench [--reps N] [--warmup N] [--set NAME=VALUE]... [MESH.obj...]\n",
                 msg);
    return 2;
}

bool parse_int(const char* s, int lo, int& out) {
    char* end = nullptr;
    const long v = std::strtol(s, &end, 10);
    if (!end || *end != '\0' || v < lo || v > 100000) return false;
    out = static_cast<int>(v);
    return true;
}

std::string base_name(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    std::string n = slash == std::string::npos ? path : path.substr(slash + 1);
    if (n.size() > 4 && n.compare(n.size() - 4, 4, ".obj") == 0) n.resize(n.size() - 4);
    return n;
}

}  // namespace

int main(int argc, char** argv) {
    int reps = 15, warmup = 2;
    nav::Params params;
    std::vector<std::string> meshes;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--reps" && i + 1 < argc) {
            if (!parse_int(argv[++i], 1, reps)) return usage("--reps expects an integer >= 1");
        } else if (a == "--warmup" && i + 1 < argc) {
            if (!parse_int(argv[++i], 0, warmup)) return usage("--warmup expects an integer >= 0");
        } else if (a == "--set" && i + 1 < argc) {
            const std::string_view kv = argv[++i];
            const size_t eq = kv.find('=');
            if (eq == std::string_view::npos) return usage("--set expects NAME=VALUE");
            const nav::Status s = params.set_from_string(kv.substr(0, eq), kv.substr(eq + 1));
            if (!s) return usage(s.message.c_str());
        } else if (a == "--help" || a == "-h") {
            usage("per-stage timings against Recast");
            return 0;
        } else if (!a.empty() && a[0] == '-') {
            return usage(("unknown option " + std::string(a)).c_str());
        } else {
            meshes.emplace_back(a);
        }
    }
    if (meshes.empty()) {
        for (const char* n : {"dungeon.obj", "nav_test.obj", "undulating.obj"})
            meshes.push_back(std::string(NAV_SHARED_MESHES) + "/" + n);
    }

    std::vector<MeshResult> results;
    for (const std::string& path : meshes) {
        nav::InputMesh mesh;
        const nav::Status ls = navdiff::load_mesh(path, mesh);
        if (!ls) {
            std::fprintf(stderr, "navbench: %s\n", ls.message.c_str());
            return 2;
        }
        const nav::BakeConfig cfg = nav::derive_config(params, mesh.bmin, mesh.bmax);
        MeshResult res;
        res.name = base_name(path);
        res.width = cfg.width;
        res.height = cfg.height;
        res.tris = mesh.tri_count();

        navdiff::RecastVoxels rv;
        navdiff::OurVoxels ov;
        std::array<std::vector<double>, kRowCount> rt, ot;
        for (int rep = 0; rep < warmup + reps; ++rep) {
            // Alternate which side runs first so neither always finds the caches warm.
            navdiff::VoxelRun r, o;
            if (rep % 2 == 0) {
                r = navdiff::run_recast(mesh, cfg, rv);
                o = navdiff::run_ours(mesh, cfg, ov);
            } else {
                o = navdiff::run_ours(mesh, cfg, ov);
                r = navdiff::run_recast(mesh, cfg, rv);
            }
            if (!r.ok || !o.ok) {
                std::fprintf(stderr, "navbench: %s: %s\n", path.c_str(), (!r.ok ? r.error : o.error).c_str());
                return 1;
            }
            res.recast_counts = r.counts;
            res.ours_counts = o.counts;
            if (rep < warmup) continue;
            const auto ra = rows_of(r.ms), oa = rows_of(o.ms);
            for (int k = 0; k < kRowCount; ++k) {
                rt[k].push_back(ra[k]);
                ot[k].push_back(oa[k]);
            }
        }
        for (int k = 0; k < kRowCount; ++k) {
            res.recast[k] = median(rt[k]);
            res.ours[k] = median(ot[k]);
        }
        results.push_back(std::move(res));
    }

    std::printf("Voxel stages, median of %d repetitions after %d warm-up, Release build, single thread.\n"
                "Parameters: cell_size %s, cell_height %s, agent_radius %s (others: see --set).\n\n",
                reps, warmup, params.to_string(nav::ParamId::cell_size).c_str(),
                params.to_string(nav::ParamId::cell_height).c_str(),
                params.to_string(nav::ParamId::agent_radius).c_str());
    std::printf("| mesh | stage | recast ms | ours ms | ratio (ours/recast) |\n");
    std::printf("|---|---|---:|---:|---:|\n");
    for (const MeshResult& m : results) {
        for (int k = 0; k < kRowCount; ++k) {
            const double ratio = m.recast[k] > 0 ? m.ours[k] / m.recast[k] : 0.0;
            const bool total = k == kRowCount - 1;
            std::printf(total ? "| %s | **%s** | **%.3f** | **%.3f** | **%.2f** |\n" : "| %s | %s | %.3f | %.3f | %.2f |\n",
                        m.name.c_str(), kRowNames[k], m.recast[k], m.ours[k], ratio);
        }
    }

    std::printf("\nCounts (recast / ours):\n\n");
    std::printf("| mesh | grid | tris | solid spans | compact spans | walkable after erosion | max dist | "
                "regions watershed | regions monotone | regions layers |\n");
    std::printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const MeshResult& m : results) {
        const navdiff::VoxelCounts& r = m.recast_counts;
        const navdiff::VoxelCounts& o = m.ours_counts;
        std::printf("| %s | %dx%d | %d | %lld / %lld | %lld / %lld | %lld / %lld | %d / %d | %d / %d | %d / %d | %d / %d |\n",
                    m.name.c_str(), m.width, m.height, m.tris, static_cast<long long>(r.solid_spans),
                    static_cast<long long>(o.solid_spans), static_cast<long long>(r.compact_spans),
                    static_cast<long long>(o.compact_spans), static_cast<long long>(r.walkable_spans),
                    static_cast<long long>(o.walkable_spans), r.max_dist, o.max_dist, r.regions[0], o.regions[0],
                    r.regions[1], o.regions[1], r.regions[2], o.regions[2]);
    }
    return 0;
}
