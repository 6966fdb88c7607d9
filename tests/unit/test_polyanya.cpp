// Polyanya (core/runtime/polyanya.*): on small 2D maps (integer rectangles and triangles, concave
// and star obstacles, obstacles inflated by an agent radius, the generated assets) the path length
// equals the shortest path through the visibility graph (brute force here) to 1e-6 relative, and is
// never longer than A* + funnel; on the shared 3D meshes, solo and tiled, never longer than the
// funnel path (xz length). Through the query layer (find_route with RouteOptions::optimal) the
// turning points lie on the detail surface. Bad input.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include "core/pipeline/pipeline.h"
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


struct VisStats {
    int maps = 0, pairs = 0, unreachable = 0, shorter_than_funnel = 0;
    int pinched_maps = 0, pinched_pairs = 0;  // maps with obstacles touching at a point: lower bound only
    int failed_builds = 0;
    std::string pinched_names;  // "name " per pinched map
};

// Random pairs on one map: Polyanya's length against the brute force and against A* + funnel.
// Obstacles touching at a single point leave a zero-width gap that the brute force walks through
// and the mesh (polygons adjacent by edges only) does not: on such maps the brute force is only a
// lower bound (more visibility, never a longer path), and that is what is checked there.
void check_map(const std::string& label, const Map2D& m, int max_verts, int npairs, std::mt19937& rng, VisStats& st) {
    Map2DResult r;
    Map2DOptions opt;
    opt.max_verts = max_verts;
    const nav::Status bs = build_map2d(m, opt, r);
    if (!bs) {  // obstacles covering everything
        ++st.failed_builds;
        return;
    }
    ++st.maps;
    bool pinch = false;
    for (size_t i = 0; i < r.free.xz.size() / 2 && !pinch; ++i)
        for (size_t j = i + 1; j < r.free.xz.size() / 2 && !pinch; ++j)
            pinch = r.free.xz[2 * i] == r.free.xz[2 * j] && r.free.xz[2 * i + 1] == r.free.xz[2 * j + 1];
    st.pinched_maps += pinch;
    if (pinch) st.pinched_names += label + " ";
    nav::NavMesh nm;
    REQUIRE(build_map2d_navmesh(r.mesh, nm));
    nav::PolyanyaMesh pm;
    REQUIRE(nav::polyanya_mesh_from_navmesh(nm, pm));
    nav::NavQuery q;
    q.init(&nm, 65536);
    const VisGraph g = make_graph(r.free);
    double lo[2] = {HUGE_VAL, HUGE_VAL}, hi[2] = {-HUGE_VAL, -HUGE_VAL};
    for (size_t i = 0; i < r.free.xz.size() / 2; ++i)
        for (int k = 0; k < 2; ++k) lo[k] = std::min(lo[k], r.free.xz[2 * i + k]), hi[k] = std::max(hi[k], r.free.xz[2 * i + k]);
    std::uniform_real_distribution<float> ux{float(lo[0]), float(hi[0])}, uz{float(lo[1]), float(hi[1])};
    for (int k = 0; k < npairs; ++k) {
        float s[3] = {ux(rng), 0, uz(rng)}, t[3] = {ux(rng), 0, uz(rng)};
        const uint32_t sp = locate(r.mesh, s[0], s[2]), tp = locate(r.mesh, t[0], t[2]);
        if (sp == UINT32_MAX || tp == UINT32_MAX) continue;
        nav::PolyanyaPath path;
        REQUIRE(nav::polyanya_find_path(pm, sp, s, tp, t, path));
        const double ref = shortest(r.free, g, s[0], s[2], t[0], t[2]);
        INFO(label << " pair " << k << " (" << s[0] << "," << s[2] << ") -> (" << t[0] << "," << t[2] << ")"
                   << (pinch ? " (pinched map)" : ""));
        if (!pinch) CHECK(path.found == (ref < HUGE_VAL));
        else if (path.found) CHECK(ref < HUGE_VAL);
        if (!path.found) {
            ++st.unreachable;
            continue;
        }
        if (!pinch) {
            CHECK(path.length_xz == doctest::Approx(ref).epsilon(1e-6));
            ++st.pairs;
        } else {
            CHECK(path.length_xz >= ref * (1 - 1e-6));
            ++st.pinched_pairs;
        }
        bool ffound = false;
        const double fl = funnel_length_xz(q, nm, sp, s, tp, t, &ffound);
        CHECK(ffound);
        CHECK(path.length_xz <= fl * (1 + 1e-6) + 1e-6);
        st.shorter_than_funnel += path.length_xz < fl * (1 - 1e-6);
    }
}

