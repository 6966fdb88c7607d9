// whybench: how long the "why" answers take (issue 21): explain_point from a click to the story
// (no re-bake) and find_fix to a verified fix, on the shared meshes and the large level, solo and
// tiled. The clicks are points on the input surface (a random triangle by area, a random point on
// it, a fixed seed), so most are on walkable floor and some are lost: every click is timed for the
// story, and the lost ones that have a fix to search (a deciding parameter or a volume) for the fix.
// Recast has no such query, so the table gives times against the targets: story < 5 ms on
// the large level, verified fix < 50 ms on the shared meshes and < 200 ms on the large level tiled.
// Usage: whybench [--clicks N] [--fixes N] [--tile-size N] MESH.obj...   (markdown on stdout)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "bench_check.h"
#include "core/pipeline/pipeline.h"
#include "core/explain/why.h"

namespace {

using Clock = std::chrono::steady_clock;
double ms(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

double pct(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t i = std::min(v.size() - 1, static_cast<size_t>(q * static_cast<double>(v.size() - 1) + 0.5));
    return v[i];
}

std::string base_name(const std::string& p) {
    const size_t s = p.find_last_of('/');
    std::string n = s == std::string::npos ? p : p.substr(s + 1);
    const size_t d = n.rfind('.');
    return d == std::string::npos ? n : n.substr(0, d);
}

}  // namespace

int main(int argc, char** argv) {
    int clicks = 400, fixes = 10, tile_size = 64;
    std::vector<std::string> meshes;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--clicks" && i + 1 < argc) clicks = std::max(1, std::atoi(argv[++i]));
        else if (a == "--fixes" && i + 1 < argc) fixes = std::max(0, std::atoi(argv[++i]));
        else if (a == "--tile-size" && i + 1 < argc) tile_size = std::max(0, std::atoi(argv[++i]));
        else if (!a.empty() && a[0] == '-') {
            std::fprintf(stderr, "usage: whybench [--clicks N] [--fixes N] [--tile-size N] MESH.obj...\n");
            return 2;
        } else meshes.push_back(a);
    }
    std::printf("| mesh | bake | clicks | lost | story median ms | story p95 ms | story max ms | fixes tried | verified | "
                "fix median ms | fix max ms | bakes per fix |\n");
    std::printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const std::string& path : meshes) {
        for (int ts : {0, tile_size}) {
            nav::Pipeline pl;
            if (!pl.load_mesh(path).ok()) {
                std::fprintf(stderr, "whybench: cannot load %s\n", path.c_str());
                return 1;
            }
            nav::Params p;
            (void)p.set(nav::ParamId::tile_size, ts);
            bench_must(pl.set_input(&nav::BakeInputs::params, p), "set_input");
            if (!pl.run().ok()) {
                std::fprintf(stderr, "whybench: bake of %s failed\n", path.c_str());
                return 1;
            }
            const auto bake = pl.snapshot();
            const nav::InputMesh& m = *bake->mesh;
            // Clicks: random points on the input surface, area-weighted.
            std::vector<double> cum;
            double total = 0;
            for (size_t t = 0; t + 2 < m.tris.size(); t += 3) {
                const float* a = &m.verts[3 * m.tris[t]];
                const float* b = &m.verts[3 * m.tris[t + 1]];
                const float* c = &m.verts[3 * m.tris[t + 2]];
                const double ux = b[0] - a[0], uy = b[1] - a[1], uz = b[2] - a[2];
                const double vx = c[0] - a[0], vy = c[1] - a[1], vz = c[2] - a[2];
                const double cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
                const double n = std::sqrt(cx * cx + cy * cy + cz * cz);
                if (n > 0 && cy / n >= 0.5) total += 0.5 * n;  // facing up, flatter than 60 degrees
                cum.push_back(total);
            }
            std::mt19937_64 rng(21);
            std::uniform_real_distribution<double> U(0.0, 1.0);
            std::vector<double> story_ms, fix_ms;
            int lost = 0, tried = 0, verified = 0, bakes = 0;
            for (int k = 0; k < clicks; ++k) {
                const size_t t = std::lower_bound(cum.begin(), cum.end(), U(rng) * total) - cum.begin();
                double r1 = U(rng), r2 = U(rng);
                if (r1 + r2 > 1) r1 = 1 - r1, r2 = 1 - r2;
                const float* a = &m.verts[3 * m.tris[3 * t]];
                const float* b = &m.verts[3 * m.tris[3 * t + 1]];
                const float* c = &m.verts[3 * m.tris[3 * t + 2]];
                float pt[3];
                for (int i = 0; i < 3; ++i)
                    pt[i] = static_cast<float>(a[i] + r1 * (b[i] - a[i]) + r2 * (c[i] - a[i]));
                const auto t0 = Clock::now();
                const nav::WhyStory s = nav::explain_point(*bake, pt);
                story_ms.push_back(ms(t0, Clock::now()));
                if (s.on_navmesh) continue;
                ++lost;
                if (tried >= fixes || (!s.decider && s.volume < 0)) continue;
                ++tried;
                const auto t1 = Clock::now();
                const auto f = nav::find_fix(*bake, s);
                fix_ms.push_back(ms(t1, Clock::now()));
                if (f && f->verified) ++verified;
                if (f) bakes += f->bakes;
            }
            std::printf("| %s | %s | %d | %d | %.3f | %.3f | %.3f | %d | %d | %.1f | %.1f | %.1f |\n", base_name(path).c_str(),
                        ts ? ("tiled " + std::to_string(ts)).c_str() : "solo", clicks, lost, pct(story_ms, 0.5),
                        pct(story_ms, 0.95), pct(story_ms, 1.0), tried, verified, pct(fix_ms, 0.5), pct(fix_ms, 1.0),
                        verified ? static_cast<double>(bakes) / verified : 0.0);
            std::fflush(stdout);
        }
    }
    return 0;
}
