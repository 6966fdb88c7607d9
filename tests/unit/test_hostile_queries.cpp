// Hostile path queries (issue 19, items 4 and 5), on lattices of square pillars: the free cells of
// a grid as the polygons (built here in milliseconds, as a .mesh file would give them), where
// A* discovers more than 8192 states between far corners and where equal-length corner sequences
// abound (sums of the same diagonal lengths in another order).
// - A* out of nodes: a partial path flagged out_of_nodes, the limit settable (max_nodes, NavQuery::init,
//   navbake --set max_nodes) and none by default, so every reachable goal is reached.
// - Polyanya: answers on the 70 x 70 lattice (was "search exceeded 8388608 nodes", exit 1), equals
//   a brute-force visibility graph on small lattices, and when its cap is hit it says so with a
//   partial path (not an error).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/pipeline/params.h"
#include "core/map2d/map2d_tile.h"
#include "core/map2d/mesh_file.h"
#include "core/runtime/polyanya.h"
#include "core/runtime/query.h"
#include "test_files.h"

using navtest::run_cmd;
using navtest::TempFile;

namespace {

// n x n square pillars of side `size` with gaps `gap` between them and to the outline: cell k of
// each axis spans coord[k] .. coord[k + 1], a gap for even k and a pillar for odd k; the free
// cells (all but odd x odd) are the polygons.
struct Lattice {
    int n = 0;
    std::vector<double> coord;  // 2n + 2 cell boundaries per axis
    nav::map2d::PolyMesh2D pm;
    nav::NavMesh nm;
    double extent() const { return coord.back(); }
    // pillar (i, j) covers [pmin(i), pmax(i)] x [pmin(j), pmax(j)]
    double pmin(int i) const { return coord[size_t(2 * i + 1)]; }
    double pmax(int i) const { return coord[size_t(2 * i + 2)]; }
};

void build_lattice(Lattice& L, int n, double gap, double size) {
    L.n = n;
    const int g = 2 * n + 1;
    L.coord.assign(1, 0.0);
    for (int k = 0; k < g; ++k) L.coord.push_back(L.coord.back() + (k % 2 == 0 ? gap : size));
    nav::map2d::PolyMesh2D& m = L.pm;
    for (int z = 0; z <= g; ++z)
        for (int x = 0; x <= g; ++x) m.xz.insert(m.xz.end(), {L.coord[size_t(x)], L.coord[size_t(z)]});
    m.poly_first.assign(1, 0);
    auto v = [g](int x, int z) { return uint32_t(z * (g + 1) + x); };
    for (int z = 0; z < g; ++z)
        for (int x = 0; x < g; ++x) {
            if (x % 2 == 1 && z % 2 == 1) continue;  // a pillar
            m.poly_verts.insert(m.poly_verts.end(), {v(x, z), v(x + 1, z), v(x + 1, z + 1), v(x, z + 1)});
            m.poly_first.push_back(uint32_t(m.poly_verts.size()));
        }
    REQUIRE(nav::map2d::link_polygons(m));
    REQUIRE(nav::map2d::build_map2d_navmesh(m, L.nm));
}

// A random point in a gap row or column (never inside a pillar).
void random_free_point(const Lattice& L, std::mt19937& rng, float* p) {
    std::uniform_int_distribution<int> gap_index(0, L.n);
    std::uniform_real_distribution<double> u(0.05, 0.95), along(0.01, L.extent() - 0.01);
    const double in_gap = L.coord[size_t(2 * gap_index(rng))] + u(rng) * (L.coord[1] - L.coord[0]);
    const bool column = rng() % 2 == 0;
    p[0] = float(column ? in_gap : along(rng));
    p[1] = 0;
    p[2] = float(column ? along(rng) : in_gap);
}

// The segment a-b passes through the interior of a pillar (touching a side or a corner is free).
bool blocked(const Lattice& L, double ax, double az, double bx, double bz) {
    const double e = 1e-9;
    for (int i = 0; i < L.n; ++i) {
        const double x0 = L.pmin(i) + e, x1 = L.pmax(i) - e;
        if (std::max(ax, bx) <= x0 || std::min(ax, bx) >= x1) continue;
        for (int j = 0; j < L.n; ++j) {
            const double z0 = L.pmin(j) + e, z1 = L.pmax(j) - e;
            if (std::max(az, bz) <= z0 || std::min(az, bz) >= z1) continue;
            // Liang-Barsky: the part of the segment inside the (shrunk) square
            double t0 = 0, t1 = 1;
            const double d[2] = {bx - ax, bz - az}, lo[2] = {x0 - ax, z0 - az}, hi[2] = {x1 - ax, z1 - az};
            bool out = false;
            for (int k = 0; k < 2 && !out; ++k) {
                if (d[k] == 0) {
                    out = lo[k] > 0 || hi[k] < 0;
                    continue;
                }
                double ta = lo[k] / d[k], tb = hi[k] / d[k];
                if (ta > tb) std::swap(ta, tb);
                t0 = std::max(t0, ta), t1 = std::min(t1, tb);
                out = t0 >= t1;
            }
            if (!out) return true;
        }
    }
    return false;
}

// Shortest path from s to t in the free space, brute force: Dijkstra over the pillar corners.
double visibility_shortest(const Lattice& L, const float* s, const float* t) {
    std::vector<double> px = {s[0], t[0]}, pz = {s[2], t[2]};
    for (int i = 0; i < L.n; ++i)
        for (int j = 0; j < L.n; ++j)
            for (int c = 0; c < 4; ++c) px.push_back(c & 1 ? L.pmax(i) : L.pmin(i)), pz.push_back(c & 2 ? L.pmax(j) : L.pmin(j));
    const size_t n = px.size();
    std::vector<double> d(n, HUGE_VAL);
    std::vector<char> done(n, 0);
    d[0] = 0;
    for (;;) {
        size_t u = n;
        for (size_t k = 0; k < n; ++k)
            if (!done[k] && (u == n || d[k] < d[u])) u = k;
        if (u == n || d[u] == HUGE_VAL) return HUGE_VAL;
        if (u == 1) return d[1];
        done[u] = 1;
        for (size_t k = 0; k < n; ++k) {
            if (done[k]) continue;
            const double nd = d[u] + std::hypot(px[k] - px[u], pz[k] - pz[u]);
            if (nd < d[k] && !blocked(L, px[u], pz[u], px[k], pz[k])) d[k] = nd;
        }
    }
}

const float kExt[3] = {0.5f, 1.0f, 0.5f};

std::string navbake() { return std::string("'") + NAVBAKE_EXE + "'"; }

}  // namespace

