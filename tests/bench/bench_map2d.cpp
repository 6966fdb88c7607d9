// navbench2d: 2D maps and optimal paths, printed as markdown tables (never asserts on time).
//  1. CDT build time, ours (core/map2d/cdt) against CGAL's Constrained_Delaunay_triangulation_2,
//     same points and constraints (the free space of random maps of growing size);
//  2. path queries per second on the same pairs: A* + funnel (NavQuery) against Polyanya, on
//     the random 2D maps, the generated ones (assets/map2d_*.json) and the shared 3D meshes, with the distribution of how much longer the funnel path
//     is than the optimal one (xz lengths).
// Usage: navbench2d [--pairs N] [--reps N]   (tests/bench/run_map2d.sh builds and runs it)
#include <CGAL/Constrained_Delaunay_triangulation_2.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "bench_check.h"
#include "core/pipeline/pipeline.h"
#include "core/map2d/cdt.h"
#include "core/map2d/map2d.h"
#include "core/map2d/map2d_tile.h"
#include "core/runtime/polyanya.h"
#include "core/runtime/query.h"

namespace {

using namespace nav::map2d;
using Clock = std::chrono::steady_clock;
using K = CGAL::Exact_predicates_inexact_constructions_kernel;
using CDT = CGAL::Constrained_Delaunay_triangulation_2<K, CGAL::Default, CGAL::Exact_predicates_tag>;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

double quantile(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, size_t(q * double(v.size() - 1) + 0.5))];
}

// A square outline of side 1000 with n random convex-ish obstacles (general position).
Map2D random_map(int n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> c(20, 980), rad(3, 12), ang(0, 6.283185307179586);
    Map2D m;
    const double o[8] = {0, 0, 1000, 0, 1000, 1000, 0, 1000};
    m.outline.add(o, 4);
    for (int k = 0; k < n; ++k) {
        const double cx = c(rng), cz = c(rng);
        const int sides = 3 + k % 5;
        std::vector<double> a(static_cast<size_t>(sides));
        for (auto& x : a) x = ang(rng);
        std::sort(a.begin(), a.end());
        std::vector<double> p;
        for (double x : a) {
            const double r = rad(rng);
            p.push_back(cx + r * std::cos(x));
            p.push_back(cz + r * std::sin(x));
        }
        m.obstacles.add(p.data(), static_cast<size_t>(sides));
    }
    return m;
}

double cgal_cdt_ms(const CdtInput& in, size_t* faces) {
    const auto t0 = Clock::now();
    CDT cdt;
    std::vector<CDT::Vertex_handle> vh;
    vh.reserve(in.xz.size() / 2);
    for (size_t i = 0; i < in.xz.size() / 2; ++i) vh.push_back(cdt.insert(K::Point_2(in.xz[2 * i], in.xz[2 * i + 1])));
    for (size_t k = 0; k + 1 < in.constraints.size(); k += 2)
        if (vh[in.constraints[k]] != vh[in.constraints[k + 1]]) cdt.insert_constraint(vh[in.constraints[k]], vh[in.constraints[k + 1]]);
    const double ms = ms_since(t0);
    *faces = cdt.number_of_faces();
    return ms;
}

double xz_length(const std::vector<float>& p) {
    double l = 0;
    for (size_t k = 3; k + 2 < p.size(); k += 3) l += std::hypot(double(p[k]) - p[k - 3], double(p[k + 2]) - p[k - 1]);
    return l;
}

