// Polyanya (core/runtime/polyanya.*): on small 2D maps the path length equals the shortest path
// through the visibility graph (brute force here) to 1e-6 relative, and is never longer than A* +
// funnel; on the shared 3D meshes never longer than the funnel path (xz length). Bad input.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include "core/build/pipeline.h"
#include "core/map2d/map2d.h"
#include "core/map2d/map2d_tile.h"
#include "core/runtime/polyanya.h"
#include "core/runtime/query.h"
#include "test_scenes.h"

namespace {

using namespace nav::map2d;

int winding(const Rings& r, double qx, double qz) {
    int w = 0;
    for (size_t k = 0; k < r.count(); ++k) {
        const double* p = r.ring(k);
        const uint32_t n = r.size(k);
        for (uint32_t i = 0; i < n; ++i) {
            const double *a = p + 2 * i, *b = p + 2 * ((i + 1) % n);
            const double o = orient2d(a[0], a[1], b[0], b[1], qx, qz);
            if (a[1] <= qz) {
                if (b[1] > qz && o > 0) ++w;
            } else if (b[1] <= qz && o < 0) {
                --w;
            }
        }
    }
    return w;
}

bool on_boundary(const Rings& r, double qx, double qz) {
    for (size_t k = 0; k < r.count(); ++k) {
        const double* p = r.ring(k);
        const uint32_t n = r.size(k);
        for (uint32_t i = 0; i < n; ++i) {
            const double *a = p + 2 * i, *b = p + 2 * ((i + 1) % n);
            const double len = std::hypot(b[0] - a[0], b[1] - a[1]);
            if (std::fabs(orient2d(a[0], a[1], b[0], b[1], qx, qz)) > 1e-9 * len) continue;
            const double t = ((qx - a[0]) * (b[0] - a[0]) + (qz - a[1]) * (b[1] - a[1])) / (len * len);
            if (t >= -1e-12 && t <= 1 + 1e-12) return true;
        }
    }
    return false;
}

// Brute-force visibility inside the closed free space: the segment crosses no boundary edge
// properly, and between the boundary points it touches it stays inside (or on the boundary).
bool visible(const Rings& free, double px, double pz, double qx, double qz) {
    std::vector<double> ts = {0.0, 1.0};
    const double dx = qx - px, dz = qz - pz, l2 = dx * dx + dz * dz;
    if (l2 == 0) return true;
    for (size_t k = 0; k < free.count(); ++k) {
        const double* p = free.ring(k);
        const uint32_t n = free.size(k);
        for (uint32_t i = 0; i < n; ++i) {
            const double *a = p + 2 * i, *b = p + 2 * ((i + 1) % n);
            const double o1 = orient2d(px, pz, qx, qz, a[0], a[1]), o2 = orient2d(px, pz, qx, qz, b[0], b[1]);
            const double o3 = orient2d(a[0], a[1], b[0], b[1], px, pz), o4 = orient2d(a[0], a[1], b[0], b[1], qx, qz);
            const double tol = 1e-9 * std::sqrt(l2);
            if (((o1 > tol && o2 < -tol) || (o1 < -tol && o2 > tol)) &&
                ((o3 > 1e-9 && o4 < -1e-9) || (o3 < -1e-9 && o4 > 1e-9)))
                return false;
            if (std::fabs(o1) <= tol) ts.push_back(((a[0] - px) * dx + (a[1] - pz) * dz) / l2);
        }
    }
    std::sort(ts.begin(), ts.end());
    for (size_t i = 0; i + 1 < ts.size(); ++i) {
        const double t0 = std::clamp(ts[i], 0.0, 1.0), t1 = std::clamp(ts[i + 1], 0.0, 1.0);
        if (t1 - t0 < 1e-12) continue;
        const double mx = px + dx * 0.5 * (t0 + t1), mz = pz + dz * 0.5 * (t0 + t1);
        if (winding(free, mx, mz) <= 0 && !on_boundary(free, mx, mz)) return false;
    }
    return true;
}

struct VisGraph {
    std::vector<double> pts;  // corners x, z
    std::vector<double> dist; // corner x corner, HUGE_VAL when not visible
};

VisGraph make_graph(const Rings& free) {
    VisGraph g;
    g.pts = free.xz;
    const size_t n = g.pts.size() / 2;
    g.dist.assign(n * n, HUGE_VAL);
    for (size_t i = 0; i < n; ++i)
        for (size_t j = i + 1; j < n; ++j)
            if (visible(free, g.pts[2 * i], g.pts[2 * i + 1], g.pts[2 * j], g.pts[2 * j + 1]))
                g.dist[i * n + j] = g.dist[j * n + i] =
                    std::hypot(g.pts[2 * i] - g.pts[2 * j], g.pts[2 * i + 1] - g.pts[2 * j + 1]);
    return g;
}

// Shortest s-t distance through the visibility graph (Dijkstra over corners), HUGE_VAL if none.
double shortest(const Rings& free, const VisGraph& g, double sx, double sz, double tx, double tz) {
    if (visible(free, sx, sz, tx, tz)) return std::hypot(tx - sx, tz - sz);
    const size_t n = g.pts.size() / 2;
    std::vector<double> d(n, HUGE_VAL), to_t(n, HUGE_VAL);
    for (size_t i = 0; i < n; ++i) {
        if (visible(free, sx, sz, g.pts[2 * i], g.pts[2 * i + 1])) d[i] = std::hypot(g.pts[2 * i] - sx, g.pts[2 * i + 1] - sz);
        if (visible(free, g.pts[2 * i], g.pts[2 * i + 1], tx, tz)) to_t[i] = std::hypot(g.pts[2 * i] - tx, g.pts[2 * i + 1] - tz);
    }
    std::vector<uint8_t> done(n, 0);
    double best = HUGE_VAL;
    for (size_t it = 0; it < n; ++it) {
        size_t u = n;
        for (size_t i = 0; i < n; ++i)
            if (!done[i] && d[i] < HUGE_VAL && (u == n || d[i] < d[u])) u = i;
        if (u == n) break;
        done[u] = 1;
        best = std::min(best, d[u] + to_t[u]);
        for (size_t v = 0; v < n; ++v)
            if (!done[v] && g.dist[u * n + v] < HUGE_VAL) d[v] = std::min(d[v], d[u] + g.dist[u * n + v]);
    }
    return best;
}

uint32_t locate(const PolyMesh2D& m, double x, double z) {
    for (uint32_t p = 0; p < m.npolys(); ++p) {
        bool in = true;
        const uint32_t f = m.poly_first[p], n = m.poly_first[p + 1] - f;
        for (uint32_t i = 0; i < n && in; ++i) {
            const uint32_t a = m.poly_verts[f + i], b = m.poly_verts[f + (i + 1) % n];
            in = orient2d(m.xz[2 * a], m.xz[2 * a + 1], m.xz[2 * b], m.xz[2 * b + 1], x, z) > 0;
        }
        if (in) return p;
    }
    return UINT32_MAX;
}

double funnel_length_xz(nav::NavQuery& q, const nav::NavMesh& nm, uint32_t sp, const float* s, uint32_t tp,
                        const float* t, bool* found) {
    nav::QueryFilter filter;
    nav::PathResult path;
    REQUIRE(q.find_path(nm.ref(sp), nm.ref(tp), s, t, filter, path));
    *found = path.reached;
    if (!path.reached) return HUGE_VAL;
    nav::StraightPath sp_out;
    REQUIRE(q.find_straight_path(s, t, path.polys, nav::StraightPathOptions{}, sp_out));
    double len = 0;
    for (int i = 1; i < sp_out.size(); ++i)
        len += std::hypot(double(sp_out.points[3 * i]) - sp_out.points[3 * i - 3],
                          double(sp_out.points[3 * i + 2]) - sp_out.points[3 * i - 1]);
    return len;
}

std::string random_map_json(std::mt19937& rng, int nobs) {
    std::uniform_int_distribution<int> c(1, 28), w(1, 6), kind(0, 2);
    std::string s = R"({"outline": [[0,0],[30,0],[30,30],[0,30]], "obstacles": [)";
    for (int k = 0; k < nobs; ++k) {
        const int x = c(rng), z = c(rng), a = w(rng), b = w(rng);
        const int x1 = std::min(x + a, 29), z1 = std::min(z + b, 29);
        if (k) s += ",";
        if (kind(rng) == 0)
            s += "[[" + std::to_string(x) + "," + std::to_string(z) + "],[" + std::to_string(x1) + "," + std::to_string(z) +
                 "],[" + std::to_string(x) + "," + std::to_string(z1) + "]]";
        else
            s += "[[" + std::to_string(x) + "," + std::to_string(z) + "],[" + std::to_string(x1) + "," + std::to_string(z) +
                 "],[" + std::to_string(x1) + "," + std::to_string(z1) + "],[" + std::to_string(x) + "," +
                 std::to_string(z1) + "]]";
    }
    return s + "]}";
}

}  // namespace

