// Stage 4: erosion of the walkable area by the agent radius, on hand-made compact heightfields.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/bake/erode.h"

#include "chf_maps.h"

namespace {

using navtest::Layer;
using navtest::make_chf;
using navtest::draw;

std::vector<std::string> eroded(const std::vector<Layer>& layers, int radius, int draw_y) {
    const nav::CompactHeightfield chf = make_chf(layers);
    std::vector<uint8_t> areas = chf.areas, scratch;
    const nav::Status st = nav::erode_walkable_area(radius, chf, areas, scratch);
    REQUIRE(st.is_ok());
    return draw(chf, areas, draw_y);
}

const std::vector<std::string> kFloor7 = {
    ".........",
    ".#######.",
    ".#######.",
    ".#######.",
    ".#######.",
    ".#######.",
    ".#######.",
    ".#######.",
    ".........",
};

}  // namespace

TEST_CASE("erode: 7x7 floor, radius 0 to 4") {
    CHECK(eroded({{0, kFloor7}}, 0, 0) == kFloor7);
    CHECK(eroded({{0, kFloor7}}, 1, 0) == std::vector<std::string>{
                                              ".........",
                                              ".xxxxxxx.",
                                              ".x#####x.",
                                              ".x#####x.",
                                              ".x#####x.",
                                              ".x#####x.",
                                              ".x#####x.",
                                              ".xxxxxxx.",
                                              ".........",
                                          });
    CHECK(eroded({{0, kFloor7}}, 2, 0) == std::vector<std::string>{
                                              ".........",
                                              ".xxxxxxx.",
                                              ".xxxxxxx.",
                                              ".xx###xx.",
                                              ".xx###xx.",
                                              ".xx###xx.",
                                              ".xxxxxxx.",
                                              ".xxxxxxx.",
                                              ".........",
                                          });
    // The centre is at distance 6 (three +2 steps) from the rim: radius 3 keeps it (6 < 6 fails).
    CHECK(eroded({{0, kFloor7}}, 3, 0) == std::vector<std::string>{
                                              ".........",
                                              ".xxxxxxx.",
                                              ".xxxxxxx.",
                                              ".xxxxxxx.",
                                              ".xxx#xxx.",
                                              ".xxxxxxx.",
                                              ".xxxxxxx.",
                                              ".xxxxxxx.",
                                              ".........",
                                          });
    const std::vector<std::string> none = {
        ".........", ".xxxxxxx.", ".xxxxxxx.", ".xxxxxxx.", ".xxxxxxx.",
        ".xxxxxxx.", ".xxxxxxx.", ".xxxxxxx.", ".........",
    };
    CHECK(eroded({{0, kFloor7}}, 4, 0) == none);
    CHECK(eroded({{0, kFloor7}}, 200, 0) == none);  // beyond the 8-bit distance range: still all gone
}

TEST_CASE("erode: spans on the grid edge are boundaries too") {
    const std::vector<std::string> full = {"#####", "#####", "#####", "#####", "#####"};
    CHECK(eroded({{0, full}}, 1, 0) == std::vector<std::string>{"xxxxx", "x###x", "x###x", "x###x", "xxxxx"});
}

TEST_CASE("erode: island with a hole, radius 2") {
    // 11x11 floor covering the whole grid with one cell missing in the middle. The hole's four
    // side neighbours are boundaries; everything within chamfer distance < 4 of them (side +2,
    // corner +3) is eroded, which cuts a plus-shaped patch out of the ring that survives the rim.
    std::vector<std::string> floor(11, std::string(11, '#'));
    const std::vector<std::string> expect = {
        "xxxxxxxxxxx",
        "xxxxxxxxxxx",
        "xx#######xx",
        "xx##xxx##xx",
        "xx#xxxxx#xx",
        "xx#xx.xx#xx",
        "xx#xxxxx#xx",
        "xx##xxx##xx",
        "xx#######xx",
        "xxxxxxxxxxx",
        "xxxxxxxxxxx",
    };
    SUBCASE("hole without a span") {
        floor[5][5] = '.';
        CHECK(eroded({{0, floor}}, 2, 0) == expect);
    }
    SUBCASE("hole as a linked span of null area") {
        floor[5][5] = 'x';
        std::vector<std::string> e = expect;
        e[5][5] = 'x';
        CHECK(eroded({{0, floor}}, 2, 0) == e);
    }
}