void bench_paths(const char* name, const nav::NavMesh& nm, int npairs) {
    nav::NavQuery q;
    q.init(&nm, 65536);
    nav::PolyanyaMesh pm;
    if (!nav::polyanya_mesh_from_navmesh(nm, pm)) return;
    nav::Rng rng(99);
    nav::QueryFilter filter;
    struct Pair {
        nav::RandomPoint a, b;
    };
    std::vector<Pair> pairs;
    for (int i = 0; i < npairs; ++i) {
        Pair p;
        (void)q.random_point(filter, rng, p.a);
        (void)q.random_point(filter, rng, p.b);
        if (p.a.poly == nav::kNoRef || p.b.poly == nav::kNoRef) continue;
        pairs.push_back(p);
    }
    std::vector<double> lf(pairs.size(), 0), lo(pairs.size(), 0);
    std::vector<uint8_t> ok(pairs.size(), 0);
    // A* + funnel (polygons known: no nearest-polygon search on either side)
    auto t0 = Clock::now();
    nav::PathResult pr;
    nav::StraightPath sp;
    for (size_t i = 0; i < pairs.size(); ++i) {
        (void)q.find_path(pairs[i].a.poly, pairs[i].b.poly, pairs[i].a.point, pairs[i].b.point, filter, pr);
        if (!pr.reached) continue;
        (void)q.find_straight_path(pairs[i].a.point, pairs[i].b.point, pr.polys, nav::StraightPathOptions{}, sp);
        lf[i] = xz_length(sp.points);
        ok[i] = 1;
    }
    const double ms_funnel = ms_since(t0);
    t0 = Clock::now();
    nav::PolyanyaPath pp;
    nav::PolyanyaWorkspace ws;  // buffers reused across queries, as NavQuery reuses its own for A*
    for (size_t i = 0; i < pairs.size(); ++i) {
        (void)nav::polyanya_find_path(pm, nm.poly_index(pairs[i].a.poly), pairs[i].a.point, nm.poly_index(pairs[i].b.poly),
                                pairs[i].b.point, pp, nullptr, &ws);
        lo[i] = pp.found ? pp.length_xz : 0;
    }
    const double ms_opt = ms_since(t0);
    std::vector<double> ratio;
    int longer = 0;
    for (size_t i = 0; i < pairs.size(); ++i)
        if (ok[i] && lo[i] > 0) {
            ratio.push_back(lf[i] / lo[i]);
            longer += lf[i] > lo[i] * 1.001;
        }
    const double n = double(pairs.size());
    std::printf("| %s | %d | %zu | %.0f | %.0f | %.2f | %.4f | %.4f | %.4f | %.4f | %.1f%% |\n", name, nm.npolys,
                pairs.size(), n / (ms_funnel / 1000), n / (ms_opt / 1000), ms_opt / ms_funnel, quantile(ratio, 0.5),
                quantile(ratio, 0.9), quantile(ratio, 0.99), ratio.empty() ? 0 : *std::max_element(ratio.begin(), ratio.end()),
                ratio.empty() ? 0 : 100.0 * longer / double(ratio.size()));
}

}  // namespace

int main(int argc, char** argv) {
    int npairs = 2000, reps = 5;
    for (int i = 1; i + 1 < argc; ++i) {
        if (!std::strcmp(argv[i], "--pairs")) npairs = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--reps")) reps = std::atoi(argv[++i]);
    }
    std::printf("## CDT build time: ours against CGAL (median of %d, same points and constraints)\n\n", reps);
    std::printf("| obstacles | points | constraints | triangles (domain) | ours ms | CGAL ms | ours / CGAL |\n");
    std::printf("|---|---|---|---|---|---|---|\n");
    std::vector<nav::NavMesh> maps;
    for (int n : {25, 100, 400, 1600}) {
        Map2D m = random_map(n, uint32_t(n));
        Map2DResult r;
        Map2DOptions opt;
        if (!build_map2d(m, opt, r)) continue;
        const CdtInput in = cdt_input_from_rings(r.free);
        std::vector<double> ours, theirs;
        size_t faces = 0;
        for (int k = 0; k < reps; ++k) {
            CdtResult c;
            const auto t0 = Clock::now();
            bench_must(cdt_build(in, c), "cdt_build");
            ours.push_back(ms_since(t0));
            theirs.push_back(cgal_cdt_ms(in, &faces));
        }
        std::printf("| %d | %zu | %zu | %zu | %.2f | %.2f | %.2f |\n", n, in.xz.size() / 2, in.constraints.size() / 2,
                    r.cdt.tris.size() / 3, median(ours), median(theirs), median(ours) / median(theirs));
        nav::NavMesh nm;
        if (build_map2d_navmesh(r.mesh, nm)) maps.push_back(std::move(nm));
    }
    std::printf("\n(CGAL's time covers its whole triangulation including the outside; ours includes the domain flood fill.)\n");
    std::printf("\n## Path queries: A* + funnel against Polyanya, same pairs (polygons given), %d pairs\n\n", npairs);
    std::printf("| mesh | polys | pairs | A*+funnel q/s | Polyanya q/s | Polyanya time / A*+funnel time | funnel/optimal p50 | p90 | p99 | max | funnel >0.1%% longer |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
    const char* names[] = {"2D map, 25 obstacles", "2D map, 100 obstacles", "2D map, 400 obstacles", "2D map, 1600 obstacles"};
    for (size_t k = 0; k < maps.size(); ++k) bench_paths(names[k], maps[k], npairs);
    for (const char* f : {"map2d_rooms.json", "map2d_maze.json", "map2d_obstacles.json", "map2d_grid.json"}) {
        Map2D m;
        Map2DResult r;
        nav::NavMesh nm;
        if (!load_map2d(std::string(NAV_SOURCE_DIR) + "/assets/" + f, m) || !build_map2d(m, Map2DOptions{}, r) ||
            !build_map2d_navmesh(r.mesh, nm)) {
            std::printf("| %s | (not built) |\n", f);
            continue;
        }
        bench_paths(f, nm, npairs);
    }
    for (const char* f : {"dungeon.obj", "nav_test.obj", "undulating.obj"}) {
        nav::Pipeline pipe;
        const std::string path = std::string(NAV_SHARED_MESHES) + "/" + f;
        if (!pipe.load_mesh(path) || !pipe.run()) {
            std::printf("| %s | (not baked) |\n", f);
            continue;
        }
        bench_paths(f, *pipe.snapshot()->navmesh, npairs);
    }
    return 0;
}