TEST_CASE("hostile queries: A* out of nodes says so with a partial path; by default there is no limit") {
    Lattice L;
    build_lattice(L, 70, 1.0, 1.0);  // 141 m across, 14981 polygons
    const float s[3] = {0.5f, 0, 0.5f}, e[3] = {140.5f, 0, 60.0f};
    nav::QueryFilter filter;
    nav::NavQuery q;
    q.init(&L.nm, 8192);  // the old fixed default
    nav::Route r;
    REQUIRE(q.find_route(s, e, kExt, filter, nav::StraightPathOptions{}, r));
    REQUIRE(r.found());
    CHECK(r.path.out_of_nodes);
    CHECK_FALSE(r.path.reached);
    // the partial corridor is a chain of neighbours from the start polygon, and the straight path
    // follows it from the start toward the goal
    REQUIRE(r.path.polys.size() > 1);
    CHECK(r.path.polys.front() == r.start.poly);
    for (size_t i = 0; i + 1 < r.path.polys.size(); ++i)
        CHECK(L.nm.find_edge(L.nm.poly_index(r.path.polys[i]), L.nm.poly_index(r.path.polys[i + 1])) != nav::kNoEdge);
    REQUIRE(r.straight.size() >= 2);
    const float* last = &r.straight.points[r.straight.points.size() - 3];
    CHECK(std::hypot(last[0] - e[0], last[2] - e[2]) < std::hypot(s[0] - e[0], s[2] - e[2]));
    // the default: no limit (the node arrays are sized to the mesh anyway), the goal reached
    nav::NavQuery def;
    def.init(&L.nm);
    CHECK(def.max_nodes() == 0);
    REQUIRE(def.find_route(s, e, kExt, filter, nav::StraightPathOptions{}, r));
    CHECK(r.path.reached);
    CHECK_FALSE(r.path.out_of_nodes);
    // the example: random pairs, every one reached by A* by default as by Polyanya
    std::mt19937 rng(19);
    nav::RouteOptions opt;
    opt.optimal = true;
    int pairs = 0, astar_reached = 0, optimal_reached = 0;
    for (int k = 0; k < 300; ++k) {
        float a[3], b[3];
        random_free_point(L, rng, a);
        random_free_point(L, rng, b);
        REQUIRE(def.find_route(a, b, kExt, filter, nav::StraightPathOptions{}, r));
        REQUIRE(r.found());
        ++pairs;
        astar_reached += r.path.reached;
        CHECK_FALSE(r.path.out_of_nodes);
        if (k % 10 == 0) {  // Polyanya on a few: reached, never longer
            nav::Route o;
            REQUIRE(def.find_route(a, b, kExt, filter, opt, o));
            optimal_reached += o.path.reached;
            CHECK(o.length_xz() <= r.length_xz() * (1 + 1e-6) + 1e-6);
        }
    }
    CHECK(astar_reached == pairs);
    CHECK(optimal_reached == 30);
}

