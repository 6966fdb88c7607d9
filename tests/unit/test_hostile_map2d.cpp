// Hostile 2D input, round two (issue 19): the funnel around corners an agent radius of 1e-5 m
// makes (item 3), self-intersecting .mesh polygons (6), quadratic maps (9), degenerate geometry
// at tiny and huge radii (11), .mesh numbers and messages (14, 15), and the property test: random
// 2D maps at radii from 0 to 1e-9 and from 1 to 1e300 either bake or are refused as bad input,
// and every A* + funnel path stays in the free space (checked against the map's own polygons)
// and is never shorter than Polyanya's.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/map2d/map2d.h"
#include "core/map2d/map2d_tile.h"
#include "core/map2d/mesh_file.h"
#include "core/runtime/query.h"
#include "test_files.h"
#include "test_scenes.h"

using navtest::run_cmd;
using navtest::TempFile;
namespace m2 = nav::map2d;

namespace {

std::string navbake() { return std::string("'") + NAVBAKE_EXE + "'"; }
// A string literal with its embedded NUL bytes.
template <size_t N>
std::string lit(const char (&s)[N]) {
    return std::string(s, N - 1);
}
bool has(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }
std::string slurp(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// ---- the free space as the map itself states it: inside the outline, outside every obstacle,
// and (with an agent radius r) at least r from both boundaries

double seg_seg_dist(const double* a, const double* b, const double* c, const double* d);

double pt_seg_dist(const double* p, const double* a, const double* b) {
    const double dx = b[0] - a[0], dz = b[1] - a[1], l2 = dx * dx + dz * dz;
    double t = l2 > 0 ? ((p[0] - a[0]) * dx + (p[1] - a[1]) * dz) / l2 : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    return std::hypot(a[0] + t * dx - p[0], a[1] + t * dz - p[1]);
}

double seg_seg_dist(const double* a, const double* b, const double* c, const double* d) {
    const double o1 = m2::orient2d(a[0], a[1], b[0], b[1], c[0], c[1]), o2 = m2::orient2d(a[0], a[1], b[0], b[1], d[0], d[1]);
    const double o3 = m2::orient2d(c[0], c[1], d[0], d[1], a[0], a[1]), o4 = m2::orient2d(c[0], c[1], d[0], d[1], b[0], b[1]);
    if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return 0.0;
    return std::min({pt_seg_dist(a, c, d), pt_seg_dist(b, c, d), pt_seg_dist(c, a, b), pt_seg_dist(d, a, b)});
}

bool inside_ring(const double* p, size_t n, double x, double z) {
    bool in = false;
    for (size_t i = 0, j = n - 1; i < n; j = i++) {
        const double *a = p + 2 * i, *b = p + 2 * j;
        if ((a[1] > z) != (b[1] > z) && x < (b[0] - a[0]) * (z - a[1]) / (b[1] - a[1]) + a[0]) in = !in;
    }
    return in;
}

double ring_dist(const double* p, size_t n, const double* q) {
    double best = HUGE_VAL;
    for (size_t i = 0; i < n; ++i) best = std::min(best, pt_seg_dist(q, p + 2 * i, p + 2 * ((i + 1) % n)));
    return best;
}

// How far the polyline `pts` (x, z pairs) strays out of the free space of `map` (0 when it stays
// in): the depth it reaches inside an obstacle or outside the outline, or how much closer than
// the agent radius it comes to either boundary.
double free_space_violation(const m2::Map2D& map, const std::vector<double>& pts) {
    const double r = map.agent_radius;
    double worst = 0;
    auto rings = [&](auto&& fn) {
        fn(map.outline.ring(0), map.outline.size(0), true);
        for (size_t k = 0; k < map.obstacles.count(); ++k) fn(map.obstacles.ring(k), map.obstacles.size(k), false);
    };
    for (size_t s = 0; s + 3 < pts.size(); s += 2) {
        const double* a = &pts[s];
        const double* b = &pts[s + 2];
        rings([&](const double* p, size_t n, bool outline) {
            // the closest approach of the segment to the ring's boundary
            double d = HUGE_VAL;
            for (size_t i = 0; i < n; ++i) d = std::min(d, seg_seg_dist(a, b, p + 2 * i, p + 2 * ((i + 1) % n)));
            if (r > 0) worst = std::max(worst, r - d);
            // points of the segment on the wrong side: samples and the feet of the ring's vertices
            auto probe = [&](double t) {
                const double q[2] = {a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])};
                if (inside_ring(p, n, q[0], q[1]) != outline) worst = std::max(worst, ring_dist(p, n, q));
            };
            for (int k = 0; k <= 32; ++k) probe(k / 32.0);
            const double dx = b[0] - a[0], dz = b[1] - a[1], l2 = dx * dx + dz * dz;
            if (l2 > 0)
                for (size_t i = 0; i < n; ++i) {
                    const double t = ((p[2 * i] - a[0]) * dx + (p[2 * i + 1] - a[1]) * dz) / l2;
                    if (t > 0 && t < 1) probe(t);
                }
        });
    }
    return worst;
}