// Obstacles with concave shapes: L, U and stars (simple: vertices in angle order around a centre).
std::string ring_json(const std::vector<double>& p) {
    std::string s = "[";
    char buf[64];
    for (size_t i = 0; i + 1 < p.size(); i += 2) {
        std::snprintf(buf, sizeof buf, "%s[%.3f,%.3f]", i ? "," : "", p[i], p[i + 1]);
        s += buf;
    }
    return s + "]";
}

std::string concave_map_json(std::mt19937& rng, int nobs, double radius) {
    std::uniform_real_distribution<double> c(3, 27), w(1.5, 5), ang(0, 0.6);
    std::uniform_int_distribution<int> kind(0, 2), spikes(4, 7);
    std::string s = R"({"outline": [[0,0],[30,0],[30,30],[0,30]], "agent_radius": )" + std::to_string(radius) +
                    R"(, "obstacles": [)";
    for (int k = 0; k < nobs; ++k) {
        const double x = std::round(c(rng) * 4) / 4, z = std::round(c(rng) * 4) / 4;
        const double a = std::min(w(rng), 29 - x), b = std::min(w(rng), 29 - z);
        std::vector<double> p;
        switch (kind(rng)) {
            case 0:  // L
                p = {x, z, x + a, z, x + a, z + b / 2, x + a / 2, z + b / 2, x + a / 2, z + b, x, z + b};
                break;
            case 1:  // U, opening upward
                p = {x, z, x + a, z, x + a, z + b, x + 2 * a / 3, z + b, x + 2 * a / 3, z + b / 3, x + a / 3, z + b / 3,
                     x + a / 3, z + b, x, z + b};
                break;
            default: {  // star around (x, z)
                const int n = spikes(rng);
                const double r0 = std::min({2.5, x - 0.5, 29.5 - x, z - 0.5, 29.5 - z});
                const double off = ang(rng);
                for (int i = 0; i < 2 * n; ++i) {
                    const double t = off + 3.141592653589793 * i / n, r = i % 2 ? r0 * 0.4 : r0;
                    p.push_back(x + r * std::cos(t));
                    p.push_back(z + r * std::sin(t));
                }
            }
        }
        s += (k ? "," : "") + ring_json(p);
    }
    return s + "]}";
}

}  // namespace

