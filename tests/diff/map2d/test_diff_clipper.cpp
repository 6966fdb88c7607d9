// Weiler-Atherton (core/map2d/weiler.*) against Clipper 6.4 (Debian's libpolyclipping, test-only):
// the same area to 1e-9 relative and the same number of rings, on random and degenerate polygon
// pairs, for union, intersection, difference and xor. Clipper works on integers: our inputs are
// integers, Clipper gets them scaled by 1e12 so its rounding of intersection points stays far
// below the tolerance. StrictlySimple is left off: in Clipper 6.4 it sometimes turns a split-off
// piece into a hole (the union of A = (1,4)(3,0)(1,0)(4,2)(1,1) and
// B = (1,2)(5,2)(6,1)(2,1)(6,0)(2,4)(3,5) has area 8.3156 without it, 7.4580 with it; the
// winding number of A inside the triangle (2.29,1.43)(2.5,1)(4,2) is 1, so 8.3156 is right).
// Ring counts: where no two rings of either result touch (no vertex repeated, no vertex of one
// ring on an edge of another, in ours or in Clipper's raw output) a result has exactly one
// representation, and our ring count must equal Clipper's raw count. Rings touching each other at
// a vertex (pinch points, everywhere in xor) have several valid representations, and Clipper's
// choice follows its sweep order: only there the count is compared in one canonical form
// (Clipper's rings, as doubles, go through our union with the same vertex rule as every result of
// ours: each ring bounds one side of a pinch). Each test prints how many cases went each way.
// Area: |ours - clipper| <= 1e-9 |clipper| + the rounding bound of Clipper's integer grid
// (every vertex it outputs moved by at most 1/sqrt(2) grid steps, 1e-12 here, so its area by at
// most perimeter * 1e-12). No absolute floor: a sliver of area 1e-4 is held to 1e-13 plus that
// bound, where the old absolute tolerance (1e-9 for every area below 1) let it be off by 1e-5 relative.
#include <doctest/doctest.h>

#include <clipper.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/map2d/weiler.h"

namespace {

using namespace nav::map2d;
constexpr double kScale = 1e12;

ClipperLib::Paths to_clipper(const Rings& r) {
    ClipperLib::Paths out;
    for (size_t k = 0; k < r.count(); ++k) {
        ClipperLib::Path p;
        for (uint32_t i = 0; i < r.size(k); ++i)
            p.push_back(ClipperLib::IntPoint(ClipperLib::cInt(std::llround(r.ring(k)[2 * i] * kScale)),
                                             ClipperLib::cInt(std::llround(r.ring(k)[2 * i + 1] * kScale))));
        out.push_back(p);
    }
    return out;
}

struct Compared {
    int cases = 0, nonempty = 0;
    int raw_compared = 0;  // no touching rings: our count == Clipper's raw count asserted
    int canonical = 0;     // touching rings: compared after re-union
    int small_area = 0;    // 0 < |area| < 1: where the tolerance used to be absolute
};

// Some vertex appears twice (within a ring or across rings), or lies on an edge of a ring it is
// not an end of (to a relative 1e-12: a ring touching another, or itself, at a point).
bool touching(const Rings& r) {
    const size_t n = r.xz.size() / 2;
    for (size_t i = 0; i < n; ++i)
        for (size_t j = i + 1; j < n; ++j)
            if (std::fabs(r.xz[2 * i] - r.xz[2 * j]) <= 1e-12 * (1 + std::fabs(r.xz[2 * i])) &&
                std::fabs(r.xz[2 * i + 1] - r.xz[2 * j + 1]) <= 1e-12 * (1 + std::fabs(r.xz[2 * i + 1])))
                return true;
    for (size_t k = 0; k < r.count(); ++k) {
        const double* p = r.ring(k);
        const uint32_t m = r.size(k);
        for (uint32_t e = 0; e < m; ++e) {
            const double *a = p + 2 * e, *b = p + 2 * ((e + 1) % m);
            const double len2 = (b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]);
            if (len2 == 0) return true;
            for (size_t k2 = 0; k2 < r.count(); ++k2) {
                for (uint32_t i = 0; i < r.size(k2); ++i) {
                    if (k2 == k && (i == e || i == (e + 1) % m)) continue;
                    const double* q = r.ring(k2) + 2 * i;
                    const double o = orient2d(a[0], a[1], b[0], b[1], q[0], q[1]);
                    if (std::fabs(o) > 1e-12 * len2 * 4) continue;
                    const double t = ((q[0] - a[0]) * (b[0] - a[0]) + (q[1] - a[1]) * (b[1] - a[1])) / len2;
                    if (t > -1e-12 && t < 1 + 1e-12) return true;
                }
            }
        }
    }
    return false;
}