std::vector<double> xz_of(const nav::StraightPath& sp) {
    std::vector<double> v;
    for (size_t k = 0; k + 2 < sp.points.size(); k += 3) {
        v.push_back(sp.points[k]);
        v.push_back(sp.points[k + 2]);
    }
    return v;
}

struct PathStats {
    int pairs = 0, reached = 0;
    double worst_violation = 0, worst_shortfall = 0;  // metres out of the free space; funnel shorter than optimal
};

// Random pairs on the baked map: A* + funnel and Polyanya; every funnel path checked against the
// map's polygons with `tol` (the float navmesh's resolution) and against Polyanya's length.
void check_paths(const m2::Map2D& map, const m2::PolyMesh2D& mesh, int npairs, uint64_t seed, double tol, PathStats& st) {
    nav::NavMesh nm;
    REQUIRE(m2::build_map2d_navmesh(mesh, nm));
    nav::NavQuery q;
    q.init(&nm, 0);
    const nav::QueryFilter filter;
    nav::Rng rng(seed);
    const float ext[3] = {2.0f, 4.0f, 2.0f};
    for (int i = 0; i < npairs; ++i) {
        nav::RandomPoint a, b;
        REQUIRE(q.random_point(filter, rng, a));
        REQUIRE(q.random_point(filter, rng, b));
        REQUIRE(a.poly != nav::kNoRef);
        nav::Route rf, ro;
        nav::RouteOptions opt;
        opt.optimal = true;
        REQUIRE(q.find_route(a.point, b.point, ext, filter, nav::RouteOptions{}, rf));
        REQUIRE(q.find_route(a.point, b.point, ext, filter, opt, ro));
        ++st.pairs;
        if (!rf.path.reached || !ro.path.reached || rf.straight.partial) continue;
        ++st.reached;
        const double v = free_space_violation(map, xz_of(rf.straight));
        const double lf = rf.length_xz(), lo = ro.length_xz();
        const double shortfall = lo - lf;
        if (v > tol || shortfall > tol + 1e-6 * lo) {
            std::string pts;
            for (double c : xz_of(rf.straight)) pts += std::to_string(c) + " ";
            INFO("pair " << i << ": funnel " << lf << " m, optimal " << lo << " m, out of the free space by " << v
                         << " m; funnel points " << pts);
            CHECK(v <= tol);
            CHECK(shortfall <= tol + 1e-6 * lo);
        }
        st.worst_violation = std::max(st.worst_violation, v);
        st.worst_shortfall = std::max(st.worst_shortfall, shortfall);
    }
}

// Two walls from either side: a path from the bottom to the top zig-zags around their ends.
const char* kZigzag = R"({"outline": [[0,0],[8,0],[8,8],[0,8]],
  "obstacles": [[[0,2],[5,2],[5,2.5],[0,2.5]], [[3,5],[8,5],[8,5.5],[3,5.5]], [[0,6.5],[6,6.5],[6,7],[0,7]]],
  "agent_radius": 1e-5})";

}  // namespace

