// Path queries on hand-made navmeshes: the funnel on corridors with known answers, portal
// shrink, A* against a brute-force Dijkstra on random grids of squares (random walls, heights,
// area costs, excluded polygons), partial paths, node limits, bad input, nearest polygon,
// raycast, distance to wall, polygons around a circle, random points and traces.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/bake/detail.h"
#include "core/pipeline/tile_builder.h"
#include "core/runtime/navmesh.h"
#include "core/pipeline/pipeline.h"
#include "core/bake/polymesh.h"
#include "core/runtime/query.h"
#include "test_scenes.h"

namespace {

constexpr float kCs = 0.25f, kCh = 0.25f;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// Polygon mesh from vertex loops in world units (multiples of 0.25; bmin = 0), wound clockwise in
// (x, z) as Recast does. Neighbours come from reversed shared edges; `cut` removes adjacency.
struct Builder {
    std::vector<std::array<float, 3>> verts;
    std::vector<std::vector<int>> polys;
    std::vector<uint8_t> areas;
    std::vector<uint16_t> flags;
    std::set<std::pair<int, int>> cuts;

    int v(float x, float y, float z) {
        verts.push_back({x, y, z});
        return static_cast<int>(verts.size()) - 1;
    }
    int poly(std::vector<int> p, uint8_t area = nav::kWalkableArea, uint16_t fl = 0) {
        polys.push_back(std::move(p));
        areas.push_back(area);
        flags.push_back(fl);
        return static_cast<int>(polys.size()) - 1;
    }
    void cut(int a, int b) { cuts.insert({std::min(a, b), std::max(a, b)}); }

    void build(nav::PolyMesh& pm, nav::PolyMeshDetail& dm) const {
        const int nvp = 6;
        pm = nav::PolyMesh{};
        pm.nvp = nvp;
        pm.cs = kCs;
        pm.ch = kCh;
        pm.nverts = static_cast<int>(verts.size());
        for (const auto& v : verts) {
            pm.verts.push_back(static_cast<uint16_t>(std::lround(v[0] / kCs)));
            pm.verts.push_back(static_cast<uint16_t>(std::lround(v[1] / kCh)));
            pm.verts.push_back(static_cast<uint16_t>(std::lround(v[2] / kCs)));
        }
        pm.npolys = static_cast<int>(polys.size());
        pm.polys.assign(polys.size() * 2 * nvp, nav::kMeshNullIdx);
        std::map<std::pair<int, int>, int> owner;
        for (size_t p = 0; p < polys.size(); ++p)
            for (size_t j = 0; j < polys[p].size(); ++j) owner[{polys[p][j], polys[p][(j + 1) % polys[p].size()]}] = static_cast<int>(p);
        for (size_t p = 0; p < polys.size(); ++p) {
            uint16_t* row = &pm.polys[p * 2 * nvp];
            const size_t n = polys[p].size();
            for (size_t j = 0; j < n; ++j) {
                row[j] = static_cast<uint16_t>(polys[p][j]);
                const auto it = owner.find({polys[p][(j + 1) % n], polys[p][j]});
                if (it == owner.end()) continue;
                const int q = it->second;
                if (cuts.count({std::min<int>(static_cast<int>(p), q), std::max<int>(static_cast<int>(p), q)})) continue;
                row[nvp + j] = static_cast<uint16_t>(q);
            }
        }
        pm.areas = areas;
        pm.flags = flags;
        pm.regs.assign(polys.size(), 1);
        dm = nav::PolyMeshDetail{};
        for (size_t p = 0; p < polys.size(); ++p) {
            const uint32_t vb = static_cast<uint32_t>(dm.verts.size() / 3), tb = static_cast<uint32_t>(dm.tris.size() / 4);
            for (int i : polys[p])
                for (int k = 0; k < 3; ++k) dm.verts.push_back(verts[static_cast<size_t>(i)][static_cast<size_t>(k)]);
            const size_t n = polys[p].size();
            for (size_t j = 1; j + 1 < n; ++j) dm.tris.insert(dm.tris.end(), {0, static_cast<uint8_t>(j), static_cast<uint8_t>(j + 1), 0});
            dm.meshes.insert(dm.meshes.end(), {vb, static_cast<uint32_t>(n), tb, static_cast<uint32_t>(n - 2)});
        }
        dm.nmeshes = static_cast<int>(polys.size());
        dm.nverts = static_cast<int>(dm.verts.size() / 3);
        dm.ntris = static_cast<int>(dm.tris.size() / 4);
    }
};

// Unit squares on a grid: cell (x, z) covers [x, x+1] x [z, z+1]. open(x, z) says which cells
// exist; y(x, z) gives vertex heights.
struct Grid {
    Builder b;
    int w = 0, h = 0;
    std::vector<int> cell_poly;  // -1 when closed
    int poly_at(int x, int z) const { return cell_poly[static_cast<size_t>(z * w + x)]; }
};

template <class Open, class Height>
Grid make_grid(int w, int h, Open open, Height y) {
    Grid g;
    g.w = w;
    g.h = h;
    const size_t uw = static_cast<size_t>(std::max(w, 1)), uh = static_cast<size_t>(std::max(h, 1));
    std::vector<int> vid((uw + 1) * (uh + 1), -1);
    auto vert = [&](int x, int z) {
        int& id = vid[static_cast<size_t>(z * (w + 1) + x)];
        if (id < 0) id = g.b.v(static_cast<float>(x), y(x, z), static_cast<float>(z));
        return id;
    };
    g.cell_poly.assign(uw * uh, -1);
    for (int z = 0; z < h; ++z)
        for (int x = 0; x < w; ++x)
            if (open(x, z)) g.cell_poly[static_cast<size_t>(z * w + x)] = g.b.poly({vert(x, z), vert(x, z + 1), vert(x + 1, z + 1), vert(x + 1, z)});
    return g;
}
Grid flat_grid(int w, int h, std::vector<std::pair<int, int>> closed = {}) {
    return make_grid(
        w, h, [&](int x, int z) { return std::find(closed.begin(), closed.end(), std::make_pair(x, z)) == closed.end(); },
        [](int, int) { return 0.0f; });
}

struct World {
    nav::PolyMesh pm;
    nav::PolyMeshDetail dm;
    nav::NavMesh nm;
    nav::NavQuery q;
    explicit World(const Builder& b, int max_nodes = 0) {
        b.build(pm, dm);
        const nav::Status s = nav::build_navmesh(pm, dm, nm);
        REQUIRE_MESSAGE(s.is_ok(), s.message);
        q.init(&nm, max_nodes);
    }
};

// The reference of polygon p (a Builder's polygon index = the mesh's dense index) in w's mesh.
nav::PolyRef ref(const World& w, int p) { return w.nm.ref(static_cast<uint32_t>(p)); }
// The reference of the polygon of cell (x, z).
nav::PolyRef cell(const World& w, const Grid& g, int x, int z) { return ref(w, g.poly_at(x, z)); }
std::vector<nav::PolyRef> corridor(const World& w, const Grid& g, std::vector<std::pair<int, int>> cells) {
    std::vector<nav::PolyRef> c;
    for (auto [x, z] : cells) c.push_back(cell(w, g, x, z));
    return c;
}

void check_point(const nav::StraightPath& sp, int i, float x, float y, float z) {
    REQUIRE(i < sp.size());
    CHECK(sp.points[static_cast<size_t>(i) * 3 + 0] == doctest::Approx(x).epsilon(1e-5));
    CHECK(sp.points[static_cast<size_t>(i) * 3 + 1] == doctest::Approx(y).epsilon(1e-5));
    CHECK(sp.points[static_cast<size_t>(i) * 3 + 2] == doctest::Approx(z).epsilon(1e-5));
}

void check_no_duplicates(const nav::StraightPath& sp) {
    for (int i = 1; i < sp.size(); ++i) {
        const float* a = &sp.points[static_cast<size_t>(i - 1) * 3];
        const float* b = &sp.points[static_cast<size_t>(i) * 3];
        CHECK(std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]) > 1e-4f);
    }
}