TEST_CASE("hostile queries: max_nodes is a query parameter of the one table, 0 by default") {
    const nav::ParamDef* d = nav::find_param("max_nodes");
    REQUIRE(d != nullptr);
    CHECK(d->kind == nav::ParamKind::Int);
    CHECK(nav::is_query_param(d->id));
    CHECK(nav::dirties_no_stage(d->id));
    nav::Params p;
    CHECK(p.max_nodes() == 0);
    CHECK(p.set_from_string("max_nodes", "2048"));
    CHECK(p.max_nodes() == 2048);
    CHECK(p.set_from_string("max_nodes", "-1").code == nav::Status::Code::BadInput);
    CHECK(p.set_from_string("max_nodes", "1.5").code == nav::Status::Code::BadInput);
    CHECK(nav::params_help().find("  max_nodes (") != std::string::npos);
}

TEST_CASE("hostile queries: navbake reports a search out of nodes (JSON partial / out_of_nodes, text OUT OF NODES)") {
    Lattice L;
    build_lattice(L, 70, 1.0, 1.0);
    TempFile mesh(".mesh", nav::map2d::format_polyanya_mesh(L.pm));
    TempFile pairs(".txt", "0.5 0 0.5 140.5 0 60\n0.5 0 0.5 3.5 0 0.5\n");
    const std::string base = navbake() + " '" + mesh.path() + "' --pairs '" + pairs.path() + "'";
    auto r = run_cmd(base + " --json --set max_nodes=8192", false);
    REQUIRE(r.code == 0);
    auto j = nlohmann::json::parse(r.out);
    CHECK(j["config"]["max_nodes"] == 8192);
    const auto& p = j["paths"];
    CHECK(p["found"] == 1);
    CHECK(p["out_of_nodes"] == 1);
    const auto& far = p["items"][0];
    CHECK(far["reached"] == false);
    CHECK(far["partial"] == true);
    CHECK(far["out_of_nodes"] == true);
    CHECK(far["length"].get<double>() > 0);
    CHECK(far["points"].size() >= 2);
    const auto& near = p["items"][1];
    CHECK(near["reached"] == true);
    CHECK(near["partial"] == false);
    CHECK(near["out_of_nodes"] == false);
    // text mode names it
    r = run_cmd(base + " --set max_nodes=8192");
    CHECK(r.code == 0);
    CHECK(r.out.find("1 of 2 reached") != std::string::npos);
    CHECK(r.out.find("1 OUT OF NODES") != std::string::npos);
    CHECK(r.out.find("max_nodes") != std::string::npos);
    // the default reaches both, and so does Polyanya (was: exit 1, "search exceeded 8388608 nodes")
    for (const char* mode : {"funnel", "optimal"}) {
        r = run_cmd(base + " --json --set path_mode=" + mode, false);
        REQUIRE(r.code == 0);
        j = nlohmann::json::parse(r.out);
        CHECK(j["paths"]["found"] == 2);
        CHECK(j["paths"]["out_of_nodes"] == 0);
        CHECK(j["paths"]["items"][0]["partial"] == false);
    }
    r = run_cmd(base + " --set max_nodes=-5");
    CHECK(r.code == 2);
    CHECK(r.out.find("max_nodes") != std::string::npos);
}