TEST_CASE("hostile map2d: A* + funnel around corners a radius of 1e-5 m inflates stays out of the obstacles (issue 19.3)") {
    // The inflated corners have vertices 1e-6..1e-5 m apart. The funnel took a side point within
    // Detour's 1/16384 m of the apex for the apex itself and let that side swing across the other
    // one unchecked: the path cut through the next wall, shorter than Polyanya's optimum.
    m2::Map2D map;
    REQUIRE(m2::parse_map2d_json(kZigzag, "zigzag.json", map));
    m2::Map2DResult r;
    REQUIRE(m2::build_map2d(map, m2::Map2DOptions{}, r));
    PathStats st;
    check_paths(map, r.mesh, 300, 1, 1e-4, st);
    CHECK(st.reached == 300);
    MESSAGE("zigzag at radius 1e-5: worst excursion " << st.worst_violation << " m, funnel at most "
                                                       << st.worst_shortfall << " m shorter than optimal");
    // and through navbake: every pair's funnel length at least Polyanya's
    TempFile file(".json", kZigzag);
    const auto res = run_cmd(navbake() + " '" + file.path() + "' --json --paths 200 --seed 7 --compare-optimal", false);
    REQUIRE(res.code == 0);
    const auto j = nlohmann::json::parse(res.out);
    CHECK(j["paths"]["found"] == 200);
    for (const auto& it : j["paths"]["items"])
        CHECK(it["length_funnel_xz"].get<double>() >= it["length_optimal_xz"].get<double>() * (1 - 1e-6) - 1e-4);
    CHECK(slurp(file.path()) == kZigzag);
}

TEST_CASE("hostile map2d: the funnel's thresholds follow the coordinates: the zigzag map 8 mm and 0.8 mm across (issue 19.3)") {
    // Detour's absolute thresholds (a start within 1 mm of the first portal skips it; path
    // corners within 1/16384 m merge) cut through walls 0.5 mm and 50 um thick
    for (double scale : {1e-3, 1e-4}) {
        m2::Map2D zig;
        REQUIRE(m2::parse_map2d_json(kZigzag, "zigzag.json", zig));
        for (double& v : zig.outline.xz) v *= scale;
        for (double& v : zig.obstacles.xz) v *= scale;
        zig.agent_radius = 0;
        m2::Map2DResult r;
        REQUIRE(m2::build_map2d(zig, m2::Map2DOptions{}, r));
        PathStats st;
        check_paths(zig, r.mesh, 200, 3, 0.01 * scale, st);
        CHECK(st.reached == 200);
        MESSAGE("zigzag scaled by " << scale << ": worst excursion " << st.worst_violation << " m");
    }
}

TEST_CASE("hostile map2d: .mesh polygons must be convex: a pentagram, repeated and coincident vertices (issue 19.6, 19.15)") {
    // a regular pentagon's vertices; the polygon visits every second one: every turn is to the
    // left and the area is positive, but the edges wind around twice
    std::string verts;
    for (int i = 0; i < 5; ++i) {
        char buf[96];
        const double a = 1.5707963267948966 + 1.2566370614359172 * i;
        std::snprintf(buf, sizeof buf, "%.17g %.17g 1 0\n", 10 + 5 * std::cos(a), 10 + 5 * std::sin(a));
        verts += buf;
    }
    const std::string star = "mesh\n2\n5 1\n" + verts + "5 0 2 4 1 3 -1 -1 -1 -1 -1\n";
    auto err = [](const std::string& text) {
        m2::PolyMesh2D m;
        const nav::Status st = m2::parse_polyanya_mesh(text, "bad.mesh", m);
        CHECK(st.code == nav::Status::Code::BadInput);
        return st.message;
    };
    CHECK(has(err(star), "bad.mesh:9: polygon 0 is not convex: its edges cross (they wind around 2 times"));
    // the pentagon itself is fine
    m2::PolyMesh2D ok;
    CHECK(m2::parse_polyanya_mesh("mesh\n2\n5 1\n" + verts + "5 0 1 2 3 4 -1 -1 -1 -1 -1\n", "ok.mesh", ok));
    // through navbake: exit 2, the file and line named, the file untouched
    TempFile file(".mesh", star);
    auto res = run_cmd(navbake() + " '" + file.path() + "' --paths 5");
    CHECK(res.code == 2);
    CHECK(has(res.out, file.path() + ":9: polygon 0 is not convex"));
    CHECK(slurp(file.path()) == star);

    const std::string tri = "mesh\n2\n4 1\n0 0 1 0\n4 0 1 0\n0 4 1 0\n0 0 1 0\n";
    // a vertex repeated in a polygon is named, not a neighbour
    CHECK(has(err(tri + "4 0 1 1 2 -1 -1 -1 -1\n"), "bad.mesh:8: polygon 0: vertex 1 appears twice (positions 2 and 3"));
    // two vertices at one position
    CHECK(has(err(tri + "4 0 1 2 3 -1 -1 -1 -1\n"), "bad.mesh:8: polygon 0: vertices 0 and 3 are at the same position (0, 0)"));
    // a right turn and a fold-back
    CHECK(has(err("mesh\n2\n4 1\n0 0 1 0\n4 0 1 0\n1 1 1 0\n0 4 1 0\n4 0 1 2 3 -1 -1 -1 -1\n"),
              "bad.mesh:8: polygon 0 is not convex: it turns right at vertex 2"));
    CHECK(has(err("mesh\n2\n4 1\n0 0 1 0\n4 0 1 0\n2 0 1 0\n0 4 1 0\n4 0 1 2 3 -1 -1 -1 -1\n"),
              "bad.mesh:8: polygon 0 is not convex: its boundary folds back at vertex 1"));
}