nav::StraightPath straight(World& w, const float* s, const float* e, const std::vector<nav::PolyRef>& c,
                           nav::StraightPathOptions o = {}, nav::FunnelTrace* trace = nullptr) {
    nav::StraightPath sp;
    const nav::Status st = w.q.find_straight_path(s, e, c, o, sp, trace);
    REQUIRE_MESSAGE(st.is_ok(), st.message);
    REQUIRE(sp.size() >= 2);
    CHECK(sp.flags.front() == nav::kStraightStart);
    CHECK(sp.flags.back() == nav::kStraightEnd);
    check_no_duplicates(sp);
    return sp;
}

// ---- brute force: Dijkstra over (polygon, entry edge) states straight from the PolyMesh ----

struct Brute {
    const nav::PolyMesh& pm;
    const nav::QueryFilter& f;
    int nvp;
    int nverts_of(int p) const {
        int n = 0;
        while (n < nvp && pm.polys[static_cast<size_t>(p * 2 * nvp + n)] != nav::kMeshNullIdx) ++n;
        return n;
    }
    std::array<float, 3> vpos(int v) const {
        return {pm.bmin[0] + pm.verts[static_cast<size_t>(v) * 3] * pm.cs, pm.bmin[1] + pm.verts[static_cast<size_t>(v) * 3 + 1] * pm.ch,
                pm.bmin[2] + pm.verts[static_cast<size_t>(v) * 3 + 2] * pm.cs};
    }
    std::array<float, 3> mid(int p, int j) const {
        const int n = nverts_of(p);
        const auto a = vpos(pm.polys[static_cast<size_t>(p * 2 * nvp + j)]);
        const auto b = vpos(pm.polys[static_cast<size_t>(p * 2 * nvp + (j + 1) % n)]);
        return {(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2};
    }
    bool passes(int p) const {
        const uint16_t fl = pm.flags[static_cast<size_t>(p)] ? pm.flags[static_cast<size_t>(p)] : nav::kPolyFlagDefault;
        return f.passes(fl, nav::kAllAgentTypes);
    }
    float cost(int p) const { return f.area_cost[pm.areas[static_cast<size_t>(p)]]; }
    static double dist(const std::array<float, 3>& a, const float* b) {
        return std::sqrt(double(a[0] - b[0]) * (a[0] - b[0]) + double(a[1] - b[1]) * (a[1] - b[1]) + double(a[2] - b[2]) * (a[2] - b[2]));
    }
    // Cheapest cost from (sp, s) to (ep, e); +inf when unreachable.
    double solve(int sp, const float* s, int ep, const float* e) const {
        if (sp == ep) return dist({s[0], s[1], s[2]}, e) * cost(sp);
        const int np = pm.npolys, S = np * nvp;
        std::vector<double> d(static_cast<size_t>(S + 1), std::numeric_limits<double>::infinity());
        std::vector<char> done(static_cast<size_t>(S + 1), 0);
        d[static_cast<size_t>(S)] = 0;
        double best = std::numeric_limits<double>::infinity();
        for (;;) {
            int u = -1;
            for (int i = 0; i <= S; ++i)
                if (!done[static_cast<size_t>(i)] && std::isfinite(d[static_cast<size_t>(i)]) && (u < 0 || d[static_cast<size_t>(i)] < d[static_cast<size_t>(u)])) u = i;
            if (u < 0) break;
            done[static_cast<size_t>(u)] = 1;
            const int p = u == S ? sp : u / nvp;
            const std::array<float, 3> pos = u == S ? std::array<float, 3>{s[0], s[1], s[2]} : mid(p, u % nvp);
            if (p == ep) best = std::min(best, d[static_cast<size_t>(u)] + dist(pos, e) * cost(ep));
            const int n = nverts_of(p);
            for (int j = 0; j < n; ++j) {
                const uint16_t q = pm.polys[static_cast<size_t>(p * 2 * nvp + nvp + j)];
                if (q == nav::kMeshNullIdx || !passes(q)) continue;
                // The edge of q that is this portal.
                const int nq = nverts_of(q);
                int k = -1;
                for (int m = 0; m < nq; ++m)
                    if (pm.polys[static_cast<size_t>(q * 2 * nvp + nvp + m)] == p &&
                        pm.polys[static_cast<size_t>(q * 2 * nvp + m)] == pm.polys[static_cast<size_t>(p * 2 * nvp + (j + 1) % n)])
                        k = m;
                REQUIRE(k >= 0);
                const auto mj = mid(p, j);
                const double nd = d[static_cast<size_t>(u)] + dist(pos, mj.data()) * cost(p);
                const int t = q * nvp + k;
                if (nd < d[static_cast<size_t>(t)]) d[static_cast<size_t>(t)] = nd;
            }
        }
        return best;
    }
};

// Cost of a corridor in the A* cost model, recomputed from the navmesh.
double corridor_cost(const nav::NavMesh& nm, const nav::QueryFilter& f, const std::vector<nav::PolyRef>& c, const float* s,
                     const float* e) {
    double total = 0;
    float pos[3] = {s[0], s[1], s[2]};
    for (size_t i = 0; i + 1 < c.size(); ++i) {
        const uint32_t edge = nm.find_edge(nm.poly_index(c[i]), nm.poly_index(c[i + 1]));
        REQUIRE(edge != nav::kNoEdge);
        const float* m = &nm.edge_mid[static_cast<size_t>(edge) * 3];
        total += std::hypot(m[0] - pos[0], m[1] - pos[1], m[2] - pos[2]) * f.area_cost[nm.areas[nm.poly_index(c[i])]];
        pos[0] = m[0], pos[1] = m[1], pos[2] = m[2];
    }
    total += std::hypot(e[0] - pos[0], e[1] - pos[1], e[2] - pos[2]) * f.area_cost[nm.areas[nm.poly_index(c.back())]];
    return total;
}

bool inside_xz(const nav::NavMesh& nm, uint32_t p, float x, float z, float tol) {
    // Recast winding: the interior is on the right of each edge, cross(e, pt - a) <= 0.
    for (uint32_t e = nm.poly_first[p]; e < nm.poly_first[p + 1]; ++e) {
        const float* a = nm.vert(nm.edge_vert[e]);
        const float* b = nm.vert(nm.edge_vert[nm.next_edge(e)]);
        const float ex = b[0] - a[0], ez = b[2] - a[2];
        const float len = std::hypot(ex, ez);
        if (len == 0) continue;
        if ((ex * (z - a[2]) - ez * (x - a[0])) / len > tol) return false;
    }
    return true;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Funnel

TEST_CASE("funnel: a straight corridor gives the straight segment") {
    Grid g = flat_grid(5, 1);
    World w(g.b);
    const float s[3] = {0.5f, 0, 0.5f}, e[3] = {4.5f, 0, 0.25f};
    const auto sp = straight(w, s, e, corridor(w, g, {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}}));
    REQUIRE(sp.size() == 2);
    check_point(sp, 0, 0.5f, 0, 0.5f);
    check_point(sp, 1, 4.5f, 0, 0.25f);
    CHECK(sp.polys[0] == cell(w, g, 0, 0));
    CHECK(sp.polys[1] == nav::kNoRef);
    CHECK_FALSE(sp.partial);
}

TEST_CASE("funnel: an L-shaped corridor has exactly one corner, at the inner corner") {
    Grid g = flat_grid(3, 3, {{0, 1}, {1, 1}, {0, 2}, {1, 2}});
    World w(g.b);
    const float s[3] = {0.5f, 0, 0.5f}, e[3] = {2.5f, 0, 2.5f};
    const auto c = corridor(w, g, {{0, 0}, {1, 0}, {2, 0}, {2, 1}, {2, 2}});
    nav::FunnelTrace trace;
    const auto sp = straight(w, s, e, c, {}, &trace);
    REQUIRE(sp.size() == 3);
    check_point(sp, 0, 0.5f, 0, 0.5f);
    check_point(sp, 1, 2.0f, 0, 1.0f);
    check_point(sp, 2, 2.5f, 0, 2.5f);
    CHECK(sp.polys[1] == cell(w, g, 2, 1));  // the corner enters (2, 1)
    CHECK(sp.length() == doctest::Approx(std::hypot(1.5f, 0.5f) + std::hypot(0.5f, 1.5f)));
    // Trace: one corner decision before the end point, and its apex is the corner.
    int corners = 0;
    for (const auto& st : trace.steps)
        if ((st.events & (nav::FunnelTrace::kCornerLeft | nav::FunnelTrace::kCornerRight)) && st.apex[2] < 2.5f) {
            ++corners;
            CHECK(st.apex[0] == doctest::Approx(2.0f));
            CHECK(st.apex[2] == doctest::Approx(1.0f));
        }
    CHECK(corners == 1);
    // Every portal was looked at, the end point last.
    REQUIRE_FALSE(trace.steps.empty());
    CHECK(trace.steps.back().portal == c.size() - 1);
    // The same answer without a trace.
    const auto sp2 = straight(w, s, e, c);
    CHECK(sp2.points == sp.points);
}

TEST_CASE("funnel: a U-turn corridor gives its two inner corners") {
    Grid g = flat_grid(3, 3, {{0, 1}, {1, 1}});
    World w(g.b);
    const float s[3] = {0.5f, 0, 0.5f}, e[3] = {0.5f, 0, 2.5f};
    const auto sp = straight(w, s, e, corridor(w, g, {{0, 0}, {1, 0}, {2, 0}, {2, 1}, {2, 2}, {1, 2}, {0, 2}}));
    REQUIRE(sp.size() == 4);
    check_point(sp, 1, 2.0f, 0, 1.0f);
    check_point(sp, 2, 2.0f, 0, 2.0f);
    check_point(sp, 3, 0.5f, 0, 2.5f);
}

TEST_CASE("funnel: collinear portals") {
    SUBCASE("a path along the wall through every portal end") {
        Grid g = flat_grid(5, 1);
        World w(g.b);
        const float s[3] = {0.5f, 0, 0}, e[3] = {4.5f, 0, 0};
        const auto sp = straight(w, s, e, corridor(w, g, {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}}));
        REQUIRE(sp.size() == 2);
        check_point(sp, 1, 4.5f, 0, 0);
    }
    SUBCASE("portals sharing a vertex that the straight line passes through") {
        // A 2 x 2 square cut into four triangles around its centre (1, 1).
        Builder b;
        const int c0 = b.v(0, 0, 0), c1 = b.v(0, 0, 2), c2 = b.v(2, 0, 2), c3 = b.v(2, 0, 0), m = b.v(1, 0, 1);
        const int west = b.poly({c0, c1, m}), north = b.poly({c1, c2, m}), east = b.poly({c2, c3, m}), south = b.poly({c3, c0, m});
        (void)north;
        World w(b);
        const float s[3] = {0.5f, 0, 1}, e[3] = {1.5f, 0, 1};
        const std::vector<nav::PolyRef> c = {ref(w, west), ref(w, south), ref(w, east)};
        const auto sp = straight(w, s, e, c);
        CHECK(sp.size() <= 3);
        CHECK(sp.length() == doctest::Approx(1.0f));
        for (int i = 0; i < sp.size(); ++i) CHECK(sp.points[static_cast<size_t>(i) * 3 + 2] == doctest::Approx(1.0f));
    }
}

