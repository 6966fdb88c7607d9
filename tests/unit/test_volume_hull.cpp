// nav::convex_hull_xz (core/bake/areas.h): the volume tool's hull of clicked points. Corners only
// (collinear and repeated points dropped), counter-clockwise in x-z, a valid volume outline;
// fewer than 3 points apart, points on one line and non-finite input refused with a message.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/bake/areas.h"

namespace {

// x,z pairs -> x,y,z points with y = 10 + index (to see which input point each corner is)
std::vector<float> pts_xz(const std::vector<float>& xz) {
    std::vector<float> out;
    for (size_t k = 0; k + 1 < xz.size(); k += 2) out.insert(out.end(), {xz[k], 10.0f + static_cast<float>(k / 2), xz[k + 1]});
    return out;
}

std::vector<float> xz_of(const std::vector<float>& h) {
    std::vector<float> out;
    for (size_t k = 0; k + 2 < h.size(); k += 3) out.insert(out.end(), {h[k], h[k + 2]});
    return out;
}

}  // namespace

TEST_CASE("convex hull: a square with inner, edge and repeated points gives its 4 corners, counter-clockwise") {
    // corners (0,0) (4,0) (4,4) (0,4); inside (1,1) (2,3); on edges (2,0) (4,2) (0,2); a corner twice
    const std::vector<float> in = pts_xz({1, 1, 4, 4, 2, 0, 0, 0, 4, 2, 2, 3, 0, 4, 4, 0, 0, 2, 4, 4});
    std::vector<float> hull;
    REQUIRE(nav::convex_hull_xz(in, hull));
    // from the least x (then least z), turning left in x-z
    CHECK(xz_of(hull) == std::vector<float>{0, 0, 4, 0, 4, 4, 0, 4});
    // each corner is an input point as given (y carried along): (4,4) first came as point 1
    REQUIRE(hull.size() == 12);
    CHECK(hull[1] == 13.0f);  // (0,0) is point 3
    CHECK(hull[7] == 11.0f);  // (4,4): the first of its two copies
    const size_t n = hull.size() / 3;
    for (size_t i = 0; i < n; ++i) {
        const float* a = &hull[3 * i];
        const float* b = &hull[3 * ((i + 1) % n)];
        const float* c = &hull[3 * ((i + 2) % n)];
        CHECK((b[0] - a[0]) * (c[2] - b[2]) - (b[2] - a[2]) * (c[0] - b[0]) > 0.0f);
    }
    nav::ConvexVolume v;
    v.verts = hull;
    v.hmin = 0, v.hmax = 1;
    CHECK(nav::validate_volume(v, "hull"));
}

TEST_CASE("convex hull: triangle, and a point order that does not matter") {
    std::vector<float> a, b;
    REQUIRE(nav::convex_hull_xz(pts_xz({0, 0, 3, 1, 1, 5}), a));
    REQUIRE(nav::convex_hull_xz(pts_xz({1, 5, 0, 0, 3, 1}), b));
    CHECK(xz_of(a) == std::vector<float>{0, 0, 3, 1, 1, 5});
    CHECK(xz_of(a) == xz_of(b));
    // clockwise clicks give the same counter-clockwise hull
    REQUIRE(nav::convex_hull_xz(pts_xz({0, 0, 1, 5, 3, 1}), b));
    CHECK(xz_of(a) == xz_of(b));
}

TEST_CASE("convex hull: a circle of points keeps them all; a near-collinear point inside an edge is dropped") {
    std::vector<float> xz;
    for (int k = 0; k < 16; ++k) {
        const double a = 2.0 * 3.14159265358979 * k / 16;
        xz.push_back(static_cast<float>(100.0 + 5.0 * std::cos(a)));
        xz.push_back(static_cast<float>(-50.0 + 5.0 * std::sin(a)));
    }
    std::vector<float> hull;
    REQUIRE(nav::convex_hull_xz(pts_xz(xz), hull));
    CHECK(hull.size() == 16 * 3);
    // (5, 0.0001) lies just inside the triangle's edge (0,0)-(10,0): dropped; (5, -0.01) just outside: a corner
    REQUIRE(nav::convex_hull_xz(pts_xz({0, 0, 10, 0, 10, 10, 5, 0.0001f}), hull));
    CHECK(xz_of(hull) == std::vector<float>{0, 0, 10, 0, 10, 10});
    REQUIRE(nav::convex_hull_xz(pts_xz({0, 0, 10, 0, 10, 10, 5, -0.01f}), hull));
    CHECK(hull.size() == 4 * 3);
}

TEST_CASE("convex hull: fewer than 3 points apart, points on one line, bad input are refused") {
    std::vector<float> hull = {1, 2, 3};
    nav::Status st = nav::convex_hull_xz({}, hull);
    CHECK_FALSE(st);
    CHECK(hull.empty());
    CHECK(st.message.find("at least 3 points apart in xz, got 0") != std::string::npos);
    st = nav::convex_hull_xz(pts_xz({0, 0, 1, 1}), hull);
    CHECK(st.message.find("got 2") != std::string::npos);
    // four points, two places: duplicates do not count (y differs, x and z the same)
    st = nav::convex_hull_xz(pts_xz({0, 0, 3, 3, 0, 0, 3, 3}), hull);
    CHECK_FALSE(st);
    CHECK(st.message.find("got 2 (of 4 points)") != std::string::npos);
    // collinear, in any order and with repeats
    for (const std::vector<float>& xz : {std::vector<float>{0, 0, 1, 1, 2, 2}, std::vector<float>{5, 5, 0, 0, 2, 2, 5, 5, 1, 1},
                                         std::vector<float>{0, 3, 0, -1, 0, 7}, std::vector<float>{-2, 4, 9, 4, 3, 4}}) {
        CAPTURE(xz.size());
        st = nav::convex_hull_xz(pts_xz(xz), hull);
        CHECK_FALSE(st);
        CHECK(st.message.find("on one line") != std::string::npos);
        CHECK(hull.empty());
    }
    const std::vector<float> nan = {0, 0, 0, 1, 0, 0, std::numeric_limits<float>::quiet_NaN(), 0, 1};
    st = nav::convex_hull_xz(nan, hull);
    CHECK(st.message.find("point 2 is not finite") != std::string::npos);
    st = nav::convex_hull_xz(std::vector<float>{0, 0, 0, 1, 0}, hull);
    CHECK(st.message.find("not a multiple of 3") != std::string::npos);
}