TEST_CASE("hostile map2d: .mesh numbers end at the token's end, CR line ends, messages show what is there (issue 19.14, 19.15)") {
    const std::string body = "0 0 1 0\n1 0 1 0\n0 1 1 0\n3 0 1 2 -1 -1 -1\n";
    auto parse = [](const std::string& text, nav::Status& st) {
        m2::PolyMesh2D m;
        st = m2::parse_polyanya_mesh(text, "m.mesh", m);
        return m;
    };
    nav::Status st;
    // "3\0junk" is not 3: the NUL is shown, escaped
    parse(lit("mesh\n2\n3\0junk 1\n") + body, st);
    CHECK(st.code == nav::Status::Code::BadInput);
    CHECK(has(st.message, "m.mesh:3: expected 'V P' with V >= 3 vertices and P >= 1 polygons, got '3\\0junk 1'"));
    parse(lit("mesh\n2\n3 1\n0 0 1 0\n1 0\0 1 0\n0 1 1 0\n3 0 1 2 -1 -1 -1\n"), st);
    CHECK(has(st.message, "m.mesh:5: vertex 1: expected 'x y n'"));
    CHECK(has(st.message, "got '1 0\\0 1 0'"));
    parse(lit("mesh\n2\n3 1\n0 0 1 0\n1 0 1 0\n0 1 1 0\n3 0 1 2\0 -1 -1 -1\n"), st);
    CHECK(has(st.message, "m.mesh:7: polygon 0: vertex index '2\\0'"));
    parse(lit("mesh\0\n2\n3 1\n") + body, st);
    CHECK(has(st.message, "m.mesh:1: expected the header line 'mesh' alone, got 'mesh\\0'"));
    // CR LF and old Mac CR line ends are line ends; the same mesh either way
    const std::string lf = "mesh\n2\n3 1\n" + body;
    std::string crlf, cr;
    for (char c : lf) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c), cr += c == '\n' ? '\r' : c;
    const m2::PolyMesh2D a = parse(lf, st);
    REQUIRE(st);
    const m2::PolyMesh2D b = parse(crlf, st);
    CHECK(st);
    const m2::PolyMesh2D c = parse(cr, st);
    CHECK(st);
    CHECK(a.xz == b.xz);
    CHECK(a.xz == c.xz);
    CHECK(a.poly_verts == c.poly_verts);
    // a header line with more on it says what is there
    parse("mesh 2\n3 1\n" + body, st);
    CHECK(has(st.message, "m.mesh:1: expected the header line 'mesh' alone, got 'mesh 2'"));
    // through navbake, a CR-only file bakes; one with a NUL in a number is refused with exit 2
    TempFile good(".mesh", cr), bad(".mesh", lit("mesh\n2\n3\0junk 1\n") + body);
    CHECK(run_cmd(navbake() + " '" + good.path() + "' --paths 3").code == 0);
    const auto res = run_cmd(navbake() + " '" + bad.path() + "'");
    CHECK(res.code == 2);
    CHECK(has(res.out, bad.path() + ":3: expected 'V P'"));
    CHECK(slurp(bad.path()) == lit("mesh\n2\n3\0junk 1\n") + body);
}