TEST_CASE("polyanya: 2D maps, length equals the visibility-graph shortest path, never longer than A* + funnel") {
    std::mt19937 rng(5150);
    VisStats plain, concave, inflated, assets;
    for (int map = 0; map < 30; ++map) {
        Map2D m;
        const std::string js = random_map_json(rng, 3 + map % 10);
        REQUIRE(parse_map2d_json(js, "random.json", m));
        check_map("rectangles/triangles map " + std::to_string(map), m, map % 3 == 0 ? 3 : 6, 130, rng, plain);
    }
    for (int map = 0; map < 16; ++map) {
        Map2D m;
        const std::string js = concave_map_json(rng, 2 + map % 6, 0.0);
        INFO(js);
        REQUIRE(parse_map2d_json(js, "concave.json", m));
        check_map("concave/star map " + std::to_string(map), m, map % 2 ? 3 : 6, 60, rng, concave);
    }
    for (int map = 0; map < 16; ++map) {
        Map2D m;
        const double radius = map % 2 ? 0.5 : 0.25;
        const std::string js = map % 4 < 2 ? random_map_json(rng, 2 + map % 5) : concave_map_json(rng, 2 + map % 4, radius);
        INFO(js);
        REQUIRE(parse_map2d_json(js, "inflated.json", m));
        m.agent_radius = radius;  // random_map_json has no radius of its own
        check_map("inflated map " + std::to_string(map) + " (radius " + std::to_string(radius) + ")", m, 6, 40, rng, inflated);
    }
    for (const char* name : {"map2d_rooms.json", "map2d_maze.json", "map2d_obstacles.json", "map2d_grid.json"}) {
        Map2D m;
        REQUIRE(load_map2d(std::string(NAV_SOURCE_DIR) + "/assets/" + name, m));
        check_map(name, m, 6, 40, rng, assets);
    }
    for (auto [what, st] : {std::pair<const char*, const VisStats*>{"rectangles/triangles", &plain},
                            {"concave/star", &concave}, {"inflated (radius 0.25, 0.5)", &inflated}, {"assets", &assets}})
        MESSAGE(std::string(what) << ": " << st->maps << " maps (" << st->failed_builds << " did not build), " << st->pairs
                     << " pairs equal to the visibility graph, " << st->unreachable << " unreachable, "
                     << st->shorter_than_funnel << " shorter than A* + funnel; " << st->pinched_maps
                     << " maps with obstacles touching at a point, " << st->pinched_pairs
                     << " pairs there checked as a lower bound only");
    CHECK(plain.pairs >= 2000);
    CHECK(concave.pairs >= 500);
    CHECK(inflated.pairs >= 300);
    CHECK(assets.maps == 4);
    // of the generated maps only the occupancy grid has pinch points (blocked cells meeting
    // corner to corner); the others are checked exactly
    CHECK(assets.pinched_maps == 1);
    CHECK(assets.pinched_names == "map2d_grid.json ");
    CHECK(assets.pairs >= 100);
    // pinch points come only from integer obstacles meeting corner to corner: few of the random
    // maps, none once inflated (the inflated discs overlap where the obstacles touched)
    CHECK(plain.pinched_maps <= plain.maps / 4);
    CHECK(concave.pinched_maps <= concave.maps / 4);
    CHECK(inflated.pinched_maps == 0);
    CHECK(plain.failed_builds + concave.failed_builds + inflated.failed_builds <= 3);
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

TEST_CASE("polyanya: shared 3D meshes, solo and tiled, never longer than the funnel path (xz)") {
    for (const char* name : {"dungeon.obj", "nav_test.obj", "undulating.obj"}) {
        const std::string path = navtest::shared_mesh_or_skip(name);
        if (path.empty()) continue;
        for (int tile_size : {0, 48}) {
            nav::Pipeline pipe;
            REQUIRE(pipe.load_mesh(path));
            REQUIRE(pipe.set_param(nav::ParamId::tile_size, tile_size));
            REQUIRE(pipe.run());
            const auto bake = pipe.snapshot();
            REQUIRE(bake->tiled() == (tile_size > 0));
            const nav::NavMesh& nm = *bake->navmesh;
            if (tile_size > 0) REQUIRE(nm.ntiles > 1);
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
                INFO(std::string(name) << " tile_size " << tile_size << " (" << nm.ntiles << " tiles) pair " << k);
                CHECK(pp.found == found);
                if (!found) continue;
                CHECK(pp.length_xz <= fl * (1 + 1e-5) + 1e-4);
                shorter += pp.length_xz < fl * (1 - 1e-5);
                ++pairs;
            }
            MESSAGE(std::string(name) << " tile_size " << tile_size << " (" << nm.ntiles << " tiles): " << pairs
                         << " pairs, Polyanya shorter than A* + funnel in " << shorter);
            CHECK(pairs > 50);
        }
    }
}