TEST_CASE("polyanya: 2D maps, length equals the visibility-graph shortest path, never longer than A* + funnel") {
    std::mt19937 rng(5150);
    int pairs = 0, unreachable = 0, shorter_than_funnel = 0, pinched_maps = 0;
    for (int map = 0; map < 30; ++map) {
        Map2D m;
        const std::string js = random_map_json(rng, 3 + map % 10);
        REQUIRE(parse_map2d_json(js, "random.json", m));
        Map2DResult r;
        Map2DOptions opt;
        opt.max_verts = map % 3 == 0 ? 3 : 6;
        const nav::Status bs = build_map2d(m, opt, r);
        if (!bs) continue;  // obstacles covering everything
        // Obstacles touching at a single point leave a zero-width gap the brute force would walk
        // through and the mesh (polygons adjacent by edges only) does not: skip such maps.
        bool pinch = false;
        for (size_t i = 0; i < r.free.xz.size() / 2 && !pinch; ++i)
            for (size_t j = i + 1; j < r.free.xz.size() / 2 && !pinch; ++j)
                pinch = r.free.xz[2 * i] == r.free.xz[2 * j] && r.free.xz[2 * i + 1] == r.free.xz[2 * j + 1];
        if (pinch) {
            ++pinched_maps;
            continue;
        }
        nav::NavMesh nm;
        REQUIRE(build_map2d_navmesh(r.mesh, nm));
        nav::PolyanyaMesh pm;
        REQUIRE(nav::polyanya_mesh_from_navmesh(nm, pm));
        nav::NavQuery q;
        q.init(&nm, 65536);
        const VisGraph g = make_graph(r.free);
        std::uniform_real_distribution<float> u(0.0f, 30.0f);
        for (int k = 0; k < 130; ++k) {
            float s[3] = {u(rng), 0, u(rng)}, t[3] = {u(rng), 0, u(rng)};
            const uint32_t sp = locate(r.mesh, s[0], s[2]), tp = locate(r.mesh, t[0], t[2]);
            if (sp == UINT32_MAX || tp == UINT32_MAX) continue;
            nav::PolyanyaPath path;
            REQUIRE(nav::polyanya_find_path(pm, sp, s, tp, t, path));
            const double ref = shortest(r.free, g, s[0], s[2], t[0], t[2]);
            INFO("map " << map << " pair " << k << " (" << s[0] << "," << s[2] << ") -> (" << t[0] << "," << t[2] << ")");
            CHECK(path.found == (ref < HUGE_VAL));
            if (ref == HUGE_VAL) {
                ++unreachable;
                continue;
            }
            CHECK(path.length_xz == doctest::Approx(ref).epsilon(1e-6));
            if (std::getenv("POLYANYA_DEBUG") && std::fabs(path.length_xz - ref) > 1e-6 * ref) {
                std::printf("%s\n", js.c_str());
                for (size_t i = 0; i + 1 < path.points.size() / 3; ++i)
                    std::printf("  (%g,%g)->(%g,%g) visible %d\n", path.points[3 * i], path.points[3 * i + 2],
                                path.points[3 * i + 3], path.points[3 * i + 5],
                                int(visible(r.free, path.points[3 * i], path.points[3 * i + 2], path.points[3 * i + 3],
                                            path.points[3 * i + 5])));
            }
            bool ffound = false;
            const double fl = funnel_length_xz(q, nm, sp, s, tp, t, &ffound);
            CHECK(ffound);
            CHECK(path.length_xz <= fl * (1 + 1e-6) + 1e-6);
            shorter_than_funnel += path.length_xz < fl * (1 - 1e-6);
            ++pairs;
        }
    }
    MESSAGE(pairs << " pairs checked against the visibility graph, " << unreachable << " unreachable, "
                  << shorter_than_funnel << " shorter than A* + funnel; " << pinched_maps << " maps skipped");
    CHECK(pairs >= 2000);
}