namespace {

std::string ring_json(const std::vector<double>& p) {
    std::string s = "[";
    char buf[80];
    for (size_t i = 0; i + 1 < p.size(); i += 2) {
        std::snprintf(buf, sizeof buf, "%s[%.17g, %.17g]", i ? ", " : "", p[i], p[i + 1]);
        s += buf;
    }
    return s + "]";
}

std::string map_json(const std::vector<double>& outline, const std::vector<std::vector<double>>& obstacles, double radius) {
    std::string s = "{\"outline\": " + ring_json(outline) + ", \"obstacles\": [";
    for (size_t k = 0; k < obstacles.size(); ++k) s += (k ? ", " : "") + ring_json(obstacles[k]);
    char buf[64];
    std::snprintf(buf, sizeof buf, "], \"agent_radius\": %.17g}", radius);
    return s + buf;
}

std::vector<double> regular(double cx, double cz, double r, int n, double a0) {
    std::vector<double> p;
    for (int i = 0; i < n; ++i) {
        p.push_back(cx + r * std::cos(a0 + 6.283185307179586 * i / n));
        p.push_back(cz + r * std::sin(a0 + 6.283185307179586 * i / n));
    }
    return p;
}

}  // namespace

TEST_CASE("hostile map2d: radii below the map's resolution merge, huge radii are refused, no stage fails inside (issue 19.11)") {
    // the examples: the generated maps at tiny radii broke the clipper ("open boundary"), the CDT
    // or the float conversion ("polygon 121 is wound counter-clockwise"); now every one bakes
    for (const char* name : {"map2d_obstacles.json", "map2d_grid.json", "map2d_maze.json", "map2d_rooms.json"})
        for (double radius : {1e-4, 1e-5, 1e-6, 1e-9}) {
            m2::Map2D map;
            REQUIRE(m2::load_map2d(std::string(NAV_SOURCE_DIR) + "/assets/" + name, map));
            map.agent_radius = radius;
            m2::Map2DResult r;
            const nav::Status st = m2::build_map2d(map, m2::Map2DOptions{}, r);
            INFO(name << " at radius " << radius << ": " << st.message);
            REQUIRE(st);
            nav::NavMesh nm;
            CHECK(m2::build_map2d_navmesh(r.mesh, nm));
            CHECK(m2::rings_area(r.free) > 0);
        }
    // duplicated and touching obstacles at radius 0 and 1e-10
    for (double radius : {0.0, 1e-10}) {
        const std::vector<double> sq = {2, 2, 4, 2, 4, 4, 2, 4}, side = {4, 2, 6, 2, 6, 4, 4, 4}, corner = {6, 4, 8, 4, 8, 6, 6, 6};
        const std::string js = map_json({0, 0, 10, 0, 10, 10, 0, 10}, {sq, sq, side, corner, sq}, radius);
        m2::Map2D map;
        REQUIRE(m2::parse_map2d_json(js, "dup.json", map));
        m2::Map2DResult r;
        REQUIRE(m2::build_map2d(map, m2::Map2DOptions{}, r));
        CHECK(m2::rings_area(r.free) == doctest::Approx(100 - 12).epsilon(1e-6));
    }
    // huge radii: refused before any coordinate grows by them, the map and the widths named
    for (const char* radius : {"5", "1e154", "1e300"}) {
        const std::string js = std::string(R"({"outline": [[0,0],[10,0],[10,10],[0,10]], "agent_radius": )") + radius + "}";
        TempFile file(".json", js);
        const auto res = run_cmd(navbake() + " '" + file.path() + "'");
        CHECK(res.code == 2);
        CHECK(has(res.out, file.path() + ": map2d: agent_radius "));
        CHECK(has(res.out, "leaves no free space: the outline is 10 m across at its narrowest"));
        CHECK(slurp(file.path()) == js);
    }
    // a radius just below that leaves a square 0.2 mm wide, which bakes; one that leaves only
    // what an obstacle covers is bad input
    TempFile almost(".json", R"({"outline": [[0,0],[10,0],[10,10],[0,10]], "agent_radius": 4.9999})");
    auto res = run_cmd(navbake() + " '" + almost.path() + "' --paths 3");
    CHECK(res.code == 0);
    TempFile covered(".json", R"({"outline": [[0,0],[10,0],[10,10],[0,10]], "obstacles": [[[4,4],[6,4],[6,6],[4,6]]], "agent_radius": 4.5})");
    res = run_cmd(navbake() + " '" + covered.path() + "'");
    CHECK(res.code == 2);
    CHECK(has(res.out, covered.path() + ": map2d: no free space left"));
    // a map far from the origin at a radius below its grid: bakes, the radius merged away
    m2::Map2D far;
    REQUIRE(m2::parse_map2d_json(map_json({1e5, 1e5, 1e5 + 10, 1e5, 1e5 + 10, 1e5 + 10, 1e5, 1e5 + 10},
                                          {{1e5 + 4, 1e5 + 4, 1e5 + 6, 1e5 + 4, 1e5 + 6, 1e5 + 6, 1e5 + 4, 1e5 + 6}}, 1e-6),
                                 "far.json", far));
    CHECK(m2::map2d_grid(far) == std::ldexp(1.0, 17 - 22));
    m2::Map2DResult r;
    REQUIRE(m2::build_map2d(far, m2::Map2DOptions{}, r));
    CHECK(m2::rings_area(r.free) == doctest::Approx(96));
    for (double v : r.mesh.xz) CHECK(double(float(v)) == v);  // every vertex an exact float
}

