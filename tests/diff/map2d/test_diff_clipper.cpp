// Weiler-Atherton (core/map2d/weiler.*) against Clipper 6.4 (Debian's libpolyclipping, test-only):
// the same area to 1e-9 relative and the same number of rings, on random and degenerate polygon
// pairs, for union, intersection, difference and xor. Clipper works on integers: our inputs are
// integers, Clipper gets them scaled by 1e12 so its rounding of intersection points stays far
// below the tolerance. StrictlySimple is left off: in Clipper 6.4 it sometimes turns a split-off
// piece into a hole (the union of A = (1,4)(3,0)(1,0)(4,2)(1,1) and
// B = (1,2)(5,2)(6,1)(2,1)(6,0)(2,4)(3,5) has area 8.3156 without it, 7.4580 with it; the
// winding number of A inside the triangle (2.29,1.43)(2.5,1)(4,2) is 1, so 8.3156 is right).
// Rings touching each other at a vertex (pinch points, everywhere in xor) have several valid
// representations, and Clipper's choice follows its sweep order. So the ring count is compared
// in one canonical form: Clipper's rings, as doubles, go through our union with the same
// vertex rule as every result of ours (each ring bounds one side of a pinch). The raw counts are
// compared too and the share that agrees is printed.
#include <doctest/doctest.h>

#include <clipper.hpp>

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
    int cases = 0, nonempty = 0, raw_same = 0;
};

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
    INFO(what << " op " << int(op) << " ours " << got << " clipper " << ref << " rings " << ours.count() << " vs "
              << sol.size());
    CHECK(std::fabs(got - ref) <= 1e-9 * std::max(std::fabs(ref), 1.0));
    Rings theirs, canonical;
    for (const auto& p : sol) {
        std::vector<double> q;
        for (const auto& v : p) {
            q.push_back(double(v.X) / kScale);
            q.push_back(double(v.Y) / kScale);
        }
        theirs.add(q.data(), p.size());
    }
    REQUIRE(clip_polygons(theirs, Rings{}, ClipOp::Union, FillRule::NonZero, canonical));
    CHECK(std::fabs(rings_area(canonical) - ref) <= 1e-9 * std::max(std::fabs(ref), 1.0));
    CHECK(ours.count() == canonical.count());
    stats.raw_same += ours.count() == sol.size() ? 1 : 0;
    ++stats.cases;
    stats.nonempty += sol.empty() ? 0 : 1;
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
    MESSAGE("coarse grid: " << stats.cases << " comparisons, " << stats.nonempty << " non-empty, raw ring count equal in "
                            << stats.raw_same);
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
    MESSAGE("fine grid: " << stats.cases << " comparisons, raw ring count equal in " << stats.raw_same);
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
    MESSAGE("stars and rectangles: " << stats.cases << " comparisons, raw ring count equal in " << stats.raw_same);
}