TEST_CASE("polyanya: trace lists the expanded nodes, f a lower bound through each") {
    Map2D m;
    REQUIRE(parse_map2d_json(R"({"outline": [[0,0],[20,0],[20,20],[0,20]], "obstacles": [[[5,2],[7,2],[7,18],[5,18]], [[12,0],[14,0],[14,15],[12,15]]]})",
                             "walls.json", m));
    Map2DResult r;
    REQUIRE(build_map2d(m, Map2DOptions{}, r));
    nav::NavMesh nm;
    REQUIRE(build_map2d_navmesh(r.mesh, nm));
    nav::PolyanyaMesh pm;
    REQUIRE(nav::polyanya_mesh_from_navmesh(nm, pm));
    const float s[3] = {1, 0, 1}, t[3] = {19, 0, 1};
    nav::PolyanyaTrace tr;
    nav::PolyanyaPath path;
    REQUIRE(nav::polyanya_find_path(pm, locate(r.mesh, 1, 1), s, locate(r.mesh, 19, 1), t, path, &tr));
    REQUIRE(path.found);
    // under the first wall (corner (7,2)), over the second ((12,15), (14,15))
    const double expect = std::hypot(6, 1) + std::hypot(5, 13) + 2 + std::hypot(5, 14);
    CHECK(path.length_xz == doctest::Approx(expect).epsilon(1e-9));
    CHECK(path.points.size() / 3 == 5);
    CHECK(!tr.expanded.empty());
    CHECK(int(tr.expanded.size()) == path.expanded);
    // f = g + h with h a lower bound: never below the straight line, never below g
    for (const auto& n : tr.expanded) {
        CHECK(n.f >= std::hypot(18.0, 0.0) - 1e-9);
        CHECK(n.f >= n.g - 1e-9);
    }
    CHECK(tr.expanded.front().root[0] == doctest::Approx(1.0));
    // bad input
    CHECK(nav::polyanya_find_path(pm, 99999, s, 0, t, path).code == nav::Status::Code::BadInput);
    const float nan_pt[3] = {NAN, 0, 0};
    CHECK(nav::polyanya_find_path(pm, 0, nan_pt, 0, t, path).code == nav::Status::Code::BadInput);
}