TEST_CASE("hostile map2d: property: random maps at radii 0..1e-9 and 1..1e300 bake or are refused; paths stay in the free space") {
    std::mt19937_64 rng(1919);
    std::uniform_real_distribution<double> U(0, 1);
    int baked = 0, refused = 0, pairs = 0;
    PathStats all;
    const double small_radii[] = {0, 1e-12, 1e-10, 1e-9};
    const double large_radii[] = {1, 2.5, 10, 1e3, 1e154, 1e300};
    for (int map = 0; map < 20; ++map) {
        // an outline (rectangle or star-shaped polygon), somewhere within +-1000 m
        const double cx = (U(rng) - 0.5) * 2000, cz = (U(rng) - 0.5) * 2000, size = 10 + 40 * U(rng);
        std::vector<double> outline;
        if (map % 2 == 0) {
            outline = {cx - size, cz - size * 0.7, cx + size, cz - size * 0.7, cx + size, cz + size * 0.7, cx - size, cz + size * 0.7};
        } else {
            const int n = 5 + int(U(rng) * 20);
            for (int i = 0; i < n; ++i) {
                const double a = 6.283185307179586 * i / n, rr = size * (0.7 + 0.3 * U(rng));
                outline.push_back(cx + rr * std::cos(a));
                outline.push_back(cz + rr * std::sin(a));
            }
        }
        // obstacles: regular polygons and boxes, some repeated exactly, some sharing edges
        std::vector<std::vector<double>> obstacles;
        const int nobs = 2 + int(U(rng) * 8);
        for (int k = 0; k < nobs; ++k) {
            const double ox = cx + (U(rng) - 0.5) * size, oz = cz + (U(rng) - 0.5) * size * 0.6, os = size * (0.03 + 0.12 * U(rng));
            const int kind = int(U(rng) * 4);
            if (kind == 0 && !obstacles.empty()) obstacles.push_back(obstacles.back());  // a duplicate
            else if (kind == 1) obstacles.push_back({ox, oz, ox + os, oz, ox + os, oz + os, ox, oz + os});
            else if (kind == 2 && !obstacles.empty() && obstacles.back().size() == 8) {  // a box beside the last box
                const auto& b = obstacles.back();
                const double w = b[2] - b[0];
                obstacles.push_back({b[2], b[1], b[2] + w, b[1], b[2] + w, b[5], b[2], b[5]});
            } else obstacles.push_back(regular(ox, oz, os, 3 + int(U(rng) * 6), U(rng) * 6.28));
        }
        for (int pick = 0; pick < 2; ++pick) {
            const double radius = pick == 0 ? (map % 5 == 4 ? U(rng) * 1e-9 : small_radii[map % 4]) : large_radii[map % 6];
            const std::string js = map_json(outline, obstacles, radius);
            INFO("map " << map << " radius " << radius << ": " << js);
            m2::Map2D m;
            nav::Status st = m2::parse_map2d_json(js, "random.json", m);
            if (st) {
                m2::Map2DResult r;
                st = m2::build_map2d(m, m2::Map2DOptions{}, r);
                if (st) {
                    ++baked;
                    const double g = m2::map2d_grid(m);
                    PathStats ps;
                    check_paths(m, r.mesh, 12, uint64_t(map) * 7 + uint64_t(pick), 4 * g + 1e-4, ps);
                    pairs += ps.reached;
                    all.worst_violation = std::max(all.worst_violation, ps.worst_violation);
                    all.worst_shortfall = std::max(all.worst_shortfall, ps.worst_shortfall);
                    continue;
                }
            }
            ++refused;
            CHECK(st.code == nav::Status::Code::BadInput);  // never an internal error
            CHECK(!st.message.empty());
        }
    }
    MESSAGE("property: " << baked << " maps baked, " << refused << " refused as bad input; " << pairs
                         << " paths, worst excursion " << all.worst_violation << " m, funnel at most "
                         << all.worst_shortfall << " m shorter than Polyanya");
    CHECK(baked >= 20);
    CHECK(refused >= 5);  // the radii of 1e3 and more cover every outline
    CHECK(pairs >= 200);
}