double perimeter(const Rings& r) {
    double len = 0;
    for (size_t k = 0; k < r.count(); ++k)
        for (uint32_t i = 0; i < r.size(k); ++i) {
            const double *a = r.ring(k) + 2 * i, *b = r.ring(k) + 2 * ((i + 1) % r.size(k));
            len += std::hypot(b[0] - a[0], b[1] - a[1]);
        }
    return len;
}

void print(const char* what, const Compared& s) {
    MESSAGE(std::string(what) << ": " << s.cases << " comparisons, " << s.nonempty << " non-empty; ring count equal to Clipper's raw count in "
                 << s.raw_compared << " (no touching rings), compared after re-union in " << s.canonical
                 << " (touching rings); " << s.small_area << " with 0 < |area| < 1");
}

void compare(const Rings& a, const Rings& b, ClipOp op, FillRule fill, Compared& stats, const std::string& what) {
    Rings ours;
    REQUIRE(clip_polygons(a, b, op, fill, ours));
    ClipperLib::Clipper c;
    c.AddPaths(to_clipper(a), ClipperLib::ptSubject, true);
    c.AddPaths(to_clipper(b), ClipperLib::ptClip, true);
    const ClipperLib::ClipType ct = op == ClipOp::Union          ? ClipperLib::ctUnion
                                    : op == ClipOp::Intersection ? ClipperLib::ctIntersection
                                    : op == ClipOp::Difference   ? ClipperLib::ctDifference
                                                                 : ClipperLib::ctXor;
    const ClipperLib::PolyFillType ft = fill == FillRule::NonZero ? ClipperLib::pftNonZero : ClipperLib::pftPositive;
    ClipperLib::Paths sol;
    REQUIRE(c.Execute(ct, sol, ft, ft));
    double ref = 0;
    for (const auto& p : sol) ref += ClipperLib::Area(p);
    ref /= kScale * kScale;
    const double got = rings_area(ours);
    Rings theirs, canonical;
    for (const auto& p : sol) {
        std::vector<double> q;
        for (const auto& v : p) {
            q.push_back(double(v.X) / kScale);
            q.push_back(double(v.Y) / kScale);
        }
        theirs.add(q.data(), p.size());
    }
    const double tol = 1e-9 * std::fabs(ref) + perimeter(theirs) / kScale;
    const bool touch = touching(ours) || touching(theirs);
    INFO(what << " op " << int(op) << " ours " << got << " clipper " << ref << " rings " << ours.count() << " vs "
              << sol.size() << std::string(touch ? " (touching)" : ""));
    CHECK(std::fabs(got - ref) <= tol);
    stats.small_area += ref != 0 && std::fabs(ref) < 1;
    if (!touch) {
        CHECK(ours.count() == sol.size());
        ++stats.raw_compared;
    } else {
        REQUIRE(clip_polygons(theirs, Rings{}, ClipOp::Union, FillRule::NonZero, canonical));
        CHECK(std::fabs(rings_area(canonical) - ref) <= tol);
        CHECK(ours.count() == canonical.count());
        ++stats.canonical;
    }
    ++stats.cases;
    stats.nonempty += sol.empty() ? 0 : 1;
    REQUIRE(stats.cases == stats.raw_compared + stats.canonical);
}