TEST_CASE("funnel: a portal of zero length") {
    // P = [0,1]^2 with a doubled vertex at (1, 0.5); Q is the triangle (1, 0.5), (2, 1), (2, 0)
    // hanging off that single point.
    Builder b;
    const int a = b.v(0, 0, 0), bb = b.v(0, 0, 1), c = b.v(1, 0, 1), m1 = b.v(1, 0, 0.5f), m2 = b.v(1, 0, 0.5f), d = b.v(1, 0, 0);
    const int q1 = b.v(2, 0, 1), q2 = b.v(2, 0, 0);
    const int P = b.poly({a, bb, c, m1, m2, d});
    const int Q = b.poly({m2, m1, q1, q2});
    World w(b);
    REQUIRE(w.nm.find_edge(static_cast<uint32_t>(P), static_cast<uint32_t>(Q)) != nav::kNoEdge);
    const float s[3] = {0.25f, 0, 0.75f}, e[3] = {1.75f, 0, 0.25f};
    nav::FunnelTrace trace;
    const auto sp = straight(w, s, e, {ref(w, P), ref(w, Q)}, {}, &trace);
    // (0.25, 0.75) -> (1.75, 0.25) crosses x = 1 at z = 0.5: the portal point itself, no corner.
    CHECK(sp.size() <= 3);
    CHECK(sp.length() == doctest::Approx(std::hypot(1.5f, 0.5f)));
    // Off the line, the zero-length portal is a corner.
    const float s2[3] = {0.25f, 0, 0.9f};
    const auto sp2 = straight(w, s2, e, {ref(w, P), ref(w, Q)});
    REQUIRE(sp2.size() == 3);
    check_point(sp2, 1, 1.0f, 0, 0.5f);
    for (float v : sp2.points) CHECK(std::isfinite(v));
}

TEST_CASE("funnel: start or end lying on a portal") {
    Grid g = flat_grid(3, 3, {{0, 1}, {1, 1}, {0, 2}, {1, 2}});
    World w(g.b);
    SUBCASE("start on the first portal") {
        const float s[3] = {2.0f, 0, 0.5f}, e[3] = {2.5f, 0, 2.5f};
        nav::FunnelTrace trace;
        const auto sp = straight(w, s, e, corridor(w, g, {{1, 0}, {2, 0}, {2, 1}, {2, 2}}), {}, &trace);
        REQUIRE(sp.size() == 2);
        check_point(sp, 0, 2.0f, 0, 0.5f);
        REQUIRE_FALSE(trace.steps.empty());
        CHECK(trace.steps.front().events == nav::FunnelTrace::kSkip);
    }
    SUBCASE("end on the last portal") {
        const float s[3] = {0.5f, 0, 0.5f}, e[3] = {2.5f, 0, 2.0f};
        const auto sp = straight(w, s, e, corridor(w, g, {{0, 0}, {1, 0}, {2, 0}, {2, 1}, {2, 2}}));
        REQUIRE(sp.size() == 3);
        check_point(sp, 1, 2.0f, 0, 1.0f);
        check_point(sp, 2, 2.5f, 0, 2.0f);
    }
    SUBCASE("start on a middle portal of a straight corridor") {
        Grid s5 = flat_grid(5, 1);
        World w5(s5.b);
        const float s[3] = {1.0f, 0, 0.5f}, e[3] = {4.5f, 0, 0.5f};
        const auto sp = straight(w5, s, e, corridor(w5, s5, {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}}));
        REQUIRE(sp.size() == 2);
    }
}

