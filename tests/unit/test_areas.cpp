// Stage 5: convex volumes stamped onto compact spans, area names, volume validation.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/bake/areas.h"

#include "chf_maps.h"

namespace {

using navtest::Layer;
using navtest::make_chf;
using navtest::draw;

nav::ConvexVolume volume(std::vector<float> xz, float hmin, float hmax, uint8_t area) {
    nav::ConvexVolume v;
    for (size_t k = 0; k + 1 < xz.size(); k += 2) {
        v.verts.push_back(xz[k]);
        v.verts.push_back(0.0f);
        v.verts.push_back(xz[k + 1]);
    }
    v.hmin = hmin;
    v.hmax = hmax;
    v.area = area;
    return v;
}

// 10x10 floor of ground at y 2: with cs 1, ch 0.5 and bmin 0 its floor is at world height 1.0
// and the centre of cell (x, z) at (x + 0.5, z + 0.5).
nav::CompactHeightfield floor10(const std::vector<std::string>& map) {
    nav::CompactHeightfield chf = make_chf({{2, map}});
    chf.cs = 1.0f;
    chf.ch = 0.5f;
    return chf;
}
const std::vector<std::string> kGround(10, "##########");

}  // namespace

TEST_CASE("areas: names") {
    CHECK(nav::area_name(nav::kWalkableArea) == "ground");
    CHECK(nav::area_name(nav::kAreaWater) == "water");
    CHECK(nav::area_name(nav::kAreaRoad) == "road");
    CHECK(nav::area_name(nav::kAreaDoor) == "door");
    CHECK(nav::area_name(nav::kAreaGrass) == "grass");
    CHECK(nav::area_name(nav::kAreaJump) == "jump");
    CHECK(nav::area_name(nav::kNullArea) == "not_walkable");
    CHECK(nav::area_name(17).empty());
    for (uint8_t id : {nav::kWalkableArea, nav::kAreaWater, nav::kAreaRoad, nav::kAreaDoor, nav::kAreaGrass,
                       nav::kAreaJump, nav::kNullArea}) {
        uint8_t back = 200;
        CHECK(nav::area_from_name(nav::area_name(id), back));
        CHECK(back == id);
    }
    uint8_t out = 42;
    CHECK_FALSE(nav::area_from_name("lava", out));
    CHECK_FALSE(nav::area_from_name("Water", out));
    CHECK_FALSE(nav::area_from_name("", out));
    CHECK(out == 42);
}

TEST_CASE("areas: a square marks the cells whose centre is inside") {
    nav::CompactHeightfield chf = floor10(kGround);
    std::vector<uint8_t> areas = chf.areas;
    // Centres 2.5 .. 5.5 lie inside [2.2, 5.8]; 1.5 and 6.5 do not.
    const std::vector<std::string> marked = {
        "##########",
        "##########",
        "##wwww####",
        "##wwww####",
        "##wwww####",
        "##wwww####",
        "##########",
        "##########",
        "##########",
        "##########",
    };
    SUBCASE("counter-clockwise") {
        nav::mark_convex_volume(chf, volume({2.2f, 2.2f, 2.2f, 5.8f, 5.8f, 5.8f, 5.8f, 2.2f}, 0.0f, 2.0f, nav::kAreaWater), areas);
        CHECK(draw(chf, areas, 2) == marked);
    }
    SUBCASE("clockwise") {
        nav::mark_convex_volume(chf, volume({2.2f, 2.2f, 5.8f, 2.2f, 5.8f, 5.8f, 2.2f, 5.8f}, 0.0f, 2.0f, nav::kAreaWater), areas);
        CHECK(draw(chf, areas, 2) == marked);
    }
    SUBCASE("floor exactly at hmin and at hmax") {
        nav::mark_convex_volume(chf, volume({2.2f, 2.2f, 2.2f, 5.8f, 5.8f, 5.8f, 5.8f, 2.2f}, 1.0f, 1.0f, nav::kAreaWater), areas);
        CHECK(draw(chf, areas, 2) == marked);
    }
}