namespace {

// Height of polygon p's detail surface at (x, z) straight from its detail triangles (not through
// NavMesh::poly_height): the triangle nearest the point in xz, which must be within 2 mm (a tiled
// bake's copies of a border vertex differ by a float ulp, 0.5 mm at 5000 m, between tiles).
bool detail_height(const nav::NavMesh& nm, uint32_t p, float x, float z, float* y) {
    double best = HUGE_VAL;
    for (uint32_t t = nm.dtri_first[p]; t < nm.dtri_first[p + 1]; ++t) {
        const float* v = &nm.dtris[size_t(t) * 9];
        const double d = orient2d(v[0], v[2], v[3], v[5], v[6], v[8]);
        if (std::fabs(d) < 1e-12) continue;
        double l[3] = {orient2d(v[3], v[5], v[6], v[8], x, z) / d, orient2d(v[6], v[8], v[0], v[2], x, z) / d, 0};
        l[2] = 1 - l[0] - l[1];
        double sum = 0;
        for (double& c : l) sum += (c = std::max(c, 0.0));
        double px = 0, pz = 0, py = 0;
        for (int k = 0; k < 3; ++k) px += l[k] / sum * v[3 * k], py += l[k] / sum * v[3 * k + 1], pz += l[k] / sum * v[3 * k + 2];
        const double dist = std::hypot(px - x, pz - z);
        if (dist < best) best = dist, *y = float(py);
    }
    return best <= 2e-3;
}

// Every point of an optimal route lies on the detail surface of the polygon it names (for the
// turning points, a polygon they are a corner of); returns how many turning points there were.
int check_on_detail(const nav::NavMesh& nm, const nav::Route& r, float tol) {
    const nav::StraightPath& sp = r.straight;
    REQUIRE(sp.size() >= 2);
    CHECK(sp.flags.front() == nav::kStraightStart);
    CHECK(sp.flags.back() == nav::kStraightEnd);
    for (int i = 0; i < sp.size(); ++i) {
        const float* pt = &sp.points[size_t(i) * 3];
        const nav::PolyRef ref = i + 1 == sp.size() ? r.end.poly : sp.polys[size_t(i)];
        const uint32_t p = nm.poly_index(ref);
        REQUIRE(p != nav::kNoPoly);
        float y = 0;
        INFO("point " << i << " (" << pt[0] << ", " << pt[1] << ", " << pt[2] << ") in polygon " << p);
        REQUIRE(detail_height(nm, p, pt[0], pt[2], &y));
        CHECK(std::fabs(pt[1] - y) <= tol);
    }
    return sp.size() - 2;
}

}  // namespace

TEST_CASE("polyanya through find_route: turning points on the detail surface, not at the polygon vertices' heights") {
    // A 2D map's flat tile (polygon vertices at y = 0) given a sloped and stepped detail surface:
    // a fan of each polygon with y = f(x, z). Turning points are polygon corners, so their height
    // must be f there, and their vertices' height (0) is wrong everywhere but the origin.
    Map2D m;
    REQUIRE(parse_map2d_json(R"({"outline": [[0,0],[20,0],[20,20],[0,20]], "obstacles": [[[5,2],[7,2],[7,18],[5,18]], [[12,0],[14,0],[14,15],[12,15]], [[16,17],[17,17],[17,18]]]})",
                             "walls.json", m));
    Map2DResult r;
    REQUIRE(build_map2d(m, Map2DOptions{}, r));
    nav::NavMesh flat;
    REQUIRE(build_map2d_navmesh(r.mesh, flat));
    REQUIRE(flat.ntiles == 1);
    auto f = [](float x, float z) { return 0.15f * x + 0.05f * z + (x >= 10 ? 0.4f : 0.0f); };
    auto tile = std::make_shared<nav::NavTile>(*flat.slots[0].tile);
    tile->detail_first.assign(1, 0);
    tile->detail_tris.clear();
    for (int p = 0; p < tile->npolys(); ++p) {
        const uint32_t first = tile->poly_first[size_t(p)];
        const int n = tile->poly_vert_count(uint32_t(p));
        auto put = [&](uint32_t v) {
            const float x = tile->verts[3 * size_t(v)], z = tile->verts[3 * size_t(v) + 2];
            tile->detail_tris.insert(tile->detail_tris.end(), {x, f(x, z), z});
        };
        for (int k = 1; k + 1 < n; ++k) {
            put(tile->edge_vert[first]);
            put(tile->edge_vert[first + uint32_t(k)]);
            put(tile->edge_vert[first + uint32_t(k) + 1]);
        }
        tile->detail_first.push_back(uint32_t(tile->detail_tris.size() / 9));
    }
    tile->bmax[1] = std::max(tile->bmax[1], f(20, 20));
    tile->bvtree.clear();
    std::vector<std::shared_ptr<const nav::NavTile>> tiles{tile};
    nav::NavMesh nm;
    REQUIRE(nav::build_navmesh(tiles, nullptr, nm));
    nav::NavQuery q;
    q.init(&nm);
    nav::RouteOptions ro;
    ro.optimal = true;
    const float ext[3] = {0.5f, 10.0f, 0.5f};
    // under the first wall, over the second: corners (7,2), (12,15), (14,15)
    const float s[3] = {1, 0, 1}, t[3] = {19, 0, 1};
    nav::Route route;
    REQUIRE(q.find_route(s, t, ext, nav::QueryFilter{}, ro, route));
    REQUIRE(route.found());
    REQUIRE(route.path.reached);
    CHECK(route.optimal);
    CHECK(route.path.polys.empty());
    REQUIRE(route.straight.size() == 5);
    CHECK(route.length_xz() == doctest::Approx(std::hypot(6, 1) + std::hypot(5, 13) + 2 + std::hypot(5, 14)).epsilon(1e-6));
    const float corners[3][2] = {{7, 2}, {12, 15}, {14, 15}};
    for (int i = 0; i < 3; ++i) {
        const float* pt = &route.straight.points[size_t(i + 1) * 3];
        CHECK(pt[0] == doctest::Approx(corners[i][0]));
        CHECK(pt[2] == doctest::Approx(corners[i][1]));
        CHECK(pt[1] == doctest::Approx(f(corners[i][0], corners[i][1])).epsilon(1e-5));
    }
    check_on_detail(nm, route, 1e-4f);
    // the funnel through the same API, for comparison: the same ends, never shorter in xz
    nav::Route funnel;
    REQUIRE(q.find_route(s, t, ext, nav::QueryFilter{}, nav::RouteOptions{}, funnel));
    REQUIRE(funnel.path.reached);
    CHECK(!funnel.optimal);
    CHECK(funnel.length_xz() >= route.length_xz() * (1 - 1e-6));
    // random pairs, all of them on the surface
    nav::Rng rng(7);
    int turns = 0;
    for (int k = 0; k < 200; ++k) {
        nav::RandomPoint a, b;
        REQUIRE(q.random_point(nav::QueryFilter{}, rng, a));
        REQUIRE(q.random_point(nav::QueryFilter{}, rng, b));
        REQUIRE(q.find_route(a.point, b.point, ext, nav::QueryFilter{}, ro, route));
        REQUIRE(route.path.reached);
        turns += check_on_detail(nm, route, 1e-4f);
    }
    CHECK(turns > 50);
    // a trace through the same call
    nav::PolyanyaTrace trace;
    REQUIRE(q.find_route(s, t, ext, nav::QueryFilter{}, ro, route, &trace));
    CHECK(int(trace.expanded.size()) == route.path.expanded);
}