TEST_CASE("funnel: start and end are clamped into the first and last polygons") {
    Grid g = flat_grid(3, 1);
    World w(g.b);
    const float s[3] = {-1.0f, 0, 0.5f}, e[3] = {4.0f, 0, 2.0f};
    const auto sp = straight(w, s, e, corridor(w, g, {{0, 0}, {1, 0}, {2, 0}}));
    REQUIRE(sp.size() == 2);
    check_point(sp, 0, 0.0f, 0, 0.5f);
    check_point(sp, 1, 3.0f, 0, 1.0f);
}

TEST_CASE("funnel: portal shrink moves corners toward the portal middle") {
    Grid g = flat_grid(3, 3, {{0, 1}, {1, 1}, {0, 2}, {1, 2}});
    World w(g.b);
    const float s[3] = {0.5f, 0, 0.5f}, e[3] = {2.5f, 0, 2.5f};
    const auto c = corridor(w, g, {{0, 0}, {1, 0}, {2, 0}, {2, 1}, {2, 2}});
    SUBCASE("by a fraction of the portal length") {
        nav::StraightPathOptions o;
        o.shrink_fraction = 0.1f;
        const auto sp = straight(w, s, e, c, o);
        // The inner corner (2, 1) belongs to two portals; each end moves 0.1 m toward its middle.
        REQUIRE(sp.size() == 4);
        check_point(sp, 1, 2.0f, 0, 0.9f);
        check_point(sp, 2, 2.1f, 0, 1.0f);
    }
    SUBCASE("by a distance") {
        nav::StraightPathOptions o;
        o.shrink_distance = 0.25f;
        const auto sp = straight(w, s, e, c, o);
        REQUIRE(sp.size() == 4);
        check_point(sp, 1, 2.0f, 0, 0.75f);
        check_point(sp, 2, 2.25f, 0, 1.0f);
    }
    SUBCASE("half: through the portal middles") {
        nav::StraightPathOptions o;
        o.shrink_fraction = 0.7f;  // clamped to 0.5
        const auto sp = straight(w, s, e, c, o);
        for (int i = 1; i + 1 < sp.size(); ++i) {
            const float x = sp.points[static_cast<size_t>(i) * 3], z = sp.points[static_cast<size_t>(i) * 3 + 2];
            const bool on_mid = (x == doctest::Approx(2.0f) && z == doctest::Approx(0.5f)) ||
                                (x == doctest::Approx(2.5f) && z == doctest::Approx(1.0f)) ||
                                (x == doctest::Approx(2.5f) && z == doctest::Approx(2.0f)) ||
                                (x == doctest::Approx(1.0f) && z == doctest::Approx(0.5f));
            CHECK(on_mid);
        }
    }
}

TEST_CASE("funnel: extra vertices at polygon and area crossings") {
    Grid g = flat_grid(5, 1);
    g.b.areas[static_cast<size_t>(g.poly_at(2, 0))] = nav::kAreaWater;
    g.b.areas[static_cast<size_t>(g.poly_at(3, 0))] = nav::kAreaWater;
    World w(g.b);
    const float s[3] = {0.5f, 0, 0.5f}, e[3] = {4.5f, 0, 0.5f};
    const auto c = corridor(w, g, {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}});
    nav::StraightPathOptions o;
    o.crossings = nav::Crossings::All;
    auto sp = straight(w, s, e, c, o);
    REQUIRE(sp.size() == 6);
    for (int i = 1; i <= 4; ++i) {
        check_point(sp, i, static_cast<float>(i), 0, 0.5f);
        CHECK(sp.polys[static_cast<size_t>(i)] == c[static_cast<size_t>(i)]);
    }
    o.crossings = nav::Crossings::Area;
    sp = straight(w, s, e, c, o);
    REQUIRE(sp.size() == 4);
    check_point(sp, 1, 2.0f, 0, 0.5f);
    check_point(sp, 2, 4.0f, 0, 0.5f);
}

TEST_CASE("funnel: a broken corridor ends in the last reachable polygon") {
    Grid g = flat_grid(5, 1);
    World w(g.b);
    const float s[3] = {0.5f, 0, 0.5f}, e[3] = {4.5f, 0, 0.5f};
    nav::StraightPath sp;
    REQUIRE(w.q.find_straight_path(s, e, corridor(w, g, {{0, 0}, {1, 0}, {3, 0}, {4, 0}}), {}, sp).is_ok());
    CHECK(sp.partial);
    REQUIRE(sp.size() == 2);
    check_point(sp, 1, 2.0f, 0, 0.5f);
}

TEST_CASE("funnel: on random grids the path stays in the corridor and beats the midpoint path") {
    std::mt19937 rng(1234);
    nav::QueryFilter f;
    int checked = 0;
    for (int trial = 0; trial < 40; ++trial) {
        const int W = 3 + static_cast<int>(rng() % 6), H = 3 + static_cast<int>(rng() % 6);
        std::vector<char> open(static_cast<size_t>(W * H));
        for (auto& o : open) o = (rng() % 100) < 78;
        Grid g = make_grid(W, H, [&](int x, int z) { return open[static_cast<size_t>(z * W + x)] != 0; }, [](int, int) { return 0.0f; });
        if (g.b.polys.size() < 2) continue;
        World w(g.b);
        std::uniform_real_distribution<float> u(0.02f, 0.98f);
        for (int k = 0; k < 10; ++k) {
            const int pa = static_cast<int>(rng() % g.b.polys.size()), pb = static_cast<int>(rng() % g.b.polys.size());
            const auto& va = g.b.verts[static_cast<size_t>(g.b.polys[static_cast<size_t>(pa)][0])];
            const auto& vb = g.b.verts[static_cast<size_t>(g.b.polys[static_cast<size_t>(pb)][0])];
            const float s[3] = {va[0] + u(rng), 0, va[2] + u(rng)}, e[3] = {vb[0] + u(rng), 0, vb[2] + u(rng)};
            nav::PathResult pr;
            REQUIRE(w.q.find_path(ref(w, pa), ref(w, pb), s, e, f, pr).is_ok());
            if (!pr.reached) continue;
            const auto sp = straight(w, s, e, pr.polys);
            // Every point of every segment lies in some corridor polygon.
            for (int i = 1; i < sp.size(); ++i)
                for (int t = 0; t <= 20; ++t) {
                    const float* a = &sp.points[static_cast<size_t>(i - 1) * 3];
                    const float* b = &sp.points[static_cast<size_t>(i) * 3];
                    const float x = a[0] + (b[0] - a[0]) * static_cast<float>(t) / 20, z = a[2] + (b[2] - a[2]) * static_cast<float>(t) / 20;
                    bool in = false;
                    for (const nav::PolyRef p : pr.polys) in = in || inside_xz(w.nm, w.nm.poly_index(p), x, z, 1e-3f);
                    CHECK(in);
                }
            // No longer than the polyline through the portal midpoints.
            double mid_len = 0;
            float pos[3] = {s[0], s[1], s[2]};
            for (size_t i = 0; i + 1 < pr.polys.size(); ++i) {
                const float* m = &w.nm.edge_mid[static_cast<size_t>(w.nm.find_edge(w.nm.poly_index(pr.polys[i]), w.nm.poly_index(pr.polys[i + 1]))) * 3];
                mid_len += std::hypot(m[0] - pos[0], m[2] - pos[2]);
                pos[0] = m[0], pos[2] = m[2];
            }
            mid_len += std::hypot(e[0] - pos[0], e[2] - pos[2]);
            CHECK(sp.length() <= mid_len + 1e-3);
            ++checked;
        }
    }
    CHECK(checked > 100);
}