TEST_CASE("polyanya: shared 3D meshes, never longer than the funnel path (xz)") {
    for (const char* name : {"dungeon.obj", "nav_test.obj", "undulating.obj"}) {
        const std::string path = navtest::shared_mesh_or_skip(name);
        if (path.empty()) continue;
        nav::Pipeline pipe;
        REQUIRE(pipe.load_mesh(path));
        REQUIRE(pipe.run());
        const auto bake = pipe.snapshot();
        const nav::NavMesh& nm = *bake->navmesh;
        nav::PolyanyaMesh pm;
        REQUIRE(nav::polyanya_mesh_from_navmesh(nm, pm));
        nav::NavQuery q;
        q.init(&nm, 65536);
        nav::Rng rng(1234);
        nav::QueryFilter filter;
        int pairs = 0, shorter = 0;
        for (int k = 0; k < 300; ++k) {
            nav::RandomPoint a, b;
            REQUIRE(q.random_point(filter, rng, a));
            REQUIRE(q.random_point(filter, rng, b));
            const uint32_t sp = nm.poly_index(a.poly), tp = nm.poly_index(b.poly);
            bool found = false;
            const double fl = funnel_length_xz(q, nm, sp, a.point, tp, b.point, &found);
            nav::PolyanyaPath pp;
            REQUIRE(nav::polyanya_find_path(pm, sp, a.point, tp, b.point, pp));
            INFO(name << " pair " << k);
            CHECK(pp.found == found);
            if (!found) continue;
            CHECK(pp.length_xz <= fl * (1 + 1e-5) + 1e-4);
            shorter += pp.length_xz < fl * (1 - 1e-5);
            ++pairs;
        }
        MESSAGE(std::string(name) << ": " << pairs << " pairs, Polyanya shorter than A* + funnel in " << shorter);
    }
}