Rings random_polygon(std::mt19937& rng, int grid, int nmin, int nmax) {
    std::uniform_int_distribution<int> c(0, grid), n(nmin, nmax);
    const int k = n(rng);
    std::vector<double> p;
    for (int i = 0; i < k; ++i) {
        p.push_back(c(rng));
        p.push_back(c(rng));
    }
    Rings r;
    r.add(p.data(), size_t(k));
    return r;
}

// A simple star-shaped polygon around a centre (angles sorted), integer coordinates.
Rings random_star(std::mt19937& rng, int grid, int n) {
    std::uniform_real_distribution<double> ang(0, 6.283185307179586), rad(0.2, 0.5);
    std::vector<double> a(static_cast<size_t>(n));
    for (auto& x : a) x = ang(rng);
    std::sort(a.begin(), a.end());
    std::vector<double> p;
    for (double x : a) {
        const double r = rad(rng) * grid;
        p.push_back(std::round(grid / 2.0 + r * std::cos(x)));
        p.push_back(std::round(grid / 2.0 + r * std::sin(x)));
    }
    Rings out;
    out.add(p.data(), size_t(n));
    return out;
}

}  // namespace

TEST_CASE("diff clipper: random self-intersecting pairs on a coarse grid (shared vertices, collinear edges)") {
    std::mt19937 rng(42);
    Compared stats;
    const ClipOp ops[4] = {ClipOp::Union, ClipOp::Intersection, ClipOp::Difference, ClipOp::Xor};
    for (int iter = 0; iter < 300; ++iter) {
        const Rings a = random_polygon(rng, 6, 3, 7), b = random_polygon(rng, 6, 3, 7);
        for (ClipOp op : ops) compare(a, b, op, FillRule::NonZero, stats, "coarse #" + std::to_string(iter));
    }
    print("coarse grid", stats);
}

TEST_CASE("diff clipper: random pairs on a fine grid, both fill rules") {
    std::mt19937 rng(7);
    Compared stats;
    const ClipOp ops[4] = {ClipOp::Union, ClipOp::Intersection, ClipOp::Difference, ClipOp::Xor};
    for (int iter = 0; iter < 300; ++iter) {
        const Rings a = random_polygon(rng, 1000, 3, 12), b = random_polygon(rng, 1000, 3, 12);
        for (ClipOp op : ops) {
            compare(a, b, op, FillRule::NonZero, stats, "fine #" + std::to_string(iter));
            compare(a, b, op, FillRule::Positive, stats, "fine positive #" + std::to_string(iter));
        }
    }
    print("fine grid", stats);
    // general position on a fine grid: most cases must take the strict (raw count) comparison
    CHECK(stats.raw_compared * 2 > stats.cases);
}

TEST_CASE("diff clipper: simple star polygons and multi-ring operands (obstacle unions)") {
    std::mt19937 rng(99);
    Compared stats;
    const ClipOp ops[4] = {ClipOp::Union, ClipOp::Intersection, ClipOp::Difference, ClipOp::Xor};
    for (int iter = 0; iter < 200; ++iter) {
        const int grid = iter % 2 ? 20 : 400;
        Rings a = random_star(rng, grid, 3 + iter % 9), b = random_star(rng, grid, 3 + (iter / 3) % 9);
        for (ClipOp op : ops) compare(a, b, op, FillRule::NonZero, stats, "star #" + std::to_string(iter));
        // several obstacles in one operand: rectangles sharing edges and corners
        Rings many;
        std::uniform_int_distribution<int> c(0, 8);
        for (int k = 0; k < 6; ++k) {
            const double x = c(rng), z = c(rng), w = 1 + c(rng) % 3, h = 1 + c(rng) % 3;
            const double q[8] = {x, z, x + w, z, x + w, z + h, x, z + h};
            many.add(q, 4);
        }
        compare(many, Rings{}, ClipOp::Union, FillRule::NonZero, stats, "rects #" + std::to_string(iter));
        Rings outline;
        const double o[8] = {1, 1, 9, 1, 9, 9, 1, 9};
        outline.add(o, 4);
        compare(outline, many, ClipOp::Difference, FillRule::NonZero, stats, "outline-rects #" + std::to_string(iter));
    }
    print("stars and rectangles", stats);
    CHECK(stats.raw_compared > 0);
}