// ---------------------------------------------------------------------------------------------
// A*

TEST_CASE("A*: same cost as a brute-force Dijkstra on random grids") {
    std::mt19937 rng(99);
    int compared = 0, unreachable = 0;
    for (int trial = 0; trial < 60; ++trial) {
        const int W = 2 + static_cast<int>(rng() % 7), H = 2 + static_cast<int>(rng() % 7);
        std::vector<char> open(static_cast<size_t>(W * H));
        for (auto& o : open) o = (rng() % 100) < 80;
        std::vector<float> hy(static_cast<size_t>((W + 1) * (H + 1)));
        for (auto& y : hy) y = static_cast<float>(rng() % 4) * 0.25f;
        Grid g = make_grid(
            W, H, [&](int x, int z) { return open[static_cast<size_t>(z * W + x)] != 0; },
            [&](int x, int z) { return hy[static_cast<size_t>(z * (W + 1) + x)]; });
        if (g.b.polys.empty()) continue;
        const uint8_t area_ids[4] = {nav::kWalkableArea, nav::kAreaWater, nav::kAreaRoad, nav::kAreaGrass};
        for (auto& a : g.b.areas) a = area_ids[rng() % 4];
        for (auto& fl : g.b.flags) fl = (rng() % 100) < 10 ? 0x0002 : 0;
        // Random walls between open neighbours.
        for (int z = 0; z < H; ++z)
            for (int x = 0; x < W; ++x) {
                if (g.poly_at(x, z) < 0) continue;
                if (x + 1 < W && g.poly_at(x + 1, z) >= 0 && rng() % 100 < 15) g.b.cut(g.poly_at(x, z), g.poly_at(x + 1, z));
                if (z + 1 < H && g.poly_at(x, z + 1) >= 0 && rng() % 100 < 15) g.b.cut(g.poly_at(x, z), g.poly_at(x, z + 1));
            }
        World w(g.b);
        nav::QueryFilter f;
        f.area_cost[nav::kAreaWater] = 3.5f;
        f.area_cost[nav::kAreaRoad] = 0.5f;
        f.area_cost[nav::kAreaGrass] = 2.0f;
        if (trial % 2) f.exclude_flags = 0x0002;
        const Brute brute{w.pm, f, w.pm.nvp};
        std::uniform_real_distribution<float> u(0.05f, 0.95f);
        for (int k = 0; k < 15; ++k) {
            const int pa = static_cast<int>(rng() % g.b.polys.size()), pb = static_cast<int>(rng() % g.b.polys.size());
            const auto& va = g.b.verts[static_cast<size_t>(g.b.polys[static_cast<size_t>(pa)][0])];
            const auto& vb = g.b.verts[static_cast<size_t>(g.b.polys[static_cast<size_t>(pb)][0])];
            float s[3] = {va[0] + u(rng), 0, va[2] + u(rng)}, e[3] = {vb[0] + u(rng), 0, vb[2] + u(rng)};
            w.nm.poly_height(static_cast<uint32_t>(pa), s[0], s[2], &s[1]);
            w.nm.poly_height(static_cast<uint32_t>(pb), e[0], e[2], &e[1]);
            nav::PathResult pr;
            REQUIRE(w.q.find_path(ref(w, pa), ref(w, pb), s, e, f, pr).is_ok());
            const double want = brute.solve(pa, s, pb, e);
            REQUIRE_FALSE(pr.polys.empty());
            CHECK(pr.polys.front() == ref(w, pa));
            for (size_t i = 0; i + 1 < pr.polys.size(); ++i) CHECK(w.nm.find_edge(w.nm.poly_index(pr.polys[i]), w.nm.poly_index(pr.polys[i + 1])) != nav::kNoEdge);
            CHECK_FALSE(pr.out_of_nodes);
            if (std::isfinite(want)) {
                CHECK(pr.reached);
                CHECK(pr.polys.back() == ref(w, pb));
                CHECK(pr.cost == doctest::Approx(want).epsilon(1e-4));
                CHECK(corridor_cost(w.nm, f, pr.polys, s, e) == doctest::Approx(want).epsilon(1e-4));
                ++compared;
            } else {
                CHECK_FALSE(pr.reached);
                ++unreachable;
            }
        }
    }
    CHECK(compared > 500);
    CHECK(unreachable > 20);
}

TEST_CASE("A*: an unreachable goal gives a partial path, flagged") {
    // Two separate strips: x in [0, 5] at z in [0, 1] and x in [7, 12] at z in [0, 1].
    Grid g = make_grid(12, 1, [](int x, int) { return x < 5 || x >= 7; }, [](int, int) { return 0.0f; });
    World w(g.b);
    nav::QueryFilter f;
    const float s[3] = {0.5f, 0, 0.5f}, e[3] = {11.5f, 0, 0.5f};
    nav::PathResult pr;
    REQUIRE(w.q.find_path(cell(w, g, 0, 0), cell(w, g, 11, 0), s, e, f, pr).is_ok());
    CHECK_FALSE(pr.reached);
    CHECK(pr.polys == corridor(w, g, {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}}));
    CHECK(pr.cost == doctest::Approx(3.5f));  // start to the midpoint of the last portal, x = 4
    // The funnel toward the unreachable goal ends in the last polygon.
    nav::StraightPath sp;
    REQUIRE(w.q.find_straight_path(s, e, pr.polys, {}, sp).is_ok());
    check_point(sp, sp.size() - 1, 5.0f, 0, 0.5f);

    SUBCASE("same island, cut off by the filter") {
        g.b.flags[static_cast<size_t>(g.poly_at(2, 0))] = 0x0008;
        World w2(g.b);
        nav::QueryFilter fx;
        fx.exclude_flags = 0x0008;
        const float e2[3] = {4.5f, 0, 0.5f};
        REQUIRE(w2.q.find_path(cell(w2, g, 0, 0), cell(w2, g, 4, 0), s, e2, fx, pr).is_ok());
        CHECK_FALSE(pr.reached);
        CHECK(pr.polys == corridor(w2, g, {{0, 0}, {1, 0}}));
    }
    SUBCASE("an island reduced to one polygon") {
        Grid lone = make_grid(5, 1, [](int x, int) { return x != 1; }, [](int, int) { return 0.0f; });
        World w3(lone.b);
        REQUIRE(w3.q.find_path(cell(w3, lone, 0, 0), cell(w3, lone, 4, 0), s, e, f, pr).is_ok());
        CHECK_FALSE(pr.reached);
        CHECK(pr.polys == corridor(w3, lone, {{0, 0}}));
    }
}