TEST_CASE("hostile map2d: large maps cost about n log n: a ring of 10^5 points, 2500 squares in a ring of 2 x 10^4 (issue 19.9)") {
    // the self-intersection test compared all pairs of edges: 5 x 10^9 pairs for this ring
    const int n = 100000;
    std::vector<double> ring;
    for (int i = 0; i < n; ++i) {
        ring.push_back(100 * std::cos(6.283185307179586 * i / n));
        ring.push_back(100 * std::sin(6.283185307179586 * i / n));
    }
    auto t0 = std::chrono::steady_clock::now();
    CHECK(m2::ring_self_intersection(ring.data(), n).empty());
    // one point moved out across the far side: its edges cross the ring there
    std::vector<double> bad = ring;
    bad[2 * 500] = -150;
    CHECK(has(m2::ring_self_intersection(bad.data(), n), "cross or touch"));
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    MESSAGE("self-intersection test of a ring of 10^5 points: " << secs << " s");
    CHECK(secs < 10);

    // 50 x 50 squares inside a ring of 2 x 10^4 points: every stage met all pairs (the clipper's
    // intersections and winding numbers, per sub-edge a pass over every edge)
    std::vector<double> outline;
    const int m = 20000;
    for (int i = 0; i < m; ++i) {
        outline.push_back(100 * std::cos(6.283185307179586 * i / m));
        outline.push_back(100 * std::sin(6.283185307179586 * i / m));
    }
    std::vector<std::vector<double>> squares;
    for (int i = 0; i < 50; ++i)
        for (int j = 0; j < 50; ++j) {
            const double x = -60 + 2.4 * i, z = -60 + 2.4 * j;
            squares.push_back({x, z, x + 1.2, z, x + 1.2, z + 1.2, x, z + 1.2});
        }
    TempFile file(".json", map_json(outline, squares, 0));
    t0 = std::chrono::steady_clock::now();
    const auto res = run_cmd(navbake() + " '" + file.path() + "' --json --paths 20", false);
    const double bake = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    MESSAGE("navbake on 2500 squares in a ring of 2 x 10^4 points: " << bake << " s");
    REQUIRE(res.code == 0);
    const auto j = nlohmann::json::parse(res.out);
    CHECK(j["counts"]["obstacles"] == 2500);
    const double circle = 0.5 * m * 100 * 100 * std::sin(6.283185307179586 / m);
    CHECK(j["counts"]["free_area"].get<double>() == doctest::Approx(circle - 2500 * 1.44).epsilon(1e-6));
    CHECK(j["paths"]["found"] == 20);
    CHECK(bake < 30);
}