TEST_CASE("hostile queries: Polyanya on a 70 x 70 pillar lattice answers in few nodes (root-level pruning of ties)") {
    Lattice L;
    build_lattice(L, 70, 1.0, 1.0);
    nav::PolyanyaMesh pm;
    REQUIRE(nav::polyanya_mesh_from_navmesh(L.nm, pm));
    nav::NavQuery q;
    q.init(&L.nm);
    nav::QueryFilter filter;
    nav::PolyanyaWorkspace w;
    // (0.5, 0.5) -> (140.5, 60) ended in "search exceeded 8388608 nodes" (4.8 s, 1.4 GB)
    const float pts[][6] = {{0.5f, 0, 0.5f, 140.5f, 0, 60.0f}, {0.5f, 0, 0.5f, 140.5f, 0, 140.5f},
                            {0.5f, 0, 70.0f, 140.5f, 0, 71.0f}, {10.5f, 0, 130.2f, 128.5f, 0, 3.3f}};
    for (const auto& pr : pts) {
        nav::NearestPoly a, b;
        REQUIRE(q.find_nearest_poly(pr, kExt, filter, a));
        REQUIRE(q.find_nearest_poly(pr + 3, kExt, filter, b));
        nav::PolyanyaPath path;
        REQUIRE(nav::polyanya_find_path(pm, L.nm.poly_index(a.poly), a.point, L.nm.poly_index(b.poly), b.point, path,
                                        nullptr, &w));
        CHECK(path.found);
        CHECK_FALSE(path.out_of_nodes);
        CHECK(path.generated < 400000);
        // never longer than A* + funnel, never shorter than the straight line
        nav::Route r;
        REQUIRE(q.find_route(pr, pr + 3, kExt, filter, nav::StraightPathOptions{}, r));
        REQUIRE(r.path.reached);
        CHECK(path.length_xz <= r.length_xz() * (1 + 1e-6) + 1e-6);
        CHECK(path.length_xz >= std::hypot(pr[3] - pr[0], pr[5] - pr[2]) * (1 - 1e-9));
        MESSAGE("polyanya " << path.length_xz << " m (funnel " << r.length_xz() << " m): " << path.expanded
                            << " expanded, " << path.generated << " generated");
    }
}