TEST_CASE("A*: a node limit too small gives a partial path, not a crash") {
    Grid g = flat_grid(8, 8);
    World w(g.b, 3);
    nav::QueryFilter f;
    const float s[3] = {0.5f, 0, 0.5f}, e[3] = {7.5f, 0, 7.5f};
    nav::PathResult pr;
    REQUIRE(w.q.find_path(cell(w, g, 0, 0), cell(w, g, 7, 7), s, e, f, pr).is_ok());
    CHECK(pr.out_of_nodes);
    CHECK_FALSE(pr.reached);
    REQUIRE_FALSE(pr.polys.empty());
    CHECK(pr.polys.front() == cell(w, g, 0, 0));
    for (size_t i = 0; i + 1 < pr.polys.size(); ++i) CHECK(w.nm.find_edge(w.nm.poly_index(pr.polys[i]), w.nm.poly_index(pr.polys[i + 1])) != nav::kNoEdge);
    // With room enough, the same query reaches the goal.
    w.q.init(&w.nm, 1000);
    REQUIRE(w.q.find_path(cell(w, g, 0, 0), cell(w, g, 7, 7), s, e, f, pr).is_ok());
    CHECK(pr.reached);
    CHECK_FALSE(pr.out_of_nodes);
    CHECK(pr.polys.size() == 15);
}

TEST_CASE("A*: area costs steer the path around expensive polygons") {
    // 3 x 3, the middle row's centre cell is water: from (0,1) to (2,1) the direct way crosses it.
    Grid g = flat_grid(3, 3);
    g.b.areas[static_cast<size_t>(g.poly_at(1, 1))] = nav::kAreaWater;
    World w(g.b);
    const float s[3] = {0.5f, 0, 1.5f}, e[3] = {2.5f, 0, 1.5f};
    nav::PathResult pr;
    nav::QueryFilter cheap;
    REQUIRE(w.q.find_path(cell(w, g, 0, 1), cell(w, g, 2, 1), s, e, cheap, pr).is_ok());
    CHECK(pr.polys == corridor(w, g, {{0, 1}, {1, 1}, {2, 1}}));
    CHECK(pr.cost == doctest::Approx(2.0f));
    nav::QueryFilter wet;
    wet.area_cost[nav::kAreaWater] = 10;
    REQUIRE(w.q.find_path(cell(w, g, 0, 1), cell(w, g, 2, 1), s, e, wet, pr).is_ok());
    CHECK(pr.reached);
    CHECK(std::find(pr.polys.begin(), pr.polys.end(), cell(w, g, 1, 1)) == pr.polys.end());
}

TEST_CASE("A*: the trace records every step") {
    Grid g = flat_grid(4, 3, {{1, 1}, {2, 1}});
    World w(g.b);
    nav::QueryFilter f;
    const float s[3] = {0.5f, 0, 1.5f}, e[3] = {3.5f, 0, 1.5f};
    nav::PathResult pr, pr2;
    nav::AStarTrace trace;
    const uint32_t a = static_cast<uint32_t>(g.poly_at(0, 1)), b = static_cast<uint32_t>(g.poly_at(3, 1));
    REQUIRE(w.q.find_path(w.nm.ref(a), w.nm.ref(b), s, e, f, pr, &trace).is_ok());
    REQUIRE(w.q.find_path(w.nm.ref(a), w.nm.ref(b), s, e, f, pr2).is_ok());
    CHECK(pr.polys == pr2.polys);
    CHECK(pr.cost == pr2.cost);
    REQUIRE(pr.reached);
    REQUIRE(trace.steps.size() == static_cast<size_t>(pr.expanded));
    CHECK(trace.steps.front().poly == a);
    CHECK(trace.steps.front().from_poly == nav::kNoPoly);
    CHECK(trace.steps.back().poly == b);  // the goal, popped last
    CHECK(trace.steps.back().g == doctest::Approx(pr.cost));
    uint32_t prev_closed = 0;
    float prev_f = 0;
    for (const auto& st : trace.steps) {
        CHECK(st.first_update + st.update_count <= trace.updates.size());
        CHECK(st.first_open + st.open_count <= trace.open.size());
        CHECK(st.closed_count > prev_closed);
        CHECK(st.closed_count <= trace.closed.size());
        CHECK(st.f >= prev_f - 1e-4f);  // consistent heuristic: f never decreases
        prev_closed = st.closed_count;
        prev_f = st.f;
        for (uint32_t i = st.first_update; i < st.first_update + st.update_count; ++i) {
            CHECK(trace.updates[i].f >= trace.updates[i].g - 1e-5f);
            CHECK(trace.updates[i].g >= st.g - 1e-5f);
        }
    }
    // Tracing is reset by the next traced query.
    REQUIRE(w.q.find_path(w.nm.ref(a), w.nm.ref(a), s, s, f, pr, &trace).is_ok());
    CHECK(trace.steps.size() == 1);
}

TEST_CASE("queries: NaN and out-of-range input is a clear error") {
    Grid g = flat_grid(2, 1);
    World w(g.b);
    nav::QueryFilter f;
    const float ok[3] = {0.5f, 0, 0.5f}, bad[3] = {0.5f, kNaN, 0.5f}, ext[3] = {1, 1, 1};
    nav::NearestPoly np;
    nav::PathResult pr;
    nav::StraightPath sp;
    nav::RaycastHit rh;
    nav::WallHit wh;
    nav::PolysAround pa;
    const auto bad_input = nav::Status::Code::BadInput;
    nav::Status st = w.q.find_nearest_poly(bad, ext, f, np);
    CHECK(st.code == bad_input);
    CHECK(st.message.find("NaN") != std::string::npos);
    CHECK(w.q.find_nearest_poly(ok, bad, f, np).code == bad_input);
    const nav::PolyRef p0 = ref(w, 0), p1 = ref(w, 1);
    CHECK(w.q.find_path(p0, p1, bad, ok, f, pr).code == bad_input);
    CHECK(w.q.find_path(p0, p1, ok, bad, f, pr).code == bad_input);
    CHECK(w.q.find_path(p0, nav::make_poly_ref(0, 0, 7), ok, ok, f, pr).code == bad_input);  // tile 0 has 2 polygons
    CHECK(w.q.find_straight_path(bad, ok, std::vector<nav::PolyRef>{p0, p1}, {}, sp).code == bad_input);
    CHECK(w.q.find_straight_path(ok, ok, std::vector<nav::PolyRef>{}, {}, sp).code == bad_input);
    CHECK(w.q.raycast(p0, ok, bad, f, rh).code == bad_input);
    CHECK(w.q.find_distance_to_wall(p0, bad, 1, f, wh).code == bad_input);
    CHECK(w.q.find_distance_to_wall(p0, ok, kNaN, f, wh).code == bad_input);
    CHECK(w.q.find_polys_around_circle(p0, bad, 1, f, pa).code == bad_input);
    nav::QueryFilter badf;
    badf.area_cost[5] = kNaN;
    CHECK(w.q.find_path(p0, p1, ok, ok, badf, pr).code == bad_input);
    badf.area_cost[5] = -1;
    CHECK(w.q.find_path(p0, p1, ok, ok, badf, pr).code == bad_input);
    nav::NavQuery unbound;
    CHECK(unbound.find_nearest_poly(ok, ext, f, np).code == bad_input);
}

// ---------------------------------------------------------------------------------------------
// Point location, raycast, wall distance, circle, random points