TEST_CASE("erode: only null areas and missing links are boundaries, not other area ids") {
    // Left part water, right part ground: the border between them does not erode.
    std::vector<std::string> map = kFloor7;
    for (size_t z = 1; z <= 7; ++z)
        for (size_t x = 1; x <= 3; ++x) map[z][x] = 'w';
    CHECK(eroded({{0, map}}, 1, 0) == std::vector<std::string>{
                                          ".........",
                                          ".xxxxxxx.",
                                          ".xww###x.",
                                          ".xww###x.",
                                          ".xww###x.",
                                          ".xww###x.",
                                          ".xww###x.",
                                          ".xxxxxxx.",
                                          ".........",
                                      });
}

TEST_CASE("erode: stacked floors erode separately (neighbours found through layer links)") {
    // A 7x7 ground floor at y 0 and a 5x5 floor at y 40 over its middle: cells under the upper
    // floor hold two spans, so the upper floor's links point at layer 1.
    const std::vector<std::string> upper = {
        ".........",
        ".........",
        "..#####..",
        "..#####..",
        "..#####..",
        "..#####..",
        "..#####..",
        ".........",
        ".........",
    };
    const std::vector<Layer> layers = {{0, kFloor7}, {40, upper}};
    CHECK(eroded(layers, 1, 0) == std::vector<std::string>{
                                      ".........",
                                      ".xxxxxxx.",
                                      ".x#####x.",
                                      ".x#####x.",
                                      ".x#####x.",
                                      ".x#####x.",
                                      ".x#####x.",
                                      ".xxxxxxx.",
                                      ".........",
                                  });
    CHECK(eroded(layers, 1, 40) == std::vector<std::string>{
                                       ".........",
                                       ".........",
                                       "..xxxxx..",
                                       "..x###x..",
                                       "..x###x..",
                                       "..x###x..",
                                       "..xxxxx..",
                                       ".........",
                                       ".........",
                                   });
}

TEST_CASE("erode: diagonal steps cost 3") {
    // A lone null span at (4,4) of a 9x9 floor: it and its four side neighbours are boundaries.
    // (3,3) is next to two of them (2); (2,3) is a diagonal step from (3,4) (3, where two side
    // steps would give 4); (2,2) is two side steps from the rim (4) and three from (3,4) through
    // a diagonal (5). Radius 2 (threshold 4) keeps the 4s and erodes the rest.
    std::vector<std::string> floor(9, std::string(9, '#'));
    floor[4][4] = 'x';
    CHECK(eroded({{0, floor}}, 2, 0) == std::vector<std::string>{
                                            "xxxxxxxxx",
                                            "xxxxxxxxx",
                                            "xx#xxx#xx",
                                            "xxxxxxxxx",
                                            "xxxxxxxxx",
                                            "xxxxxxxxx",
                                            "xx#xxx#xx",
                                            "xxxxxxxxx",
                                            "xxxxxxxxx",
                                        });
}

TEST_CASE("erode: bad input") {
    const nav::CompactHeightfield chf = make_chf({{0, kFloor7}});
    std::vector<uint8_t> areas = chf.areas, scratch;
    nav::Status st = nav::erode_walkable_area(-1, chf, areas, scratch);
    CHECK(st.code == nav::Status::Code::BadInput);
    CHECK(st.message.find("radius") != std::string::npos);
    CHECK(areas == chf.areas);
    std::vector<uint8_t> short_areas(3, nav::kWalkableArea);
    st = nav::erode_walkable_area(1, chf, short_areas, scratch);
    CHECK_FALSE(st.is_ok());
    CHECK(short_areas == std::vector<uint8_t>(3, nav::kWalkableArea));
}

TEST_CASE("erode: empty heightfield") {
    nav::CompactHeightfield chf;
    std::vector<uint8_t> areas, scratch;
    CHECK(nav::erode_walkable_area(2, chf, areas, scratch).is_ok());
    CHECK(areas.empty());
}