TEST_CASE("hostile queries: Polyanya equals the visibility graph on pillar lattices full of equal-length ties") {
    struct Shape {
        int n;
        double gap, size;
    };
    std::mt19937 rng(1919);
    int checked = 0;
    for (const Shape sh : {Shape{8, 1.0, 1.0}, Shape{7, 0.5, 1.0}, Shape{6, 2.0, 1.0}, Shape{7, 1.0, 3.0}}) {
        Lattice L;
        build_lattice(L, sh.n, sh.gap, sh.size);
        nav::NavQuery q;
        q.init(&L.nm);
        nav::QueryFilter filter;
        nav::RouteOptions opt;
        opt.optimal = true;
        for (int k = 0; k < 40; ++k) {
            float a[3], b[3];
            random_free_point(L, rng, a);
            random_free_point(L, rng, b);
            if (k % 4 == 0) {  // corner to corner of the gaps: the most ties
                const double c = 0.5 * sh.gap;
                a[0] = float(c), a[2] = float(c);
                b[0] = float(L.extent() - c), b[2] = float(L.coord[size_t(2 * (1 + k % sh.n))] + c);
            }
            nav::Route o;
            REQUIRE(q.find_route(a, b, kExt, filter, opt, o));
            REQUIRE(o.path.reached);
            const float* sa = o.start.point;
            const float* sb = o.end.point;
            const double want = visibility_shortest(L, sa, sb);
            INFO("lattice " << sh.n << " gap " << sh.gap << " size " << sh.size << ": (" << sa[0] << ", " << sa[2]
                            << ") -> (" << sb[0] << ", " << sb[2] << ")");
            CHECK(o.length_xz() == doctest::Approx(want).epsilon(1e-9));
            // every leg in the free space
            for (int i = 0; i + 1 < o.straight.size(); ++i) {
                const float* p = &o.straight.points[size_t(i) * 3];
                CHECK_FALSE(blocked(L, p[0], p[2], p[3], p[5]));
            }
            ++checked;
        }
    }
    CHECK(checked == 160);
}

TEST_CASE("hostile queries: Polyanya at its node cap reports out_of_nodes with a partial path, not an error") {
    Lattice L;
    build_lattice(L, 30, 1.0, 1.0);
    nav::PolyanyaMesh pm;
    REQUIRE(nav::polyanya_mesh_from_navmesh(L.nm, pm));
    nav::NavQuery q;
    q.init(&L.nm);
    nav::QueryFilter filter;
    const float s[3] = {0.5f, 0, 0.5f}, t[3] = {60.5f, 0, 37.3f};
    nav::NearestPoly a, b;
    REQUIRE(q.find_nearest_poly(s, kExt, filter, a));
    REQUIRE(q.find_nearest_poly(t, kExt, filter, b));
    const uint32_t sp = L.nm.poly_index(a.poly), tp = L.nm.poly_index(b.poly);
    nav::PolyanyaPath full, capped;
    REQUIRE(nav::polyanya_find_path(pm, sp, s, tp, t, full));
    REQUIRE(full.found);
    REQUIRE(full.generated > 400);
    const nav::Status st = nav::polyanya_find_path(pm, sp, s, tp, t, capped, nullptr, nullptr, 400);
    REQUIRE(st);
    CHECK_FALSE(capped.found);
    CHECK(capped.out_of_nodes);
    CHECK(capped.generated <= 400 + 16);  // the last expansion's successors
    // a path from the start, in the free space, that ends nearer the goal
    REQUIRE(capped.points.size() >= 6);
    CHECK(capped.points[0] == s[0]);
    CHECK(capped.points[2] == s[2]);
    for (size_t i = 0; i + 5 < capped.points.size(); i += 3)
        CHECK_FALSE(blocked(L, capped.points[i], capped.points[i + 2], capped.points[i + 3], capped.points[i + 5]));
    const float* end = &capped.points[capped.points.size() - 3];
    CHECK(std::hypot(end[0] - t[0], end[2] - t[2]) < std::hypot(s[0] - t[0], s[2] - t[2]) - 1.0);
    CHECK(capped.length_xz > 0);
    // no cap
    nav::PolyanyaPath uncapped;
    REQUIRE(nav::polyanya_find_path(pm, sp, s, tp, t, uncapped, nullptr, nullptr, 0));
    CHECK(uncapped.found);
    CHECK(uncapped.length_xz == full.length_xz);
}