TEST_CASE("nearest polygon") {
    // Floor [0,3] x [0,1] at y 0 and a second floor [0,3] x [0,1] at y 3 (stacked).
    Builder b;
    std::vector<int> lo, hi, lo2, hi2;
    for (int i = 0; i <= 3; ++i) {
        lo.push_back(b.v(static_cast<float>(i), 0, 0));
        hi.push_back(b.v(static_cast<float>(i), 0, 1));
    }
    for (int i = 0; i < 3; ++i) b.poly({lo[static_cast<size_t>(i)], hi[static_cast<size_t>(i)], hi[static_cast<size_t>(i) + 1], lo[static_cast<size_t>(i) + 1]});
    const int up = b.poly({b.v(0, 3, 0), b.v(0, 3, 1), b.v(3, 3, 1), b.v(3, 3, 0)});
    World w(b);
    nav::QueryFilter f;
    nav::NearestPoly np;
    const float ext[3] = {1, 2, 1};
    const float above[3] = {1.5f, 0.5f, 0.5f};
    REQUIRE(w.q.find_nearest_poly(above, ext, f, np).is_ok());
    CHECK(np.poly == ref(w, 1));
    CHECK(np.over_poly);
    CHECK(np.point[0] == doctest::Approx(1.5f));
    CHECK(np.point[1] == doctest::Approx(0.0f));
    CHECK(np.point[2] == doctest::Approx(0.5f));
    const float high[3] = {1.5f, 2.6f, 0.5f};
    REQUIRE(w.q.find_nearest_poly(high, ext, f, np).is_ok());
    CHECK(np.poly == ref(w, up));
    CHECK(np.point[1] == doctest::Approx(3.0f));
    // Off the mesh but within the extents: the nearest boundary point.
    const float off[3] = {3.5f, 0.2f, 0.5f};
    REQUIRE(w.q.find_nearest_poly(off, ext, f, np).is_ok());
    CHECK(np.poly == ref(w, 2));
    CHECK_FALSE(np.over_poly);
    CHECK(np.point[0] == doctest::Approx(3.0f));
    CHECK(np.point[1] == doctest::Approx(0.0f));
    CHECK(np.point[2] == doctest::Approx(0.5f));
    // Outside the extents: none.
    const float far[3] = {5.0f, 0, 0.5f};
    REQUIRE(w.q.find_nearest_poly(far, ext, f, np).is_ok());
    CHECK(np.poly == nav::kNoRef);
    // The filter hides polygons.
    nav::QueryFilter none;
    none.include_flags = 0x0010;
    REQUIRE(w.q.find_nearest_poly(above, ext, none, np).is_ok());
    CHECK(np.poly == nav::kNoRef);
    std::vector<nav::PolyRef> polys;
    REQUIRE(w.q.query_polygons(above, ext, f, polys).is_ok());
    std::vector<uint32_t> dense;
    for (const nav::PolyRef r : polys) dense.push_back(w.nm.poly_index(r));
    std::sort(dense.begin(), dense.end());
    CHECK(dense == std::vector<uint32_t>{0, 1, 2});
}

TEST_CASE("raycast hits the wall at the right t") {
    Grid g = flat_grid(5, 1);
    World w(g.b);
    nav::QueryFilter f;
    nav::RaycastHit hit;
    const float s[3] = {0.5f, 0, 0.5f};
    SUBCASE("end wall") {
        const float e[3] = {10.0f, 0, 0.5f};
        REQUIRE(w.q.raycast(cell(w, g, 0, 0), s, e, f, hit).is_ok());
        CHECK(hit.hit);
        CHECK(hit.t == doctest::Approx(4.5f / 9.5f));
        CHECK(hit.normal[0] == doctest::Approx(-1.0f));
        CHECK(hit.normal[2] == doctest::Approx(0.0f));
        CHECK(hit.polys == corridor(w, g, {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}}));
    }
    SUBCASE("side wall") {
        const float e[3] = {2.5f, 0, 3.0f};
        REQUIRE(w.q.raycast(cell(w, g, 0, 0), s, e, f, hit).is_ok());
        CHECK(hit.hit);
        CHECK(hit.t == doctest::Approx(0.2f));
        CHECK(hit.normal[2] == doctest::Approx(-1.0f));
        CHECK(hit.polys.size() == 1);
    }
    SUBCASE("no wall before the end") {
        const float e[3] = {3.5f, 0, 0.9f};
        REQUIRE(w.q.raycast(cell(w, g, 0, 0), s, e, f, hit).is_ok());
        CHECK_FALSE(hit.hit);
        CHECK(hit.t == 1.0f);
        CHECK(hit.polys.size() == 4);
    }
    SUBCASE("a filtered polygon is a wall") {
        g.b.flags[static_cast<size_t>(g.poly_at(3, 0))] = 0x0004;
        World w2(g.b);
        nav::QueryFilter fx;
        fx.exclude_flags = 0x0004;
        const float e[3] = {10.0f, 0, 0.5f};
        REQUIRE(w2.q.raycast(cell(w2, g, 0, 0), s, e, fx, hit).is_ok());
        CHECK(hit.hit);
        CHECK(hit.t == doctest::Approx(2.5f / 9.5f));
        CHECK(hit.normal[0] == doctest::Approx(-1.0f));
    }
}

TEST_CASE("distance to the nearest wall") {
    Grid g = flat_grid(5, 3);
    World w(g.b);
    nav::QueryFilter f;
    nav::WallHit wh;
    const float c[3] = {2.5f, 0, 1.2f};
    REQUIRE(w.q.find_distance_to_wall(cell(w, g, 2, 1), c, 10, f, wh).is_ok());
    CHECK(wh.found);
    CHECK(wh.distance == doctest::Approx(1.2f));
    CHECK(wh.point[0] == doctest::Approx(2.5f));
    CHECK(wh.point[2] == doctest::Approx(0.0f));
    CHECK(wh.normal[2] == doctest::Approx(1.0f));
    REQUIRE(w.q.find_distance_to_wall(cell(w, g, 2, 1), c, 0.5f, f, wh).is_ok());
    CHECK_FALSE(wh.found);
    CHECK(wh.distance == doctest::Approx(0.5f));
    // An excluded neighbour is a wall.
    g.b.flags[static_cast<size_t>(g.poly_at(3, 1))] = 0x0004;
    World w2(g.b);
    nav::QueryFilter fx;
    fx.exclude_flags = 0x0004;
    REQUIRE(w2.q.find_distance_to_wall(cell(w2, g, 2, 1), c, 10, fx, wh).is_ok());
    CHECK(wh.distance == doctest::Approx(0.5f));
    CHECK(wh.point[0] == doctest::Approx(3.0f));
    CHECK(wh.normal[0] == doctest::Approx(-1.0f));
}

TEST_CASE("polygons around a circle") {
    Grid g = flat_grid(5, 5);
    World w(g.b);
    nav::QueryFilter f;
    nav::PolysAround pa;
    const float c[3] = {2.5f, 0, 2.5f};
    REQUIRE(w.q.find_polys_around_circle(cell(w, g, 2, 2), c, 1.2f, f, pa).is_ok());
    std::unordered_set<nav::PolyRef> got(pa.polys.begin(), pa.polys.end()), want;  // std::hash<PolyRef>
    for (int z = 1; z <= 3; ++z)
        for (int x = 1; x <= 3; ++x) want.insert(cell(w, g, x, z));
    CHECK(got == want);
    CHECK(pa.polys.size() == 9);
    CHECK(pa.polys.front() == cell(w, g, 2, 2));
    CHECK(pa.parents.front() == nav::kNoRef);
    for (size_t i = 1; i < pa.polys.size(); ++i) {
        CHECK(pa.costs[i] >= pa.costs[i - 1]);
        CHECK(w.nm.find_edge(w.nm.poly_index(pa.parents[i]), w.nm.poly_index(pa.polys[i])) != nav::kNoEdge);
    }
    REQUIRE(w.q.find_polys_around_circle(cell(w, g, 2, 2), c, 0.4f, f, pa).is_ok());
    CHECK(pa.polys.size() == 1);
}