TEST_CASE("polyanya through find_route: on a sloped and stepped bake (solo and tiled) the points lie on the detail mesh") {
    for (const char* name : {"undulating.obj", "nav_test.obj"}) {
        const std::string path = navtest::shared_mesh_or_skip(name);
        if (path.empty()) continue;
        for (int tile_size : {0, 48}) {
            nav::Pipeline pipe;
            REQUIRE(pipe.load_mesh(path));
            REQUIRE(pipe.set_param(nav::ParamId::tile_size, tile_size));
            REQUIRE(pipe.run());
            const nav::NavMesh& nm = *pipe.snapshot()->navmesh;
            nav::NavQuery q;
            q.init(&nm, 65536);
            nav::Rng rng(4321);
            nav::RouteOptions ro;
            ro.optimal = true;
            const float ext[3] = {0.5f, 2.0f, 0.5f};
            int routes = 0, turns = 0;
            for (int k = 0; k < 150; ++k) {
                nav::RandomPoint a, b;
                REQUIRE(q.random_point(nav::QueryFilter{}, rng, a));
                REQUIRE(q.random_point(nav::QueryFilter{}, rng, b));
                nav::Route route;
                REQUIRE(q.find_route(a.point, b.point, ext, nav::QueryFilter{}, ro, route));
                if (!route.path.reached) continue;
                INFO(std::string(name) << " tile_size " << tile_size << " pair " << k);
                turns += check_on_detail(nm, route, 3e-3f);
                ++routes;
            }
            MESSAGE(std::string(name) << " tile_size " << tile_size << ": " << routes << " optimal routes, " << turns
                         << " turning points, all on the detail surface");
            CHECK(routes > 30);
            CHECK(turns > 30);
        }
    }
}