TEST_CASE("areas: height range") {
    nav::CompactHeightfield chf = floor10(kGround);
    std::vector<uint8_t> areas = chf.areas;
    const std::vector<float> square = {2.2f, 2.2f, 2.2f, 5.8f, 5.8f, 5.8f, 5.8f, 2.2f};
    nav::mark_convex_volume(chf, volume(square, 1.01f, 3.0f, nav::kAreaWater), areas);  // floor 1.0 below
    nav::mark_convex_volume(chf, volume(square, -2.0f, 0.99f, nav::kAreaWater), areas);  // floor above
    CHECK(areas == chf.areas);
}

TEST_CASE("areas: stacked floors, only the one in the height range") {
    std::vector<std::string> upper(10, "..........");
    upper[3] = "..####....";
    nav::CompactHeightfield chf = make_chf({{2, kGround}, {20, upper}});  // floors at 1.0 and 10.0
    chf.cs = 1.0f;
    chf.ch = 0.5f;
    std::vector<uint8_t> areas = chf.areas;
    nav::mark_convex_volume(chf, volume({0.0f, 3.0f, 0.0f, 4.0f, 10.0f, 4.0f, 10.0f, 3.0f}, 9.5f, 10.5f, nav::kAreaGrass), areas);
    CHECK(draw(chf, areas, 2) == kGround);
    std::vector<std::string> up = upper;
    up[3] = "..????....";  // grass has no letter in the test's drawing
    CHECK(draw(chf, areas, 20) == up);
    size_t grass = 0;
    for (uint8_t a : areas) grass += a == nav::kAreaGrass;
    CHECK(grass == 4);
}

TEST_CASE("areas: triangle, later volume wins, null spans stay null") {
    std::vector<std::string> map = kGround;
    map[1][1] = 'x';
    map[1][2] = 'x';
    nav::CompactHeightfield chf = floor10(map);
    std::vector<uint8_t> areas = chf.areas;
    // Right triangle (0,0) (6,0) (0,6): the centre (x + 0.5, z + 0.5) is inside when x + z < 5;
    // centres on the hypotenuse (x + z = 5, e.g. (2.5, 3.5)) are not.
    nav::mark_convex_volume(chf, volume({0.0f, 0.0f, 6.0f, 0.0f, 0.0f, 6.0f}, -10.0f, 10.0f, nav::kAreaWater), areas);
    CHECK(draw(chf, areas, 2) == std::vector<std::string>{
                                     "wwwww#####",
                                     "wxxw######",
                                     "www#######",
                                     "ww########",
                                     "w#########",
                                     "##########",
                                     "##########",
                                     "##########",
                                     "##########",
                                     "##########",
                                 });
    // A ground volume over the top rows, drawn later, takes back what it covers.
    nav::mark_convex_volume(chf, volume({-1.0f, -1.0f, -1.0f, 2.0f, 11.0f, 2.0f, 11.0f, -1.0f}, -10.0f, 10.0f, nav::kWalkableArea), areas);
    CHECK(draw(chf, areas, 2) == std::vector<std::string>{
                                     "##########",
                                     "#xx#######",
                                     "www#######",
                                     "ww########",
                                     "w#########",
                                     "##########",
                                     "##########",
                                     "##########",
                                     "##########",
                                     "##########",
                                 });
}

TEST_CASE("areas: volumes partly or wholly outside the grid") {
    nav::CompactHeightfield chf = floor10(kGround);
    std::vector<uint8_t> areas = chf.areas;
    nav::mark_convex_volume(chf, volume({-50.0f, -50.0f, -50.0f, -20.0f, -20.0f, -20.0f}, -10.0f, 10.0f, nav::kAreaWater), areas);
    nav::mark_convex_volume(chf, volume({20.0f, 20.0f, 30.0f, 20.0f, 30.0f, 30.0f}, -10.0f, 10.0f, nav::kAreaWater), areas);
    CHECK(areas == chf.areas);
    // A big square from (-5,-5) to (2,2) covers the cells with centres 0.5 and 1.5.
    nav::mark_convex_volume(chf, volume({-5.0f, -5.0f, -5.0f, 2.0f, 2.0f, 2.0f, 2.0f, -5.0f}, -10.0f, 10.0f, nav::kAreaWater), areas);
    // And one past the far corner covers 8.5 and 9.5.
    nav::mark_convex_volume(chf, volume({8.0f, 8.0f, 8.0f, 25.0f, 25.0f, 25.0f, 25.0f, 8.0f}, -10.0f, 10.0f, nav::kAreaWater), areas);
    CHECK(draw(chf, areas, 2) == std::vector<std::string>{
                                     "ww########",
                                     "ww########",
                                     "##########",
                                     "##########",
                                     "##########",
                                     "##########",
                                     "##########",
                                     "##########",
                                     "########ww",
                                     "########ww",
                                 });
}