TEST_CASE("random points lie on polygons, area-weighted and deterministic") {
    // A 2 x 2 square and a separate 1 x 1 square.
    Builder b;
    const int big = b.poly({b.v(0, 0, 0), b.v(0, 0, 2), b.v(2, 0, 2), b.v(2, 0, 0)});
    const int small = b.poly({b.v(3, 1, 0), b.v(3, 1, 1), b.v(4, 1, 1), b.v(4, 1, 0)});
    World w(b);
    nav::QueryFilter f;
    nav::Rng rng(42);
    int in_big = 0;
    const int n = 20000;
    std::vector<float> first;
    for (int i = 0; i < n; ++i) {
        nav::RandomPoint rp;
        REQUIRE(w.q.random_point(f, rng, rp).is_ok());
        REQUIRE(rp.poly != nav::kNoRef);
        const uint32_t p = w.nm.poly_index(rp.poly);
        CHECK(inside_xz(w.nm, p, rp.point[0], rp.point[2], 1e-5f));
        float y;
        w.nm.poly_height(p, rp.point[0], rp.point[2], &y);
        CHECK(rp.point[1] == doctest::Approx(y));
        if (rp.poly == ref(w, big)) ++in_big;
        if (i < 5) first.insert(first.end(), rp.point, rp.point + 3);
    }
    CHECK(static_cast<double>(in_big) / n == doctest::Approx(0.8).epsilon(0.03));
    // Same seed, same points; another seed, other points.
    nav::Rng again(42), other(43);
    std::vector<float> repeat, different;
    for (int i = 0; i < 5; ++i) {
        nav::RandomPoint rp;
        REQUIRE(w.q.random_point(f, again, rp).is_ok());
        repeat.insert(repeat.end(), rp.point, rp.point + 3);
        REQUIRE(w.q.random_point(f, other, rp).is_ok());
        different.insert(different.end(), rp.point, rp.point + 3);
    }
    CHECK(repeat == first);
    CHECK(different != first);
    // The filter restricts the choice.
    b.flags[static_cast<size_t>(big)] = 0x0004;
    World w2(b);
    nav::QueryFilter fx;
    fx.exclude_flags = 0x0004;
    for (int i = 0; i < 200; ++i) {
        nav::RandomPoint rp;
        REQUIRE(w2.q.random_point(fx, rng, rp).is_ok());
        CHECK(rp.poly == ref(w2, small));
        CHECK(rp.point[1] == doctest::Approx(1.0f));
    }
    nav::QueryFilter nothing;
    nothing.include_flags = 0;
    nav::RandomPoint rp;
    REQUIRE(w2.q.random_point(nothing, rng, rp).is_ok());
    CHECK(rp.poly == nav::kNoRef);
}

TEST_CASE("route: nearest polygons, corridor and straight path in one call") {
    Grid g = flat_grid(3, 3, {{0, 1}, {1, 1}, {0, 2}, {1, 2}});
    World w(g.b);
    nav::QueryFilter f;
    nav::Route r;
    const float s[3] = {0.5f, 0.3f, 0.5f}, e[3] = {2.5f, 0.3f, 2.5f}, ext[3] = {1, 1, 1};
    REQUIRE(w.q.find_route(s, e, ext, f, {}, r).is_ok());
    REQUIRE(r.found());
    CHECK(r.path.reached);
    CHECK(r.path.polys == corridor(w, g, {{0, 0}, {1, 0}, {2, 0}, {2, 1}, {2, 2}}));
    REQUIRE(r.straight.size() == 3);
    check_point(r.straight, 1, 2.0f, 0, 1.0f);
    const float off[3] = {10, 0, 10};
    REQUIRE(w.q.find_route(s, off, ext, f, {}, r).is_ok());
    CHECK_FALSE(r.found());
    CHECK(r.end.poly == nav::kNoRef);
}

// ---------------------------------------------------------------------------------------------
// On our own bake of the shared meshes

TEST_CASE("queries on the shared meshes: paths stay in their corridors") {
    for (const char* name : {"dungeon.obj", "nav_test.obj", "undulating.obj"}) {
        CAPTURE(name);
        const std::string path = navtest::shared_mesh_or_skip(name);
        if (path.empty()) continue;
        nav::Pipeline pipe;
        REQUIRE(pipe.load_mesh(path).is_ok());
        const nav::Status run = pipe.run();
        REQUIRE_MESSAGE(run.is_ok(), run.message);
        const auto bake = pipe.snapshot();
        REQUIRE(bake->polymesh);
        REQUIRE(bake->detail);
        nav::NavMesh nm;
        const nav::Status built = nav::build_navmesh(*bake->polymesh, *bake->detail, nm);
        REQUIRE_MESSAGE(built.is_ok(), built.message);
        REQUIRE(nm.npolys > 50);
        nav::NavQuery q;
        q.init(&nm);
        nav::QueryFilter f;
        nav::Rng rng(2024);
        const float ext[3] = {2, 4, 2};
        int reached = 0;
        nav::Route r;
        for (int i = 0; i < 300; ++i) {
            nav::RandomPoint a, b;
            REQUIRE(q.random_point(f, rng, a).is_ok());
            REQUIRE(q.random_point(f, rng, b).is_ok());
            REQUIRE(a.poly != nav::kNoRef);
            CHECK(inside_xz(nm, nm.poly_index(a.poly), a.point[0], a.point[2], 1e-3f));
            REQUIRE(q.find_route(a.point, b.point, ext, f, {}, r).is_ok());
            REQUIRE(r.found());
            CHECK(r.start.poly == a.poly);
            CHECK(r.end.poly == b.poly);
            for (size_t k = 0; k + 1 < r.path.polys.size(); ++k) CHECK(nm.find_edge(nm.poly_index(r.path.polys[k]), nm.poly_index(r.path.polys[k + 1])) != nav::kNoEdge);
            // Reached exactly when the two polygons share an island.
            CHECK(r.path.reached == (nm.poly_island[nm.poly_index(a.poly)] == nm.poly_island[nm.poly_index(b.poly)]));
            if (!r.path.reached) continue;
            ++reached;
            const nav::StraightPath& sp = r.straight;
            REQUIRE(sp.size() >= 2);
            const float* last = &sp.points[static_cast<size_t>(sp.size() - 1) * 3];
            CHECK(std::hypot(last[0] - r.end.point[0], last[2] - r.end.point[2]) < 1e-3f);
            for (int k = 0; k < sp.size(); ++k) {
                bool in = false;
                for (const nav::PolyRef p : r.path.polys) in = in || inside_xz(nm, nm.poly_index(p), sp.points[static_cast<size_t>(k) * 3], sp.points[static_cast<size_t>(k) * 3 + 2], 1e-3f);
                CHECK(in);
            }
        }
        CHECK(reached > 50);
    }
}