TEST_CASE("areas: validate_volume") {
    const std::vector<float> square = {0, 0, 0, 4, 4, 4, 4, 0};
    auto bad = [](const nav::ConvexVolume& v, const char* needle) {
        const nav::Status st = nav::validate_volume(v, "volumes[3]");
        CHECK(st.code == nav::Status::Code::BadInput);
        CHECK(st.message.find("volumes[3]") != std::string::npos);
        CHECK_MESSAGE(st.message.find(needle) != std::string::npos, st.message);
    };
    CHECK(nav::validate_volume(volume(square, 0, 1, nav::kAreaWater), "v").is_ok());
    CHECK(nav::validate_volume(volume({0, 0, 0, 4, 4, 4, 4, 0}, 0, 1, nav::kWalkableArea), "v").is_ok());
    CHECK(nav::validate_volume(volume({0, 0, 4, 0, 4, 4, 0, 4}, 2, 2, 62), "v").is_ok());   // other winding
    CHECK(nav::validate_volume(volume({0, 0, 2, 0, 4, 0, 4, 4}, 0, 1, 1), "v").is_ok());     // straight vertex
    CHECK(nav::validate_volume(volume({0, 0, 1, 0, 0, 1}, 0, 1, 1), "v").is_ok());           // triangle

    bad(volume({0, 0, 4, 0}, 0, 1, 1), "at least 3");
    nav::ConvexVolume ragged = volume(square, 0, 1, 1);
    ragged.verts.pop_back();
    bad(ragged, "multiple of 3");
    nav::ConvexVolume nan = volume(square, 0, 1, 1);
    nan.verts[5] = std::numeric_limits<float>::quiet_NaN();
    bad(nan, "not finite");
    bad(volume(square, 0, std::numeric_limits<float>::infinity(), 1), "finite");
    bad(volume(square, 2, 1, 1), "hmin");
    // area 0 (not_walkable) removes the floor inside it: valid since issue 21
    CHECK(nav::validate_volume(volume(square, 0, 1, nav::kNullArea), "v").is_ok());
    bad(volume(square, 0, 1, 64), "area");
    bad(volume({0, 0, 4, 0, 1, 1, 0, 4}, 0, 1, 1), "not convex");                           // arrow
    bad(volume({0, 0, 2, 0, 2, 0, 2, 2}, 0, 1, 1), "coincide");                              // repeated vertex
    bad(volume({0, 0, 1, 1, 2, 2}, 0, 1, 1), "zero area");                                   // on a line
    bad(volume({0, 0, 4, 0, 2, 0, 2, 3}, 0, 1, 1), "not convex");                          // folds back at (4,0)
    // Goes up and down the same segment twice: every real turn is to the right and the turning
    // adds up to zero, so only the fold-back rule rejects it.
    bad(volume({0, 0, 0, 1, 0, 0, 0, 1, 1, 0}, 0, 1, 1), "folds back");
    // A pentagram turns the same way at every vertex but winds around twice.
    std::vector<float> star;
    for (int k = 0; k < 5; ++k) {
        const double a = 2.0 * 3.14159265358979323846 * (2 * k) / 5.0;
        star.push_back(static_cast<float>(std::cos(a)));
        star.push_back(static_cast<float>(std::sin(a)));
    }
    bad(volume(star, 0, 1, 1), "more than once");
}
